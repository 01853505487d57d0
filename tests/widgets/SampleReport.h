// Hand-made compile reports for tests: shaped like the compiler's, small
// enough to check every cell.
#pragma once

#include "ReportPtr.h"

#include "asc2/Sim/Simulator.h"

#include <string>

inline std::shared_ptr<asc2::CompileReport> makeSampleReport(const std::string &kernel = "vadd",
                                                             int passCount = 6)
{
    auto report = std::make_shared<asc2::CompileReport>();
    report->kernel = kernel;
    report->target = "Ascend910B1";
    report->sourceFile = "/tmp/" + kernel + ".py";
    static const char *const names[] = {"frontend", "canonicalize", "asctile-unroll-loop",
                                        "asctile-to-ascendc", "ascendc-plan-ub", "ascendc-insert-sync",
                                        "ascendc-emit"};
    static const char *const stages[] = {"frontend", "asctile", "asctile", "lowering",
                                         "ascendc", "ascendc", "emit"};
    for (int i = 0; i < passCount; ++i) {
        asc2::PassRecord pass;
        pass.index = i;
        pass.name = names[i % 7];
        pass.stage = stages[i % 7];
        pass.changed = i % 3 != 1;
        pass.wallMs = 0.25 * (i + 1);
        pass.opCount = 10 + i;
        pass.ir = "func.func @" + kernel + "(%arg0: !asctile.tensor<?xf32>) {\n"
                  "  %0 = arith.constant " + std::to_string(i) + " : index // after " + pass.name + "\n"
                  "  return\n}\n";
        // Python line of each IR line: the function, the constant, the return.
        pass.irLines = {1, 5, 6, 0};
        report->passes.push_back(pass);
    }
    report->ascendc = "extern \"C\" __global__ __aicore__ void " + kernel + "(GM_ADDR x) {}\n";
    return report;
}

inline asc2::LaunchRecord makeLaunch(uint64_t cycles, bool ok = true, int races = 0)
{
    asc2::LaunchRecord launch;
    launch.blockNum = 8;
    launch.ok = ok;
    launch.totalCycles = cycles;
    launch.timeUs = cycles / 1850.0;
    launch.races = races;
    launch.trace = std::make_shared<asc2::sim::Trace>(); // a trace without events
    return launch;
}
