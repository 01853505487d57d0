// RUN: asc2-opt %s -test-print-buffer-liveness -split-input-file -o /dev/null 2>&1 | FileCheck %s

// Program points number the ops in pre-order from 0 (the first constant).
// A buffer is live from its first to its last access; `c` is 16 x f32 = 64
// bytes. At most a and b are live at once.
// CHECK-LABEL: buffer-liveness @straight_line: 3 buffers
// CHECK-NEXT: a UB 256B live 5..8 (ascendc.data_copy_in .. ascendc.data_copy_out)
// CHECK-NEXT: b UB 256B live 6..7 (ascendc.exp .. ascendc.data_copy_out)
// CHECK-NEXT: c UB 64B live 9..10 (ascendc.data_copy_in .. ascendc.data_copy_out)
// CHECK-NEXT: max-live UB 512, DMA apart 512
func.func @straight_line(%x: !ascendc.gm<f32>) {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %a = ascendc.alloc_local {name = "a"} : !ascendc.local<64xf32, VECIN>
  %b = ascendc.alloc_local {name = "b"} : !ascendc.local<64xf32, VECOUT>
  %c = ascendc.alloc_local {name = "c"} : !ascendc.local<16xf32, VECIN>
  ascendc.data_copy_in %a, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.exp %b, %a, %c64 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECIN>
  ascendc.data_copy_out %x[%c0], %b, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECOUT>
  ascendc.data_copy_out %x[%c64], %a, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECIN>
  ascendc.data_copy_in %c, %x[%c64], %c64 : !ascendc.local<16xf32, VECIN>, !ascendc.gm<f32>
  ascendc.data_copy_out %x[%c64], %c, %c64 : !ascendc.gm<f32>, !ascendc.local<16xf32, VECIN>
  return
}

// -----

// t is read before it is written in the body: its value comes from the
// previous trip, so it is live for the whole loop (8 scf.for .. 13 its
// yield). u is written first in the body: live only from the exp to the
// store. w is used before and inside the loop: live while the loop runs.
// CHECK-LABEL: buffer-liveness @loop: 4 buffers
// CHECK-NEXT: t UB 256B live 8..13 (scf.for .. scf.yield)
// CHECK-NEXT: u UB 256B live 9..11 (ascendc.exp .. ascendc.data_copy_out)
// CHECK-NEXT: w UB 256B live 7..13 (ascendc.data_copy_in .. scf.yield)
// CHECK-NEXT: unused UB 256B unused
// CHECK-NEXT: max-live UB 768, DMA apart 768
func.func @loop(%x: !ascendc.gm<f32>, %out: !ascendc.gm<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %t = ascendc.alloc_local {name = "t"} : !ascendc.local<64xf32, VECIN>
  %u = ascendc.alloc_local {name = "u"} : !ascendc.local<64xf32, VECOUT>
  %w = ascendc.alloc_local {name = "w"} : !ascendc.local<64xf32, VECIN>
  %unused = ascendc.alloc_local {name = "unused"} : !ascendc.local<64xf32, VECCALC>
  ascendc.data_copy_in %w, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  scf.for %i = %c0 to %n step %c1 {
    ascendc.exp %u, %t, %c64 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECIN>
    ascendc.data_copy_in %t, %x[%i], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
    ascendc.data_copy_out %out[%i], %u, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECOUT>
    ascendc.data_copy_out %out[%i], %w, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECIN>
  }
  return
}

// -----

