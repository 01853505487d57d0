// RUN: asc2-opt %s -split-input-file -convert-asctile-to-ascendc=soc-version=c310 | FileCheck %s
// RUN: not asc2-opt %s -split-input-file -convert-asctile-to-ascendc=soc-version=c220 -o /dev/null 2>&1 | FileCheck %s --check-prefix=A2
// int64 reductions (Conversion/AscTileToAscendC/Reduce.cpp): Ascend950's
// int64 Add/Max/Min are count-form calls only, so each fold level gathers
// the halves of every row into contiguous runs (DataCopy within UB) and adds
// them with one count-form call; the scalar unit combines the last block
// (4 int64) of each row. No level-0 (binary_repeat) call of int64. A2/A3
// have no 64-bit integer vector arithmetic: an error at the reduction.

// CHECK-LABEL: func.func @rows_i64
// CHECK-NOT: ascendc.binary_repeat
// CHECK: ascendc.local_data_copy %[[A:.*]], %[[X:[^ ]*]] {block_count = 4 : i64, block_len = 4 : i64, dst_gap = 0 : i64, src_gap = 4 : i64} : !ascendc.local<64xi64, VECCALC>, !ascendc.local<4x32xi64, VECIN>
// CHECK: ascendc.local_data_copy %[[B:.*]], %[[X]] {block_count = 4 : i64, block_len = 4 : i64, dst_gap = 0 : i64, src_gap = 4 : i64, src_offset = 16 : i64}
// CHECK: ascendc.add %{{.*}}, %[[A]], %[[B]], %{{.*}} : !ascendc.local<64xi64, VECCALC>
// CHECK-COUNT-2: ascendc.add
// CHECK-NOT: ascendc.binary_repeat
// CHECK-COUNT-16: ascendc.get_value {{.*}} -> i64
// A2: error: int64 tile reduction: the vector instructions of Atlas A2/A3 take 16- and 32-bit integers (Ascend950 has 64-bit ones); reduce in int32 (.to(asc2.int32)) or target Ascend950
func.func @rows_i64(%x: !asctile.ptr<i64>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<i64> -> !asctile.tensor<?x32xi64>
  %o = asctile.tensor %x[%n] : !asctile.ptr<i64> -> !asctile.tensor<?xi64>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<?x32xi64> -> !asctile.tile<4x32xi64, UB>
  %s = asctile.reduce sum %a dims [1] : !asctile.tile<4x32xi64, UB> -> !asctile.tile<4xi64, UB>
  asctile.store %s, %o[%c0] : !asctile.tile<4xi64, UB>, !asctile.tensor<?xi64>
  return
}

// -----

// Columns: rows 0..3 against rows 4..7, read in place (a contiguous run from
// the tile's first element) against a gathered copy; then halves again.
// CHECK-LABEL: func.func @columns_i64
// CHECK-NOT: ascendc.binary_repeat
// CHECK: ascendc.local_data_copy %[[B:.*]], %[[X:[^ ]*]] {block_count = 1 : i64, block_len = 32 : i64, dst_gap = 0 : i64, src_gap = 0 : i64, src_offset = 128 : i64}
// CHECK: ascendc.max %{{.*}}, %[[X]], %[[B]], %{{.*}} : !ascendc.local<128xi64, VECCALC>, !ascendc.local<8x32xi64, VECIN>, !ascendc.local<128xi64, VECCALC>
// CHECK-COUNT-2: ascendc.max
// CHECK-NOT: ascendc.binary_repeat
// A2: error: int64 tile reduction
func.func @columns_i64(%x: !asctile.ptr<i64>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<i64> -> !asctile.tensor<?x32xi64>
  %o = asctile.tensor %x[%n] : !asctile.ptr<i64> -> !asctile.tensor<?xi64>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<?x32xi64> -> !asctile.tile<8x32xi64, UB>
  %s = asctile.reduce max %a dims [0] : !asctile.tile<8x32xi64, UB> -> !asctile.tile<32xi64, UB>
  asctile.store %s, %o[%c0] : !asctile.tile<32xi64, UB>, !asctile.tensor<?xi64>
  return
}
