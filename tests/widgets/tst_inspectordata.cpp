// The plain-data side of the inspectors: pipes, slots, the static schedule,
// trace parsing, iterations, geometry, the shared state, the dataflow graph
// and the msprof importers (fixtures under fixtures/, good and malformed).
#include "DataflowGraph.h"
#include "InspectorData.h"
#include "InspectorGeometry.h"
#include "InspectorSample.h"
#include "InspectorState.h"
#include "ProfileData.h"

#include <QSignalSpy>
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
        QCOMPARE(mnemonic("%3 = ascendc.data_copy_in %0, %1"), QString("ascendc.data_copy_in"));
        QCOMPARE(mnemonic("ascendc.add %2, %0"), QString("ascendc.add"));
        QCOMPARE(pipeOfOp("ascendc.data_copy_in %0, %arg0[%10]"), Pipe::MTE2);
        QCOMPARE(pipeOfOp("ascendc.data_copy_out %arg2[%10], %2"), Pipe::MTE3);
        QCOMPARE(pipeOfOp("ascendc.exp %2, %0, %c256"), Pipe::V);
        QCOMPARE(pipeOfOp("%5 = ascendc.get_value %0[%c0] : f32"), Pipe::S);
        QCOMPARE(pipeOfOp("%7 = arith.muli %6, %arg4 : index"), Pipe::S);
        QCOMPARE(pipeOfOp("ascendc.mmad %c, %a, %b"), Pipe::M);
        QCOMPARE(pipeOfOp("ascendc.load_data %a, %b"), Pipe::MTE1);
    }

    void slotsFromNameSuffix()
    {
        asc2::BufferRecord b;
        b.name = "x_ptr_1";
        QCOMPARE(slotOf(b), 1);
        QCOMPARE(tileOf(b), QString("x_ptr"));
        b.name = "x_ptr";
        QCOMPARE(slotOf(b), 0);
        b.name = "buf";
        b.slot = 2;
        QCOMPARE(slotOf(b), 2);
        QCOMPARE(tileOf(b), QString("buf"));
        // With the report's names: a suffix counts only next to its first copy.
        const QSet<QString> names{"x", "x_1", "mulf_7"};
        b.slot = 0;
        b.name = "x_1";
        QCOMPARE(slotOf(b, &names), 1);
        QCOMPARE(tileOf(b, &names), QString("x"));
        b.name = "mulf_7";
        QCOMPARE(slotOf(b, &names), 0);
        QCOMPARE(tileOf(b, &names), QString("mulf_7"));
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
};

QTEST_GUILESS_MAIN(TestInspectorData)
#include "tst_inspectordata.moc"
