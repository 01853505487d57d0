// RUN: asc2-opt %s -ascendc-insert-buf-id-sync -split-input-file | FileCheck %s

// A single-buffered vadd loop: every access to a buffer two pipes touch is
// bracketed by the buffer's id on its own pipe; no flags, no priming: the
// ids are granted in issue order, so the next iteration's loads wait for this
// iteration's add by themselves.
// CHECK-LABEL: func.func @vadd_loop
func.func @vadd_loop(%x: !ascendc.gm<f32>, %y: !ascendc.gm<f32>, %out: !ascendc.gm<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %bx = ascendc.alloc_local {name = "x", offset = 0 : i64} : !ascendc.local<256xf32, VECIN>
  %by = ascendc.alloc_local {name = "y", offset = 1024 : i64} : !ascendc.local<256xf32, VECIN>
  %bz = ascendc.alloc_local {name = "z", offset = 2048 : i64} : !ascendc.local<256xf32, VECCALC>
  // CHECK-NOT: set_flag
  // CHECK: scf.for
  scf.for %i = %c0 to %n step %c1 {
    %off = arith.muli %i, %c256 : index
    // CHECK: ascendc.get_buf MTE2, [[X:[0-9]+]] {reason = "id [[X]] on x: ascendc.data_copy_in (MTE2, {{.*}}) shares it with ascendc.add (V,
    // CHECK-NEXT: ascendc.data_copy_in %
    // CHECK-NEXT: ascendc.rls_buf MTE2, [[X]]
    ascendc.data_copy_in %bx, %x[%off], %c256 : !ascendc.local<256xf32, VECIN>, !ascendc.gm<f32>
    // CHECK-NEXT: ascendc.get_buf MTE2, [[Y:[0-9]+]]
    // CHECK-NEXT: ascendc.data_copy_in %
    // CHECK-NEXT: ascendc.rls_buf MTE2, [[Y]]
    ascendc.data_copy_in %by, %y[%off], %c256 : !ascendc.local<256xf32, VECIN>, !ascendc.gm<f32>
    // CHECK-DAG: ascendc.get_buf V, [[X]]
    // CHECK-DAG: ascendc.get_buf V, [[Y]]
    // CHECK-DAG: ascendc.get_buf V, [[Z:[0-9]+]]
    // CHECK: ascendc.add %
    // CHECK-DAG: ascendc.rls_buf V, [[X]]
    // CHECK-DAG: ascendc.rls_buf V, [[Y]]
    // CHECK-DAG: ascendc.rls_buf V, [[Z]]
    ascendc.add %bz, %bx, %by, %c256 : !ascendc.local<256xf32, VECCALC>, !ascendc.local<256xf32, VECIN>, !ascendc.local<256xf32, VECIN>
    // CHECK: ascendc.get_buf MTE3, [[Z]]
    // CHECK-NEXT: ascendc.data_copy_out %
    // CHECK-NEXT: ascendc.rls_buf MTE3, [[Z]]
    // CHECK-NEXT: {{^ *}}}{{$}}
    ascendc.data_copy_out %out[%off], %bz, %c256 : !ascendc.gm<f32>, !ascendc.local<256xf32, VECCALC>
  }
  // CHECK-NOT: wait_flag
  // CHECK: return
  return
}

// -----

