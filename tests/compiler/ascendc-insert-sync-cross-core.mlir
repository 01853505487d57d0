// RUN: asc2-opt %s -ascendc-insert-sync -split-input-file | FileCheck %s

// A MIX kernel: cube work (L1/L0 buffers, MTE1/M/FIX) runs on the AIC,
// vector work (UB, V) on the AIV. Every sync op records the core it runs on:
// a set the core of the op it follows, a wait the core of the op it guards.
// A pair between the two cores (through GM) becomes a cross-core flag.

// Cube -> vector: the fixpipe writes the workspace the vector core loads.
// CHECK-LABEL: func.func @cube_to_vector
// CHECK: ascendc.set_flag MTE2 -> MTE1, {{[0-9]+}} {core = "cube", reason = "RAW on a1:
// CHECK: ascendc.set_flag M -> FIX, [[MF:[0-9]+]] {core = "cube", reason = "RAW on acc:
// CHECK-NEXT: ascendc.wait_flag M -> FIX, [[MF]] {core = "cube", reason = "RAW on acc:
// CHECK-NEXT: ascendc.fixpipe %
// CHECK-NEXT: ascendc.set_flag FIX -> MTE2, [[X:[0-9]+]] {core = "cube", cross_core, reason = "RAW on arg2: ascendc.fixpipe (FIX, {{.*}}) -> ascendc.data_copy_in (MTE2,
// CHECK-NEXT: ascendc.wait_flag FIX -> MTE2, [[X]] {core = "vector", cross_core, reason = "RAW on arg2:
// CHECK-NEXT: ascendc.data_copy_in %
// CHECK-NEXT: ascendc.set_flag MTE2 -> V, [[MV:[0-9]+]] {core = "vector", reason = "RAW on x:
// CHECK-NEXT: ascendc.wait_flag MTE2 -> V, [[MV]] {core = "vector", reason = "RAW on x:
// CHECK-NEXT: ascendc.muls %
// Same-pipe barriers record their core too.
// CHECK-NEXT: ascendc.pipe_barrier V {core = "vector", reason = "RAW on y:
// CHECK-NEXT: ascendc.max %
// CHECK-NEXT: ascendc.set_flag V -> MTE3, {{[0-9]+}} {core = "vector", reason = "RAW on z:
// CHECK-NOT: cross_core
// CHECK: return
func.func @cube_to_vector(%a: !ascendc.gm<f16>, %b: !ascendc.gm<f16>, %ws: !ascendc.gm<f32>, %out: !ascendc.gm<f32>, %alpha: f32) {
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

// -----

// Vector -> cube: the vector core writes the workspace the cube core loads
// into L1; only that pair crosses cores.
// CHECK-LABEL: func.func @vector_to_cube
// CHECK-NOT: cross_core
// CHECK: ascendc.data_copy_out %
// CHECK-NEXT: ascendc.set_flag MTE3 -> MTE2, [[X:[0-9]+]] {core = "vector", cross_core, reason = "RAW on arg1: ascendc.data_copy_out (MTE3, {{.*}}) -> ascendc.data_copy_in (MTE2,
// CHECK-NEXT: ascendc.wait_flag MTE3 -> MTE2, [[X]] {core = "cube", cross_core, reason = "RAW on arg1:
// CHECK-NEXT: ascendc.data_copy_in %
// CHECK-NEXT: ascendc.set_flag MTE2 -> MTE1, {{[0-9]+}} {core = "cube", reason = "RAW on a1:
// CHECK-NOT: cross_core
// CHECK: return
func.func @vector_to_cube(%x: !ascendc.gm<f16>, %ws: !ascendc.gm<f16>, %b: !ascendc.gm<f16>, %out: !ascendc.gm<f32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  %true = arith.constant true
  %t = ascendc.alloc_local {name = "t", offset = 0 : i64} : !ascendc.local<64x64xf16, VECIN>
  %u = ascendc.alloc_local {name = "u", offset = 8192 : i64} : !ascendc.local<64x64xf16, VECOUT>
  %a1 = ascendc.alloc_local {name = "a1", offset = 0 : i64} : !ascendc.local<64x64xf16, A1>
  %a2 = ascendc.alloc_local {name = "a2", offset = 0 : i64} : !ascendc.local<64x64xf16, A2>
  %b1 = ascendc.alloc_local {name = "b1", offset = 8192 : i64} : !ascendc.local<64x64xf16, B1>
  %b2 = ascendc.alloc_local {name = "b2", offset = 0 : i64} : !ascendc.local<64x64xf16, B2>
  %acc = ascendc.alloc_local {name = "acc", offset = 0 : i64} : !ascendc.local<64x64xf32, CO1>
  ascendc.data_copy_in %t, %x[%c0], %c64 rows %c64 stride %c64 : !ascendc.local<64x64xf16, VECIN>, !ascendc.gm<f16>
  ascendc.abs %u, %t, %c4096 : !ascendc.local<64x64xf16, VECOUT>, !ascendc.local<64x64xf16, VECIN>
  ascendc.data_copy_out %ws[%c0], %u, %c64 rows %c64 stride %c64 : !ascendc.gm<f16>, !ascendc.local<64x64xf16, VECOUT>
  ascendc.data_copy_in %a1, %ws[%c0], %c64 rows %c64 stride %c64 : !ascendc.local<64x64xf16, A1>, !ascendc.gm<f16>
  ascendc.load_data %a2, %a1 : !ascendc.local<64x64xf16, A2>, !ascendc.local<64x64xf16, A1>
  ascendc.data_copy_in %b1, %b[%c0], %c64 rows %c64 stride %c64 : !ascendc.local<64x64xf16, B1>, !ascendc.gm<f16>
  ascendc.load_data %b2, %b1 : !ascendc.local<64x64xf16, B2>, !ascendc.local<64x64xf16, B1>
  ascendc.mmad %acc, %a2, %b2, %true : !ascendc.local<64x64xf32, CO1>, !ascendc.local<64x64xf16, A2>, !ascendc.local<64x64xf16, B2>
  ascendc.fixpipe %out[%c0], %acc, %c64 rows %c64 stride %c64 : !ascendc.gm<f32>, !ascendc.local<64x64xf32, CO1>
  return
}

// -----

// What one core's pipe waited for orders nothing on the other core's pipe of
// the same name: the vector core's MTE2 waits (through the fixpipe) for the
// cube's load of b1, but the cube's MTE2 reusing b1's bytes for c1 must wait
// for that load itself.
// CHECK-LABEL: func.func @waits_are_per_core
// CHECK: ascendc.wait_flag FIX -> MTE2, {{[0-9]+}} {core = "vector", cross_core
// CHECK: ascendc.data_copy_in %{{.*}} : !ascendc.local<64x64xf32, VECIN>
// CHECK: ascendc.wait_flag MTE1 -> MTE2, {{[0-9]+}} {core = "cube", reason = "WAR on c1: ascendc.load_data (MTE1,
// CHECK-NEXT: ascendc.data_copy_in %{{.*}} : !ascendc.local<64x64xf16, A1>
func.func @waits_are_per_core(%a: !ascendc.gm<f16>, %b: !ascendc.gm<f16>, %ws: !ascendc.gm<f32>, %out: !ascendc.gm<f32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %true = arith.constant true
  %acc = ascendc.alloc_local {name = "acc", offset = 0 : i64} : !ascendc.local<64x64xf32, CO1>
  %a1 = ascendc.alloc_local {name = "a1", offset = 0 : i64} : !ascendc.local<64x64xf16, A1>
  %a2 = ascendc.alloc_local {name = "a2", offset = 0 : i64} : !ascendc.local<64x64xf16, A2>
  %b1 = ascendc.alloc_local {name = "b1", offset = 8192 : i64} : !ascendc.local<64x64xf16, B1>
  %b2 = ascendc.alloc_local {name = "b2", offset = 0 : i64} : !ascendc.local<64x64xf16, B2>
  %c1 = ascendc.alloc_local {name = "c1", offset = 8192 : i64} : !ascendc.local<64x64xf16, A1>
  %x = ascendc.alloc_local {name = "x", offset = 0 : i64} : !ascendc.local<64x64xf32, VECIN>
  ascendc.data_copy_in %a1, %a[%c0], %c64 rows %c64 stride %c64 : !ascendc.local<64x64xf16, A1>, !ascendc.gm<f16>
  ascendc.load_data %a2, %a1 : !ascendc.local<64x64xf16, A2>, !ascendc.local<64x64xf16, A1>
  ascendc.data_copy_in %b1, %b[%c0], %c64 rows %c64 stride %c64 : !ascendc.local<64x64xf16, B1>, !ascendc.gm<f16>
  ascendc.load_data %b2, %b1 : !ascendc.local<64x64xf16, B2>, !ascendc.local<64x64xf16, B1>
  ascendc.mmad %acc, %a2, %b2, %true : !ascendc.local<64x64xf32, CO1>, !ascendc.local<64x64xf16, A2>, !ascendc.local<64x64xf16, B2>
  ascendc.fixpipe %ws[%c0], %acc, %c64 rows %c64 stride %c64 : !ascendc.gm<f32>, !ascendc.local<64x64xf32, CO1>
  ascendc.data_copy_in %x, %ws[%c0], %c64 rows %c64 stride %c64 : !ascendc.local<64x64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.data_copy_in %c1, %a[%c0], %c64 rows %c64 stride %c64 : !ascendc.local<64x64xf16, A1>, !ascendc.gm<f16>
  ascendc.data_copy_out %out[%c0], %x, %c64 rows %c64 stride %c64 : !ascendc.gm<f32>, !ascendc.local<64x64xf32, VECIN>
  return
}

// -----

// A guard holding work of both cores runs on "either"; the flags placed
// around it run where the two accesses of their hazard run, never untagged
// (an untagged V flag would run on the cube core too).
// CHECK-LABEL: func.func @mixed_guard
// CHECK-NOT: ascendc.{{set|wait}}_flag {{.*}} {reason
// CHECK: return
func.func @mixed_guard(%x: !ascendc.gm<f16>, %ws: !ascendc.gm<f16>, %b: !ascendc.gm<f16>, %out: !ascendc.gm<f32>, %go: i1) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  %cst = arith.constant 0.0 : f16
  %true = arith.constant true
  %u = ascendc.alloc_local {name = "u", offset = 0 : i64} : !ascendc.local<64x64xf16, VECIN>
  %v = ascendc.alloc_local {name = "v", offset = 8192 : i64} : !ascendc.local<64x64xf16, VECOUT>
  %a1 = ascendc.alloc_local {name = "a1", offset = 0 : i64} : !ascendc.local<64x64xf16, A1>
  %a2 = ascendc.alloc_local {name = "a2", offset = 0 : i64} : !ascendc.local<64x64xf16, A2>
  %b1 = ascendc.alloc_local {name = "b1", offset = 8192 : i64} : !ascendc.local<64x64xf16, B1>
  %b2 = ascendc.alloc_local {name = "b2", offset = 0 : i64} : !ascendc.local<64x64xf16, B2>
  %acc = ascendc.alloc_local {name = "acc", offset = 0 : i64} : !ascendc.local<64x64xf32, CO1>
  scf.if %go {
    ascendc.data_copy_in %u, %x[%c0], %c4096 : !ascendc.local<64x64xf16, VECIN>, !ascendc.gm<f16>
    ascendc.maxs %v, %u, %cst, %c4096 : !ascendc.local<64x64xf16, VECOUT>, !ascendc.local<64x64xf16, VECIN>, f16
    ascendc.data_copy_out %ws[%c0], %v, %c4096 : !ascendc.gm<f16>, !ascendc.local<64x64xf16, VECOUT>
    ascendc.data_copy_in %a1, %ws[%c0], %c64 rows %c64 stride %c64 : !ascendc.local<64x64xf16, A1>, !ascendc.gm<f16>
    ascendc.load_data %a2, %a1 : !ascendc.local<64x64xf16, A2>, !ascendc.local<64x64xf16, A1>
  }
  ascendc.data_copy_in %u, %x[%c0], %c4096 : !ascendc.local<64x64xf16, VECIN>, !ascendc.gm<f16>
  ascendc.data_copy_in %b1, %b[%c0], %c64 rows %c64 stride %c64 : !ascendc.local<64x64xf16, B1>, !ascendc.gm<f16>
  ascendc.load_data %b2, %b1 : !ascendc.local<64x64xf16, B2>, !ascendc.local<64x64xf16, B1>
  ascendc.mmad %acc, %a2, %b2, %true : !ascendc.local<64x64xf32, CO1>, !ascendc.local<64x64xf16, A2>, !ascendc.local<64x64xf16, B2>
  ascendc.fixpipe %out[%c0], %acc, %c64 rows %c64 stride %c64 : !ascendc.gm<f32>, !ascendc.local<64x64xf32, CO1>
  return
}
