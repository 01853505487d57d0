// RUN: asc2-opt %s -ascendc-insert-sync -split-input-file | FileCheck %s
// RUN: asc2-opt %s -test-print-sync-plan -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: asc2-opt %s -test-print-buffer-liveness -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIVE

// asc2.inline names no pipe: a PIPE_ALL barrier right before it finishes
// everything issued earlier, one right after it everything the code started.
// The MTE2 -> V hazard on `a` across it needs no flag; the V -> MTE3 one
// after it does.
// CHECK-LABEL: func.func @fenced
// CHECK: ascendc.data_copy_in %
// CHECK-NEXT: ascendc.pipe_barrier ALL {reason = "asc2.inline (line {{[0-9]+}}) may use any pipe and buffer: every earlier instruction finishes before it"}
// CHECK-NEXT: ascendc.inline "touch($0);"
// CHECK-NEXT: ascendc.pipe_barrier ALL {reason = "asc2.inline (line {{[0-9]+}}) may use any pipe and buffer: its work finishes before any later instruction"}
// CHECK-NEXT: ascendc.exp
// CHECK-NEXT: ascendc.set_flag V -> MTE3
// PLAN-LABEL: sync-plan @fenced: 1 pairs, 2 barriers
// PLAN-NEXT: RAW V -> MTE3 on b
// PLAN-NEXT: pipe_barrier ALL before ascendc.inline @5
// PLAN-NEXT: pipe_barrier ALL after ascendc.inline @5
func.func @fenced(%x: !ascendc.gm<f32>) {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %a = ascendc.alloc_local {name = "a", offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %b = ascendc.alloc_local {name = "b", offset = 256 : i64} : !ascendc.local<64xf32, VECOUT>
  ascendc.data_copy_in %a, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.inline "touch($0);" (%a : !ascendc.local<64xf32, VECIN>)
  ascendc.exp %b, %a, %c64 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECIN>
  ascendc.data_copy_out %x[%c0], %b, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECOUT>
  return
}

// -----

// In a loop the fence is in the body: the previous iteration's copy-out is
// finished when the next iteration's inline code starts, so the only
// carried flag left is the one for the loads before the fence.
// CHECK-LABEL: func.func @fenced_loop
// CHECK: scf.for
// CHECK: ascendc.data_copy_in %
// CHECK-NEXT: ascendc.pipe_barrier ALL
// CHECK-NEXT: ascendc.inline "
// CHECK-NEXT: ascendc.pipe_barrier ALL
// CHECK-NOT: wait_flag
// CHECK: ascendc.data_copy_out
// PLAN-LABEL: sync-plan @fenced_loop:
// PLAN-NOT: MTE2 -> MTE3
// PLAN: pipe_barrier ALL before ascendc.inline
func.func @fenced_loop(%x: !ascendc.gm<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %a = ascendc.alloc_local {name = "a", offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  scf.for %i = %c0 to %n step %c1 {
    %off = arith.muli %i, %c64 : index
    ascendc.data_copy_in %a, %x[%off], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
    ascendc.inline "scale($0);" (%a : !ascendc.local<64xf32, VECIN>)
    ascendc.data_copy_out %x[%off], %a, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECIN>
  }
  return
}

// -----

// asc2.inline_vf is a vector op: its inputs are waited for (MTE2 -> V), its
// result is waited for by the copy-out (V -> MTE3). No barrier. The result
// is live from the inline_vf to its store, the input up to the inline_vf.
// CHECK-LABEL: func.func @vector_function
// CHECK: ascendc.wait_flag MTE2 -> V
// CHECK-NEXT: ascendc.inline_vf "
// CHECK-NEXT: ascendc.set_flag V -> MTE3
// CHECK-NOT: pipe_barrier ALL
// LIVE-LABEL: buffer-liveness @vector_function: 2 buffers
// LIVE-NEXT: a UB 256B live 4..5 (ascendc.data_copy_in .. ascendc.inline_vf)
// LIVE-NEXT: r UB 256B live 5..6 (ascendc.inline_vf .. ascendc.data_copy_out)
func.func @vector_function(%x: !ascendc.gm<f32>) {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %a = ascendc.alloc_local {name = "a", offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %r = ascendc.alloc_local {name = "r", offset = 256 : i64} : !ascendc.local<64xf32, VECCALC>
  ascendc.data_copy_in %a, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.inline_vf "$0 = $1;" %r (%a : !ascendc.local<64xf32, VECIN>) : !ascendc.local<64xf32, VECCALC>
  ascendc.data_copy_out %x[%c0], %r, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECCALC>
  return
}

// -----

// The buffers among asc2.inline's arguments are read and written there: live
// up to it, so nothing else takes their bytes before it.
// CHECK-LABEL: func.func @inline_keeps_args_live
// LIVE-LABEL: buffer-liveness @inline_keeps_args_live: 2 buffers
// LIVE-NEXT: a UB 256B live 4..7 (ascendc.data_copy_in .. ascendc.inline)
// LIVE-NEXT: b UB 256B live 6..6 (ascendc.duplicate .. ascendc.duplicate)
func.func @inline_keeps_args_live(%x: !ascendc.gm<f32>) {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %a = ascendc.alloc_local {name = "a"} : !ascendc.local<64xf32, VECIN>
  %b = ascendc.alloc_local {name = "b"} : !ascendc.local<64xf32, VECCALC>
  ascendc.data_copy_in %a, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  %one = arith.constant 1.0 : f32
  ascendc.duplicate %b, %one, %c64 : f32, !ascendc.local<64xf32, VECCALC>
  ascendc.inline "use($0);" (%a : !ascendc.local<64xf32, VECIN>)
  return
}
