//===- ReportWriter.cpp ---------------------------------------------------===//
#include "asc2/Report/ReportWriter.h"

#include "asc2/Sim/Simulator.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>

namespace asc2 {

bool writeTextFile(const std::string &path, const std::string &text,
                   std::string &error) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    error = "cannot write " + path + ": " + ec.message();
    return false;
  }
  os << text;
  return true;
}

bool writeReportDir(const CompileReport &report, const std::string &dir,
                    std::string &error) {
  llvm::SmallString<256> passesDir(dir);
  llvm::sys::path::append(passesDir, "passes");
  if (std::error_code ec = llvm::sys::fs::create_directories(passesDir)) {
    error = "cannot create " + std::string(passesDir) + ": " + ec.message();
    return false;
  }
  auto path = [&](llvm::StringRef name) {
    llvm::SmallString<256> p(dir);
    llvm::sys::path::append(p, name);
    return std::string(p);
  };
  if (!writeTextFile(path("report.json"), toJson(report), error) ||
      !writeTextFile(path("ascendc.cpp"), report.ascendc, error))
    return false;
  for (const PassRecord &pass : report.passes) {
    char index[16];
    std::snprintf(index, sizeof(index), "%02d", pass.index);
    std::string name = std::string(index) + "_after_" + pass.name + ".mlir";
    for (char &c : name)
      if (c == '/' || c == ' ')
        c = '_';
    llvm::SmallString<256> p(passesDir);
    llvm::sys::path::append(p, name);
    if (!writeTextFile(std::string(p), pass.ir, error))
      return false;
  }
  if (!report.launches.empty()) {
    const LaunchRecord &last = report.launches.back();
    std::string trace = last.trace ? sim::traceToJson(*last.trace) : "";
    if (!writeTextFile(path("trace.json"), trace, error) ||
        !writeTextFile(path("PipeUtilization.csv"), last.pipeUtilizationCsv,
                       error))
      return false;
  }
  return true;
}

} // namespace asc2
