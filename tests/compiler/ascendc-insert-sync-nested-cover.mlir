// RUN: asc2-opt %s -ascendc-insert-sync -ascendc-verify-sync -split-input-file | FileCheck %s

// A hazard into an op with regions is ordered by a wait already placed
// inside it, before the access, whose set is earlier in the wait's block: the
// set's pipe is in order, so the set follows every op of that pipe before the
// compound op. The add reads `a` (loaded before the guard) and `c` (loaded in
// it): the wait for `c` orders the load of `a` too, so no pair for `a`.
// CHECK-LABEL: func.func @covered_by_copy
// CHECK-NOT: RAW on a:
// CHECK: scf.if
// CHECK-NEXT: ascendc.data_copy_in %
// CHECK-NEXT: ascendc.set_flag MTE2 -> V, 0 {reason = "RAW on c:
// CHECK-NEXT: ascendc.wait_flag MTE2 -> V, 0 {reason = "RAW on c:
// CHECK-NEXT: ascendc.add %
// CHECK-NOT: RAW on a:
// CHECK: return
func.func @covered_by_copy(%x: !ascendc.gm<f32>, %out: !ascendc.gm<f32>, %in: i1) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %a = ascendc.alloc_local {name = "a", offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %c = ascendc.alloc_local {name = "c", offset = 256 : i64} : !ascendc.local<64xf32, VECIN>
  %d = ascendc.alloc_local {name = "d", offset = 512 : i64} : !ascendc.local<64xf32, VECOUT>
  ascendc.data_copy_in %a, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  scf.if %in {
    ascendc.data_copy_in %c, %x[%c64], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
    ascendc.add %d, %c, %a, %c64 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECIN>, !ascendc.local<64xf32, VECIN>
    ascendc.data_copy_out %out[%c0], %d, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECOUT>
  }
  return
}

// -----

// The nested wait comes after the access: it orders nothing for it, and the
// load of `a` keeps its own pair (waited right before the exp, and at the
// start of the skipped branch).
// CHECK-LABEL: func.func @nested_wait_too_late
// CHECK: ascendc.data_copy_in %
// CHECK-NEXT: ascendc.set_flag MTE2 -> V, [[A:[0-9]+]] {reason = "RAW on a:
// CHECK-NEXT: scf.if
// CHECK-NEXT: ascendc.wait_flag MTE2 -> V, [[A]] {reason = "RAW on a:
// CHECK-NEXT: ascendc.exp %
// CHECK: } else {
// CHECK-NEXT: ascendc.wait_flag MTE2 -> V, [[A]] {reason = "RAW on a:
func.func @nested_wait_too_late(%x: !ascendc.gm<f32>, %out: !ascendc.gm<f32>, %in: i1) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %a = ascendc.alloc_local {name = "a", offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %b = ascendc.alloc_local {name = "b", offset = 256 : i64} : !ascendc.local<64xf32, VECCALC>
  %c = ascendc.alloc_local {name = "c", offset = 512 : i64} : !ascendc.local<64xf32, VECIN>
  %d = ascendc.alloc_local {name = "d", offset = 768 : i64} : !ascendc.local<64xf32, VECOUT>
  ascendc.data_copy_in %a, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  scf.if %in {
    ascendc.exp %b, %a, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
    ascendc.data_copy_in %c, %x[%c64], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
    ascendc.add %d, %c, %b, %c64 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECIN>, !ascendc.local<64xf32, VECCALC>
    ascendc.data_copy_out %out[%c0], %d, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECOUT>
  }
  return
}
