// RUN: asc2-opt %s -asctile-split-vector-work -split-input-file -verify-diagnostics | FileCheck %s

// Ascend950's moves between the cube and the vector core make a kernel MIX_AIC_1_2. A fixpipe
// into UB divides like a load: each vector core gets half of M (the move is `split`: the
// dual-destination fixpipe), and its store moves to its rows.
// CHECK-LABEL: func.func @fixpipe_to_ub_divides
// CHECK-SAME: asctile.vector_cores = 2
// CHECK-NOT: asctile.first_vector_core_only
// CHECK: %[[SUB:.*]] = asctile.sub_block_idx
// CHECK: asctile.move %{{.*}} offsets [0, 0] {split} : !asctile.tile<32x64xf32, L0C> -> !asctile.tile<16x64xf32, UB>
// CHECK: arith.addf %{{.*}} : !asctile.tile<16x64xf32, UB>
// CHECK: asctile.store %{{.*}} : !asctile.tile<16x64xf32, UB>
func.func @fixpipe_to_ub_divides(%a: !asctile.ptr<f16>, %b: !asctile.ptr<f16>, %c: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %ta = asctile.tensor %a[] : !asctile.ptr<f16> -> !asctile.tensor<32x32xf16>
  %tb = asctile.tensor %b[] : !asctile.ptr<f16> -> !asctile.tensor<32x64xf16>
  %tc = asctile.tensor %c[] : !asctile.ptr<f32> -> !asctile.tensor<32x64xf32>
  %c0 = arith.constant 0 : index
  %x = asctile.load %ta[%c0, %c0] : !asctile.tensor<32x32xf16> -> !asctile.tile<32x32xf16, L0A>
  %y = asctile.load %tb[%c0, %c0] : !asctile.tensor<32x64xf16> -> !asctile.tile<32x64xf16, L0B>
  %p = asctile.matmul %x, %y : !asctile.tile<32x32xf16, L0A>, !asctile.tile<32x64xf16, L0B> -> !asctile.tile<32x64xf32, L0C>
  %u = asctile.move %p offsets [0, 0] : !asctile.tile<32x64xf32, L0C> -> !asctile.tile<32x64xf32, UB>
  %s = arith.addf %u, %u : !asctile.tile<32x64xf32, UB>
  asctile.store %s, %tc[%c0, %c0] : !asctile.tile<32x64xf32, UB>, !asctile.tensor<32x64xf32>
  return
}

// -----

// A copy of a tile's whole rows into L1 divides like a store: each vector core loads, scales
// and copies its rows (the L1 tile stays whole).
// CHECK-LABEL: func.func @whole_rows_to_l1_divide
// CHECK-SAME: asctile.vector_cores = 2
// CHECK: asctile.load %{{.*}} -> !asctile.tile<16x32xf16, UB>
// CHECK: asctile.move %{{.*}} offsets [0, 0] {split} : !asctile.tile<16x32xf16, UB> -> !asctile.tile<32x32xf16, L1>
func.func @whole_rows_to_l1_divide(%a: !asctile.ptr<f16>, %b: !asctile.ptr<f16>, %c: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %ta = asctile.tensor %a[] : !asctile.ptr<f16> -> !asctile.tensor<32x32xf16>
  %tb = asctile.tensor %b[] : !asctile.ptr<f16> -> !asctile.tensor<32x16xf16>
  %tc = asctile.tensor %c[] : !asctile.ptr<f32> -> !asctile.tensor<32x16xf32>
  %c0 = arith.constant 0 : index
  %x = asctile.load %ta[%c0, %c0] : !asctile.tensor<32x32xf16> -> !asctile.tile<32x32xf16, UB>
  %x2 = arith.addf %x, %x : !asctile.tile<32x32xf16, UB>
  %l1 = asctile.move %x2 offsets [0, 0] : !asctile.tile<32x32xf16, UB> -> !asctile.tile<32x32xf16, L1>
  %l0a = asctile.move %l1 offsets [0, 0] : !asctile.tile<32x32xf16, L1> -> !asctile.tile<32x32xf16, L0A>
  %y = asctile.load %tb[%c0, %c0] : !asctile.tensor<32x16xf16> -> !asctile.tile<32x16xf16, L0B>
  %p = asctile.matmul %l0a, %y : !asctile.tile<32x32xf16, L0A>, !asctile.tile<32x16xf16, L0B> -> !asctile.tile<32x16xf32, L0C>
  asctile.store %p, %tc[%c0, %c0] : !asctile.tile<32x16xf32, L0C>, !asctile.tensor<32x16xf32>
  return
}

// -----

// A copy of part of a tile's rows (a K slab) cannot divide: the first vector core does all the
// vector work, the second follows the cross-core flags.
// CHECK-LABEL: func.func @row_slab_to_l1
// CHECK-SAME: asctile.first_vector_core_only
// CHECK-SAME: asctile.vector_cores = 2
// CHECK-NOT: {split}
// CHECK: return
func.func @row_slab_to_l1(%b: !asctile.ptr<f16>, %a: !asctile.ptr<f16>, %c: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %tb = asctile.tensor %b[] : !asctile.ptr<f16> -> !asctile.tensor<64x32xf16>
  %ta = asctile.tensor %a[] : !asctile.ptr<f16> -> !asctile.tensor<32x32xf16>
  %tc = asctile.tensor %c[] : !asctile.ptr<f32> -> !asctile.tensor<32x32xf32>
  %c0 = arith.constant 0 : index
  %y = asctile.load %tb[%c0, %c0] : !asctile.tensor<64x32xf16> -> !asctile.tile<64x32xf16, UB>
  // expected-remark @+1 {{the vector work runs on the first vector core of each cube core, the second only follows the cross-core flags (Ascend950's L0C -> UB and UB -> L1 need a MIX_AIC_1_2 kernel): it copies part of a UB tile's rows to L1}}
  %l1 = asctile.move %y offsets [32, 0] : !asctile.tile<64x32xf16, UB> -> !asctile.tile<32x32xf16, L1>
  %l0b = asctile.move %l1 offsets [0, 0] : !asctile.tile<32x32xf16, L1> -> !asctile.tile<32x32xf16, L0B>
  %x = asctile.load %ta[%c0, %c0] : !asctile.tensor<32x32xf16> -> !asctile.tile<32x32xf16, L0A>
  %p = asctile.matmul %x, %l0b : !asctile.tile<32x32xf16, L0A>, !asctile.tile<32x32xf16, L0B> -> !asctile.tile<32x32xf32, L0C>
  asctile.store %p, %tc[%c0, %c0] : !asctile.tile<32x32xf32, L0C>, !asctile.tensor<32x32xf32>
  return
}
