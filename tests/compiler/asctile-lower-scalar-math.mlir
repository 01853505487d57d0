// RUN: asc2-opt %s -asctile-lower-scalar-math | FileCheck %s

// sqrt and abs of a scalar stay: Ascend C has AscendC::Std::sqrt / Std::abs.
// CHECK-LABEL: func.func @sqrt_abs
// CHECK: math.sqrt %{{.*}} : f32
// CHECK: math.absf %{{.*}} : f32
func.func @sqrt_abs(%x: f32) -> f32 {
  %s = math.sqrt %x : f32
  %a = math.absf %s : f32
  return %a : f32
}

// rsqrt of a scalar is 1 / sqrt.
// CHECK-LABEL: func.func @rsqrt
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[S:.*]] = math.sqrt %arg0 : f32
// CHECK: arith.divf %[[ONE]], %[[S]] : f32
// CHECK-NOT: math.rsqrt
func.func @rsqrt(%x: f32) -> f32 {
  %y = math.rsqrt %x : f32
  return %y : f32
}

// floor through a truncating int64 cast, one lower where truncation went up,
// x itself from 2^23 (integers already; NaN and Inf too).
// CHECK-LABEL: func.func @floor
// CHECK: arith.fptosi %arg0 : f32 to i64
// CHECK: arith.sitofp
// CHECK: arith.cmpf ogt
// CHECK: arith.subf
// CHECK: arith.select
// CHECK: arith.constant 0x4B000000 : f32
// CHECK: math.absf %arg0
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK-NOT: math.floor
func.func @floor(%x: f32) -> f32 {
  %y = math.floor %x : f32
  return %y : f32
}

// ceil: one higher where truncation went down.
// CHECK-LABEL: func.func @ceil
// CHECK: arith.cmpf olt
// CHECK: arith.addf
// CHECK-NOT: math.ceil
func.func @ceil(%x: f32) -> f32 {
  %y = math.ceil %x : f32
  return %y : f32
}

// exp (and every other math op) of a scalar runs on one 32-byte vector block.
// CHECK-LABEL: func.func @exp
// CHECK: %[[B:.*]] = asctile.splat %arg0 : f32 -> !asctile.tile<8xf32, UB>
// CHECK: %[[E:.*]] = math.exp %[[B]] : !asctile.tile<8xf32, UB>
// CHECK: asctile.reduce max %[[E]] dims [0] : !asctile.tile<8xf32, UB> -> f32
func.func @exp(%x: f32) -> f32 {
  %y = math.exp %x : f32
  return %y : f32
}

// A half scalar: 16 lanes.
// CHECK-LABEL: func.func @erf_half
// CHECK: asctile.splat %arg0 : f16 -> !asctile.tile<16xf16, UB>
// CHECK: math.erf %{{.*}} : !asctile.tile<16xf16, UB>
func.func @erf_half(%x: f16) -> f16 {
  %y = math.erf %x : f16
  return %y : f16
}

// Tile math is not touched.
// CHECK-LABEL: func.func @tile
// CHECK: math.exp %arg0 : !asctile.tile<64xf32, UB>
// CHECK-NOT: asctile.reduce
func.func @tile(%x: !asctile.tile<64xf32, UB>) -> !asctile.tile<64xf32, UB> {
  %y = math.exp %x : !asctile.tile<64xf32, UB>
  return %y : !asctile.tile<64xf32, UB>
}
