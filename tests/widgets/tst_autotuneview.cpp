// The Autotune view fed with the events asc2.tune.events sends: rows as
// configs finish, numeric sorting, the winner, the scatter and the table
// selecting together, progress, Cancel, several sweeps in one run.
#include "AutotuneData.h"
#include "AutotuneModel.h"
#include "AutotuneScatter.h"
#include "AutotuneView.h"
#include "SampleReport.h"
#include "Theme.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFont>
#include <QJsonArray>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSysInfo>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace {
QJsonObject started(int sweep, const QStringList &params, const QString &kernel = QStringLiteral("softmax"))
{
    QJsonArray configs;
    for (int i = 0; i < params.size(); ++i)
        configs.append(QJsonObject{{QStringLiteral("index"), i}, {QStringLiteral("params"), params[i]}});
    return {{QStringLiteral("event"), QStringLiteral("sweep_started")},
            {QStringLiteral("sweep"), sweep},
            {QStringLiteral("kernel"), kernel},
            {QStringLiteral("key"), QStringLiteral("rows=37, cols=100")},
            {QStringLiteral("executor"), QStringLiteral("local")},
            {QStringLiteral("platform"), QStringLiteral("Ascend910B1")},
            {QStringLiteral("configs"), configs}};
}

// A report row; NaN numbers are None in Python (null in the JSON).
QJsonObject row(int index, const QString &params, double cycles, double ubPeak, const QString &verdict,
                const QString &reason = QString())
{
    const auto orNull = [](double v) { return std::isnan(v) ? QJsonValue(QJsonValue::Null) : QJsonValue(v); };
    const bool compiled = !std::isnan(ubPeak);
    return {{QStringLiteral("index"), index},
            {QStringLiteral("params"), params},
            {QStringLiteral("cycles"), orNull(cycles)},
            {QStringLiteral("time_us"), orNull(cycles / 1850)},
            {QStringLiteral("metric"), orNull(cycles)},
            {QStringLiteral("ub_peak"), orNull(ubPeak)},
            {QStringLiteral("ub_capacity"), compiled ? QJsonValue(196608) : QJsonValue(QJsonValue::Null)},
            {QStringLiteral("peaks"), QJsonObject{{QStringLiteral("UB"), orNull(ubPeak)}}},
            {QStringLiteral("bound_pipe"), std::isnan(cycles) ? QJsonValue(QJsonValue::Null) : QJsonValue("MTE2")},
            {QStringLiteral("verdict"), verdict},
            {QStringLiteral("reason"), reason},
            {QStringLiteral("worker"), QStringLiteral("host:1")},
            {QStringLiteral("wall_s"), 0.5},
            {QStringLiteral("block_num"), 8},
            {QStringLiteral("code_sha1"),
             compiled ? QJsonValue(QStringLiteral("%1").arg(index, 40, 10, QLatin1Char('0')))
                      : QJsonValue(QJsonValue::Null)}};
}

QJsonObject configDone(int sweep, const QJsonObject &r)
{
    return {{QStringLiteral("event"), QStringLiteral("config_done")}, {QStringLiteral("sweep"), sweep},
            {QStringLiteral("row"), r}};
}

QJsonObject finished(int sweep, const QJsonArray &rows, const QJsonValue &winner, bool cached = false)
{
    return {{QStringLiteral("event"), QStringLiteral("sweep_finished")}, {QStringLiteral("sweep"), sweep},
            {QStringLiteral("rows"), rows}, {QStringLiteral("winner"), winner}, {QStringLiteral("cached"), cached}};
}

// The sweep most tests look at: string order of the cycles and of the
// params differs from their numeric order.
const QStringList kParams{QStringLiteral("TILE=256"), QStringLiteral("TILE=1024"), QStringLiteral("TILE=65536"),
                          QStringLiteral("TILE=4096")};
