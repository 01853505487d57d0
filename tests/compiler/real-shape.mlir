// RUN: asc2-opt %s -convert-asctile-to-ascendc -split-input-file -verify-diagnostics | FileCheck %s

// asctile.load/store with a real_shape: the moved extent of each dimension is
// also clamped to real_shape[d], so the count is min(n - off, tile, real).

// CHECK-LABEL: func.func @load_store_1d
// CHECK-SAME: (%[[X:.*]]: !ascendc.gm<f32>, %[[N:.*]]: index, %[[R:.*]]: index)
// CHECK: %[[REM:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK: %[[T:.*]] = arith.minsi %[[REM]], %{{.*}} : index
// CHECK: %[[M:.*]] = arith.minsi %[[T]], %[[R]] : index
// CHECK: %[[CNT:.*]] = arith.maxsi %[[M]], %{{.*}} : index
// CHECK: ascendc.data_copy_in %{{.*}}, %[[X]][%{{.*}}], %[[CNT]] {pad_value = -1.000000e+00 : f32}
// CHECK: ascendc.data_copy_out %[[X]][%{{.*}}], %{{.*}}, %{{.*}} :
func.func @load_store_1d(%x: !asctile.ptr<f32>, %n: index, %r: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0] real_shape [%r] {pad_value = -1.0 : f32} : !asctile.tensor<?xf32> -> !asctile.tile<256xf32, UB>
  asctile.store %a, %t[%c0] real_shape [%r] : !asctile.tile<256xf32, UB>, !asctile.tensor<?xf32>
  return
}

// -----

// Whole rows of a 64-column tensor stay one contiguous run only when the
// real column count is the tile's; a run-time one makes the copy 2-D.
// CHECK-LABEL: func.func @rows
// CHECK: ascendc.data_copy_in %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}} {pad_value
// CHECK: ascendc.data_copy_in %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}} rows %{{.*}} stride %{{.*}}
func.func @rows(%x: !asctile.ptr<f32>, %n: index, %r: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?x64xf32>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %a = asctile.load %t[%c0, %c0] real_shape [%r, %c64] : !asctile.tensor<?x64xf32> -> !asctile.tile<4x64xf32, UB>
  %b = asctile.load %t[%c0, %c0] real_shape [%r, %r] : !asctile.tensor<?x64xf32> -> !asctile.tile<4x64xf32, UB>
  return
}

// -----

// A rank-1 UB tile may have any length; rank-2 rows must stay 32-byte aligned.
// CHECK-LABEL: func.func @unaligned_1d
// CHECK: ascendc.alloc_local {name = "gm"} : !ascendc.local<3xf32, VECIN>
func.func @unaligned_1d(%x: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0] : !asctile.tensor<?xf32> -> !asctile.tile<3xf32, UB>
  asctile.store %a, %t[%c0] : !asctile.tile<3xf32, UB>, !asctile.tensor<?xf32>
  return
}

// -----

func.func @real_shape_rank(%x: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?x64xf32>
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{real_shape has 1 extents for a rank-2 tile}}
  %a = asctile.load %t[%c0, %c0] real_shape [%n] : !asctile.tensor<?x64xf32> -> !asctile.tile<4x64xf32, UB>
  return
}

// -----

func.func @unaligned_rows(%x: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?x64xf32>
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{UB tile last dimension is 3 x 4 bytes = 12 bytes, not a multiple of 32 bytes}}
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<?x64xf32> -> !asctile.tile<2x3xf32, UB>
  return
}
