// RUN: asc2-opt %s -split-input-file -convert-asctile-to-ascendc=soc-version=c310 | FileCheck %s
// RUN: not asc2-opt %s -split-input-file -convert-asctile-to-ascendc=soc-version=c220 -o /dev/null 2>&1 | FileCheck %s --check-prefix=A2
// Broadcasts of 64- and 8-bit elements (Conversion/AscTileToAscendC/Shape.cpp):
// Ascend950's Brcb takes them, A2/A3's does not; the level-0 Copy keeps the
// element type (the emitter prints the uint32_t / uint16_t view it runs on).

// An int64 column: Brcb of the 4 values (one repeat), then one Copy with a
// repeat per row: 8 int64 per row = 2 blocks, source block stride 0. A
// repeat reads 8 values (64 bytes) and the 4 end the source's one block:
// they go through a scratch of 8 (one DataCopy within UB).
// CHECK-LABEL: func.func @column_i64
// CHECK: %[[T:.*]] = ascendc.alloc_local {name = "brcb"} : !ascendc.local<32xi64, VECCALC>
// CHECK: %[[L:.*]] = ascendc.alloc_local {name = "brcb_last"} : !ascendc.local<8xi64, VECCALC>
// CHECK: ascendc.local_data_copy %[[L]], %{{.*}} {block_count = 1 : i64, block_len = 1 : i64, dst_gap = 0 : i64, src_gap = 0 : i64} : !ascendc.local<8xi64, VECCALC>, !ascendc.local<4xi64, VECIN>
// CHECK: ascendc.brcb %[[T]], %[[L]] {dst_blk_stride = 1 : i64, dst_rep_stride = 8 : i64, repeat_time = 1 : i64} : !ascendc.local<32xi64, VECCALC>, !ascendc.local<8xi64, VECCALC>
// CHECK: ascendc.copy %{{.*}}, %[[T]] {dst_repeat_size = 2 : i64, dst_stride = 1 : i64, mask = 8 : i64, repeat_time = 4 : i64, src_repeat_size = 1 : i64, src_stride = 0 : i64} : !ascendc.local<4x8xi64, VECCALC>, !ascendc.local<32xi64, VECCALC>
// A2: error: int64 broadcast of a column ([R, 1] -> [R, C]) or of one value: Atlas A2/A3 have no 64-bit Brcb
func.func @column_i64(%x: !asctile.ptr<i64>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<i64> -> !asctile.tensor<?xi64>
  %o = asctile.tensor %x[%n] : !asctile.ptr<i64> -> !asctile.tensor<?x8xi64>
  %c0 = arith.constant 0 : index
  %v = asctile.load %t[%c0] : !asctile.tensor<?xi64> -> !asctile.tile<4xi64, UB>
  %a = asctile.reshape %v : !asctile.tile<4xi64, UB> -> !asctile.tile<4x1xi64, UB>
  %b = asctile.broadcast %a : !asctile.tile<4x1xi64, UB> -> !asctile.tile<4x8xi64, UB>
  asctile.store %b, %o[%c0, %c0] : !asctile.tile<4x8xi64, UB>, !asctile.tensor<?x8xi64>
  return
}

// -----

// An int8 column on Ascend950: Brcb of int8 values, Copy of int8 elements
// (a mask of whole uint16_t pairs).
// CHECK-LABEL: func.func @column_i8
// CHECK: ascendc.brcb {{.*}} : !ascendc.local<256xi8, VECCALC>, !ascendc.local<4xi8, VECIN>
// CHECK: ascendc.copy {{.*}}mask = 64 : i64, repeat_time = 4 : i64{{.*}} : !ascendc.local<4x64xi8, VECCALC>, !ascendc.local<256xi8, VECCALC>
// A2: error: int8 broadcast of a column ([R, 1] -> [R, C]) or of one value: Atlas A2/A3 have no 8-bit Brcb
func.func @column_i8(%x: !asctile.ptr<i8>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<i8> -> !asctile.tensor<?xi8>
  %o = asctile.tensor %x[%n] : !asctile.ptr<i8> -> !asctile.tensor<?x64xi8>
  %c0 = arith.constant 0 : index
  %v = asctile.load %t[%c0] : !asctile.tensor<?xi8> -> !asctile.tile<4xi8, UB>
  %a = asctile.reshape %v : !asctile.tile<4xi8, UB> -> !asctile.tile<4x1xi8, UB>
  %b = asctile.broadcast %a : !asctile.tile<4x1xi8, UB> -> !asctile.tile<4x64xi8, UB>
  asctile.store %b, %o[%c0, %c0] : !asctile.tile<4x64xi8, UB>, !asctile.tensor<?x64xi8>
  return
}

// -----

// An int64 row on both targets: one Copy, source repeat stride 0.
// CHECK-LABEL: func.func @row_i64
// CHECK-NOT: ascendc.brcb
// CHECK: ascendc.copy {{.*}}mask = 8 : i64, repeat_time = 4 : i64, src_repeat_size = 0 : i64, src_stride = 1 : i64} : !ascendc.local<4x8xi64, VECCALC>, !ascendc.local<1x8xi64, VECIN>
// A2-NOT: error
func.func @row_i64(%x: !asctile.ptr<i64>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<i64> -> !asctile.tensor<?x8xi64>
  %c0 = arith.constant 0 : index
  %g = asctile.load %t[%c0, %c0] : !asctile.tensor<?x8xi64> -> !asctile.tile<1x8xi64, UB>
  %b = asctile.broadcast %g : !asctile.tile<1x8xi64, UB> -> !asctile.tile<4x8xi64, UB>
  asctile.store %b, %t[%c0, %c0] : !asctile.tile<4x8xi64, UB>, !asctile.tensor<?x8xi64>
  return
}
