//===- asc2-opt.cpp - mlir-opt with every asc2 dialect and pass ------------===//
//
// MLIR's parser, verifier and printer recurse once per nesting level of the
// input: 100,000 nested regions overflowed the default 8 MB stack (SIGSEGV).
// The driver refuses input nested deeper than kMaxNesting with a clear error
// and runs on a thread whose stack holds that depth with room to spare.
//
//===----------------------------------------------------------------------===//
#include "asc2/Driver/RegisterAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

namespace {

constexpr int64_t kMaxNesting = 10000;
constexpr unsigned kStackBytes = 512u << 20; // reserved, touched on demand

/// The deepest bracket nesting ({[(<) of MLIR text outside string literals
/// and comments, and the 1-based line where it is first reached.
std::pair<int64_t, int64_t> nestingDepth(llvm::StringRef text) {
  int64_t depth = 0, deepest = 0, line = 1, deepestLine = 1;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (c == '\n') {
      ++line;
    } else if (c == '"') {
      for (++i; i < e && text[i] != '"'; ++i) {
        if (text[i] == '\\')
          ++i;
        else if (text[i] == '\n')
          ++line;
      }
    } else if (c == '/' && i + 1 < e && text[i + 1] == '/') {
      while (i + 1 < e && text[i + 1] != '\n')
        ++i;
    } else if (c == '{' || c == '[' || c == '(' || c == '<') {
      if (++depth > deepest) {
        deepest = depth;
        deepestLine = line;
      }
    } else if ((c == '}' || c == ']' || c == ')' || (c == '>' && (i == 0 || text[i - 1] != '-'))) &&
               depth > 0) {
      --depth;
    }
  }
  return {deepest, deepestLine};
}

/// False (after an error) when an input file on the command line nests too
/// deeply. Arguments that are not readable files are left to MlirOptMain, as
/// is standard input (reading it here would consume it): the big stack is
/// what protects a pipe.
bool checkInputNesting(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '-')
      continue;
    auto buffer = llvm::MemoryBuffer::getFile(argv[i]);
    if (!buffer)
      continue;
    auto [depth, line] = nestingDepth((*buffer)->getBuffer());
    if (depth > kMaxNesting) {
      llvm::errs() << argv[i] << ":" << line << ": error: the input nests "
                   << depth << " levels deep; asc2-opt accepts at most "
                   << kMaxNesting << "\n";
      return false;
    }
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  asc2::registerAllDialects(registry);
  asc2::registerAllPasses();
  if (!checkInputNesting(argc, argv))
    return 1;
  int rc = 1;
  llvm::thread worker(std::optional<unsigned>(kStackBytes), [&] {
    rc = mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, "asc2 optimizer driver\n", registry));
  });
  worker.join();
  return rc;
}
