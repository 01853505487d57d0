// RUN: asc2-opt %s -ascendc-verify-sync -split-input-file -verify-diagnostics

func.func @wait_without_set() {
  // expected-error @+1 {{waits for flag (MTE2 -> V, event 0) that no set_flag before it sets: the pipe would hang}}
  ascendc.wait_flag MTE2 -> V, 0
  return
}

// -----

func.func @set_twice() {
  ascendc.set_flag MTE2 -> V, 1
  // expected-error @+1 {{sets flag (MTE2 -> V, event 1) that is already set}}
  ascendc.set_flag MTE2 -> V, 1
  return
}

// -----

func.func @unbalanced_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{body does not leave the flags as it found them; unbalanced: (V -> MTE3, event 0) left set}}
  scf.for %i = %c0 to %n step %c1 {
    ascendc.set_flag V -> MTE3, 0
  }
  return
}

// -----

// expected-error @+1 {{ends with flags still set: (MTE3 -> V, event 2)}}
func.func @leak() {
  ascendc.set_flag MTE3 -> V, 2
  return
}

// -----

func.func @barrier_in_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-warning @+1 {{PIPE_ALL inside a loop serialises every iteration}}
    ascendc.pipe_barrier ALL
  }
  return
}

// -----

func.func @if_arms(%c: i1) {
  ascendc.set_flag MTE2 -> V, 0
  // expected-error @+1 {{arms leave the flags in different states}}
  scf.if %c {
    ascendc.wait_flag MTE2 -> V, 0
  } else {
  }
  ascendc.wait_flag MTE2 -> V, 0
  return
}

// -----

func.func @buf_id_interleaved() {
  ascendc.get_buf MTE2, 3
  // expected-error @+1 {{takes buffer id 3, which MTE2 still holds: get/rls pairs of one id may not interleave}}
  ascendc.get_buf V, 3
  return
}

// -----

func.func @buf_id_not_held() {
  ascendc.get_buf MTE2, 3
  // expected-error @+1 {{releases buffer id 3, which V does not hold}}
  ascendc.rls_buf V, 3
  return
}

// -----

// expected-error @+1 {{ends with buffer ids still held: (id 5 by MTE3)}}
func.func @buf_id_leak() {
  ascendc.get_buf MTE3, 5
  return
}

// -----

func.func @buf_id_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{unbalanced: (buffer id 0) left held}}
  scf.for %i = %c0 to %n step %c1 {
    ascendc.get_buf V, 0
  }
  return
}

// -----

// The add reads a without its id: the load into a is not ordered before it.
func.func @buf_id_hazard(%x: !ascendc.gm<f32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %a = ascendc.alloc_local {name = "a", offset = 0 : i64} : !ascendc.local<64xf32, VECIN>
  %b = ascendc.alloc_local {name = "b", offset = 256 : i64} : !ascendc.local<64xf32, VECOUT>
  ascendc.get_buf MTE2, 0
  // expected-note @+1 {{the other access}}
  ascendc.data_copy_in %a, %x[%c0], %c64 : !ascendc.local<64xf32, VECIN>, !ascendc.gm<f32>
  ascendc.rls_buf MTE2, 0
  // expected-error @+1 {{conflict on a (write / read), bytes guarded by buffer ids, but hold no common id}}
  ascendc.abs %b, %a, %c64 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECIN>
  return
}
