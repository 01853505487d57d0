// Simulated launches on numpy buffers.
#include "asc2/Driver/Pipeline.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <future>
#include <thread>

namespace py = pybind11;
using asc2::sim::ArgSpec;
using asc2::sim::DType;

static PyObject *simulationErrorType = nullptr;

/// numpy buffer format -> element type; nullopt when unsupported.
static std::optional<DType> dtypeOfBuffer(const py::buffer_info &info) {
  std::string f = info.format;
  if (!f.empty() && (f[0] == '<' || f[0] == '=' || f[0] == '@'))
    f = f.substr(1);
  if (f == "f" && info.itemsize == 4) return DType::F32;
  if (f == "e" && info.itemsize == 2) return DType::F16;
  if ((f == "i" || f == "l") && info.itemsize == 4) return DType::I32;
  if (f == "h" && info.itemsize == 2) return DType::I16;
  if (f == "b" && info.itemsize == 1) return DType::I8;
  if (f == "B" && info.itemsize == 1) return DType::U8;
  if (f == "?" && info.itemsize == 1) return DType::Bool;
  if ((f == "l" || f == "q") && info.itemsize == 8) return DType::I64;
  // bfloat16 arrives as raw 16-bit words (e.g. torch bf16 viewed as int16).
  return std::nullopt;
}

/// Runs `work` (a simulation) on a worker thread without the GIL while this
/// thread polls Python's signal handlers every 50 ms: Ctrl+C (SIGINT) cancels
/// the simulation and raises KeyboardInterrupt here within a fraction of a
/// second, instead of waiting for a run that may never end.
template <class Work>
static auto runInterruptibly(Work work) -> decltype(work()) {
  using Result = decltype(work());
  std::packaged_task<Result()> task(std::move(work));
  std::future<Result> done = task.get_future();
  bool interrupted = false;
  {
    py::gil_scoped_release release;
    std::thread worker(std::move(task));
    while (done.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
      py::gil_scoped_acquire acquire;
      if (PyErr_CheckSignals() != 0) { // a handler raised (KeyboardInterrupt)
        interrupted = true;
        asc2::cancelRequested() = true;
        break;
      }
    }
    worker.join();
  }
  if (interrupted)
    throw py::error_already_set();
  return done.get();
}

