// RUN: not asc2-opt %s --allow-unregistered-dialect 2>&1 | FileCheck %s
// RUN: printf '\0\0\0\0' > %t.nul && not asc2-opt %t.nul 2>&1 | FileCheck %s --check-prefix=NUL

// Found by the fuzzer: a value used outside the region that defines it,
// followed by a parse error, is a heap use-after-free in MLIR 19's parser
// (mlir-opt 19 crashes too). asc2-opt refuses such text before parsing.
// CHECK: asc2-opt-input-text.mlir:[[@LINE+1]]: error: %a is used before it is defined (its definition, at line [[@LINE+3]], is inside a region the use is not in)
%m = arith.addf %a, %a : f32
func.func @f() {
  %a = arith.constant 1.0 : f32
  "foo.bar"() : () -> !llvm.tens
  return
}

// NUL: .nul:1: error: the input holds a NUL byte (at byte 0); MLIR input is text
