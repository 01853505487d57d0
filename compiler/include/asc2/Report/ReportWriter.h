//===- ReportWriter.h - a report as a directory of files -----------*- C++ -*-===//
#ifndef ASC2_REPORT_REPORTWRITER_H
#define ASC2_REPORT_REPORTWRITER_H

#include "asc2/Report/CompileReport.h"

#include <string>

namespace asc2 {
/// Writes dir/report.json, dir/passes/NN_after_<pass>.mlir, dir/ascendc.cpp
/// and, when the kernel was launched, dir/trace.json and
/// dir/PipeUtilization.csv of the last launch. False + error on I/O failure.
bool writeReportDir(const CompileReport &report, const std::string &dir,
                    std::string &error);
bool writeTextFile(const std::string &path, const std::string &text,
                   std::string &error);
} // namespace asc2

#endif
