// RUN: asc2-opt %s -convert-asctile-to-ascendc -split-input-file -verify-diagnostics | FileCheck %s
// Reductions along the last dimension of rows packed narrower than a 32-byte
// block (a reshape of a dense tile): GatherMask pulls column k of every row
// into row k of a [cols, rows] buffer, then the column folds
// (Conversion/AscTileToAscendC/Reduce.cpp).

// Upstream's [1280, 4] float32: the built-in patterns 3..6 (every 4th
// element from 0..3), 80 whole repeats each in normal mode; the four rows
// folded by halves in place (the gathered buffer is the reduction's own).
// CHECK-LABEL: func.func @builtin_four
// CHECK: %[[X:.*]] = ascendc.alloc_local {{.*}} : !ascendc.local<5120xf32, VECIN>
// CHECK: %[[C:.*]] = ascendc.alloc_local {name = "reduce_columns"} : !ascendc.local<5120xf32, VECCALC>
// CHECK-NEXT: ascendc.gather_mask %[[C]], %[[X]] {builtin_pattern = 3 : i64, mask = 0 : i64, reduce_mode = false, repeat_times = 80 : i64, src_block_stride = 1 : i64, src_repeat_stride = 8 : i64}
// CHECK-NEXT: ascendc.gather_mask %[[C]], %[[X]] {builtin_pattern = 4 : i64, dst_offset = 1280 : i64, mask = 0 : i64, reduce_mode = false, repeat_times = 80 : i64, src_block_stride = 1 : i64, src_repeat_stride = 8 : i64}
// CHECK-NEXT: ascendc.gather_mask %[[C]], %[[X]] {builtin_pattern = 5 : i64, dst_offset = 2560 : i64, {{.*}}}
// CHECK-NEXT: ascendc.gather_mask %[[C]], %[[X]] {builtin_pattern = 6 : i64, dst_offset = 3840 : i64, {{.*}}}
// CHECK-NEXT: %[[R:.*]] = ascendc.alloc_local {name = "reduce_max"} : !ascendc.local<1280xf32, VECCALC>
// CHECK-NEXT: ascendc.binary_repeat Max %[[C]], %[[C]], %[[C]] mask 64 repeat 40 params [1, 1, 1, 8, 8, 8] {src1_offset = 2560 : i64}
// CHECK-NEXT: ascendc.binary_repeat Max %[[R]], %[[C]], %[[C]] mask 64 repeat 20 params [1, 1, 1, 8, 8, 8] {src1_offset = 1280 : i64}
// CHECK-NOT: ascendc.gather_mask
// CHECK: ascendc.data_copy_out %{{.*}}, %[[R]]
func.func @builtin_four(%x: !asctile.ptr<f32>, %out: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %o = asctile.tensor %out[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0] : !asctile.tensor<?xf32> -> !asctile.tile<5120xf32, UB>
  %b = asctile.reshape %a : !asctile.tile<5120xf32, UB> -> !asctile.tile<1280x4xf32, UB>
  %m = asctile.reduce max %b dims [1] : !asctile.tile<1280x4xf32, UB> -> !asctile.tile<1280xf32, UB>
  asctile.store %m, %o[%c0] : !asctile.tile<1280xf32, UB>, !asctile.tensor<?xf32>
  return
}

// -----

