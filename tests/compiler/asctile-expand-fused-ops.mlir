// RUN: asc2-opt %s -asctile-expand-fused-ops | FileCheck %s

// softmax(x) = exp(x - max) / sum, along the last dimension.
// CHECK-LABEL: func.func @softmax
// CHECK: %[[M:.*]] = asctile.reduce max %[[X:.*]] dims [1] keep_dims : !asctile.tile<4x64xf32, UB> -> !asctile.tile<4x1xf32, UB>
// CHECK: %[[MB:.*]] = asctile.broadcast %[[M]]
// CHECK: %[[D:.*]] = arith.subf %[[X]], %[[MB]]
// CHECK: %[[E:.*]] = math.exp %[[D]]
// CHECK: %[[S:.*]] = asctile.reduce sum %[[E]] dims [1] keep_dims
// CHECK: %[[SB:.*]] = asctile.broadcast %[[S]]
// CHECK: arith.divf %[[E]], %[[SB]]
// CHECK-NOT: asctile.softmax
func.func @softmax(%x: !asctile.tile<4x64xf32, UB>) -> !asctile.tile<4x64xf32, UB> {
  %y = asctile.softmax %x : !asctile.tile<4x64xf32, UB>
  return %y : !asctile.tile<4x64xf32, UB>
}

// rms_norm: mean of squares (sum * 1/64), + eps, rsqrt, scale, gamma.
// CHECK-LABEL: func.func @rms_norm
// CHECK: arith.mulf %[[X:.*]], %[[X]]
// CHECK: asctile.reduce sum
// CHECK: arith.constant 1.562500e-02 : f32
// CHECK: arith.constant 9.99999997E-7 : f32
// CHECK: math.rsqrt
// CHECK: asctile.broadcast %{{.*}} : !asctile.tile<1x64xf32, UB> -> !asctile.tile<4x64xf32, UB>
// CHECK-NOT: asctile.rms_norm
func.func @rms_norm(%x: !asctile.tile<4x64xf32, UB>, %g: !asctile.tile<1x64xf32, UB>) -> !asctile.tile<4x64xf32, UB> {
  %y = asctile.rms_norm %x, %g eps 1.0e-6 : !asctile.tile<4x64xf32, UB>, !asctile.tile<1x64xf32, UB>
  return %y : !asctile.tile<4x64xf32, UB>
}

// CHECK-LABEL: func.func @layer_norm
// CHECK-COUNT-2: asctile.reduce sum
// CHECK: math.rsqrt
// CHECK: arith.addf
// CHECK-NOT: asctile.layer_norm
func.func @layer_norm(%x: !asctile.tile<4x64xf32, UB>, %g: !asctile.tile<1x64xf32, UB>, %b: !asctile.tile<1x64xf32, UB>) -> !asctile.tile<4x64xf32, UB> {
  %y = asctile.layer_norm %x, %g, %b eps 1.0e-5 : !asctile.tile<4x64xf32, UB>, !asctile.tile<1x64xf32, UB>, !asctile.tile<1x64xf32, UB>
  return %y : !asctile.tile<4x64xf32, UB>
}
