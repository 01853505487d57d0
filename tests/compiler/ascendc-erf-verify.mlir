// RUN: asc2-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @ok
// CHECK: ascendc.erf
func.func @ok(%n: index) {
  %a = ascendc.alloc_local {name = "a"} : !ascendc.local<128xf32, VECIN>
  %d = ascendc.alloc_local {name = "d"} : !ascendc.local<128xf32, VECOUT>
  %t = ascendc.alloc_local {name = "t"} : !ascendc.local<768xui8, VECCALC>
  ascendc.erf %d, %a, %t, %n : !ascendc.local<128xf32, VECOUT>, !ascendc.local<128xf32, VECIN>, !ascendc.local<768xui8, VECCALC>
  return
}

// -----

func.func @small_tmp(%n: index) {
  %a = ascendc.alloc_local {name = "a"} : !ascendc.local<256xf16, VECIN>
  %d = ascendc.alloc_local {name = "d"} : !ascendc.local<256xf16, VECOUT>
  %t = ascendc.alloc_local {name = "t"} : !ascendc.local<768xui8, VECCALC>
  // expected-error @+1 {{tmp holds 768 bytes; the API needs 2048}}
  ascendc.erf %d, %a, %t, %n : !ascendc.local<256xf16, VECOUT>, !ascendc.local<256xf16, VECIN>, !ascendc.local<768xui8, VECCALC>
  return
}

// -----

func.func @in_place(%n: index) {
  %a = ascendc.alloc_local {name = "a"} : !ascendc.local<128xf32, VECIN>
  %t = ascendc.alloc_local {name = "t"} : !ascendc.local<768xui8, VECCALC>
  // expected-error @+1 {{Erf may not write its source}}
  ascendc.erf %a, %a, %t, %n : !ascendc.local<128xf32, VECIN>, !ascendc.local<128xf32, VECIN>, !ascendc.local<768xui8, VECCALC>
  return
}

// -----

func.func @masked(%n: index, %hi: i64, %lo: i64) {
  %a = ascendc.alloc_local {name = "a"} : !ascendc.local<128xf32, VECIN>
  %d = ascendc.alloc_local {name = "d"} : !ascendc.local<128xf32, VECOUT>
  %t = ascendc.alloc_local {name = "t"} : !ascendc.local<768xui8, VECCALC>
  // expected-error @+1 {{Erf has no lane-mask form}}
  ascendc.erf %d, %a, %t, %n bits %hi, %lo : !ascendc.local<128xf32, VECOUT>, !ascendc.local<128xf32, VECIN>, !ascendc.local<768xui8, VECCALC>
  return
}

// -----

func.func @int(%n: index) {
  %a = ascendc.alloc_local {name = "a"} : !ascendc.local<128xi32, VECIN>
  %d = ascendc.alloc_local {name = "d"} : !ascendc.local<128xi32, VECOUT>
  %t = ascendc.alloc_local {name = "t"} : !ascendc.local<768xui8, VECCALC>
  // expected-error @+1 {{takes half or float elements}}
  ascendc.erf %d, %a, %t, %n : !ascendc.local<128xi32, VECOUT>, !ascendc.local<128xi32, VECIN>, !ascendc.local<768xui8, VECCALC>
  return
}
