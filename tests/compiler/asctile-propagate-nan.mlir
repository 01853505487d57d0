// RUN: asc2-opt %s -asctile-propagate-nan | FileCheck %s

// Tile-tile maximum: Max, then a NaN in either operand is selected back.
// CHECK-LABEL: func.func @maximum
// CHECK: %[[M:.*]] = arith.maxnumf %arg0, %arg1
// CHECK: %[[NB:.*]] = asctile.cmp ne, %arg1, %arg1
// CHECK: %[[SB:.*]] = asctile.select %[[NB]], %arg1, %[[M]]
// CHECK: %[[NA:.*]] = asctile.cmp ne, %arg0, %arg0
// CHECK: %[[SA:.*]] = asctile.select %[[NA]], %arg0, %[[SB]]
// CHECK: return %[[SA]]
func.func @maximum(%x: !asctile.tile<64xf32, UB>, %y: !asctile.tile<64xf32, UB>) -> !asctile.tile<64xf32, UB> {
  %r = arith.maximumf %x, %y : !asctile.tile<64xf32, UB>
  return %r : !asctile.tile<64xf32, UB>
}

// relu = maximum(x, 0): the constant cannot be NaN, only x is checked.
// CHECK-LABEL: func.func @relu
// CHECK: arith.maxnumf
// CHECK-COUNT-1: asctile.cmp ne
// CHECK-NOT: asctile.cmp
// CHECK: return
func.func @relu(%x: !asctile.tile<64xf16, UB>) -> !asctile.tile<64xf16, UB> {
  %c = arith.constant 0.0 : f16
  %z = asctile.splat %c : f16 -> !asctile.tile<64xf16, UB>
  %r = arith.maximumf %x, %z : !asctile.tile<64xf16, UB>
  return %r : !asctile.tile<64xf16, UB>
}

// L0C tiles (a relu folded into the fixpipe) and scalars are left alone.
// CHECK-LABEL: func.func @untouched
// CHECK: arith.maximumf %arg0, %arg1 : !asctile.tile<16x16xf32, L0C>
// CHECK: arith.maximumf %arg2, %arg3 : f32
func.func @untouched(%a: !asctile.tile<16x16xf32, L0C>, %b: !asctile.tile<16x16xf32, L0C>, %s: f32, %t: f32)
    -> (!asctile.tile<16x16xf32, L0C>, f32) {
  %r = arith.maximumf %a, %b : !asctile.tile<16x16xf32, L0C>
  %q = arith.maximumf %s, %t : f32
  return %r, %q : !asctile.tile<16x16xf32, L0C>, f32
}
