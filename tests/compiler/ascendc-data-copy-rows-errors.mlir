// RUN: asc2-opt %s -split-input-file -verify-diagnostics

// The fuzzer's crash (seed 20261204, mutant 222848): "rows %r stride" with no
// stride operand parsed (the optional group only needs its first operand), and
// the Ascend C emitter dereferenced the missing stride.
func.func @in_without_stride(%x: !ascendc.gm<f16>, %n: index) {
  %b = ascendc.alloc_local : !ascendc.local<16x16xf16, A1>
  // expected-error @+1 {{a row copy needs both `rows` and `stride`}}
  ascendc.data_copy_in %b, %x[%n], %n rows %n stride : !ascendc.local<16x16xf16, A1>, !ascendc.gm<f16>
  return
}

// -----

func.func @out_without_stride(%x: !ascendc.gm<f32>, %n: index) {
  %b = ascendc.alloc_local : !ascendc.local<16x16xf32, VECOUT>
  // expected-error @+1 {{a row copy needs both `rows` and `stride`}}
  ascendc.data_copy_out %x[%n], %b, %n rows %n stride : !ascendc.gm<f32>, !ascendc.local<16x16xf32, VECOUT>
  return
}
