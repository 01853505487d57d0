// The inspector views on a small double-buffered kernel: what is under the
// mouse, what a click selects in the shared state, the models (checked with
// QAbstractItemModelTester), A/B comparison, exports and the editor heat.
#include "GraphView.h"
#include "InspectorExport.h"
#include "InspectorSample.h"
#include "InspectorState.h"
#include "KernelEditor.h"
#include "PingPongView.h"
#include "ProfileView.h"
#include "SyncTimelineView.h"
#include "UbMapView.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QTemporaryDir>
#include <QtTest>

using namespace inspector;

class TestInspectorViews : public QObject
{
    Q_OBJECT
private slots:
    void ubMapHitsBuffersAndSelects()
    {
        InspectorState state;
        UbMapView view;
        view.setState(&state);
        view.setReport(makePingPongReport());
        view.resize(800, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QVector<UbMapView::Band> bands = view.layout(view.size());
        QCOMPARE(bands.size(), 1);
        QCOMPARE(bands[0].space, QString("UB"));
        QCOMPARE(bands[0].buffers.size(), 3);
        // The middle of x_1: points 3..12, bytes 1024..2048.
        const QPointF p(view.xAxis().toPixel(7), bands[0].scale.toPixel(1536));
        QCOMPARE(view.bufferAt(p), 1);
        const QString tip = view.toolTipAt(p);
        QVERIFY2(tip.contains("x_1") && tip.contains("slot 1") && tip.contains("pong") && tip.contains("line 10"),
                 qPrintable(tip));
        QTest::mouseClick(&view, Qt::LeftButton, {}, p.toPoint());
        QCOMPARE(state.buffer(), QString("x_1"));
        QCOMPARE(state.sourceLine(), 10);
        QCOMPARE(state.point(), 3);
        QCOMPARE(view.bufferAt(QPointF(5, 5)), -1);
        const QImage image = view.grab().toImage();
        QVERIFY(!image.isNull());
    }

    void ubMapZoomIsShared()
    {
        InspectorState state;
        UbMapView map;
        SyncTimelineView sync;
        map.setState(&state);
        sync.setState(&state);
        map.setReport(makePingPongReport());
        sync.setReport(makePingPongReport());
        map.resize(800, 300);
        sync.resize(800, 300);
        map.zoomBy(2, 400);
        QVERIFY(state.pointFirst() < state.pointLast());
        QCOMPARE(sync.xAxis().first, map.xAxis().first);
        QCOMPARE(sync.xAxis().last, map.xAxis().last);
        map.resetZoom();
        QCOMPARE(sync.xAxis().first, 0.0);
    }

    void syncTimelineStatic()
    {
        InspectorState state;
        SyncTimelineView view;
        view.setState(&state);
        view.setReport(makePingPongReport());
        view.resize(900, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.arrows().size(), 3);
        QCOMPARE(view.itemCount(), 13);
        QCOMPARE(view.visibleLanes(), (QVector<Pipe>{Pipe::S, Pipe::MTE2, Pipe::V, Pipe::MTE3}));
        // The add at point 8 on V: hover explains, click selects its point and line.
        const LaneLayout lanes = view.laneLayout();
        const QPointF onAdd(view.xAxis().toPixel(8.5), lanes.laneCenter(2));
        QVERIFY(view.toolTipAt(onAdd).contains("ascendc.add"));
        QTest::mouseClick(&view, Qt::LeftButton, {}, onAdd.toPoint());
        QCOMPARE(state.point(), 8);
        QCOMPARE(state.sourceLine(), 11);
        QCOMPARE(state.pipe(), int(Pipe::V));
        // The MTE2 -> V arrow (6 -> 7) explains its hazard.
        const SyncTimelineView::Arrow &a = view.arrows()[1];
        const QPointF mid((view.xAxis().toPixel(a.from) + view.xAxis().toPixel(a.to)) / 2,
                          (lanes.laneCenter(1) + lanes.laneCenter(2)) / 2);
        QVERIFY2(view.toolTipAt(mid).contains("RAW on x"), qPrintable(view.toolTipAt(mid)));
        view.setPipeMask(~(1 << int(Pipe::S)));
        QCOMPARE(view.visibleLanes().size(), 3);
        view.setEventFilter(1);
        QCOMPARE(view.eventFilter(), 1);
        // Wheel zoom and drag pan move the window.
        QWheelEvent wheel(QPointF(500, 100), view.mapToGlobal(QPointF(500, 100)), {}, QPoint(0, 480), Qt::NoButton, {},
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(&view, &wheel);
        QVERIFY(view.xAxis().isZoomed());
        const double first = view.xAxis().first;
        QTest::mousePress(&view, Qt::LeftButton, {}, QPoint(500, 100));
        QMouseEvent move(QEvent::MouseMove, QPointF(400, 100), view.mapToGlobal(QPointF(400, 100)), Qt::NoButton,
                         Qt::LeftButton, {});
        QApplication::sendEvent(&view, &move);
        QTest::mouseRelease(&view, Qt::LeftButton, {}, QPoint(400, 100));
        QVERIFY(view.xAxis().first > first);
    }
    void syncTimelineSimulated()
    {
        SyncTimelinePanel panel;
        panel.setReport(makePingPongReport());
        panel.setTrace(SimTrace::parse(QByteArray::fromStdString(sampleTrace())));
        panel.modeBox()->setCurrentIndex(1);
        SyncTimelineView *view = panel.view();
        QCOMPARE(view->mode(), SyncTimelineView::Mode::Simulated);
        QCOMPARE(view->itemCount(), 9);
        QCOMPARE(view->arrows().size(), 1);
        QCOMPARE(view->arrows()[0].eventId, 0);
        QVERIFY(qFuzzyCompare(view->stallTime(Pipe::V), 0.5));
        QCOMPARE(panel.coreBox()->count(), 1);
        QCOMPARE(panel.eventBox()->count(), 2); // all, 0
        panel.resize(900, 400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const LaneLayout lanes = view->laneLayout();
        const int vRow = int(view->visibleLanes().indexOf(Pipe::V));
        const QString tip = view->toolTipAt(QPointF(view->xAxis().toPixel(0.8), lanes.laneCenter(vRow)));
        QVERIFY2(tip.contains("stall"), qPrintable(tip));
        // An unreadable trace says why.
        view->setTrace(SimTrace::parse("{\"traceEvents\": ["));
        QVERIFY(!view->hasContent());
        QVERIFY(!view->trace().error.isEmpty());
        QVERIFY(!view->renderImage({400, 200}).isNull());
    }

    void pingPongGroupsIterations()
    {
        PingPongPanel panel;
        panel.setTrace(SimTrace::parse(QByteArray::fromStdString(sampleTrace())));
        PingPongView *view = panel.view();
        QCOMPARE(view->iterations().size(), 2);
        // The second load (1.01..2.01) runs under the first add (1.01..1.81).
        QVERIFY(view->loadComputeOverlap() > 0.3);
        int secondIteration = 0;
        for (int i = 0; i < view->events().size(); ++i)
            if (view->events()[i].name == "ascendc.add" && view->iterationOfEvent()[i] == 1)
                ++secondIteration;
        QCOMPARE(secondIteration, 1);
        panel.resize(900, 300);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(view->hasContent());
    }

    void profileModels()
    {
        ProfileView view;
        new QAbstractItemModelTester(view.comparisonModel(), QAbstractItemModelTester::FailureReportingMode::QtTest, &view);
        new QAbstractItemModelTester(view.hotLineModel(), QAbstractItemModelTester::FailureReportingMode::QtTest, &view);
        QSignalSpy heat(&view, &ProfileView::lineHeatChanged);
        ProfileRun a = profileFromLaunch(*makePingPongReport(), 0);
        view.addRun(a);
        QCOMPARE(view.comparisonModel()->rowCount(), 9);
        QCOMPARE(view.comparisonModel()->index(0, ProfileComparisonModel::AColumn).data().toString(), QString("3.410"));
        QCOMPARE(view.hotLineModel()->index(0, HotLineModel::LineColumn).data().toInt(), 10); // the loads
        QVERIFY(!heat.isEmpty());
        const auto lineHeat = heat.last().at(0).value<QHash<int, double>>();
        QCOMPARE(lineHeat.value(10), 1.0);
        // B: the same kernel, faster.
        ProfileRun b = a;
        b.label = "pp, reuse_alloc=0";
        b.durationUs = 3.0;
        b.pipeRatio[int(Pipe::V)] = 0.5;
        const int bIndex = view.addRun(b, false);
        view.setComparison(0, bIndex);
        QCOMPARE(view.runB(), bIndex);
        const QModelIndex delta = view.comparisonModel()->index(0, ProfileComparisonModel::DeltaColumn);
        QCOMPARE(delta.data().toString(), QString("-0.410"));
        QVERIFY(delta.data(Qt::ToolTipRole).toString().startsWith("-12.0"));
        const QModelIndex vDelta = view.comparisonModel()->index(2 + int(Pipe::V), ProfileComparisonModel::DeltaColumn);
        QVERIFY(qAbs(vDelta.data(ProfileComparisonModel::ValueRole).toDouble() - 3.0) < 1e-9);
        QVERIFY(view.hotLineModel()->index(0, HotLineModel::BTimeColumn).data().isValid());
    }

    void profileImport()
    {
        ProfileView view;
        view.addRun(profileFromLaunch(*makePingPongReport(), 0));
        QSignalSpy trace(&view, &ProfileView::traceSelected);
        QString message;
        QVERIFY(view.importPath(ASC2_FIXTURES_DIR "/msprof_op_sim", &message));
        QCOMPARE(view.runs().size(), 2);
        QCOMPARE(view.runB(), 1); // compared against what was shown
        QCOMPARE(trace.count(), 1);
        QVERIFY(!view.importPath(ASC2_FIXTURES_DIR "/bad_wrong_types", &message));
        QVERIFY(message.contains("not a number"));
        QVERIFY(view.messageLabel()->text().startsWith("Import failed"));
        QCOMPARE(view.runs().size(), 2);
    }

    void exports()
    {
        QTemporaryDir dir;
        UbMapView map;
        map.setReport(makePingPongReport());
        map.resize(700, 300);
        QString error;
        QVERIFY2(map.exportTo(dir.filePath("ub.png"), &error), qPrintable(error));
        QVERIFY2(map.exportTo(dir.filePath("ub.svg"), &error), qPrintable(error));
        QCOMPARE(QImage(dir.filePath("ub.png")).size(), QSize(700, 300));
        QFile svg(dir.filePath("ub.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray svgText = svg.readAll();
        QVERIFY(svgText.contains("<svg"));
        QVERIFY(svgText.contains("x_1")); // labels are text, not pixels

        const auto report = makePingPongReport();
        QVERIFY(writeChromeTrace(*report, 0, dir.filePath("trace.json"), &error));
        QCOMPARE(SimTrace::parse([&] {
                     QFile f(dir.filePath("trace.json"));
                     f.open(QIODevice::ReadOnly);
                     return f.readAll();
                 }()).events.size(),
                 9);
        QVERIFY(!writeChromeTrace(*report, 5, dir.filePath("none.json"), &error));
        QVERIFY(error.contains("no simulated trace"));

        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        map.renderImage({300, 200}).save(&buffer, "PNG");
        const ProfileRun run = profileFromLaunch(*report, 0);
        const QString html = htmlReport(*report, {{"UB map", png}}, &run);
        QVERIFY(html.contains("<img alt=\"UB map\" src=\"data:image/png;base64,iVBOR"));
        QVERIFY(html.contains("ascendc-insert-sync"));
        QVERIFY(html.contains("RAW on x"));
        QVERIFY(!html.contains("http://") && !html.contains("https://")); // self-contained
    }

    void graphLaysOutAndLinks()
    {
        InspectorState state;
        GraphView view;
        view.setState(&state);
        const auto report = makePingPongReport();
        view.setIr(QString::fromStdString(report->passes[0].ir),
                   QVector<int>(report->passes[0].irLines.begin(), report->passes[0].irLines.end()));
        QVERIFY(view.waitForLayout());
        QCOMPARE(view.graph().nodes.size(), 5);
        QCOMPARE(view.graphLayout().engine, QString("dot"));
        QCOMPARE(view.scene()->items().size(), 6); // nodes + one edge layer
        state.selectSourceLine(11);
        QCOMPARE(view.scene()->selectedItems().size(), 2); // the alloc and the add of line 11
        QTemporaryDir dir;
        QVERIFY(view.exportTo(dir.filePath("g.svg")));
        QVERIFY(view.exportTo(dir.filePath("g.png")));
        // A newer IR wins over a layout still running.
        view.setIr("%0 = arith.constant 0 : index\n");
        view.setIr("%0 = arith.constant 0 : index\n%1 = arith.addi %0, %0 : index\n");
        QVERIFY(view.waitForLayout());
        QCOMPARE(view.graph().nodes.size(), 2);
        QCOMPARE(view.graphLayout().centers.size(), 2);
    }

    void editorHeat()
    {
        KernelEditor editor;
        editor.setText("a\nb\nc\nd\n");
        editor.setLineHeat({{1, 1.0}, {3, 0.1}});
        QCOMPARE(editor.lineHeatLevel(1), KernelEditor::kHeatLevels);
        QCOMPARE(editor.lineHeatLevel(3), 1);
        QCOMPARE(editor.lineHeatLevel(2), 0);
        editor.setLineHeat({});
        QCOMPARE(editor.lineHeatLevel(1), 0);
    }
};

QTEST_MAIN(TestInspectorViews)
#include "tst_inspectorviews.moc"
