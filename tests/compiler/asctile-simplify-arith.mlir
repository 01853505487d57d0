// RUN: asc2-opt %s -asctile-simplify-arith | FileCheck %s

!t = !asctile.tile<64xf32, UB>

// s * (x + c * x * x * x) in Horner form over x*x: four ops instead of six.
// CHECK-LABEL: func.func @odd_cubic
// CHECK-SAME: (%[[X:.*]]: !asctile.tile
// CHECK: %[[Y:.*]] = arith.mulf %[[X]], %[[X]]
// CHECK: %[[K1:.*]] = arith.constant -0.0713{{[0-9]*}} : f32
// CHECK: %[[S1:.*]] = asctile.splat %[[K1]]
// CHECK: %[[A:.*]] = arith.mulf %[[Y]], %[[S1]]
// CHECK: %[[K0:.*]] = arith.constant -1.59{{[0-9]*}} : f32
// CHECK: %[[S0:.*]] = asctile.splat %[[K0]]
// CHECK: %[[B:.*]] = arith.addf %[[A]], %[[S0]]
// CHECK: %[[R:.*]] = arith.mulf %[[B]], %[[X]]
// CHECK: return %[[R]]
func.func @odd_cubic(%x: !t) -> !t {
  %c = arith.constant 0.044715 : f32
  %a = arith.constant 0.797884583 : f32
  %m2 = arith.constant -2.0 : f32
  %cs = asctile.splat %c : f32 -> !t
  %as = asctile.splat %a : f32 -> !t
  %m2s = asctile.splat %m2 : f32 -> !t
  %0 = arith.mulf %cs, %x : !t
  %1 = arith.mulf %0, %x : !t
  %2 = arith.mulf %1, %x : !t
  %3 = arith.addf %x, %2 : !t
  %4 = arith.mulf %as, %3 : !t
  %5 = arith.mulf %4, %m2s : !t
  return %5 : !t
}

// (0.5 * x) * (2 / d) is x / d.
// CHECK-LABEL: func.func @scaled_quotient
// CHECK-SAME: (%[[X:.*]]: !asctile.tile{{.*}}, %[[D:.*]]: !asctile.tile
// CHECK: %[[R:.*]] = arith.divf %[[X]], %[[D]]
// CHECK-NOT: arith.mulf
// CHECK: return %[[R]]
func.func @scaled_quotient(%x: !t, %d: !t) -> !t {
  %h = arith.constant 0.5 : f32
  %two = arith.constant 2.0 : f32
  %hs = asctile.splat %h : f32 -> !t
  %ts = asctile.splat %two : f32 -> !t
  %0 = arith.mulf %hs, %x : !t
  %1 = arith.divf %ts, %d : !t
  %2 = arith.mulf %0, %1 : !t
  return %2 : !t
}

// (3 * x) * (2 / d) keeps the product of the scales.
// CHECK-LABEL: func.func @scaled_quotient_scale
// CHECK: %[[Q:.*]] = arith.divf
// CHECK: arith.constant 6.0
// CHECK: arith.mulf %[[Q]]
func.func @scaled_quotient_scale(%x: !t, %d: !t) -> !t {
  %k = arith.constant 3.0 : f32
  %two = arith.constant 2.0 : f32
  %ks = asctile.splat %k : f32 -> !t
  %ts = asctile.splat %two : f32 -> !t
  %0 = arith.mulf %ks, %x : !t
  %1 = arith.divf %ts, %d : !t
  %2 = arith.mulf %0, %1 : !t
  return %2 : !t
}

// A polynomial mixing odd and even powers, or one already minimal, stays.
// CHECK-LABEL: func.func @mixed_powers
// CHECK: arith.mulf %{{.*}}, %{{.*}}
// CHECK: arith.addf
// CHECK-NOT: arith.mulf
// CHECK: return
func.func @mixed_powers(%x: !t) -> !t {
  %0 = arith.mulf %x, %x : !t
  %1 = arith.addf %0, %x : !t
  return %1 : !t
}

// An intermediate used twice is a leaf: two different leaves, no rewrite.
// CHECK-LABEL: func.func @two_leaves
// CHECK-COUNT-2: arith.mulf
// CHECK: arith.addf
func.func @two_leaves(%x: !t, %y: !t) -> !t {
  %0 = arith.mulf %x, %y : !t
  %1 = arith.mulf %0, %x : !t
  %2 = arith.addf %1, %0 : !t
  return %2 : !t
}

// rsqrt(broadcast(s) / n + eps) runs on the [4, 1] sums, broadcast once after.
// CHECK-LABEL: func.func @sink_broadcast
// CHECK-SAME: (%[[S:.*]]: !asctile.tile<4x1xf32, UB>
// CHECK: %[[D:.*]] = arith.divf %[[S]], %{{.*}} : !asctile.tile<4x1xf32, UB>
// CHECK: %[[A:.*]] = arith.addf %[[D]], %{{.*}} : !asctile.tile<4x1xf32, UB>
// CHECK: %[[R:.*]] = math.rsqrt %[[A]] : !asctile.tile<4x1xf32, UB>
// CHECK: %[[B:.*]] = asctile.broadcast %[[R]] : !asctile.tile<4x1xf32, UB> -> !asctile.tile<4x64xf32, UB>
// CHECK: return %[[B]]
func.func @sink_broadcast(%s: !asctile.tile<4x1xf32, UB>) -> !asctile.tile<4x64xf32, UB> {
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %b = asctile.broadcast %s : !asctile.tile<4x1xf32, UB> -> !asctile.tile<4x64xf32, UB>
  %ns = asctile.splat %n : f32 -> !asctile.tile<4x64xf32, UB>
  %es = asctile.splat %eps : f32 -> !asctile.tile<4x64xf32, UB>
  %0 = arith.divf %b, %ns : !asctile.tile<4x64xf32, UB>
  %1 = arith.addf %0, %es : !asctile.tile<4x64xf32, UB>
  %2 = math.rsqrt %1 : !asctile.tile<4x64xf32, UB>
  return %2 : !asctile.tile<4x64xf32, UB>
}

// A broadcast with another user stays where it is.
// CHECK-LABEL: func.func @shared_broadcast
// CHECK: asctile.broadcast
// CHECK: math.exp %{{.*}} : !asctile.tile<4x64xf32, UB>
func.func @shared_broadcast(%s: !asctile.tile<4x1xf32, UB>) -> (!asctile.tile<4x64xf32, UB>, !asctile.tile<4x64xf32, UB>) {
  %b = asctile.broadcast %s : !asctile.tile<4x1xf32, UB> -> !asctile.tile<4x64xf32, UB>
  %0 = math.exp %b : !asctile.tile<4x64xf32, UB>
  return %0, %b : !asctile.tile<4x64xf32, UB>, !asctile.tile<4x64xf32, UB>
}
