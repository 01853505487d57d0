// RUN: not asc2-opt %s 2>&1 | FileCheck %s

// Found by the fuzzer (seed 20261204, mutant 15927): MLIR 19 keeps a value
// no op of @a defines as a forward reference past the end of @a, resolves it
// to @b's %0, and when @b then fails to parse frees @b while @a still uses
// its value (mlir-opt 19 crashes too). asc2-opt refuses the text first.
// CHECK: asc2-opt-input-text-undefined.mlir:[[@LINE+2]]: error: %0 is used but never defined in the region that uses it
func.func @a(%x: f32) -> f32 {
  %2 = arith.mulf %0, %x : f32
}
func.func @b(%x: f32) -> f32 {
  %0 = arith.mulf %x, %x : f32
