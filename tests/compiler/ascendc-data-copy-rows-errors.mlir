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

// -----

// The second find (seed 20261204, mutant 704734): a copy into L1 without
// `rows` (the NZ layout needs the row count and stride) crashed the emitter.
func.func @l1_without_rows(%x: !ascendc.gm<f16>, %n: index) {
  %b = ascendc.alloc_local : !ascendc.local<64x64xf16, A1>
  // expected-error @+1 {{a copy into L1 needs `rows` and `stride` (NZ fractals), or `nd` for a plain row}}
  ascendc.data_copy_in %b, %x[%n], %n : !ascendc.local<64x64xf16, A1>, !ascendc.gm<f16>
  return
}

// -----

func.func @l1_rows_into_one_dimension(%x: !ascendc.gm<f16>, %n: index) {
  %b = ascendc.alloc_local : !ascendc.local<4096xf16, A1>
  // expected-error @+1 {{a row copy into L1 needs a 2-D buffer}}
  ascendc.data_copy_in %b, %x[%n], %n rows %n stride %n : !ascendc.local<4096xf16, A1>, !ascendc.gm<f16>
  return
}

// -----

// A bias row stays a plain copy.
func.func @l1_bias_row(%x: !ascendc.gm<f32>, %n: index) {
  %b = ascendc.alloc_local : !ascendc.local<64xf32, A1>
  ascendc.data_copy_in %b, %x[%n], %n {nd} : !ascendc.local<64xf32, A1>, !ascendc.gm<f32>
  return
}
