// RUN: asc2-opt %s -convert-asctile-to-ascendc -split-input-file -verify-diagnostics | FileCheck %s

// gather with check_bounds and a count: the rows buffer filled with pad_value
// first, then a loop over the first min(n, 16) indices: the index read on the
// scalar unit, the bounds guard, and one copy `at` row i (32 elements a row).
// CHECK-LABEL: func.func @gather_rows
// CHECK: %[[B:.*]] = ascendc.alloc_local {{.*}} : !ascendc.local<16x32xf32, VECIN>
// CHECK: ascendc.duplicate %[[B]], %{{.*}}, %{{.*}} : f32, !ascendc.local<16x32xf32, VECIN>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:   %[[V:.*]] = ascendc.get_value %{{.*}}[%[[I]]] : !ascendc.local<16xi16, VECIN> -> i16
// CHECK:   arith.index_cast %[[V]] : i16 to index
// CHECK:   scf.if %{{.*}} {
// CHECK:     %[[AT:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK:     ascendc.data_copy_in %[[B]] at %[[AT]], %{{.*}}[%{{.*}}], %{{.*}} {pad_value = -1.000000e+00 : f32}
func.func @gather_rows(%x: !asctile.ptr<f32>, %i: !asctile.ptr<i16>, %out: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?x30xf32>
  %it = asctile.tensor %i[%n] : !asctile.ptr<i16> -> !asctile.tensor<?xi16>
  %o = asctile.tensor %out[] : !asctile.ptr<f32> -> !asctile.tensor<16x32xf32>
  %c0 = arith.constant 0 : index
  %idx = asctile.load %it[%c0] : !asctile.tensor<?xi16> -> !asctile.tile<16xi16, UB>
  %r = asctile.gather %t[%c0] by %idx count %n {check_bounds, pad_value = -1.0 : f32}
      : !asctile.tensor<?x30xf32>, !asctile.tile<16xi16, UB> -> !asctile.tile<16x32xf32, UB>
  asctile.store %r, %o[%c0, %c0] : !asctile.tile<16x32xf32, UB>, !asctile.tensor<16x32xf32>
  return
}

// -----

// scatter without check_bounds: no guard; each row copied out `at` row i.
// CHECK-LABEL: func.func @scatter_rows
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:   ascendc.get_value
// CHECK-NOT: scf.if
// CHECK:   ascendc.data_copy_out %{{.*}}[%{{.*}}], %{{.*}} at %{{.*}}, %{{.*}} : !ascendc.gm<f16>, !ascendc.local<8x32xf16, VECIN>
func.func @scatter_rows(%x: !asctile.ptr<f16>, %i: !asctile.ptr<i64>, %out: !asctile.ptr<f16>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[] : !asctile.ptr<f16> -> !asctile.tensor<8x32xf16>
  %it = asctile.tensor %i[] : !asctile.ptr<i64> -> !asctile.tensor<8xi64>
  %o = asctile.tensor %out[%n] : !asctile.ptr<f16> -> !asctile.tensor<?x32xf16>
  %c0 = arith.constant 0 : index
  %idx = asctile.load %it[%c0] : !asctile.tensor<8xi64> -> !asctile.tile<8xi64, UB>
  %v = asctile.load %t[%c0, %c0] : !asctile.tensor<8x32xf16> -> !asctile.tile<8x32xf16, UB>
  asctile.scatter %v, %o[%c0] by %idx : !asctile.tile<8x32xf16, UB>, !asctile.tensor<?x32xf16>, !asctile.tile<8xi64, UB>
  return
}

// -----

func.func @float_index(%t: !asctile.tensor<?x32xf32>, %idx: !asctile.tile<16xf32, UB>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{index must be a rank-1 UB tile of int8, int16, int32 or int64}}
  %r = asctile.gather %t[%c0] by %idx : !asctile.tensor<?x32xf32>, !asctile.tile<16xf32, UB> -> !asctile.tile<16x32xf32, UB>
  return
}

// -----

func.func @last_dimension(%t: !asctile.tensor<?x32xf32>, %idx: !asctile.tile<16xi32, UB>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{expects 1 to 1 offsets}}
  %r = asctile.gather %t[%c0, %c0] by %idx : !asctile.tensor<?x32xf32>, !asctile.tile<16xi32, UB> -> !asctile.tile<16xf32, UB>
  return
}

// -----

func.func @unpadded_rows(%t: !asctile.tensor<?x30xf32>, %idx: !asctile.tile<16xi32, UB>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{rows tile '!asctile.tile<16x30xf32, UB>' does not match: expected [16, 32]}}
  %r = asctile.gather %t[%c0] by %idx : !asctile.tensor<?x30xf32>, !asctile.tile<16xi32, UB> -> !asctile.tile<16x30xf32, UB>
  return
}

// -----

func.func @too_few_rows(%t: !asctile.tensor<?x32xf32>, %v: !asctile.tile<8x32xf32, UB>, %idx: !asctile.tile<16xi32, UB>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{expected [>= 16, 32]}}
  asctile.scatter %v, %t[%c0] by %idx : !asctile.tile<8x32xf32, UB>, !asctile.tensor<?x32xf32>, !asctile.tile<16xi32, UB>
  return
}
