// A small double-buffered kernel as the compiler reports it: two copies of
// each tile (x, x_1), flags between MTE2, V and MTE3, and a simulated trace
// of one core with two iterations. Also synthetic reports of any size for
// the benchmark.
#pragma once

#include "ReportPtr.h"
#include "asc2/Report/StaticStalls.h"

#include <QString>

#include <string>

inline asc2::ReportLoc sampleLoc(int line)
{
    return {"/tmp/pp.py", line, 5};
}

/// A program point as the compiler reports it.
inline asc2::ProgramPointRecord samplePoint(const char *text, const char *name, asc2::Pipe pipe, asc2::ReportLoc loc)
{
    asc2::ProgramPointRecord p;
    p.text = text;
    p.name = name;
    p.pipe = pipe;
    p.loc = loc;
    return p;
}

/// A sync record from the names the JSON report uses.
inline asc2::SyncRecord sampleSync(const char *kind, const char *src, const char *dst, int id, int point, const char *role)
{
    asc2::SyncRecord s;
    s.kind = *asc2::parseSyncKind(kind);
    s.srcPipe = *asc2::parsePipe(src);
    s.dstPipe = *asc2::parsePipe(dst);
    s.eventId = id;
    s.point = point;
    s.role = *asc2::parseSyncRole(role);
    return s;
}

