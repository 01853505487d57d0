// RUN: asc2-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// asc2.inline and asc2.inline_vf in both dialects: the code round-trips as a
// string, `$N` must name an operand, inline_vf works on UB tiles.

// CHECK-LABEL: func.func @asctile_forms
// CHECK: asctile.inline "auto ptr = $0;\0Aint64_t n = $1;"(%{{.*}}, %{{.*}} : !asctile.ptr<f32>, index)
// CHECK: asctile.inline "constexpr int32_t K = $0;"(%{{.*}} : index) {before_function}
// CHECK: asctile.inline_vf "$0 = $1;"(%{{.*}} : !asctile.tile<32x64xf32, UB>) -> !asctile.tile<32x64xf32, UB>
// CHECK: asctile.inline_vf "// no inputs" -> !asctile.tile<64xf16, UB>
func.func @asctile_forms(%x: !asctile.ptr<f32>, %n: index, %t: !asctile.tile<32x64xf32, UB>) {
  %c42 = arith.constant 42 : index
  asctile.inline "auto ptr = $0;\0Aint64_t n = $1;" (%x, %n : !asctile.ptr<f32>, index)
  asctile.inline "constexpr int32_t K = $0;" (%c42 : index) {before_function}
  %r = asctile.inline_vf "$0 = $1;" (%t : !asctile.tile<32x64xf32, UB>) -> !asctile.tile<32x64xf32, UB>
  %s = asctile.inline_vf "// no inputs" -> !asctile.tile<64xf16, UB>
  return
}

// -----

func.func @asctile_placeholder_past_args(%n: index) {
  // expected-error @+1 {{'asctile.inline' op code uses $1, but the args are only $0}}
  asctile.inline "x = $0 + $1;" (%n : index)
  return
}

// -----

func.func @asctile_before_function_runtime_arg(%n: index) {
  // expected-error @+1 {{before the kernel function takes constant args only}}
  asctile.inline "constexpr int64_t N = $0;" (%n : index) {before_function}
  return
}

// -----

func.func @asctile_vf_outside_ub(%t: !asctile.tile<32x64xf16, L1>) {
  // expected-error @+1 {{takes UB tiles, got one in L1}}
  %r = asctile.inline_vf "" (%t : !asctile.tile<32x64xf16, L1>) -> !asctile.tile<32x64xf16, UB>
  return
}

// -----

func.func @asctile_vf_placeholder(%t: !asctile.tile<64xf32, UB>) {
  // expected-error @+1 {{code uses $2, but the tiles ($0 the result, then the inputs) are only $0 .. $1}}
  %r = asctile.inline_vf "$0 = $2;" (%t : !asctile.tile<64xf32, UB>) -> !asctile.tile<64xf32, UB>
  return
}

// -----

// CHECK-LABEL: func.func @ascendc_forms
// CHECK: ascendc.inline "auto ptr = $0; auto t = $1;"(%{{.*}}, %{{.*}} : !ascendc.gm<f32>, !ascendc.local<64xf32, VECCALC>)
// CHECK: ascendc.inline_vf "$0 = $1;" %{{.*}}(%{{.*}} : !ascendc.local<64xf32, VECCALC>) : !ascendc.local<64xf32, VECCALC>
func.func @ascendc_forms(%x: !ascendc.gm<f32>) {
  %a = ascendc.alloc_local {name = "a"} : !ascendc.local<64xf32, VECCALC>
  %b = ascendc.alloc_local {name = "b"} : !ascendc.local<64xf32, VECCALC>
  ascendc.inline "auto ptr = $0; auto t = $1;" (%x, %a : !ascendc.gm<f32>, !ascendc.local<64xf32, VECCALC>)
  ascendc.inline_vf "$0 = $1;" %b (%a : !ascendc.local<64xf32, VECCALC>) : !ascendc.local<64xf32, VECCALC>
  return
}

// -----

func.func @ascendc_vf_outside_ub() {
  %a = ascendc.alloc_local {name = "a"} : !ascendc.local<16x16xf16, A1>
  // expected-error @+1 {{takes and makes UB buffers, got one in L1}}
  ascendc.inline_vf "" %a : !ascendc.local<16x16xf16, A1>
  return
}

// -----

func.func @ascendc_placeholder(%x: !ascendc.gm<f32>) {
  // expected-error @+1 {{code uses $0, but there are no args}}
  ascendc.inline "use($0);"
  return
}
