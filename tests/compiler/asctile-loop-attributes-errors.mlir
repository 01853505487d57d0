// RUN: asc2-opt %s -split-input-file -verify-diagnostics
// RUN: not asc2-opt %S/ascendc-plan-memory.mlir -split-input-file -test-print-ub-plan=alignment=0 2>&1 | FileCheck %s --check-prefix=ALIGN
// RUN: not asc2-opt %S/ascendc-plan-memory.mlir -split-input-file -test-print-sync-plan=event-ids=0 2>&1 | FileCheck %s --check-prefix=EVENTS

// The loop annotations are checked where the IR is read, not where a pass
// happens to use them: "two" was silently treated as 1, 2^40 hung the unroller.
// ALIGN: error: test-print-ub-plan: option alignment=0 is invalid; it must be a power of two
// EVENTS: error: test-print-sync-plan: option event-ids=0 is invalid; it must be at least 1

func.func @named(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'asctile.unroll_factor' must be an i64 integer, got "two"}}
  scf.for %i = %c0 to %n step %c1 {
  } {asctile.unroll_factor = "two"}
  return
}

// -----

func.func @huge(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'asctile.unroll_factor' must be in 1..1024, got 1099511627776}}
  scf.for %i = %c0 to %n step %c1 {
  } {asctile.unroll_factor = 1099511627776 : i64}
  return
}

// -----

func.func @zero(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'asctile.unroll_factor' must be in 1..1024, got 0}}
  scf.for %i = %c0 to %n step %c1 {
  } {asctile.unroll_factor = 0 : i64}
  return
}

// -----

func.func @parallel(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'asctile.parallel' must be true or false, got "no"}}
  scf.for %i = %c0 to %n step %c1 {
  } {asctile.parallel = "no"}
  return
}
