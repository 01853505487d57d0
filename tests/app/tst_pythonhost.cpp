#include "AppTestSupport.h"

#include <QElapsedTimer>
#include <QJsonObject>

namespace {
QString textOf(const QSignalSpy &output, int generation, PythonHost::Stream stream)
{
    QString text;
    for (const QList<QVariant> &args : output) {
        if (args.at(0).toInt() == generation && args.at(1).value<PythonHost::Stream>() == stream)
            text += args.at(2).toString();
    }
    return text;
}
} // namespace

class TestPythonHost : public QObject
{
    Q_OBJECT
private slots:
    // One interpreter for the whole process, as in the app.
    void initTestCase()
    {
        m_host = new PythonHost(QStringList());
        m_output = new QSignalSpy(m_host, &PythonHost::output);
        m_finished = new QSignalSpy(m_host, &PythonHost::finished);
    }
    void init()
    {
        m_output->clear();
        m_finished->clear();
    }
    void cleanupTestCase()
    {
        delete m_output;
        delete m_finished;
        delete m_host;
    }

    void scriptOutputArrivesOnTheGuiThread()
    {
        const QString path = QStringLiteral("/tmp/asc2-test/hello.py");
        const int gen = m_host->execute(scriptJob(QStringLiteral(
            "import sys\n"
            "print('hello', __name__, __file__)\n"
            "print('argv', sys.argv, 'path0', sys.path[0])\n"
            "print('oops', file=sys.stderr)\n"), path));
        const ScriptResult result = waitForResult(*m_host, *m_finished, gen);
        QCOMPARE(result.generation, gen);
        QVERIFY(result.succeeded());
        QCOMPARE(result.exitCode, 0);
        const QString out = textOf(*m_output, gen, PythonHost::Stream::Stdout);
        QVERIFY2(out.contains(QStringLiteral("hello __main__ %1\n").arg(path)), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("argv ['%1'] path0 /tmp/asc2-test").arg(path)), qPrintable(out));
        QCOMPARE(textOf(*m_output, gen, PythonHost::Stream::Stderr), QStringLiteral("oops\n"));
    }

    void outputStreamsWhileTheScriptRuns()
    {
        const int gen = m_host->execute(scriptJob(QStringLiteral(
            "import time\nprint('first', flush=True)\ntime.sleep(1.0)\nprint('second')\n")));
        QTRY_VERIFY_WITH_TIMEOUT(textOf(*m_output, gen, PythonHost::Stream::Stdout).contains(QStringLiteral("first")), 5000);
        QCOMPARE(m_finished->count(), 0);
        QVERIFY(!textOf(*m_output, gen, PythonHost::Stream::Stdout).contains(QStringLiteral("second")));
        QVERIFY(waitForResult(*m_host, *m_finished, gen).succeeded());
        QVERIFY(textOf(*m_output, gen, PythonHost::Stream::Stdout).endsWith(QStringLiteral("second\n")));
    }

    void anExceptionPrintsItsTracebackAndLine()
    {
        // Not on disk: the traceback must quote the text that ran.
        const int gen = m_host->execute(scriptJob(QStringLiteral(
            "def divide(a):\n    return a / 0\n\nx = divide(1)\n"), QStringLiteral("/nonexistent/dir/k.py")));
        const ScriptResult result = waitForResult(*m_host, *m_finished, gen);
        QCOMPARE(result.status, ScriptResult::Status::Failed);
        QCOMPARE(result.exitCode, 1);
        QCOMPARE(result.errorMessage, QStringLiteral("ZeroDivisionError: division by zero"));
        QCOMPARE(result.errorFile, QStringLiteral("/nonexistent/dir/k.py"));
        QCOMPARE(result.errorLine, 2); // innermost frame in the script
        const QString err = textOf(*m_output, gen, PythonHost::Stream::Stderr);
        QVERIFY2(err.startsWith(QStringLiteral("Traceback (most recent call last):")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("return a / 0")), qPrintable(err));
    }

    void aSyntaxErrorPointsAtItsLine()
    {
        const int gen = m_host->execute(scriptJob(QStringLiteral("x = 1\ndef broken(:\n    pass\n")));
        const ScriptResult result = waitForResult(*m_host, *m_finished, gen);
        QCOMPARE(result.status, ScriptResult::Status::Failed);
        QCOMPARE(result.errorLine, 2);
        QVERIFY(result.errorColumn > 0);
        QVERIFY(result.errorMessage.startsWith(QStringLiteral("SyntaxError")));
        QVERIFY(textOf(*m_output, gen, PythonHost::Stream::Stderr).contains(QStringLiteral("SyntaxError")));
    }

    void systemExitSetsTheExitCode()
    {
        const int three = m_host->execute(scriptJob(QStringLiteral("import sys\nsys.exit(3)\n")));
        const int zero = m_host->execute(scriptJob(QStringLiteral("raise SystemExit(0)\n")));
        const int message = m_host->execute(scriptJob(QStringLiteral("import sys\nsys.exit('bad input')\n")));
        const ScriptResult r3 = waitForResult(*m_host, *m_finished, three);
        QCOMPARE(r3.status, ScriptResult::Status::Failed);
        QCOMPARE(r3.exitCode, 3);
        QVERIFY(waitForResult(*m_host, *m_finished, zero).succeeded());
        const ScriptResult rm = waitForResult(*m_host, *m_finished, message);
        QCOMPARE(rm.exitCode, 1);
        QCOMPARE(textOf(*m_output, message, PythonHost::Stream::Stderr), QStringLiteral("bad input\n"));
    }

    void stopEndsABusyLoopWithinASecond()
    {
        const int gen = m_host->execute(scriptJob(QStringLiteral("print('spinning', flush=True)\nwhile True:\n    pass\n")));
        QTRY_VERIFY_WITH_TIMEOUT(m_host->runningGeneration() == gen, 10000);
        QTest::qWait(200);
        QCOMPARE(m_finished->count(), 0);

        QElapsedTimer timer;
        timer.start();
        m_host->interrupt(gen);
        const ScriptResult result = waitForResult(*m_host, *m_finished, gen, 5000);
        const qint64 elapsed = timer.elapsed();
        QCOMPARE(result.generation, gen);
        QVERIFY2(elapsed < 1000, qPrintable(QStringLiteral("stopped after %1 ms").arg(elapsed)));
        QCOMPARE(result.status, ScriptResult::Status::Interrupted);
        QCOMPARE(m_host->runningGeneration(), 0);

        // The interpreter is still good for the next run.
        const int next = m_host->execute(scriptJob(QStringLiteral("print(6 * 7)\n")));
        QVERIFY(waitForResult(*m_host, *m_finished, next).succeeded());
        QCOMPARE(textOf(*m_output, next, PythonHost::Stream::Stdout), QStringLiteral("42\n"));
    }

    void stopEndsABlockingSleepWithinASecond()
    {
        const int gen = m_host->execute(scriptJob(QStringLiteral("import time\ntime.sleep(60)\n")));
        QTRY_VERIFY_WITH_TIMEOUT(m_host->runningGeneration() == gen, 10000);
        QTest::qWait(100);
        QElapsedTimer timer;
        timer.start();
        m_host->interrupt(gen);
        const ScriptResult result = waitForResult(*m_host, *m_finished, gen, 5000);
        QVERIFY2(timer.elapsed() < 1000, qPrintable(QStringLiteral("stopped after %1 ms").arg(timer.elapsed())));
        QCOMPARE(result.status, ScriptResult::Status::Interrupted);
    }

    void aScriptCatchingExceptionsIsStillStopped()
    {
        // `except Exception` does not catch KeyboardInterrupt.
        const int gen = m_host->execute(scriptJob(QStringLiteral(
            "while True:\n    try:\n        sum(range(1000))\n    except Exception:\n        pass\n")));
        QTRY_VERIFY_WITH_TIMEOUT(m_host->runningGeneration() == gen, 10000);
        m_host->interrupt(gen);
        QCOMPARE(waitForResult(*m_host, *m_finished, gen, 2000).status, ScriptResult::Status::Interrupted);
    }

    void aLateInterruptDoesNotHitTheNextRun()
    {
        const int first = m_host->execute(scriptJob(QStringLiteral("pass\n")));
        QVERIFY(waitForResult(*m_host, *m_finished, first).succeeded());
        m_host->interrupt(first); // too late: nothing to stop
        const int second = m_host->execute(scriptJob(QStringLiteral(
            "import time\nfor i in range(20):\n    time.sleep(0.01)\nprint('done')\n")));
        const ScriptResult result = waitForResult(*m_host, *m_finished, second);
        QVERIFY(result.succeeded());
        QCOMPARE(textOf(*m_output, second, PythonHost::Stream::Stdout), QStringLiteral("done\n"));
    }

    void aQueuedJobCanBeDroppedBeforeItStarts()
    {
        const int busy = m_host->execute(scriptJob(QStringLiteral("import time\ntime.sleep(0.3)\n")));
        const int queued = m_host->execute(scriptJob(QStringLiteral("print('must not run')\n")));
        m_host->interrupt(queued);
        const ScriptResult dropped = waitForResult(*m_host, *m_finished, queued);
        QCOMPARE(dropped.status, ScriptResult::Status::Interrupted);
        QVERIFY(waitForResult(*m_host, *m_finished, busy).succeeded());
        QVERIFY(textOf(*m_output, queued, PythonHost::Stream::Stdout).isEmpty());
    }

    void theEnvironmentReachesTheScript()
    {
        ScriptJob job = scriptJob(QStringLiteral("import os\nprint(os.environ['ASC2_PLATFORM'])\n"));
        job.environment.insert(QStringLiteral("ASC2_PLATFORM"), QStringLiteral("Ascend910B4"));
        const int gen = m_host->execute(job);
        QVERIFY(waitForResult(*m_host, *m_finished, gen).succeeded());
        QCOMPARE(textOf(*m_output, gen, PythonHost::Stream::Stdout), QStringLiteral("Ascend910B4\n"));
        QCOMPARE(qgetenv("ASC2_PLATFORM"), QByteArray("Ascend910B4"));
    }

    void theRunEnvironmentIsSetBeforeTheWorkerRuns()
    {
        // The GUI thread adds the variables (adding may move the environment
        // block, which the GUI thread reads unlocked); the worker only
        // overwrites them. An empty value removes one.
        qputenv("ASC2_TEST_GONE", "old");
        ScriptJob job = scriptJob(QStringLiteral("import os\nprint(os.environ.get('ASC2_TEST_GONE'))\n"));
        job.environment.insert(QStringLiteral("ASC2_TEST_FRESH"), QStringLiteral("fresh"));
        job.environment.insert(QStringLiteral("ASC2_TEST_GONE"), QString());
        const int gen = m_host->execute(job);
        QCOMPARE(qgetenv("ASC2_TEST_FRESH"), QByteArray("fresh")); // before the run
        QVERIFY(!qEnvironmentVariableIsSet("ASC2_TEST_GONE"));
        QVERIFY(waitForResult(*m_host, *m_finished, gen).succeeded());
        QCOMPARE(textOf(*m_output, gen, PythonHost::Stream::Stdout), QStringLiteral("None\n"));
    }

    void aScriptsEnvironmentWritesDoNotRaceTheGuiThread()
    {
        // os.environ writes go through Qt's locked qputenv/qunsetenv, so the
        // GUI thread's qgetenv never reads a block that setenv has freed.
        const int gen = m_host->execute(scriptJob(QStringLiteral(
            "import os\n"
            "for i in range(3000):\n"
            "    os.environ['ASC2_TEST_MANY_%d' % i] = 'v%d' % i\n"
            "os.environ['ASC2_TEST_SEEN'] = 'from the script'\n"
            "del os.environ['ASC2_TEST_MANY_7']\n"
            "for bad in ('', 'A=B'):\n"
            "    try:\n"
            "        os.putenv(bad, 'x')\n"
            "    except ValueError as e:\n"
            "        print('refused', repr(bad), e)\n"
            "try:\n"
            "    os.environ['ASC2_TEST_NUL'] = 'a\\0b'\n"
            "except ValueError as e:\n"
            "    print('refused nul', e)\n")));
        // Reads while the script writes; without the lock this loop crashes.
        while (m_host->runningGeneration() != 0 || m_finished->isEmpty()) {
            for (int i = 0; i < 64; ++i) {
                qgetenv("ASC2_TEST_MANY_1");
                qgetenv("HOME");
            }
            QCoreApplication::processEvents();
        }
        QVERIFY(waitForResult(*m_host, *m_finished, gen).succeeded());
        QCOMPARE(qgetenv("ASC2_TEST_SEEN"), QByteArray("from the script"));
        QCOMPARE(qgetenv("ASC2_TEST_MANY_2999"), QByteArray("v2999"));
        QVERIFY(!qEnvironmentVariableIsSet("ASC2_TEST_MANY_7"));
        const QString out = textOf(*m_output, gen, PythonHost::Stream::Stdout);
        QVERIFY2(out.contains(QStringLiteral("refused '' illegal environment variable name")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("refused 'A=B' illegal environment variable name")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("refused nul embedded null byte")), qPrintable(out));
    }

    void aScriptThatReplacesStdoutDoesNotSilenceTheNext()
    {
        const int first = m_host->execute(scriptJob(QStringLiteral("import sys, io\nsys.stdout = io.StringIO()\n")));
        QVERIFY(waitForResult(*m_host, *m_finished, first).succeeded());
        const int second = m_host->execute(scriptJob(QStringLiteral("print('heard')\n")));
        QVERIFY(waitForResult(*m_host, *m_finished, second).succeeded());
        QCOMPARE(textOf(*m_output, second, PythonHost::Stream::Stdout), QStringLiteral("heard\n"));
    }

    void reportsPublishedByAScriptCarryItsGeneration()
    {
        QSignalSpy reports(m_host, &PythonHost::reportPublished);
        const int gen = m_host->execute(scriptJob(QStringLiteral(
            "import _asc2_test\nprint('compiling')\n_asc2_test.publish('vadd', passes=5, cycles=4096)\n")));
        QVERIFY(waitForResult(*m_host, *m_finished, gen).succeeded());
        // Queued before finished(), so already here.
        QCOMPARE(reports.count(), 2);
        QCOMPARE(reports.at(0).at(0).toInt(), gen);
        QCOMPARE(reports.at(0).at(1).value<asc2::ReportEvent>(), asc2::ReportEvent::Compiled);
        const auto compiled = reports.at(0).at(2).value<ReportPtr>();
        QCOMPARE(compiled->kernel, std::string("vadd"));
        QCOMPARE(int(compiled->passes.size()), 5);
        QCOMPARE(reports.at(1).at(1).value<asc2::ReportEvent>(), asc2::ReportEvent::Launched);
        QCOMPARE(reports.at(1).at(2).value<ReportPtr>()->launches.back().totalCycles, uint64_t(4096));
    }

    void tuningEventsCarryTheirGeneration()
    {
        QSignalSpy events(m_host, &PythonHost::tuningEvent);
        const int gen = m_host->execute(scriptJob(QStringLiteral(
            "import _asc2_workbench, json\n"
            "print('tuning')\n"
            "_asc2_workbench.tuning_event(json.dumps({'event': 'sweep_started', 'sweep': 3, 'kernel': 'vadd'}))\n"
            "for bad in ('[1, 2]', '{not json'):\n"
            "    try:\n"
            "        _asc2_workbench.tuning_event(bad)\n"
            "    except ValueError as e:\n"
            "        print('rejected:', e)\n")));
        QVERIFY(waitForResult(*m_host, *m_finished, gen).succeeded());
        // Queued before finished(), so already here; what is not a JSON object never leaves Python.
        QCOMPARE(events.count(), 1);
        QCOMPARE(events.at(0).at(0).toInt(), gen);
        const auto event = events.at(0).at(1).value<QJsonObject>();
        QCOMPARE(event.value(QStringLiteral("event")).toString(), QStringLiteral("sweep_started"));
        QCOMPARE(event.value(QStringLiteral("sweep")).toInt(), 3);
        QCOMPARE(event.value(QStringLiteral("kernel")).toString(), QStringLiteral("vadd"));
        const QString out = textOf(*m_output, gen, PythonHost::Stream::Stdout);
        QVERIFY2(out.startsWith(QStringLiteral("tuning\nrejected: tuning_event: the event must be a JSON object\n"
                                               "rejected: tuning_event: not JSON: ")),
                 qPrintable(out));
    }

private:
    PythonHost *m_host = nullptr;
    QSignalSpy *m_output = nullptr;
    QSignalSpy *m_finished = nullptr;
};

QTEST_GUILESS_MAIN(TestPythonHost)
#include "tst_pythonhost.moc"
