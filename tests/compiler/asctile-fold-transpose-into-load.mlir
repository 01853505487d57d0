// RUN: asc2-opt %s -asctile-fold-transpose-into-load -split-input-file | FileCheck %s
// RUN: asc2-opt %s -asctile-fold-transpose-into-load=max-dims=2 -split-input-file | FileCheck %s --check-prefix=TWO

// The frontend's form of a [62, 8, 128] tile of a [7000, 8, 128] tensor: one
// merged run, reshaped back. The run splits again (its offset is a multiple
// of 8 x 128) and the transpose becomes the load's order: one tile.
// CHECK-LABEL: func.func @merged
// CHECK: %[[T:.*]] = asctile.tensor %arg0[] : !asctile.ptr<f32> -> !asctile.tensor<7000x8x128xf32>
// CHECK: %[[L:.*]] = asctile.load_transposed %[[T]][%arg2, %c0, %c0] {permutation = array<i64: 0, 2, 1>} : !asctile.tensor<7000x8x128xf32> -> !asctile.tile<62x128x8xf32, UB>
// CHECK: asctile.reshape %[[L]] : !asctile.tile<62x128x8xf32, UB> -> !asctile.tile<63488xf32, UB>
// CHECK-NOT: asctile.transpose
// Three loops: more than a two-loop DMA takes, so it stays.
// TWO-LABEL: func.func @merged
// TWO: asctile.transpose
// TWO-NOT: asctile.load_transposed
func.func @merged(%a: !asctile.ptr<f32>, %b: !asctile.ptr<f32>, %i: index) {
  %c1024 = arith.constant 1024 : index
  %in = asctile.tensor %a[] : !asctile.ptr<f32> -> !asctile.tensor<7168000xf32>
  %out = asctile.tensor %b[] : !asctile.ptr<f32> -> !asctile.tensor<7168000xf32>
  %off = arith.muli %i, %c1024 : index
  %x = asctile.load %in[%off] : !asctile.tensor<7168000xf32> -> !asctile.tile<63488xf32, UB>
  %r = asctile.reshape %x : !asctile.tile<63488xf32, UB> -> !asctile.tile<62x8x128xf32, UB>
  %t = asctile.transpose %r {permutation = array<i64: 0, 2, 1>} : !asctile.tile<62x8x128xf32, UB> -> !asctile.tile<62x128x8xf32, UB>
  %f = asctile.reshape %t : !asctile.tile<62x128x8xf32, UB> -> !asctile.tile<63488xf32, UB>
  asctile.store %f, %out[%off] : !asctile.tile<63488xf32, UB>, !asctile.tensor<7168000xf32>
  return
}

// -----

// A 2-D transpose with a run-time extent: the tile's dimensions are the
// tensor's, padding and real_shape included.
// CHECK-LABEL: func.func @rows_to_columns
// CHECK: asctile.load_transposed %{{.*}}[%c0, %arg2] real_shape[%arg3, %arg3] {pad_value = 1.000000e+00 : f16, permutation = array<i64: 1, 0>} : !asctile.tensor<50x65536xf16> -> !asctile.tile<1024x64xf16, UB>
// TWO-LABEL: func.func @rows_to_columns
// TWO: asctile.load_transposed
func.func @rows_to_columns(%a: !asctile.ptr<f16>, %b: !asctile.ptr<f16>, %j: index, %n: index) {
  %c0 = arith.constant 0 : index
  %in = asctile.tensor %a[] : !asctile.ptr<f16> -> !asctile.tensor<50x65536xf16>
  %out = asctile.tensor %b[] : !asctile.ptr<f16> -> !asctile.tensor<65536x50xf16>
  %x = asctile.load %in[%c0, %j] real_shape [%n, %n] {pad_value = 1.0 : f16} : !asctile.tensor<50x65536xf16> -> !asctile.tile<64x1024xf16, UB>
  %t = asctile.transpose %x : !asctile.tile<64x1024xf16, UB> -> !asctile.tile<1024x64xf16, UB>
  asctile.store %t, %out[%j, %c0] : !asctile.tile<1024x64xf16, UB>, !asctile.tensor<65536x50xf16>
  return
}

// -----

// A unit load dimension the reshape drops: it stays a dimension of the view
// (its offset picks the slice) and leads the result, reshaped away after.
// CHECK-LABEL: func.func @unit_slice
// CHECK: %[[L:.*]] = asctile.load_transposed %{{.*}}[%arg2, %c0, %c0] {permutation = array<i64: 0, 2, 1>} : !asctile.tensor<4096x39x1500xf32> -> !asctile.tile<1x1504x40xf32, UB>
// CHECK: asctile.reshape %[[L]] : !asctile.tile<1x1504x40xf32, UB> -> !asctile.tile<1504x40xf32, UB>
func.func @unit_slice(%a: !asctile.ptr<f32>, %b: !asctile.ptr<f32>, %i: index) {
  %c0 = arith.constant 0 : index
  %in = asctile.tensor %a[] : !asctile.ptr<f32> -> !asctile.tensor<4096x39x1500xf32>
  %x = asctile.load %in[%i, %c0, %c0] : !asctile.tensor<4096x39x1500xf32> -> !asctile.tile<1x40x1504xf32, UB>
  %r = asctile.reshape %x : !asctile.tile<1x40x1504xf32, UB> -> !asctile.tile<40x1504xf32, UB>
  %t = asctile.transpose %r : !asctile.tile<40x1504xf32, UB> -> !asctile.tile<1504x40xf32, UB>
  %s = arith.addf %t, %t : !asctile.tile<1504x40xf32, UB>
  return
}

// -----

// Left alone: the loaded tile has another use; a merged run whose offset is
// not a multiple of its inner part (the split would not be exact); a
// transpose of unit dimensions only (the same bytes).
// CHECK-LABEL: func.func @kept
// CHECK-NOT: asctile.load_transposed
// CHECK-COUNT-3: asctile.transpose
func.func @kept(%a: !asctile.ptr<f32>, %i: index) {
  %c0 = arith.constant 0 : index
  %in = asctile.tensor %a[] : !asctile.ptr<f32> -> !asctile.tensor<64x64xf32>
  %flat = asctile.tensor %a[] : !asctile.ptr<f32> -> !asctile.tensor<4096xf32>
  %x = asctile.load %in[%i, %c0] : !asctile.tensor<64x64xf32> -> !asctile.tile<8x64xf32, UB>
  %t = asctile.transpose %x : !asctile.tile<8x64xf32, UB> -> !asctile.tile<64x8xf32, UB>
  %u = arith.addf %x, %x : !asctile.tile<8x64xf32, UB>
  %y = asctile.load %flat[%i] : !asctile.tensor<4096xf32> -> !asctile.tile<512xf32, UB>
  %ry = asctile.reshape %y : !asctile.tile<512xf32, UB> -> !asctile.tile<8x64xf32, UB>
  %ty = asctile.transpose %ry : !asctile.tile<8x64xf32, UB> -> !asctile.tile<64x8xf32, UB>
  %cube = asctile.tensor %a[] : !asctile.ptr<f32> -> !asctile.tensor<4x16x64xf32>
  %z = asctile.load %cube[%i, %c0, %c0] : !asctile.tensor<4x16x64xf32> -> !asctile.tile<1x1x64xf32, UB>
  %tz = asctile.transpose %z {permutation = array<i64: 1, 0, 2>} : !asctile.tile<1x1x64xf32, UB> -> !asctile.tile<1x1x64xf32, UB>
  return
}
