// RUN: asc2-opt %s -test-print-ub-plan -split-input-file -o /dev/null 2>&1 | FileCheck %s
// RUN: asc2-opt %s -test-print-ub-plan=reuse=false -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOREUSE
// RUN: asc2-opt %s -test-print-ub-plan=ub-capacity=768 -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: asc2-opt %s -test-print-ub-plan=ub-capacity=256 -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHARE
// RUN: asc2-opt %s -test-print-ub-plan="ub-capacity=256 reuse=false" -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOREUSE256

// The placement ascendc-plan-memory writes (ascendc-plan-memory.mlir checks
// the same offsets in the IR). a and b are live together; c comes after
// both, so it takes a's bytes; without reuse every buffer has its own.
// The lower bound (most bytes live at once) does not depend on reuse.
// CHECK-LABEL: ub-plan @reuse: 3 buffers, 0 in place
// CHECK-NEXT: a UB [0, 256) live 5..8
// CHECK-NEXT: b UB [256, 512) live 6..7
// CHECK-NEXT: c UB [0, 256) live 9..10
// CHECK-NEXT: peak UB 512, lower bound 512
// NOREUSE-LABEL: ub-plan @reuse: 3 buffers, 0 in place
// NOREUSE-NEXT: a UB [0, 256) live 5..8
// NOREUSE-NEXT: b UB [256, 512) live 6..7
// NOREUSE-NEXT: c UB [512, 768) live 9..10
// NOREUSE-NEXT: peak UB 768, lower bound 512
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

// An elementwise chain: each result takes the bytes of the source that dies
// at its op (in place), so one 256-byte slot serves all three. Without reuse
// too (only in-place results share bytes then, as upstream's reuse_alloc=0).
// CHECK-LABEL: ub-plan @in_place: 3 buffers, 2 in place
// CHECK-NEXT: a UB [0, 256) live 6..7
// CHECK-NEXT: b UB [0, 256) live 7..8
// CHECK-NEXT: c UB [0, 256) live 8..9
// CHECK-NEXT: peak UB 256, lower bound 256
// NOREUSE-LABEL: ub-plan @in_place: 3 buffers, 2 in place
// NOREUSE-NEXT: a UB [0, 256) live 6..7
// NOREUSE-NEXT: b UB [0, 256) live 7..8
// NOREUSE-NEXT: c UB [0, 256) live 8..9
// NOREUSE-NEXT: peak UB 256, lower bound 256
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

// -----

// A multi-buffered loop: each slot's loaded and stored tiles get bytes of
// their own (no in-place result) while that fits the UB; with only 768
// bytes, a slot's result goes in place of its load after all.
// CHECK-LABEL: ub-plan @guarded: 4 buffers, 0 in place, DMA buffers apart
// CHECK-NEXT: x UB [0, 256) live 9..10
// CHECK-NEXT: z UB [256, 512) live 10..11
// CHECK-NEXT: x_1 UB [512, 768) live 15..16
// CHECK-NEXT: z_1 UB [768, 1024) live 16..17
// CHECK-NEXT: peak UB 1024, lower bound 1024
// SMALL-LABEL: ub-plan @guarded: 4 buffers, 2 in place
// SMALL-NEXT: x UB [0, 256) live 9..10
// SMALL-NEXT: z UB [0, 256) live 10..11
// SMALL-NEXT: x_1 UB [256, 512) live 15..16
// SMALL-NEXT: z_1 UB [256, 512) live 16..17
// SMALL-NEXT: peak UB 512, lower bound 512
// With 256 bytes even that does not fit: the copies share their bytes too
// (the second copy's load waits for the first copy's store), rather than fail.
// SHARE-LABEL: ub-plan @guarded: 4 buffers, 2 in place, unrolled copies share
// SHARE-NEXT: x UB [0, 256) live 9..10
// SHARE-NEXT: z UB [0, 256) live 10..11
// SHARE-NEXT: x_1 UB [0, 256) live 15..16
// SHARE-NEXT: z_1 UB [0, 256) live 16..17
// SHARE-NEXT: peak UB 256, lower bound 256
// Without reuse nothing shares but in-place results: over capacity, as asked.
// NOREUSE256-LABEL: ub-plan @guarded: 4 buffers, 2 in place
// NOREUSE256-NOT: share
// NOREUSE256: peak UB 512
func.func @guarded(%x: !ascendc.gm<f32>, %out: !ascendc.gm<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %x0 = ascendc.alloc_local {name = "x", slot = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %z0 = ascendc.alloc_local {name = "z", slot = 0 : i64} : !ascendc.local<64xf32, VECOUT>
  %x1 = ascendc.alloc_local {name = "x_1", slot = 1 : i64} : !ascendc.local<64xf32, VECIN>
  %z1 = ascendc.alloc_local {name = "z_1", slot = 1 : i64} : !ascendc.local<64xf32, VECOUT>
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
