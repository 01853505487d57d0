// RUN: asc2-opt %s -test-print-static-schedule -split-input-file -o /dev/null 2>&1 | FileCheck %s

// Synchronised IR (what ascendc-insert-sync makes of the inputs of
// ascendc-insert-sync.mlir and -guarded-copies.mlir, reasons dropped). Each
// lane lists the program points and ops of one pipe: a set_flag runs on its
// source pipe, a wait_flag on its destination; ops without a pipe are the
// scalar unit's.
// The primes (6, 7) are consumed by the first trip's waits (10, 15); the
// flags set in the body (18, 21) by the next trip's waits (wraps) or, after
// the last trip, by the drains (24, 23).
// CHECK-LABEL: static-schedule @vadd_loop: 26 ops, 8 edges
// CHECK-NEXT: lane S: 0 arith.constant, 1 arith.constant, 2 arith.constant, 3 ascendc.alloc_local, 4 ascendc.alloc_local, 5 ascendc.alloc_local, 8 scf.for, 9 arith.muli, 22 scf.yield, 25 func.return
// CHECK-NEXT: lane V: 6 ascendc.set_flag, 14 ascendc.wait_flag, 15 ascendc.wait_flag, 16 ascendc.add, 17 ascendc.set_flag, 18 ascendc.set_flag, 23 ascendc.wait_flag
// CHECK-NEXT: lane MTE2: 10 ascendc.wait_flag, 11 ascendc.data_copy_in, 12 ascendc.data_copy_in, 13 ascendc.set_flag, 24 ascendc.wait_flag
// CHECK-NEXT: lane MTE3: 7 ascendc.set_flag, 19 ascendc.wait_flag, 20 ascendc.data_copy_out, 21 ascendc.set_flag
// CHECK-NEXT: edge V -> MTE2 event 0: 6 -> 10
// CHECK-NEXT: edge MTE3 -> V event 0: 7 -> 15
// CHECK-NEXT: edge MTE2 -> V event 0: 13 -> 14
// CHECK-NEXT: edge V -> MTE3 event 0: 17 -> 19
// CHECK-NEXT: edge V -> MTE2 event 0: 18 -> 10 wraps
// CHECK-NEXT: edge V -> MTE2 event 0: 18 -> 24
// CHECK-NEXT: edge MTE3 -> V event 0: 21 -> 15 wraps
// CHECK-NEXT: edge MTE3 -> V event 0: 21 -> 23
func.func @vadd_loop(%arg0: !ascendc.gm<f32>, %arg1: !ascendc.gm<f32>, %arg2: !ascendc.gm<f32>, %arg3: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %0 = ascendc.alloc_local {name = "x", offset = 0 : i64} : !ascendc.local<256xf32, VECIN>
  %1 = ascendc.alloc_local {name = "y", offset = 1024 : i64} : !ascendc.local<256xf32, VECIN>
  %2 = ascendc.alloc_local {name = "z", offset = 2048 : i64} : !ascendc.local<256xf32, VECCALC>
  ascendc.set_flag V -> MTE2, 0
  ascendc.set_flag MTE3 -> V, 0
  scf.for %arg4 = %c0 to %arg3 step %c1 {
    %3 = arith.muli %arg4, %c256 : index
    ascendc.wait_flag V -> MTE2, 0
    ascendc.data_copy_in %0, %arg0[%3], %c256 : !ascendc.local<256xf32, VECIN>, !ascendc.gm<f32>
    ascendc.data_copy_in %1, %arg1[%3], %c256 : !ascendc.local<256xf32, VECIN>, !ascendc.gm<f32>
    ascendc.set_flag MTE2 -> V, 0
    ascendc.wait_flag MTE2 -> V, 0
    ascendc.wait_flag MTE3 -> V, 0
    ascendc.add %2, %0, %1, %c256 : !ascendc.local<256xf32, VECCALC>, !ascendc.local<256xf32, VECIN>, !ascendc.local<256xf32, VECIN>
    ascendc.set_flag V -> MTE3, 0
    ascendc.set_flag V -> MTE2, 0
    ascendc.wait_flag V -> MTE3, 0
    ascendc.data_copy_out %arg2[%3], %2, %c256 : !ascendc.gm<f32>, !ascendc.local<256xf32, VECCALC>
    ascendc.set_flag MTE3 -> V, 0
  }
  ascendc.wait_flag MTE3 -> V, 0
  ascendc.wait_flag V -> MTE2, 0
  return
}

// -----

