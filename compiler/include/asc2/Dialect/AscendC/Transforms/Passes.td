//===- Passes.td - ascendc passes ----------------------------*- tablegen -*-===//
#ifndef ASCENDC_PASSES
#define ASCENDC_PASSES

include "mlir/Pass/PassBase.td"

def AscendCHoistLocalAlloc : Pass<"ascendc-hoist-local-alloc", "::mlir::func::FuncOp"> {
  let summary = "Move local buffer allocations to the function entry";
  let description = [{
    Buffers are statically sized, so each `ascendc.alloc_local` inside a loop
    denotes one buffer reused by every iteration. Hoisting makes that explicit
    for memory planning and sync insertion (loop-carried hazards).
  }];
  let statistics = [
    Statistic<"numHoisted", "hoisted", "Number of allocations hoisted">
  ];
}

def AscendCPlanMemory : Pass<"ascendc-plan-memory", "::mlir::func::FuncOp"> {
  let summary = "Assign byte offsets to local buffers";
  let description = [{
    Places every `ascendc.alloc_local` in its memory space at an aligned
    offset (`offset` attribute), in order of first use, at the lowest offset
    free for the buffer's whole live range. With `reuse`, buffers that are
    never live together share bytes, and an elementwise result takes the
    bytes of a same-sized source that dies at its op (in place). In
    multi-buffered loops, DMA buffers stay apart from the other copies'
    buffers, and the DMA buffers of one copy get separate bytes unless that
    overflows `ub-capacity` / `l1-capacity`.
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", "32", "Byte alignment of every buffer">,
    Option<"ubCapacity", "ub-capacity", "int64_t", "188416",
           "UB bytes per core: above it a copy's DMA buffers may share bytes">,
    Option<"l1Capacity", "l1-capacity", "int64_t", "524160",
           "L1 bytes per core: above it a copy's DMA buffers may share bytes">,
    Option<"reuse", "reuse", "bool", "true", "Share bytes between buffers that are never live together">,
    Option<"shareCopies", "share-copies", "bool", "false",
           "Also let the DMA buffers of the copies of an unrolled loop share bytes (least UB, less overlap)">
  ];
  let statistics = [
    Statistic<"numPlaced", "placed", "Number of buffers placed">,
    Statistic<"numInPlace", "in-place", "Results placed over a source that dies at their op">
  ];
}

def AscendCComputeMemoryConsumption : Pass<"ascendc-compute-memory-consumption", "::mlir::func::FuncOp"> {
  let summary = "Fail when planned buffers exceed a memory space";
  let description = [{
    After planning, the end of the highest buffer in each space must fit the
    space's capacity; otherwise compilation fails naming the space, the
    overflow in bytes and the buffers live at the peak with their locations.
  }];
  let options = [
    Option<"ubCapacity", "ub-capacity", "int64_t", "188416", "UB bytes per core">,
    Option<"l1Capacity", "l1-capacity", "int64_t", "524160", "L1 bytes per core">,
    Option<"l0aCapacity", "l0a-capacity", "int64_t", "65536", "L0A bytes per core">,
    Option<"l0bCapacity", "l0b-capacity", "int64_t", "65536", "L0B bytes per core">,
    Option<"l0cCapacity", "l0c-capacity", "int64_t", "131072", "L0C bytes per core">,
    Option<"btCapacity", "bt-capacity", "int64_t", "1024", "Bias table bytes per core">
  ];
}

def AscendCDetectKernelType : Pass<"ascendc-detect-kernel-type", "::mlir::func::FuncOp"> {
  let summary = "Classify the kernel as AIV_ONLY, AIC_ONLY or MIX";
  let description = [{
    Sets `ascendc.kernel_type` on the function from the pipes and memory
    spaces its ops use: vector work (PIPE_V, UB copies) runs on the vector
    cores (AIV), cube work (L1/L0 buffers, MTE1, M, FIX) on the cube cores
    (AIC); a kernel with both is MIX. The emitter writes the matching
    KERNEL_TYPE_* and the simulator runs the blocks on the matching cores.
  }];
}

def AscendCInsertSync : Pass<"ascendc-insert-sync", "::mlir::func::FuncOp"> {
  let summary = "Insert set_flag/wait_flag/pipe_barrier between pipes";
  let description = [{
    Orders every read/write hazard (RAW, WAR, WAW) between ops on different
    pipes over the same bytes with a set_flag/wait_flag pair, and same-pipe
    RAW/WAW on local memory with pipe_barrier. Hazards carried around a loop
    get a flag set at the end of the body, primed before the loop and drained
    after it. Each inserted op records its reason.
  }];
  let options = [
    Option<"eventIds", "event-ids", "int64_t", "8", "Event ids per pipe pair">
  ];
  let statistics = [
    Statistic<"numPairs", "pairs", "set/wait pairs inserted">,
    Statistic<"numBarriers", "barriers", "pipe barriers inserted">
  ];
}

def AscendCInsertBufIdSync : Pass<"ascendc-insert-buf-id-sync", "::mlir::func::FuncOp"> {
  let summary = "Order cross-pipe hazards on local buffers with buffer ids (get_buf/rls_buf)";
  let description = [{
    The Ascend950 sync style. Local buffers whose planned bytes overlap form
    one resource; a resource touched by two or more pipes (the scalar unit
    aside) gets a buffer id, and every op touching it takes the id on its
    pipe (`get_buf`) before and releases it (`rls_buf`) after. Ids are
    granted in issue order, so all accesses to one resource run in program
    order across pipes, loop-carried hazards included; multi-buffered slots
    are distinct resources and overlap. With more resources than ids, a
    resource shares the id whose resources were last used earliest (sharing
    is always correct, only more serial). The hazards ids do not cover (GM,
    scalar-unit accesses, cross-core in MIX kernels) get set_flag/wait_flag
    exactly as in ascendc-insert-sync, and same-pipe RAW/WAW pipe_barrier.
    Each get/rls records its reason: the buffer and the ops sharing the id.
  }];
  let options = [
    Option<"bufIds", "buf-ids", "int64_t", "28", "Buffer ids available (Mutex ids 0..27)">,
    Option<"eventIds", "event-ids", "int64_t", "8", "Event ids per pipe pair, for the flags">
  ];
  let statistics = [
    Statistic<"numIds", "ids", "Buffer ids used">,
    Statistic<"numResources", "resources", "Resources guarded by an id">,
    Statistic<"numGets", "gets", "get_buf/rls_buf pairs inserted">,
    Statistic<"numPairs", "pairs", "set/wait pairs inserted">,
    Statistic<"numBarriers", "barriers", "pipe barriers inserted">
  ];
}

def AscendCFuseBufIdSync : Pass<"ascendc-fuse-buf-id-sync", "::mlir::func::FuncOp"> {
  let summary = "Merge adjacent buffer-id releases and takes of one pipe";
  let description = [{
    An `rls_buf P, id` followed in the same block by `get_buf P, id`, with
    no other pipe taking `id` in between, releases the id only to take it
    back: both go, and consecutive ops of one pipe on one buffer share one
    get/rls. A loop whose body takes an id on one pipe only takes it once
    before the loop and releases it after.
  }];
  let statistics = [
    Statistic<"numFused", "fused", "rls/get pairs removed between ops of one pipe">,
    Statistic<"numHoisted", "hoisted", "get/rls pairs hoisted out of loops">
  ];
}

def AscendCVerifySync : Pass<"ascendc-verify-sync", "::mlir::func::FuncOp"> {
  let summary = "Check the set_flag/wait_flag and get_buf/rls_buf protocols statically";
  let description = [{
    Follows every (src, dst, event) flag through the function in program
    order: a set_flag on a flag that is already set, or a wait_flag on one
    that was never set, is an error (undefined behaviour / a hang on
    hardware); a loop body must leave every flag as it found it, both arms of
    an scf.if must agree, and the kernel must end with every flag clear.
    PIPE_ALL barriers inside a loop body (outside a skipped-copy guard) are
    reported as warnings: they serialise the steady state.

    Buffer ids likewise: a get_buf of an id any pipe still holds, an
    rls_buf of an id its pipe does not hold, an id held at the end, an
    unbalanced loop body or disagreeing arms are errors. And two ops of
    different pipes (not S) that conflict on local bytes some id guards must
    both hold a common id. Hazards on bytes no id guards are left to the
    flags, whose coverage is not checked here.
  }];
}

#endif
