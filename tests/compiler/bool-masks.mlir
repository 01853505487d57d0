// RUN: asc2-opt %s -split-input-file -convert-asctile-to-ascendc | FileCheck %s

// Bool tiles are bit masks: GM bytes come in as uint8 and become bits with
// Cast + Compares != 0; the compare writes bits; a bit op runs on the mask;
// the result goes out through Select 1/0 in half and a Cast to uint8.
// CHECK-LABEL: func.func @bools_through_gm
// CHECK: %[[BYTES:.*]] = ascendc.alloc_local {name = "{{.*}}"} : !ascendc.local<256xui8, VECIN>
// CHECK: ascendc.data_copy_in %[[BYTES]], %{{.*}}[%{{.*}}], %{{.*}} {pad_value = 0 : ui8} : !ascendc.local<256xui8, VECIN>, !ascendc.gm<i1>
// CHECK: %[[HALVES:.*]] = ascendc.alloc_local {name = "bool_in"} : !ascendc.local<256xf16, VECCALC>
// CHECK: ascendc.cast %[[HALVES]], %[[BYTES]], %{{.*}} round CAST_NONE
// CHECK: %[[IN:.*]] = ascendc.alloc_local {name = "mask"} : !ascendc.local<256xi1, VECCALC>
// CHECK: ascendc.compare NE %[[IN]], %[[HALVES]], %{{.*}}, %{{.*}} : !ascendc.local<256xi1, VECCALC>, !ascendc.local<256xf16, VECCALC>, f16
// CHECK: ascendc.compare LT %[[CMP:[^,]*]], %{{.*}}, %{{.*}}, %{{.*}} : !ascendc.local<256xi1, VECCALC>
// CHECK: ascendc.and %[[AND:[^,]*]], %[[CMP]], %[[IN]], %{{.*}} : !ascendc.local<256xi1, VECCALC>
// CHECK: ascendc.select %[[OUTH:[^,]*]], %[[AND]], %{{.*}}, %{{.*}}, %{{.*}} : !ascendc.local<256xf16, VECCALC>, !ascendc.local<256xi1, VECCALC>, !ascendc.local<256xf16, VECCALC>, f16
// CHECK: ascendc.cast %[[OUT:[^,]*]], %[[OUTH]], %{{.*}} round CAST_RINT : !ascendc.local<256xui8, VECOUT>, !ascendc.local<256xf16, VECCALC>
// CHECK: ascendc.data_copy_out %{{.*}}[%{{.*}}], %[[OUT]], %{{.*}} : !ascendc.gm<i1>, !ascendc.local<256xui8, VECOUT>
func.func @bools_through_gm(%x: !asctile.ptr<f32>, %m: !asctile.ptr<i1>, %o: !asctile.ptr<i1>) attributes {asctile.kernel} {
  %tx = asctile.tensor %x[] : !asctile.ptr<f32> -> !asctile.tensor<256xf32>
  %tm = asctile.tensor %m[] : !asctile.ptr<i1> -> !asctile.tensor<256xi1>
  %to = asctile.tensor %o[] : !asctile.ptr<i1> -> !asctile.tensor<256xi1>
  %c0 = arith.constant 0 : index
  %a = asctile.load %tx[%c0] : !asctile.tensor<256xf32> -> !asctile.tile<256xf32, UB>
  %b = asctile.load %tm[%c0] : !asctile.tensor<256xi1> -> !asctile.tile<256xi1, UB>
  %lt = asctile.cmp lt, %a, %a : !asctile.tile<256xf32, UB> -> !asctile.tile<256xi1, UB>
  %and = arith.andi %lt, %b : !asctile.tile<256xi1, UB>
  asctile.store %and, %to[%c0] : !asctile.tile<256xi1, UB>, !asctile.tensor<256xi1>
  return
}

// -----