QJsonArray sweepRows()
{
    return {row(0, kParams[0], 1291031, 4096, QStringLiteral("ok")),
            row(1, kParams[1], 52318, 65536, QStringLiteral("winner")),
            row(2, kParams[2], NAN, NAN, QStringLiteral("dropped"),
                QStringLiteral("does not fit: UB overflow: 262,144 bytes needed\n  (the tile and its double buffer)")),
            row(3, kParams[3], 9000, 131072, QStringLiteral("mismatch"),
                QStringLiteral("outputs differ from the 2 config(s) that agree (config #0): element 7"))};
}

void feedSweep(AutotuneView &view, int sweep = 1)
{
    view.applyEvent(started(sweep, kParams));
    const QJsonArray rows = sweepRows();
    for (const QJsonValue &r : rows)
        view.applyEvent(configDone(sweep, r.toObject()));
    view.applyEvent(finished(sweep, rows, 1));
}

QString cell(const AutotuneView &view, int proxyRow, int column, int role = Qt::DisplayRole)
{
    return view.sortModel()->index(proxyRow, column).data(role).toString();
}

// Config positions top to bottom as the table shows them.
QVector<int> shownOrder(const AutotuneView &view)
{
    QVector<int> order;
    for (int r = 0; r < view.sortModel()->rowCount(); ++r)
        order << view.sortModel()->index(r, 0).data(AutotuneModel::PositionRole).toInt();
    return order;
}

int proxyRowOf(const AutotuneView &view, int position)
{
    return shownOrder(view).indexOf(position);
}

double luminance(const QColor &c)
{
    const auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

double contrast(const QColor &a, const QColor &b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}
} // namespace

