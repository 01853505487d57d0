// RUN: asc2-opt %s -test-print-sync-plan -split-input-file -o /dev/null 2>&1 | FileCheck %s
// RUN: asc2-opt %s -test-print-sync-plan=event-ids=1 -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE

// The hazards ascendc-insert-sync orders, in the order it plans them (nested
// blocks first, then program order); program points of this input.
// A single-buffered loop: 8 loads x, 9 loads y, 10 adds them into z, 11
// stores z. Within the trip: RAW MTE2 -> V (the later load, y) and RAW V ->
// MTE3; across trips: the next loads must wait for the add to read x and y
// (WAR V -> MTE2, waited before the first load) and the next add for the
// store of z (WAR MTE3 -> V).
// CHECK-LABEL: sync-plan @vadd_loop: 4 pairs, 0 barriers
// CHECK-NEXT: WAR V -> MTE2 on x: ascendc.add @10 -> ascendc.data_copy_in @8; event 0, loop-carried
// CHECK-NEXT: RAW MTE2 -> V on y: ascendc.data_copy_in @9 -> ascendc.add @10; event 0
// CHECK-NEXT: WAR MTE3 -> V on z: ascendc.data_copy_out @11 -> ascendc.add @10; event 0, loop-carried
// CHECK-NEXT: RAW V -> MTE3 on z: ascendc.add @10 -> ascendc.data_copy_out @11; event 0
// CHECK-NOT: pipe_barrier
func.func @vadd_loop(%x: !ascendc.gm<f32>, %y: !ascendc.gm<f32>, %out: !ascendc.gm<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %bx = ascendc.alloc_local {name = "x", offset = 0 : i64} : !ascendc.local<256xf32, VECIN>
  %by = ascendc.alloc_local {name = "y", offset = 1024 : i64} : !ascendc.local<256xf32, VECIN>
  %bz = ascendc.alloc_local {name = "z", offset = 2048 : i64} : !ascendc.local<256xf32, VECCALC>
  scf.for %i = %c0 to %n step %c1 {
    %off = arith.muli %i, %c256 : index
    ascendc.data_copy_in %bx, %x[%off], %c256 : !ascendc.local<256xf32, VECIN>, !ascendc.gm<f32>
    ascendc.data_copy_in %by, %y[%off], %c256 : !ascendc.local<256xf32, VECIN>, !ascendc.gm<f32>
    ascendc.add %bz, %bx, %by, %c256 : !ascendc.local<256xf32, VECCALC>, !ascendc.local<256xf32, VECIN>, !ascendc.local<256xf32, VECIN>
    ascendc.data_copy_out %out[%off], %bz, %c256 : !ascendc.gm<f32>, !ascendc.local<256xf32, VECCALC>
  }
  return
}

// -----

