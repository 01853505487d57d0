//===- ReportHub.cpp ------------------------------------------------------===//
#include "asc2/Report/ReportHub.h"

#include <algorithm>

namespace asc2 {

ReportHub &ReportHub::instance() {
  static ReportHub hub;
  return hub;
}

int ReportHub::addListener(Listener listener) {
  std::lock_guard<std::mutex> lock(mutex);
  int id = nextId++;
  listeners.emplace_back(id, std::move(listener));
  return id;
}

void ReportHub::removeListener(int id) {
  std::lock_guard<std::mutex> lock(mutex);
  listeners.erase(std::remove_if(listeners.begin(), listeners.end(),
                                 [&](const auto &l) { return l.first == id; }),
                  listeners.end());
}

void ReportHub::publish(ReportEvent event,
                        std::shared_ptr<const CompileReport> report) {
  // Copy so a listener may add or remove listeners while being called.
  std::vector<std::pair<int, Listener>> current;
  {
    std::lock_guard<std::mutex> lock(mutex);
    current = listeners;
  }
  for (auto &entry : current)
    entry.second(event, report);
}

} // namespace asc2
