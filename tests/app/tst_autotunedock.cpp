// The Autotune dock on the real interpreter and asc2 package: scripts send a
// sweep's events through asc2.tune.events, as @asc2.autotune does, while
// they compile and run vadd's configs; the dock fills, activating a config
// shows its compile report in the other views, and Cancel stops the run.
#include "AppTestSupport.h"
#include "MainWindowFixture.h"
#include "AscendCView.h"
#include "AutotuneData.h"
#include "AutotuneModel.h"
#include "AutotuneScatter.h"
#include "AutotuneView.h"
#include "ConsoleView.h"
#include "InspectorController.h"
#include "KernelEditor.h"
#include "MainWindow.h"
#include "PassesPanel.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>

namespace {
// Three configs of samples/vadd.py's kernel, each compiled and run here, the
// last too big for UB; the rows are the autotuner's (docs/autotune.md).
const char *const kSweepScript = R"PY(
import os, socket, sys
sys.path.insert(0, SAMPLES)
import numpy as np
import asc2
from asc2.tune import events
from vadd import vadd

n, cores = 8 * 1024, 8
configs = [{"index": i, "params": f"TILE={t}"} for i, t in enumerate((256, 1024, 1 << 20))]
sweep = events.new_sweep()
events.emit("sweep_started", sweep, kernel="vadd", key=f"size={n}", executor="local",
            platform=asc2.get_platform().platform, configs=configs)
rows = []
for config in configs:
    tile = int(config["params"].split("=")[1])
    row = dict(config, verdict="ok", reason="", cycles=None, time_us=None, metric=None, ub_peak=None,
               ub_capacity=None, peaks={}, bound_pipe=None, code_sha1=None, block_num=cores,
               worker=f"{socket.gethostname()}:{os.getpid()}", wall_s=0.0)
    x, y, out = np.arange(n, dtype=np.float32), np.ones(n, np.float32), np.zeros(n, np.float32)
    try:
        vadd[cores](x, y, out, n, asc2.ceildiv(asc2.ceildiv(n, tile), cores), TILE=tile)
    except asc2.MemoryError as e:
        row.update(verdict="dropped", reason=f"does not fit: {e.message}")
    else:
        report = vadd.last_report
        ub = next(s for s in report["memory"]["spaces"] if s["space"] == "UB")
        pipes = [p for p in report["launches"][-1]["pipes"] if p.get("busy_cycles")]
        row.update(cycles=report["launch"]["cycles"], metric=report["launch"]["cycles"],
                   time_us=report["launch"]["time_us"], ub_peak=ub["peak"], ub_capacity=ub["capacity"],
                   peaks={"UB": ub["peak"]}, code_sha1=events.code_sha1(report),
                   bound_pipe=max(pipes, key=lambda p: p["busy_cycles"])["pipe"])
        assert np.array_equal(out, x + y)
    rows.append(row)
    events.emit("config_done", sweep, row=row)
best = min((r for r in rows if r["verdict"] == "ok"), key=lambda r: r["metric"])
best["verdict"] = "winner"
events.emit("sweep_finished", sweep, rows=rows, winner=best["index"], cached=False)
print("winner", best["params"])
)PY";

// @asc2.autotune itself, in process, over vadd's tile size.
const char *const kAutotuneScript = R"PY(
import sys
sys.path.insert(0, SAMPLES)
import numpy as np
import asc2
from vadd import vadd

n = 8 * 1024
tuned = asc2.autotune(configs=[asc2.Config(TILE=256, tiles_per_block=4), asc2.Config(TILE=1024, tiles_per_block=1),
                               asc2.Config(TILE=1 << 20, tiles_per_block=1)],
                      key=["size"], executor="local", cache_results=False)(vadd)
x, y, out = np.arange(n, dtype=np.float32), np.ones(n, np.float32), np.zeros(n, np.float32)
tuned[8](x, y, out, n)
assert np.array_equal(out, x + y)
print(tuned.autotune_report)
)PY";

// A sweep whose configs ran elsewhere: a Dask worker's row names its process.
const char *const kRemoteScript = R"PY(
from asc2.tune import events
sweep = events.new_sweep()
events.emit("sweep_started", sweep, kernel="vadd", key="size=8192", executor="dask", platform="Ascend910B1",
            configs=[{"index": 0, "params": "TILE=512"}])
