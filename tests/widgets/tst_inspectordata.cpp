// The plain-data side of the inspectors: pipes, slots, the static schedule,
// trace parsing, iterations, geometry, the shared state, the dataflow graph
// and the msprof importers (fixtures under fixtures/, good and malformed).
#include "DataflowGraph.h"
#include "InspectorData.h"
#include "InspectorGeometry.h"
#include "InspectorSample.h"
#include "InspectorState.h"
#include "CompareData.h"
#include "ProfileData.h"
#include "SpeedOfLight.h"

#include <QSignalSpy>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace inspector;

class TestInspectorData : public QObject
{
    Q_OBJECT
private:
    QString fixture(const QString &name) const { return QStringLiteral(ASC2_FIXTURES_DIR "/") + name; }

private slots:
    void pipesFromNamesAndOps()
    {
        QCOMPARE(pipeIndex("VECTOR"), int(Pipe::V));
        QCOMPARE(pipeIndex("SCALAR"), int(Pipe::S));
        QCOMPARE(pipeIndex("CUBE"), int(Pipe::M));
        QCOMPARE(pipeIndex("FIXP"), int(Pipe::FIX));
        QCOMPARE(pipeIndex("USERMARK"), -1);
        // An op's pipe and name come with the report's program point (the
        // compiler's PipeOpInterface: tests/unit/ReportTest.cpp).
    }

    void slotsAreTheCompilers()
    {
        // The slot is the compiler's, never the name's.
        asc2::BufferRecord b;
        b.name = "x_ptr_1";
        QCOMPARE(slotOf(b), 0);
        b.slot = 2;
        QCOMPARE(slotOf(b), 2);
    }

    void tilesPairEachCopyWithItsFirstCopy()
    {
        // softmax's loop body, double-buffered: the lowering numbers buffers of a
        // kind in IR order, so "broadcast_1" is the second broadcast (slot 0) and
        // "broadcast_3" its pong copy.
        std::vector<asc2::BufferRecord> buffers;
        for (const auto &[name, slot] : std::vector<std::pair<const char *, int>>{
                 {"x_ptr", 0}, {"broadcast", 0}, {"broadcast_1", 0}, {"mulf_7", 0},
                 {"x_ptr_1", 1}, {"broadcast_2", 1}, {"broadcast_3", 1}}) {
            asc2::BufferRecord b;
            b.name = name;
            b.space = "UB";
            b.slot = slot;
            buffers.push_back(b);
        }
        QCOMPARE(tilesOf(buffers), (QStringList{"x_ptr", "broadcast", "broadcast_1", "mulf_7", "x_ptr",
                                                "broadcast", "broadcast_1"}));
    }

    void staticScheduleLinksSetToWait()
    {
        const StaticSchedule s = StaticSchedule::fromReport(*makePingPongReport());
        QCOMPARE(s.ops.size(), 13);
        QCOMPARE(s.ops[5].pipe, Pipe::MTE2);
        QCOMPARE(s.ops[8].pipe, Pipe::V);
        QCOMPARE(s.ops[10].pipe, Pipe::MTE3);
        QCOMPARE(s.ops[2].pipe, Pipe::V);    // set_flag V -> MTE2 runs on V
        QCOMPARE(s.ops[4].pipe, Pipe::MTE2); // its wait on MTE2
        QCOMPARE(s.edges.size(), 3);
        QCOMPARE(s.edges[0].setPoint, 2);
        QCOMPARE(s.edges[0].waitPoint, 4);
        QVERIFY(!s.edges[0].wraps);
        QCOMPARE(s.edges[1].setPoint, 6);
        QCOMPARE(s.edges[1].waitPoint, 7);
        QCOMPARE(s.edges[2].setPoint, 9); // loop-carried: the next iteration's wait
        QCOMPARE(s.edges[2].waitPoint, 4);
        QVERIFY(s.edges[2].wraps);
        QVERIFY(s.edges[1].reason.startsWith("RAW on x"));
    }

    void staticStallsWhereAPipeWaits()
    {
        const StaticSchedule s = StaticSchedule::fromReport(*makePingPongReport());
        // V waits for the load at 5 (its last op was the priming set at 2);
        // MTE2 waits for the add at 8 to free x before the next iteration's
        // load; the priming set (2 -> 4) guards nothing: no stall.
        QCOMPARE(s.stalls.size(), 2);
        const StaticStall &mte2 = s.stalls[0];
        QCOMPARE(mte2.pipe, Pipe::MTE2);
        QCOMPARE(mte2.edge, 2);
        QCOMPARE(mte2.producer, 8);
        QCOMPARE(mte2.lastOwn, 6);
        QCOMPARE(mte2.from, 8.0);
        QCOMPARE(mte2.to, 10.0); // until the loop-carried set is done
        const StaticStall &v = s.stalls[1];
        QCOMPARE(v.pipe, Pipe::V);
        QCOMPARE(v.edge, 1);
        QCOMPARE(v.producer, 5);
        QCOMPARE(v.lastOwn, 2);
        QCOMPARE(v.from, 5.0);
        QCOMPARE(v.to, 7.0);

        // A waiting pipe with work after the set gets there late: no stall.
        asc2::CompileReport busy;
        busy.points = {samplePoint("ascendc.data_copy_in %0, %arg0[%c0]", "ascendc.data_copy_in", Pipe::MTE2, {}),
                       samplePoint("ascendc.set_flag MTE2 -> V, 0", "ascendc.set_flag", Pipe::MTE2, {}),
                       samplePoint("ascendc.exp %1, %1", "ascendc.exp", Pipe::V, {}),
                       samplePoint("ascendc.wait_flag MTE2 -> V, 0", "ascendc.wait_flag", Pipe::V, {}),
                       samplePoint("ascendc.add %2, %0, %1", "ascendc.add", Pipe::V, {})};
        asc2::SyncRecord set = sampleSync("set_flag", "MTE2", "V", 0, 1, "pair");
        asc2::SyncRecord wait = sampleSync("wait_flag", "MTE2", "V", 0, 3, "pair");
        busy.sync = {set, wait};
        busy.scheduleEdges = {sampleEdge(1, 3, Pipe::MTE2, Pipe::V, 0, false, "")};
        busy.scheduleStalls = asc2::staticStalls(busy);
        const StaticSchedule b = StaticSchedule::fromReport(busy);
        QCOMPARE(b.edges.size(), 1);
        QVERIFY(b.stalls.isEmpty());
        // Without the exp, V has nothing to do until the load is done.
        busy.points[2] = samplePoint("arith.addi %a, %b : index", "arith.addi", Pipe::S, {});
        const std::vector<asc2::ScheduleStallRecord> idle = asc2::staticStalls(busy);
        QCOMPARE(idle.size(), size_t(1));
        QCOMPARE(idle[0].pipe, Pipe::V);
        QCOMPARE(idle[0].from, 0.0); // from the load
        QCOMPARE(idle[0].to, 3.0);   // to the wait
    }

