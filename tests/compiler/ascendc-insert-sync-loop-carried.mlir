// RUN: asc2-opt %s -ascendc-insert-sync -split-input-file | FileCheck %s

// A hazard carried around an inner loop: its flag is primed before and
// drained after the outermost loop, never around the inner one (a drain
// after the inner loop and the prime of its next run would be unordered).
// CHECK-LABEL: func.func @nested
// CHECK: ascendc.set_flag V -> MTE2, [[VM:[0-9]+]] {reason = "WAR on a: {{.*}} (loop-carried)"}
// CHECK: ascendc.set_flag MTE3 -> V, [[MV:[0-9]+]] {reason = "WAR on b: {{.*}} (loop-carried)"}
// CHECK: scf.for
// CHECK-NOT: set_flag
// CHECK: scf.for
// CHECK-NEXT: ascendc.wait_flag V -> MTE2, [[VM]] {reason = "WAR on a: {{.*}} (loop-carried)"}
// CHECK-NEXT: ascendc.data_copy_in %
// CHECK: ascendc.wait_flag MTE3 -> V, [[MV]] {reason = "WAR on b: {{.*}} (loop-carried)"}
// CHECK-NEXT: ascendc.exp %
// CHECK: ascendc.set_flag V -> MTE2, [[VM]] {reason = "WAR on a: {{.*}} (loop-carried)"}
// CHECK: ascendc.data_copy_out %
// CHECK-NEXT: ascendc.set_flag MTE3 -> V, [[MV]] {reason = "WAR on b: {{.*}} (loop-carried)"}
// CHECK-NEXT: {{^ *}}}{{$}}
// CHECK-NOT: ascendc.wait_flag MTE3 -> V, [[MV]]
// CHECK-NOT: ascendc.wait_flag V -> MTE2, [[VM]]
// CHECK: {{^ *}}}{{$}}
// CHECK-DAG: ascendc.wait_flag MTE3 -> V, [[MV]] {reason = "WAR on b: {{.*}} (loop-carried)"}
// CHECK-DAG: ascendc.wait_flag V -> MTE2, [[VM]] {reason = "WAR on a: {{.*}} (loop-carried)"}
// CHECK: return
func.func @nested(%x: !ascendc.gm<f32>, %out: !ascendc.gm<f32>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %a = ascendc.alloc_local {name = "a", offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %b = ascendc.alloc_local {name = "b", offset = 256 : i64} : !ascendc.local<64xf32, VECOUT>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      ascendc.data_copy_in %a, %x[%j], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
      ascendc.exp %b, %a, %c64 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECIN>
      ascendc.data_copy_out %out[%j], %b, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECOUT>
    }
  }
  return
}

// -----

// The tile the loop body reads first is loaded before the loop (and then
// for the next trip at the end of the body). The load before the loop needs
// no pair of its own: the loop-carried MTE2 -> V flag is primed right after
// it on MTE2, so the first trip's wait orders it before the exp.
// CHECK-LABEL: func.func @entry_behind_prime
// CHECK: ascendc.data_copy_in %
// CHECK-NEXT: ascendc.set_flag MTE2 -> V, [[MV:[0-9]+]] {reason = "RAW on a: {{.*}} (loop-carried)"}
// CHECK-NOT: ascendc.wait_flag MTE2 -> V
// CHECK: scf.for
// CHECK-NEXT: ascendc.wait_flag MTE2 -> V, [[MV]] {reason = "RAW on a: {{.*}} (loop-carried)"}
// CHECK: ascendc.exp %
// CHECK: ascendc.data_copy_in %
// CHECK-NEXT: ascendc.set_flag MTE2 -> V, [[MV]] {reason = "RAW on a: {{.*}} (loop-carried)"}
// CHECK: {{^ *}}}{{$}}
// CHECK: ascendc.wait_flag MTE2 -> V, [[MV]] {reason = "RAW on a: {{.*}} (loop-carried)"}
// CHECK-NEXT: return
func.func @entry_behind_prime(%x: !ascendc.gm<f32>, %out: !ascendc.gm<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %a = ascendc.alloc_local {name = "a", offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %b = ascendc.alloc_local {name = "b", offset = 256 : i64} : !ascendc.local<64xf32, VECOUT>
  ascendc.data_copy_in %a, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  scf.for %i = %c0 to %n step %c1 {
    ascendc.exp %b, %a, %c64 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECIN>
    %next = arith.addi %i, %c1 : index
    ascendc.data_copy_in %a, %x[%next], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
    ascendc.data_copy_out %out[%i], %b, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECOUT>
  }
  return
}
