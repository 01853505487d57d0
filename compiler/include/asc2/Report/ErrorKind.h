//===- ErrorKind.h - What kind of error stopped a compile ---------*- C++ -*-===//
//
// Plain data (no MLIR): the driver retries on it, the Python runtime picks
// its exception class from it and the GUI may group by it, none of them by
// searching the message text.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_REPORT_ERRORKIND_H
#define ASC2_REPORT_ERRORKIND_H

namespace asc2 {

enum class ErrorKind {
  Compile,   ///< the kernel is rejected for any other reason
  Alignment, ///< a tile breaks the 32-byte block layout of its memory
  Memory,    ///< the planned tiles do not fit UB, L1, L0A/B/C or BT
  Option,    ///< the platform or an option asked for cannot be honoured
  Internal,  ///< the compiler failed without saying why (a compiler bug)
};

/// "compile", "alignment", "memory", "option", "internal".
inline const char *errorKindName(ErrorKind kind) {
  switch (kind) {
  case ErrorKind::Compile: return "compile";
  case ErrorKind::Alignment: return "alignment";
  case ErrorKind::Memory: return "memory";
  case ErrorKind::Option: return "option";
  case ErrorKind::Internal: return "internal";
  }
  return "compile";
}

} // namespace asc2

#endif
