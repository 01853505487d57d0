// RUN: asc2-opt %s -asctile-recompute-casts | FileCheck %s

// x widened once, used by two computations: the second gets its own cast
// just before it, so the f32 tile of the first dies at the first.
// CHECK-LABEL: func.func @two_users
// CHECK: %[[A:.*]] = asctile.cast %arg0 round none
// CHECK-NEXT: %[[SQ:.*]] = arith.mulf %[[A]], %[[A]]
// CHECK-NEXT: %[[B:.*]] = asctile.cast %arg0 round none
// CHECK-NEXT: %[[Y:.*]] = arith.addf %[[B]], %[[SQ]]
// CHECK-NEXT: return %[[Y]]
func.func @two_users(%x: !asctile.tile<64xf16, UB>) -> !asctile.tile<64xf32, UB> {
  %a = asctile.cast %x round none : !asctile.tile<64xf16, UB> -> !asctile.tile<64xf32, UB>
  %sq = arith.mulf %a, %a : !asctile.tile<64xf32, UB>
  %y = arith.addf %a, %sq : !asctile.tile<64xf32, UB>
  return %y : !asctile.tile<64xf32, UB>
}

// A user inside a loop: the copy goes before the loop, never into it.
// CHECK-LABEL: func.func @user_in_a_loop
// CHECK: asctile.cast
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: %[[C:.*]] = asctile.cast
// CHECK-NEXT: scf.for
// CHECK-NOT: asctile.cast
// CHECK: arith.addf %[[C]]
func.func @user_in_a_loop(%x: !asctile.tile<64xf16, UB>, %n: index) -> !asctile.tile<64xf32, UB> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = asctile.cast %x round none : !asctile.tile<64xf16, UB> -> !asctile.tile<64xf32, UB>
  %sq = arith.mulf %a, %a : !asctile.tile<64xf32, UB>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %sq) -> (!asctile.tile<64xf32, UB>) {
    %s = arith.addf %a, %acc : !asctile.tile<64xf32, UB>
    scf.yield %s : !asctile.tile<64xf32, UB>
  }
  return %r : !asctile.tile<64xf32, UB>
}

// Narrowing casts (the result is the smaller tile) and casts with one user
// are left as they are.
// CHECK-LABEL: func.func @untouched
// CHECK-COUNT-2: asctile.cast
// CHECK-NOT: asctile.cast
func.func @untouched(%x: !asctile.tile<64xf32, UB>, %h: !asctile.tile<64xf16, UB>) -> (!asctile.tile<64xf16, UB>, !asctile.tile<64xf32, UB>) {
  %n = asctile.cast %x round rint : !asctile.tile<64xf32, UB> -> !asctile.tile<64xf16, UB>
  %m = arith.mulf %n, %n : !asctile.tile<64xf16, UB>
  %y = arith.addf %n, %m : !asctile.tile<64xf16, UB>
  %w = asctile.cast %h round none : !asctile.tile<64xf16, UB> -> !asctile.tile<64xf32, UB>
  return %y, %w : !asctile.tile<64xf16, UB>, !asctile.tile<64xf32, UB>
}
