// RUN: asc2-opt %s -split-input-file -verify-diagnostics -convert-asctile-to-ascendc | FileCheck %s

// A count mask: the result buffer is filled with `other`, the op runs on the
// first clamp(n, 0, 256) elements in counter mode.
// CHECK-LABEL: func.func @count_mask
// CHECK: %[[R:.*]] = ascendc.alloc_local {name = "addf"} : !ascendc.local<256xf32, VECCALC>
// CHECK: ascendc.duplicate %[[R]], %{{.*}}, %{{.*}} : f32, !ascendc.local<256xf32, VECCALC>
// CHECK: %[[MIN:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK: %[[CNT:.*]] = arith.maxsi %[[MIN]], %{{.*}} : index
// CHECK: ascendc.add %[[R]], %{{.*}}, %{{.*}}, %[[CNT]] {asc2.counter_mask}
// CHECK: ascendc.data_copy_out %{{.*}}[%{{.*}}], %[[R]]
func.func @count_mask(%x: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[] : !asctile.ptr<f32> -> !asctile.tensor<256xf32>
  %c0 = arith.constant 0 : index
  %other = arith.constant -1.0 : f32
  %a = asctile.load %t[%c0] : !asctile.tensor<256xf32> -> !asctile.tile<256xf32, UB>
  %s = arith.addf %a, %a : !asctile.tile<256xf32, UB>
  %m = asctile.mask %s, %other count %n : !asctile.tile<256xf32, UB>, f32
  asctile.store %m, %t[%c0] : !asctile.tile<256xf32, UB>, !asctile.tensor<256xf32>
  return
}

// -----

// A bit mask: the whole tile in repeats, lanes selected by (high, low); an
// intermediate read only under the same mask needs no `other` fill.
// CHECK-LABEL: func.func @bit_mask
// CHECK-SAME: (%{{.*}}: !ascendc.gm<f16>, %[[HI:.*]]: i64, %[[LO:.*]]: i64)
// CHECK: %[[E:.*]] = ascendc.alloc_local {name = "exp"}
// CHECK-NOT: ascendc.duplicate %[[E]]
// CHECK: ascendc.exp %[[E]], %{{.*}}, %{{.*}} bits %[[HI]], %[[LO]] : !ascendc.local<256xf16, VECCALC>
// CHECK: %[[M:.*]] = ascendc.alloc_local {name = "mulf"}
// CHECK: ascendc.duplicate %[[M]]
// CHECK: ascendc.muls %[[M]], %[[E]], %{{.*}}, %{{.*}} bits %[[HI]], %[[LO]]
func.func @bit_mask(%x: !asctile.ptr<f16>, %hi: i64, %lo: i64) attributes {asctile.kernel} {
  %t = asctile.tensor %x[] : !asctile.ptr<f16> -> !asctile.tensor<256xf16>
  %c0 = arith.constant 0 : index
  %other = arith.constant 0.0 : f16
  %two = arith.constant 2.0 : f16
  %a = asctile.load %t[%c0] : !asctile.tensor<256xf16> -> !asctile.tile<256xf16, UB>
  %e = math.exp %a : !asctile.tile<256xf16, UB>
  %em = asctile.mask %e, %other bits %hi, %lo {lanes = 128 : i64} : !asctile.tile<256xf16, UB>, f16
  %s = asctile.splat %two : f16 -> !asctile.tile<256xf16, UB>
  %p = arith.mulf %em, %s : !asctile.tile<256xf16, UB>
  %pm = asctile.mask %p, %other bits %hi, %lo {lanes = 128 : i64} : !asctile.tile<256xf16, UB>, f16
  asctile.store %pm, %t[%c0] : !asctile.tile<256xf16, UB>, !asctile.tensor<256xf16>
  return
}

// -----

// A masked op that is also used unmasked: computed whole, then the selected
// lanes are copied (x * 1) into a buffer filled with `other`.
// CHECK-LABEL: func.func @shared
// CHECK: %[[S:.*]] = ascendc.alloc_local {name = "addf"}
// CHECK: ascendc.add %[[S]], %{{.*}}, %{{.*}}, %{{.*}} :
// CHECK: %[[M:.*]] = ascendc.alloc_local {name = "masked"}
// CHECK: ascendc.duplicate %[[M]]
// CHECK: ascendc.muls %[[M]], %[[S]], %{{.*}}, %{{.*}} {asc2.counter_mask}
func.func @shared(%x: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[] : !asctile.ptr<f32> -> !asctile.tensor<256xf32>
  %c0 = arith.constant 0 : index
  %other = arith.constant 0.0 : f32
  %a = asctile.load %t[%c0] : !asctile.tensor<256xf32> -> !asctile.tile<256xf32, UB>
  %s = arith.addf %a, %a : !asctile.tile<256xf32, UB>
  %m = asctile.mask %s, %other count %n : !asctile.tile<256xf32, UB>, f32
  asctile.store %m, %t[%c0] : !asctile.tile<256xf32, UB>, !asctile.tensor<256xf32>
  asctile.store %s, %t[%c0] : !asctile.tile<256xf32, UB>, !asctile.tensor<256xf32>
  return
}

