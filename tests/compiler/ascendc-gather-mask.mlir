// RUN: asc2-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// ascendc.gather_mask (AscendC::GatherMask) round-trips; its verifier holds
// the API's operand ranges and keeps every call inside its buffers.

// CHECK-LABEL: func.func @gather_mask_forms
// CHECK: ascendc.gather_mask %{{.*}}, %{{.*}} {builtin_pattern = 3 : i64, mask = 0 : i64, reduce_mode = false, repeat_times = 80 : i64, src_block_stride = 1 : i64, src_repeat_stride = 8 : i64} : !ascendc.local<1280xf32, VECCALC>, !ascendc.local<5120xf32, VECIN>
// CHECK: ascendc.gather_mask %{{.*}}, %{{.*}}, %{{.*}} {builtin_pattern = 0 : i64, dst_offset = 16 : i64, mask = 48 : i64, reduce_mode = true, repeat_times = 2 : i64, src_block_stride = 1 : i64, src_offset = 96 : i64, src_repeat_stride = 6 : i64} : !ascendc.local<64xf32, VECCALC>, !ascendc.local<192xf32, VECIN>, !ascendc.local<8xi32, VECCALC>
func.func @gather_mask_forms() {
  %x = ascendc.alloc_local : !ascendc.local<5120xf32, VECIN>
  %d = ascendc.alloc_local : !ascendc.local<1280xf32, VECCALC>
  ascendc.gather_mask %d, %x {builtin_pattern = 3 : i64, reduce_mode = false, mask = 0 : i64, repeat_times = 80 : i64, src_block_stride = 1 : i64, src_repeat_stride = 8 : i64} : !ascendc.local<1280xf32, VECCALC>, !ascendc.local<5120xf32, VECIN>
  %y = ascendc.alloc_local : !ascendc.local<192xf32, VECIN>
  %e = ascendc.alloc_local : !ascendc.local<64xf32, VECCALC>
  %p = ascendc.alloc_local : !ascendc.local<8xi32, VECCALC>
  ascendc.gather_mask %e, %y, %p {builtin_pattern = 0 : i64, reduce_mode = true, mask = 48 : i64, repeat_times = 2 : i64, src_block_stride = 1 : i64, src_repeat_stride = 6 : i64, dst_offset = 16 : i64, src_offset = 96 : i64} : !ascendc.local<64xf32, VECCALC>, !ascendc.local<192xf32, VECIN>, !ascendc.local<8xi32, VECCALC>
  return
}

// -----

func.func @kept_past_dst() {
  %x = ascendc.alloc_local : !ascendc.local<512xf32, VECIN>
  %d = ascendc.alloc_local : !ascendc.local<64xf32, VECCALC>
  // 8 repeats of pattern 1 keep 256 elements.
  // expected-error @+1 {{touches 1024 bytes of dst}}
  ascendc.gather_mask %d, %x {builtin_pattern = 1 : i64, reduce_mode = false, mask = 0 : i64, repeat_times = 8 : i64, src_block_stride = 1 : i64, src_repeat_stride = 8 : i64} : !ascendc.local<64xf32, VECCALC>, !ascendc.local<512xf32, VECIN>
  return
}

// -----

func.func @counter_mask_range() {
  %x = ascendc.alloc_local : !ascendc.local<512xf32, VECIN>
  %d = ascendc.alloc_local : !ascendc.local<512xf32, VECCALC>
  // expected-error @+1 {{mask = 65 is outside [1, 64]}}
  ascendc.gather_mask %d, %x {builtin_pattern = 1 : i64, reduce_mode = true, mask = 65 : i64, repeat_times = 1 : i64, src_block_stride = 1 : i64, src_repeat_stride = 8 : i64} : !ascendc.local<512xf32, VECCALC>, !ascendc.local<512xf32, VECIN>
  return
}

// -----

func.func @pattern_and_builtin() {
  %x = ascendc.alloc_local : !ascendc.local<512xf32, VECIN>
  %d = ascendc.alloc_local : !ascendc.local<512xf32, VECCALC>
  %p = ascendc.alloc_local : !ascendc.local<8xi32, VECCALC>
  // expected-error @+1 {{takes a pattern buffer exactly when builtin_pattern is 0}}
  ascendc.gather_mask %d, %x, %p {builtin_pattern = 2 : i64, reduce_mode = false, mask = 0 : i64, repeat_times = 1 : i64, src_block_stride = 1 : i64, src_repeat_stride = 8 : i64} : !ascendc.local<512xf32, VECCALC>, !ascendc.local<512xf32, VECIN>, !ascendc.local<8xi32, VECCALC>
  return
}

// -----

func.func @pattern_word_width() {
  %x = ascendc.alloc_local : !ascendc.local<512xf16, VECIN>
  %d = ascendc.alloc_local : !ascendc.local<512xf16, VECCALC>
  %p = ascendc.alloc_local : !ascendc.local<8xi32, VECCALC>
  // expected-error @+1 {{pattern holds 16-bit words (the element width), not 'i32'}}
  ascendc.gather_mask %d, %x, %p {builtin_pattern = 0 : i64, reduce_mode = true, mask = 48 : i64, repeat_times = 1 : i64, src_block_stride = 1 : i64, src_repeat_stride = 3 : i64} : !ascendc.local<512xf16, VECCALC>, !ascendc.local<512xf16, VECIN>, !ascendc.local<8xi32, VECCALC>
  return
}