class TestAutotuneView : public QObject
{
    Q_OBJECT
private slots:
    void rowsFillAsConfigsFinish()
    {
        AutotuneView view;
        QAbstractItemModelTester modelTester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester sortTester(view.sortModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy startedSpy(&view, &AutotuneView::sweepStarted);
        QVERIFY(view.titleLabel()->text().startsWith(QStringLiteral("No sweep yet")));
        QVERIFY(!view.cancelButton()->isEnabled());

        view.applyEvent(started(7, kParams));
        QCOMPARE(startedSpy.count(), 1);
        QCOMPARE(startedSpy.at(0).at(0).toInt(), 7);
        QCOMPARE(view.model()->rowCount(), 4);
        QCOMPARE(cell(view, 0, AutotuneModel::ConfigColumn), QStringLiteral("TILE=256"));
        // The first config not done is the one the sweep waits for.
        QCOMPARE(cell(view, 0, AutotuneModel::VerdictColumn), QStringLiteral("running\u2026"));
        QCOMPARE(cell(view, 1, AutotuneModel::VerdictColumn), QStringLiteral("queued"));
        QCOMPARE(view.progressLabel()->text(), QStringLiteral("0 / 4 configs"));
        QCOMPARE(view.progressBar()->maximum(), 4);
        QCOMPARE(view.progressBar()->value(), 0);
        QVERIFY(view.cancelButton()->isEnabled());
        for (const char *part : {"softmax", "rows=37, cols=100", "local", "Ascend910B1"})
            QVERIFY2(view.titleLabel()->text().contains(QLatin1String(part)), qPrintable(view.titleLabel()->text()));

        const QJsonArray rows = sweepRows();
        view.applyEvent(configDone(7, rows[0].toObject()));
        QCOMPARE(view.progressLabel()->text(), QStringLiteral("1 / 4 configs"));
        QCOMPARE(view.progressBar()->value(), 1);
        QCOMPARE(cell(view, 0, AutotuneModel::MeasureColumn), QLocale().toString(1291031));
        QCOMPARE(cell(view, 0, AutotuneModel::UbPeakColumn), QStringLiteral("%1 B (2.1%)").arg(QLocale().toString(4096)));
        QCOMPARE(cell(view, 0, AutotuneModel::BoundPipeColumn), QStringLiteral("MTE2"));
        QCOMPARE(cell(view, 0, AutotuneModel::VerdictColumn), QStringLiteral("ok"));
        QCOMPARE(cell(view, 1, AutotuneModel::VerdictColumn), QStringLiteral("running\u2026"));

        for (int i = 1; i < 4; ++i)
            view.applyEvent(configDone(7, rows[i].toObject()));
        QCOMPARE(view.progressLabel()->text(), QStringLiteral("4 / 4 configs"));
        // A dropped config has no numbers; its verdict explains itself on hover.
        QCOMPARE(cell(view, 2, AutotuneModel::MeasureColumn), QStringLiteral("\u2014"));
        QCOMPARE(cell(view, 2, AutotuneModel::VerdictColumn), QStringLiteral("dropped"));
        QVERIFY(cell(view, 2, AutotuneModel::VerdictColumn, Qt::ToolTipRole).startsWith(QStringLiteral("does not fit: UB overflow")));
        QVERIFY(view.cancelButton()->isEnabled());

        view.applyEvent(finished(7, rows, 1));
        QVERIFY(!view.cancelButton()->isEnabled());
        QCOMPARE(view.progressBar()->value(), 4);
        QCOMPARE(view.progressLabel()->text(),
                 QStringLiteral("4 / 4 configs, winner #1 (%1 cycles)").arg(QLocale().toString(52318)));
        QCOMPARE(startedSpy.count(), 1);
        // What is not a sweep event changes nothing.
        view.applyEvent({{QStringLiteral("event"), QStringLiteral("something_else")}, {QStringLiteral("sweep"), 7}});
        view.applyEvent({{QStringLiteral("event"), QStringLiteral("config_done")}});
        QCOMPARE(view.sweeps().size(), 1);
    }

    void sortsNumbersAsNumbers()
    {
        AutotuneView view;
        feedSweep(view);
        QTableView *table = view.table();
        QCOMPARE(shownOrder(view), (QVector<int>{0, 1, 2, 3}));

        // As text, "1,291,031" < "52,318" < "9,000"; the dropped config has no cycles and stays last.
        table->sortByColumn(AutotuneModel::MeasureColumn, Qt::AscendingOrder);
        QCOMPARE(shownOrder(view), (QVector<int>{3, 1, 0, 2}));
        table->sortByColumn(AutotuneModel::MeasureColumn, Qt::DescendingOrder);
        QCOMPARE(shownOrder(view), (QVector<int>{0, 1, 3, 2}));

        table->sortByColumn(AutotuneModel::UbPeakColumn, Qt::DescendingOrder);
        QCOMPARE(shownOrder(view), (QVector<int>{3, 1, 0, 2}));
        // Params in natural order: TILE=256 < TILE=1024 < TILE=4096 < TILE=65536.
        table->sortByColumn(AutotuneModel::ConfigColumn, Qt::AscendingOrder);
        QCOMPARE(shownOrder(view), (QVector<int>{0, 1, 3, 2}));
        table->sortByColumn(AutotuneModel::VerdictColumn, Qt::AscendingOrder);
        QCOMPARE(shownOrder(view), (QVector<int>{1, 0, 3, 2}));

        // A row that changes moves to its place; the sort holds.
        table->sortByColumn(AutotuneModel::MeasureColumn, Qt::AscendingOrder);
        QJsonObject faster = sweepRows()[0].toObject();
        faster[QStringLiteral("cycles")] = 100;
        faster[QStringLiteral("metric")] = 100;
        view.applyEvent(configDone(1, faster));
        QCOMPARE(shownOrder(view), (QVector<int>{0, 3, 1, 2}));
    }

    void theWinnerIsMarkedInBothThemes()
    {
        AutotuneView view;
        feedSweep(view);
        const int winnerRow = proxyRowOf(view, 1);
        QCOMPARE(cell(view, winnerRow, AutotuneModel::VerdictColumn), QStringLiteral("\u2605 winner"));
        for (const Theme &theme : {Theme::light(), Theme::dark()}) {
            view.setTheme(theme);
            for (int column = 0; column < AutotuneModel::ColumnCount; ++column) {
                const QModelIndex winner = view.sortModel()->index(winnerRow, column);
                QVERIFY(winner.data(Qt::FontRole).value<QFont>().bold());
                QCOMPARE(winner.data(Qt::BackgroundRole).value<QColor>(), theme.addedLine);
            }
            // Readable: the theme's text on the winner's background, as WCAG's AA asks of body text.
            QVERIFY2(contrast(theme.text, theme.addedLine) >= 4.5, qPrintable(Theme::name(theme.kind)));
            QVERIFY(contrast(theme.addedLine, theme.background) > 1.1);
            const QModelIndex other = view.sortModel()->index(proxyRowOf(view, 0), AutotuneModel::VerdictColumn);
            QVERIFY(!other.data(Qt::BackgroundRole).isValid());
            QVERIFY(!other.data(Qt::FontRole).value<QFont>().bold());
            const QModelIndex mismatch = view.sortModel()->index(proxyRowOf(view, 3), AutotuneModel::VerdictColumn);
            QCOMPARE(mismatch.data(Qt::ForegroundRole).value<QColor>(), theme.error);
        }
    }

    void scatterAndTableSelectEachOther()
    {
        AutotuneView view;
        view.resize(900, 760);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        feedSweep(view);
        QSignalSpy activated(&view, &AutotuneView::configActivated);
        AutotuneScatter *scatter = view.scatter();

        // x = UB peak, y = cycles (fewer cycles: lower on the plot).
        QVERIFY(!scatter->isPlotted(2));
        const QPointF p0 = scatter->pointOf(0), p1 = scatter->pointOf(1), p3 = scatter->pointOf(3);
        QVERIFY(p0.x() < p1.x() && p1.x() < p3.x());
        QVERIFY(p0.y() < p1.y() && p1.y() < p3.y());
        QVERIFY(scatter->rect().contains(p0.toPoint()) && scatter->rect().contains(p3.toPoint()));

        QVERIFY(scatter->toolTipAt(p3).contains(QStringLiteral("TILE=4096")));
        QVERIFY(scatter->toolTipAt(p3).contains(QStringLiteral("mismatch")));
        QVERIFY(scatter->toolTipAt(p1).contains(QStringLiteral("winner")));
        QCOMPARE(scatter->positionAt(p1 + QPointF(4, 3)), 1);
        QCOMPARE(scatter->positionAt(QPointF(2, 2)), -1);

        // Click a point: its row is selected, and the view asks for its report.
        QTest::mouseClick(scatter, Qt::LeftButton, {}, p1.toPoint());
        QCOMPARE(view.selectedConfig(), 1);
        QCOMPARE(scatter->selectedPosition(), 1);
        QVERIFY(view.table()->selectionModel()->isRowSelected(proxyRowOf(view, 1), {}));
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.at(0).at(0).toString(), QStringLiteral("softmax"));
        QCOMPARE(activated.at(0).at(1).toString(), QStringLiteral("%1").arg(1, 40, 10, QLatin1Char('0')));

        // Click a row: its point is marked.
        QTableView *table = view.table();
        const QRect rect = table->visualRect(view.sortModel()->index(proxyRowOf(view, 3), AutotuneModel::ConfigColumn));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, rect.center());
        QCOMPARE(scatter->selectedPosition(), 3);
        QCOMPARE(activated.count(), 2);
        QCOMPARE(activated.at(1).at(1).toString(), QStringLiteral("%1").arg(3, 40, 10, QLatin1Char('0')));

