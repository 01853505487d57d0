// RUN: asc2-opt %s -asctile-transform-math-ops | FileCheck %s
// RUN: asc2-opt %s -asctile-transform-math-ops=keep-erf=true | FileCheck %s --check-prefix=KEEP

// tanh(x) = 1 - 2 / (exp(2x) + 1)
// CHECK-LABEL: func.func @tanh
// CHECK: arith.constant 2.000000e+00 : f32
// CHECK: arith.mulf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
// CHECK: arith.subf
// CHECK-NOT: math.tanh
func.func @tanh(%x: !asctile.tile<64xf32, UB>) -> !asctile.tile<64xf32, UB> {
  %y = math.tanh %x : !asctile.tile<64xf32, UB>
  return %y : !asctile.tile<64xf32, UB>
}

// erf keeps the sign through a compare and a select.
// CHECK-LABEL: func.func @erf
// CHECK: math.absf
// CHECK: math.exp
// CHECK: asctile.cmp lt
// CHECK: asctile.select
// CHECK-NOT: math.erf
// With keep-erf (Ascend950: the library's Erf is one vector function) erf
// stays for the lowering; everything else is expanded as before.
// KEEP-LABEL: func.func @erf
// KEEP: math.erf
// KEEP-NOT: math.absf
// KEEP-LABEL: func.func @floor
func.func @erf(%x: !asctile.tile<64xf32, UB>) -> !asctile.tile<64xf32, UB> {
  %y = math.erf %x : !asctile.tile<64xf32, UB>
  return %y : !asctile.tile<64xf32, UB>
}

// floor goes through an int32 cast rounding down.
// CHECK-LABEL: func.func @floor
// CHECK: asctile.cast %{{.*}} round floor : !asctile.tile<64xf32, UB> -> !asctile.tile<64xi32, UB>
// CHECK: asctile.cast %{{.*}} round none : !asctile.tile<64xi32, UB> -> !asctile.tile<64xf32, UB>
func.func @floor(%x: !asctile.tile<64xf32, UB>) -> !asctile.tile<64xf32, UB> {
  %y = math.floor %x : !asctile.tile<64xf32, UB>
  return %y : !asctile.tile<64xf32, UB>
}

// Scalars are left alone.
// CHECK-LABEL: func.func @scalar
// CHECK: math.tanh
func.func @scalar(%x: f32) -> f32 {
  %y = math.tanh %x : f32
  return %y : f32
}

// 1 + tanh(x) becomes 2 / (1 + exp(-2x)) (the GELU shape).
// CHECK-LABEL: func.func @one_plus_tanh
// CHECK: arith.constant -2.000000e+00 : f32
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
// CHECK-NOT: math.tanh
// CHECK-NOT: arith.subf
func.func @one_plus_tanh(%x: !asctile.tile<64xf32, UB>) -> !asctile.tile<64xf32, UB> {
  %c1 = arith.constant 1.0 : f32
  %one = asctile.splat %c1 : f32 -> !asctile.tile<64xf32, UB>
  %t = math.tanh %x : !asctile.tile<64xf32, UB>
  %y = arith.addf %one, %t : !asctile.tile<64xf32, UB>
  return %y : !asctile.tile<64xf32, UB>
}