/// A schedule edge as asc2::StaticSchedule reports it (the fixtures give the
/// edges the compiler finds on the IR they describe; tests/compiler has the
/// tests of that pairing, these of what the views make of it).
inline asc2::ScheduleEdgeRecord sampleEdge(int set, int wait, asc2::Pipe src, asc2::Pipe dst, int id, bool wraps,
                                           std::string reason)
{
    asc2::ScheduleEdgeRecord e;
    e.setPoint = set;
    e.waitPoint = wait;
    e.src = src;
    e.dst = dst;
    e.eventId = id;
    e.wraps = wraps;
    e.reason = std::move(reason);
    return e;
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

/// sampleTrace() as the simulator hands it over in process (1000 MHz:
/// one cycle is 1 ns).
inline std::shared_ptr<asc2::sim::Trace> sampleSimTrace()
{
    namespace sim = asc2::sim;
    using asc2::Pipe;
    sim::Program program;
    program.pointNames = {"ascendc.get_block_idx", "ascendc.data_copy_in", "ascendc.set_flag",
                          "ascendc.wait_flag",     "ascendc.add",          "ascendc.data_copy_out"};
    const int lines[] = {9, 10, 10, 11, 11, 12};
    for (int p = 0; p < 6; ++p) {
        program.locs.push_back({"/tmp/pp.py", lines[p], 5});
        sim::Instr in;
        in.point = p;
        in.loc = p;
        program.code.push_back(in);
    }
    asc2::ArchModel arch;
    arch.clockMHz = 1000;
    const auto event = [](Pipe pipe, int point, uint64_t start, uint64_t end, sim::Opcode op, int64_t bytes = 0) {
        sim::TraceEvent e;
        e.pipe = pipe;
        e.point = point;
        e.start = start;
        e.end = end;
        e.op = op;
        e.bytes = bytes;
        return e;
    };
    sim::LaunchResult run;
    run.trace = {event(Pipe::S, 0, 0, 10, sim::Opcode::BlockIdx),
                 event(Pipe::MTE2, 1, 0, 1000, sim::Opcode::CopyGmToLocal, 1024),
                 event(Pipe::MTE2, 2, 1000, 1010, sim::Opcode::SetFlag),
                 event(Pipe::V, 3, 510, 1010, sim::Opcode::WaitFlag),
                 event(Pipe::V, 4, 1010, 1810, sim::Opcode::VecBinary),
                 event(Pipe::MTE2, 1, 1010, 2010, sim::Opcode::CopyGmToLocal, 1024),
                 event(Pipe::MTE3, 5, 1810, 2410, sim::Opcode::CopyLocalToGm),
                 event(Pipe::V, 4, 2010, 2810, sim::Opcode::VecBinary),
                 event(Pipe::MTE3, 5, 2810, 3410, sim::Opcode::CopyLocalToGm)};
    for (int i : {2, 3}) { // the flag MTE2 -> V, 0
        run.trace[i].flagSrc = Pipe::MTE2;
        run.trace[i].flagDst = Pipe::V;
        run.trace[i].flowId = 1;
    }
    return sim::makeTrace(std::move(run), program, arch);
}

inline std::shared_ptr<asc2::CompileReport> makePingPongReport()
{
    auto r = std::make_shared<asc2::CompileReport>();
    r->kernel = "pp";
    r->target = "Ascend910B1";
    r->sourceFile = "/tmp/pp.py";
    r->options["reuse_alloc"] = "1";
    using asc2::Pipe;
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
    const char *const names[] = {"ascendc.alloc_local", "ascendc.alloc_local", "ascendc.set_flag",    "scf.for",
                                 "ascendc.wait_flag",   "ascendc.data_copy_in", "ascendc.set_flag",   "ascendc.wait_flag",
                                 "ascendc.add",         "ascendc.set_flag",     "ascendc.data_copy_out", "ascendc.get_value",
                                 "func.return"};
    const Pipe pipes[] = {Pipe::S, Pipe::S,  Pipe::V, Pipe::S,    Pipe::MTE2, Pipe::MTE2, Pipe::MTE2,
                          Pipe::V, Pipe::V, Pipe::V, Pipe::MTE3, Pipe::S,    Pipe::S};
    const int lines[] = {10, 10, 9, 9, 10, 10, 10, 11, 11, 11, 12, 13, 8};
    for (int i = 0; i < 13; ++i)
        r->points.push_back(samplePoint(ops[i], names[i], pipes[i], sampleLoc(lines[i])));
    const auto sync = [&](const char *kind, const char *src, const char *dst, int id, int point, const char *role) {
        asc2::SyncRecord s = sampleSync(kind, src, dst, id, point, role);
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
    // The priming set is taken by the first iteration's wait, the body's set
    // by the next iteration's (around the back-edge).
    r->scheduleEdges = {sampleEdge(2, 4, Pipe::V, Pipe::MTE2, 0, false, r->sync[0].reason),
                        sampleEdge(6, 7, Pipe::MTE2, Pipe::V, 1, false, r->sync[2].reason),
                        sampleEdge(9, 4, Pipe::V, Pipe::MTE2, 0, true, r->sync[4].reason)};
    r->scheduleStalls = asc2::staticStalls(*r);
    const auto buffer = [&](const char *name, int64_t offset, int start, int end, int line, int slot = 0) {
        asc2::BufferRecord b;
        b.name = name;
        b.slot = slot;
        b.space = "UB";
        b.offset = offset;
        b.size = 1024;
        b.liveStart = start;
        b.liveEnd = end;
        b.loc = sampleLoc(line);
        r->buffers.push_back(b);
    };
    buffer("x", 0, 3, 11, 10);
    buffer("x_1", 1024, 3, 11, 10, /*slot=*/1);
    buffer("addf", 2048, 8, 10, 11);
    r->spaces.push_back({"UB", 196608, 3072, 2048});
    asc2::LaunchRecord launch;
    launch.blockNum = 1;
    launch.ok = true;
    launch.totalCycles = 6300;
    launch.timeUs = 3.41;
    launch.pipes = {{Pipe::S, 18, 0.003}, {Pipe::V, 2960, 0.47}, {Pipe::MTE2, 3700, 0.59}, {Pipe::MTE3, 2220, 0.35}};
    launch.trace = sampleSimTrace();
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

/// A cube (matmul) kernel as the cube path reports it: buffers in UB, L1,
/// L0A, L0B and L0C, ops on MTE2, MTE1, M, FIX and MTE3 chained by flags.
inline std::shared_ptr<asc2::CompileReport> makeCubeReport()
{
    auto r = std::make_shared<asc2::CompileReport>();
    r->kernel = "mm";
    r->target = "Ascend910B1";
    r->sourceFile = "/tmp/mm.py";
    const char *const ops[] = {
        "%0 = ascendc.alloc_local {name = \"a\"} : !ascendc.local<64x64xf16, A1>",                        // 0
        "%1 = ascendc.alloc_local {name = \"a_l0\"} : !ascendc.local<64x64xf16, A2>",                     // 1
        "%2 = ascendc.alloc_local {name = \"b_l0\"} : !ascendc.local<64x64xf16, B2>",                     // 2
        "%3 = ascendc.alloc_local {name = \"c\"} : !ascendc.local<64x64xf32, CO1>",                       // 3
        "%4 = ascendc.alloc_local {name = \"out\"} : !ascendc.local<64x64xf32, VECOUT>",                  // 4
        "ascendc.data_copy_gm_to_l1 %0, %arg0[%c0] : !ascendc.local<64x64xf16, A1>, !ascendc.gm<f16>",     // 5
        "ascendc.set_flag MTE2 -> MTE1, 0",                                                                // 6
        "ascendc.wait_flag MTE2 -> MTE1, 0",                                                               // 7
        "ascendc.load_data %1, %0 : !ascendc.local<64x64xf16, A2>",                                        // 8
        "ascendc.load_data_b %2, %0 : !ascendc.local<64x64xf16, B2>",                                      // 9
        "ascendc.set_flag MTE1 -> M, 1",                                                                   // 10
        "ascendc.wait_flag MTE1 -> M, 1",                                                                  // 11
        "ascendc.mmad %3, %1, %2 : !ascendc.local<64x64xf32, CO1>",                                        // 12
        "ascendc.set_flag M -> FIX, 2",                                                                    // 13
        "ascendc.wait_flag M -> FIX, 2",                                                                   // 14
        "ascendc.fixpipe %4, %3 : !ascendc.local<64x64xf32, VECOUT>",                                      // 15
        "ascendc.set_flag FIX -> MTE3, 3",                                                                 // 16
        "ascendc.wait_flag FIX -> MTE3, 3",                                                                // 17
        "ascendc.data_copy_out %arg1[%c0], %4 : !ascendc.gm<f32>, !ascendc.local<64x64xf32, VECOUT>",     // 18
        "func.return",                                                                                     // 19
    };
    using asc2::Pipe;
    const char *const names[] = {"ascendc.alloc_local",  "ascendc.alloc_local", "ascendc.alloc_local", "ascendc.alloc_local",
                                 "ascendc.alloc_local",  "ascendc.data_copy_gm_to_l1", "ascendc.set_flag", "ascendc.wait_flag",
                                 "ascendc.load_data",    "ascendc.load_data_b", "ascendc.set_flag",    "ascendc.wait_flag",
                                 "ascendc.mmad",         "ascendc.set_flag",    "ascendc.wait_flag",   "ascendc.fixpipe",
                                 "ascendc.set_flag",     "ascendc.wait_flag",   "ascendc.data_copy_out", "func.return"};
    const Pipe pointPipes[] = {Pipe::S,    Pipe::S,    Pipe::S,    Pipe::S, Pipe::S, Pipe::MTE2, Pipe::MTE2,
                          Pipe::MTE1, Pipe::MTE1, Pipe::MTE1, Pipe::MTE1, Pipe::M, Pipe::M, Pipe::M,
                          Pipe::FIX,  Pipe::FIX,  Pipe::FIX,  Pipe::MTE3, Pipe::MTE3, Pipe::S};
    const int lines[] = {10, 11, 12, 13, 14, 10, 10, 11, 11, 12, 12, 13, 13, 13, 14, 14, 14, 15, 15, 9};
    for (int i = 0; i < 20; ++i)
        r->points.push_back(samplePoint(ops[i], names[i], pointPipes[i], {"/tmp/mm.py", lines[i], 5}));
    const auto sync = [&](const char *kind, const char *src, const char *dst, int id, int point, const char *reason) {
        asc2::SyncRecord s = sampleSync(kind, src, dst, id, point, "pair");
        s.loc = {"/tmp/mm.py", lines[point], 5};
        s.reason = reason;
        r->sync.push_back(s);
    };
    const char *const raw[] = {"RAW on a: ascendc.data_copy_gm_to_l1 (MTE2) -> ascendc.load_data (MTE1)",
                               "RAW on a_l0: ascendc.load_data (MTE1) -> ascendc.mmad (M)",
                               "RAW on c: ascendc.mmad (M) -> ascendc.fixpipe (FIX)",
                               "RAW on out: ascendc.fixpipe (FIX) -> ascendc.data_copy_out (MTE3)"};
    const char *const pipes[][2] = {{"MTE2", "MTE1"}, {"MTE1", "M"}, {"M", "FIX"}, {"FIX", "MTE3"}};
    const int setPoints[] = {6, 10, 13, 16};
    for (int i = 0; i < 4; ++i) {
        sync("set_flag", pipes[i][0], pipes[i][1], i, setPoints[i], raw[i]);
        sync("wait_flag", pipes[i][0], pipes[i][1], i, setPoints[i] + 1, raw[i]);
        r->scheduleEdges.push_back(sampleEdge(setPoints[i], setPoints[i] + 1, *asc2::parsePipe(pipes[i][0]),
                                              *asc2::parsePipe(pipes[i][1]), i, false, raw[i]));
    }
    r->scheduleStalls = asc2::staticStalls(*r);
    const auto buffer = [&](const char *name, const char *space, int64_t offset, int64_t size, int start, int end) {
        asc2::BufferRecord b;
        b.name = name;
        b.space = space;
        b.offset = offset;
        b.size = size;
        b.liveStart = start;
        b.liveEnd = end;
        b.loc = {"/tmp/mm.py", 10, 5};
        r->buffers.push_back(b);
    };
    buffer("out", "UB", 0, 16384, 4, 18);
    buffer("a", "L1", 0, 8192, 0, 9);
    buffer("b", "L1", 8192, 8192, 0, 9);
    buffer("a_l0", "L0A", 0, 8192, 1, 12);
    buffer("b_l0", "L0B", 0, 8192, 2, 12);
    buffer("c", "L0C", 0, 16384, 3, 15);
    // Listed out of order on purpose: the map orders UB, L1, L0A, L0B, L0C.
    r->spaces = {{"L0C", 131072, 16384, 16384}, {"UB", 196608, 16384, 16384}, {"L1", 524288, 16384, 8192},
                 {"L0A", 65536, 8192, 8192}, {"L0B", 65536, 8192, 4096}};
    return r;
}

/// One core's simulated run of makeCubeReport(): lanes named by thread_name
/// metadata as msprof op simulator does (CUBE for M, FIXP for FIX).
inline std::string cubeTrace()
{
    return R"({"traceEvents":[
 {"name":"process_name","ph":"M","pid":"core0.cubecore0","args":{"name":"core0.cubecore0"}},
 {"name":"thread_name","ph":"M","pid":"core0.cubecore0","tid":1,"args":{"name":"MTE2"}},
 {"name":"thread_name","ph":"M","pid":"core0.cubecore0","tid":2,"args":{"name":"MTE1"}},
 {"name":"thread_name","ph":"M","pid":"core0.cubecore0","tid":3,"args":{"name":"CUBE"}},
 {"name":"thread_name","ph":"M","pid":"core0.cubecore0","tid":4,"args":{"name":"FIXP"}},
 {"name":"thread_name","ph":"M","pid":"core0.cubecore0","tid":5,"args":{"name":"MTE3"}},
 {"name":"ascendc.data_copy_gm_to_l1","ph":"X","ts":0,"dur":1.0,"pid":"core0.cubecore0","tid":1,"args":{"code":"/tmp/mm.py:10","detail":"8192 bytes"}},
 {"name":"ascendc.set_flag","ph":"X","ts":1.0,"dur":0.01,"pid":"core0.cubecore0","tid":1,"args":{"code":"/tmp/mm.py:10","detail":"PIPE:MTE2, TRIGGER PIPE:MTE1, FLAG ID:0"}},
 {"name":"flow","ph":"s","id":1,"cat":"MTE2ToMTE1","ts":1.01,"pid":"core0.cubecore0","tid":1},
 {"name":"ascendc.wait_flag","ph":"X","ts":0.0,"dur":1.01,"pid":"core0.cubecore0","tid":2,"args":{"code":"/tmp/mm.py:11","detail":"PIPE:MTE2, TRIGGER PIPE:MTE1, FLAG ID:0"}},
 {"name":"flow","ph":"f","bp":"e","id":1,"cat":"MTE2ToMTE1","ts":1.01,"pid":"core0.cubecore0","tid":2},
 {"name":"ascendc.load_data","ph":"X","ts":1.01,"dur":0.3,"pid":"core0.cubecore0","tid":2,"args":{"code":"/tmp/mm.py:11","detail":""}},
 {"name":"ascendc.load_data_b","ph":"X","ts":1.31,"dur":0.3,"pid":"core0.cubecore0","tid":2,"args":{"code":"/tmp/mm.py:12","detail":""}},
 {"name":"ascendc.set_flag","ph":"X","ts":1.61,"dur":0.01,"pid":"core0.cubecore0","tid":2,"args":{"code":"/tmp/mm.py:12","detail":"PIPE:MTE1, TRIGGER PIPE:M, FLAG ID:1"}},
 {"name":"flow","ph":"s","id":2,"cat":"MTE1ToM","ts":1.62,"pid":"core0.cubecore0","tid":2},
 {"name":"ascendc.wait_flag","ph":"X","ts":0.0,"dur":1.62,"pid":"core0.cubecore0","tid":3,"args":{"code":"/tmp/mm.py:13","detail":"PIPE:MTE1, TRIGGER PIPE:M, FLAG ID:1"}},
 {"name":"flow","ph":"f","bp":"e","id":2,"cat":"MTE1ToM","ts":1.62,"pid":"core0.cubecore0","tid":3},
 {"name":"ascendc.mmad","ph":"X","ts":1.62,"dur":0.5,"pid":"core0.cubecore0","tid":3,"args":{"code":"/tmp/mm.py:13","detail":""}},
 {"name":"ascendc.set_flag","ph":"X","ts":2.12,"dur":0.01,"pid":"core0.cubecore0","tid":3,"args":{"code":"/tmp/mm.py:13","detail":"PIPE:M, TRIGGER PIPE:FIX, FLAG ID:2"}},
 {"name":"flow","ph":"s","id":3,"cat":"MToFIX","ts":2.13,"pid":"core0.cubecore0","tid":3},
 {"name":"ascendc.wait_flag","ph":"X","ts":0.0,"dur":2.13,"pid":"core0.cubecore0","tid":4,"args":{"code":"/tmp/mm.py:14","detail":"PIPE:M, TRIGGER PIPE:FIX, FLAG ID:2"}},
 {"name":"flow","ph":"f","bp":"e","id":3,"cat":"MToFIX","ts":2.13,"pid":"core0.cubecore0","tid":4},
 {"name":"ascendc.fixpipe","ph":"X","ts":2.13,"dur":0.4,"pid":"core0.cubecore0","tid":4,"args":{"code":"/tmp/mm.py:14","detail":""}},
 {"name":"ascendc.set_flag","ph":"X","ts":2.53,"dur":0.01,"pid":"core0.cubecore0","tid":4,"args":{"code":"/tmp/mm.py:14","detail":"PIPE:FIX, TRIGGER PIPE:MTE3, FLAG ID:3"}},
 {"name":"flow","ph":"s","id":4,"cat":"FIXToMTE3","ts":2.54,"pid":"core0.cubecore0","tid":4},
 {"name":"ascendc.wait_flag","ph":"X","ts":0.0,"dur":2.54,"pid":"core0.cubecore0","tid":5,"args":{"code":"/tmp/mm.py:15","detail":"PIPE:FIX, TRIGGER PIPE:MTE3, FLAG ID:3"}},
 {"name":"flow","ph":"f","bp":"e","id":4,"cat":"FIXToMTE3","ts":2.54,"pid":"core0.cubecore0","tid":5},
 {"name":"ascendc.data_copy_out","ph":"X","ts":2.54,"dur":0.6,"pid":"core0.cubecore0","tid":5,"args":{"code":"/tmp/mm.py:15","detail":"16384 bytes"}}
]})";
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
