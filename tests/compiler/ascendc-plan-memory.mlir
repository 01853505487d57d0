// RUN: asc2-opt %s -ascendc-plan-memory -split-input-file | FileCheck %s
// RUN: asc2-opt %s -ascendc-plan-memory=reuse=false -split-input-file | FileCheck %s --check-prefix=NOREUSE

// %a and %b are live together (the exp reads %a, writes %b, %a is stored
// after); %c is live only after both are dead, so it reuses %a's bytes.
// CHECK-LABEL: func.func @reuse
// CHECK: ascendc.alloc_local {name = "a", offset = 0 : i64}
// CHECK: ascendc.alloc_local {name = "b", offset = 256 : i64}
// CHECK: ascendc.alloc_local {name = "c", offset = 0 : i64}
// NOREUSE-LABEL: func.func @reuse
// NOREUSE: ascendc.alloc_local {name = "a", offset = 0 : i64}
// NOREUSE: ascendc.alloc_local {name = "b", offset = 256 : i64}
// NOREUSE: ascendc.alloc_local {name = "c", offset = 512 : i64}
func.func @reuse(%x: !ascendc.gm<f32>) {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %a = ascendc.alloc_local {name = "a"} : !ascendc.local<64xf32, VECIN>
  %b = ascendc.alloc_local {name = "b"} : !ascendc.local<64xf32, VECOUT>
  %c = ascendc.alloc_local {name = "c"} : !ascendc.local<64xf32, VECIN>
  ascendc.data_copy_in %a, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.exp %b, %a, %c64 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECIN>
  ascendc.data_copy_out %x[%c0], %b, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECOUT>
  ascendc.data_copy_out %x[%c64], %a, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECIN>
  ascendc.data_copy_in %c, %x[%c64], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.data_copy_out %x[%c64], %c, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECIN>
  return
}

// -----

// Sizes are rounded up to the 32-byte alignment: 8 x f16 = 16 bytes -> 32.
// CHECK-LABEL: func.func @align
// CHECK: ascendc.alloc_local {name = "p", offset = 0 : i64}
// CHECK: ascendc.alloc_local {name = "q", offset = 32 : i64}
func.func @align(%x: !ascendc.gm<f16>) {
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %p = ascendc.alloc_local {name = "p"} : !ascendc.local<8xf16, VECIN>
  %q = ascendc.alloc_local {name = "q"} : !ascendc.local<8xf16, VECOUT>
  ascendc.data_copy_in %p, %x[%c0], %c8 : !ascendc.local<8xf16, VECIN>, !ascendc.gm<f16>
  ascendc.abs %q, %p, %c8 : !ascendc.local<8xf16, VECOUT>, !ascendc.local<8xf16, VECIN>
  ascendc.data_copy_out %x[%c0], %q, %c8 : !ascendc.gm<f16>, !ascendc.local<8xf16, VECOUT>
  ascendc.data_copy_out %x[%c8], %p, %c8 : !ascendc.gm<f16>, !ascendc.local<8xf16, VECIN>
  return
}

// -----

// An elementwise result takes the bytes of a same-sized source that dies at
// its op (in place), with or without reuse (upstream's reuse_alloc=0 keeps
// in-place results too).
// CHECK-LABEL: func.func @in_place
// CHECK: ascendc.alloc_local {name = "a", offset = 0 : i64}
// CHECK: ascendc.alloc_local {name = "b", offset = 0 : i64}
// CHECK: ascendc.alloc_local {name = "c", offset = 0 : i64}
// NOREUSE-LABEL: func.func @in_place
// NOREUSE: ascendc.alloc_local {name = "a", offset = 0 : i64}
// NOREUSE: ascendc.alloc_local {name = "b", offset = 0 : i64}
// NOREUSE: ascendc.alloc_local {name = "c", offset = 0 : i64}
func.func @in_place(%x: !ascendc.gm<f32>) {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %s = arith.constant 2.0 : f32
  %a = ascendc.alloc_local {name = "a"} : !ascendc.local<64xf32, VECIN>
  %b = ascendc.alloc_local {name = "b"} : !ascendc.local<64xf32, VECCALC>
  %c = ascendc.alloc_local {name = "c"} : !ascendc.local<64xf32, VECOUT>
  ascendc.data_copy_in %a, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.exp %b, %a, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  ascendc.muls %c, %b, %s, %c64 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECCALC>, f32
  ascendc.data_copy_out %x[%c0], %c, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECOUT>
  return
}
