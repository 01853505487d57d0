// RUN: asc2-opt %s -split-input-file -verify-diagnostics

// The N-dimensional DMA's fields (NdDmaLoopInfo): 1 to 5 loops, one size,
// extent and two strides each, destination inside the buffer.
func.func @six_loops(%x: !ascendc.gm<f32>, %n: index) {
  %b = ascendc.alloc_local : !ascendc.local<64xf32, VECIN>
  // expected-error @+1 {{takes 1 to 5 loops, got 6}}
  ascendc.data_copy_nd %b, %x[%n] sizes[%n, %n, %n, %n, %n, %n] {extents = array<i64: 2, 2, 2, 2, 2, 2>, src_strides = array<i64: 32, 16, 8, 4, 2, 1>, dst_strides = array<i64: 32, 16, 8, 4, 2, 1>} : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  return
}

// -----

func.func @past_the_buffer(%x: !ascendc.gm<f32>, %n: index) {
  %b = ascendc.alloc_local : !ascendc.local<64xf32, VECIN>
  // expected-error @+1 {{writes element 64 of a buffer of 64}}
  ascendc.data_copy_nd %b, %x[%n] sizes[%n, %n] {extents = array<i64: 8, 9>, src_strides = array<i64: 1, 8>, dst_strides = array<i64: 8, 1>} : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  return
}

// -----

func.func @wide_stride(%x: !ascendc.gm<f32>, %n: index) {
  %b = ascendc.alloc_local : !ascendc.local<64xf32, VECIN>
  // expected-error @+1 {{strides of loop 0 outside the DMA's fields}}
  ascendc.data_copy_nd %b, %x[%n] sizes[%n] {extents = array<i64: 2>, src_strides = array<i64: 1099511627776>, dst_strides = array<i64: 1>} : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  return
}

// -----

func.func @into_l1(%x: !ascendc.gm<f32>, %n: index) {
  %b = ascendc.alloc_local : !ascendc.local<64xf32, A1>
  // expected-error @+1 {{copies into UB only}}
  ascendc.data_copy_nd %b, %x[%n] sizes[%n] {extents = array<i64: 64>, src_strides = array<i64: 1>, dst_strides = array<i64: 1>} : !ascendc.local<64xf32, A1>, !ascendc.gm<f32>
  return
}
