//===- Passes.td - passes that print the analyses ------------*- tablegen -*-===//
//
// Each prints one analysis of every function to stderr, for lit tests; the
// IR is left as it is.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_ANALYSIS_PASSES
#define ASC2_ANALYSIS_PASSES

include "mlir/Pass/PassBase.td"

def TestPrintBufferLiveness : Pass<"test-print-buffer-liveness", "::mlir::func::FuncOp"> {
  let summary = "Print the live range of every local buffer (BufferLiveness)";
  let description = [{
    One line per `ascendc.alloc_local`: space, bytes, live range in program
    points with the ops at its ends, ping/pong slot, the multi-buffered loop
    a DMA buffer stays apart in, the buffer it must not share bytes with;
    then the most bytes live at once per space (plain, and with the DMA
    buffers of a copy apart).
  }];
}

def TestPrintUbPlan : Pass<"test-print-ub-plan", "::mlir::func::FuncOp"> {
  let summary = "Print the placement ascendc-plan-memory would write (UbPlan)";
  let description = [{
    One line per buffer: space, byte range, live range; then each space's
    peak and lower bound. The options are those of ascendc-plan-memory.
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", "32", "Byte alignment of every buffer">,
    Option<"ubCapacity", "ub-capacity", "int64_t", "188416",
           "UB bytes per core: above it a copy's DMA buffers may share bytes">,
    Option<"l1Capacity", "l1-capacity", "int64_t", "524160",
           "L1 bytes per core: above it a copy's DMA buffers may share bytes">,
    Option<"reuse", "reuse", "bool", "true", "Share bytes between buffers that are never live together">,
    Option<"shareCopies", "share-copies", "bool", "false",
           "Also let the DMA buffers of the copies of an unrolled loop share bytes">
  ];
}

def TestPrintSyncPlan : Pass<"test-print-sync-plan", "::mlir::func::FuncOp"> {
  let summary = "Print the hazards ascendc-insert-sync would order, and how (SyncPlan)";
  let description = [{
    One line per hazard: kind (RAW/WAR/WAW), pipes, buffer, the two ops at
    their program points, and how it is ordered: a flag with its event id
    (loop-carried or not; in MIX kernels the cores of set and wait, and
    whether it crosses cores), a pipe_barrier, or PIPE_ALL for want of an
    event id. Then the PIPE_ALL barriers of skipped guarded copies.
  }];
  let options = [
    Option<"eventIds", "event-ids", "int64_t", "8", "Event ids per pipe pair">
  ];
}

def TestPrintStaticSchedule : Pass<"test-print-static-schedule", "::mlir::func::FuncOp"> {
  let summary = "Print the ops per pipe and the flag edges between pipes (StaticSchedule)";
  let description = [{
    For final (synchronised) ascendc IR: one line per pipe with the program
    points and names of the ops it issues, then one line per edge from a
    set_flag (rls_buf) to a wait_flag (get_buf) that consumes it; `wraps`
    marks a wait of a later loop iteration.
  }];
}

#endif
