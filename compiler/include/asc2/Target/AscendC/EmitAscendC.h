//===- EmitAscendC.h - ascendc IR to Ascend C source ---------------*- C++ -*-===//
#ifndef ASC2_TARGET_ASCENDC_EMITASCENDC_H
#define ASC2_TARGET_ASCENDC_EMITASCENDC_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace asc2 {
/// The `extern "C"` symbol of the kernel the Python function `name` becomes:
/// "asc2_" + name. The fixed prefix keeps a kernel called `select`, `free` or
/// `main` from colliding with libc or the runtime (every C symbol of the C
/// and C++ runtimes is outside the "asc2_" namespace), and keeps the symbol
/// readable. The report carries it as "kernel_symbol" ("kernel" stays the
/// Python name); launchers and exported projects take it from there.
std::string kernelSymbol(llvm::StringRef name);

/// A C++ expression of type `float` with exactly the bits of `v` widened to
/// float (f32 as is; f16 and bf16 exactly, NaN payloads in the top mantissa
/// bits so that the hardware's narrowing gives back the same NaN). Finite
/// values are decimal literals that round-trip ("-0.0f", denormals, max);
/// +-inf and NaN are GCC/Clang builtins (__builtin_inff(), __builtin_nanf("p"),
/// __builtin_nansf("p"), negated for the sign), which fold to those bits.
std::string cxxFloatLiteral(const llvm::APFloat &v);

/// Writes one Ascend C kernel per function. `socVersion` is the arch
/// model's ("c220" for A2/A3, "c310" for A5) and goes into the header comment.
/// `staticAlloc`: LocalTensors at fixed UB addresses; otherwise a TPipe owns
/// one TBuf per memory space, sized to the planned peak, and every buffer is
/// a view at its planned offset (the addresses, hence the simulation, are the
/// same in both modes).
mlir::LogicalResult emitAscendC(mlir::ModuleOp module,
                                llvm::StringRef socVersion, bool staticAlloc,
                                llvm::raw_ostream &os);

/// The Python source line of each line of emitted Ascend C (0 where the line
/// names none): the line comment `emitAscendC` ends an op's statement with.
/// Index i is line i + 1 of `source`.
std::vector<int> sourceLinesOfAscendC(llvm::StringRef source);
} // namespace asc2

#endif