    void cubePipesInProgramOrder()
    {
        const StaticSchedule s = StaticSchedule::fromReport(*makeCubeReport());
        QCOMPARE(s.ops[5].pipe, Pipe::MTE2);
        QCOMPARE(s.ops[8].pipe, Pipe::MTE1);
        QCOMPARE(s.ops[9].pipe, Pipe::MTE1);
        QCOMPARE(s.ops[12].pipe, Pipe::M);
        QCOMPARE(s.ops[15].pipe, Pipe::FIX);
        QCOMPARE(s.ops[10].pipe, Pipe::MTE1); // set_flag MTE1 -> M
        QCOMPARE(s.ops[11].pipe, Pipe::M);    // its wait
        QCOMPARE(s.edges.size(), 4);
        const Pipe chain[] = {Pipe::MTE2, Pipe::MTE1, Pipe::M, Pipe::FIX, Pipe::MTE3};
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(s.edges[i].src, chain[i]);
            QCOMPARE(s.edges[i].dst, chain[i + 1]);
        }
        // Each stage idles until the one before it hands over.
        QCOMPARE(s.stalls.size(), 4);
        QSet<int> waiting;
        for (const StaticStall &st : s.stalls)
            waiting.insert(int(st.pipe));
        QCOMPARE(waiting, (QSet<int>{int(Pipe::MTE1), int(Pipe::M), int(Pipe::FIX), int(Pipe::MTE3)}));
        const SimTrace t = SimTrace::parse(QByteArray::fromStdString(cubeTrace()));
        QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
        QCOMPARE(t.flows.size(), 4);
        QCOMPARE(t.flows[1].src, Pipe::MTE1);
        QCOMPARE(t.flows[1].dst, Pipe::M);
        QCOMPARE(t.flows[2].dst, Pipe::FIX);
        QVERIFY(qFuzzyCompare(t.pipeBusy()[int(Pipe::M)], 0.51));
    }

    void lineCostsOfARun()
    {
        const ProfileRun run = profileFromLaunch(*makePingPongReport(), 0);
        // Line 10: two loads and a set_flag, all on MTE2.
        QVERIFY(qFuzzyCompare(run.linePipeUs.value(10)[int(Pipe::MTE2)], 2.01));
        QCOMPARE(run.linePipeUs.value(11)[int(Pipe::MTE2)], 0.0);
        QVERIFY(qFuzzyCompare(run.linePipeUs.value(11)[int(Pipe::V)], 1.6)); // the wait is not work
        const QHash<int, LineCost> costs = lineCosts(run);
        const LineCost &hot = costs[10];
        QCOMPARE(hot.heat, 1.0);
        QVERIFY(qFuzzyCompare(hot.us, 2.01));
        // 6300 cycles in 3.41 µs.
        QVERIFY(qAbs(hot.cycles - 2.01 * 6300 / 3.41) < 1e-6);
        double total = 0;
        for (const LineCost &c : costs)
            total += c.share;
        QVERIFY(qFuzzyCompare(total, 1.0));
        QVERIFY(qFuzzyCompare(hot.share, 2.01 / (2.01 + 1.6 + 1.2 + 0.01)));
    }

    void pointHeatFromImports()
    {
        const auto report = makePingPongReport();
        // msprof op: no instructions, so the pipe utilization of each point's op.
        const ImportResult op = importProfilePath(fixture("msprof_op"));
        QVERIFY2(op.ok, qPrintable(op.error));
        const PointHeat a = pointHeat(*report, op.run);
        QCOMPARE(a.basis, PointHeat::Basis::PipeUtilization);
        QCOMPARE(a.value.size(), 13);
        QVERIFY(qFuzzyCompare(a.value[5], 0.7)); // data_copy_in: aiv_mte2_ratio
        QVERIFY(qFuzzyCompare(a.value[8], 0.3)); // add: aiv_vec_ratio
        QVERIFY(qFuzzyCompare(a.value[10], 0.3)); // data_copy_out: aiv_mte3_ratio
        QCOMPARE(a.value[6], 0.0);                // a set_flag keeps no pipe busy
        QCOMPARE(a.heat[5], 1.0);
        QVERIFY(a.runLabel.contains("vadd_custom"));

        // The simulator trace is of vadd.cpp: its lines are not this kernel's.
        const ImportResult sim = importProfilePath(fixture("msprof_op_sim"));
        QVERIFY2(sim.ok, qPrintable(sim.error));
        const PointHeat b = pointHeat(*report, sim.run);
        QCOMPARE(b.basis, PointHeat::Basis::PipeUtilization);
        QVERIFY2(b.note.contains("vadd.cpp"), qPrintable(b.note));
        QVERIFY(b.value[5] > 0 && b.value[8] > 0);

        // A trace of this kernel's source (ours, exported and imported back):
        // each instruction's time lands on its program point.
        const ImportResult own = importTraceJson(QByteArray::fromStdString(sampleTrace()));
        QVERIFY2(own.ok, qPrintable(own.error));
        const PointHeat c = pointHeat(*report, own.run);
        QCOMPARE(c.basis, PointHeat::Basis::Trace);
        QVERIFY(qFuzzyCompare(c.value[5], 2.0));  // the two loads of line 10
        QVERIFY(qFuzzyCompare(c.value[6], 0.01)); // its set_flag
        QVERIFY(qFuzzyCompare(c.value[8], 1.6));  // two adds
        QVERIFY(qFuzzyCompare(c.value[10], 1.2)); // two stores
        QVERIFY(qFuzzyCompare(c.value[3], 0.01)); // get_block_idx: the S op of line 9
        QCOMPARE(c.value[7], 0.0);                // waiting is no work
        QVERIFY(qFuzzyCompare(c.total, 4.82));
        QCOMPARE(c.heat[5], 1.0);
        QCOMPARE(pointHeat(*report, ProfileRun()).basis, PointHeat::Basis::None);
    }

    void traceParses()
    {
        const SimTrace t = SimTrace::parse(QByteArray::fromStdString(sampleTrace()));
        QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
        QCOMPARE(t.cores, QStringList{"core0.veccore0"});
        QCOMPARE(t.events.size(), 9);
        QCOMPARE(t.flows.size(), 1);
        QCOMPARE(t.flows[0].src, Pipe::MTE2);
        QCOMPARE(t.flows[0].dst, Pipe::V);
        QCOMPARE(t.events.first().line, 9);
        QCOMPARE(t.events.first().file, QString("/tmp/pp.py"));
        QVERIFY(qFuzzyCompare(t.endTime, 3.41));
        const QHash<int, double> lines = t.lineTime();
        QVERIFY(qFuzzyCompare(lines.value(11), 1.6)); // the wait is not work
        QVERIFY(qFuzzyCompare(t.pipeBusy()[int(Pipe::MTE2)], 2.01)); // loads + set_flag
        for (int i = 1; i < t.events.size(); ++i)
            QVERIFY(t.events[i - 1].start <= t.events[i].start);
    }

    void waitingIsNotWork()
    {
        // A pipe_barrier holds its pipe until the others drain: waiting, like a
        // wait_flag, shown apart from the line's work (issue: the `for` line of
        // softmax_fused was "50% of the time" for a barrier on the scalar pipe).
        const SimTrace t = SimTrace::parse(R"({"traceEvents":[
 {"name":"process_name","ph":"M","pid":"c0","args":{"name":"c0"}},
 {"name":"ascendc.muls","ph":"X","ts":0,"dur":0.2,"pid":"c0","tid":"VECTOR","args":{"code":"/tmp/k.py:7"}},
 {"name":"ascendc.pipe_barrier","ph":"X","ts":0.2,"dur":0.8,"pid":"c0","tid":"SCALAR","args":{"code":"/tmp/k.py:5"}},
 {"name":"ascendc.wait_flag","ph":"X","ts":1.0,"dur":0.3,"pid":"c0","tid":"VECTOR","args":{"code":"/tmp/k.py:7","detail":"PIPE:MTE2, TRIGGER PIPE:V, FLAG ID:0"}},
 {"name":"ascendc.get_block_idx","ph":"X","ts":1.3,"dur":0.05,"pid":"c0","tid":"SCALAR","args":{"code":"/tmp/k.py:5"}}
]})");
        QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
        QCOMPARE(t.events[1].kind, TraceEvent::Kind::Barrier);
        const QHash<int, double> work = t.lineTime(), waiting = t.lineWaitTime();
        QVERIFY(qFuzzyCompare(work.value(5), 0.05));
        QVERIFY(qFuzzyCompare(work.value(7), 0.2));
        QVERIFY(qFuzzyCompare(waiting.value(5), 0.8));
        QVERIFY(qFuzzyCompare(waiting.value(7), 0.3));
        QVERIFY(qFuzzyCompare(t.pipeBusy()[int(Pipe::S)], 0.05));
        const ImportResult imported = importTraceJson(QByteArray(R"({"traceEvents":[
 {"name":"process_name","ph":"M","pid":"c0","args":{"name":"c0"}},
 {"name":"ascendc.pipe_barrier","ph":"X","ts":0,"dur":0.8,"pid":"c0","tid":"SCALAR","args":{"code":"/tmp/k.py:5"}},
 {"name":"ascendc.muls","ph":"X","ts":0.8,"dur":0.2,"pid":"c0","tid":"VECTOR","args":{"code":"/tmp/k.py:7"}}
]})"));
        QVERIFY2(imported.ok, qPrintable(imported.error));
        QVERIFY(!imported.run.lineUs.contains(5));
        QVERIFY(qFuzzyCompare(imported.run.lineWaitUs.value(5), 0.8));
        QVERIFY(qFuzzyCompare(imported.run.pipeRatio[int(Pipe::S)] + 1, 1.0));
    }

    void traceWithNumericLanes()
    {
        QFile f(fixture("msprof_op_sim/simulator/trace.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const SimTrace t = SimTrace::parse(f.readAll());
        QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
        QCOMPARE(t.events.size(), 6); // the counter event is no instruction
        QCOMPARE(t.flows.size(), 1);
        QCOMPARE(t.events.first().pipe, Pipe::MTE2);
    }

    void malformedTraces_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << QByteArray() << "empty";
        QTest::newRow("truncated") << QByteArray(R"({"traceEvents":[{"ph":"X")") << "not valid JSON";
        QTest::newRow("no events") << QByteArray(R"({"foo":1})") << "traceEvents";
        QTest::newRow("wrong types") << QByteArray(R"({"traceEvents":[{"ph":"X","tid":"MTE2","ts":"a","dur":1}]})")
                                     << "numeric";
    }
    void malformedTraces()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        const SimTrace t = SimTrace::parse(json);
        QVERIFY(t.isEmpty());
        QVERIFY2(t.error.contains(message), qPrintable(t.error));
    }

    void iterationsFromFirstLoad()
    {
        const SimTrace t = SimTrace::parse(QByteArray::fromStdString(sampleTrace()));
        const QVector<Iteration> its = iterationsOf(t.eventsOfCore(0));
        QCOMPARE(its.size(), 2);
        QCOMPARE(its[0].start, 0.0);
        QCOMPARE(its[1].start, 1.01);
        QVERIFY(qFuzzyCompare(its[1].end, 3.41));
        QCOMPARE(iterationAt(its, 0.5), 0);
        QCOMPARE(iterationAt(its, 2.0), 1);
        QCOMPARE(iterationAt(its, -1), -1);
        // A prologue load (gamma, once) does not start the iterations.
        QVector<TraceEvent> withPrologue = t.eventsOfCore(0);
        TraceEvent gamma = withPrologue[1];
        gamma.line = 7;
        gamma.start = -1;
        withPrologue.prepend(gamma);
        QCOMPARE(iterationsOf(withPrologue).size(), 2);
    }

    void axisMapsZoomsAndPans()
    {
        Axis a = Axis::over(0, 100);
        a.setPixels(100, 1100); // 10 px per unit
        QCOMPARE(a.toPixel(0), 100.0);
        QCOMPARE(a.toPixel(50), 600.0);
        QCOMPARE(a.toValue(350), 25.0);
        a.zoomAt(350, 2); // the value under the cursor stays put
        QVERIFY(qFuzzyCompare(a.toValue(350), 25.0));
        QVERIFY(qFuzzyCompare(a.span(), 50.0));
        QVERIFY(a.isZoomed());
        a.panPixels(10000); // far right: clamped at the start
        QCOMPARE(a.first, 0.0);
        QVERIFY(qFuzzyCompare(a.last, 50.0));
        a.panPixels(-100000);
        QCOMPARE(a.last, 100.0);
        a.zoomAt(600, 0.01); // zoom out past everything: the whole extent
        QCOMPARE(a.first, 0.0);
        QCOMPARE(a.last, 100.0);
        QVERIFY(!a.isZoomed());
    }

    void lanesAndAddresses()
    {
        LaneLayout l;
        l.top = 10;
        l.laneHeight = 20;
        l.gap = 5;
        l.count = 3;
        l.headerWidth = 50;
        QCOMPARE(l.laneAt(15), 0);
        QCOMPARE(l.laneAt(32), -1); // in the gap
        QCOMPARE(l.laneAt(40), 1);
        QCOMPARE(l.laneAt(200), -1);
        QCOMPARE(l.laneRect(2, 250), QRectF(50, 60, 200, 20));
        QCOMPARE(l.laneCenter(1), 45.0);
        AddressScale s{1024, 0, 100};
        QCOMPARE(s.toPixel(0), 100.0);
        QCOMPARE(s.toPixel(1024), 0.0);
        QCOMPARE(s.toAddress(50), 512.0);
        QCOMPARE(AddressScale::visibleMax(6144, 196608), 7680.0);
        QCOMPARE(AddressScale::visibleMax(190000, 196608), 196608.0);
        QCOMPARE(niceStep(100, 10), 10.0);
        QCOMPARE(niceStep(7, 3), 2.0);
        QCOMPARE(niceByteStep(20480, 2), 16384.0); // 0, 16 KB: no 9.8 KB labels
        QCOMPARE(niceByteStep(3840, 7), 1024.0);
        QCOMPARE(niceByteStep(100, 200), 1.0);
    }

    void stateEmitsOncePerChange()
    {
        InspectorState state;
        QSignalSpy line(&state, &InspectorState::sourceLineChanged);
        QSignalSpy point(&state, &InspectorState::pointChanged);
        state.selectPoint(4, 10);
        state.selectPoint(4, 10);
        QCOMPARE(point.count(), 1);
        QCOMPARE(line.count(), 1);
        state.selectBuffer("x", 5, 11);
        QCOMPARE(state.buffer(), QString("x"));
        QCOMPARE(state.point(), 5);
        QCOMPARE(state.sourceLine(), 11);
        QSignalSpy window(&state, &InspectorState::pointWindowChanged);
        state.setPointWindow(2, 8);
        state.setPointWindow(2, 8);
        QCOMPARE(window.count(), 1);
    }

    void dataflowGraphFromIr()
    {
        const auto report = makePingPongReport();
        const DataflowGraph g = DataflowGraph::parse(QString::fromStdString(report->passes[0].ir));
        // %arg0, two allocs, the copy, the add (return is skipped).
        QCOMPARE(g.nodes.size(), 5);
        QCOMPARE(g.nodes[0].op, QString("arg"));
        QCOMPARE(g.nodes[2].op, QString("ascendc.data_copy_in"));
        QCOMPARE(g.edges.size(), 4); // %0 -> copy, %arg0 -> copy, %2 -> add, copy (wrote %0) -> add
        QCOMPARE(toDot(g),
                 QString("digraph dataflow {\n"
                         "  rankdir=TB;\n  node [shape=box, fontsize=10, height=0.3];\n"
                         "  n0 [label=\"%arg0 = arg\"];\n"
                         "  n1 [label=\"%0 = ascendc.alloc_local\"];\n"
                         "  n2 [label=\"ascendc.data_copy_in\"];\n"
                         "  n3 [label=\"%2 = ascendc.alloc_local\"];\n"
                         "  n4 [label=\"ascendc.add\"];\n"
                         "  n1 -> n2;\n  n0 -> n2;\n  n3 -> n4;\n  n2 -> n4;\n}\n")); // the add reads what the copy wrote
    }

    void dataflowGraphRegionsAndQuotes()
    {
        const DataflowGraph g = DataflowGraph::parse(
            "  %c0 = arith.constant 0 : index\n"
            "  scf.for %i = %c0 to %n step %c1 {\n"
            "    %x = arith.muli %i, %c0 : index\n"
            "    %s = \"my.op\"(%x) {label = \"a\\\"b\"} : (index) -> index\n"
            "  }\n");
        QCOMPARE(g.nodes.size(), 4);
        QCOMPARE(g.nodes[2].depth, 1);
        // %i is the loop's block argument: the loop defines it.
        bool loopToMul = false;
        for (const GraphEdge &e : g.edges)
            loopToMul |= e.from == 1 && e.to == 2 && e.value == "%i";
        QVERIFY(loopToMul);
        QCOMPARE(g.nodes[3].op, QString("my.op"));
        QVERIFY(toDot(g).contains("n3 [label=\"%s = my.op\"];"));
    }

    void graphvizLayout()
    {
        const DataflowGraph g = DataflowGraph::parse(QString::fromStdString(makePingPongReport()->passes[0].ir));
        const GraphLayout l = layoutGraph(g);
        QCOMPARE(l.engine, QString("dot"));
        QVERIFY2(l.error.isEmpty(), qPrintable(l.error));
        QCOMPARE(l.centers.size(), g.nodes.size());
        // Top to bottom: a definition above its use.
        for (const GraphEdge &e : g.edges)
            QVERIFY(l.centers[e.from].y() < l.centers[e.to].y());
        QVERIFY(l.bounds.width() > 0 && l.bounds.height() > 0);
        const GraphLayout layered = layoutGraph(g, 0);
        QCOMPARE(layered.engine, QString("layered"));
        for (const GraphEdge &e : g.edges)
            QVERIFY(layered.centers[e.from].y() < layered.centers[e.to].y());
    }

    void graphvizLeavesHubsOutOfBigGraphs()
    {
        // 400 ops in four chains, every one also reading %arg0: a hub.
        QString ir = QStringLiteral("func.func @k(%arg0: index) {\n");
        for (int i = 0; i < 400; ++i)
            ir += i < 4 ? QStringLiteral("  %v%1 = arith.addi %arg0, %arg0 : index\n").arg(i)
                        : QStringLiteral("  %v%1 = arith.addi %arg0, %v%2 : index\n").arg(i).arg(i - 4);
        ir += QStringLiteral("  return\n}\n");
        const DataflowGraph g = DataflowGraph::parse(ir);
        QCOMPARE(g.nodes.size(), 401);
        const QString all = toDot(g);
        QVERIFY(all.contains("n0 -> n5;"));
        QVERIFY(!all.contains("nslimit"));
        DotOptions options;
        options.hubFanOut = kDotHubFanOut;
        options.fast = true;
        const QString lean = toDot(g, options);
        QVERIFY(!lean.contains("n0 -> "));
        QVERIFY(lean.contains("n1 -> n5;")); // the chains stay
        QVERIFY(lean.contains("{ rank=source; n0; }"));
        QVERIFY(lean.contains("nslimit=1;"));
        const GraphLayout l = layoutGraph(g);
        QCOMPARE(l.engine, QString("dot"));
        QVERIFY2(l.error.isEmpty(), qPrintable(l.error));
        // Every edge still points down, the hub's too (drawn, not laid out).
        for (const GraphEdge &e : g.edges)
            QVERIFY(l.centers[e.from].y() < l.centers[e.to].y());
    }

    void layeredLayoutKeepsEdgesShort()
    {
        // 40 chains of 10 ops, each started by index math on %arg0 (a hub).
        QString ir = QStringLiteral("func.func @k(%arg0: index) {\n");
        for (int c = 0; c < 40; ++c) {
            ir += QStringLiteral("  %i%1 = arith.muli %arg0, %arg0 : index\n").arg(c);
            for (int k = 0; k < 10; ++k)
                ir += QStringLiteral("  %c%1_%2 = arith.addi %3, %arg0 : index\n")
                          .arg(c)
                          .arg(k)
                          .arg(k ? QStringLiteral("%c%1_%2").arg(c).arg(k - 1) : QStringLiteral("%i%1").arg(c));
        }
        ir += QStringLiteral("  return\n}\n");
        const DataflowGraph g = DataflowGraph::parse(ir);
        QCOMPARE(g.nodes.size(), 441);
        const GraphLayout l = layoutGraph(g, 0);
        QCOMPARE(l.engine, QString("layered"));
        int straight = 0, chained = 0;
        for (const GraphEdge &e : g.edges) {
            QVERIFY(l.centers[e.from].y() < l.centers[e.to].y());
            if (e.from == 0)
                continue; // the hub's fan
            // Right above its use (the index math too, not up at the top),
            // and mostly straight above it.
            QCOMPARE(l.centers[e.to].y() - l.centers[e.from].y(), 60.0);
            ++chained;
            const double dx = qAbs(l.centers[e.to].x() - l.centers[e.from].x());
            QVERIFY2(dx < 300, qPrintable(QString::number(dx)));
            if (dx < 1)
                ++straight;
        }
        QCOMPARE(chained, 400);
        // Straight but where a wider box below had to move over (%i -> first addi).
        QVERIFY2(straight >= chained * 8 / 10, qPrintable(QString::number(straight)));
        // The chains sit side by side: about 40 boxes wide, not 40 x 11.
        QVERIFY(l.bounds.width() < 40 * 200);
    }

    void csvParsing()
    {
        const CsvTable t = CsvTable::parse("a, b,\"c,d\"\n1,2,\"x\"\"y\"\n");
        QVERIFY(t.error.isEmpty());
        QCOMPARE(t.header, (QStringList{"a", "b", "c,d"}));
        QCOMPARE(t.rows[0][2], QString("x\"y"));
        QVERIFY(CsvTable::parse("a,b\n1\n").error.contains("row 2 has 1 cells"));
        QVERIFY(CsvTable::parse("a,\"b\n").error.contains("unterminated"));
        QVERIFY(CsvTable::parse("").error.contains("empty"));
    }

    void importMsprofOpDirectory()
    {
        const ImportResult r = importProfilePath(fixture("msprof_op"));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.run.opName, QString("vadd_custom"));
        QCOMPARE(r.run.source, QString("msprof op"));
        QCOMPARE(r.run.durationUs, 12.5);
        QCOMPARE(r.run.blockDim, 8);
        QVERIFY(qFuzzyCompare(r.run.pipeRatio[int(Pipe::V)], 0.3));
        QVERIFY(qFuzzyCompare(r.run.pipeRatio[int(Pipe::MTE2)], 0.7));
        QVERIFY(qFuzzyCompare(r.run.pipeRatio[int(Pipe::MTE3)], 0.3));
        QCOMPARE(r.run.pipeRatio[int(Pipe::M)], 0.0); // aic_* zeros of an AIV op
    }

    void importSimulatorDirectory()
    {
        const ImportResult r = importProfilePath(fixture("msprof_op_sim"));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.run.source, QString("msprof op simulator"));
        QCOMPARE(r.run.trace.events.size(), 6);
        QVERIFY(qFuzzyCompare(r.run.lineUs.value(43), 2.0));
        QVERIFY(qFuzzyCompare(r.run.durationUs, 5.0));
    }

    void importOpSummary()
    {
        const ImportResult r = importProfilePath(fixture("op_summary"), "softmax");
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.run.opName, QString("softmax_custom"));
        QCOMPARE(r.run.durationUs, 20.0);
        QCOMPARE(r.run.blockDim, 40);
        QVERIFY(qFuzzyCompare(r.run.pipeRatio[int(Pipe::V)], 0.7));
        QVERIFY(!r.notes.isEmpty()); // two ops in the file
        // Every operator of the file, the most time first, with its share.
        QCOMPARE(r.operators.size(), 2);
        QCOMPARE(r.operators[0].name, QString("softmax_custom"));
        QCOMPARE(r.operators[0].calls, 1);
        QCOMPARE(r.operators[0].totalUs, 20.0);
        QVERIFY(qFuzzyCompare(r.operators[0].share, 20.0 / 23.0));
        QCOMPARE(r.operators[1].name, QString("Cast"));
        QVERIFY(r.notes.join(' ').contains("2 operators (2 launches)"));
        // Another one by name.
        const ImportResult cast = importProfilePath(fixture("op_summary"), "Cast");
        QCOMPARE(cast.run.opName, QString("Cast"));
        QCOMPARE(cast.run.durationUs, 3.0);
    }

    void malformedImports_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing columns") << "bad_missing_columns" << "missing column \"Op Name\"";
        QTest::newRow("missing pipe columns") << "bad_missing_columns/PipeUtilization.csv" << "none of the pipe columns";
        QTest::newRow("wrong types") << "bad_wrong_types" << "\"abc\" is not a number";
        QTest::newRow("truncated trace") << "bad_truncated_trace" << "not valid JSON";
        QTest::newRow("nothing there") << "." << "no OpBasicInfo.csv";
        QTest::newRow("absent") << "no-such-dir" << "does not exist";
    }
    void malformedImports()
    {
        QFETCH(QString, path);
        QFETCH(QString, message);
        const ImportResult r = importProfilePath(path == "." ? QDir::tempPath() + "/asc2-empty-import" : fixture(path));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(message), qPrintable(r.error));
    }

    void initTestCase()
    {
        QDir().mkpath(QDir::tempPath() + "/asc2-empty-import");
    }

    void profileOfALaunch()
    {
        const ProfileRun run = profileFromLaunch(*makePingPongReport(), 0);
        QCOMPARE(run.source, QString("simulated"));
        QVERIFY(run.label.contains("reuse_alloc=1"));
        QVERIFY(qFuzzyCompare(run.pipeRatio[int(Pipe::MTE2)], 0.59));
        QCOMPARE(run.pipeRatio[int(Pipe::M)], -1.0); // not reported
        QVERIFY(qFuzzyCompare(run.lineUs.value(10), 2.01));
        QCOMPARE(profileFromLaunch(*makePingPongReport(), 3).source, QString());
    }

    // The speed-of-light rules on runs made to the point of each.
    static ProfileRun runOf(std::initializer_list<std::pair<Pipe, double>> busy)
    {
        ProfileRun run;
        run.source = QStringLiteral("simulated");
        run.durationUs = 100;
        run.blockDim = 48;
        run.peaks.platform = QStringLiteral("Ascend910B1");
        run.peaks.hbmGBps = 1800;
        run.peaks.vectorCores = 48;
        run.peaks.cubeCores = 24;
        run.peaks.launchUs = 2;
        for (const auto &[pipe, share] : busy)
            run.pipeRatio[int(pipe)] = share;
        return run;
    }
    static QStringList rulesOf(const SpeedOfLight &v)
    {
        QStringList rules;
        for (const SpeedOfLight::Advice &a : v.advice)
            rules << a.rule;
        return rules;
    }

    void speedOfLightNamesWhatBoundsARun()
    {
        // Loads busy 90 % of the run, V 20 %: memory-bound, GM against HBM.
        ProfileRun loads = runOf({{Pipe::MTE2, 0.9}, {Pipe::V, 0.2}, {Pipe::MTE3, 0.3}, {Pipe::S, 0.05}});
        loads.pipeBytes[int(Pipe::MTE2)] = 90e6; // 90 MB in 100 µs: 900 GB/s
        loads.pipeBytes[int(Pipe::MTE3)] = 45e6;
        loads.pipeBytes[int(Pipe::FIX)] = 0;
        SpeedOfLight v = SpeedOfLight::of(loads);
        QVERIFY(v.known);
        QCOMPARE(v.bound, QStringLiteral("MTE2-bound"));
        QVERIFY2(v.headline.startsWith("MTE2-bound: MTE2 busy 90% of the run, GM at 75% of the HBM roofline; V idle 80%"),
                 qPrintable(v.headline));
        QCOMPARE(v.roofs.first().name, QStringLiteral("MTE2"));
        QCOMPARE(v.roofs.last().name, QStringLiteral("GM bandwidth"));
        QVERIFY(qFuzzyCompare(v.roofs.last().share, 0.75));
        QVERIFY2(v.roofs.last().detail.contains("1.35 TB/s of the HBM's 1.80 TB/s"), qPrintable(v.roofs.last().detail));
        QCOMPARE(rulesOf(v), QStringList{"memory-bound"});
        QVERIFY(v.advice.first().action.contains("nearly saturated"));
        QVERIFY(v.text().contains("- Data movement bounds the run"));

        // The vector unit, the cube, the scalar unit.
        QCOMPARE(SpeedOfLight::of(runOf({{Pipe::V, 0.8}, {Pipe::MTE2, 0.3}})).bound, QStringLiteral("V-bound"));
        QCOMPARE(rulesOf(SpeedOfLight::of(runOf({{Pipe::V, 0.8}, {Pipe::MTE2, 0.3}}))), QStringList{"vector-bound"});
        ProfileRun cube = runOf({{Pipe::M, 0.85}, {Pipe::MTE1, 0.4}, {Pipe::MTE2, 0.3}});
        cube.blockDim = 24;
        QCOMPARE(rulesOf(SpeedOfLight::of(cube)), QStringList{"cube-bound"});
        cube.blockDim = 6; // a cube kernel counts cube cores: 6 of 24
        const SpeedOfLight few = SpeedOfLight::of(cube);
        QCOMPARE(rulesOf(few), (QStringList{"few-cores", "cube-bound"}));
        QVERIFY2(few.advice.first().finding.contains("6 of the 24 cube cores: 75% of the chip idles"),
                 qPrintable(few.advice.first().finding));
        QVERIFY(rulesOf(SpeedOfLight::of(runOf({{Pipe::V, 0.7}, {Pipe::S, 0.45}}))).contains("scalar-heavy"));

        // Nothing busy most of the time: latency-bound, and a short run says so.
        ProfileRun idle = runOf({{Pipe::MTE2, 0.35}, {Pipe::V, 0.1}});
        idle.durationUs = 5;
        v = SpeedOfLight::of(idle);
        QCOMPARE(v.bound, QStringLiteral("latency-bound"));
        QCOMPARE(rulesOf(v), (QStringList{"latency-bound", "short-run"}));

        // No pipe data (an op_summary without ratios): no verdict, and it says so.
        ProfileRun none;
        none.durationUs = 3;
        QVERIFY(!SpeedOfLight::of(none).known);
        QVERIFY(SpeedOfLight::of(none).text().startsWith("No speed-of-light verdict"));
    }

    void speedOfLightReadsWaitsAndCopiesFromTheTrace()
    {
        // One core: V waits 40 µs of 100 for MTE2; loads of 512 B.
        ProfileRun run = runOf({{Pipe::MTE2, 0.5}, {Pipe::V, 0.3}});
        run.trace.cores = {QStringLiteral("core0.veccore0")};
        for (int i = 0; i < 100; ++i) {
            TraceEvent load;
            load.pipe = Pipe::MTE2;
            load.start = i;
            load.duration = 0.5;
            load.bytes = 512;
            run.trace.events.push_back(load);
        }
        TraceEvent wait;
        wait.pipe = Pipe::V;
        wait.kind = TraceEvent::Kind::Wait;
        wait.duration = 40;
        wait.flagPipes = std::pair{Pipe::MTE2, Pipe::V};
        run.trace.events.push_back(wait);
        const QStringList rules = rulesOf(SpeedOfLight::of(run));
        QVERIFY2(rules.contains("loads-not-hidden") && rules.contains("small-copies") && rules.contains("latency-bound"),
                 qPrintable(rules.join(',')));
        QVERIFY(!rules.contains("buffer-reuse-waits"));

        // A MIX launch's totals count cube and vector cores together: V busy
        // 40 % over 2 cores is 80 % on the one vector core that runs it.
        ProfileRun mix = runOf({{Pipe::V, 0.4}, {Pipe::M, 0.3}});
        mix.trace.cores = {QStringLiteral("core0.cubecore0"), QStringLiteral("core0.veccore0")};
        TraceEvent v;
        v.core = 1;
        v.pipe = Pipe::V;
        v.duration = 1;
        TraceEvent m;
        m.core = 0;
        m.pipe = Pipe::M;
        m.duration = 1;
        mix.trace.events = {m, v};
        const SpeedOfLight verdict = SpeedOfLight::of(mix);
        QCOMPARE(verdict.bound, QStringLiteral("V-bound"));
        QVERIFY(qFuzzyCompare(verdict.roofs.first().share, 0.8));
    }

    void compareSetsTwoRunsOfAKernelSideBySide()
    {
        const auto report = [](const char *target, double time, qint64 ubPeak, int setFlags, bool l1) {
            QJsonObject r{{"kernel", "vadd"}, {"target", target}, {"options", QJsonObject{{"reuse_alloc", "1"}}},
                          {"ascendc", "line one\nline two\n"}};
            QJsonArray spaces{QJsonObject{{"space", "UB"}, {"peak", double(ubPeak)}, {"capacity", 196608}}};
            if (l1)
                spaces.append(QJsonObject{{"space", "L1"}, {"peak", 4096}, {"capacity", 524288}});
            r["memory"] = QJsonObject{{"spaces", spaces}, {"buffers", QJsonArray{QJsonObject{}, QJsonObject{}}}};
            QJsonArray sync;
            for (int i = 0; i < setFlags; ++i)
                sync.append(QJsonObject{{"kind", "set_flag"}});
            r["sync"] = sync;
            r["sync_counts"] = QJsonObject{{"pipe_barrier", 2}};
            if (time >= 0)
                r["launches"] = QJsonArray{QJsonObject{{"ok", true}, {"time_us", time}, {"cycles", time * 1850}, {"block_num", 8}}};
            return r;
        };
        const compare::KernelSummary a = compare::summaryOf(report("Ascend910B1", 4.0, 6144, 4, false));
        const compare::KernelSummary b = compare::summaryOf(report("Ascend950", 3.0, 8192, 2, true));
        QCOMPARE(a.options, QStringLiteral("reuse_alloc=1"));
        QCOMPARE(a.ascendcLines, 2);
        QCOMPARE(a.buffers, 2);
        QVERIFY(a.launched && a.blocks == 8);
        const QVector<compare::Row> rows = compare::compareRows(&a, &b);
        const auto row = [&](const QString &metric) {
            for (const compare::Row &r : rows)
                if (r.metric == metric)
                    return r;
            return compare::Row{};
        };
        QCOMPARE(row("target").a, QStringLiteral("Ascend910B1"));
        QCOMPARE(row("target").b, QStringLiteral("Ascend950"));
        QCOMPARE(row("options that differ").a, QStringLiteral("(none)")); // only what differs is listed
        QCOMPARE(row("predicted time").delta, QStringLiteral("\u22121.000 \u00b5s (\u221225.0%)"));
        QCOMPARE(row("predicted time").verdict, 1); // B is faster
        QCOMPARE(row("UB peak").verdict, -1);       // B needs more UB
        QCOMPARE(row("UB peak").b, QStringLiteral("8192 B"));
        QCOMPARE(row("L1 peak").a, QStringLiteral("0 B")); // a space only B uses
        QCOMPARE(row("set_flag").delta, QStringLiteral("\u22122 (\u221250.0%)"));
        QCOMPARE(row("pipe_barrier").delta, QStringLiteral("="));
        // A kernel only one side has: the other's cells are dashes.
        const QVector<compare::Row> onlyA = compare::compareRows(&a, nullptr);
        QCOMPARE(onlyA[0].b, QStringLiteral("\u2014"));
        QCOMPARE(onlyA[2].delta, QStringLiteral("\u2014"));
        // Compile only: no time either side.
        const compare::KernelSummary c = compare::summaryOf(report("Ascend950", -1, 8192, 2, false));
        QVERIFY(!c.launched);
        QCOMPARE(compare::compareRows(&a, &c)[2].b, QStringLiteral("\u2014"));
        // A headless run's report.json; and one that is not JSON.
        QString error;
        const QByteArray run = QJsonDocument(QJsonObject{{"kernels", QJsonArray{report("Ascend950", 1, 1, 1, false)}}}).toJson();
        QCOMPARE(compare::summariesOfRun(run, &error).size(), 1);
        QVERIFY(compare::summariesOfRun("not json", &error).isEmpty());
        QVERIFY(error.startsWith("report.json is not readable"));
    }
};

QTEST_GUILESS_MAIN(TestInspectorData)
#include "tst_inspectordata.moc"
