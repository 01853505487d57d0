//===- asc2-opt.cpp - mlir-opt with every asc2 dialect and pass ------------===//
//
// MLIR's parser, verifier and printer recurse once per nesting level of the
// input: 100,000 nested regions overflowed the default 8 MB stack (SIGSEGV).
// The driver refuses input nested deeper than kMaxNesting with a clear error
// and runs on a thread whose stack holds that depth with room to spare.
//
//===----------------------------------------------------------------------===//
#include "asc2/Driver/RegisterAll.h"
#include "asc2/Support/InputText.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

namespace {

constexpr int64_t kMaxNesting = 10000;
constexpr unsigned kStackBytes = 512u << 20; // reserved, touched on demand

/// False (after an error) when an input file on the command line nests too
/// deeply or is not text. Arguments that are not readable files are left to
/// MlirOptMain, as is standard input (reading it here would consume it): the
/// big stack is what protects a pipe.
bool checkInputFiles(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '-')
      continue;
    auto buffer = llvm::MemoryBuffer::getFile(argv[i]);
    if (!buffer)
      continue;
    if (auto problem = asc2::checkInputText((*buffer)->getBuffer(), kMaxNesting)) {
      llvm::errs() << argv[i] << ":" << problem->line << ": error: " << problem->message
                   << "\n";
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
  if (!checkInputFiles(argc, argv))
    return 1;
  int rc = 1;
  llvm::thread worker(std::optional<unsigned>(kStackBytes), [&] {
    rc = mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, "asc2 optimizer driver\n", registry));
  });
  worker.join();
  return rc;
}