events.emit("config_done", sweep, row={"index": 0, "params": "TILE=512", "verdict": "winner", "cycles": 5000,
            "metric": 5000, "ub_peak": 12288, "ub_capacity": 188416, "worker": "dask-node-7:4242",
            "code_sha1": "0123456789abcdef0123456789abcdef01234567"})
events.emit("sweep_finished", sweep, rows=[], winner=0, cached=False)
)PY";

// A sweep that waits until it is stopped, then says so, as the autotuner
// does when Stop's KeyboardInterrupt cancels its futures.
const char *const kLongScript = R"PY(
import time
from asc2.tune import events
sweep = events.new_sweep()
events.emit("sweep_started", sweep, kernel="gelu", key="size=1048576", executor="dask", platform="Ascend910B1",
            configs=[{"index": 0, "params": "TILE=4096"}, {"index": 1, "params": "TILE=8192"}])
try:
    while True:
        time.sleep(0.05)
except KeyboardInterrupt:
    events.emit("sweep_cancelled", sweep)
    raise
)PY";

QString script(const char *text)
{
    return QStringLiteral("SAMPLES = %1\n").arg(QStringLiteral("'" ASC2_SOURCE_DIR "/samples'"))
        + QString::fromUtf8(text);
}
} // namespace

class TestAutotuneDock : public QObject, private MainWindowFixture
{
    Q_OBJECT
public:
    TestAutotuneDock() : MainWindowFixture(QSize(1400, 900)) {}

private slots:
    void initTestCase()
    {
        qputenv("ASC2_CACHE_DIR", m_cache.path().toUtf8());
        startHost(new PythonHost()); // the staged asc2 package
    }
    void cleanupTestCase() { stopHost(); }
    void init() { QVERIFY(openWindow()); }
    void cleanup() { closeWindow(); }

    void aSweepFillsTheDockAndOpensTheReportOfAConfig()
    {
        AutotuneView *view = m_window->autotuneView();
        QVERIFY(view->visibleRegion().isEmpty()); // under the Passes dock until a sweep starts
        m_window->editor()->setText(script(kSweepScript));
        m_window->runScript();
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 60000);
        const RunSummary summary = m_finished->takeFirst().at(0).value<RunSummary>();
        QVERIFY2(summary.script.succeeded(), qPrintable(summary.headline() + m_window->console()->toPlainText()));
        QVERIFY(m_window->console()->toPlainText().contains(QStringLiteral("winner TILE=1024")));

        // The sweep brought the dock forward.
        QTRY_VERIFY(!view->visibleRegion().isEmpty());
        QCOMPARE(view->sweeps().size(), 1);
        const autotune::Sweep *sweep = view->shownSweep();
        QCOMPARE(sweep->kernel, QStringLiteral("vadd"));
        QCOMPARE(sweep->state, autotune::Sweep::State::Finished);
        QCOMPARE(sweep->configs.size(), 3);
        QCOMPARE(sweep->doneCount(), 3);
        QCOMPARE(sweep->winnerPosition(), 1);
        QCOMPARE(sweep->configs[2].verdict, QStringLiteral("dropped"));
        QVERIFY(sweep->configs[2].reason.contains(QStringLiteral("UB overflow")));
        QVERIFY(sweep->configs[0].cycles > sweep->configs[1].cycles);
        QVERIFY(view->progressLabel()->text().startsWith(QStringLiteral("3 / 3 configs, winner #1")));
        QVERIFY(!view->cancelButton()->isEnabled());
        QVERIFY(view->scatter()->isPlotted(0) && view->scatter()->isPlotted(1));

        // The run compiled each config: one report each in the Passes panel.
        PassesPanel *passes = m_window->passesPanel();
        QVERIFY(passes->reports().size() >= 2);
        const auto shownSha1 = [&] {
            const ReportPtr report = passes->currentReport();
            return report ? autotune::codeSha1(*report) : QString();
        };

