// A launch's trace reaches the views in process, typed (SimTrace::fromTrace);
// an imported trace.json is parsed (SimTrace::parse). Both must read the same:
// the views draw one simulated run alike however it arrived.
#include "InspectorData.h"
#include "ProfileData.h"
#include "SpeedOfLight.h"

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

// The views' two readings of one trace, compared field by field; returns
// the number of wait events.
int compareReadings(const SimTrace &typed, const SimTrace &parsed)
{
    int waits = -1;
    [&] {
        QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
        QCOMPARE(typed.cores, parsed.cores);
        QCOMPARE(typed.endTime, parsed.endTime);
        QCOMPARE(typed.events.size(), parsed.events.size());
        int sets = 0, count = 0;
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
            count += a.isWait();
        }
        QVERIFY(sets > 0 && count > 0);
        QCOMPARE(typed.flows.size(), parsed.flows.size());
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
        QVERIFY(!typed.stalls.isEmpty());
        for (int i : typed.stalls) {
            QVERIFY(typed.events[i].isWait());
            QVERIFY(typed.events[i].duration > 0);
        }
        waits = count;
    }();
    return waits;
}

std::string fixtureText(const char *name)
{
    QFile file(QStringLiteral(ASC2_FIXTURES_DIR "/") + QLatin1String(name));
    return file.open(QIODevice::ReadOnly) ? file.readAll().toStdString() : std::string();
}
} // namespace

class TestLaunchTrace : public QObject
{
    Q_OBJECT
private slots:
    void inProcessReadsAsItsExport()
    {
        asc2::CompileResult compiled = asc2::compileKernel(fixtureText("vadd_loop.mlir"), {});
        QVERIFY2(compiled.kernel, compiled.failure ? compiled.failure->message.c_str() : "");
        const int64_t n = 256 * 7, cores = 2, tiles = 4;
        std::vector<float> x(n, 1), y(n, 2), out(n, 0);
        const asc2::LaunchRecord launch = compiled.kernel->launch(int(cores), {gm(x), gm(y), gm(out), integer(n), integer(tiles)}, {});
        QVERIFY2(launch.ok, launch.error.c_str());
        QVERIFY(launch.trace);

        const SimTrace typed = SimTrace::fromTrace(*launch.trace);
        const SimTrace parsed = SimTrace::parse(QByteArray::fromStdString(asc2::sim::traceToJson(*launch.trace)));
        QCOMPARE(typed.cores.size(), 2);
        const int waits = compareReadings(typed, parsed);
        QVERIFY(waits > 0);
        // Every wait has an arrow from its set, also when it began waiting
        // before the set fired (its flow starts later in the file).
        QCOMPARE(typed.flows.size(), waits);

        // The profile of the launch is made from the typed trace.
        const ProfileRun run = profileFromLaunch(*compiled.kernel->report(), 0);
        QCOMPARE(run.trace.events.size(), typed.events.size());
        QVERIFY(!run.lineUs.isEmpty());
        // What its speed of light is made from: the bytes each pipe moved (a
        // 256-float tile of x and of y read, one of out written, per tile of
        // each core) and the platform's peaks.
        const double tileBytes = 256 * sizeof(float);
        QCOMPARE(run.pipeBytes[int(Pipe::MTE2)], 2 * cores * tiles * tileBytes);
        QCOMPARE(run.pipeBytes[int(Pipe::MTE3)], cores * tiles * tileBytes);
        QCOMPARE(run.pipeBytes[int(Pipe::V)], 0.0);
        QCOMPARE(run.peaks.platform, QString::fromStdString(compiled.kernel->report()->target));
        QVERIFY(run.peaks.hbmGBps > 1000 && run.peaks.vectorCores > int(cores) && run.peaks.launchUs > 0);
        const SpeedOfLight verdict = SpeedOfLight::of(run);
        QVERIFY(verdict.known && !verdict.bound.isEmpty());
        QCOMPARE(verdict.roofs.last().name, QStringLiteral("GM bandwidth"));
        QVERIFY2(verdict.advice.first().rule == QStringLiteral("few-cores")
                     && verdict.advice.first().finding.contains(QStringLiteral("runs on 2 of the")),
                 qPrintable(verdict.text()));
    }

    void mixKernelReadsAsItsExport()
    {
        asc2::CompileResult compiled = asc2::compileKernel(fixtureText("mix.mlir"), {});
        QVERIFY2(compiled.kernel, compiled.failure ? compiled.failure->message.c_str() : "");
        std::vector<uint16_t> a(32 * 64, 0x3c00), b(64 * 48, 0x3c00); // f16 ones
        std::vector<float> c(32 * 48), x(256, 1), y(256);
        const auto half = [](std::vector<uint16_t> &v) {
            asc2::sim::LaunchArg arg;
            arg.kind = asc2::sim::ArgSpec::Kind::Gm;
            arg.data = v.data();
            arg.bytes = int64_t(v.size() * sizeof(uint16_t));
            arg.dtype = asc2::sim::DType::F16;
            return arg;
        };
        const asc2::LaunchRecord launch = compiled.kernel->launch(2, {half(a), half(b), gm(c), gm(x), gm(y)}, {});
        QVERIFY2(launch.ok, launch.error.c_str());
        QVERIFY(launch.trace);
        const SimTrace typed = SimTrace::fromTrace(*launch.trace);
        // Each block has a cube core and two vector cores (the vector work
        // is divided between them: MIX_AIC_1_2).
        QCOMPARE(typed.cores, (QStringList{"core0.cubecore0", "core0.veccore0", "core0.veccore1", "core1.cubecore0",
                                           "core1.veccore0", "core1.veccore1"}));
        QVERIFY(compareReadings(typed, SimTrace::parse(QByteArray::fromStdString(asc2::sim::traceToJson(*launch.trace)))) > 0);
        QCOMPARE(c[0], 64.0f);
        QCOMPARE(y[0], 2.0f);
    }
};

QTEST_GUILESS_MAIN(TestLaunchTrace)
#include "tst_launchtrace.moc"
