// RUN: asc2-opt %s -split-input-file -convert-asctile-to-ascendc=soc-version=c310 | FileCheck %s
// RUN: asc2-opt %s -split-input-file -convert-asctile-to-ascendc -verify-diagnostics

// On Ascend950 a tile erf is Huawei's advanced-API Erf: one call with the
// uint8 scratch buffer of its four-argument form (768 bytes for float).
// CHECK-LABEL: func.func @erf_f32
// CHECK: %[[TMP:.*]] = ascendc.alloc_local {name = "erf_tmp"} : !ascendc.local<768xui8, VECCALC>
// CHECK: ascendc.erf %{{.*}}, %{{.*}}, %[[TMP]], %{{.*}} : !ascendc.local<128xf32, VECCALC>, !ascendc.local<128xf32, VECIN>, !ascendc.local<768xui8, VECCALC>
func.func @erf_f32(%x: !asctile.ptr<f32>, %y: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %o = asctile.tensor %y[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0] : !asctile.tensor<?xf32> -> !asctile.tile<128xf32, UB>
  // expected-error @+1 {{erf reaches the lowering on a target without one-call Erf}}
  %b = math.erf %a : !asctile.tile<128xf32, UB>
  asctile.store %b, %o[%c0] : !asctile.tile<128xf32, UB>, !asctile.tensor<?xf32>
  return
}

// -----

// half takes 2048 bytes of scratch (GetErfMaxMinTmpSize's minimum).
// CHECK-LABEL: func.func @erf_f16
// CHECK: ascendc.alloc_local {name = "erf_tmp"} : !ascendc.local<2048xui8, VECCALC>
// CHECK: ascendc.erf {{.*}} : !ascendc.local<256xf16, VECCALC>, !ascendc.local<256xf16, VECIN>, !ascendc.local<2048xui8, VECCALC>
func.func @erf_f16(%x: !asctile.ptr<f16>, %y: !asctile.ptr<f16>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f16> -> !asctile.tensor<?xf16>
  %o = asctile.tensor %y[%n] : !asctile.ptr<f16> -> !asctile.tensor<?xf16>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0] : !asctile.tensor<?xf16> -> !asctile.tile<256xf16, UB>
  // expected-error @+1 {{erf reaches the lowering on a target without one-call Erf}}
  %b = math.erf %a : !asctile.tile<256xf16, UB>
  asctile.store %b, %o[%c0] : !asctile.tile<256xf16, UB>, !asctile.tensor<?xf16>
  return
}
