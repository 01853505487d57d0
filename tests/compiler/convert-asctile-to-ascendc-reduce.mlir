// RUN: asc2-opt %s -convert-asctile-to-ascendc -split-input-file -verify-diagnostics | FileCheck %s

// Rows of 256 floats: three level-0 Adds fold the four 64-lane chunks of each
// row into one repeat (repeat over the 8 rows; source rows are 32 blocks
// apart), then one WholeReduceSum reduces each row's repeat.
// CHECK-LABEL: func.func @rows_wide
// CHECK: %[[X:.*]] = ascendc.alloc_local {{.*}} : !ascendc.local<8x256xf32, VECIN>
// CHECK: %[[T:.*]] = ascendc.alloc_local {name = "reduce_fold"} : !ascendc.local<512xf32, VECCALC>
// CHECK: ascendc.binary_repeat Add %[[T]], %[[X]], %[[X]] mask 64 repeat 8 params [1, 1, 1, 8, 32, 32] {src1_offset = 64 : i64}
// CHECK: ascendc.binary_repeat Add %[[T]], %[[T]], %[[X]] mask 64 repeat 8 params [1, 1, 1, 8, 8, 32] {src1_offset = 128 : i64}
// CHECK: ascendc.binary_repeat Add %[[T]], %[[T]], %[[X]] mask 64 repeat 8 params [1, 1, 1, 8, 8, 32] {src1_offset = 192 : i64}
// CHECK: %[[R:.*]] = ascendc.alloc_local {name = "reduce_sum"} : !ascendc.local<8xf32, VECCALC>
// CHECK: ascendc.whole_reduce SUM %[[R]], %[[T]] mask 64 repeat 8 strides(1, 1, 8) :
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

// One row of 104 floats: one whole chunk (copied by max(x, x)) and a
// 40-lane rest under a count mask, then WholeReduceMax for the value only.
// CHECK-LABEL: func.func @row_with_rest
// CHECK: %[[X:.*]] = ascendc.alloc_local {{.*}} : !ascendc.local<1x104xf32, VECIN>
// CHECK: %[[T:.*]] = ascendc.alloc_local {name = "reduce_fold"} : !ascendc.local<64xf32, VECCALC>
// CHECK: ascendc.binary_repeat Max %[[T]], %[[X]], %[[X]] mask 64 repeat 1 params [1, 1, 1, 8, 8, 8] :
// CHECK: ascendc.binary_repeat Max %[[T]], %[[T]], %[[X]] mask 40 repeat 1 params [1, 1, 1, 8, 8, 8] {src1_offset = 64 : i64}
// CHECK: ascendc.whole_reduce MAX %{{.*}}, %[[T]] mask 64 repeat 1 strides(1, 1, 8) order ORDER_ONLY_VALUE :
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

// Columns: row 0 + row 1, then rows 2 and 3 folded in (count-masked level-0
// Adds over the 64 contiguous elements of a row).
// CHECK-LABEL: func.func @columns
// CHECK: %[[X:.*]] = ascendc.alloc_local {{.*}} : !ascendc.local<4x64xf32, VECIN>
// CHECK: %[[D:.*]] = ascendc.alloc_local {name = "reduce_sum"} : !ascendc.local<64xf32, VECCALC>
// CHECK: ascendc.binary_repeat Add %[[D]], %[[X]], %[[X]] mask 64 repeat 1 params [1, 1, 1, 8, 8, 8] {src1_offset = 64 : i64}
// CHECK: ascendc.binary_repeat Add %[[D]], %[[D]], %[[X]] mask 64 repeat 1 params [1, 1, 1, 8, 8, 8] {src1_offset = 128 : i64}
// CHECK: ascendc.binary_repeat Add %[[D]], %[[D]], %[[X]] mask 64 repeat 1 params [1, 1, 1, 8, 8, 8] {src1_offset = 192 : i64}
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

// int32 has no WholeReduce on every target: the blocks of each row are
// halved (32, 16, then 8 lanes) and the last block's 8 values are added on
// the scalar unit.
// CHECK-LABEL: func.func @int_rows
// CHECK: %[[R:.*]] = ascendc.alloc_local {name = "reduce_sum"} : !ascendc.local<2xi32, VECCALC>
// CHECK: %[[C:.*]] = ascendc.alloc_local {name = "reduce_fold"} : !ascendc.local<128xi32, VECCALC>
// CHECK: ascendc.binary_repeat Max %[[C]], %{{.*}}, %{{.*}} mask 64 repeat 2 params [1, 1, 1, 8, 8, 8] :
// CHECK: ascendc.binary_repeat Add %[[C]], %[[C]], %[[C]] mask 32 repeat 2 params [1, 1, 1, 8, 8, 8] {src1_offset = 32 : i64}
// CHECK: ascendc.binary_repeat Add %[[C]], %[[C]], %[[C]] mask 16 repeat 2 params [1, 1, 1, 8, 8, 8] {src1_offset = 16 : i64}
// CHECK: ascendc.binary_repeat Add %[[C]], %[[C]], %[[C]] mask 8 repeat 2 params [1, 1, 1, 8, 8, 8] {src1_offset = 8 : i64}
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
  // expected-error @+1 {{reduces 'i8' tiles; reductions support float32, float16, bfloat16, int32 and int16 (cast first)}}
  %s = asctile.reduce max %a dims [0] : !asctile.tile<64xi8, UB> -> i8
  asctile.set_value %s, %o[%c0] : i8, !asctile.tensor<?xi8>
  return
}
