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
  py::object error = py::reinterpret_borrow<py::object>(compileErrorType)(*args);
  error.attr("kind") = asc2::errorKindName(f.kind);
  PyErr_SetObject(compileErrorType, error.ptr());
  throw py::error_already_set();
}

/// asc2.CompileOptions: the driver's options, typed; asc2.jit fills it from
/// the kernel's validated jit options.
static void bindCompileOptions(py::module_ &m) {
  using asc2::CompileOptions;
  py::class_<CompileOptions>(m, "CompileOptions")
      .def(py::init<>())
      .def_readwrite("platform", &CompileOptions::platform)
      .def_readwrite("source_file", &CompileOptions::sourceFile)
      .def_readwrite("insert_sync", &CompileOptions::insertSync)
      .def_readwrite("verify_sync", &CompileOptions::verifySync)
      .def_readwrite("sync_style", &CompileOptions::syncStyle,
                     "\"flag\" or \"buffer-id\"; empty: the target's")
      .def_readwrite("reuse_alloc", &CompileOptions::reuseAlloc)
      .def_readwrite("num_stages", &CompileOptions::numStages,
                     "buffers per loaded tile; 0: the compiler's choice")
      .def_readwrite("opt_level", &CompileOptions::optLevel)
      .def_readwrite("static_alloc", &CompileOptions::staticAlloc,
                     "None: per target")
      .def_readwrite("matmul_cube_only", &CompileOptions::matmulCubeOnly)
      .def_readwrite("vector_cores_per_group", &CompileOptions::vectorCoresPerGroup,
                     "MIX kernels: 0 two vector cores per cube core when the "
                     "work divides, 1 (MIX_AIC_1_1) or 2 (MIX_AIC_1_2)")
      .def_readwrite("user_options", &CompileOptions::userOptions,
                     "the jit options as the report shows them");
}

void init_ir(py::module_ &m) {
  compileErrorType = PyErr_NewExceptionWithDoc(
      "asc2._C.CompileError",
      "A kernel failed to compile: args = (message, file, line, col, "
      "diagnostics); kind = the ErrorKind's name (\"memory\", ...)",
      PyExc_RuntimeError, nullptr);
  m.attr("CompileError") = py::handle(compileErrorType);
  bindCompileOptions(m);

  py::class_<asc2::CompiledKernel, std::shared_ptr<asc2::CompiledKernel>>(
      m, "CompiledKernel")
      .def_property_readonly("kernel_name", &asc2::CompiledKernel::name)
      // The extern "C" symbol of the emitted kernel (report "kernel_symbol").
      .def_property_readonly(
          "kernel_symbol", [](asc2::CompiledKernel &k) { return k.report()->kernelSymbol; })
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
         const asc2::CompileOptions &options) {
        asc2::CompileResult result;
        {
          py::gil_scoped_release release;
          result = asc2::compileKernel(ir, options);
        }
        if (result.failure)
          raiseCompileError(*result.failure);
        if (!kernel.empty() && result.kernel->name() != kernel)
          throw std::runtime_error("compiled kernel '" + result.kernel->name() +
                                   "' but '" + kernel + "' was requested");
        return result.kernel;
      },
      py::arg("ir"), py::kw_only(), py::arg("kernel") = "",
      py::arg("options") = asc2::CompileOptions{});

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
  m.def(
      "core_counts",
      [](const std::string &platform) {
        std::string error;
        std::optional<asc2::ArchModel> arch = asc2::loadArch(platform, "", error);
        if (!arch)
          throw py::value_error(error);
        py::dict counts;
        counts["aic"] = arch->aicCores;
        counts["aiv"] = arch->aivCores;
        return counts;
      },
      py::arg("platform"),
      "Cube (AIC) and vector (AIV) core counts of `platform`: what kernel[None] launches on.");
}
