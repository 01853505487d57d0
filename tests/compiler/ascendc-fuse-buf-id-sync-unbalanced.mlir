// RUN: asc2-opt %s -ascendc-fuse-buf-id-sync | FileCheck %s
// RUN: asc2-opt %s -ascendc-fuse-buf-id-sync -ascendc-verify-sync -verify-diagnostics

// A body that takes an id and never releases it (found by the fuzzer: the
// hoist read the missing release) is left as it is, for the verifier.
// CHECK-LABEL: func.func @held_in_body
// CHECK: scf.for
// CHECK-NEXT: ascendc.get_buf V, 0
// CHECK-NOT: ascendc.rls_buf
func.func @held_in_body(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{unbalanced: (buffer id 0) left held}}
  scf.for %i = %c0 to %n step %c1 {
    ascendc.get_buf V, 0
  }
  return
}
