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
