// RUN: asc2-opt %s -ascendc-insert-sync -split-input-file | FileCheck %s
// RUN: asc2-opt %s -ascendc-insert-sync=event-ids=2 -split-input-file | FileCheck %s --check-prefix=TWO

// Event ids are binary flags per pipe pair (8 on the hardware): a new pair
// takes the lowest id no other pair of its pipe pair uses anywhere; once all
// are taken, of the ids not live between its set and its wait and whose uses
// a flag the other way keeps ordered, the one used longest ago; with none, a
// PIPE_ALL barrier.

// Two pairs one after the other: the second takes a fresh id although id 0 is
// free again by then (the set's pipe may run ahead of the wait's pipe). With
// two ids, the third pair may not reuse id 0: its set comes after the first
// wait in program order, but MTE2 may load a, c and e before the vector pipe
// waits for a, and nothing V -> MTE2 orders them: a PIPE_ALL barrier.
// CHECK-LABEL: func.func @fresh_then_reused
// TWO-LABEL: func.func @fresh_then_reused
func.func @fresh_then_reused(%x: !ascendc.gm<f32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %a = ascendc.alloc_local {name = "a", offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %b = ascendc.alloc_local {name = "b", offset = 256 : i64} : !ascendc.local<64xf32, VECCALC>
  %c = ascendc.alloc_local {name = "c", offset = 512 : i64} : !ascendc.local<64xf32, VECIN>
  %d = ascendc.alloc_local {name = "d", offset = 768 : i64} : !ascendc.local<64xf32, VECCALC>
  %e = ascendc.alloc_local {name = "e", offset = 1024 : i64} : !ascendc.local<64xf32, VECIN>
  %f = ascendc.alloc_local {name = "f", offset = 1280 : i64} : !ascendc.local<64xf32, VECCALC>
  // CHECK: ascendc.data_copy_in %
  // CHECK-NEXT: ascendc.set_flag MTE2 -> V, 0 {reason = "RAW on a:
  // CHECK-NEXT: ascendc.wait_flag MTE2 -> V, 0 {reason = "RAW on a:
  // CHECK-NEXT: ascendc.exp %
  // TWO: ascendc.set_flag MTE2 -> V, 0 {reason = "RAW on a:
  // TWO-NEXT: ascendc.wait_flag MTE2 -> V, 0 {reason = "RAW on a:
  ascendc.data_copy_in %a, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.exp %b, %a, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  // CHECK-NEXT: ascendc.data_copy_in %
  // CHECK-NEXT: ascendc.set_flag MTE2 -> V, 1 {reason = "RAW on c:
  // CHECK-NEXT: ascendc.wait_flag MTE2 -> V, 1 {reason = "RAW on c:
  // CHECK-NEXT: ascendc.exp %
  // TWO: ascendc.set_flag MTE2 -> V, 1 {reason = "RAW on c:
  // TWO-NEXT: ascendc.wait_flag MTE2 -> V, 1 {reason = "RAW on c:
  ascendc.data_copy_in %c, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.exp %d, %c, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  // CHECK-NEXT: ascendc.data_copy_in %
  // CHECK-NEXT: ascendc.set_flag MTE2 -> V, 2 {reason = "RAW on e:
  // CHECK-NEXT: ascendc.wait_flag MTE2 -> V, 2 {reason = "RAW on e:
  // CHECK-NEXT: ascendc.exp %
  // TWO: ascendc.pipe_barrier ALL {reason = "RAW on e: {{.*}} (no free event id)"
  // TWO-NEXT: ascendc.exp %
  ascendc.data_copy_in %e, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.exp %f, %e, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  return
}

// -----

// A WAR flag the other way orders the uses: the vector pipe reads a before
// MTE2 loads a again (V -> MTE2 on a, set after the first exp and waited
// before the second load), so the third MTE2 -> V pair takes id 0 again: the
// first pair's wait comes before that V -> MTE2 set, its wait before the new
// set.
// TWO-LABEL: func.func @shared_when_ordered
// TWO: ascendc.set_flag MTE2 -> V, 0 {reason = "RAW on a:
// TWO: ascendc.set_flag MTE2 -> V, 1 {reason = "RAW on c:
// TWO: ascendc.wait_flag V -> MTE2, {{[0-9]}} {reason = "WAR on a:
// TWO-NEXT: ascendc.data_copy_in %
// TWO-NEXT: ascendc.set_flag MTE2 -> V, 0 {reason = "RAW on a:
// TWO-NOT: no free event id
func.func @shared_when_ordered(%x: !ascendc.gm<f32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %a = ascendc.alloc_local {name = "a", offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %b = ascendc.alloc_local {name = "b", offset = 256 : i64} : !ascendc.local<64xf32, VECCALC>
  %c = ascendc.alloc_local {name = "c", offset = 512 : i64} : !ascendc.local<64xf32, VECIN>
  %d = ascendc.alloc_local {name = "d", offset = 768 : i64} : !ascendc.local<64xf32, VECCALC>
  %f = ascendc.alloc_local {name = "f", offset = 1280 : i64} : !ascendc.local<64xf32, VECCALC>
  ascendc.data_copy_in %a, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.exp %b, %a, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  ascendc.data_copy_in %c, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.exp %d, %c, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  ascendc.data_copy_in %a, %x[%c64], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.exp %f, %a, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  return
}

// -----

// Four pairs one after the other with two ids and no flag the other way: the
// third and fourth become barriers (they used to take 0 and 1 again, which
// MTE2 could set before the vector pipe had waited for them).
// TWO-LABEL: func.func @rotating
// TWO: ascendc.set_flag MTE2 -> V, 0 {reason = "RAW on a:
// TWO: ascendc.set_flag MTE2 -> V, 1 {reason = "RAW on c:
// TWO: ascendc.pipe_barrier ALL {reason = "RAW on e: {{.*}} (no free event id)"
// TWO: ascendc.pipe_barrier ALL {reason = "RAW on g: {{.*}} (no free event id)"
func.func @rotating(%x: !ascendc.gm<f32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %a = ascendc.alloc_local {name = "a", offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %b = ascendc.alloc_local {name = "b", offset = 256 : i64} : !ascendc.local<64xf32, VECCALC>
  %c = ascendc.alloc_local {name = "c", offset = 512 : i64} : !ascendc.local<64xf32, VECIN>
  %d = ascendc.alloc_local {name = "d", offset = 768 : i64} : !ascendc.local<64xf32, VECCALC>
  %e = ascendc.alloc_local {name = "e", offset = 1024 : i64} : !ascendc.local<64xf32, VECIN>
  %f = ascendc.alloc_local {name = "f", offset = 1280 : i64} : !ascendc.local<64xf32, VECCALC>
  %g = ascendc.alloc_local {name = "g", offset = 1536 : i64} : !ascendc.local<64xf32, VECIN>
  %h = ascendc.alloc_local {name = "h", offset = 1792 : i64} : !ascendc.local<64xf32, VECCALC>
  ascendc.data_copy_in %a, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.exp %b, %a, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  ascendc.data_copy_in %c, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.exp %d, %c, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  ascendc.data_copy_in %e, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.exp %f, %e, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  ascendc.data_copy_in %g, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.exp %h, %g, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  return
}

// -----

// Ids belong to a pipe pair: MTE2 -> V and V -> MTE3 both start at 0.
// CHECK-LABEL: func.func @per_pipe_pair
func.func @per_pipe_pair(%x: !ascendc.gm<f32>, %out: !ascendc.gm<f32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %a = ascendc.alloc_local {name = "a", offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %b = ascendc.alloc_local {name = "b", offset = 256 : i64} : !ascendc.local<64xf32, VECOUT>
  // CHECK: ascendc.set_flag MTE2 -> V, 0
  // CHECK: ascendc.set_flag V -> MTE3, 0
  ascendc.data_copy_in %a, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.exp %b, %a, %c64 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECIN>
  ascendc.data_copy_out %out[%c0], %b, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECOUT>
  return
}

// -----

// Nine loads in flight before the first exp: the pairs hold ids 0..7 at once,
// and the ninth, with no id free between its set and its wait, gets a
// PIPE_ALL barrier instead.
// CHECK-LABEL: func.func @out_of_ids
func.func @out_of_ids(%x: !ascendc.gm<f32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %a0 = ascendc.alloc_local {name = "a0", offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %a1 = ascendc.alloc_local {name = "a1", offset = 256 : i64} : !ascendc.local<64xf32, VECIN>
  %a2 = ascendc.alloc_local {name = "a2", offset = 512 : i64} : !ascendc.local<64xf32, VECIN>
  %a3 = ascendc.alloc_local {name = "a3", offset = 768 : i64} : !ascendc.local<64xf32, VECIN>
  %a4 = ascendc.alloc_local {name = "a4", offset = 1024 : i64} : !ascendc.local<64xf32, VECIN>
  %a5 = ascendc.alloc_local {name = "a5", offset = 1280 : i64} : !ascendc.local<64xf32, VECIN>
  %a6 = ascendc.alloc_local {name = "a6", offset = 1536 : i64} : !ascendc.local<64xf32, VECIN>
  %a7 = ascendc.alloc_local {name = "a7", offset = 1792 : i64} : !ascendc.local<64xf32, VECIN>
  %a8 = ascendc.alloc_local {name = "a8", offset = 2048 : i64} : !ascendc.local<64xf32, VECIN>
  %b0 = ascendc.alloc_local {name = "b0", offset = 2304 : i64} : !ascendc.local<64xf32, VECCALC>
  %b1 = ascendc.alloc_local {name = "b1", offset = 2560 : i64} : !ascendc.local<64xf32, VECCALC>
  %b2 = ascendc.alloc_local {name = "b2", offset = 2816 : i64} : !ascendc.local<64xf32, VECCALC>
  %b3 = ascendc.alloc_local {name = "b3", offset = 3072 : i64} : !ascendc.local<64xf32, VECCALC>
  %b4 = ascendc.alloc_local {name = "b4", offset = 3328 : i64} : !ascendc.local<64xf32, VECCALC>
  %b5 = ascendc.alloc_local {name = "b5", offset = 3584 : i64} : !ascendc.local<64xf32, VECCALC>
  %b6 = ascendc.alloc_local {name = "b6", offset = 3840 : i64} : !ascendc.local<64xf32, VECCALC>
  %b7 = ascendc.alloc_local {name = "b7", offset = 4096 : i64} : !ascendc.local<64xf32, VECCALC>
  %b8 = ascendc.alloc_local {name = "b8", offset = 4352 : i64} : !ascendc.local<64xf32, VECCALC>
  // CHECK: ascendc.data_copy_in %
  // CHECK-NEXT: ascendc.set_flag MTE2 -> V, 0 {reason = "RAW on a0:
  ascendc.data_copy_in %a0, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  // CHECK: ascendc.data_copy_in %
  // CHECK-NEXT: ascendc.set_flag MTE2 -> V, 1 {reason = "RAW on a1:
  ascendc.data_copy_in %a1, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  // CHECK: ascendc.data_copy_in %
  // CHECK-NEXT: ascendc.set_flag MTE2 -> V, 2 {reason = "RAW on a2:
  ascendc.data_copy_in %a2, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  // CHECK: ascendc.data_copy_in %
  // CHECK-NEXT: ascendc.set_flag MTE2 -> V, 3 {reason = "RAW on a3:
  ascendc.data_copy_in %a3, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  // CHECK: ascendc.data_copy_in %
  // CHECK-NEXT: ascendc.set_flag MTE2 -> V, 4 {reason = "RAW on a4:
  ascendc.data_copy_in %a4, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  // CHECK: ascendc.data_copy_in %
  // CHECK-NEXT: ascendc.set_flag MTE2 -> V, 5 {reason = "RAW on a5:
  ascendc.data_copy_in %a5, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  // CHECK: ascendc.data_copy_in %
  // CHECK-NEXT: ascendc.set_flag MTE2 -> V, 6 {reason = "RAW on a6:
  ascendc.data_copy_in %a6, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  // CHECK: ascendc.data_copy_in %
  // CHECK-NEXT: ascendc.set_flag MTE2 -> V, 7 {reason = "RAW on a7:
  ascendc.data_copy_in %a7, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  // CHECK: ascendc.data_copy_in %
  // CHECK-NOT: set_flag
  ascendc.data_copy_in %a8, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  // CHECK: ascendc.wait_flag MTE2 -> V, 0 {reason = "RAW on a0:
  // CHECK-NEXT: ascendc.exp %
  ascendc.exp %b0, %a0, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  // CHECK: ascendc.wait_flag MTE2 -> V, 1 {reason = "RAW on a1:
  // CHECK-NEXT: ascendc.exp %
  ascendc.exp %b1, %a1, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  // CHECK: ascendc.wait_flag MTE2 -> V, 2 {reason = "RAW on a2:
  // CHECK-NEXT: ascendc.exp %
  ascendc.exp %b2, %a2, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  // CHECK: ascendc.wait_flag MTE2 -> V, 3 {reason = "RAW on a3:
  // CHECK-NEXT: ascendc.exp %
  ascendc.exp %b3, %a3, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  // CHECK: ascendc.wait_flag MTE2 -> V, 4 {reason = "RAW on a4:
  // CHECK-NEXT: ascendc.exp %
  ascendc.exp %b4, %a4, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  // CHECK: ascendc.wait_flag MTE2 -> V, 5 {reason = "RAW on a5:
  // CHECK-NEXT: ascendc.exp %
  ascendc.exp %b5, %a5, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  // CHECK: ascendc.wait_flag MTE2 -> V, 6 {reason = "RAW on a6:
  // CHECK-NEXT: ascendc.exp %
  ascendc.exp %b6, %a6, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  // CHECK: ascendc.wait_flag MTE2 -> V, 7 {reason = "RAW on a7:
  // CHECK-NEXT: ascendc.exp %
  ascendc.exp %b7, %a7, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  // CHECK-NOT: wait_flag
  // CHECK: ascendc.pipe_barrier ALL {reason = "RAW on a8: {{.*}} (no free event id)"}
  // CHECK-NEXT: ascendc.exp %
  ascendc.exp %b8, %a8, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  return
}
