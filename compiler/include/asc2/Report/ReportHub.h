//===- ReportHub.h - Process-wide channel for compile reports ----*- C++ -*-===//
//
// The compiler is one shared library per process. The Python runtime (asc2._C)
// publishes each compilation and each launch here; the workbench subscribes,
// so it receives reports from the same in-memory compiler without parsing
// files. Listeners are called on the publishing thread.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_REPORT_REPORTHUB_H
#define ASC2_REPORT_REPORTHUB_H

#include "asc2/Report/CompileReport.h"

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace asc2 {

enum class ReportEvent { Compiled, Launched };

class ReportHub {
public:
  using Listener = std::function<void(
      ReportEvent, std::shared_ptr<const CompileReport>)>;

  static ReportHub &instance();
  /// Returns an id for removeListener.
  int addListener(Listener listener);
  void removeListener(int id);
  void publish(ReportEvent event, std::shared_ptr<const CompileReport> report);

private:
  std::mutex mutex;
  std::vector<std::pair<int, Listener>> listeners;
  int nextId = 1;
};

} // namespace asc2

#endif
