//===- CompileKernelFuzzer.cpp - fuzz target: MLIR text through the compiler -===//
//
// One input is asctile (or ascendc) MLIR text as a user or the frontend hands
// it to the compiler: parsed, verified, run through the whole pass pipeline,
// emitted as Ascend C and translated for the simulator (compileKernel). Any
// outcome but a compiled kernel or a failure that explains itself is a bug:
// a crash, a hang, a sanitizer report, or a failure with no message.
//
// Built against libFuzzer when the compiler is clang (ASC2_LIBFUZZER), and
// with StandaloneFuzzMain.cpp otherwise (corpus replay + seeded mutations,
// the short run `make test` does).
//
//===----------------------------------------------------------------------===//
#include "asc2/Driver/Pipeline.h"
#include "asc2/Support/InputText.h"

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {
// The frontend never nests deeper than a handful of loops; deep inputs are
// asc2-opt's concern (it checks them the same way) and only slow the search.
constexpr int64_t kMaxNesting = 200;
const char *const kPlatforms[] = {"Ascend910B1", "Ascend950", "Ascend910_93"};
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  if (asc2::checkInputText(text, kMaxNesting))
    return 0;
  asc2::CompileOptions options;
  options.platform = kPlatforms[size % 3];
  options.verifySync = true;
  asc2::CompileResult result = asc2::compileKernel(text, options);
  if (!result.kernel && (!result.failure || result.failure->message.empty()))
    std::abort(); // a failure that does not say why
  return 0;
}
