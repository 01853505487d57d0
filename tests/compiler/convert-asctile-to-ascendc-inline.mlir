// RUN: asc2-opt %s -convert-asctile-to-ascendc -split-input-file | FileCheck %s

// asc2.inline keeps its place and code; its operands become what the emitter
// names: a tile its buffer, a global tensor its GM argument, scalars as they
// are. inline_vf's result gets a UB buffer of its own ($0).

// CHECK-LABEL: func.func @inline_operands
// CHECK-SAME: (%[[X:.*]]: !ascendc.gm<f32>, %[[N:.*]]: index)
func.func @inline_operands(%x: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel, asctile.arg_names = ["x", "n"]} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  // CHECK: %[[BUF:.*]] = ascendc.alloc_local {name = "x"} : !ascendc.local<64xf32, VECIN>
  // CHECK: ascendc.data_copy_in %[[BUF]], %[[X]]
  %a = asctile.load %t[%c0] : !asctile.tensor<?xf32> -> !asctile.tile<64xf32, UB>
  // CHECK: ascendc.inline "f($0, $1, $2, $3);"(%[[X]], %[[X]], %[[BUF]], %[[N]] : !ascendc.gm<f32>, !ascendc.gm<f32>, !ascendc.local<64xf32, VECIN>, index)
  asctile.inline "f($0, $1, $2, $3);" (%x, %t, %a, %n : !asctile.ptr<f32>, !asctile.tensor<?xf32>, !asctile.tile<64xf32, UB>, index)
  // CHECK: ascendc.inline "constexpr int32_t K = 42;" {before_function}
  asctile.inline "constexpr int32_t K = 42;" {before_function}
  return
}

// -----

// CHECK-LABEL: func.func @inline_vf_result
func.func @inline_vf_result(%x: !asctile.ptr<f32>, %n: index) attributes {asctile.kernel, asctile.arg_names = ["x", "n"]} {
  %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
  %c0 = arith.constant 0 : index
  // CHECK: %[[IN:.*]] = ascendc.alloc_local {name = "x"}
  %a = asctile.load %t[%c0] : !asctile.tensor<?xf32> -> !asctile.tile<64xf32, UB>
  // CHECK: %[[OUT:.*]] = ascendc.alloc_local {name = "inline_vf"} : !ascendc.local<64xf32, VECCALC>
  // CHECK-NEXT: ascendc.inline_vf "$0 = $1;" %[[OUT]](%[[IN]] : !ascendc.local<64xf32, VECIN>) : !ascendc.local<64xf32, VECCALC>
  %r = asctile.inline_vf "$0 = $1;" (%a : !asctile.tile<64xf32, UB>) -> !asctile.tile<64xf32, UB>
  // CHECK: ascendc.data_copy_out %{{.*}}, %[[OUT]]
  asctile.store %r, %t[%c0] : !asctile.tile<64xf32, UB>, !asctile.tensor<?xf32>
  return
}