// -----

// (0, 2, 1) of 4 x 8 x 32: one Transpose (NCHW -> NHWC, n = 4 matrices of
// c = 8 rows by h * w = 32) with its (8 + 2) * 512-byte scratch.
// CHECK-LABEL: func.func @batched_transpose
// CHECK: ascendc.transpose %{{.*}}, %{{.*}}, %{{.*}} {c = 8 : i64, h = 1 : i64, n = 4 : i64, w = 32 : i64} : !ascendc.local<4x32x8xf32, VECCALC>, !ascendc.local<32x32xf32, VECIN>, !ascendc.local<5120xui8, VECCALC>
func.func @batched_transpose(%x: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %t = asctile.tensor %x[] : !asctile.ptr<f32> -> !asctile.tensor<32x32xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<32x32xf32> -> !asctile.tile<32x32xf32, UB>
  %r = asctile.reshape %a : !asctile.tile<32x32xf32, UB> -> !asctile.tile<4x8x32xf32, UB>
  %p = asctile.transpose %r {permutation = array<i64: 0, 2, 1>} : !asctile.tile<4x8x32xf32, UB> -> !asctile.tile<4x32x8xf32, UB>
  %f = asctile.reshape %p : !asctile.tile<4x32x8xf32, UB> -> !asctile.tile<128x8xf32, UB>
  %o = asctile.tensor %x[] : !asctile.ptr<f32> -> !asctile.tensor<128x8xf32>
  asctile.store %f, %o[%c0, %c0] : !asctile.tile<128x8xf32, UB>, !asctile.tensor<128x8xf32>
  return
}

// -----

// (1, 0, 2) of 4 x 8 x 32 keeps the rows of 32: strided row copies (DataCopy
// within UB, 4-block rows), no element transpose; each copy moves 8 rows
// (the larger leading axis), the destination rows 128 floats apart (gap 12).
// CHECK-LABEL: func.func @row_permutation
// CHECK-NOT: ascendc.transpose
// CHECK: ascendc.local_data_copy %{{.*}}, %{{.*}} {block_count = 8 : i64, block_len = 4 : i64, dst_gap = 12 : i64, src_gap = 0 : i64}
// CHECK: ascendc.local_data_copy %{{.*}}, %{{.*}} {block_count = 8 : i64, block_len = 4 : i64, dst_gap = 12 : i64, dst_offset = 32 : i64, src_gap = 0 : i64, src_offset = 256 : i64}
// CHECK: ascendc.local_data_copy
// CHECK: ascendc.local_data_copy
// CHECK-NOT: ascendc.local_data_copy
func.func @row_permutation(%x: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %t = asctile.tensor %x[] : !asctile.ptr<f32> -> !asctile.tensor<32x32xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<32x32xf32> -> !asctile.tile<32x32xf32, UB>
  %r = asctile.reshape %a : !asctile.tile<32x32xf32, UB> -> !asctile.tile<4x8x32xf32, UB>
  %p = asctile.transpose %r {permutation = array<i64: 1, 0, 2>} : !asctile.tile<4x8x32xf32, UB> -> !asctile.tile<8x4x32xf32, UB>
  %f = asctile.reshape %p : !asctile.tile<8x4x32xf32, UB> -> !asctile.tile<32x32xf32, UB>
  asctile.store %f, %t[%c0, %c0] : !asctile.tile<32x32xf32, UB>, !asctile.tensor<32x32xf32>
  return
}

// -----

func.func @mask_needs_one_selector(%a: !asctile.tile<64xf32, UB>, %o: f32, %n: index, %h: i64) {
  // expected-error @+1 {{needs exactly one of `count` and `bits`}}
  %m = asctile.mask %a, %o count %n bits %h, %h {lanes = 64 : i64} : !asctile.tile<64xf32, UB>, f32
  return
}

// -----

func.func @mask_other_type(%a: !asctile.tile<64xf32, UB>, %o: f16, %n: index) {
  // expected-error @+1 {{`other` is a 'f16', not the element type 'f32'}}
  %m = asctile.mask %a, %o count %n : !asctile.tile<64xf32, UB>, f16
  return
}

// -----

func.func @mask_lanes(%a: !asctile.tile<64xf32, UB>, %o: f32, %h: i64) {
  // expected-error @+1 {{a bit mask needs `lanes` = 64 (32-bit elements) or 128 (16-bit elements)}}
  %m = asctile.mask %a, %o bits %h, %h : !asctile.tile<64xf32, UB>, f32
  return
}

// -----

func.func @bad_permutation(%a: !asctile.tile<2x4x8xf32, UB>) {
  // expected-error @+1 {{is not a permutation of 0..2}}
  %p = asctile.transpose %a {permutation = array<i64: 0, 0, 2>} : !asctile.tile<2x4x8xf32, UB> -> !asctile.tile<2x2x8xf32, UB>
  return
}
