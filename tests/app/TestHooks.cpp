// `_asc2_test`: lets a test script publish compile reports from the Python
// worker thread, the way asc2._C does after a compile or a launch.
#pragma push_macro("slots")
#undef slots
#include <pybind11/embed.h>
#pragma pop_macro("slots")

#include "SampleReport.h"

namespace py = pybind11;

PYBIND11_EMBEDDED_MODULE(_asc2_test, m)
{
    m.def(
        "publish",
        [](const std::string &kernel, int passes, int64_t cycles, int races, bool ok) {
            auto report = makeSampleReport(kernel, passes);
            asc2::ReportHub::instance().publish(asc2::ReportEvent::Compiled, report);
            if (cycles < 0)
                return;
            auto launched = std::make_shared<asc2::CompileReport>(*report);
            launched->launches.push_back(makeLaunch(uint64_t(cycles), ok, races));
            asc2::ReportHub::instance().publish(asc2::ReportEvent::Launched, launched);
        },
        py::arg("kernel"), py::arg("passes") = 6, py::arg("cycles") = -1, py::arg("races") = 0,
        py::arg("ok") = true,
        "Publishes a compile report of `kernel`, then (when cycles >= 0) its launch.");
}
