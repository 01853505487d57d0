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
