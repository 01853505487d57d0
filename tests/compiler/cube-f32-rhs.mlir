// RUN: asc2-opt %s -convert-asctile-to-ascendc -split-input-file -verify-diagnostics | FileCheck %s
// RUN: asc2-opt %s -convert-asctile-to-ascendc="soc-version=c310" -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=C310

// float32 B operands (K x N) on c220: LoadData2DParams transposes only b16 fractals, so B is staged
// in L1 as ZZ (data_copy_in {zz}: one ND2NZ matrix per 16-row band) and LoadDataWithTranspose turns
// each band into L0B ZN: loops = K / 16, repeatTimes = N / 16 squares, srcStride 1, dstFracGap =
// N / 16 - 1, bands 16 * N elements apart in L1 (ZZ) and in L0B (two ZN fractal rows).
// CHECK-LABEL: func.func @matmul_f32
// CHECK: ascendc.load_data %{{.*}}, %{{.*}} : !ascendc.local<32x64xf32, A2>, !ascendc.local<32x64xf32, A1>
// CHECK: %[[B1:.*]] = ascendc.alloc_local {name = "b"} : !ascendc.local<64x48xf32, B1>
// CHECK: ascendc.data_copy_in %[[B1]], %{{.*}} {pad_value = 0.000000e+00 : f32, zz}
// CHECK: %[[B2:.*]] = ascendc.alloc_local {name = "b_1"} : !ascendc.local<64x48xf32, B2>
// CHECK-NOT: ascendc.load_data %[[B2]]
// CHECK: ascendc.load_data_with_transpose %[[B2]], %[[B1]] {dstFracGap = 2 : i64, dstLoopStride = 768 : i64, loops = 4 : i64, repeatTimes = 3 : i64, srcLoopStride = 768 : i64, srcStride = 1 : i64}
// CHECK: ascendc.mmad %{{.*}}, %{{.*}}, %[[B2]]
// On c310 LoadData2DParamsV2 transposes b32 (kStep even): B stays NZ, one load_data.
// C310-LABEL: func.func @matmul_f32
// C310-NOT: zz
// C310-NOT: load_data_with_transpose
// C310: ascendc.load_data %{{.*}}, %{{.*}} : !ascendc.local<64x48xf32, B2>, !ascendc.local<64x48xf32, B1>
func.func @matmul_f32(%a: !asctile.ptr<f32>, %b: !asctile.ptr<f32>, %c: !asctile.ptr<f32>) attributes {asctile.kernel, asctile.arg_names = ["a", "b", "c"]} {
  %ta = asctile.tensor %a[] : !asctile.ptr<f32> -> !asctile.tensor<32x64xf32>
  %tb = asctile.tensor %b[] : !asctile.ptr<f32> -> !asctile.tensor<64x48xf32>
  %tc = asctile.tensor %c[] : !asctile.ptr<f32> -> !asctile.tensor<32x48xf32>
  %c0 = arith.constant 0 : index
  %x = asctile.load %ta[%c0, %c0] : !asctile.tensor<32x64xf32> -> !asctile.tile<32x64xf32, L0A>
  %y = asctile.load %tb[%c0, %c0] : !asctile.tensor<64x48xf32> -> !asctile.tile<64x48xf32, L0B>
  %p = asctile.matmul %x, %y : !asctile.tile<32x64xf32, L0A>, !asctile.tile<64x48xf32, L0B> -> !asctile.tile<32x48xf32, L0C>
  asctile.store %p, %tc[%c0, %c0] : !asctile.tile<32x48xf32, L0C>, !asctile.tensor<32x48xf32>
  return
}

// -----

