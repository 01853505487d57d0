// RUN: asc2-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// Round trip; arith ops apply to tiles elementwise.
// CHECK-LABEL: func.func @roundtrip
// CHECK: asctile.load %{{.*}}[%{{.*}}] : !asctile.tensor<?xf16> -> !asctile.tile<128xf16, UB>
// CHECK: arith.mulf %{{.*}}, %{{.*}} : !asctile.tile<128xf16, UB>
func.func @roundtrip(%p: !asctile.ptr<f16>, %n: index) {
  %t = asctile.tensor %p[%n] : !asctile.ptr<f16> -> !asctile.tensor<?xf16>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0] : !asctile.tensor<?xf16> -> !asctile.tile<128xf16, UB>
  %b = arith.mulf %a, %a : !asctile.tile<128xf16, UB>
  asctile.store %b, %t[%c0] : !asctile.tile<128xf16, UB>, !asctile.tensor<?xf16>
  return
}

// -----

func.func @misaligned(%p: !asctile.ptr<f32>, %n: index) {
  %t = asctile.tensor %p[%n] : !asctile.ptr<f32> -> !asctile.tensor<?x64xf32>
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{UB tile last dimension is 3 x 4 bytes = 12 bytes, not a multiple of 32 bytes; use a multiple of 8 elements}}
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<?x64xf32> -> !asctile.tile<2x3xf32, UB>
  return
}

// -----

func.func @dims(%p: !asctile.ptr<f32>, %n: index) {
  // expected-error @+1 {{expects 2 dynamic dimension sizes, got 1}}
  %t = asctile.tensor %p[%n] : !asctile.ptr<f32> -> !asctile.tensor<?x?xf32>
  return
}

// -----

func.func @rank(%p: !asctile.ptr<f32>, %n: index) {
  %t = asctile.tensor %p[%n] : !asctile.ptr<f32> -> !asctile.tensor<?x64xf32>
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{expects 2 offsets for a rank-2 tensor, got 1}}
  %a = asctile.load %t[%c0] : !asctile.tensor<?x64xf32> -> !asctile.tile<64xf32, UB>
  return
}

// -----

// A uint8 element is read as a zero-extended wider signless integer and
// written from one (arith has no unsigned scalars).
// CHECK-LABEL: func.func @uint8_scalar
// CHECK: asctile.get_value %{{.*}}[%{{.*}}] : !asctile.tensor<4xui8> -> i32
// CHECK: asctile.set_value %{{.*}}, %{{.*}}[%{{.*}}] : i32, !asctile.tensor<4xui8>
func.func @uint8_scalar(%p: !asctile.ptr<ui8>) {
  %t = asctile.tensor %p[] : !asctile.ptr<ui8> -> !asctile.tensor<4xui8>
  %c1 = arith.constant 1 : index
  %v = asctile.get_value %t[%c1] : !asctile.tensor<4xui8> -> i32
  asctile.set_value %v, %t[%c1] : i32, !asctile.tensor<4xui8>
  return
}

// -----

func.func @int8_scalar_width(%p: !asctile.ptr<i8>) {
  %t = asctile.tensor %p[] : !asctile.ptr<i8> -> !asctile.tensor<4xi8>
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{result type must be the element type 'i8' (or a wider signless integer for an unsigned one)}}
  %v = asctile.get_value %t[%c1] : !asctile.tensor<4xi8> -> i32
  return
}
