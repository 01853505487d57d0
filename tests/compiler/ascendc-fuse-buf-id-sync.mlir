// RUN: asc2-opt %s -ascendc-fuse-buf-id-sync -split-input-file | FileCheck %s
// RUN: asc2-opt %s -ascendc-fuse-buf-id-sync -ascendc-verify-sync -split-input-file

// Consecutive ops of one pipe on one buffer share one get/rls; the count
// before fusion is kept for the compile report.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: ascendc.buf_id_syncs_before_fuse = 4
func.func @chain(%x: !ascendc.gm<f32>, %out: !ascendc.gm<f32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %a = ascendc.alloc_local {name = "a", offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  ascendc.get_buf MTE2, 0
  ascendc.data_copy_in %a, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.rls_buf MTE2, 0
  // CHECK: ascendc.get_buf V, 0
  // CHECK-NEXT: ascendc.abs %
  // CHECK-NEXT: ascendc.pipe_barrier V
  // CHECK-NEXT: ascendc.exp %
  // CHECK-NEXT: ascendc.rls_buf V, 0
  ascendc.get_buf V, 0
  ascendc.abs %a, %a, %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.local<64xf32, VECIN>
  ascendc.rls_buf V, 0
  ascendc.pipe_barrier V
  ascendc.get_buf V, 0
  ascendc.exp %a, %a, %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.local<64xf32, VECIN>
  ascendc.rls_buf V, 0
  // CHECK-NEXT: ascendc.get_buf MTE3, 0
  ascendc.get_buf MTE3, 0
  ascendc.data_copy_out %out[%c0], %a, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECIN>
  ascendc.rls_buf MTE3, 0
  return
}

// -----

// Another pipe takes the id between: the release is needed.
// CHECK-LABEL: func.func @needed
func.func @needed(%x: !ascendc.gm<f32>, %out: !ascendc.gm<f32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %a = ascendc.alloc_local {name = "a", offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  // CHECK: ascendc.get_buf MTE2, 0
  // CHECK-NEXT: ascendc.data_copy_in
  // CHECK-NEXT: ascendc.rls_buf MTE2, 0
  // CHECK-NEXT: ascendc.get_buf V, 0
  // CHECK-NEXT: ascendc.abs
  // CHECK-NEXT: ascendc.rls_buf V, 0
  // CHECK-NEXT: ascendc.get_buf MTE2, 0
  ascendc.get_buf MTE2, 0
  ascendc.data_copy_in %a, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.rls_buf MTE2, 0
  ascendc.get_buf V, 0
  ascendc.abs %a, %a, %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.local<64xf32, VECIN>
  ascendc.rls_buf V, 0
  ascendc.get_buf MTE2, 0
  ascendc.data_copy_in %a, %x[%c64], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.rls_buf MTE2, 0
  ascendc.get_buf V, 0
  ascendc.abs %a, %a, %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.local<64xf32, VECIN>
  ascendc.rls_buf V, 0
  return
}

// -----

// A loop that uses an id on one pipe only takes it once around the loop (a
// gamma tile loaded before the loop, read by V every iteration); an id two
// pipes use in the body stays inside.
// CHECK-LABEL: func.func @hoist
func.func @hoist(%x: !ascendc.gm<f32>, %g: !ascendc.gm<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %gamma = ascendc.alloc_local {name = "gamma", offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %t = ascendc.alloc_local {name = "t", offset = 256 : i64} : !ascendc.local<64xf32, VECIN>
  ascendc.get_buf MTE2, 0
  ascendc.data_copy_in %gamma, %g[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.rls_buf MTE2, 0
  // CHECK: ascendc.rls_buf MTE2, 0
  // CHECK-NEXT: ascendc.get_buf V, 0 {reason = "gamma (taken once around the loop)"}
  // CHECK-NEXT: scf.for
  // CHECK-NOT: ascendc.get_buf V, 0
  // CHECK: ascendc.get_buf MTE2, 1
  // CHECK: ascendc.get_buf V, 1
  // CHECK-NEXT: ascendc.mul
  // CHECK-NEXT: ascendc.rls_buf V, 1
  // CHECK-NEXT: }
  // CHECK-NEXT: ascendc.rls_buf V, 0
  scf.for %i = %c0 to %n step %c1 {
    ascendc.get_buf MTE2, 1
    ascendc.data_copy_in %t, %x[%i], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
    ascendc.rls_buf MTE2, 1
    ascendc.get_buf V, 0 {reason = "gamma"}
    ascendc.get_buf V, 1
    ascendc.mul %t, %t, %gamma, %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.local<64xf32, VECIN>, !ascendc.local<64xf32, VECIN>
    ascendc.rls_buf V, 1
    ascendc.rls_buf V, 0
  }
  return
}