// The guarded copy (scf.if at 26): both arms are paths. The primes 10 and 11
// reach the first trip's waits in either arm (31/41, 27/40); a set in either
// arm (33 then, 43 else) reaches the next trip's waits in both arms (wraps)
// and the drain after the last trip (46). The PIPE_ALL barrier of the
// skipped arm is on the ALL lane.
// CHECK-LABEL: static-schedule @guarded: 51 ops, 26 edges
// CHECK-NEXT: lane S: 0 arith.constant, 1 arith.constant, 2 arith.constant, 3 arith.constant, 4 ascendc.alloc_local, 5 ascendc.alloc_local, 6 ascendc.alloc_local, 7 ascendc.alloc_local, 12 scf.for, 24 arith.addi, 25 arith.cmpi, 26 scf.if, 38 scf.yield, 44 scf.yield, 45 scf.yield, 50 func.return
// CHECK-NEXT: lane V: 8 ascendc.set_flag, 11 ascendc.set_flag, 16 ascendc.wait_flag, 17 ascendc.wait_flag, 18 ascendc.exp, 19 ascendc.set_flag, 20 ascendc.set_flag, 30 ascendc.wait_flag, 31 ascendc.wait_flag, 32 ascendc.exp, 33 ascendc.set_flag, 34 ascendc.set_flag, 41 ascendc.wait_flag, 43 ascendc.set_flag, 47 ascendc.wait_flag, 48 ascendc.wait_flag
// CHECK-NEXT: lane MTE2: 13 ascendc.wait_flag, 14 ascendc.data_copy_in, 15 ascendc.set_flag, 27 ascendc.wait_flag, 28 ascendc.data_copy_in, 29 ascendc.set_flag, 40 ascendc.wait_flag, 46 ascendc.wait_flag, 49 ascendc.wait_flag
// CHECK-NEXT: lane MTE3: 9 ascendc.set_flag, 10 ascendc.set_flag, 21 ascendc.wait_flag, 22 ascendc.data_copy_out, 23 ascendc.set_flag, 35 ascendc.wait_flag, 36 ascendc.data_copy_out, 37 ascendc.set_flag, 42 ascendc.set_flag
// CHECK-NEXT: lane ALL: 39 ascendc.pipe_barrier
// CHECK-NEXT: edge V -> MTE2 event 0: 8 -> 13
// CHECK-NEXT: edge MTE3 -> V event 0: 9 -> 17
// CHECK-NEXT: edge MTE3 -> V event 1: 10 -> 31
// CHECK-NEXT: edge MTE3 -> V event 1: 10 -> 41
// CHECK-NEXT: edge V -> MTE2 event 1: 11 -> 27
// CHECK-NEXT: edge V -> MTE2 event 1: 11 -> 40
// CHECK-NEXT: edge MTE2 -> V event 1: 15 -> 16
// CHECK-NEXT: edge V -> MTE3 event 1: 19 -> 21
// CHECK-NEXT: edge V -> MTE2 event 0: 20 -> 13 wraps
// CHECK-NEXT: edge V -> MTE2 event 0: 20 -> 49
// CHECK-NEXT: edge MTE3 -> V event 0: 23 -> 17 wraps
// CHECK-NEXT: edge MTE3 -> V event 0: 23 -> 48
// CHECK-NEXT: edge MTE2 -> V event 0: 29 -> 30
// CHECK-NEXT: edge V -> MTE2 event 1: 33 -> 27 wraps
// CHECK-NEXT: edge V -> MTE2 event 1: 33 -> 40 wraps
// CHECK-NEXT: edge V -> MTE2 event 1: 33 -> 46
// CHECK-NEXT: edge V -> MTE3 event 0: 34 -> 35
// CHECK-NEXT: edge MTE3 -> V event 1: 37 -> 31 wraps
// CHECK-NEXT: edge MTE3 -> V event 1: 37 -> 41 wraps
// CHECK-NEXT: edge MTE3 -> V event 1: 37 -> 47
// CHECK-NEXT: edge MTE3 -> V event 1: 42 -> 31 wraps
// CHECK-NEXT: edge MTE3 -> V event 1: 42 -> 41 wraps
// CHECK-NEXT: edge MTE3 -> V event 1: 42 -> 47
// CHECK-NEXT: edge V -> MTE2 event 1: 43 -> 27 wraps
// CHECK-NEXT: edge V -> MTE2 event 1: 43 -> 40 wraps
// CHECK-NEXT: edge V -> MTE2 event 1: 43 -> 46
func.func @guarded(%arg0: !ascendc.gm<f32>, %arg1: !ascendc.gm<f32>, %arg2: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %0 = ascendc.alloc_local {name = "x", offset = 0 : i64, slot = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %1 = ascendc.alloc_local {name = "z", offset = 256 : i64, slot = 0 : i64} : !ascendc.local<64xf32, VECOUT>
  %2 = ascendc.alloc_local {name = "x_1", offset = 512 : i64, slot = 1 : i64} : !ascendc.local<64xf32, VECIN>
  %3 = ascendc.alloc_local {name = "z_1", offset = 768 : i64, slot = 1 : i64} : !ascendc.local<64xf32, VECOUT>
  ascendc.set_flag V -> MTE2, 0
  ascendc.set_flag MTE3 -> V, 0
  ascendc.set_flag MTE3 -> V, 1
  ascendc.set_flag V -> MTE2, 1
  scf.for %arg3 = %c0 to %arg2 step %c2 {
    ascendc.wait_flag V -> MTE2, 0
    ascendc.data_copy_in %0, %arg0[%arg3], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
    ascendc.set_flag MTE2 -> V, 1
    ascendc.wait_flag MTE2 -> V, 1
    ascendc.wait_flag MTE3 -> V, 0
    ascendc.exp %1, %0, %c64 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECIN>
    ascendc.set_flag V -> MTE3, 1
    ascendc.set_flag V -> MTE2, 0
    ascendc.wait_flag V -> MTE3, 1
    ascendc.data_copy_out %arg1[%arg3], %1, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECOUT>
    ascendc.set_flag MTE3 -> V, 0
    %4 = arith.addi %arg3, %c1 : index
    %5 = arith.cmpi slt, %4, %arg2 : index
    scf.if %5 {
      ascendc.wait_flag V -> MTE2, 1
      ascendc.data_copy_in %2, %arg0[%4], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
      ascendc.set_flag MTE2 -> V, 0
      ascendc.wait_flag MTE2 -> V, 0
      ascendc.wait_flag MTE3 -> V, 1
      ascendc.exp %3, %2, %c64 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECIN>
      ascendc.set_flag V -> MTE2, 1
      ascendc.set_flag V -> MTE3, 0
      ascendc.wait_flag V -> MTE3, 0
      ascendc.data_copy_out %arg1[%4], %3, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECOUT>
      ascendc.set_flag MTE3 -> V, 1
    } else {
      ascendc.pipe_barrier ALL
      ascendc.wait_flag V -> MTE2, 1
      ascendc.wait_flag MTE3 -> V, 1
      ascendc.set_flag MTE3 -> V, 1
      ascendc.set_flag V -> MTE2, 1
    }
  } {asctile.unrolled_by = 2 : i64}
  ascendc.wait_flag V -> MTE2, 1
  ascendc.wait_flag MTE3 -> V, 1
  ascendc.wait_flag MTE3 -> V, 0
  ascendc.wait_flag V -> MTE2, 0
  return
}

// -----

// Buffer ids (ascendc-insert-buf-id-sync's vadd_loop): each rls_buf reaches
// the next get_buf of its id on another pipe; the loads' ids come back from
// the add of the previous trip (wraps). A pipe's own release and take (none
// here) draw no edge.
// CHECK-LABEL: static-schedule @vadd_loop: 26 ops, 6 edges
// CHECK-NEXT: lane S: 0 arith.constant, 1 arith.constant, 2 arith.constant, 3 ascendc.alloc_local, 4 ascendc.alloc_local, 5 ascendc.alloc_local, 6 scf.for, 7 arith.muli, 24 scf.yield, 25 func.return
// CHECK-NEXT: lane V: 14 ascendc.get_buf, 15 ascendc.get_buf, 16 ascendc.get_buf, 17 ascendc.add, 18 ascendc.rls_buf, 19 ascendc.rls_buf, 20 ascendc.rls_buf
// CHECK-NEXT: lane MTE2: 8 ascendc.get_buf, 9 ascendc.data_copy_in, 10 ascendc.rls_buf, 11 ascendc.get_buf, 12 ascendc.data_copy_in, 13 ascendc.rls_buf
// CHECK-NEXT: lane MTE3: 21 ascendc.get_buf, 22 ascendc.data_copy_out, 23 ascendc.rls_buf
// CHECK-NEXT: buf-id MTE2 -> V id 0: 10 -> 14
// CHECK-NEXT: buf-id MTE2 -> V id 1: 13 -> 15
// CHECK-NEXT: buf-id V -> MTE3 id 2: 18 -> 21
// CHECK-NEXT: buf-id V -> MTE2 id 1: 19 -> 11 wraps
// CHECK-NEXT: buf-id V -> MTE2 id 0: 20 -> 8 wraps
// CHECK-NEXT: buf-id MTE3 -> V id 2: 23 -> 16 wraps
func.func @vadd_loop(%arg0: !ascendc.gm<f32>, %arg1: !ascendc.gm<f32>, %arg2: !ascendc.gm<f32>, %arg3: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %0 = ascendc.alloc_local {name = "x", offset = 0 : i64} : !ascendc.local<256xf32, VECIN>
  %1 = ascendc.alloc_local {name = "y", offset = 1024 : i64} : !ascendc.local<256xf32, VECIN>
  %2 = ascendc.alloc_local {name = "z", offset = 2048 : i64} : !ascendc.local<256xf32, VECCALC>
  scf.for %arg4 = %c0 to %arg3 step %c1 {
    %3 = arith.muli %arg4, %c256 : index
    ascendc.get_buf MTE2, 0
    ascendc.data_copy_in %0, %arg0[%3], %c256 : !ascendc.local<256xf32, VECIN>, !ascendc.gm<f32>
    ascendc.rls_buf MTE2, 0
    ascendc.get_buf MTE2, 1
    ascendc.data_copy_in %1, %arg1[%3], %c256 : !ascendc.local<256xf32, VECIN>, !ascendc.gm<f32>
    ascendc.rls_buf MTE2, 1
    ascendc.get_buf V, 0
    ascendc.get_buf V, 1
    ascendc.get_buf V, 2
    ascendc.add %2, %0, %1, %c256 : !ascendc.local<256xf32, VECCALC>, !ascendc.local<256xf32, VECIN>, !ascendc.local<256xf32, VECIN>
    ascendc.rls_buf V, 2
    ascendc.rls_buf V, 1
    ascendc.rls_buf V, 0
    ascendc.get_buf MTE3, 2
    ascendc.data_copy_out %arg2[%3], %2, %c256 : !ascendc.gm<f32>, !ascendc.local<256xf32, VECCALC>
    ascendc.rls_buf MTE3, 2
  }
  return
}

// -----

// A MIX kernel (ascendc-insert-sync-cross-core.mlir's first case): every op
// names the core it runs on; MTE2 works on both (the cube's loads into L1,
// the vector core's into UB). The fixpipe's flag to the vector core's load
// crosses cores.
// CHECK-LABEL: static-schedule @mix: 38 ops, 7 edges
// CHECK-NEXT: lane S: 0 arith.constant, 1 arith.constant, 2 arith.constant, 3 arith.constant, 4 ascendc.alloc_local, 5 ascendc.alloc_local, 6 ascendc.alloc_local, 7 ascendc.alloc_local, 8 ascendc.alloc_local, 9 ascendc.alloc_local, 10 ascendc.alloc_local, 11 ascendc.alloc_local, 37 func.return
// CHECK-NEXT: lane V: 30 ascendc.wait_flag (vector), 31 ascendc.muls (vector), 32 ascendc.pipe_barrier (vector), 33 ascendc.max (vector), 34 ascendc.set_flag (vector)
// CHECK-NEXT: lane M: 21 ascendc.wait_flag (cube), 22 ascendc.mmad (cube), 23 ascendc.set_flag (cube)
// CHECK-NEXT: lane MTE1: 14 ascendc.wait_flag (cube), 15 ascendc.load_data (cube), 18 ascendc.wait_flag (cube), 19 ascendc.load_data (cube), 20 ascendc.set_flag (cube)
// CHECK-NEXT: lane MTE2: 12 ascendc.data_copy_in (cube), 13 ascendc.set_flag (cube), 16 ascendc.data_copy_in (cube), 17 ascendc.set_flag (cube), 27 ascendc.wait_flag (vector), 28 ascendc.data_copy_in (vector), 29 ascendc.set_flag (vector)
// CHECK-NEXT: lane MTE3: 35 ascendc.wait_flag (vector), 36 ascendc.data_copy_out (vector)
// CHECK-NEXT: lane FIX: 24 ascendc.wait_flag (cube), 25 ascendc.fixpipe (cube), 26 ascendc.set_flag (cube)
// CHECK-NEXT: edge MTE2 -> MTE1 event 0: 13 -> 14
// CHECK-NEXT: edge MTE2 -> MTE1 event 1: 17 -> 18
// CHECK-NEXT: edge MTE1 -> M event 0: 20 -> 21
// CHECK-NEXT: edge M -> FIX event 0: 23 -> 24
// CHECK-NEXT: edge FIX -> MTE2 event 0: 26 -> 27 cross-core
// CHECK-NEXT: edge MTE2 -> V event 0: 29 -> 30
// CHECK-NEXT: edge V -> MTE3 event 0: 34 -> 35
func.func @mix(%arg0: !ascendc.gm<f16>, %arg1: !ascendc.gm<f16>, %arg2: !ascendc.gm<f32>, %arg3: !ascendc.gm<f32>, %arg4: f32) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  %true = arith.constant true
  %0 = ascendc.alloc_local {name = "acc", offset = 0 : i64} : !ascendc.local<64x64xf32, CO1>
  %1 = ascendc.alloc_local {name = "a1", offset = 0 : i64} : !ascendc.local<64x64xf16, A1>
  %2 = ascendc.alloc_local {name = "a2", offset = 0 : i64} : !ascendc.local<64x64xf16, A2>
  %3 = ascendc.alloc_local {name = "b1", offset = 8192 : i64} : !ascendc.local<64x64xf16, B1>
  %4 = ascendc.alloc_local {name = "b2", offset = 0 : i64} : !ascendc.local<64x64xf16, B2>
  %5 = ascendc.alloc_local {name = "x", offset = 0 : i64} : !ascendc.local<64x64xf32, VECIN>
  %6 = ascendc.alloc_local {name = "y", offset = 16384 : i64} : !ascendc.local<64x64xf32, VECCALC>
  %7 = ascendc.alloc_local {name = "z", offset = 32768 : i64} : !ascendc.local<64x64xf32, VECOUT>
  ascendc.data_copy_in %1, %arg0[%c0], %c64 rows %c64 stride %c64 : !ascendc.local<64x64xf16, A1>, !ascendc.gm<f16>
  ascendc.set_flag MTE2 -> MTE1, 0 {core = "cube"}
  ascendc.wait_flag MTE2 -> MTE1, 0 {core = "cube"}
  ascendc.load_data %2, %1 : !ascendc.local<64x64xf16, A2>, !ascendc.local<64x64xf16, A1>
  ascendc.data_copy_in %3, %arg1[%c0], %c64 rows %c64 stride %c64 : !ascendc.local<64x64xf16, B1>, !ascendc.gm<f16>
  ascendc.set_flag MTE2 -> MTE1, 1 {core = "cube"}
  ascendc.wait_flag MTE2 -> MTE1, 1 {core = "cube"}
  ascendc.load_data %4, %3 : !ascendc.local<64x64xf16, B2>, !ascendc.local<64x64xf16, B1>
  ascendc.set_flag MTE1 -> M, 0 {core = "cube"}
  ascendc.wait_flag MTE1 -> M, 0 {core = "cube"}
  ascendc.mmad %0, %2, %4, %true : !ascendc.local<64x64xf32, CO1>, !ascendc.local<64x64xf16, A2>, !ascendc.local<64x64xf16, B2>
  ascendc.set_flag M -> FIX, 0 {core = "cube"}
  ascendc.wait_flag M -> FIX, 0 {core = "cube"}
  ascendc.fixpipe %arg2[%c0], %0, %c64 rows %c64 stride %c64 : !ascendc.gm<f32>, !ascendc.local<64x64xf32, CO1>
  ascendc.set_flag FIX -> MTE2, 0 {core = "cube", cross_core}
  ascendc.wait_flag FIX -> MTE2, 0 {core = "vector", cross_core}
  ascendc.data_copy_in %5, %arg2[%c0], %c64 rows %c64 stride %c64 : !ascendc.local<64x64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.set_flag MTE2 -> V, 0 {core = "vector"}
  ascendc.wait_flag MTE2 -> V, 0 {core = "vector"}
  ascendc.muls %6, %5, %arg4, %c4096 : !ascendc.local<64x64xf32, VECCALC>, !ascendc.local<64x64xf32, VECIN>, f32
  ascendc.pipe_barrier V {core = "vector"}
  ascendc.max %7, %5, %6, %c4096 : !ascendc.local<64x64xf32, VECOUT>, !ascendc.local<64x64xf32, VECIN>, !ascendc.local<64x64xf32, VECCALC>
  ascendc.set_flag V -> MTE3, 0 {core = "vector"}
  ascendc.wait_flag V -> MTE3, 0 {core = "vector"}
  ascendc.data_copy_out %arg3[%c0], %7, %c64 rows %c64 stride %c64 : !ascendc.gm<f32>, !ascendc.local<64x64xf32, VECOUT>
  return
}
