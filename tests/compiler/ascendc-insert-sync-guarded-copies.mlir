// RUN: asc2-opt %s -ascendc-insert-sync | FileCheck %s

// A loop unrolled by two (ping/pong slots): the second copy runs under the
// bounds guard `scf.if %in`. Its loop-carried flags are waited right before
// the op of the copy that conflicts and set right after the op that last
// touches the buffer, inside the guard; the skipped branch gets twins of
// both (first the waits, then the sets) so each flag balances on both paths,
// behind a PIPE_ALL barrier: on a skipped trip nothing else orders the waits
// before the sets.
// CHECK-LABEL: func.func @guarded
// CHECK: ascendc.set_flag V -> MTE2, [[X:[0-9]+]] {reason = "WAR on x: {{.*}} (loop-carried)"}
// CHECK: ascendc.set_flag MTE3 -> V, [[Z:[0-9]+]] {reason = "WAR on z: {{.*}} (loop-carried)"}
// CHECK: ascendc.set_flag MTE3 -> V, [[Z1:[0-9]+]] {reason = "WAR on z_1: {{.*}} (loop-carried)"}
// CHECK: ascendc.set_flag V -> MTE2, [[X1:[0-9]+]] {reason = "WAR on x_1: {{.*}} (loop-carried)"}
// CHECK-NEXT: scf.for
// CHECK: scf.if
// CHECK-NEXT: ascendc.wait_flag V -> MTE2, [[X1]] {reason = "WAR on x_1: {{.*}} (loop-carried)"}
// CHECK-NEXT: ascendc.data_copy_in %
// CHECK-NEXT: ascendc.set_flag MTE2 -> V, [[R:[0-9]+]] {reason = "RAW on x_1:
// CHECK-NEXT: ascendc.wait_flag MTE2 -> V, [[R]] {reason = "RAW on x_1:
// CHECK-NEXT: ascendc.wait_flag MTE3 -> V, [[Z1]] {reason = "WAR on z_1: {{.*}} (loop-carried)"}
// CHECK-NEXT: ascendc.exp %
// CHECK-NEXT: ascendc.set_flag V -> MTE2, [[X1]] {reason = "WAR on x_1: {{.*}} (loop-carried)"}
// CHECK: ascendc.data_copy_out %
// CHECK-NEXT: ascendc.set_flag MTE3 -> V, [[Z1]] {reason = "WAR on z_1: {{.*}} (loop-carried)"}
// CHECK-NEXT: } else {
// CHECK-NEXT: ascendc.pipe_barrier ALL {reason = "skipped guarded copy: the loop-carried waits before it must finish before the sets after it"}
// CHECK-NEXT: ascendc.wait_flag V -> MTE2, [[X1]]
// CHECK-NEXT: ascendc.wait_flag MTE3 -> V, [[Z1]]
// CHECK-NEXT: ascendc.set_flag MTE3 -> V, [[Z1]]
// CHECK-NEXT: ascendc.set_flag V -> MTE2, [[X1]]
// CHECK-NEXT: {{^ *}}}{{$}}
// CHECK-NEXT: } {asctile.unrolled_by = 2 : i64}
// CHECK-DAG: ascendc.wait_flag V -> MTE2, [[X1]]
// CHECK-DAG: ascendc.wait_flag MTE3 -> V, [[Z1]]
// CHECK-DAG: ascendc.wait_flag MTE3 -> V, [[Z]]
// CHECK-DAG: ascendc.wait_flag V -> MTE2, [[X]]
// CHECK: return
func.func @guarded(%x: !ascendc.gm<f32>, %out: !ascendc.gm<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %x0 = ascendc.alloc_local {name = "x", offset = 0 : i64, slot = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %z0 = ascendc.alloc_local {name = "z", offset = 256 : i64, slot = 0 : i64} : !ascendc.local<64xf32, VECOUT>
  %x1 = ascendc.alloc_local {name = "x_1", offset = 512 : i64, slot = 1 : i64} : !ascendc.local<64xf32, VECIN>
  %z1 = ascendc.alloc_local {name = "z_1", offset = 768 : i64, slot = 1 : i64} : !ascendc.local<64xf32, VECOUT>
  scf.for %i = %c0 to %n step %c2 {
    ascendc.data_copy_in %x0, %x[%i], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
    ascendc.exp %z0, %x0, %c64 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECIN>
    ascendc.data_copy_out %out[%i], %z0, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECOUT>
    %i1 = arith.addi %i, %c1 : index
    %in = arith.cmpi slt, %i1, %n : index
    scf.if %in {
      ascendc.data_copy_in %x1, %x[%i1], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
      ascendc.exp %z1, %x1, %c64 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECIN>
      ascendc.data_copy_out %out[%i1], %z1, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECOUT>
    }
  } {asctile.unrolled_by = 2 : i64}
  return
}
