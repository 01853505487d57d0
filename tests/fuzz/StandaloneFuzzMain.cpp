//===- StandaloneFuzzMain.cpp - libFuzzer's interface without libFuzzer ---===//
//
// Drives LLVMFuzzerTestOneInput where libFuzzer is not available (g++): every
// corpus file (split at `// -----`, as lit's -split-input-file) runs as is,
// then -runs=N mutants of them from a seeded generator (-seed=S), so a run is
// reproducible. A mutant that crashes or exceeds -timeout=S seconds is written
// to crash-<n>.mlir / timeout-<n>.mlir and the driver fails.
//
//   asc2-fuzz-compile [-runs=N] [-seed=S] [-timeout=S] [-max_total_time=S]
//                     [-artifact_prefix=DIR/] [-current_input=FILE] [-first_run=K]
//                     CORPUS_DIR_OR_FILE...
//
// -current_input writes each input to FILE before it runs: under valgrind
// (--exit-on-first-error=yes) FILE is then the input that went wrong.
// -first_run=K makes the mutants before K (same seed, same sequence) without
// running them: a crash found at mutant N replays from shortly before it.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {

std::string gCurrent;          // the input running now
std::string gArtifactPrefix;   // where a crashing input is written
std::string gCurrentInputFile; // -current_input
long long gMutant = -1;        // index of the mutant running now (-1: corpus)

void writeArtifact(const char *kind) {
  std::string path = gArtifactPrefix + kind + "-" + std::to_string(getpid()) + ".mlir";
  if (FILE *f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(gCurrent.data(), 1, gCurrent.size(), f);
    std::fclose(f);
  }
  std::fprintf(stderr, "asc2-fuzz: %s at mutant %lld; input written to %s\n", kind, gMutant, path.c_str());
}

void onCrash(int sig) {
  writeArtifact(sig == SIGALRM ? "timeout" : "crash");
  std::signal(sig, SIG_DFL);
  if (sig == SIGALRM)
    std::_Exit(70);
  std::raise(sig);
}

std::vector<std::string> splitInputs(const std::string &text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t sep = text.find("// -----", start);
    out.push_back(text.substr(start, sep == std::string::npos ? std::string::npos : sep - start));
    if (sep == std::string::npos)
      break;
    start = text.find('\n', sep);
    if (start == std::string::npos)
      break;
  }
  return out;
}

void readCorpus(const std::filesystem::path &path, std::vector<std::string> &corpus) {
  if (std::filesystem::is_directory(path)) {
    std::vector<std::filesystem::path> files;
    for (auto &entry : std::filesystem::directory_iterator(path))
      if (entry.is_regular_file())
        files.push_back(entry.path());
    std::sort(files.begin(), files.end()); // a reproducible order
    for (auto &file : files)
      readCorpus(file, corpus);
    return;
  }
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  for (std::string &part : splitInputs(buffer.str()))
    corpus.push_back(std::move(part));
}

// Values that sit on the edges of what the passes compute with.
const char *const kNumbers[] = {"0", "-1", "1", "2", "7", "31", "32", "33", "255", "256", "4095",
                                "65536", "2147483647", "-2147483648", "4294967296",
                                "9223372036854775807", "-9223372036854775808", "1.0e38", "0x7FC00000"};
// Pieces of the dialects a mutant splices in.
const char *const kTokens[] = {"f32", "f16", "bf16", "i1", "i8", "i32", "index", "UB", "L1", "L0A", "L0C",
                               "VECIN", "VECCALC", "VECOUT", "A1", "B2", "CO1", "x", "?", ",", "(", ")",
                               "<", ">", "{", "}", "[", "]", "%arg0", "%c0", "scf.yield", "return",
                               "asctile.load", "asctile.store", "asctile.splat", "arith.addf", "arith.mulf",
                               "asctile.reduce", "scf.for", "scf.if", "ascendc.alloc_local",
                               "ascendc.data_copy_in", "ascendc.set_flag", "ascendc.wait_flag",
                               "{asctile.unroll_factor = 4 : i64}", "{asctile.parallel = true}"};

