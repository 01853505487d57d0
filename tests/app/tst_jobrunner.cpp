#include "AppTestSupport.h"
#include "HeadlessRunner.h"
#include "RunReports.h"
#include "SampleReport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

namespace {
RunSummary waitForSummary(QSignalSpy &finished, int timeoutMs = 20000)
{
    if (finished.isEmpty() && !finished.wait(timeoutMs))
        return {};
    return finished.takeFirst().at(0).value<RunSummary>();
}
} // namespace

class TestJobRunner : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        m_host = new PythonHost(QStringList());
        m_runner = new JobRunner(m_host);
    }
    void cleanupTestCase()
    {
        delete m_runner;
        delete m_host;
    }

    // --- RunReports: pure data, no interpreter.

    void aRepublishedCompileUpdatesItsEntry()
    {
        RunReports reports;
        auto compiled = makeSampleReport("vadd");
        QCOMPARE(reports.add(asc2::ReportEvent::Compiled, compiled), 0);
        auto launched = std::make_shared<asc2::CompileReport>(*compiled);
        launched->launches.push_back(makeLaunch(100));
        QCOMPARE(reports.add(asc2::ReportEvent::Launched, launched), 0);
        QCOMPARE(reports.size(), 1);
        QCOMPARE(reports.kernels().front(), ReportPtr(launched));
        QCOMPARE(reports.lastLaunched(), ReportPtr(launched));

        auto softmax = makeSampleReport("softmax");
        QCOMPARE(reports.add(asc2::ReportEvent::Compiled, softmax), 1);
        QCOMPARE(reports.latestIndex(), 1);
        QCOMPARE(reports.lastLaunched(), ReportPtr(launched)); // softmax has not run
    }

    void anotherSpecialisationIsAnotherEntry()
    {
        RunReports reports;
        auto small = makeSampleReport("vadd");
        auto large = makeSampleReport("vadd");
        large->ascendc += "// tiled for 1M elements\n";
        reports.add(asc2::ReportEvent::Compiled, small);
        reports.add(asc2::ReportEvent::Compiled, large);
        QCOMPARE(reports.size(), 2);
    }

    void failedLaunchesAndRacesAreProblems()
    {
        RunReports reports;
        auto report = makeSampleReport("vadd");
        report->launches.push_back(makeLaunch(100, /*ok=*/false));
        report->launches.back().error = "UB out of bounds";
        report->launches.push_back(makeLaunch(100, true, /*races=*/2));
        report->launches.back().raceMessages = {"RAW on buf0"};
        reports.add(asc2::ReportEvent::Launched, report);
        const QStringList problems = reports.problems();
        QCOMPARE(problems.size(), 3);
        QVERIFY(problems[0].contains(QStringLiteral("UB out of bounds")));
        QVERIFY(problems[1].contains(QStringLiteral("2 data race")));
        QVERIFY(problems[2].contains(QStringLiteral("RAW on buf0")));
    }

    // --- JobRunner on the real interpreter.

    void aRunGathersItsKernels()
    {
        QSignalSpy finished(m_runner, &JobRunner::runFinished);
        QSignalSpy changed(m_runner, &JobRunner::reportsChanged);
        const int gen = m_runner->run(scriptJob(QStringLiteral(
            "import _asc2_test\n"
            "_asc2_test.publish('vadd', passes=6, cycles=5000)\n"
            "_asc2_test.publish('softmax', passes=7)\n")));
        QVERIFY(m_runner->isRunning());
        const RunSummary summary = waitForSummary(finished);
        QCOMPARE(summary.generation, gen);
        QVERIFY(!m_runner->isRunning());
        QVERIFY(summary.ok());
        QCOMPARE(summary.kernels.size(), 2);
        QCOMPARE(summary.kernels[0]->kernel, std::string("vadd"));
        QCOMPARE(summary.kernels[0]->launches.size(), size_t(1));
        QCOMPARE(summary.lastLaunched->kernel, std::string("vadd"));
        QCOMPARE(changed.count(), 3);
        QVERIFY2(summary.headline().contains(QStringLiteral("vadd: 5,000 cycles")), qPrintable(summary.headline()));
    }

    void aRaceFailsTheRun()
    {
        QSignalSpy finished(m_runner, &JobRunner::runFinished);
        m_runner->run(scriptJob(QStringLiteral("import _asc2_test\n_asc2_test.publish('vadd', cycles=10, races=1)\n")));
        const RunSummary summary = waitForSummary(finished);
        QVERIFY(summary.script.succeeded());
        QVERIFY(!summary.ok());
        QCOMPARE(HeadlessRunner::exitCodeFor(summary), 1);
        QVERIFY(summary.headline().contains(QStringLiteral("race")));
    }

    void aSupersededRunIsDropped()
    {
        QSignalSpy finished(m_runner, &JobRunner::runFinished);
        QSignalSpy output(m_runner, &JobRunner::outputReceived);
        m_runner->run(scriptJob(QStringLiteral(
            "import _asc2_test, time\n"
            "print('stale', flush=True)\n"
            "_asc2_test.publish('stale_kernel')\n"
            "while True:\n    time.sleep(0.01)\n")));
        QTRY_VERIFY_WITH_TIMEOUT(m_host->runningGeneration() != 0, 10000);
        const int fresh = m_runner->run(scriptJob(QStringLiteral(
            "import _asc2_test\nprint('fresh')\n_asc2_test.publish('fresh_kernel')\n")));
        const RunSummary summary = waitForSummary(finished);
        QCOMPARE(summary.generation, fresh);
        QVERIFY(summary.ok());
        QCOMPARE(summary.kernels.size(), 1);
        QCOMPARE(summary.kernels[0]->kernel, std::string("fresh_kernel"));
        QTest::qWait(100);
        QCOMPARE(finished.count(), 0); // the stale run's end was dropped
        QString text;
        for (const QList<QVariant> &args : std::as_const(output))
            text += args.at(0).toString();
        QVERIFY2(text.contains(QStringLiteral("fresh")), qPrintable(text));
    }

    void theHeadlessReportHasTheSchema()
    {
        QSignalSpy finished(m_runner, &JobRunner::runFinished);
        m_runner->run(scriptJob(QStringLiteral(
            "import _asc2_test\n_asc2_test.publish('vadd', passes=6, cycles=777)\n"
            "_asc2_test.publish('vadd', passes=6)\n"),
            QStringLiteral("/tmp/asc2-test/vadd.py")));
        const RunSummary summary = waitForSummary(finished);
        QVERIFY(summary.ok());

        QTemporaryDir dir;
        QString error;
        QVERIFY2(HeadlessRunner::writeReport(summary, dir.path(), &error), qPrintable(error));
        QFile file(dir.filePath(QStringLiteral("report.json")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(root.value(QStringLiteral("schema")).toString(), QStringLiteral("asc2.report/1"));
        QCOMPARE(root.value(QStringLiteral("file")).toString(), QStringLiteral("/tmp/asc2-test/vadd.py"));
        QCOMPARE(root.value(QStringLiteral("ok")).toBool(), true);
        const QJsonArray kernels = root.value(QStringLiteral("kernels")).toArray();
        QCOMPARE(kernels.size(), 1); // the same compile published twice
        const QJsonObject vadd = kernels.at(0).toObject();
        QCOMPARE(vadd.value(QStringLiteral("kernel")).toString(), QStringLiteral("vadd"));
        QCOMPARE(vadd.value(QStringLiteral("passes")).toArray().size(), 6);
        // The second compile did not forget the first one's launch.
        const QJsonArray launches = vadd.value(QStringLiteral("launches")).toArray();
        QCOMPARE(launches.size(), 1);
        QCOMPARE(launches.at(0).toObject().value(QStringLiteral("cycles")).toInt(), 777);
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("trace.json"))));
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("vadd"))).isDir());
    }

private:
    PythonHost *m_host = nullptr;
    JobRunner *m_runner = nullptr;
};

QTEST_GUILESS_MAIN(TestJobRunner)
#include "tst_jobrunner.moc"
