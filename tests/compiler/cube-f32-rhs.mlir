// RUN: asc2-opt %s -convert-asctile-to-ascendc -split-input-file -verify-diagnostics | FileCheck %s
// RUN: asc2-opt %s -convert-asctile-to-ascendc="soc-version=c310" -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=C310

// float32 B operands (K x N) on c220: LoadData2DParams transposes only b16 fractals, so B goes
// from its NZ L1 tile to L0B ZN by LoadData3DParamsV2 (a 1 x K feature map of N channels, the
// whole K x N window), as Huawei's Matmul does there.
// CHECK-LABEL: func.func @matmul_f32
// CHECK: ascendc.load_data %{{.*}}, %{{.*}} : !ascendc.local<32x64xf32, A2>, !ascendc.local<32x64xf32, A1>
// CHECK: %[[B1:.*]] = ascendc.alloc_local {name = "b"} : !ascendc.local<64x48xf32, B1>
// CHECK: ascendc.data_copy_in %[[B1]], %{{.*}} {pad_value = 0.000000e+00 : f32}
// CHECK: %[[B2:.*]] = ascendc.alloc_local {name = "b_1"} : !ascendc.local<64x48xf32, B2>
// CHECK-NOT: ascendc.load_data %[[B2]]
// CHECK: ascendc.load_data_3dv2 %[[B2]], %[[B1]] {channelSize = 48 : i64, kExtension = 48 : i64, l1W = 64 : i64, mExtension = 64 : i64}
// CHECK: ascendc.mmad %{{.*}}, %{{.*}}, %[[B2]]
// On c310 LoadData2DParamsV2 transposes b32 (kStep even): one load_data.
// C310-LABEL: func.func @matmul_f32
// C310-NOT: load_data_3dv2
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

// Sub-tiles of an L1 tile moved to L0B as stored: the window starts at (row, 0), and a runtime
// origin is the window's runtime start.
// CHECK-LABEL: func.func @l1_sub_tiles_f32
// CHECK: ascendc.data_copy_in %{{.*}} {pad_value = 0.000000e+00 : f32}
// CHECK: ascendc.load_data_3dv2 %{{.*}}, %{{.*}} {channelSize = 32 : i64, kExtension = 32 : i64, l1W = 64 : i64, mExtension = 32 : i64, mStartPt = 32 : i64}
// CHECK: scf.for
// CHECK: ascendc.load_data_3dv2 %{{.*}}, %{{.*}} at[%{{.*}}, %{{.*}}] {channelSize = 32 : i64, kExtension = 32 : i64, l1W = 64 : i64, mExtension = 32 : i64}
// C310-LABEL: func.func @l1_sub_tiles_f32
// C310-NOT: load_data_3dv2
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

// A stored K x M and moved to L0A transposed (float32, c220): the window is A^T (K x M: mExtension
// = K positions, kExtension = M channels), enTranspose makes it A in L0A ZZ.
// CHECK-LABEL: func.func @a_transposed_f32
// CHECK: ascendc.data_copy_in %{{.*}} {pad_value = 0.000000e+00 : f32}
// CHECK: ascendc.load_data_3dv2 %{{.*}}, %{{.*}} {channelSize = 48 : i64, enTranspose, kExtension = 48 : i64, l1W = 32 : i64, mExtension = 32 : i64} : !ascendc.local<48x32xf32, A2>, !ascendc.local<32x48xf32, A1>
// C310-LABEL: func.func @a_transposed_f32
// C310-NOT: load_data_3dv2
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

// -----

// One NZ L1 tile feeds L0A as stored (LoadData2DParams) and L0B as stored (LoadData3DParamsV2).
// CHECK-LABEL: func.func @l1_tile_to_both
// CHECK: ascendc.load_data %{{.*}}, %[[T:.*]] : !ascendc.local<32x32xf32, A2>, !ascendc.local<32x32xf32, A1>
// CHECK: ascendc.load_data_3dv2 %{{.*}}, %[[T]] {{.*}}: !ascendc.local<32x32xf32, B2>, !ascendc.local<32x32xf32, A1>
func.func @l1_tile_to_both(%b: !asctile.ptr<f32>, %c: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %tb = asctile.tensor %b[] : !asctile.ptr<f32> -> !asctile.tensor<32x32xf32>
  %tc = asctile.tensor %c[] : !asctile.ptr<f32> -> !asctile.tensor<32x32xf32>
  %c0 = arith.constant 0 : index
  %b1 = asctile.load %tb[%c0, %c0] : !asctile.tensor<32x32xf32> -> !asctile.tile<32x32xf32, L1>
  %x = asctile.move %b1 offsets [0, 0] : !asctile.tile<32x32xf32, L1> -> !asctile.tile<32x32xf32, L0A>
  %y = asctile.move %b1 offsets [0, 0] : !asctile.tile<32x32xf32, L1> -> !asctile.tile<32x32xf32, L0B>
  %p = asctile.matmul %x, %y : !asctile.tile<32x32xf32, L0A>, !asctile.tile<32x32xf32, L0B> -> !asctile.tile<32x32xf32, L0C>
  asctile.store %p, %tc[%c0, %c0] : !asctile.tile<32x32xf32, L0C>, !asctile.tensor<32x32xf32>
  return
}

// -----

// A float32 matmul result staged in L1 (NZ, by the fixpipe) goes to L0B as stored.
// CHECK-LABEL: func.func @staged_f32_to_l0b
// CHECK: ascendc.fixpipe_l1
// CHECK: ascendc.load_data_3dv2 %{{.*}}, %{{.*}} {{.*}}: !ascendc.local<32x32xf32, B2>
func.func @staged_f32_to_l0b(%a: !asctile.ptr<f32>, %c: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %ta = asctile.tensor %a[] : !asctile.ptr<f32> -> !asctile.tensor<32x32xf32>
  %tc = asctile.tensor %c[] : !asctile.ptr<f32> -> !asctile.tensor<32x32xf32>
  %c0 = arith.constant 0 : index
  %x = asctile.load %ta[%c0, %c0] : !asctile.tensor<32x32xf32> -> !asctile.tile<32x32xf32, L0A>
  %y = asctile.load %ta[%c0, %c0] : !asctile.tensor<32x32xf32> -> !asctile.tile<32x32xf32, L0B>
  %p = asctile.matmul %x, %y : !asctile.tile<32x32xf32, L0A>, !asctile.tile<32x32xf32, L0B> -> !asctile.tile<32x32xf32, L0C>
  %h = asctile.move %p offsets [0, 0] : !asctile.tile<32x32xf32, L0C> -> !asctile.tile<32x32xf32, L1>
  %h0 = asctile.move %h offsets [0, 0] : !asctile.tile<32x32xf32, L1> -> !asctile.tile<32x32xf32, L0B>
  %q = asctile.matmul %x, %h0 : !asctile.tile<32x32xf32, L0A>, !asctile.tile<32x32xf32, L0B> -> !asctile.tile<32x32xf32, L0C>
  asctile.store %q, %tc[%c0, %c0] : !asctile.tile<32x32xf32, L0C>, !asctile.tensor<32x32xf32>
  return
}
