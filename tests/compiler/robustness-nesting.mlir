// issue 17: input nested deeper than asc2-opt accepts is a clear error, not a
// stack overflow in MLIR's recursive parser (100,000 levels: SIGSEGV).
// RUN: python3 -c "print('func.func @f() {\n' + '%%c = arith.constant true\n' + 'scf.if %%c {\n' * 100000 + '}\n' * 100000 + 'return\n}')" > %t.mlir
// RUN: not asc2-opt %t.mlir 2>&1 | FileCheck %s
// CHECK: error: the input nests 100001 levels deep; asc2-opt accepts at most 10000
// RUN: python3 -c "print('func.func @f() {\n' + '%%c = arith.constant true\n' + 'scf.if %%c {\n' * 2000 + '}\n' * 2000 + 'return\n}')" > %t.ok.mlir
// RUN: asc2-opt %t.ok.mlir | FileCheck %s --check-prefix=OK
// OK: func.func @f()
