// RUN: asc2-opt %s -convert-asctile-to-ascendc -split-input-file -verify-diagnostics | FileCheck %s

// One 1 x 4096 float row: one WholeReduceSum over its 64 repeats (partials 1
// apart), one over the 64 partials. No level-0 fold: a chain of 63 dependent
// Adds (or any fold) fails this test.
// CHECK-LABEL: func.func @row_long
// CHECK: %[[X:.*]] = ascendc.alloc_local {{.*}} : !ascendc.local<1x4096xf32, VECIN>
// CHECK: %[[R:.*]] = ascendc.alloc_local {name = "reduce_sum"} : !ascendc.local<1xf32, VECCALC>
// CHECK: %[[P:.*]] = ascendc.alloc_local {name = "reduce_partial"} : !ascendc.local<64xf32, VECCALC>
// CHECK-NOT: ascendc.binary_repeat
// CHECK: ascendc.whole_reduce SUM %[[P]], %[[X]] mask 64 repeat 64 strides(1, 1, 8) :
// CHECK-NEXT: ascendc.whole_reduce SUM %[[R]], %[[P]] mask 64 repeat 1 strides(1, 1, 8) :
// CHECK-NOT: ascendc.binary_repeat
// CHECK-NOT: ascendc.whole_reduce
// CHECK: return
func.func @row_long(%x: !asctile.ptr<f32>, %out: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?x4096xf32>
  %o = asctile.tensor %out[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<?x4096xf32> -> !asctile.tile<1x4096xf32, UB>
  %s = asctile.reduce sum %a dims [1] : !asctile.tile<1x4096xf32, UB> -> !asctile.tile<1xf32, UB>
  asctile.store %s, %o[%c0] : !asctile.tile<1xf32, UB>, !asctile.tensor<?xf32>
  return
}

// -----

// 16384 floats: 256 repeats are 255 + 1 (the second call's partial lands at
// 255), then 4 repeats of partials, then the 4 partials of those.
// CHECK-LABEL: func.func @row_split
// CHECK: %[[X:.*]] = ascendc.alloc_local {{.*}} : !ascendc.local<16384xf32, VECIN>
// CHECK: %[[P:.*]] = ascendc.alloc_local {name = "reduce_partial"} : !ascendc.local<256xf32, VECCALC>
// CHECK-NEXT: ascendc.whole_reduce MIN %[[P]], %[[X]] mask 64 repeat 255 strides(1, 1, 8) order ORDER_ONLY_VALUE :
// CHECK-NEXT: ascendc.whole_reduce MIN %[[P]], %[[X]] mask 64 repeat 1 strides(1, 1, 8) order ORDER_ONLY_VALUE {dst_offset = 255 : i64, src_offset = 16320 : i64}
// CHECK-NEXT: %[[Q:.*]] = ascendc.alloc_local {name = "reduce_partial_1"} : !ascendc.local<4xf32, VECCALC>
// CHECK-NEXT: ascendc.whole_reduce MIN %[[Q]], %[[P]] mask 64 repeat 4 strides(1, 1, 8) order ORDER_ONLY_VALUE :
// CHECK-NEXT: ascendc.whole_reduce MIN %{{.*}}, %[[Q]] mask 4 repeat 1 strides(1, 1, 8) order ORDER_ONLY_VALUE :
// CHECK-NOT: ascendc.binary_repeat
func.func @row_split(%x: !asctile.ptr<f32>, %out: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %o = asctile.tensor %out[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0] : !asctile.tensor<?xf32> -> !asctile.tile<16384xf32, UB>
  %m = asctile.reduce min %a dims [0] : !asctile.tile<16384xf32, UB> -> f32
  asctile.set_value %m, %o[%c0] : f32, !asctile.tensor<?xf32>
  return
}

// -----

// 2 rows of 1024 floats (16 repeats each): the partials of a row fill two
// 32-byte blocks, so one WholeReduceMax takes all 32 repeats, and one more the
// 16 partials of each row (repeat stride 2 blocks).
// CHECK-LABEL: func.func @rows_flat
// CHECK: %[[X:.*]] = ascendc.alloc_local {{.*}} : !ascendc.local<2x1024xf32, VECIN>
// CHECK: %[[R:.*]] = ascendc.alloc_local {name = "reduce_max"} : !ascendc.local<2xf32, VECCALC>
// CHECK: %[[P:.*]] = ascendc.alloc_local {name = "reduce_partial"} : !ascendc.local<32xf32, VECCALC>
// CHECK-NEXT: ascendc.whole_reduce MAX %[[P]], %[[X]] mask 64 repeat 32 strides(1, 1, 8) order ORDER_ONLY_VALUE :
// CHECK-NEXT: ascendc.whole_reduce MAX %[[R]], %[[P]] mask 16 repeat 2 strides(1, 1, 2) order ORDER_ONLY_VALUE :
// CHECK-NOT: ascendc.binary_repeat
func.func @rows_flat(%x: !asctile.ptr<f32>, %out: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?x1024xf32>
  %o = asctile.tensor %out[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<?x1024xf32> -> !asctile.tile<2x1024xf32, UB>
  %s = asctile.reduce max %a dims [1] : !asctile.tile<2x1024xf32, UB> -> !asctile.tile<2xf32, UB>
  asctile.store %s, %o[%c0] : !asctile.tile<2xf32, UB>, !asctile.tensor<?xf32>
  return
}

// -----

// 8 rows of 256 floats: 4 partials a row would not fill a block, so the 4
// chunks are folded by halves: chunks 0-1 against 2-3 of all 8 rows in one
// Add (a repeat takes block j of each row: block strides 16/32/32, repeat
// stride 1), then chunk 0 against 1 (a repeat per row); then one
// WholeReduceSum per row. Two folds, not three in a chain.
// CHECK-LABEL: func.func @rows_wide
// CHECK: %[[X:.*]] = ascendc.alloc_local {{.*}} : !ascendc.local<8x256xf32, VECIN>
// CHECK: %[[R:.*]] = ascendc.alloc_local {name = "reduce_sum"} : !ascendc.local<8xf32, VECCALC>
// CHECK: %[[T:.*]] = ascendc.alloc_local {name = "reduce_fold"} : !ascendc.local<1024xf32, VECCALC>
// CHECK-NEXT: ascendc.binary_repeat Add %[[T]], %[[X]], %[[X]] mask 64 repeat 16 params [16, 32, 32, 1, 1, 1] {src1_offset = 128 : i64}
// CHECK-NEXT: ascendc.binary_repeat Add %[[T]], %[[T]], %[[T]] mask 64 repeat 8 params [1, 1, 1, 16, 16, 16] {src1_offset = 64 : i64}
// CHECK-NEXT: ascendc.whole_reduce SUM %[[R]], %[[T]] mask 64 repeat 8 strides(1, 1, 16) :
func.func @rows_wide(%x: !asctile.ptr<f32>, %out: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?x256xf32>
  %o = asctile.tensor %out[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<?x256xf32> -> !asctile.tile<8x256xf32, UB>
  %s = asctile.reduce sum %a dims [1] : !asctile.tile<8x256xf32, UB> -> !asctile.tile<8xf32, UB>
  asctile.store %s, %o[%c0] : !asctile.tile<8xf32, UB>, !asctile.tensor<?xf32>
  return
}

// -----

// 4 rows of 336 floats (5 chunks and a 16-lane rest, rows 42 blocks apart):
// chunks 0-1 against 3-4 (four rows' blocks per repeat, mask 32), chunk 0
// against 1, the middle chunk 2 joins, then the rest; then WholeReduceSum.
// CHECK-LABEL: func.func @rows_odd_chunks
// CHECK: %[[X:.*]] = ascendc.alloc_local {{.*}} : !ascendc.local<4x336xf32, VECIN>
// CHECK: %[[T:.*]] = ascendc.alloc_local {name = "reduce_fold"} : !ascendc.local<512xf32, VECCALC>
// CHECK-NEXT: ascendc.binary_repeat Add %[[T]], %[[X]], %[[X]] mask 32 repeat 16 params [16, 42, 42, 1, 1, 1] {src1_offset = 192 : i64}
// CHECK-NEXT: ascendc.binary_repeat Add %[[T]], %[[T]], %[[T]] mask 64 repeat 4 params [1, 1, 1, 16, 16, 16] {src1_offset = 64 : i64}
// CHECK-NEXT: ascendc.binary_repeat Add %[[T]], %[[T]], %[[X]] mask 64 repeat 4 params [1, 1, 1, 16, 16, 42] {src1_offset = 128 : i64}
// CHECK-NEXT: ascendc.binary_repeat Add %[[T]], %[[T]], %[[X]] mask 32 repeat 2 params [16, 16, 42, 1, 1, 1] {src1_offset = 320 : i64}
// CHECK-NEXT: ascendc.whole_reduce SUM %{{.*}}, %[[T]] mask 64 repeat 4 strides(1, 1, 16) :
func.func @rows_odd_chunks(%x: !asctile.ptr<f32>, %out: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?x336xf32>
  %o = asctile.tensor %out[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<?x336xf32> -> !asctile.tile<4x336xf32, UB>
  %s = asctile.reduce sum %a dims [1] : !asctile.tile<4x336xf32, UB> -> !asctile.tile<4xf32, UB>
  asctile.store %s, %o[%c0] : !asctile.tile<4xf32, UB>, !asctile.tensor<?xf32>
  return
}

// -----

// One row of 104 floats: WholeReduceMax of the whole repeat and of the
// 40-lane rest (value only), then of the two partials.
// CHECK-LABEL: func.func @row_with_rest
// CHECK: %[[X:.*]] = ascendc.alloc_local {{.*}} : !ascendc.local<1x104xf32, VECIN>
// CHECK: %[[P:.*]] = ascendc.alloc_local {name = "reduce_partial"} : !ascendc.local<2xf32, VECCALC>
// CHECK-NEXT: ascendc.whole_reduce MAX %[[P]], %[[X]] mask 64 repeat 1 strides(1, 1, 8) order ORDER_ONLY_VALUE :
// CHECK-NEXT: ascendc.whole_reduce MAX %[[P]], %[[X]] mask 40 repeat 1 strides(1, 1, 8) order ORDER_ONLY_VALUE {dst_offset = 1 : i64, src_offset = 64 : i64}
// CHECK-NEXT: ascendc.whole_reduce MAX %{{.*}}, %[[P]] mask 2 repeat 1 strides(1, 1, 8) order ORDER_ONLY_VALUE :
func.func @row_with_rest(%x: !asctile.ptr<f32>, %out: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?x104xf32>
  %o = asctile.tensor %out[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<?x104xf32> -> !asctile.tile<1x104xf32, UB>
  %m = asctile.reduce max %a dims [0, 1] : !asctile.tile<1x104xf32, UB> -> f32
  asctile.set_value %m, %o[%c0] : f32, !asctile.tensor<?xf32>
  return
}

// -----

// Columns of 4 rows: rows 0-1 against 2-3 (one Add over their 128
// contiguous elements), then row 0 against row 1 into the result.
// CHECK-LABEL: func.func @columns
// CHECK: %[[X:.*]] = ascendc.alloc_local {{.*}} : !ascendc.local<4x64xf32, VECIN>
// CHECK: %[[D:.*]] = ascendc.alloc_local {name = "reduce_sum"} : !ascendc.local<64xf32, VECCALC>
// CHECK: %[[T:.*]] = ascendc.alloc_local {name = "reduce_fold"} : !ascendc.local<128xf32, VECCALC>
// CHECK-NEXT: ascendc.binary_repeat Add %[[T]], %[[X]], %[[X]] mask 64 repeat 2 params [1, 1, 1, 8, 8, 8] {src1_offset = 128 : i64}
// CHECK-NEXT: ascendc.binary_repeat Add %[[D]], %[[T]], %[[T]] mask 64 repeat 1 params [1, 1, 1, 8, 8, 8] {src1_offset = 64 : i64}
// CHECK-NOT: ascendc.binary_repeat
// CHECK-NOT: ascendc.whole_reduce
func.func @columns(%x: !asctile.ptr<f32>, %out: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %t = asctile.tensor %x[%c4, %c64] : !asctile.ptr<f32> -> !asctile.tensor<?x?xf32>
  %o = asctile.tensor %out[%c64] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<?x?xf32> -> !asctile.tile<4x64xf32, UB>
  %s = asctile.reduce sum %a dims [0] : !asctile.tile<4x64xf32, UB> -> !asctile.tile<64xf32, UB>
  asctile.store %s, %o[%c0] : !asctile.tile<64xf32, UB>, !asctile.tensor<?xf32>
  return
}

// -----

// Columns of 16 rows: a tree of four halvings (8, 4, 2, 1 rows), not 15
// dependent folds.
// CHECK-LABEL: func.func @columns_tree
// CHECK: %[[X:.*]] = ascendc.alloc_local {{.*}} : !ascendc.local<16x64xf32, VECIN>
// CHECK: %[[D:.*]] = ascendc.alloc_local {name = "reduce_max"} : !ascendc.local<64xf32, VECCALC>
// CHECK: %[[T:.*]] = ascendc.alloc_local {name = "reduce_fold"} : !ascendc.local<512xf32, VECCALC>
// CHECK-NEXT: ascendc.binary_repeat Max %[[T]], %[[X]], %[[X]] mask 64 repeat 8 params [1, 1, 1, 8, 8, 8] {src1_offset = 512 : i64}
// CHECK-NEXT: ascendc.binary_repeat Max %[[T]], %[[T]], %[[T]] mask 64 repeat 4 params [1, 1, 1, 8, 8, 8] {src1_offset = 256 : i64}
// CHECK-NEXT: ascendc.binary_repeat Max %[[T]], %[[T]], %[[T]] mask 64 repeat 2 params [1, 1, 1, 8, 8, 8] {src1_offset = 128 : i64}
// CHECK-NEXT: ascendc.binary_repeat Max %[[D]], %[[T]], %[[T]] mask 64 repeat 1 params [1, 1, 1, 8, 8, 8] {src1_offset = 64 : i64}
// CHECK-NOT: ascendc.binary_repeat
func.func @columns_tree(%x: !asctile.ptr<f32>, %out: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %t = asctile.tensor %x[%c16, %c64] : !asctile.ptr<f32> -> !asctile.tensor<?x?xf32>
  %o = asctile.tensor %out[%c64] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<?x?xf32> -> !asctile.tile<16x64xf32, UB>
  %s = asctile.reduce max %a dims [0] : !asctile.tile<16x64xf32, UB> -> !asctile.tile<64xf32, UB>
  asctile.store %s, %o[%c0] : !asctile.tile<64xf32, UB>, !asctile.tensor<?xf32>
  return
}

// -----

// Columns of 5 rows: rows 0-1 against 3-4, row 0 against row 1 into the
// result, then the middle row 2 joins.
// CHECK-LABEL: func.func @columns_odd
// CHECK: %[[X:.*]] = ascendc.alloc_local {{.*}} : !ascendc.local<5x64xi32, VECIN>
// CHECK: %[[D:.*]] = ascendc.alloc_local {name = "reduce_prod"} : !ascendc.local<64xi32, VECCALC>
// CHECK: %[[T:.*]] = ascendc.alloc_local {name = "reduce_fold"} : !ascendc.local<128xi32, VECCALC>
// CHECK-NEXT: ascendc.binary_repeat Mul %[[T]], %[[X]], %[[X]] mask 64 repeat 2 params [1, 1, 1, 8, 8, 8] {src1_offset = 192 : i64}
// CHECK-NEXT: ascendc.binary_repeat Mul %[[D]], %[[T]], %[[T]] mask 64 repeat 1 params [1, 1, 1, 8, 8, 8] {src1_offset = 64 : i64}
// CHECK-NEXT: ascendc.binary_repeat Mul %[[D]], %[[D]], %[[X]] mask 64 repeat 1 params [1, 1, 1, 8, 8, 8] {src1_offset = 128 : i64}
// CHECK-NOT: ascendc.binary_repeat
func.func @columns_odd(%x: !asctile.ptr<i32>, %out: !asctile.ptr<i32>) attributes {asctile.kernel} {
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  %t = asctile.tensor %x[%c5, %c64] : !asctile.ptr<i32> -> !asctile.tensor<?x?xi32>
  %o = asctile.tensor %out[%c64] : !asctile.ptr<i32> -> !asctile.tensor<?xi32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<?x?xi32> -> !asctile.tile<5x64xi32, UB>
  %s = asctile.reduce prod %a dims [0] : !asctile.tile<5x64xi32, UB> -> !asctile.tile<64xi32, UB>
  asctile.store %s, %o[%c0] : !asctile.tile<64xi32, UB>, !asctile.tensor<?xi32>
  return
}

// -----

// int32 has no WholeReduce on every target: each row's 8 blocks are folded
// by halves (4, 2, then 1 block; the last with one block of each row per
// repeat) and the block's 8 values are added on the scalar unit.
// CHECK-LABEL: func.func @int_rows
// CHECK: %[[X:.*]] = ascendc.alloc_local {{.*}} : !ascendc.local<2x64xi32, VECIN>
// CHECK: %[[R:.*]] = ascendc.alloc_local {name = "reduce_sum"} : !ascendc.local<2xi32, VECCALC>
// CHECK: %[[C:.*]] = ascendc.alloc_local {name = "reduce_fold"} : !ascendc.local<64xi32, VECCALC>
// CHECK-NEXT: ascendc.binary_repeat Add %[[C]], %[[X]], %[[X]] mask 32 repeat 2 params [1, 1, 1, 4, 8, 8] {src1_offset = 32 : i64}
// CHECK-NEXT: ascendc.binary_repeat Add %[[C]], %[[C]], %[[C]] mask 16 repeat 2 params [1, 1, 1, 4, 4, 4] {src1_offset = 16 : i64}
// CHECK-NEXT: ascendc.binary_repeat Add %[[C]], %[[C]], %[[C]] mask 16 repeat 1 params [4, 4, 4, 1, 1, 1] {src1_offset = 8 : i64}
// CHECK-NOT: ascendc.binary_repeat
// CHECK-COUNT-16: ascendc.get_value %[[C]]
// CHECK: ascendc.set_value %{{.*}}, %[[R]]
func.func @int_rows(%x: !asctile.ptr<i32>, %out: !asctile.ptr<i32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<i32> -> !asctile.tensor<?x64xi32>
  %o = asctile.tensor %out[%n] : !asctile.ptr<i32> -> !asctile.tensor<?xi32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<?x64xi32> -> !asctile.tile<2x64xi32, UB>
  %s = asctile.reduce sum %a dims [1] : !asctile.tile<2x64xi32, UB> -> !asctile.tile<2xi32, UB>
  asctile.store %s, %o[%c0] : !asctile.tile<2xi32, UB>, !asctile.tensor<?xi32>
  return
}

// -----

// Everything of a 4 x 64 int32 tile: one row of 256 (32 blocks), halved
// five times down to one block, whose 8 values the scalar unit adds.
// CHECK-LABEL: func.func @int_all
// CHECK: %[[X:.*]] = ascendc.alloc_local {{.*}} : !ascendc.local<4x64xi32, VECIN>
// CHECK: %[[C:.*]] = ascendc.alloc_local {name = "reduce_fold"} : !ascendc.local<128xi32, VECCALC>
// CHECK-NEXT: ascendc.binary_repeat Max %[[C]], %[[X]], %[[X]] mask 64 repeat 2 params [1, 1, 1, 8, 8, 8] {src1_offset = 128 : i64}
// CHECK-NEXT: ascendc.binary_repeat Max %[[C]], %[[C]], %[[C]] mask 64 repeat 1 params [1, 1, 1, 8, 8, 8] {src1_offset = 64 : i64}
// CHECK-NEXT: ascendc.binary_repeat Max %[[C]], %[[C]], %[[C]] mask 32 repeat 1 params [1, 1, 1, 8, 8, 8] {src1_offset = 32 : i64}
// CHECK-NEXT: ascendc.binary_repeat Max %[[C]], %[[C]], %[[C]] mask 16 repeat 1 params [1, 1, 1, 8, 8, 8] {src1_offset = 16 : i64}
// CHECK-NEXT: ascendc.binary_repeat Max %[[C]], %[[C]], %[[C]] mask 8 repeat 1 params [1, 1, 1, 8, 8, 8] {src1_offset = 8 : i64}
// CHECK-NOT: ascendc.binary_repeat
// CHECK-COUNT-8: ascendc.get_value %[[C]]
func.func @int_all(%x: !asctile.ptr<i32>, %out: !asctile.ptr<i32>) attributes {asctile.kernel} {
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %t = asctile.tensor %x[%c4, %c64] : !asctile.ptr<i32> -> !asctile.tensor<?x?xi32>
  %o = asctile.tensor %out[%c64] : !asctile.ptr<i32> -> !asctile.tensor<?xi32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<?x?xi32> -> !asctile.tile<4x64xi32, UB>
  %m = asctile.reduce max %a dims [0, 1] : !asctile.tile<4x64xi32, UB> -> i32
  asctile.set_value %m, %o[%c0] : i32, !asctile.tensor<?xi32>
  return
}

// -----

// bfloat16 is reduced in float: Cast up, WholeReduceSum, Cast back.
// CHECK-LABEL: func.func @bf16_rows
// CHECK: %[[W:.*]] = ascendc.alloc_local {name = "reduce_wide"} : !ascendc.local<128xf32, VECCALC>
// CHECK: ascendc.cast %[[W]], %{{.*}}, %{{.*}} round CAST_NONE
// CHECK: ascendc.whole_reduce SUM %[[R:.*]], %[[W]] mask 64 repeat 2 strides(1, 1, 8)
// CHECK: ascendc.cast %{{.*}}, %[[R]], %{{.*}} round CAST_RINT
func.func @bf16_rows(%x: !asctile.ptr<bf16>, %out: !asctile.ptr<bf16>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<bf16> -> !asctile.tensor<?x64xbf16>
  %o = asctile.tensor %out[%n] : !asctile.ptr<bf16> -> !asctile.tensor<?xbf16>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<?x64xbf16> -> !asctile.tile<2x64xbf16, UB>
  %s = asctile.reduce sum %a dims [1] : !asctile.tile<2x64xbf16, UB> -> !asctile.tile<2xbf16, UB>
  asctile.store %s, %o[%c0] : !asctile.tile<2xbf16, UB>, !asctile.tensor<?xbf16>
  return
}

// -----

func.func @int8(%x: !asctile.ptr<i8>, %out: !asctile.ptr<i8>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<i8> -> !asctile.tensor<?xi8>
  %o = asctile.tensor %out[%n] : !asctile.ptr<i8> -> !asctile.tensor<?xi8>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0] : !asctile.tensor<?xi8> -> !asctile.tile<64xi8, UB>
  // expected-error @+1 {{reduces 'i8' tiles; reductions support float32, float16, bfloat16, int64 (Ascend950), int32 and int16 (cast first)}}
  %s = asctile.reduce max %a dims [0] : !asctile.tile<64xi8, UB> -> i8
  asctile.set_value %s, %o[%c0] : i8, !asctile.tensor<?xi8>
  return
}
