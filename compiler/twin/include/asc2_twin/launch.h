//===- launch.h - Running a kernel on the CPU twin -*- C++ -*-===//
//
// asc2_twin::Launch(blockDim, kernel, args...) runs the kernel once per block,
// blocks one after another (blocks only meet through GM, so this is a valid
// serialisation), and within a block on three threads: the AIC and two AIVs,
// each with its own thread-local core identity and local memories. The
// kernel's KERNEL_TASK_TYPE_DEFAULT makes the cores it does not use return at
// once. Cross-core flags block between the threads of a block. The first
// error of any core (an out-of-range access, a broken flag pairing, a
// deadlock) stops the launch and is rethrown as asc2_twin::Error.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_TWIN_LAUNCH_H
#define ASC2_TWIN_LAUNCH_H

#include "kernel_operator.h"

#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace asc2_twin {

namespace detail {
template <class T> struct NonDeduced {
  using type = T;
};
} // namespace detail

/// Runs `kernel(args...)` on blockDim blocks; throws asc2_twin::Error.
/// The arguments convert to the kernel's parameter types (they are not
/// deduced), so `Launch(8, vadd, x, y, z, int64_t(n))` and a literal `n` both work.
template <class... A>
void Launch(uint32_t blockDim, void (*kernel)(A...), typename detail::NonDeduced<A>::type... args) {
  if (blockDim == 0)
    throw Error("asc2_twin::Launch: blockDim must be at least 1");
  std::atomic<bool> abort{false};
  std::mutex errorLock;
  std::string firstError;
  for (uint32_t block = 0; block < blockDim && !abort; ++block) {
    BlockShared shared;
    shared.abort = &abort;
    std::unique_ptr<Core> cores[3];
    std::vector<std::thread> threads;
    for (int i = 0; i < 3; ++i) {
      cores[i] = std::make_unique<Core>();
      Core &c = *cores[i];
      c.kind = i == 0 ? CoreKind::AIC : CoreKind::AIV;
      c.block = block;
      c.subBlock = i == 0 ? 0 : uint32_t(i - 1);
      c.blockDim = blockDim;
      c.aivPerBlock = 2; // until the kernel's KERNEL_TASK_TYPE_DEFAULT says
      c.shared = &shared;
    }
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j)
        cores[i]->group[j] = cores[j].get();
    }
    // The memories another core of the block writes (Ascend950's local paths)
    // exist before the threads start, so no thread allocates one another uses.
    LocalBaseOf(*cores[0], Memory::L1);
    LocalBaseOf(*cores[1], Memory::UB);
    LocalBaseOf(*cores[2], Memory::UB);
    for (int i = 0; i < 3; ++i)
      threads.emplace_back([&, i] {
        CurrentCorePtr() = cores[i].get();
        try {
          kernel(args...);
        } catch (const std::exception &e) {
          std::lock_guard<std::mutex> g(errorLock);
          if (!abort.exchange(true))
            firstError = e.what();
        }
        CurrentCorePtr() = nullptr;
        {
          std::lock_guard<std::mutex> g(shared.m); // wake waiters to see abort
        }
        shared.cv.notify_all();
      });
    for (auto &t : threads)
      t.join();
  }
  if (abort)
    throw Error(firstError);
}

} // namespace asc2_twin

#endif // ASC2_TWIN_LAUNCH_H
