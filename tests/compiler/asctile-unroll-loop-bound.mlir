// RUN: asc2-opt %s -asctile-unroll-loop -verify-diagnostics

// Unrolled bodies multiply: the inner loop unrolled 1024 times, then the
// outer one 1024 times, would make millions of operations (and a compile
// that never ends). The loop that grows the kernel past the bound is the
// error, at its line.
func.func @nested(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{unrolling this loop 1024 times grows the kernel to}}
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %k = arith.addi %i, %j : index
      %m = arith.muli %k, %j : index
    } {asctile.unroll_factor = 1024 : i64}
  } {asctile.unroll_factor = 1024 : i64}
  return
}