// An L1 tile moved to L0B as stored is ZZ; its K sub-tiles start at their band (row * N) and the
// runtime origin folds into one element offset (row * 32 + col * 16).
// CHECK-LABEL: func.func @l1_sub_tiles_f32
// CHECK: ascendc.data_copy_in %{{.*}} {pad_value = 0.000000e+00 : f32, zz}
// CHECK: ascendc.load_data_with_transpose %{{.*}}, %{{.*}} {dstFracGap = 1 : i64, dstLoopStride = 512 : i64, loops = 2 : i64, repeatTimes = 2 : i64, srcLoopStride = 512 : i64, srcOffset = 1024 : i64, srcStride = 1 : i64}
// CHECK: scf.for
// CHECK: ascendc.load_data_with_transpose %{{.*}}, %{{.*}} at[%{{.*}}] {dstFracGap = 1 : i64
// C310-LABEL: func.func @l1_sub_tiles_f32
// C310-NOT: load_data_with_transpose
// C310: ascendc.load_data %{{.*}}, %{{.*}} {row = 32 : i64}
func.func @l1_sub_tiles_f32(%b: !asctile.ptr<f32>, %a: !asctile.ptr<f32>, %c: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %tb = asctile.tensor %b[] : !asctile.ptr<f32> -> !asctile.tensor<64x32xf32>
  %ta = asctile.tensor %a[] : !asctile.ptr<f32> -> !asctile.tensor<16x32xf32>
  %tc = asctile.tensor %c[] : !asctile.ptr<f32> -> !asctile.tensor<16x32xf32>
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %b1 = asctile.load %tb[%c0, %c0] : !asctile.tensor<64x32xf32> -> !asctile.tile<64x32xf32, L1>
  %x = asctile.load %ta[%c0, %c0] : !asctile.tensor<16x32xf32> -> !asctile.tile<16x32xf32, L0A>
  %y = asctile.move %b1 offsets [32, 0] : !asctile.tile<64x32xf32, L1> -> !asctile.tile<32x32xf32, L0B>
  %p = asctile.matmul %x, %y : !asctile.tile<16x32xf32, L0A>, !asctile.tile<32x32xf32, L0B> -> !asctile.tile<16x32xf32, L0C>
  asctile.store %p, %tc[%c0, %c0] : !asctile.tile<16x32xf32, L0C>, !asctile.tensor<16x32xf32>
  scf.for %k = %c0 to %c64 step %c32 {
    %y2 = asctile.move %b1 offsets [0, 0] dynamic [%k, %c0] : !asctile.tile<64x32xf32, L1> -> !asctile.tile<32x32xf32, L0B>
    %p2 = asctile.matmul %x, %y2 : !asctile.tile<16x32xf32, L0A>, !asctile.tile<32x32xf32, L0B> -> !asctile.tile<16x32xf32, L0C>
    asctile.store %p2, %tc[%c0, %c0] : !asctile.tile<16x32xf32, L0C>, !asctile.tensor<16x32xf32>
  }
  return
}


// -----

// A stored K x M and moved to L0A transposed (float32, c220): the same ZZ L1 tile, one trip per
// 16-row band of A (loops = M / 16, 256 elements = one square apart in L1, 16 * K in L0A ZZ),
// repeatTimes = K / 16 squares srcStride = M / 16 apart, dstGap 1 (the halves are ZZ fractals
// 2r and 2r + 1).
// CHECK-LABEL: func.func @a_transposed_f32
// CHECK: ascendc.data_copy_in %{{.*}} {pad_value = 0.000000e+00 : f32, zz}
// CHECK: ascendc.load_data_with_transpose %{{.*}}, %{{.*}} {dstGap = 1 : i64, dstLoopStride = 512 : i64, loops = 3 : i64, repeatTimes = 2 : i64, srcLoopStride = 256 : i64, srcStride = 3 : i64} : !ascendc.local<48x32xf32, A2>, !ascendc.local<32x48xf32, A1>
// C310-LABEL: func.func @a_transposed_f32
// C310-NOT: load_data_with_transpose
// C310: ascendc.load_data %{{.*}}, %{{.*}} {transpose}
func.func @a_transposed_f32(%a: !asctile.ptr<f32>, %b: !asctile.ptr<f32>, %c: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %ta = asctile.tensor %a[] : !asctile.ptr<f32> -> !asctile.tensor<32x48xf32>
  %tb = asctile.tensor %b[] : !asctile.ptr<f32> -> !asctile.tensor<32x16xf32>
  %tc = asctile.tensor %c[] : !asctile.ptr<f32> -> !asctile.tensor<48x16xf32>
  %c0 = arith.constant 0 : index
  %a1 = asctile.load %ta[%c0, %c0] : !asctile.tensor<32x48xf32> -> !asctile.tile<32x48xf32, L1>
  %x = asctile.move %a1 offsets [0, 0] {transpose} : !asctile.tile<32x48xf32, L1> -> !asctile.tile<48x32xf32, L0A>
  %y = asctile.load %tb[%c0, %c0] : !asctile.tensor<32x16xf32> -> !asctile.tile<32x16xf32, L0B>
  %p = asctile.matmul %x, %y : !asctile.tile<48x32xf32, L0A>, !asctile.tile<32x16xf32, L0B> -> !asctile.tile<48x16xf32, L0C>
  asctile.store %p, %tc[%c0, %c0] : !asctile.tile<48x16xf32, L0C>, !asctile.tensor<48x16xf32>
  return
}