// Same-pipe RAW keeps its pipe_barrier, and the GM hazard (write of the
// tensor the load read) keeps its flag: ids only guard local buffers.
// CHECK-LABEL: func.func @vector_chain
func.func @vector_chain(%x: !ascendc.gm<f32>) {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %a = ascendc.alloc_local {offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %b = ascendc.alloc_local {offset = 256 : i64} : !ascendc.local<64xf32, VECCALC>
  %c = ascendc.alloc_local {offset = 512 : i64} : !ascendc.local<64xf32, VECCALC>
  // CHECK: ascendc.get_buf MTE2, [[A:[0-9]+]]
  // CHECK-NEXT: ascendc.data_copy_in %
  // CHECK-NEXT: ascendc.rls_buf MTE2, [[A]]
  // CHECK-NEXT: ascendc.set_flag MTE2 -> MTE3, {{[0-9]+}} {reason = "WAR on arg0
  ascendc.data_copy_in %a, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  // CHECK-NEXT: ascendc.get_buf V, [[A]]
  // CHECK-NEXT: ascendc.exp %
  // CHECK-NEXT: ascendc.rls_buf V, [[A]]
  ascendc.exp %b, %a, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  // b is touched by V only: no id, but the V -> V RAW needs its barrier.
  // CHECK-NEXT: ascendc.pipe_barrier V
  // CHECK-NEXT: ascendc.get_buf V, [[A]]
  // CHECK-NEXT: ascendc.get_buf V, [[C:[0-9]+]]
  // CHECK-NEXT: ascendc.add %
  ascendc.add %c, %b, %a, %c64 : !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECCALC>, !ascendc.local<64xf32, VECIN>
  // CHECK: ascendc.wait_flag MTE2 -> MTE3
  // CHECK-NEXT: ascendc.get_buf MTE3, [[C]]
  // CHECK-NEXT: ascendc.data_copy_out %
  // CHECK-NEXT: ascendc.rls_buf MTE3, [[C]]
  ascendc.data_copy_out %x[%c0], %c, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECCALC>
  return
}

// -----

// Buffers sharing bytes after planning are one resource with one id: the
// load into b waits for the add that last read a (WAR across buffers).
// CHECK-LABEL: func.func @aliased
func.func @aliased(%x: !ascendc.gm<f32>, %out: !ascendc.gm<f32>) {
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %a = ascendc.alloc_local {name = "a", offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %b = ascendc.alloc_local {name = "b", offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %c = ascendc.alloc_local {name = "c", offset = 256 : i64} : !ascendc.local<64xf32, VECOUT>
  // CHECK: ascendc.get_buf MTE2, [[AB:[0-9]+]] {reason = "id [[AB]] on a, b:
  ascendc.data_copy_in %a, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  // CHECK: ascendc.get_buf V, [[AB]]
  // CHECK: ascendc.abs %
  ascendc.abs %c, %a, %c64 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECIN>
  // CHECK: ascendc.get_buf MTE2, [[AB]]
  // CHECK-NEXT: ascendc.data_copy_in %
  ascendc.data_copy_in %b, %x[%c64], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  // CHECK: ascendc.get_buf V, [[AB]]
  // CHECK: ascendc.add %
  ascendc.add %c, %c, %b, %c64 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECIN>
  ascendc.data_copy_out %out[%c0], %c, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECOUT>
  return
}

// -----

// Ping-pong slots are distinct buffers with distinct ids, so the load of one
// slot does not wait for compute on the other.
// CHECK-LABEL: func.func @ping_pong
func.func @ping_pong(%x: !ascendc.gm<f32>, %out: !ascendc.gm<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %p = ascendc.alloc_local {name = "ping", offset = 0 : i64, slot = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %q = ascendc.alloc_local {name = "pong", offset = 256 : i64, slot = 1 : i64} : !ascendc.local<64xf32, VECIN>
  scf.for %i = %c0 to %n step %c2 {
    %o0 = arith.muli %i, %c64 : index
    %o1 = arith.addi %o0, %c64 : index
    // CHECK: ascendc.get_buf MTE2, [[P:[0-9]+]]
    ascendc.data_copy_in %p, %x[%o0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
    // CHECK: ascendc.get_buf MTE2, [[Q:[0-9]+]]
    ascendc.data_copy_in %q, %x[%o1], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
    // CHECK: ascendc.get_buf V, [[P]]
    ascendc.abs %p, %p, %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.local<64xf32, VECIN>
    // CHECK: ascendc.get_buf V, [[Q]]
    ascendc.abs %q, %q, %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.local<64xf32, VECIN>
    ascendc.data_copy_out %out[%o0], %p, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECIN>
    ascendc.data_copy_out %out[%o1], %q, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECIN>
  }
  return
}

// -----

// More resources than ids: the third shares the id whose resource was used
// least recently (a's, done before c is loaded).
// RUN: asc2-opt %s -ascendc-insert-buf-id-sync=buf-ids=2 -split-input-file | FileCheck %s --check-prefix=TWO
// TWO-LABEL: func.func @share_ids
// CHECK-LABEL: func.func @share_ids
func.func @share_ids(%x: !ascendc.gm<f32>, %out: !ascendc.gm<f32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %a = ascendc.alloc_local {name = "a", offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %b = ascendc.alloc_local {name = "b", offset = 256 : i64} : !ascendc.local<64xf32, VECIN>
  %c = ascendc.alloc_local {name = "c", offset = 512 : i64} : !ascendc.local<64xf32, VECIN>
  // TWO: ascendc.get_buf MTE2, 0
  ascendc.data_copy_in %a, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  // TWO: ascendc.get_buf V, 0
  ascendc.abs %a, %a, %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.local<64xf32, VECIN>
  // TWO: ascendc.get_buf MTE3, 0
  ascendc.data_copy_out %out[%c0], %a, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECIN>
  // TWO: ascendc.get_buf MTE2, 1
  ascendc.data_copy_in %b, %x[%c64], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  // TWO: ascendc.get_buf MTE2, 0 {reason = "id 0 on a, c:
  // CHECK: ascendc.get_buf MTE2, 2 {reason = "id 2 on c:
  ascendc.data_copy_in %c, %x[%c64], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  // TWO: ascendc.get_buf V, 1
  ascendc.add %b, %b, %c, %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.local<64xf32, VECIN>, !ascendc.local<64xf32, VECIN>
  ascendc.data_copy_out %out[%c64], %b, %c64 : !ascendc.gm<f32>, !ascendc.local<64xf32, VECIN>
  return
}
