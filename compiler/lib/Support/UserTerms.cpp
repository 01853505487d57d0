//===- UserTerms.cpp - IR things spelled as a kernel author writes them ---===//
#include "asc2/Support/UserTerms.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace asc2 {

std::string userElementTypeName(Type type) {
  if (type.isF32())
    return "float32";
  if (type.isF16())
    return "float16";
  if (type.isBF16())
    return "bfloat16";
  if (type.isF64())
    return "float64";
  if (auto integer = dyn_cast<IntegerType>(type)) {
    if (integer.getWidth() == 1)
      return "bool";
    return (integer.isUnsigned() ? "uint" : "int") + std::to_string(integer.getWidth());
  }
  if (type.isIndex())
    return "int";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

std::string userTileName(llvm::ArrayRef<int64_t> shape, Type elementType) {
  std::string text = "tile [";
  llvm::raw_string_ostream os(text);
  llvm::interleave(shape, os, ", ");
  os << "] " << userElementTypeName(elementType);
  return text;
}

std::string userLocation(Location loc) {
  std::string text;
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      text = (file.getFilename().strref() + ":" + llvm::Twine(file.getLine()) + ":" +
              llvm::Twine(file.getColumn()))
                 .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return text;
}

} // namespace asc2
