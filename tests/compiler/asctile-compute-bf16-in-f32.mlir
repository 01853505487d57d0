// RUN: asc2-opt %s -asctile-compute-bf16-in-f32 | FileCheck %s

// bfloat16 arithmetic computes in float32 and rounds once per op; a splat of a
// constant becomes a float32 splat, loads and stores keep bfloat16.
// CHECK-LABEL: func.func @bf16_ops
// CHECK: %[[A:.*]] = asctile.load {{.*}} -> !asctile.tile<64xbf16, UB>
// CHECK: %[[AF:.*]] = asctile.cast %[[A]] round none : !asctile.tile<64xbf16, UB> -> !asctile.tile<64xf32, UB>
// CHECK: %[[C:.*]] = arith.constant 1.500000e+00 : f32
// CHECK: %[[S:.*]] = asctile.splat %[[C]] : f32 -> !asctile.tile<64xf32, UB>
// CHECK: %[[SUM:.*]] = arith.addf %[[AF]], %[[S]] : !asctile.tile<64xf32, UB>
// CHECK: %[[B:.*]] = asctile.cast %[[SUM]] round rint : !asctile.tile<64xf32, UB> -> !asctile.tile<64xbf16, UB>
// CHECK: %[[BF:.*]] = asctile.cast %[[B]] round none
// CHECK: %[[E:.*]] = math.exp %[[BF]] : !asctile.tile<64xf32, UB>
// CHECK: asctile.cast %[[E]] round rint
// CHECK: asctile.reduce sum {{.*}} : !asctile.tile<64xf32, UB> -> f32
// CHECK: arith.truncf {{.*}} : f32 to bf16
// CHECK: asctile.store {{.*}} : !asctile.tile<64xbf16, UB>
func.func @bf16_ops(%x: !asctile.ptr<bf16>, %n: index) -> bf16 attributes {asctile.kernel} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<bf16> -> !asctile.tensor<?xbf16>
  %c0 = arith.constant 0 : index
  %a = asctile.load %t[%c0] : !asctile.tensor<?xbf16> -> !asctile.tile<64xbf16, UB>
  %c = arith.constant 1.5 : bf16
  %s = asctile.splat %c : bf16 -> !asctile.tile<64xbf16, UB>
  %b = arith.addf %a, %s : !asctile.tile<64xbf16, UB>
  %e = math.exp %b : !asctile.tile<64xbf16, UB>
  %r = asctile.reduce sum %e dims [0] : !asctile.tile<64xbf16, UB> -> bf16
  asctile.store %e, %t[%c0] : !asctile.tile<64xbf16, UB>, !asctile.tensor<?xbf16>
  return %r : bf16
}
