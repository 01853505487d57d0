// Compilation: asctile IR text in, CompiledKernel (report, program) out.
#include "asc2/Driver/Pipeline.h"
#include "asc2/Report/ReportWriter.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

static PyObject *compileErrorType = nullptr;

static void raiseCompileError(const asc2::CompileFailure &f) {
  py::list diags;
  for (const asc2::DiagnosticRecord &d : f.diagnostics)
    diags.append(py::make_tuple(asc2::severityName(d.severity), d.message, d.loc.file, d.loc.line,
                                d.loc.col));
  py::tuple args = py::make_tuple(f.message, f.loc.file, f.loc.line, f.loc.col,
                                  diags);
  PyErr_SetObject(compileErrorType, args.ptr());
  throw py::error_already_set();
}

void init_ir(py::module_ &m) {
  compileErrorType = PyErr_NewExceptionWithDoc(
      "asc2._C.CompileError",
      "A kernel failed to compile: args = (message, file, line, col, "
      "diagnostics)",
      PyExc_RuntimeError, nullptr);
  m.attr("CompileError") = py::handle(compileErrorType);

  py::class_<asc2::CompiledKernel, std::shared_ptr<asc2::CompiledKernel>>(
      m, "CompiledKernel")
      .def_property_readonly("kernel_name", &asc2::CompiledKernel::name)
      .def_property_readonly(
          "ascendc", [](asc2::CompiledKernel &k) { return k.report()->ascendc; })
      .def_property_readonly("platform",
                             [](asc2::CompiledKernel &k) { return k.arch().name; })
      .def(
          "report_json",
          [](asc2::CompiledKernel &k, bool includeIr) {
            return asc2::toJson(*k.report(), includeIr);
          },
          py::arg("include_ir") = true)
      .def("write_report_dir", [](asc2::CompiledKernel &k, const std::string &dir) {
        std::string error;
        if (!asc2::writeReportDir(*k.report(), dir, error))
          throw std::runtime_error(error);
      });

  m.def(
      "compile",
      [](const std::string &ir, const std::string &kernel,
         const std::string &platform, const std::map<std::string, std::string> &options,
         const std::string &sourceFile) {
        asc2::CompileOptions opts;
        opts.platform = platform;
        opts.sourceFile = sourceFile;
        opts.userOptions = options;
        auto get = [&](const char *key) -> std::string {
          auto it = options.find(key);
          return it == options.end() ? "" : it->second;
        };
        std::string sync = get("insert_sync");
        opts.insertSync = !(sync == "False" || sync == "false" || sync == "0");
        std::string verify = get("verify_sync");
        opts.verifySync = verify == "True" || verify == "true" || verify == "1";
        opts.syncStyle = get("sync_style");
        std::string reuse = get("reuse_alloc");
        if (!reuse.empty() && reuse != "None")
          opts.reuseAlloc = std::atoi(reuse.c_str());
        std::string statics = get("static_alloc");
        if (statics == "True" || statics == "true" || statics == "1")
          opts.staticAlloc = true;
        else if (statics == "False" || statics == "false" || statics == "0")
          opts.staticAlloc = false;
        std::string stages = get("num_stages");
        if (!stages.empty() && stages != "None")
          opts.numStages = std::atoi(stages.c_str());
        asc2::CompileResult result;
        {
          py::gil_scoped_release release;
          result = asc2::compileKernel(ir, opts);
        }
        if (result.failure)
          raiseCompileError(*result.failure);
        if (!kernel.empty() && result.kernel->name() != kernel)
          throw std::runtime_error("compiled kernel '" + result.kernel->name() +
                                   "' but '" + kernel + "' was requested");
        return result.kernel;
      },
      py::arg("ir"), py::kw_only(), py::arg("kernel") = "",
      py::arg("platform") = "Ascend910B1",
      py::arg("options") = std::map<std::string, std::string>{},
      py::arg("source_file") = "");

  m.def(
      "compile_baseline",
      [](const std::string &ir, const std::string &platform,
         const std::string &sourceFile) {
        asc2::CompileOptions opts;
        opts.platform = platform;
        opts.sourceFile = sourceFile;
        asc2::CompileResult result;
        {
          py::gil_scoped_release release;
          result = asc2::compileBaseline(ir, opts);
        }
        if (result.failure)
          raiseCompileError(*result.failure);
        return result.kernel;
      },
      py::arg("ir"), py::kw_only(), py::arg("platform") = "Ascend910B1",
      py::arg("source_file") = "",
      "Compile a hand-written ascendc-level program (no passes run).");

  m.def("platforms", [] { return asc2::availablePlatforms(); });
}
