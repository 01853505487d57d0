//===- InlineCode.h - The $N placeholders of raw Ascend C ---------*- C++ -*-===//
//
// asc2.inline and asc2.inline_vf carry Ascend C their author wrote; `$N` in it
// stands for operand N of the op that carries it. The verifiers of both
// dialects and the emitter read the placeholders the same way.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_SUPPORT_INLINECODE_H
#define ASC2_SUPPORT_INLINECODE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace asc2 {

/// Why `code` does not fit an op with `count` operands (its `values`, as
/// "args"): "code uses $3, but the args are only $0 .. $1", for the first `$N`
/// (a '$' followed by decimal digits) with N not below `count`; nullopt when
/// every placeholder names an operand.
std::optional<std::string> placeholderError(llvm::StringRef code, unsigned count,
                                            llvm::StringRef values);

/// `code` with every `$N` replaced by `nameOf(N)` (N below the operand count
/// the verifier checked).
std::string substitutePlaceholders(llvm::StringRef code,
                                   llvm::function_ref<std::string(unsigned)> nameOf);

} // namespace asc2

#endif // ASC2_SUPPORT_INLINECODE_H
