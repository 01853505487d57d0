//===- InlineCode.cpp - the kernel author's Ascend C, as written -----------===//
//
// asc2.inline: the code where the op is, after a comment naming the call's
// line, or (before_function) at file scope before the kernel, each distinct
// text once. asc2.inline_vf: the code as the body of a __VEC_SCOPE__ block.
// `$N` becomes the C++ name of operand N: a LocalTensor, the kernel's GM
// parameter as a `__gm__ T *` pointer, a scalar's variable or literal. The
// code keeps its lines; their common indentation is replaced by the
// emitter's.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "asc2/Support/InlineCode.h"

#include <set>

using namespace mlir;
using namespace asc2::ascendc;

namespace asc2::ascendc_emitter {

std::string Emitter::inlineCodeText(InlineCodeOpInterface op) {
  Operation *operation = op.getOperation();
  return substitutePlaceholders(op.getCode(), [&](unsigned index) -> std::string {
    Value v = operation->getOperand(index);
    if (auto gm = dyn_cast<GlobalType>(v.getType()))
      if (auto arg = dyn_cast<BlockArgument>(v))
        return "((__gm__ " + storageType(gm.getElementType()) + " *)a" +
               std::to_string(arg.getArgNumber()) + ")";
    if (auto c = v.getDefiningOp<arith::ConstantOp>())
      if (v.getType().isInteger(1)) // a Python bool (name() gives i1's -1)
        return cast<IntegerAttr>(c.getValue()).getValue().isZero() ? "false" : "true";
    return name(v);
  });
}

void Emitter::writeCodeLines(StringRef code) {
  SmallVector<StringRef> lines;
  code.split(lines, '\n');
  auto blank = [](StringRef l) { return l.trim().empty(); };
  while (!lines.empty() && blank(lines.front()))
    lines.erase(lines.begin());
  while (!lines.empty() && blank(lines.back()))
    lines.pop_back();
  // The leading whitespace every non-blank line shares (Python's dedent).
  std::optional<StringRef> common;
  for (StringRef l : lines) {
    if (blank(l))
      continue;
    StringRef lead = l.take_while([](char c) { return c == ' ' || c == '\t'; });
    if (!common)
      common = lead;
    size_t n = 0;
    while (n < common->size() && n < lead.size() && (*common)[n] == lead[n])
      ++n;
    common = common->take_front(n);
  }
  for (StringRef l : lines) {
    if (blank(l))
      os << "\n";
    else
      line() << l.drop_front(common->size()).rtrim() << "\n";
  }
}

FamilyResult Emitter::emitInlineCodeFamily(Operation *op) {
  auto code = dyn_cast<InlineCodeOpInterface>(op);
  if (!code)
    return std::nullopt;
  if (code.isBeforeFunction())
    return success(); // written before the function (emitFileScopeCode)
  if (isa<InlineVFOp>(op)) {
    line() << "__VEC_SCOPE__ {  // asc2.inline_vf" << srcLine(op) << "\n";
    indent += 2;
    writeCodeLines(inlineCodeText(code));
    indent -= 2;
    line() << "}\n";
    return success();
  }
  line() << "// asc2.inline" << srcLine(op) << "\n";
  writeCodeLines(inlineCodeText(code));
  return success();
}

void Emitter::emitFileScopeCode(func::FuncOp func) {
  std::set<std::string> written;
  unsigned saved = indent;
  indent = 0;
  func.walk([&](InlineCodeOpInterface code) {
    if (!code.isBeforeFunction())
      return;
    std::string text = inlineCodeText(code);
    if (!written.insert(text).second)
      return;
    line() << "// asc2.inline(before_function=True)" << srcLine(code) << "\n";
    writeCodeLines(text);
    os << "\n";
  });
  indent = saved;
}

} // namespace asc2::ascendc_emitter