// A compare under a count mask computes every lane (Compare ignores the
// vector mask on A2/A3); the lanes are selected on halves, then back to bits.
// CHECK-LABEL: func.func @masked_compare
// CHECK: ascendc.compare GT %[[BITS:[^,]*]], %{{.*}}, %{{.*}}, %{{.*}} :
// CHECK-NOT: asc2.counter_mask
// CHECK: %[[LANES:.*]] = ascendc.alloc_local {name = "lanes"} : !ascendc.local<256xf16, VECCALC>
// CHECK: ascendc.duplicate %[[LANES]]
// CHECK: ascendc.select %[[LANES]], %[[BITS]], %{{.*}}, %{{.*}}, %{{.*}} {asc2.counter_mask}
// CHECK: ascendc.compare NE %{{.*}}, %[[LANES]], %{{.*}}, %{{.*}} :
func.func @masked_compare(%x: !asctile.ptr<f32>, %o: !asctile.ptr<i1>, %n: index) attributes {asctile.kernel} {
  %tx = asctile.tensor %x[] : !asctile.ptr<f32> -> !asctile.tensor<256xf32>
  %to = asctile.tensor %o[] : !asctile.ptr<i1> -> !asctile.tensor<256xi1>
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %a = asctile.load %tx[%c0] : !asctile.tensor<256xf32> -> !asctile.tile<256xf32, UB>
  %gt = asctile.cmp gt, %a, %a : !asctile.tile<256xf32, UB> -> !asctile.tile<256xi1, UB>
  %m = asctile.mask %gt, %true count %n : !asctile.tile<256xi1, UB>, i1
  asctile.store %m, %to[%c0] : !asctile.tile<256xi1, UB>, !asctile.tensor<256xi1>
  return
}

// -----

// Integer floor division is composed of calls that exist: the truncating
// quotient (int16 on A2/A3: exactly in float32, Cast, Div, Cast with
// truncation; Div has no integer form there), then the sign fix-up; xor is (a | b) & ~(a & b) in basic calls (Xor is advanced-API
// only and needs a scratch buffer), a scalar operand Duplicate'd first.
// CHECK-LABEL: func.func @floordiv_and_xor
// CHECK-NOT: ascendc.xor
// CHECK: ascendc.cast {{.*}} round CAST_NONE
// CHECK: ascendc.cast {{.*}} round CAST_NONE
// CHECK: ascendc.div {{.*}}xf32
// CHECK: ascendc.cast %[[Q:[^,]*]], {{.*}} round CAST_TRUNC
// CHECK: ascendc.mul
// CHECK: ascendc.sub
// CHECK: ascendc.or
// CHECK: ascendc.and
// CHECK: ascendc.not
// CHECK: ascendc.and
// CHECK: ascendc.muls
// CHECK: ascendc.or
// CHECK: ascendc.and
// CHECK: ascendc.shrs
// CHECK: ascendc.add %{{.*}}, %[[Q]],
// CHECK: ascendc.duplicate %{{.*}}, %{{.*}}, %{{.*}} : i16
// CHECK: ascendc.or %[[X:[^,]*]],
// CHECK: ascendc.and %[[B:[^,]*]],
// CHECK: ascendc.not %[[B]], %[[B]]
// CHECK: ascendc.and %[[X]], %[[X]], %[[B]]
// CHECK-NOT: ascendc.xor
func.func @floordiv_and_xor(%x: !asctile.ptr<i16>, %o: !asctile.ptr<i16>, %s: i16) attributes {asctile.kernel} {
  %tx = asctile.tensor %x[] : !asctile.ptr<i16> -> !asctile.tensor<256xi16>
  %to = asctile.tensor %o[] : !asctile.ptr<i16> -> !asctile.tensor<256xi16>
  %c0 = arith.constant 0 : index
  %a = asctile.load %tx[%c0] : !asctile.tensor<256xi16> -> !asctile.tile<256xi16, UB>
  %q = arith.floordivsi %a, %a : !asctile.tile<256xi16, UB>
  %sp = asctile.splat %s : i16 -> !asctile.tile<256xi16, UB>
  %x2 = arith.xori %q, %sp : !asctile.tile<256xi16, UB>
  asctile.store %x2, %to[%c0] : !asctile.tile<256xi16, UB>, !asctile.tensor<256xi16>
  return
}