void init_sim(py::module_ &m) {
  simulationErrorType = PyErr_NewExceptionWithDoc(
      "asc2._C.SimulationError",
      "A simulated launch failed (out-of-bounds access, hang, cancel)",
      PyExc_RuntimeError, nullptr);
  m.attr("SimulationError") = py::handle(simulationErrorType);

  auto cls = py::reinterpret_borrow<
      py::class_<asc2::CompiledKernel, std::shared_ptr<asc2::CompiledKernel>>>(
      m.attr("CompiledKernel"));
  cls.def(
      "launch",
      [](asc2::CompiledKernel &k, int blockNum, py::list args, bool detectRaces,
         bool collectTrace, int dropWait, int dropGetBuf, uint64_t maxSteps) -> py::dict {
        const auto &specs = k.program().args;
        if (blockNum <= 0)
          throw py::value_error("block_num must be positive, got " +
                                std::to_string(blockNum));
        if (args.size() != specs.size())
          throw py::type_error("kernel '" + k.name() + "' takes " +
                               std::to_string(specs.size()) + " arguments, got " +
                               std::to_string(args.size()));
        std::vector<asc2::sim::LaunchArg> launchArgs;
        std::vector<py::buffer_info> keepAlive;
        for (size_t i = 0; i < specs.size(); ++i) {
          const ArgSpec &spec = specs[i];
          std::string argName = spec.name.empty() ? "#" + std::to_string(i) : "'" + spec.name + "'";
          asc2::sim::LaunchArg a;
          a.kind = spec.kind;
          if (spec.kind == ArgSpec::Kind::Gm) {
            if (!py::isinstance<py::buffer>(args[i]))
              throw py::type_error("argument " + argName +
                                   " must be an array (GlobalAddress)");
            py::buffer_info info = args[i].cast<py::buffer>().request(true);
            auto dt = dtypeOfBuffer(info);
            bool bf16 = spec.dtype == DType::BF16 && info.itemsize == 2;
            if (!bf16 && (!dt || *dt != spec.dtype))
              throw py::type_error(
                  "argument " + argName + " has element type '" + info.format +
                  "' but the kernel was compiled for " +
                  asc2::sim::dtypeName(spec.dtype));
            // C-contiguous check.
            py::ssize_t expect = info.itemsize;
            for (int d = (int)info.ndim - 1; d >= 0; --d) {
              if (info.shape[d] > 1 && info.strides[d] != expect)
                throw py::value_error("argument " + argName +
                                      " must be C-contiguous");
              expect *= info.shape[d];
            }
            a.data = info.ptr;
            a.bytes = info.size * info.itemsize;
            a.dtype = spec.dtype;
            keepAlive.push_back(std::move(info));
          } else if (spec.kind == ArgSpec::Kind::Int) {
            a.i = args[i].cast<int64_t>();
          } else {
            a.f = args[i].cast<double>();
          }
          launchArgs.push_back(a);
        }
        asc2::sim::SimOptions options;
        options.detectRaces = detectRaces;
        options.collectTrace = collectTrace;
        // Enough for the views; a production-size launch would otherwise
        // keep hundreds of MB of trace per report.
        options.maxTraceEvents = 200'000;
        options.maxSteps = maxSteps;
        options.cancel = &asc2::cancelRequested();
        asc2::cancelRequested() = false;
        if (dropWait >= 0 || dropGetBuf >= 0) {
          // Mutation testing: the run is reported, never raised or recorded.
          if (dropWait >= k.waitCount())
            throw py::index_error("drop_wait " + std::to_string(dropWait) +
                                  " is out of range (" +
                                  std::to_string(k.waitCount()) + " waits)");
          if (dropGetBuf >= k.getBufCount())
            throw py::index_error("drop_get_buf " + std::to_string(dropGetBuf) +
                                  " is out of range (" +
                                  std::to_string(k.getBufCount()) + " get_bufs)");
          options.collectTrace = false;
          asc2::sim::LaunchResult run = runInterruptibly([&] {
            return dropWait >= 0
                       ? k.simulateWithoutWait(dropWait, blockNum, launchArgs, options)
                       : k.simulateWithoutGetBuf(dropGetBuf, blockNum, launchArgs, options);
          });
          py::dict out;
          out["ok"] = run.ok;
          out["error"] = run.error;
          out["cycles"] = run.totalCycles;
          py::list races;
          for (const auto &r : run.races)
            races.append(r.message);
          out["races"] = races;
          return out;
        }
        asc2::LaunchRecord rec =
            runInterruptibly([&] { return k.launch(blockNum, launchArgs, options); });
        if (!rec.ok) {
          PyErr_SetString(simulationErrorType, rec.error.c_str());
          throw py::error_already_set();
        }
        py::dict out;
        out["ok"] = rec.ok;
        out["error"] = rec.error;
        out["cycles"] = rec.totalCycles;
        out["time_us"] = rec.timeUs;
        out["races"] = rec.raceMessages;
        out["warnings"] = rec.warnings;
        return out;
      },
      py::arg("block_num"), py::arg("args"), py::arg("detect_races") = true,
      py::arg("collect_trace") = true, py::arg("drop_wait") = -1,
      py::arg("drop_get_buf") = -1, py::arg("max_steps") = 0);
  cls.def(
      "record_device_launch",
      [](asc2::CompiledKernel &k, int blockNum, const std::string &profileDir) {
        asc2::LaunchRecord rec;
        rec.blockNum = blockNum;
        rec.ok = true;
        rec.onDevice = true;
        rec.profileDir = profileDir;
        k.recordLaunch(rec);
      },
      py::arg("block_num"), py::arg("profile_dir") = "",
      "Record a launch that ran on an NPU (the NPU backend): the workbench "
      "shows it, and imports profile_dir (msprof op output) into its profile.");
  cls.def_property_readonly(
      "inline_code",
      [](asc2::CompiledKernel &k) {
        const asc2::sim::Program &program = k.program();
        py::list sites;
        for (const asc2::sim::InlineCode &site : program.inlineCode) {
          py::dict d;
          d["api"] = site.api;
          d["file"] = py::none();
          d["line"] = py::none();
          d["col"] = py::none();
          if (site.loc >= 0 && size_t(site.loc) < program.locs.size()) {
            const asc2::sim::SourceLoc &loc = program.locs[site.loc];
            d["file"] = loc.file;
            d["line"] = loc.line;
            d["col"] = loc.col;
          }
          d["message"] = asc2::sim::inlineCodeRefusal(site);
          sites.append(d);
        }
        return sites;
      },
      "The kernel's asc2.inline / inline_vf calls in program order: dicts of api, file, line, "
      "col and message (why the simulator refuses to launch it).");
  cls.def_property_readonly("wait_count", &asc2::CompiledKernel::waitCount);
  cls.def_property_readonly("get_buf_count", &asc2::CompiledKernel::getBufCount);

  m.def("cancel", [] { asc2::cancelRequested() = true; },
        "Ask running simulations to stop (they raise SimulationError).");
}