std::string mutate(std::string s, std::mt19937_64 &rng) {
  auto pick = [&](size_t n) { return n ? size_t(rng() % n) : size_t(0); };
  int steps = 1 + int(rng() % 4);
  for (int k = 0; k < steps; ++k) {
    size_t pos = pick(s.size() + 1);
    switch (rng() % 7) {
    case 0: // replace a number with an edge value
    {
      size_t digit = s.find_first_of("0123456789", pos);
      if (digit == std::string::npos)
        break;
      size_t end = s.find_first_not_of("0123456789.xXabcdefABCDEF", digit);
      s.replace(digit, (end == std::string::npos ? s.size() : end) - digit,
                kNumbers[pick(std::size(kNumbers))]);
      break;
    }
    case 1: // delete a range
      s.erase(pos, pick(std::min<size_t>(64, s.size() - pos + 1)));
      break;
    case 2: // duplicate a line
    {
      size_t begin = s.rfind('\n', pos == 0 ? 0 : pos - 1);
      begin = begin == std::string::npos ? 0 : begin + 1;
      size_t end = s.find('\n', pos);
      std::string line = s.substr(begin, end == std::string::npos ? std::string::npos : end - begin + 1);
      s.insert(begin, line);
      break;
    }
    case 3: // insert a dialect token
      s.insert(pos, std::string(" ") + kTokens[pick(std::size(kTokens))] + " ");
      break;
    case 4: // replace a byte with a printable one
      if (!s.empty())
        s[std::min(pos, s.size() - 1)] = char(' ' + pick(95));
      break;
    case 5: // swap two lines
    {
      std::vector<std::string> lines;
      std::stringstream in(s);
      for (std::string line; std::getline(in, line);)
        lines.push_back(line);
      if (lines.size() > 2)
        std::swap(lines[pick(lines.size())], lines[pick(lines.size())]);
      s.clear();
      for (auto &line : lines)
        s += line + "\n";
      break;
    }
    default: // replace a token (identifier-ish run) with a dialect token
    {
      size_t begin = s.find_first_of("abcdefghijklmnopqrstuvwxyz", pos);
      if (begin == std::string::npos)
        break;
      size_t end = s.find_first_not_of("abcdefghijklmnopqrstuvwxyz_.0123456789", begin);
      s.replace(begin, (end == std::string::npos ? s.size() : end) - begin, kTokens[pick(std::size(kTokens))]);
      break;
    }
    }
  }
  return s;
}

bool flag(const char *arg, const char *name, long long &value) {
  size_t n = std::strlen(name);
  if (std::strncmp(arg, name, n) != 0 || arg[n] != '=')
    return false;
  value = std::atoll(arg + n + 1);
  return true;
}

} // namespace

int main(int argc, char **argv) {
  long long runs = 1000, seed = 1, timeout = 60, maxTotalTime = 0, firstRun = 0;
  std::vector<std::string> corpus;
  for (int i = 1; i < argc; ++i) {
    if (flag(argv[i], "-runs", runs) || flag(argv[i], "-seed", seed) || flag(argv[i], "-timeout", timeout) ||
        flag(argv[i], "-max_total_time", maxTotalTime) || flag(argv[i], "-first_run", firstRun))
      continue;
    if (std::strncmp(argv[i], "-current_input=", 15) == 0) {
      gCurrentInputFile = argv[i] + 15;
      continue;
    }
    if (std::strncmp(argv[i], "-artifact_prefix=", 17) == 0) {
      gArtifactPrefix = argv[i] + 17;
      continue;
    }
    if (argv[i][0] == '-') {
      std::fprintf(stderr, "asc2-fuzz: unknown option %s\n", argv[i]);
      return 2;
    }
    readCorpus(argv[i], corpus);
  }
  if (corpus.empty()) {
    std::fprintf(stderr, "asc2-fuzz: no corpus (give directories or files of MLIR text)\n");
    return 2;
  }
  for (int sig : {SIGSEGV, SIGABRT, SIGFPE, SIGBUS, SIGILL, SIGALRM})
    std::signal(sig, onCrash);
  auto runOne = [&](const std::string &input) {
    gCurrent = input;
    if (!gCurrentInputFile.empty())
      std::ofstream(gCurrentInputFile, std::ios::binary | std::ios::trunc) << input;
    alarm(unsigned(timeout));
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(input.data()), input.size());
    alarm(0);
  };
  auto start = std::chrono::steady_clock::now();
  if (firstRun == 0)
    for (const std::string &input : corpus)
      runOne(input);
  std::mt19937_64 rng{static_cast<uint64_t>(seed)};
  long long done = 0;
  for (; runs < 0 || done < runs; ++done) {
    if (maxTotalTime > 0 && std::chrono::steady_clock::now() - start > std::chrono::seconds(maxTotalTime))
      break;
    std::string input = mutate(corpus[rng() % corpus.size()], rng);
    gMutant = done;
    if (done >= firstRun)
      runOne(input);
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("asc2-fuzz: %zu corpus inputs and %lld mutants (seed %lld) in %.1f s: no crash, no hang\n",
              corpus.size(), done, seed, seconds);
  return 0;
}