        // Sorting moves rows, not the selection.
        table->sortByColumn(AutotuneModel::MeasureColumn, Qt::DescendingOrder);
        QCOMPARE(view.selectedConfig(), 3);
        QCOMPARE(scatter->selectedPosition(), 3);

        // A dropped config (no point) is activated from the table, with no code.
        const QModelIndex dropped = view.sortModel()->index(proxyRowOf(view, 2), 0);
        table->setCurrentIndex(dropped);
        QCOMPARE(scatter->selectedPosition(), 2);
        emit table->activated(dropped);
        QCOMPARE(activated.last().at(1).toString(), QString());
    }

    void cancelAsksToStopTheRun()
    {
        AutotuneView view;
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy cancel(&view, &AutotuneView::cancelRequested);
        view.applyEvent(started(3, {QStringLiteral("TILE=256"), QStringLiteral("TILE=512")}));
        QVERIFY(view.cancelButton()->isEnabled());
        QTest::mouseClick(view.cancelButton(), Qt::LeftButton);
        QCOMPARE(cancel.count(), 1);
        // Until the sweep says it stopped.
        QVERIFY(!view.cancelButton()->isEnabled());
        QCOMPARE(view.cancelButton()->text(), QStringLiteral("Cancelling\u2026"));

        view.applyEvent({{QStringLiteral("event"), QStringLiteral("sweep_cancelled")}, {QStringLiteral("sweep"), 3}});
        QCOMPARE(view.progressLabel()->text(), QStringLiteral("Cancelled at 0 / 2 configs"));
        QCOMPARE(cell(view, 0, AutotuneModel::VerdictColumn), QStringLiteral("cancelled"));
        QVERIFY(!view.cancelButton()->isEnabled());
        QCOMPARE(view.cancelButton()->text(), QStringLiteral("Cancel"));
    }

    void aRunThatEndsCutsItsSweepShort()
    {
        AutotuneView view;
        view.applyEvent(started(4, {QStringLiteral("TILE=256"), QStringLiteral("TILE=512")}));
        view.applyEvent(configDone(4, row(0, QStringLiteral("TILE=256"), 500, 1024, QStringLiteral("ok"))));
        view.endRun();
        QCOMPARE(view.shownSweep()->state, autotune::Sweep::State::Cancelled);
        QCOMPARE(view.progressLabel()->text(), QStringLiteral("Cancelled at 1 / 2 configs"));
        QCOMPARE(cell(view, 1, AutotuneModel::VerdictColumn), QStringLiteral("cancelled"));
        QVERIFY(!view.cancelButton()->isEnabled());
        QVERIFY(!view.sweepSelector()->itemText(0).contains(QStringLiteral("running")));
    }

    void theLatestSweepShowsUnlessAnotherWasPicked()
    {
        AutotuneView view;
        QAbstractItemModelTester tester(view.sortModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QComboBox *selector = view.sweepSelector();
        view.applyEvent(started(1, kParams, QStringLiteral("softmax")));
        QVERIFY(!selector->isEnabled());
        view.applyEvent(started(2, {QStringLiteral("TILE=2048")}, QStringLiteral("gelu")));
        QCOMPARE(selector->count(), 2);
        QVERIFY(selector->isEnabled());
        QCOMPARE(view.currentSweep(), 1);
        QCOMPARE(view.shownSweep()->kernel, QStringLiteral("gelu"));
        QCOMPARE(view.model()->rowCount(), 1);
        QVERIFY(selector->itemText(0).startsWith(QStringLiteral("softmax")));
        QVERIFY(selector->itemText(1).contains(QStringLiteral("(running)")));

        // The reader goes back to softmax; it stays while other sweeps start.
        selector->setCurrentIndex(0);
        QCOMPARE(view.shownSweep()->kernel, QStringLiteral("softmax"));
        QCOMPARE(view.model()->rowCount(), 4);
        view.applyEvent(started(3, {QStringLiteral("TILE=64")}, QStringLiteral("vadd")));
        QCOMPARE(selector->count(), 3);
        QCOMPARE(view.currentSweep(), 0);
        // Its own configs still arrive.
        view.applyEvent(configDone(1, sweepRows()[1].toObject()));
        QCOMPARE(cell(view, proxyRowOf(view, 1), AutotuneModel::VerdictColumn), QStringLiteral("\u2605 winner"));
        // Events of a sweep not on show leave the table alone.
        view.applyEvent(configDone(3, row(0, QStringLiteral("TILE=64"), 10, 256, QStringLiteral("winner"))));
        QCOMPARE(view.model()->sweep().id, 1);

        // Back on the latest: the next sweep is followed again.
        selector->setCurrentIndex(2);
        QCOMPARE(view.model()->sweep().id, 3);
        view.applyEvent(started(4, {QStringLiteral("TILE=8")}, QStringLiteral("vadd")));
        QCOMPARE(view.currentSweep(), 3);
        QCOMPARE(view.model()->sweep().id, 4);

        view.clear();
        QCOMPARE(selector->count(), 0);
        QCOMPARE(view.model()->rowCount(), 0);
        QVERIFY(!view.scatter()->hasContent());
        QVERIFY(view.titleLabel()->text().startsWith(QStringLiteral("No sweep yet")));
        view.applyEvent(started(5, {QStringLiteral("TILE=8")}, QStringLiteral("vadd")));
        QCOMPARE(view.currentSweep(), 0);
    }

    void aCachedChoiceComesInOneEvent()
    {
        AutotuneView view;
        QJsonObject event = finished(9, sweepRows(), 1, /*cached=*/true);
        event[QStringLiteral("kernel")] = QStringLiteral("softmax");
        view.applyEvent(event);
        QCOMPARE(view.model()->rowCount(), 4);
        QVERIFY2(view.progressLabel()->text().startsWith(QStringLiteral("Chosen earlier (cached), 4 configs, winner #1")),
                 qPrintable(view.progressLabel()->text()));
        QCOMPARE(view.shownSweep()->winnerPosition(), 1);
        QVERIFY(view.titleLabel()->text().contains(QStringLiteral("softmax")));

        // `winner` names the winner when the rows do not.
        QJsonArray rows = sweepRows();
        QJsonObject plain = rows[1].toObject();
        plain[QStringLiteral("verdict")] = QStringLiteral("ok");
        rows[1] = plain;
        autotune::SweepLog log;
        QCOMPARE(log.apply(finished(1, rows, 1)), 0);
        QCOMPARE(log.sweeps()[0].winnerPosition(), 1);
    }

    void microsecondsOffTheSimulator()
    {
        // NPU/Twin sweeps compare wall microseconds: the column and the axis say so.
        AutotuneView view;
        view.applyEvent(started(1, {QStringLiteral("TILE=256")}));
        QJsonObject r = row(0, QStringLiteral("TILE=256"), NAN, 2048, QStringLiteral("winner"));
        r[QStringLiteral("time_us")] = 12.5;
        r[QStringLiteral("metric")] = 12.5;
        view.applyEvent(configDone(1, r));
        QCOMPARE(view.model()->headerData(AutotuneModel::MeasureColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Time (\u00b5s)"));
        QCOMPARE(cell(view, 0, AutotuneModel::MeasureColumn), QLocale().toString(12.5, 'f', 2));
        QVERIFY(view.scatter()->isPlotted(0));
    }

    void aConfigFindsItsCompileReport()
    {
        auto softmax = makeSampleReport("softmax");
        softmax->ascendc = "abc";
        auto other = makeSampleReport("softmax");
        auto gelu = makeSampleReport("gelu");
        gelu->ascendc = "abc";
        const QVector<ReportPtr> reports{softmax, other, gelu};
        // hashlib.sha1(b"abc").hexdigest(), as asc2.tune.events.code_sha1 computes it.
        const QString abc = QStringLiteral("a9993e364706816aba3e25717850c26c9cd0d89d");
        QCOMPARE(autotune::codeSha1(*softmax), abc);
        QCOMPARE(autotune::indexOfConfigReport(reports, QStringLiteral("softmax"), abc), 0);
        QCOMPARE(autotune::indexOfConfigReport(reports, QStringLiteral("gelu"), abc), 2);
        QCOMPARE(autotune::indexOfConfigReport(reports, QStringLiteral("softmax"), autotune::codeSha1(*other)), 1);
        QCOMPARE(autotune::indexOfConfigReport(reports, QStringLiteral("vadd"), abc), -1);
        QCOMPARE(autotune::indexOfConfigReport(reports, QStringLiteral("softmax"), QString()), -1);

        const QString here = QStringLiteral("%1:%2").arg(QSysInfo::machineHostName()).arg(QCoreApplication::applicationPid());
        QVERIFY(autotune::ranInThisProcess(here));
        QVERIFY(!autotune::ranInThisProcess(QStringLiteral("node7:4242")));

        autotune::ConfigResult dropped;
        dropped.takeRow(sweepRows()[2].toObject());
        QCOMPARE(autotune::whyNoReport(dropped),
                 QStringLiteral("Config #2 (TILE=65536) did not compile: does not fit: UB overflow: 262,144 bytes needed"));
        autotune::ConfigResult remote;
        remote.takeRow(sweepRows()[1].toObject());
        QVERIFY(autotune::whyNoReport(remote).contains(QStringLiteral("Dask worker host:1")));
        QJsonObject local = sweepRows()[1].toObject();
        local[QStringLiteral("worker")] = here;
        autotune::ConfigResult inProcess;
        inProcess.takeRow(local);
        QCOMPARE(autotune::whyNoReport(inProcess), QStringLiteral("No compile report of Config #1 (TILE=1024) in this run"));
    }

    void scatterScaleMapsValuesToPixels()
    {
        autotune::ScatterScale scale;
        scale.x = inspector::Axis::over(0, 100);
        scale.x.setPixels(50, 250);
        scale.top = 10;
        scale.bottom = 110;
        // Times within a decade or so: linear from 0, room above the highest on a tick.
        scale.fitY(9000, 52318);
        QVERIFY(!scale.logY);
        QCOMPARE(scale.yMin, 0.0);
        QCOMPARE(scale.yMax, 60000.0);
        QCOMPARE(scale.toPixel(50, 30000), QPointF(150, 60));
        QCOMPARE(scale.toPixel(0, 0), QPointF(50, 110));
        QCOMPARE(scale.toPixel(100, 60000), QPointF(250, 10));
        QCOMPARE(scale.yTicks(6), (QVector<double>{0, 10000, 20000, 30000, 40000, 50000, 60000}));

        // A 143x spread: logarithmic, bounded by 1-2-5 values around the points.
        scale.fitY(9000, 1291031);
        QVERIFY(scale.logY);
        QCOMPARE(scale.yMin, 5000.0);
        QCOMPARE(scale.yMax, 2e6);
        QCOMPARE(scale.toY(5000), 110.0);
        QCOMPARE(scale.toY(2e6), 10.0);
        QCOMPARE(scale.toY(1e5), 60.0); // the geometric middle
        QCOMPARE(scale.yTicks(12), (QVector<double>{5000, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 2e6}));
        QCOMPARE(scale.yTicks(4), (QVector<double>{1e4, 1e5, 1e6}));

        scale.fitY(INFINITY, 0); // nothing to plot yet
        QVERIFY(!scale.logY);
        QCOMPARE(scale.yMax, 1.0);
    }

    void rendersInBothThemes()
    {
        AutotuneView view;
        view.resize(760, 720);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        feedSweep(view);
        view.selectConfig(3);
        const QString dir = qEnvironmentVariable("ASC2_TEST_SCREENSHOTS");
        for (const Theme &theme : {Theme::light(), Theme::dark()}) {
            QApplication::setPalette(theme.palette);
            view.setTheme(theme);
            QCoreApplication::processEvents();
            // The winner's point is drawn in its colour, ringed.
            const QImage plot = view.scatter()->grab().toImage();
            const QPoint winner = view.scatter()->pointOf(1).toPoint();
            QCOMPARE(plot.pixelColor(winner), theme.type);
            QCOMPARE(plot.pixelColor(winner + QPoint(0, 9)).rgb() == theme.background.rgb(), false);
            QCOMPARE(plot.pixelColor(5, plot.height() - 5), theme.background);
            if (!dir.isEmpty())
                QVERIFY(view.grab().save(QDir(dir).filePath(QStringLiteral("autotune-view-%1.png").arg(Theme::name(theme.kind)))));
        }
        // Inspect > Export View writes the scatter as the other inspectors are written.
        QTemporaryDir out;
        const QString svg = out.filePath(QStringLiteral("scatter.svg"));
        QVERIFY(view.scatter()->exportTo(svg));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("UB peak (KiB)"));
        QVERIFY(text.contains("cycles, log scale"));
    }
};

QTEST_MAIN(TestAutotuneView)
#include "tst_autotuneview.moc"
