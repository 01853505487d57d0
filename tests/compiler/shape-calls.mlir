// RUN: asc2-opt %s -split-input-file -verify-diagnostics -convert-asctile-to-ascendc | FileCheck %s
// Broadcasts, concatenation and transposes become Brcb, level-0 Copy,
// DataCopy within UB and Transpose (Conversion/AscTileToAscendC/Shape.cpp).

// A column broadcast: Brcb spreads the 4 row maxima over 4 blocks (one
// repeat writes 8), then one Copy repeats block r along row r: a repeat per
// row (64 floats = one 256-byte repeat), source block stride 0, source repeat
// stride 1 block.
// CHECK-LABEL: func.func @column_broadcast
// CHECK: ascendc.whole_reduce MAX %[[M:[^,]*]],
// CHECK: %[[T:.*]] = ascendc.alloc_local {name = "brcb"} : !ascendc.local<64xf32, VECCALC>
// CHECK: ascendc.brcb %[[T]], %[[M]] {dst_blk_stride = 1 : i64, dst_rep_stride = 8 : i64, repeat_time = 1 : i64}
// CHECK: ascendc.copy %{{.*}}, %[[T]] {dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 4 : i64, src_repeat_size = 1 : i64, src_stride = 0 : i64}
// CHECK-NOT: ascendc.copy
func.func @column_broadcast(%x: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?x64xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<?x64xf32> -> !asctile.tile<4x64xf32, UB>
  %m = asctile.reduce max %a dims [1] keep_dims : !asctile.tile<4x64xf32, UB> -> !asctile.tile<4x1xf32, UB>
  %b = asctile.broadcast %m : !asctile.tile<4x1xf32, UB> -> !asctile.tile<4x64xf32, UB>
  asctile.store %b, %t[%c0, %c0] : !asctile.tile<4x64xf32, UB>, !asctile.tensor<?x64xf32>
  return
}

// -----

// A row broadcast: one Copy, a repeat per destination row, source repeat
// stride 0 (every repeat reads the same row).
// CHECK-LABEL: func.func @row_broadcast
// CHECK-NOT: ascendc.brcb
// CHECK: ascendc.copy %{{.*}}, %{{.*}} {dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 64 : i64, repeat_time = 4 : i64, src_repeat_size = 0 : i64, src_stride = 1 : i64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<1x64xf32, VECIN>
// CHECK-NOT: ascendc.copy
func.func @row_broadcast(%x: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?x64xf32>
  %c0 = arith.constant 0 : index
  %g = asctile.load %t[%c0, %c0] : !asctile.tensor<?x64xf32> -> !asctile.tile<1x64xf32, UB>
  %b = asctile.broadcast %g : !asctile.tile<1x64xf32, UB> -> !asctile.tile<4x64xf32, UB>
  asctile.store %b, %t[%c0, %c0] : !asctile.tile<4x64xf32, UB>, !asctile.tensor<?x64xf32>
  return
}

// -----

// Concatenation along the columns: one DataCopy within UB per input, rows of
// whole 32-byte blocks with gaps between them (64 + 32 floats per row).
// CHECK-LABEL: func.func @concat_columns
// CHECK: ascendc.local_data_copy %[[D:.*]], %{{.*}} {block_count = 4 : i64, block_len = 8 : i64, dst_gap = 4 : i64, src_gap = 0 : i64}
// CHECK: ascendc.local_data_copy %[[D]], %{{.*}} {block_count = 4 : i64, block_len = 4 : i64, dst_gap = 8 : i64, dst_offset = 64 : i64, src_gap = 0 : i64}
func.func @concat_columns(%x: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?x64xf32>
  %u = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?x32xf32>
  %o = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?x96xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<?x64xf32> -> !asctile.tile<4x64xf32, UB>
  %b = asctile.load %u[%c0, %c0] : !asctile.tensor<?x32xf32> -> !asctile.tile<4x32xf32, UB>
  %c = asctile.concat %a, %b dim 1 : !asctile.tile<4x64xf32, UB>, !asctile.tile<4x32xf32, UB> -> !asctile.tile<4x96xf32, UB>
  asctile.store %c, %o[%c0, %c0] : !asctile.tile<4x96xf32, UB>, !asctile.tensor<?x96xf32>
  return
}

// -----

