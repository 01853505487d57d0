//===- InputText.h - MLIR text the asc2 tools accept -----------*- C++ -*-===//
//
// MLIR's parser, verifier and printer recurse once per nesting level; its
// lexer stops at a NUL byte as at the end of the buffer (a zero-filled file
// parsed as an empty module); and MLIR 19's error recovery frees a region's
// values while a use outside the region still points at them. Everything
// that parses MLIR text from users (asc2-opt, the driver, the fuzz targets)
// checks it first.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_SUPPORT_INPUTTEXT_H
#define ASC2_SUPPORT_INPUTTEXT_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace asc2 {

struct InputTextProblem {
  int64_t line; // 1-based
  std::string message;
};

/// Why `text` is not MLIR text the tools accept (a NUL byte, brackets nested
/// deeper than `maxNesting`, a value used outside the region that defines it,
/// which crashes MLIR 19's parser), or nullopt when it is.
std::optional<InputTextProblem> checkInputText(llvm::StringRef text, int64_t maxNesting);

} // namespace asc2

#endif // ASC2_SUPPORT_INPUTTEXT_H