        // Click TILE=256's row: every view shows its compile report.
        QTableView *table = view->table();
        const auto rowOf = [&](int position) {
            for (int r = 0; r < view->sortModel()->rowCount(); ++r) {
                if (view->sortModel()->index(r, 0).data(AutotuneModel::PositionRole).toInt() == position)
                    return r;
            }
            return -1;
        };
        const QRect first = table->visualRect(view->sortModel()->index(rowOf(0), AutotuneModel::ConfigColumn));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, first.center());
        QCOMPARE(shownSha1(), sweep->configs[0].codeSha1);
        QCOMPARE(m_window->inspectors()->inspectedReport(), passes->currentReport());
        QCOMPARE(autotune::codeSha1(*m_window->inspectors()->inspectedReport()), sweep->configs[0].codeSha1);
        QVERIFY(m_window->ascendcView()->source().contains(QStringLiteral("vadd")));
        QVERIFY2(m_window->statusBar()->currentMessage().contains(QStringLiteral("config #0 (TILE=256)")),
                 qPrintable(m_window->statusBar()->currentMessage()));
        // The message is drawn where the run's status was; it comes back after.
        QLabel *runStatus = nullptr;
        for (QLabel *label : m_window->statusBar()->findChildren<QLabel *>())
            runStatus = label->text() == m_window->statusText() ? label : runStatus;
        QVERIFY(runStatus && runStatus->isHidden());
        m_window->statusBar()->clearMessage();
        QVERIFY(!runStatus->isHidden());

        // Click the winner's point in the scatter: its report.
        QTest::mouseClick(view->scatter(), Qt::LeftButton, {}, view->scatter()->pointOf(1).toPoint());
        QCOMPARE(view->selectedConfig(), 1);
        QCOMPARE(shownSha1(), sweep->configs[1].codeSha1);
        QCOMPARE(passes->currentReport()->launches.back().totalCycles, uint64_t(sweep->configs[1].cycles));
        QVERIFY(saveScreenshot(QStringLiteral("autotune-dock-light")));
        m_window->setTheme(Theme::Kind::Dark);
        QTest::qWait(50); // the new palette reaches every widget
        QVERIFY(saveScreenshot(QStringLiteral("autotune-dock-dark")));

        // The dropped config never compiled: the status bar says why, the views stay.
        const QRect dropped = table->visualRect(view->sortModel()->index(rowOf(2), AutotuneModel::ConfigColumn));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, dropped.center());
        QCOMPARE(shownSha1(), sweep->configs[1].codeSha1);
        QVERIFY2(m_window->statusBar()->currentMessage().startsWith(
                     QStringLiteral("Config #2 (TILE=1048576) did not compile: does not fit: UB overflow")),
                 qPrintable(m_window->statusBar()->currentMessage()));

        // The next run starts without the last run's sweeps.
        m_window->editor()->setText(QStringLiteral("print('no tuning')\n"));
        m_window->runScript();
        QCOMPARE(view->sweeps().size(), 0);
        QCOMPARE(view->model()->rowCount(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 20000);
        QCOMPARE(view->sweeps().size(), 0);
    }

    void theAutotunerFillsTheDockAndItsWinnerOpensItsReport()
    {
        m_window->editor()->setText(script(kAutotuneScript));
        m_window->runScript();
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 60000);
        const RunSummary summary = m_finished->takeFirst().at(0).value<RunSummary>();
        QVERIFY2(summary.script.succeeded(), qPrintable(summary.headline() + m_window->console()->toPlainText()));

        AutotuneView *view = m_window->autotuneView();
        QTRY_VERIFY(!view->visibleRegion().isEmpty());
        QCOMPARE(view->sweeps().size(), 1);
        const autotune::Sweep *sweep = view->shownSweep();
        QCOMPARE(sweep->kernel, QStringLiteral("vadd"));
        QCOMPARE(sweep->executor, QStringLiteral("local"));
        QCOMPARE(sweep->state, autotune::Sweep::State::Finished);
        QCOMPARE(sweep->doneCount(), 3);
        const int winner = sweep->winnerPosition();
        QCOMPARE(winner, 1);
        QCOMPARE(sweep->configs[winner].params, QStringLiteral("TILE=1024, tiles_per_block=1"));
        QCOMPARE(sweep->configs[2].verdict, QStringLiteral("dropped"));
        QVERIFY(!sweep->configs[winner].codeSha1.isEmpty());

        // Enter on the winner's row: its compile report in every view.
        PassesPanel *passes = m_window->passesPanel();
        const QModelIndex row = view->sortModel()->mapFromSource(view->model()->index(winner, 0));
        QVERIFY(row.isValid());
        view->table()->setFocus();
        view->table()->setCurrentIndex(row);
        passes->setCurrentKernel(0); // something else on show first
        QVERIFY(autotune::codeSha1(*passes->currentReport()) != sweep->configs[winner].codeSha1);
        QTest::keyClick(view->table(), Qt::Key_Return);
        QVERIFY(passes->currentReport());
        QCOMPARE(autotune::codeSha1(*passes->currentReport()), sweep->configs[winner].codeSha1);
        QCOMPARE(m_window->inspectors()->inspectedReport(), passes->currentReport());
        QCOMPARE(passes->currentReport()->launches.back().totalCycles, uint64_t(sweep->configs[winner].cycles));
        QVERIFY(saveScreenshot(QStringLiteral("autotune-dock-autotuner")));
    }

    void aConfigThatRanOnADaskWorkerIsExplained()
    {
        m_window->editor()->setText(script(kRemoteScript));
        m_window->runScript();
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 20000);
        AutotuneView *view = m_window->autotuneView();
        QCOMPARE(view->sweeps().size(), 1);
        QCOMPARE(view->shownSweep()->executor, QStringLiteral("dask"));
        QVERIFY(view->scatter()->isPlotted(0));
        QTest::mouseClick(view->scatter(), Qt::LeftButton, {}, view->scatter()->pointOf(0).toPoint());
        QCOMPARE(view->selectedConfig(), 0);
        const QString message = m_window->statusBar()->currentMessage();
        QVERIFY2(message.contains(QStringLiteral("compiled on the Dask worker dask-node-7:4242")), qPrintable(message));
        QVERIFY(!m_window->passesPanel()->currentReport());
    }

    void cancelStopsTheRunAndItsSweep()
    {
        m_window->editor()->setText(script(kLongScript));
        m_window->runScript();
        AutotuneView *view = m_window->autotuneView();
        QTRY_VERIFY_WITH_TIMEOUT(view->shownSweep(), 20000);
        QCOMPARE(view->progressLabel()->text(), QStringLiteral("0 / 2 configs"));
        QTRY_VERIFY(!view->visibleRegion().isEmpty());
        QVERIFY(view->cancelButton()->isEnabled());

        QTest::mouseClick(view->cancelButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 5000);
        QCOMPARE(m_finished->takeFirst().at(0).value<RunSummary>().script.status, ScriptResult::Status::Interrupted);
        QCOMPARE(m_window->statusText(), QStringLiteral("Stopped"));
        // The script's sweep_cancelled came before the end of the run.
        QCOMPARE(view->shownSweep()->state, autotune::Sweep::State::Cancelled);
        QCOMPARE(view->progressLabel()->text(), QStringLiteral("Cancelled at 0 / 2 configs"));
        QVERIFY(!view->cancelButton()->isEnabled());
    }

    void theDockHasAMenuEntryAndAShortcut()
    {
        QAction *show = m_window->action(QStringLiteral("autotuneDockShow"));
        QVERIFY(show);
        QCOMPARE(show->shortcut(), QKeySequence(QStringLiteral("Alt+U")));
        // No other action of the window has that key.
        for (QAction *a : m_window->findChildren<QAction *>()) {
            if (a != show)
                QVERIFY2(!a->shortcuts().contains(show->shortcut()), qPrintable(a->objectName()));
        }
        auto *dock = m_window->findChild<QDockWidget *>(QStringLiteral("autotuneDock"));
        QVERIFY(dock);
        bool inDocksMenu = false;
        for (QMenu *menu : m_window->findChildren<QMenu *>())
            inDocksMenu |= menu->actions().contains(dock->toggleViewAction());
        QVERIFY(inDocksMenu);
        QCOMPARE(MainWindow::viewFromName(QStringLiteral("autotune")), MainWindow::View::Autotune);
        QVERIFY(MainWindow::viewNames().contains(QStringLiteral("autotune")));

        QVERIFY(m_window->autotuneView()->visibleRegion().isEmpty());
        show->trigger();
        QTRY_VERIFY(!m_window->autotuneView()->visibleRegion().isEmpty());
        QVERIFY(m_window->autotuneView()->titleLabel()->text().startsWith(QStringLiteral("No sweep yet")));
    }

private:
    QTemporaryDir m_cache;
};

QTEST_MAIN(TestAutotuneDock)
#include "tst_autotunedock.moc"
