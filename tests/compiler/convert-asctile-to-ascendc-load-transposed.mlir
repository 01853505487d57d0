// RUN: asc2-opt %s -convert-asctile-to-ascendc -canonicalize -split-input-file -verify-diagnostics | FileCheck %s

// One slice of a [4096, 39, 1500] tensor, transposed: the unit dimension
// leaves no loop (it empties the box when outside the tensor), the 40 x 1504
// tile is two loops in its own order, each moving what lies in the tensor.
// CHECK-LABEL: func.func @slice
// CHECK: %[[INSIDE:.*]] = arith.cmpi sgt
// CHECK: %[[N:.*]] = arith.select %[[INSIDE]], %c1500, %c0
// CHECK: %[[B:.*]] = ascendc.alloc_local {name = "x"} : !ascendc.local<1x1504x40xf32, VECIN>
// CHECK: ascendc.data_copy_nd %[[B]], %arg0[%{{.*}}] sizes[%[[N]], %c39] {dst_strides = array<i64: 40, 1>, extents = array<i64: 1504, 40>, pad_value = 0.000000e+00 : f32, src_strides = array<i64: 1, 1500>}
func.func @slice(%x: !asctile.ptr<f32>, %i: index) attributes {asctile.kernel, asctile.arg_names = ["x", "i"]} {
  %c0 = arith.constant 0 : index
  %t = asctile.tensor %x[] : !asctile.ptr<f32> -> !asctile.tensor<4096x39x1500xf32>
  %a = asctile.load_transposed %t[%i, %c0, %c0] {permutation = array<i64: 0, 2, 1>} : !asctile.tensor<4096x39x1500xf32> -> !asctile.tile<1x1504x40xf32, UB>
  return
}

// -----

// Neighbours that are one run on both sides and always whole merge: (2, 3)
// of [0, 2, 3, 1] is one loop of 4 x 64; the run-time rows of dimension 0
// scale by nothing, dimension 1 (8 of 32 in the tensor) pads 24.
// CHECK-LABEL: func.func @merged
// CHECK: ascendc.data_copy_nd %{{.*}}, %arg0[%{{.*}}] sizes[%{{.*}}, %c256, %c8] {dst_strides = array<i64: 8192, 32, 1>, extents = array<i64: 2, 256, 32>, pad_value = -1 : i8, src_strides = array<i64: 2048, 1, 256>}
func.func @merged(%x: !asctile.ptr<i8>, %i: index) attributes {asctile.kernel, asctile.arg_names = ["x", "i"]} {
  %c0 = arith.constant 0 : index
  %t = asctile.tensor %x[] : !asctile.ptr<i8> -> !asctile.tensor<6x8x4x64xi8>
  %a = asctile.load_transposed %t[%i, %c0, %c0, %c0] {permutation = array<i64: 0, 2, 3, 1>, pad_value = -1 : i8} : !asctile.tensor<6x8x4x64xi8> -> !asctile.tile<2x4x64x32xi8, UB>
  return
}

// -----

// A run-time extent after the first dimension: the strides are the DMA's
// static fields (the fold pass never makes this).
func.func @dynamic_stride(%x: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel, asctile.arg_names = ["x", "n"]} {
  %c0 = arith.constant 0 : index
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<8x?xf32>
  // expected-error @+1 {{has no N-dimensional DMA form}}
  %a = asctile.load_transposed %t[%c0, %c0] {permutation = array<i64: 1, 0>} : !asctile.tensor<8x?xf32> -> !asctile.tile<64x8xf32, UB>
  return
}
