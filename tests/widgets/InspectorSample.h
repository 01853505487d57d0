// A small double-buffered kernel as the compiler reports it: two copies of
// each tile (x, x_1), flags between MTE2, V and MTE3, and a simulated trace
// of one core with two iterations. Also synthetic reports of any size for
// the benchmark.
#pragma once

#include "ReportPtr.h"

#include <QString>

#include <string>

inline asc2::ReportLoc sampleLoc(int line)
{
    return {"/tmp/pp.py", line, 5};
}

inline std::string sampleTrace()
{
    // core0: load x (line 10) / add (line 11) / store (line 12), twice;
    // the second load overlaps the first add. V waits 0.5 µs for MTE2.
    return R"({"traceEvents":[
 {"name":"process_name","ph":"M","pid":"core0.veccore0","args":{"name":"core0.veccore0"}},
 {"name":"ascendc.get_block_idx","ph":"X","ts":0,"dur":0.01,"pid":"core0.veccore0","tid":"SCALAR","args":{"code":"/tmp/pp.py:9","detail":""}},
 {"name":"ascendc.data_copy_in","ph":"X","ts":0.0,"dur":1.0,"pid":"core0.veccore0","tid":"MTE2","args":{"code":"/tmp/pp.py:10","detail":"1024 bytes"}},
 {"name":"ascendc.set_flag","ph":"X","ts":1.0,"dur":0.01,"pid":"core0.veccore0","tid":"MTE2","args":{"code":"/tmp/pp.py:10","detail":"PIPE:MTE2, TRIGGER PIPE:V, FLAG ID:0"}},
 {"name":"flow","ph":"s","id":1,"cat":"MTE2ToV","ts":1.01,"pid":"core0.veccore0","tid":"MTE2"},
 {"name":"ascendc.wait_flag","ph":"X","ts":0.51,"dur":0.5,"pid":"core0.veccore0","tid":"VECTOR","args":{"code":"/tmp/pp.py:11","detail":"PIPE:MTE2, TRIGGER PIPE:V, FLAG ID:0"}},
 {"name":"flow","ph":"f","bp":"e","id":1,"cat":"MTE2ToV","ts":1.01,"pid":"core0.veccore0","tid":"VECTOR"},
 {"name":"ascendc.add","ph":"X","ts":1.01,"dur":0.8,"pid":"core0.veccore0","tid":"VECTOR","args":{"code":"/tmp/pp.py:11","detail":""}},
 {"name":"ascendc.data_copy_in","ph":"X","ts":1.01,"dur":1.0,"pid":"core0.veccore0","tid":"MTE2","args":{"code":"/tmp/pp.py:10","detail":"1024 bytes"}},
 {"name":"ascendc.data_copy_out","ph":"X","ts":1.81,"dur":0.6,"pid":"core0.veccore0","tid":"MTE3","args":{"code":"/tmp/pp.py:12","detail":""}},
 {"name":"ascendc.add","ph":"X","ts":2.01,"dur":0.8,"pid":"core0.veccore0","tid":"VECTOR","args":{"code":"/tmp/pp.py:11","detail":""}},
 {"name":"ascendc.data_copy_out","ph":"X","ts":2.81,"dur":0.6,"pid":"core0.veccore0","tid":"MTE3","args":{"code":"/tmp/pp.py:12","detail":""}}
]})";
}