// A row that ends inside a 32-byte block (12 floats) is a level-0 Copy with
// a count mask of 12.
// CHECK-LABEL: func.func @concat_partial_block
// CHECK: ascendc.local_data_copy %{{.*}}, %{{.*}} {block_count = 1 : i64, block_len = 1 : i64, dst_gap = 0 : i64, src_gap = 0 : i64}
// CHECK: ascendc.copy %{{.*}}, %{{.*}} {dst_offset = 8 : i64, dst_repeat_size = 8 : i64, dst_stride = 1 : i64, mask = 12 : i64, repeat_time = 1 : i64, src_repeat_size = 8 : i64, src_stride = 1 : i64}
func.func @concat_partial_block(%x: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0] : !asctile.tensor<?xf32> -> !asctile.tile<8xf32, UB>
  %b = asctile.load %t[%c0] : !asctile.tensor<?xf32> -> !asctile.tile<12xf32, UB>
  %c = asctile.concat %a, %b dim 0 : !asctile.tile<8xf32, UB>, !asctile.tile<12xf32, UB> -> !asctile.tile<20xf32, UB>
  asctile.store %c, %t[%c0] : !asctile.tile<20xf32, UB>, !asctile.tensor<?xf32>
  return
}

// -----

// Rows that do not start on a 32-byte block have no UB copy. (A splat makes
// the [4, 4] operand: a reshape's packed rows may only be reduced, which
// asctile.reshape's verifier enforces.)
func.func @concat_unaligned(%x: !asctile.ptr<f32>, %n: index, %v: f32) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %r = asctile.splat %v : f32 -> !asctile.tile<4x4xf32, UB>
  // expected-error @+1 {{has no Ascend C lowering: this op moves rows of 4 x f32 that start 8 (destination) and 4 (source) elements apart}}
  %c = asctile.concat %r, %r dim 1 : !asctile.tile<4x4xf32, UB>, !asctile.tile<4x4xf32, UB> -> !asctile.tile<4x8xf32, UB>
  %f = asctile.reshape %c : !asctile.tile<4x8xf32, UB> -> !asctile.tile<32xf32, UB>
  asctile.store %f, %t[%c0] : !asctile.tile<32xf32, UB>, !asctile.tensor<?xf32>
  return
}

// -----

// A 2-D transpose is Transpose's NCHW -> NHWC form with n = 1, c = 16 rows,
// h * w = 64 columns, and its (16 + 2) * 512-byte uint8 scratch buffer.
// CHECK-LABEL: func.func @transpose_2d
// CHECK: %[[TMP:.*]] = ascendc.alloc_local {name = "transpose_tmp"} : !ascendc.local<9216xui8, VECCALC>
// CHECK: ascendc.transpose %{{.*}}, %{{.*}}, %[[TMP]] {c = 16 : i64, h = 1 : i64, n = 1 : i64, w = 64 : i64} : !ascendc.local<64x16xf32, VECCALC>, !ascendc.local<16x64xf32, VECIN>, !ascendc.local<9216xui8, VECCALC>
func.func @transpose_2d(%x: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %t = asctile.tensor %x[] : !asctile.ptr<f32> -> !asctile.tensor<16x64xf32>
  %o = asctile.tensor %x[] : !asctile.ptr<f32> -> !asctile.tensor<64x16xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<16x64xf32> -> !asctile.tile<16x64xf32, UB>
  %p = asctile.transpose %a : !asctile.tile<16x64xf32, UB> -> !asctile.tile<64x16xf32, UB>
  asctile.store %p, %o[%c0, %c0] : !asctile.tile<64x16xf32, UB>, !asctile.tensor<64x16xf32>
  return
}

// -----

// Moving an axis past blocks of 4 floats (16 bytes): no Transpose form. (A
// splat makes the [8, 4] operand, as above.)
func.func @transpose_unaligned(%x: !asctile.ptr<f32>, %n: index, %v: f32) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %r = asctile.splat %v : f32 -> !asctile.tile<8x4xf32, UB>
  // expected-error @+1 {{has no Ascend C lowering: it moves an axis of 8 past blocks of 4 x f32 (16 bytes)}}
  %p = asctile.transpose %r : !asctile.tile<8x4xf32, UB> -> !asctile.tile<4x8xf32, UB>
  %f = asctile.reshape %p : !asctile.tile<4x8xf32, UB> -> !asctile.tile<32xf32, UB>
  asctile.store %f, %t[%c0] : !asctile.tile<32xf32, UB>, !asctile.tensor<?xf32>
  return
}