// Three columns have no built-in pattern: a pattern buffer, one block of
// uint32 words per column (bits j % 3 == k of a 48-element repeat = 16 rows),
// set by the scalar unit, read in counter mode (mask 48, repeat stride 6
// blocks) with the same bits every repeat.
// CHECK-LABEL: func.func @pattern_three
// CHECK: %[[X:.*]] = ascendc.alloc_local {{.*}} : !ascendc.local<144xf32, VECIN>
// CHECK: %[[C:.*]] = ascendc.alloc_local {name = "reduce_columns"} : !ascendc.local<144xf32, VECCALC>
// CHECK: %[[P:.*]] = ascendc.alloc_local {name = "gather_pattern"} : !ascendc.local<24xi32, VECCALC>
// CHECK: %[[W0:.*]] = arith.constant 1227133513 : i32
// CHECK: ascendc.set_value %[[W0]], %[[P]]
// CHECK: ascendc.gather_mask %[[C]], %[[X]], %[[P]] {builtin_pattern = 0 : i64, mask = 48 : i64, reduce_mode = true, repeat_times = 3 : i64, src_block_stride = 1 : i64, src_repeat_stride = 6 : i64}
// CHECK: ascendc.gather_mask %[[C]], %[[X]], %[[P]] {builtin_pattern = 0 : i64, dst_offset = 48 : i64, mask = 48 : i64, pattern_offset = 8 : i64, reduce_mode = true, repeat_times = 3 : i64, src_block_stride = 1 : i64, src_repeat_stride = 6 : i64}
// CHECK: ascendc.gather_mask %[[C]], %[[X]], %[[P]] {builtin_pattern = 0 : i64, dst_offset = 96 : i64, mask = 48 : i64, pattern_offset = 16 : i64, {{.*}}}
// CHECK: ascendc.binary_repeat Add
func.func @pattern_three(%x: !asctile.ptr<f32>, %out: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %o = asctile.tensor %out[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0] : !asctile.tensor<?xf32> -> !asctile.tile<144xf32, UB>
  %b = asctile.reshape %a : !asctile.tile<144xf32, UB> -> !asctile.tile<48x3xf32, UB>
  %s = asctile.reduce sum %b dims [1] : !asctile.tile<48x3xf32, UB> -> !asctile.tile<48xf32, UB>
  asctile.store %s, %o[%c0] : !asctile.tile<48xf32, UB>, !asctile.tensor<?xf32>
  return
}

// -----

// 20 rows of 2 halves are less than a repeat: one call per column in counter
// mode, mask = the 40 elements; column 1 starts at row 32 of the gathered
// buffer (20 rounded up to whole blocks), and the result is copied out of the
// padded row into a [20] buffer.
// CHECK-LABEL: func.func @tail_only
// CHECK: %[[C:.*]] = ascendc.alloc_local {name = "reduce_columns"} : !ascendc.local<64xf16, VECCALC>
// CHECK-NEXT: ascendc.gather_mask %[[C]], %{{.*}} {builtin_pattern = 1 : i64, mask = 40 : i64, reduce_mode = true, repeat_times = 1 : i64, src_block_stride = 1 : i64, src_repeat_stride = 8 : i64}
// CHECK-NEXT: ascendc.gather_mask %[[C]], %{{.*}} {builtin_pattern = 2 : i64, dst_offset = 32 : i64, mask = 40 : i64, reduce_mode = true, {{.*}}}
// CHECK: ascendc.binary_repeat Min
// CHECK: ascendc.alloc_local {name = "reduce_min{{.*}}"} : !ascendc.local<20xf16, VECCALC>
func.func @tail_only(%x: !asctile.ptr<f16>, %out: !asctile.ptr<f16>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f16> -> !asctile.tensor<?xf16>
  %o = asctile.tensor %out[%n] : !asctile.ptr<f16> -> !asctile.tensor<?xf16>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0] : !asctile.tensor<?xf16> -> !asctile.tile<40xf16, UB>
  %b = asctile.reshape %a : !asctile.tile<40xf16, UB> -> !asctile.tile<20x2xf16, UB>
  %m = asctile.reduce min %b dims [1] : !asctile.tile<20x2xf16, UB> -> !asctile.tile<20xf16, UB>
  asctile.store %m, %o[%c0] : !asctile.tile<20xf16, UB>, !asctile.tensor<?xf16>
  return
}

// -----

// Rows of 12 floats: 8 of them do not fit one 256-byte repeat.
func.func @too_wide(%x: !asctile.ptr<f32>, %out: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %o = asctile.tensor %out[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0] : !asctile.tensor<?xf32> -> !asctile.tile<768xf32, UB>
  %b = asctile.reshape %a : !asctile.tile<768xf32, UB> -> !asctile.tile<64x12xf32, UB>
  // expected-error @+1 {{GatherMask gathers their columns only when 8 rows fit one 256-byte repeat}}
  %m = asctile.reduce max %b dims [1] : !asctile.tile<64x12xf32, UB> -> !asctile.tile<64xf32, UB>
  asctile.store %m, %o[%c0] : !asctile.tile<64xf32, UB>, !asctile.tensor<?xf32>
  return
}
