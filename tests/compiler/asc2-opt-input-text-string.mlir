// RUN: not asc2-opt %s 2>&1 | FileCheck %s

// Found by the fuzzer (seed 99, mutant 19271): MLIR's lexer reports a string
// literal left open at the end of its line, but its parser goes on and MLIR 19
// then builds an op from operands it has already freed (a heap use-after-free).
// asc2-opt refuses such text before parsing.
// CHECK: asc2-opt-input-text-string.mlir:[[@LINE+4]]: error: a string literal is not closed on its line
func.func @f(%n: index) {
  %c1 = arith.constant 1 : index
  ascendc.exp %z1, %x1, %c1 : !ascendc.local<64xf32, VECOUT>, !ascendc.local<64xf32, VECIN>
  %x1 = ascendc.alloc_local {name = "x_1", slot = 1 : i64} : !ascendc.local<64xf32, VECIN>", slot = 1 : i64}
  scf.for %i = %c1 to %n step %c2 {
    scf.if %in {
      %c2 = arith.constant 2 : index
    }
  }
  return
}