// Unnamed buffers are named by their planned bytes. The V -> V RAW is a
// barrier; the store to the tensor the load read (a WAR on GM) needs no pair
// of its own: the store waits for V, which waited for the load.
// CHECK-LABEL: sync-plan @vector_chain: 2 pairs, 1 barriers
// CHECK-NEXT: RAW MTE2 -> V on UB[0, 256): ascendc.data_copy_in @5 -> ascendc.exp @6; event 0
// CHECK-NEXT: RAW V -> V on UB[256, 512): ascendc.exp @6 -> ascendc.add @7; pipe_barrier V
// CHECK-NEXT: RAW V -> MTE3 on UB[512, 768): ascendc.add @7 -> ascendc.data_copy_out @8; event 0
// CHECK-NOT: WAR MTE2 -> MTE3
func.func @vector_chain(%x: !ascendc.gm<f32>) {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %a = ascendc.alloc_local {offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %b = ascendc.alloc_local {offset = 256 : i64} : !ascendc.local<64xf32, VECCALC>
  %c = ascendc.alloc_local {offset = 512 : i64} : !ascendc.local<64xf32, VECCALC>
  ascendc.data_copy_in %a, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.exp %b, %a, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  ascendc.add %c, %b, %a, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  ascendc.data_copy_out %x[%c0], %c, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECCALC>
  return
}

// -----

// A loop unrolled by two, the second copy (15 load, 16 exp, 17 store) under
// the guard at 14. The guard's own block is planned first; ids already used
// by a pipe pair anywhere are avoided. With one id per pipe pair, a pair of
// the body may reuse id 0 only when a flag the other way orders the two
// uses: nothing orders the vector pipe's wait at 10 before MTE2's set after
// 15 (MTE2 may load x and x_1 before the vector pipe waits for x), so the
// body's RAW pairs and the guarded copy's loop-carried flags (none free
// from the prime to the drain) become PIPE_ALL barriers.
// CHECK-LABEL: sync-plan @guarded: 8 pairs, 1 barriers
// CHECK-NEXT: RAW MTE2 -> V on x_1: ascendc.data_copy_in @15 -> ascendc.exp @16; event 0
// CHECK-NEXT: RAW V -> MTE3 on z_1: ascendc.exp @16 -> ascendc.data_copy_out @17; event 0
// CHECK-NEXT: WAR V -> MTE2 on x: ascendc.exp @10 -> ascendc.data_copy_in @9; event 0, loop-carried
// CHECK-NEXT: RAW MTE2 -> V on x: ascendc.data_copy_in @9 -> ascendc.exp @10; event 1
// CHECK-NEXT: WAR MTE3 -> V on z: ascendc.data_copy_out @11 -> ascendc.exp @10; event 0, loop-carried
// CHECK-NEXT: RAW V -> MTE3 on z: ascendc.exp @10 -> ascendc.data_copy_out @11; event 1
// CHECK-NEXT: WAR MTE3 -> V on z_1: ascendc.data_copy_out @17 -> ascendc.exp @16; event 1, loop-carried
// CHECK-NEXT: WAR V -> MTE2 on x_1: ascendc.exp @16 -> ascendc.data_copy_in @15; event 1, loop-carried
// CHECK-NEXT: pipe_barrier ALL in the skipped branch of scf.if @14
// ONE-LABEL: sync-plan @guarded: 4 pairs, 5 barriers
// ONE: RAW MTE2 -> V on x: ascendc.data_copy_in @9 -> ascendc.exp @10; pipe_barrier ALL (no free event id)
// ONE: RAW V -> MTE3 on z: ascendc.exp @10 -> ascendc.data_copy_out @11; pipe_barrier ALL (no free event id)
// ONE: WAR MTE3 -> V on z_1: ascendc.data_copy_out @17 -> ascendc.exp @16; pipe_barrier ALL (no free event id), loop-carried
// ONE-NEXT: WAR V -> MTE2 on x_1: ascendc.exp @16 -> ascendc.data_copy_in @15; pipe_barrier ALL (no free event id), loop-carried
// ONE-NEXT: pipe_barrier ALL in the skipped branch of scf.if @14
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

// A MIX kernel: the flag from the cube's fixpipe to the vector core's load
// of the same workspace crosses cores.
// CHECK-LABEL: sync-plan @mix: 7 pairs, 1 barriers
// CHECK: RAW M -> FIX on acc: ascendc.mmad @16 -> ascendc.fixpipe @17; event 0, set on cube, wait on cube
// CHECK-NEXT: RAW FIX -> MTE2 on arg2: ascendc.fixpipe @17 -> ascendc.data_copy_in @18; event 0, set on cube, wait on vector, cross-core
// CHECK-NEXT: RAW MTE2 -> V on x: ascendc.data_copy_in @18 -> ascendc.muls @19; event 0, set on vector, wait on vector
// CHECK-NEXT: RAW V -> V on y: ascendc.muls @19 -> ascendc.max @20; pipe_barrier V
func.func @mix(%a: !ascendc.gm<f16>, %b: !ascendc.gm<f16>, %ws: !ascendc.gm<f32>, %out: !ascendc.gm<f32>, %alpha: f32) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  %true = arith.constant true
  %acc = ascendc.alloc_local {name = "acc", offset = 0 : i64} : !ascendc.local<64x64xf32, CO1>
  %a1 = ascendc.alloc_local {name = "a1", offset = 0 : i64} : !ascendc.local<64x64xf16, A1>
  %a2 = ascendc.alloc_local {name = "a2", offset = 0 : i64} : !ascendc.local<64x64xf16, A2>
  %b1 = ascendc.alloc_local {name = "b1", offset = 8192 : i64} : !ascendc.local<64x64xf16, B1>
  %b2 = ascendc.alloc_local {name = "b2", offset = 0 : i64} : !ascendc.local<64x64xf16, B2>
  %x = ascendc.alloc_local {name = "x", offset = 0 : i64} : !ascendc.local<64x64xf32, VECIN>
  %y = ascendc.alloc_local {name = "y", offset = 16384 : i64} : !ascendc.local<64x64xf32, VECCALC>
  %z = ascendc.alloc_local {name = "z", offset = 32768 : i64} : !ascendc.local<64x64xf32, VECOUT>
  ascendc.data_copy_in %a1, %a[%c0], %c64 rows %c64 stride %c64 : !ascendc.local<64x64xf16, A1>, !ascendc.gm<f16>
  ascendc.load_data %a2, %a1 : !ascendc.local<64x64xf16, A2>, !ascendc.local<64x64xf16, A1>
  ascendc.data_copy_in %b1, %b[%c0], %c64 rows %c64 stride %c64 : !ascendc.local<64x64xf16, B1>, !ascendc.gm<f16>
  ascendc.load_data %b2, %b1 : !ascendc.local<64x64xf16, B2>, !ascendc.local<64x64xf16, B1>
  ascendc.mmad %acc, %a2, %b2, %true : !ascendc.local<64x64xf32, CO1>, !ascendc.local<64x64xf16, A2>, !ascendc.local<64x64xf16, B2>
  ascendc.fixpipe %ws[%c0], %acc, %c64 rows %c64 stride %c64 : !ascendc.gm<f32>, !ascendc.local<64x64xf32, CO1>
  ascendc.data_copy_in %x, %ws[%c0], %c64 rows %c64 stride %c64 : !ascendc.local<64x64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.muls %y, %x, %alpha, %c4096 : !ascendc.local<64x64xf32, VECCALC>, !ascendc.local<64x64xf32, VECIN>, f32
  ascendc.max %z, %x, %y, %c4096 : !ascendc.local<64x64xf32, VECOUT>, !ascendc.local<64x64xf32, VECIN>, !ascendc.local<64x64xf32, VECCALC>
  ascendc.data_copy_out %out[%c0], %z, %c64 rows %c64 stride %c64 : !ascendc.gm<f32>, !ascendc.local<64x64xf32, VECOUT>
  return
}
