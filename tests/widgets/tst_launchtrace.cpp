// A launch's trace reaches the views in process, typed (SimTrace::fromTrace);
// an imported trace.json is parsed (SimTrace::parse). Both must read the same:
// the views draw one simulated run alike however it arrived.
#include "InspectorData.h"
#include "ProfileData.h"

#include "asc2/Driver/Pipeline.h"

#include <QtTest>

#include <vector>

using namespace inspector;

namespace {
asc2::sim::LaunchArg gm(std::vector<float> &v)
{
    asc2::sim::LaunchArg a;
    a.kind = asc2::sim::ArgSpec::Kind::Gm;
    a.data = v.data();
    a.bytes = int64_t(v.size() * sizeof(float));
    a.dtype = asc2::sim::DType::F32;
    return a;
}
asc2::sim::LaunchArg integer(int64_t i)
{
    asc2::sim::LaunchArg a;
    a.kind = asc2::sim::ArgSpec::Kind::Int;
    a.i = i;
    return a;
}
} // namespace

class TestLaunchTrace : public QObject
{
    Q_OBJECT
private slots:
    void inProcessReadsAsItsExport()
    {
        QFile file(QStringLiteral(ASC2_FIXTURES_DIR "/vadd_loop.mlir"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        asc2::CompileResult compiled = asc2::compileKernel(file.readAll().toStdString(), {});
        QVERIFY2(compiled.kernel, compiled.failure ? compiled.failure->message.c_str() : "");
        const int64_t n = 256 * 7, cores = 2, tiles = 4;
        std::vector<float> x(n, 1), y(n, 2), out(n, 0);
        const asc2::LaunchRecord launch = compiled.kernel->launch(int(cores), {gm(x), gm(y), gm(out), integer(n), integer(tiles)}, {});
        QVERIFY2(launch.ok, launch.error.c_str());
        QVERIFY(launch.trace);

        const SimTrace typed = SimTrace::fromTrace(*launch.trace);
        const SimTrace parsed = SimTrace::parse(QByteArray::fromStdString(asc2::sim::traceToJson(*launch.trace)));
        QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
        QCOMPARE(typed.cores, parsed.cores);
        QCOMPARE(typed.cores.size(), 2);
        QCOMPARE(typed.endTime, parsed.endTime);
        QCOMPARE(typed.events.size(), parsed.events.size());
        int sets = 0, waits = 0;
        for (int i = 0; i < typed.events.size(); ++i) {
            const TraceEvent &a = typed.events[i], &b = parsed.events[i];
            QCOMPARE(a.core, b.core);
            QCOMPARE(a.pipe, b.pipe);
            QCOMPARE(a.kind, b.kind);
            QCOMPARE(a.name, b.name);
            QCOMPARE(a.start, b.start);
            QCOMPARE(a.duration, b.duration);
            QCOMPARE(a.file, b.file);
            QCOMPARE(a.line, b.line);
            QCOMPARE(a.detail, b.detail);
            QCOMPARE(a.flagId, b.flagId);
            QCOMPARE(a.flagPipes, b.flagPipes);
            sets += a.isSet();
            waits += a.isWait();
        }
        QVERIFY(sets > 0 && waits > 0);
        QCOMPARE(typed.flows.size(), parsed.flows.size());
        // Every wait has an arrow from its set, also when it began waiting
        // before the set fired (its flow starts later in the file).
        QCOMPARE(typed.flows.size(), waits);
        for (int i = 0; i < typed.flows.size(); ++i) {
            const TraceFlow &a = typed.flows[i], &b = parsed.flows[i];
            QCOMPARE(a.core, b.core);
            QCOMPARE(a.src, b.src);
            QCOMPARE(a.dst, b.dst);
            QCOMPARE(a.srcTime, b.srcTime);
            QCOMPARE(a.dstTime, b.dstTime);
            QCOMPARE(a.category, b.category);
            QVERIFY(a.srcTime <= a.dstTime);
        }
        QCOMPARE(typed.stalls, parsed.stalls);
        QVERIFY(!typed.stalls.isEmpty()); // V waits for its loads
        for (int i : typed.stalls) {
            QVERIFY(typed.events[i].isWait());
            QVERIFY(typed.events[i].duration > 0);
        }

        // The profile of the launch is made from the typed trace.
        const ProfileRun run = profileFromLaunch(*compiled.kernel->report(), 0);
        QCOMPARE(run.trace.events.size(), typed.events.size());
        QVERIFY(!run.lineUs.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestLaunchTrace)
#include "tst_launchtrace.moc"
