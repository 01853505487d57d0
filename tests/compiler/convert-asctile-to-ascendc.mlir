// RUN: asc2-opt %s -convert-asctile-to-ascendc -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @vadd
// CHECK-SAME: (%[[X:.*]]: !ascendc.gm<f32>, %[[Y:.*]]: !ascendc.gm<f32>, %[[O:.*]]: !ascendc.gm<f32>, %[[N:.*]]: index)
func.func @vadd(%x: !asctile.ptr<f32>, %y: !asctile.ptr<f32>, %out: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel, asctile.arg_names = ["x", "y", "out", "n"]} {
  %tx = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %ty = asctile.tensor %y[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %to = asctile.tensor %out[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  // The in-bounds count is clamp(n - off, 0, 256).
  // CHECK: %[[REM:.*]] = arith.subi %[[N]], %{{.*}} : index
  // CHECK: %[[MIN:.*]] = arith.minsi %[[REM]], %{{.*}} : index
  // CHECK: %[[CNT:.*]] = arith.maxsi %[[MIN]], %{{.*}} : index
  // CHECK: %[[BX:.*]] = ascendc.alloc_local {name = "x"} : !ascendc.local<256xf32, VECIN>
  // CHECK: ascendc.data_copy_in %[[BX]], %[[X]][%{{.*}}], %[[CNT]] {pad_value = 0.000000e+00 : f32}
  %a = asctile.load %tx[%c0] : !asctile.tensor<?xf32> -> !asctile.tile<256xf32, UB>
  %b = asctile.load %ty[%c0] : !asctile.tensor<?xf32> -> !asctile.tile<256xf32, UB>
  // CHECK: %[[BS:.*]] = ascendc.alloc_local {name = "addf"} : !ascendc.local<256xf32, VECCALC>
  // CHECK: ascendc.add %[[BS]], %[[BX]], %{{.*}}, %{{.*}} : !ascendc.local<256xf32, VECCALC>, !ascendc.local<256xf32, VECIN>, !ascendc.local<256xf32, VECIN>
  %s = arith.addf %a, %b : !asctile.tile<256xf32, UB>
  // CHECK: ascendc.data_copy_out %[[O]][%{{.*}}], %[[BS]], %{{.*}} : !ascendc.gm<f32>, !ascendc.local<256xf32, VECCALC>
  asctile.store %s, %to[%c0] : !asctile.tile<256xf32, UB>, !asctile.tensor<?xf32>
  // CHECK-NOT: asctile.
  return
}

// -----

func.func @strided(%x: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?x64xf32>
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{is not one contiguous run of the tensor}}
  %a = asctile.load %t[%c0, %c0] : !asctile.tensor<?x64xf32> -> !asctile.tile<2x32xf32, UB>
  return
}
