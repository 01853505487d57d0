//===- InlineCode.cpp - The $N placeholders of raw Ascend C ----------------===//
#include "asc2/Support/InlineCode.h"

#include "llvm/ADT/StringExtras.h"

namespace asc2 {

namespace {
/// Calls `fn(begin, end, index)` for each `$N` of `code`: the placeholder is
/// code[begin, end).
void forEachPlaceholder(llvm::StringRef code,
                        llvm::function_ref<void(size_t, size_t, unsigned)> fn) {
  for (size_t at = code.find('$'); at != llvm::StringRef::npos; at = code.find('$', at + 1)) {
    size_t end = at + 1;
    while (end < code.size() && llvm::isDigit(code[end]))
      ++end;
    if (end == at + 1)
      continue; // a '$' of the code itself
    unsigned index;
    // More digits than an unsigned holds: past any operand count.
    if (code.slice(at + 1, end).getAsInteger(10, index))
      index = ~0u;
    fn(at, end, index);
    at = end - 1;
  }
}
} // namespace

std::optional<std::string> placeholderError(llvm::StringRef code, unsigned count,
                                            llvm::StringRef values) {
  std::optional<std::string> found;
  forEachPlaceholder(code, [&](size_t begin, size_t end, unsigned index) {
    if (found || index < count)
      return;
    std::string uses = ("code uses " + code.slice(begin, end) + ", but ").str();
    if (count == 0)
      found = uses + "there are no " + values.str();
    else
      found = uses + "the " + values.str() + " are only $0" +
              (count > 1 ? " .. $" + std::to_string(count - 1) : std::string());
  });
  return found;
}

std::string substitutePlaceholders(llvm::StringRef code,
                                   llvm::function_ref<std::string(unsigned)> nameOf) {
  std::string out;
  size_t copied = 0;
  forEachPlaceholder(code, [&](size_t begin, size_t end, unsigned index) {
    out += code.slice(copied, begin);
    out += nameOf(index);
    copied = end;
  });
  out += code.drop_front(copied);
  return out;
}

} // namespace asc2