inline std::shared_ptr<asc2::CompileReport> makePingPongReport()
{
    auto r = std::make_shared<asc2::CompileReport>();
    r->kernel = "pp";
    r->target = "Ascend910B1";
    r->sourceFile = "/tmp/pp.py";
    r->options["reuse_alloc"] = "1";
    const char *const ops[] = {
        "%0 = ascendc.alloc_local {name = \"x\", offset = 0 : i64} : !ascendc.local<256xf32, VECIN>",       // 0
        "%1 = ascendc.alloc_local {name = \"x_1\", offset = 1024 : i64} : !ascendc.local<256xf32, VECIN>",  // 1
        "ascendc.set_flag V -> MTE2, 0",                                                                     // 2
        "scf.for %arg5 = %c0 to %arg4 step %c2 {...}",                                                       // 3
        "ascendc.wait_flag V -> MTE2, 0",                                                                    // 4
        "ascendc.data_copy_in %0, %arg0[%10], %13 : !ascendc.local<256xf32, VECIN>, !ascendc.gm<f32>",       // 5
        "ascendc.set_flag MTE2 -> V, 1",                                                                     // 6
        "ascendc.wait_flag MTE2 -> V, 1",                                                                    // 7
        "ascendc.add %2, %0, %0, %c256 : !ascendc.local<256xf32, VECCALC>",                                  // 8
        "ascendc.set_flag V -> MTE2, 0",                                                                     // 9
        "ascendc.data_copy_out %arg2[%10], %2, %13 : !ascendc.gm<f32>, !ascendc.local<256xf32, VECCALC>",    // 10
        "%5 = ascendc.get_value %0[%c0] : f32",                                                               // 11
        "func.return",                                                                                       // 12
    };
    const int lines[] = {10, 10, 9, 9, 10, 10, 10, 11, 11, 11, 12, 13, 8};
    for (int i = 0; i < 13; ++i) {
        r->programPoints.push_back(ops[i]);
        r->pointLocs.push_back(sampleLoc(lines[i]));
    }
    const auto sync = [&](const char *kind, const char *src, const char *dst, int id, int point, const char *role) {
        asc2::SyncRecord s;
        s.kind = kind;
        s.srcPipe = src;
        s.dstPipe = dst;
        s.eventId = id;
        s.point = point;
        s.role = role;
        s.loc = sampleLoc(lines[point]);
        s.reason = std::string(std::string(src) == "V" ? "WAR on x: ascendc.add (V) -> ascendc.data_copy_in (MTE2)"
                                                       : "RAW on x: ascendc.data_copy_in (MTE2) -> ascendc.add (V)");
        r->sync.push_back(s);
    };
    sync("set_flag", "V", "MTE2", 0, 2, "prime");
    sync("wait_flag", "V", "MTE2", 0, 4, "carried");
    sync("set_flag", "MTE2", "V", 1, 6, "pair");
    sync("wait_flag", "MTE2", "V", 1, 7, "pair");
    sync("set_flag", "V", "MTE2", 0, 9, "carried");
    const auto buffer = [&](const char *name, int64_t offset, int start, int end, int line) {
        asc2::BufferRecord b;
        b.name = name;
        b.space = "UB";
        b.offset = offset;
        b.size = 1024;
        b.liveStart = start;
        b.liveEnd = end;
        b.loc = sampleLoc(line);
        r->buffers.push_back(b);
    };
    buffer("x", 0, 3, 11, 10);
    buffer("x_1", 1024, 3, 11, 10);
    buffer("addf", 2048, 8, 10, 11);
    r->spaces.push_back({"UB", 196608, 3072, 2048});
    asc2::LaunchRecord launch;
    launch.blockNum = 1;
    launch.ok = true;
    launch.totalCycles = 6300;
    launch.timeUs = 3.41;
    launch.pipes = {{"S", 18, 0.003}, {"V", 2960, 0.47}, {"MTE2", 3700, 0.59}, {"MTE3", 2220, 0.35}};
    launch.traceJson = sampleTrace();
    r->launches.push_back(launch);
    asc2::PassRecord pass;
    pass.name = "ascendc-insert-sync";
    pass.ir = "func.func @pp(%arg0: !ascendc.gm<f32>) {\n"
              "  %0 = ascendc.alloc_local {name = \"x\"} : !ascendc.local<256xf32, VECIN>\n"
              "  ascendc.data_copy_in %0, %arg0[%c0] : !ascendc.local<256xf32, VECIN>\n"
              "  %2 = ascendc.alloc_local {name = \"y\"} : !ascendc.local<256xf32, VECCALC>\n"
              "  ascendc.add %2, %0, %0 : !ascendc.local<256xf32, VECCALC>\n"
              "  return\n}\n";
    pass.irLines = {8, 10, 10, 11, 11, 8, 0};
    r->passes.push_back(pass);
    return r;
}

/// @p ops instructions spread over the pipes of one core, with flows.
inline std::string syntheticTrace(int ops)
{
    static const char *const lanes[] = {"SCALAR", "MTE2", "VECTOR", "MTE3"};
    std::string s = R"({"traceEvents":[)";
    double t[4] = {0, 0, 0, 0};
    for (int i = 0; i < ops; ++i) {
        const int lane = i % 4;
        const double dur = lane == 0 ? 0.001 : 0.01 + (i % 7) * 0.003;
        if (i)
            s += ',';
        s += R"({"name":"op)" + std::to_string(lane) + R"(","ph":"X","ts":)" + std::to_string(t[lane]) + R"(,"dur":)"
             + std::to_string(dur) + R"(,"pid":"core0.veccore0","tid":")" + lanes[lane]
             + R"(","args":{"code":"k.py:)" + std::to_string(10 + lane) + R"(","detail":""}})";
        t[lane] += dur * 1.1;
        if (lane == 1 && i % 40 == 1)
            s += R"(,{"name":"flow","ph":"s","id":)" + std::to_string(i) + R"(,"ts":)" + std::to_string(t[1])
                 + R"(,"pid":"core0.veccore0","tid":"MTE2"},{"name":"flow","ph":"f","id":)" + std::to_string(i)
                 + R"(,"ts":)" + std::to_string(t[2]) + R"(,"pid":"core0.veccore0","tid":"VECTOR"})";
    }
    s += "]}";
    return s;
}

inline std::shared_ptr<asc2::CompileReport> syntheticBufferReport(int buffers)
{
    auto r = std::make_shared<asc2::CompileReport>();
    r->kernel = "synthetic";
    int64_t peak = 0;
    for (int i = 0; i < buffers; ++i) {
        asc2::BufferRecord b;
        b.name = "t" + std::to_string(i % 97) + (i % 2 ? "_1" : "");
        b.space = i % 5 == 0 ? "L1" : "UB";
        b.size = 256 + (i % 13) * 128;
        b.offset = (int64_t(i) * 1024) % (180 * 1024);
        b.liveStart = i / 3;
        b.liveEnd = i / 3 + 5 + i % 17;
        b.loc = sampleLoc(10 + i % 40);
        peak = std::max(peak, b.offset + b.size);
        r->buffers.push_back(b);
    }
    r->spaces = {{"UB", 196608, peak, peak / 2}, {"L1", 524288, peak, peak}};
    return r;
}
