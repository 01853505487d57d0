// RUN: asc2-opt %s -convert-asctile-to-ascendc -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @vadd
// CHECK-SAME: (%[[X:.*]]: !ascendc.gm<f32>, %[[Y:.*]]: !ascendc.gm<f32>, %[[O:.*]]: !ascendc.gm<f32>, %[[N:.*]]: index)
func.func @vadd(%x: !asctile.ptr<f32>, %y: !asctile.ptr<f32>, %out: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel, asctile.arg_names = ["x", "y", "out", "n"]} {
  %tx = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %ty = asctile.tensor %y[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %to = asctile.tensor %out[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  // The in-bounds count is clamp(n - off, 0, 256).
  // CHECK: %[[REM:.*]] = arith.subi %[[N]], %{{.*}} : index
  // CHECK: %[[MIN:.*]] = arith.minsi %[[REM]], %{{.*}} : index
  // CHECK: %[[CNT:.*]] = arith.maxsi %[[MIN]], %{{.*}} : index
  // CHECK: %[[BX:.*]] = ascendc.alloc_local {name = "x"} : !ascendc.local<256xf32, VECIN>
  // CHECK: ascendc.data_copy_in %[[BX]], %[[X]][%{{.*}}], %[[CNT]] {pad_value = 0.000000e+00 : f32}
  %a = asctile.load %tx[%c0] : !asctile.tensor<?xf32> -> !asctile.tile<256xf32, UB>
  %b = asctile.load %ty[%c0] : !asctile.tensor<?xf32> -> !asctile.tile<256xf32, UB>
  // CHECK: %[[BS:.*]] = ascendc.alloc_local {name = "addf"} : !ascendc.local<256xf32, VECCALC>
  // CHECK: ascendc.add %[[BS]], %[[BX]], %{{.*}}, %{{.*}} : !ascendc.local<256xf32, VECCALC>, !ascendc.local<256xf32, VECIN>, !ascendc.local<256xf32, VECIN>
  %s = arith.addf %a, %b : !asctile.tile<256xf32, UB>
  // CHECK: ascendc.data_copy_out %[[O]][%{{.*}}], %[[BS]], %{{.*}} : !ascendc.gm<f32>, !ascendc.local<256xf32, VECCALC>
  asctile.store %s, %to[%c0] : !asctile.tile<256xf32, UB>, !asctile.tensor<?xf32>
  // CHECK-NOT: asctile.
  return
}

// -----

// A 2x32 block of a ?x64 tensor is two strided rows: a 2-D copy.
// CHECK-LABEL: func.func @strided
// CHECK: ascendc.data_copy_in %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}} rows %{{.*}} stride %{{.*}}
// CHECK: ascendc.data_copy_out %{{.*}}[%{{.*}}], %{{.*}}, %{{.*}} rows %{{.*}} stride %{{.*}}
func.func @strided(%x: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?x64xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<?x64xf32> -> !asctile.tile<2x32xf32, UB>
  asctile.store %a, %t[%c0, %c0] : !asctile.tile<2x32xf32, UB>, !asctile.tensor<?x64xf32>
  return
}

// -----

func.func @rank3(%x: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?x4x64xf32>
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{has more than two non-unit dimensions}}
  %a = asctile.load %t[%c0, %c0, %c0] : !asctile.tensor<?x4x64xf32> -> !asctile.tile<2x4x64xf32, UB>
  return
}

// -----

// A splat operand becomes the scalar of the op (Adds), and never gets a buffer;
// s - x on c220 (no Subs there) is (-x) + s (scalar-and-shift-forms.mlir).
// CHECK-LABEL: func.func @scalar_operand
// CHECK: %[[C:.*]] = arith.constant 2.500000e+00 : f32
// CHECK-NOT: ascendc.duplicate
// CHECK: ascendc.adds %{{.*}}, %{{.*}}, %[[C]], %{{.*}} :
// CHECK: ascendc.muls
// CHECK: ascendc.adds %{{.*}}, %{{.*}}, %[[C]], %{{.*}} :
func.func @scalar_operand(%x: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0] : !asctile.tensor<?xf32> -> !asctile.tile<64xf32, UB>
  %c = arith.constant 2.5 : f32
  %s = asctile.splat %c : f32 -> !asctile.tile<64xf32, UB>
  %b = arith.addf %a, %s : !asctile.tile<64xf32, UB>
  %d = arith.subf %s, %b : !asctile.tile<64xf32, UB>
  asctile.store %d, %t[%c0] : !asctile.tile<64xf32, UB>, !asctile.tensor<?xf32>
  return
}

// -----

// Row reductions and their broadcast back: the subtraction reads the Brcb'd
// maxima in place (block r for row r: block and repeat stride 0 along the
// row, repeat stride one block from row to row), no [4, 64] tile of copies.
// CHECK-LABEL: func.func @rows
// CHECK: ascendc.whole_reduce MAX %[[R:.*]], %{{.*}} mask 64 repeat 4 strides(1, 1, 8) order ORDER_ONLY_VALUE : !ascendc.local<4xf32, VECCALC>, !ascendc.local<4x64xf32, VECIN>
// CHECK: ascendc.brcb %[[T:.*]], %[[R]] {{.*}} : !ascendc.local<64xf32, VECCALC>, !ascendc.local<4xf32, VECCALC>
// CHECK-NOT: ascendc.copy
// CHECK: ascendc.binary_repeat Sub %{{.*}}, %{{.*}}, %[[T]] mask 64 repeat 4 params [1, 1, 0, 8, 8, 1] : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x64xf32, VECIN>, !ascendc.local<64xf32, VECCALC>
// A full reduction (rows, then the row of results) ends in a scalar read on
// the scalar pipe.
// CHECK: ascendc.whole_reduce SUM %[[RS:.*]], %{{.*}} mask 64 repeat 4 strides(1, 1, 8) :
// CHECK: ascendc.whole_reduce SUM %[[S:.*]], %[[RS]] mask 4 repeat 1 strides(1, 1, 8) :
// CHECK: ascendc.get_value %[[S]]
func.func @rows(%x: !asctile.ptr<f32>, %out: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?x64xf32>
  %o = asctile.tensor %out[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<?x64xf32> -> !asctile.tile<4x64xf32, UB>
  %m = asctile.reduce max %a dims [1] keep_dims : !asctile.tile<4x64xf32, UB> -> !asctile.tile<4x1xf32, UB>
  %b = asctile.broadcast %m : !asctile.tile<4x1xf32, UB> -> !asctile.tile<4x64xf32, UB>
  %d = arith.subf %a, %b : !asctile.tile<4x64xf32, UB>
  %s = asctile.reduce sum %d dims [0, 1] : !asctile.tile<4x64xf32, UB> -> f32
  asctile.set_value %s, %o[%c0] : f32, !asctile.tensor<?xf32>
  return
}
