// RUN: asc2-opt %s -split-input-file -convert-asctile-to-ascendc=soc-version=c220 | FileCheck %s --check-prefix=A2
// RUN: asc2-opt %s -split-input-file -convert-asctile-to-ascendc=soc-version=c310 | FileCheck %s --check-prefix=A5

// int16 -> int32: Atlas A2/A3 have no such Cast; float holds every int16
// exactly (int16 -> float, float -> int32). Ascend 950 has the direct call.
// A2-LABEL: func.func @widen
// A2: %[[F:.*]] = ascendc.alloc_local {name = "cast_via"} : !ascendc.local<256xf32, VECCALC>
// A2: ascendc.cast %[[F]], %{{.*}} round CAST_NONE
// A2: ascendc.cast %{{.*}}, %[[F]], %{{.*}} round CAST_RINT
// A5-LABEL: func.func @widen
// A5-NOT: cast_via
// A5: ascendc.cast %{{.*}} round CAST_NONE : !ascendc.local<256xi32, VECCALC>, !ascendc.local<256xi16
func.func @widen(%x: !asctile.ptr<i16>, %y: !asctile.ptr<i32>) attributes {asctile.kernel} {
  %tx = asctile.tensor %x[] : !asctile.ptr<i16> -> !asctile.tensor<256xi16>
  %ty = asctile.tensor %y[] : !asctile.ptr<i32> -> !asctile.tensor<256xi32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %tx[%c0] : !asctile.tensor<256xi16> -> !asctile.tile<256xi16, UB>
  %b = asctile.cast %a round none : !asctile.tile<256xi16, UB> -> !asctile.tile<256xi32, UB>
  asctile.store %b, %ty[%c0] : !asctile.tile<256xi32, UB>, !asctile.tensor<256xi32>
  return
}

// -----

// int32 -> int8 wraps like numpy: shift the low byte's sign into place in
// int32 lanes, then exact conversions (no int32 -> int8 Cast anywhere).
// A2-LABEL: func.func @narrow
// A2: ascendc.shls
// A2: ascendc.shrs
// A2-NOT: ascendc.cast {{.*}} !ascendc.local<256xi8, {{.*}}>, !ascendc.local<256xi32
// A2: ascendc.cast {{.*}} round CAST_NONE : !ascendc.local<256xf32, VECCALC>, !ascendc.local<256xi32
// A2: ascendc.cast {{.*}} round CAST_NONE : !ascendc.local<256xf16, VECCALC>, !ascendc.local<256xf32
// A2: ascendc.cast {{.*}} round CAST_NONE : !ascendc.local<256xi8, {{.*}}>, !ascendc.local<256xf16
func.func @narrow(%x: !asctile.ptr<i32>, %y: !asctile.ptr<i8>) attributes {asctile.kernel} {
  %tx = asctile.tensor %x[] : !asctile.ptr<i32> -> !asctile.tensor<256xi32>
  %ty = asctile.tensor %y[] : !asctile.ptr<i8> -> !asctile.tensor<256xi8>
  %c0 = arith.constant 0 : index
  %a = asctile.load %tx[%c0] : !asctile.tensor<256xi32> -> !asctile.tile<256xi32, UB>
  %b = asctile.cast %a round none : !asctile.tile<256xi32, UB> -> !asctile.tile<256xi8, UB>
  asctile.store %b, %ty[%c0] : !asctile.tile<256xi8, UB>, !asctile.tensor<256xi8>
  return
}

// -----

// int32 a < b on A2/A3, where Compare has int32 in EQ only: not (max(a, b) == a).
// A2-LABEL: func.func @less
// A2: %[[M:.*]] = ascendc.alloc_local {name = "max_ab"}
// A2: ascendc.max %[[M]]
// A2: ascendc.compare EQ %[[D:.*]], %[[M]]
// A2: ascendc.not %[[D]], %[[D]]
// A5-LABEL: func.func @less
// A5: ascendc.compare LT
func.func @less(%x: !asctile.ptr<i32>, %y: !asctile.ptr<f32>) attributes {asctile.kernel} {
  %tx = asctile.tensor %x[] : !asctile.ptr<i32> -> !asctile.tensor<256xi32>
  %ty = asctile.tensor %y[] : !asctile.ptr<f32> -> !asctile.tensor<256xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %tx[%c0] : !asctile.tensor<256xi32> -> !asctile.tile<256xi32, UB>
  %b = asctile.load %tx[%c0] : !asctile.tensor<256xi32> -> !asctile.tile<256xi32, UB>
  %m = asctile.cmp lt, %a, %b : !asctile.tile<256xi32, UB> -> !asctile.tile<256xi1, UB>
  %f = asctile.cast %m round none : !asctile.tile<256xi1, UB> -> !asctile.tile<256xf32, UB>
  asctile.store %f, %ty[%c0] : !asctile.tile<256xf32, UB>, !asctile.tensor<256xf32>
  return
}
