// RUN: asc2-opt %s -ascendc-insert-sync -split-input-file | FileCheck %s

// A single-buffered vadd loop: RAW MTE2->V and V->MTE3 inside the iteration,
// WAR V->MTE2 and MTE3->V carried to the next iteration (primed before the
// loop, drained after it).
// CHECK-LABEL: func.func @vadd_loop
func.func @vadd_loop(%x: !ascendc.gm<f32>, %y: !ascendc.gm<f32>, %out: !ascendc.gm<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %bx = ascendc.alloc_local {name = "x", offset = 0 : i64} : !ascendc.local<256xf32, VECIN>
  %by = ascendc.alloc_local {name = "y", offset = 1024 : i64} : !ascendc.local<256xf32, VECIN>
  %bz = ascendc.alloc_local {name = "z", offset = 2048 : i64} : !ascendc.local<256xf32, VECCALC>
  // CHECK: ascendc.set_flag V -> MTE2, [[VM:[0-9]+]]
  // CHECK: ascendc.set_flag MTE3 -> V, [[MV:[0-9]+]]
  // CHECK: scf.for
  scf.for %i = %c0 to %n step %c1 {
    %off = arith.muli %i, %c256 : index
    // CHECK: ascendc.wait_flag V -> MTE2, [[VM]]
    // CHECK-NEXT: ascendc.data_copy_in %
    ascendc.data_copy_in %bx, %x[%off], %c256 : !ascendc.local<256xf32, VECIN>, !ascendc.gm<f32>
    ascendc.data_copy_in %by, %y[%off], %c256 : !ascendc.local<256xf32, VECIN>, !ascendc.gm<f32>
    // CHECK: ascendc.data_copy_in %
    // CHECK-NEXT: ascendc.set_flag MTE2 -> V, [[E1:[0-9]+]] {reason = "RAW on y
    // CHECK-DAG: ascendc.wait_flag MTE2 -> V, [[E1]]
    // CHECK-DAG: ascendc.wait_flag MTE3 -> V, [[MV]]
    // CHECK: ascendc.add %
    ascendc.add %bz, %bx, %by, %c256 : !ascendc.local<256xf32, VECCALC>, !ascendc.local<256xf32, VECIN>, !ascendc.local<256xf32, VECIN>
    // The carried flags are set right after the last conflicting op of the
    // iteration, not at the end of the body.
    // CHECK-DAG: ascendc.set_flag V -> MTE3, [[E2:[0-9]+]]
    // CHECK-DAG: ascendc.set_flag V -> MTE2, [[VM]]
    // CHECK: ascendc.wait_flag V -> MTE3, [[E2]]
    // CHECK-NEXT: ascendc.data_copy_out %
    ascendc.data_copy_out %out[%off], %bz, %c256 : !ascendc.gm<f32>, !ascendc.local<256xf32, VECCALC>
    // CHECK-NEXT: ascendc.set_flag MTE3 -> V, [[MV]]
    // CHECK-NEXT: {{^ *}}}{{$}}
  }
  // CHECK-DAG: ascendc.wait_flag V -> MTE2, [[VM]]
  // CHECK-DAG: ascendc.wait_flag MTE3 -> V, [[MV]]
  // CHECK: return
  return
}

// -----

// Same-pipe read after write on V needs a barrier, not a flag.
// CHECK-LABEL: func.func @vector_chain
func.func @vector_chain(%x: !ascendc.gm<f32>) {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %a = ascendc.alloc_local {offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %b = ascendc.alloc_local {offset = 256 : i64} : !ascendc.local<64xf32, VECCALC>
  %c = ascendc.alloc_local {offset = 512 : i64} : !ascendc.local<64xf32, VECCALC>
  ascendc.data_copy_in %a, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  // CHECK: ascendc.wait_flag MTE2 -> V
  // CHECK-NEXT: ascendc.exp %
  ascendc.exp %b, %a, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  // CHECK-NEXT: ascendc.pipe_barrier V
  // CHECK-NEXT: ascendc.add %
  ascendc.add %c, %b, %a, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  // The GM write after the GM read of the same tensor is ordered as well:
  // MTE3 waits for V, which waited for the MTE2 read, so no MTE2 -> MTE3 pair.
  // CHECK-NOT: MTE2 -> MTE3
  // CHECK: ascendc.wait_flag V -> MTE3
  // CHECK-NOT: MTE2 -> MTE3
  // CHECK: ascendc.data_copy_out %
  ascendc.data_copy_out %x[%c0], %c, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECCALC>
  return
}

// -----

// Buffers that share bytes after planning are hazards too.
// CHECK-LABEL: func.func @aliased
func.func @aliased(%x: !ascendc.gm<f32>) {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %a = ascendc.alloc_local {offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %b = ascendc.alloc_local {offset = 0 : i64} : !ascendc.local<64xf32, VECOUT>
  %c = ascendc.alloc_local {offset = 256 : i64} : !ascendc.local<64xf32, VECIN>
  ascendc.data_copy_in %c, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.data_copy_out %x[%c0], %a, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECIN>
  // The MTE3 read of %a must finish before V overwrites the same bytes as %b.
  // CHECK: ascendc.data_copy_out %
  // CHECK-NEXT: ascendc.set_flag MTE3 -> V, [[E:[0-9]+]] {reason = "WAR
  // CHECK: ascendc.wait_flag MTE3 -> V, [[E]]
  // CHECK-NEXT: ascendc.abs %
  ascendc.abs %b, %c, %c64 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECIN>
  return
}
