// RUN: not asc2-opt %s 2>&1 | FileCheck %s

// Found by the ASan fuzz run (seed 20261206, mutant 32163): "%a = %init, %b
// = ..." in iter_args uses %init; it was read as a result list defining it,
// so the inner-region definition below slipped past the check.
// CHECK: asc2-opt-input-text-iter-args.mlir:[[@LINE+4]]: error: %init is used before it is defined (its definition, at line [[@LINE+5]], is inside a region the use is not in)
func.func @f(%n: index, %x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %init, %b = %x) -> (f32, f32) {
    %init = arith.addf %a, %b : f32
    scf.yield %init, %b : f32, f32
  }
  return %r#0 : f32
}