// An unrolled loop (ping/pong slots 0 and 1): the buffers MTE2 loads and
// MTE3 stores inside it are DMA buffers of the loop (8 .. 19), kept apart
// from the other slot's buffers. z overwrites x in place where x dies, so
// one slot alone needs 256 bytes at a time; with the other slot's DMA
// buffers apart 512, and with a slot's own DMA buffers apart too, all four.
// CHECK-LABEL: buffer-liveness @guarded: 4 buffers
// CHECK-NEXT: x UB 256B live 9..10 (ascendc.data_copy_in .. ascendc.exp) slot 0 dma-loop 8..19 loaded
// CHECK-NEXT: z UB 256B live 10..11 (ascendc.exp .. ascendc.data_copy_out) slot 0 dma-loop 8..19 stored
// CHECK-NEXT: x_1 UB 256B live 15..16 (ascendc.data_copy_in .. ascendc.exp) slot 1 dma-loop 8..19 loaded
// CHECK-NEXT: z_1 UB 256B live 16..17 (ascendc.exp .. ascendc.data_copy_out) slot 1 dma-loop 8..19 stored
// CHECK-NEXT: max-live UB 512, DMA apart 1024
func.func @guarded(%x: !ascendc.gm<f32>, %out: !ascendc.gm<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %x0 = ascendc.alloc_local {name = "x", offset = 0 : i64, slot = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %z0 = ascendc.alloc_local {name = "z", offset = 256 : i64, slot = 0 : i64} : !ascendc.local<64xf32, VECOUT>
  %x1 = ascendc.alloc_local {name = "x_1", offset = 512 : i64, slot = 1 : i64} : !ascendc.local<64xf32, VECIN>
  %z1 = ascendc.alloc_local {name = "z_1", offset = 768 : i64, slot = 1 : i64} : !ascendc.local<64xf32, VECOUT>
  scf.for %i = %c0 to %n step %c2 {
    ascendc.data_copy_in %x0, %x[%i], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
    ascendc.exp %z0, %x0, %c64 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECIN>
    ascendc.data_copy_out %out[%i], %z0, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECOUT>
    %i1 = arith.addi %i, %c1 : index
    %in = arith.cmpi slt, %i1, %n : index
    scf.if %in {
      ascendc.data_copy_in %x1, %x[%i1], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
      ascendc.exp %z1, %x1, %c64 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECIN>
      ascendc.data_copy_out %out[%i1], %z1, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECOUT>
    }
  } {asctile.unrolled_by = 2 : i64}
  return
}

// -----

// Cube operands: an L0A operand stays live until the next L0A load (a2
// until 16), and across the back-edge the last one (a2_next) must not share
// bytes with the first: MTE1 loads one while the cube multiplies the other.
// The accumulator is read by the mmads (accumulating), so it is carried
// around the loop; b2, loaded before the loop, is live while it runs.
// CHECK-LABEL: buffer-liveness @cube_operands: 6 buffers
// CHECK-NEXT: acc L0C 16384B live 12..18 (scf.for .. scf.yield)
// CHECK-NEXT: a1 L1 8192B live 13..16 (ascendc.data_copy_in .. ascendc.load_data)
// CHECK-NEXT: b1 L1 8192B live 10..11 (ascendc.data_copy_in .. ascendc.load_data)
// CHECK-NEXT: a2 L0A 8192B live 14..16 (ascendc.load_data .. ascendc.load_data)
// CHECK-NEXT: a2_next L0A 8192B live 16..17 (ascendc.load_data .. ascendc.mmad) apart-from a2
// CHECK-NEXT: b2 L0B 8192B live 11..18 (ascendc.load_data .. scf.yield)
// CHECK-NEXT: max-live L0C 16384, DMA apart 16384
// CHECK-NEXT: max-live L1 8192, DMA apart 8192
// CHECK-NEXT: max-live L0A 16384, DMA apart 16384
// CHECK-NEXT: max-live L0B 8192, DMA apart 8192
func.func @cube_operands(%a: !ascendc.gm<f16>, %b: !ascendc.gm<f16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %false = arith.constant false
  %acc = ascendc.alloc_local {name = "acc"} : !ascendc.local<64x64xf32, CO1>
  %a1 = ascendc.alloc_local {name = "a1"} : !ascendc.local<64x64xf16, A1>
  %b1 = ascendc.alloc_local {name = "b1"} : !ascendc.local<64x64xf16, B1>
  %a2 = ascendc.alloc_local {name = "a2"} : !ascendc.local<64x64xf16, A2>
  %a2n = ascendc.alloc_local {name = "a2_next"} : !ascendc.local<64x64xf16, A2>
  %b2 = ascendc.alloc_local {name = "b2"} : !ascendc.local<64x64xf16, B2>
  ascendc.data_copy_in %b1, %b[%c0], %c64 rows %c64 stride %c64 : !ascendc.local<64x64xf16, B1>, !ascendc.gm<f16>
  ascendc.load_data %b2, %b1 : !ascendc.local<64x64xf16, B2>, !ascendc.local<64x64xf16, B1>
  scf.for %i = %c0 to %n step %c1 {
    ascendc.data_copy_in %a1, %a[%i], %c64 rows %c64 stride %c64 : !ascendc.local<64x64xf16, A1>, !ascendc.gm<f16>
    ascendc.load_data %a2, %a1 : !ascendc.local<64x64xf16, A2>, !ascendc.local<64x64xf16, A1>
    ascendc.mmad %acc, %a2, %b2, %false : !ascendc.local<64x64xf32, CO1>, !ascendc.local<64x64xf16, A2>, !ascendc.local<64x64xf16, B2>
    ascendc.load_data %a2n, %a1 : !ascendc.local<64x64xf16, A2>, !ascendc.local<64x64xf16, A1>
    ascendc.mmad %acc, %a2n, %b2, %false : !ascendc.local<64x64xf32, CO1>, !ascendc.local<64x64xf16, A2>, !ascendc.local<64x64xf16, B2>
  }
  return
}
