//===- KindedError.cpp - Errors that carry their ErrorKind ----------------===//
#include "asc2/Support/KindedError.h"

#include <optional>
#include <utility>

using namespace mlir;

namespace asc2 {

namespace {
/// The kind of the error being emitted, and where: a tag left behind by a
/// diagnostic no handler of ours saw (the printer's verifier swallows its
/// own) must not label a later error elsewhere.
struct Tag {
  ErrorKind kind;
  const void *loc;
};
thread_local std::optional<Tag> pendingTag;

void tag(Operation *op, ErrorKind kind) {
  pendingTag = Tag{kind, op->getLoc().getAsOpaquePointer()};
}
} // namespace

InFlightDiagnostic emitOpErrorOfKind(Operation *op, ErrorKind kind) {
  tag(op, kind);
  return op->emitOpError();
}

InFlightDiagnostic emitErrorOfKind(Operation *op, ErrorKind kind) {
  tag(op, kind);
  return op->emitError();
}

ErrorKind takeErrorKind(const Diagnostic &diag) {
  std::optional<Tag> tag = std::exchange(pendingTag, std::nullopt);
  if (tag && tag->loc == diag.getLocation().getAsOpaquePointer())
    return tag->kind;
  return ErrorKind::Compile;
}

} // namespace asc2
