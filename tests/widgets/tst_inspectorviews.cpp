// The inspector views on a small double-buffered kernel: what is under the
// mouse, what a click selects in the shared state, the models (checked with
// QAbstractItemModelTester), A/B comparison, exports and the editor heat.
#include "Baselines.h"
#include "CoresTimelineView.h"
#include "GraphPanel.h"
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
#include <QCheckBox>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QToolTip>
#include <QtTest>

using namespace inspector;

namespace {
// Pixels of @p image inside @p rect that are clearly red (stalls, heat).
int reddish(const QImage &image, const QRect &rect)
{
    int n = 0;
    const QRect r = rect.intersected(image.rect());
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (c.red() > 150 && c.red() - c.green() > 60 && c.red() - c.blue() > 60)
                ++n;
        }
    return n;
}

// ASC2_TEST_SCREENSHOTS=DIR keeps pictures of the views to look at.
void keep(const QImage &image, const QString &name)
{
    const QString dir = qEnvironmentVariable("ASC2_TEST_SCREENSHOTS");
    if (!dir.isEmpty())
        image.save(QDir(dir).filePath(name + QStringLiteral(".png")));
}
} // namespace

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
        // A "_1" the compiler left in slot 0 (softmax's second broadcast) is no pong.
        auto numbered = std::make_shared<asc2::CompileReport>(*makePingPongReport());
        numbered->buffers[1].slot = 0;
        UbMapView other;
        other.setReport(numbered);
        QVERIFY2(!other.describeBuffer(1).contains("slot") && !other.describeBuffer(1).contains("pong"),
                 qPrintable(other.describeBuffer(1)));
        QVERIFY(other.describeBuffer(1).contains("tile x_1"));
        QTest::mouseClick(&view, Qt::LeftButton, {}, p.toPoint());
        QCOMPARE(state.buffer(), QString("x_1"));
        QCOMPARE(state.sourceLine(), 10);
        QCOMPARE(state.point(), 3);
        QCOMPARE(view.bufferAt(QPointF(5, 5)), -1);
        const QImage image = view.grab().toImage();
        QVERIFY(!image.isNull());
    }

    void ubMapShowsTinyBuffersAndInPlaceHandOvers()
    {
        // Issue 18 item 13: a 16 B tile in a 192 KB UB was a tenth of a pixel,
        // and a tile written in place over its input was drawn overlapping it.
        auto report = std::make_shared<asc2::CompileReport>(*makePingPongReport());
        asc2::BufferRecord tiny = report->buffers[2];
        tiny.name = "reduce_sum";
        tiny.offset = 4096;
        tiny.size = 16;
        tiny.liveStart = 4;
        tiny.liveEnd = 6;
        report->buffers.push_back(tiny);
        asc2::BufferRecord over = report->buffers[0]; // x: points 3..11 at 0
        over.name = "mulf";
        over.liveStart = 11; // the op at 11 reads x and writes mulf over it
        over.liveEnd = 13;
        report->buffers.push_back(over);
        report->spaces[0].capacity = 196608;
        UbMapView view;
        view.setReport(report);
        view.resize(800, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QVector<UbMapView::Band> bands = view.layout(view.size());
        QCOMPARE(bands.size(), 1);
        const QRectF tinyRect = view.bufferRect(bands[0], 3);
        QVERIFY2(tinyRect.height() >= 3 && tinyRect.width() >= 3, qPrintable(QString::number(tinyRect.height())));
        QCOMPARE(view.bufferAt(tinyRect.center()), 3);
        // The shared point is split, not overlapped; both say so.
        const QRectF x = view.bufferRect(bands[0], 0), mulf = view.bufferRect(bands[0], 4);
        QVERIFY2(x.right() <= mulf.left() + 0.01, qPrintable(QStringLiteral("%1 %2").arg(x.right()).arg(mulf.left())));
        QCOMPARE(x.right(), view.xAxis().toPixel(11.5));
        QVERIFY2(view.describeBuffer(4).contains("takes over x's memory in place at point 11"),
                 qPrintable(view.describeBuffer(4)));
        QVERIFY(view.describeBuffer(0).contains("hands its memory over in place to mulf"));
        QVERIFY(!view.describeBuffer(1).contains("in place")); // x_1: other addresses
        // The legend names the axis and every kind of mark the map draws.
        QStringList texts;
        const Legend mapKey = view.legend();
        for (const LegendEntry &e : mapKey.entries())
            texts << e.text;
        const QString all = texts.join(QLatin1Char('|'));
        QVERIFY2(all.contains("program point") && all.contains("a colour per tile") && all.contains("pong")
                     && all.contains("in place") && all.contains("peak") && all.contains("lower bound"),
                 qPrintable(all));
        // ...and is drawn at the foot, under the axis and clear of the bands.
        QVERIFY(view.legendSpace(800) > 10);
        QVERIFY(bands[0].rect.bottom() + 24 < 400 - view.legendSpace(800) + 2);
        const QImage image = view.renderImage({800, 400});
        keep(image, "ubmap-legend");
        int ink = 0;
        for (int px = 8; px < 400; ++px)
            for (int y = int(400 - view.legendSpace(800)); y < 400; ++y)
                ink += image.pixelColor(px, y) != image.pixelColor(799, 399);
        QVERIFY2(ink > 200, qPrintable(QString::number(ink)));
    }

    void syncAndPingPongLegends()
    {
        SyncTimelinePanel panel;
        panel.setReport(makePingPongReport());
        panel.setTrace(SimTrace::parse(QByteArray::fromStdString(sampleTrace())));
        const auto textsOf = [](const Legend &key) {
            QStringList texts;
            for (const LegendEntry &e : key.entries())
                texts << e.text;
            return texts.join(QLatin1Char('|'));
        };
        SyncTimelineView *sync = panel.view();
        QString key = textsOf(sync->legend());
        QVERIFY2(key.contains("program point") && key.contains("set_flag") && key.contains("wait_flag")
                     && key.contains("idle") && key.contains("event id") && key.contains("next iteration"),
                 qPrintable(key));
        panel.modeBox()->setCurrentIndex(1);
        key = textsOf(sync->legend());
        QVERIFY2(key.contains("time") && key.contains("stall") && !key.contains("program point"), qPrintable(key));
        // The lanes end above the axis, the axis above the legend.
        sync->resize(900, 400);
        const LaneLayout lanes = sync->laneLayout(sync->size());
        QVERIFY(lanes.bottom() + 28 <= 400 - sync->legendSpace(900) + 2);

        PingPongView pingPong;
        pingPong.setTrace(SimTrace::parse(QByteArray::fromStdString(sampleTrace())));
        key = textsOf(pingPong.legend());
        QVERIFY2(key.contains("MTE2") && key.contains("waiting for a flag") && key.contains("a row per loop iteration"),
                 qPrintable(key));
        // Only stalls are hatched: a pong row's bars are plain (hatching meant
        // both "pong" and "stall").
        const Legend pingPongKey = pingPong.legend();
        for (const LegendEntry &e : pingPongKey.entries())
            if (e.mark == LegendEntry::Mark::Hatched)
                QCOMPARE(e.color, stallColor());
        const QImage image = pingPong.renderImage({900, 300});
        keep(image, "pingpong-legend");
        const QRect pongRow(int(pingPong.xAxis().pixelStart), 30 + 48, 700, 40);
        int hatchedBlue = 0; // a pipe colour's darker hatch over its own bar
        for (int y = pongRow.top(); y < pongRow.bottom(); ++y)
            for (int x = pongRow.left(); x < pongRow.right(); ++x) {
                const QColor c = image.pixelColor(x, y);
                if (c.blue() > 60 && c.blue() < 150 && c.red() < 40 && c.green() < 90)
                    ++hatchedBlue;
            }
        QCOMPARE(hatchedBlue, 0);
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
        const LaneLayout lanes = view.laneLayout(view.size());
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
        const LaneLayout lanes = view->laneLayout(view->size());
        const int vRow = int(view->visibleLanes().indexOf(Pipe::V));
        const QString tip = view->toolTipAt(QPointF(view->xAxis().toPixel(0.8), lanes.laneCenter(vRow)));
        QVERIFY2(tip.contains("stall"), qPrintable(tip));
        // An unreadable trace says why.
        view->setTrace(SimTrace::parse("{\"traceEvents\": ["));
        QVERIFY(!view->hasContent());
        QVERIFY(!view->trace().error.isEmpty());
        QVERIFY(!view->renderImage({400, 200}).isNull());
    }

    void syncTimelineStaticStalls()
    {
        SyncTimelineView view;
        view.setReport(makePingPongReport());
        view.resize(900, 400);
        QCOMPARE(view.stallCount(), 2);
        QCOMPARE(view.laneStalls(Pipe::V).size(), 1);
        const SyncTimelineView::Stall &v = view.laneStalls(Pipe::V)[0];
        QCOMPARE(v.start, 5.08); // from the load V waits for
        QCOMPARE(v.end, 7.08);   // up to the wait box
        QCOMPARE(v.eventId, 1);
        QCOMPARE(v.src, Pipe::MTE2);
        QVERIFY(qFuzzyCompare(view.stallTime(Pipe::V), 2.0)); // points
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const LaneLayout lanes = view.laneLayout(view.size());
        const int vRow = int(view.visibleLanes().indexOf(Pipe::V));
        const int mte2Row = int(view.visibleLanes().indexOf(Pipe::MTE2));
        // Between the load and the wait V has nothing to do: hover names the flag and the hazard.
        const QString tip = view.toolTipAt(QPointF(view.xAxis().toPixel(5.5), lanes.laneCenter(vRow)));
        QVERIFY2(tip.contains("stall") && tip.contains("wait_flag MTE2\u2192V event 1") && tip.contains("RAW on x")
                     && tip.contains("ascendc.data_copy_in (point 5)"),
                 qPrintable(tip));
        // MTE2 waits for the add to free x before the next iteration's load.
        const QString carried = view.toolTipAt(QPointF(view.xAxis().toPixel(9.2), lanes.laneCenter(mte2Row)));
        QVERIFY2(carried.contains("event 0") && carried.contains("next iteration") && carried.contains("WAR on x"),
                 qPrintable(carried));
        // Drawn hatched red on the waiting lane, nowhere on the others' idle time.
        const QImage image = view.renderImage(view.size());
        const QRectF lane = lanes.laneRect(vRow, view.width() - 12);
        const QRect gap(QPoint(int(view.xAxis().toPixel(5.2)), int(lane.top() + 6)),
                        QPoint(int(view.xAxis().toPixel(6.8)), int(lane.bottom() - 6)));
        QVERIFY(reddish(image, gap) > 20);
        const QRectF sLane = lanes.laneRect(int(view.visibleLanes().indexOf(Pipe::S)), view.width() - 12);
        QCOMPARE(reddish(image, QRect(QPoint(int(view.xAxis().toPixel(5.2)), int(sLane.top() + 6)),
                                      QPoint(int(view.xAxis().toPixel(6.8)), int(sLane.bottom() - 6)))),
                 0);
        keep(image, "sync-static-stalls");
        // The event filter keeps only its own stalls bright.
        view.setEventFilter(0);
        QCOMPARE(reddish(view.renderImage(view.size()), gap), 0);
        // Simulated: the wait itself is the stall, with the same explanation.
        view.setEventFilter(-1);
        view.setTrace(SimTrace::parse(QByteArray::fromStdString(sampleTrace())));
        view.setMode(SyncTimelineView::Mode::Simulated);
        QCOMPARE(view.laneStalls(Pipe::V).size(), 1);
        QCOMPARE(view.laneStalls(Pipe::V)[0].src, Pipe::MTE2);
        QVERIFY(qFuzzyCompare(view.stallTime(Pipe::V), 0.5));
    }

    void cubeLanesAndTheirFlags()
    {
        SyncTimelinePanel panel;
        panel.setReport(makeCubeReport());
        panel.setTrace(SimTrace::parse(QByteArray::fromStdString(cubeTrace())));
        SyncTimelineView *view = panel.view();
        panel.resize(1000, 500);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        // Program order: the cube pipes get their lanes, flags and stalls.
        QCOMPARE(view->visibleLanes(), (QVector<Pipe>{Pipe::S, Pipe::MTE2, Pipe::MTE3, Pipe::MTE1, Pipe::M, Pipe::FIX}));
        QCOMPARE(view->arrows().size(), 4);
        QCOMPARE(view->arrows()[1].src, Pipe::MTE1);
        QCOMPARE(view->arrows()[1].dst, Pipe::M);
        QCOMPARE(view->arrows()[2].dst, Pipe::FIX);
        QCOMPARE(view->laneItems(Pipe::M).size(), 3); // wait, mmad, set
        QCOMPARE(view->laneItems(Pipe::FIX).size(), 3);
        QCOMPARE(view->laneItems(Pipe::MTE1).size(), 4); // wait, two loads, set
        QCOMPARE(view->laneStalls(Pipe::M).size(), 1);
        QCOMPARE(view->laneStalls(Pipe::FIX).size(), 1);
        const LaneLayout lanes = view->laneLayout(view->size());
        const auto row = [&](Pipe p) { return int(view->visibleLanes().indexOf(p)); };
        const SyncTimelineView::Arrow &mToFix = view->arrows()[2];
        const QPointF mid((view->xAxis().toPixel(mToFix.from) + view->xAxis().toPixel(mToFix.to)) / 2,
                          (lanes.laneCenter(row(Pipe::M)) + lanes.laneCenter(row(Pipe::FIX))) / 2);
        QVERIFY2(view->toolTipAt(mid).contains("RAW on c"), qPrintable(view->toolTipAt(mid)));
        QVERIFY(view->toolTipAt(QPointF(view->xAxis().toPixel(12.5), lanes.laneCenter(row(Pipe::M)))).contains("ascendc.mmad"));
        const QImage staticImage = view->renderImage(view->size());
        QVERIFY(reddish(staticImage, QRect(QPoint(int(view->xAxis().toPixel(12.2)), int(lanes.laneRect(row(Pipe::FIX), 900).top() + 6)),
                                           QPoint(int(view->xAxis().toPixel(13.8)), int(lanes.laneRect(row(Pipe::FIX), 900).bottom() - 6))))
                > 20);
        keep(staticImage, "sync-cube-static");
        // Simulated: lanes from MTE1, CUBE and FIXP; arrows carry the ids and reasons.
        panel.modeBox()->setCurrentIndex(1);
        QCOMPARE(view->visibleLanes(), (QVector<Pipe>{Pipe::MTE2, Pipe::MTE3, Pipe::MTE1, Pipe::M, Pipe::FIX}));
        QCOMPARE(view->arrows().size(), 4);
        for (int i = 0; i < 4; ++i)
            QCOMPARE(view->arrows()[i].eventId, i);
        QVERIFY(view->arrows()[1].reason.startsWith("RAW on a_l0"));
        QVERIFY(qFuzzyCompare(view->stallTime(Pipe::M), 1.62));
        QCOMPARE(panel.eventBox()->count(), 5); // all, 0..3
        const QString wait = view->toolTipAt(QPointF(view->xAxis().toPixel(0.8), view->laneLayout(view->size()).laneCenter(int(view->visibleLanes().indexOf(Pipe::M)))));
        QVERIFY2(wait.contains("stall") && wait.contains("RAW on a_l0"), qPrintable(wait));
        keep(view->renderImage(view->size()), "sync-cube-simulated");
    }

    void ubMapOneBandPerSpace()
    {
        UbMapPanel panel;
        panel.setReport(makeCubeReport());
        panel.resize(900, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        UbMapView *view = panel.view();
        QCOMPARE(view->spaces(), (QStringList{"UB", "L1", "L0A", "L0B", "L0C"}));
        const QVector<UbMapView::Band> bands = view->layout(view->size());
        QCOMPARE(bands.size(), 5);
        const auto report = makeCubeReport();
        for (int i = 0; i < bands.size(); ++i) {
            const UbMapView::Band &band = bands[i];
            QCOMPARE(band.space, view->spaces()[i]);
            for (const asc2::SpaceUsage &s : report->spaces)
                if (QString::fromStdString(s.space) == band.space) {
                    QCOMPARE(band.capacity, s.capacity);
                    QCOMPARE(band.peak, s.peak);
                    QCOMPARE(band.lowerBound, s.lowerBound);
                }
            for (int b : band.buffers)
                QCOMPARE(QString::fromStdString(report->buffers[b].space), band.space);
            // Each band its own address scale, with the used part in view.
            QVERIFY(band.scale.maxAddress >= band.peak);
            QVERIFY(band.rect.height() > 60);
            if (i > 0)
                QVERIFY(band.rect.top() > bands[i - 1].rect.bottom());
        }
        QCOMPARE(bands[1].buffers.size(), 2); // a and b in L1
        // Hover a buffer of L0B.
        const UbMapView::Band &l0b = bands[3];
        const QPointF onB(view->xAxis().toPixel(7), l0b.scale.toPixel(4096));
        QCOMPARE(view->bufferAt(onB), 4);
        QVERIFY2(view->toolTipAt(onB).contains("L0B"), qPrintable(view->toolTipAt(onB)));
        const QImage all = view->renderImage(view->size());
        keep(all, "ub-map-spaces");
        // One space at a time: its band gets the whole height.
        QCOMPARE(panel.spaceBox()->count(), 6); // all + five
        panel.spaceBox()->setCurrentIndex(panel.spaceBox()->findText("L0C"));
        QCOMPARE(view->spaceFilter(), QString("L0C"));
        const QVector<UbMapView::Band> one = view->layout(view->size());
        QCOMPARE(one.size(), 1);
        QCOMPARE(one[0].space, QString("L0C"));
        QCOMPARE(one[0].capacity, 131072);
        QVERIFY(one[0].rect.height() > 3 * bands[4].rect.height());
        keep(view->renderImage(view->size()), "ub-map-l0c");
        panel.spaceBox()->setCurrentIndex(0);
        QCOMPARE(view->layout(view->size()).size(), 5);
        // A report with one space: nothing to choose.
        panel.setReport(makePingPongReport());
        QVERIFY(!panel.spaceBox()->isEnabled());
        QCOMPARE(view->layout(view->size()).size(), 1);
    }

    static SimTrace threeCoreTrace()
    {
        SimTrace trace;
        trace.cores = {"core0.veccore0", "core1.veccore0", "core2.veccore0"};
        for (int core = 0; core < 3; ++core) {
            const auto add = [&](Pipe pipe, TraceEvent::Kind kind, const char *name, double start, double end, int line) {
                TraceEvent e;
                e.core = core;
                e.pipe = pipe;
                e.kind = kind;
                e.name = QString::fromLatin1(name);
                e.start = start;
                e.duration = end - start;
                e.line = line;
                e.file = "/tmp/pp.py";
                if (kind == TraceEvent::Kind::Wait)
                    e.flagPipes = std::pair{Pipe::MTE2, Pipe::V};
                trace.events.push_back(e);
            };
            add(Pipe::MTE2, TraceEvent::Kind::Op, "ascendc.data_copy_in", 0, 1, 10);
            add(Pipe::V, TraceEvent::Kind::Wait, "ascendc.wait_flag", 0, 1, 0);
            add(Pipe::V, TraceEvent::Kind::Op, "ascendc.add", 1, 2, 11);
            add(Pipe::MTE3, TraceEvent::Kind::Op, "ascendc.data_copy_out", 2, 2.5 + 0.5 * core, 12);
        }
        trace.endTime = 3.5;
        return trace;
    }

    void allCoresTimelineShowsEveryCoreSearchesAndTotalsARange()
    {
        InspectorState state;
        CoresTimelinePanel panel;
        CoresTimelineView *view = panel.view();
        view->setState(&state);
        panel.resize(1000, 520);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(!view->hasContent());
        view->setKernelName("pp");
        panel.setTrace(threeCoreTrace());

        // A row per pipe each core used, grouped by core; the heat column.
        QCOMPARE(view->rows().size(), 9);
        QVERIFY(view->rows()[0].firstOfCore && view->rows()[3].firstOfCore && !view->rows()[4].firstOfCore);
        QCOMPARE(view->rows()[3].core, 1);
        QCOMPARE(view->rows()[5].pipe, Pipe::MTE3);
        QVERIFY(qFuzzyCompare(view->coreHeat()[2], 1.5 / 3.5)); // MTE3, the busiest pipe of core 2
        QCOMPARE(view->title(), QStringLiteral("pp \u2014 all 3 cores, predicted by the simulator"));
        QVERIFY(panel.totalsLabel()->text().startsWith("Whole run"));

        // Search: by op, by line, not found.
        panel.searchField()->setText("copy_in");
        QCOMPARE(view->matches().size(), 3);
        QCOMPARE(panel.matchLabel()->text(), QStringLiteral("3 matches"));
        QTest::keyClick(panel.searchField(), Qt::Key_Return);
        QCOMPARE(view->currentMatch(), 0);
        QCOMPARE(panel.matchLabel()->text(), QStringLiteral("1 of 3"));
        QCOMPARE(state.sourceLine(), 10);
        view->previousMatch();
        QCOMPARE(view->currentMatch(), 2);
        panel.searchField()->setText("line 11");
        QCOMPARE(view->matches().size(), 3);
        for (int i : view->matches())
            QCOMPARE(view->trace().events[i].name, QStringLiteral("ascendc.add"));
        panel.searchField()->setText("no such op");
        QCOMPARE(panel.matchLabel()->text(), QStringLiteral("not found"));
        panel.searchField()->clear();

        // A range, selected with Shift+drag, totalled over the cores.
        view->setRange(0.5, 1.5);
        CoresTimelineView::Totals t = view->totals();
        QCOMPARE(t.slices, 9);
        QVERIFY(qFuzzyCompare(t.busy[int(Pipe::MTE2)], 1.5));
        QVERIFY(qFuzzyCompare(t.busy[int(Pipe::V)], 1.5));
        QVERIFY(qFuzzyCompare(t.waiting, 1.5));
        QCOMPARE(t.busy[int(Pipe::MTE3)], 0.0);
        QVERIFY2(panel.totalsLabel()->text().contains("3 cores: busy MTE2 50%, V 50%; waiting 17% of pipe time; 9 slices"),
                 qPrintable(panel.totalsLabel()->text()));
        QTest::keyClick(view, Qt::Key_Escape);
        QVERIFY(!view->hasRange());
        view->xAxis().setPixels(118, view->width() - 12);
        const int x0 = int(view->xAxis().toPixel(2.0)), x1 = int(view->xAxis().toPixel(3.0));
        const int y = int(view->rowRect(2, view->size()).center().y());
        QTest::mousePress(view, Qt::LeftButton, Qt::ShiftModifier, QPoint(x0, y));
        QTest::mouseMove(view, QPoint(x1, y));
        QTest::mouseRelease(view, Qt::LeftButton, Qt::ShiftModifier, QPoint(x1, y));
        QVERIFY(view->hasRange());
        QVERIFY(std::abs(view->rangeFrom() - 2.0) < 0.02 && std::abs(view->rangeTo() - 3.0) < 0.02);
        QVERIFY(view->totals().busy[int(Pipe::MTE3)] > 1.4);

        // Tooltips name the op, the core and the time; a click selects its line.
        const QPointF onLoad(view->xAxis().toPixel(0.5), view->rowRect(3, view->size()).center().y());
        QCOMPARE(view->eventAt(onLoad) >= 0, true);
        const QString tip = view->toolTipAt(onLoad);
        QVERIFY2(tip.contains("ascendc.data_copy_in") && tip.contains("core1.veccore0") && tip.contains("line 10"), qPrintable(tip));
        state.clear();
        view->activateAt(onLoad);
        QCOMPARE(state.sourceLine(), 10);
        // A double-click on a core's header asks for it in detail.
        QSignalSpy activated(view, &CoresTimelineView::coreActivated);
        QTest::mouseDClick(view, Qt::LeftButton, Qt::NoModifier, QPoint(20, int(view->rowRect(7, view->size()).center().y())));
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.first().first().toInt(), 2);

        // Perfetto's keys.
        view->setFocus();
        const double span = view->xAxis().span();
        QTest::keyClick(view, Qt::Key_W);
        QVERIFY(view->xAxis().span() < span * 0.8);
        QTest::keyClick(view, Qt::Key_D);
        QTest::keyClick(view, Qt::Key_0);
        QCOMPARE(view->xAxis().span(), span);

        // Drawn: slices in their pipe's colour, the legend at the foot.
        QVERIFY(!view->legend().isEmpty());
        const QImage image = view->renderImage(view->size());
        const QRectF load = view->rowRect(0, view->size());
        const QColor drawn = image.pixelColor(int(view->xAxis().toPixel(0.9)), int(load.top() + 3));
        QCOMPARE(drawn.rgb(), pipeColor(Pipe::MTE2).rgb());

        // Pipelined instructions overlap on their pipe: that time counts once.
        SimTrace overlapping;
        overlapping.cores = {"core0.veccore0"};
        TraceEvent first;
        first.pipe = Pipe::V;
        first.name = "ascendc.add";
        first.duration = 2;
        TraceEvent second = first;
        second.start = 1; // [1, 3]
        overlapping.events = {first, second};
        overlapping.endTime = 4;
        view->setTrace(overlapping);
        QVERIFY(qFuzzyCompare(view->totals().busy[int(Pipe::V)], 3.0));
        QVERIFY2(view->totalsText().contains("busy V 75%"), qPrintable(view->totalsText()));
    }

    void profileBaselinesOutliveTheSession()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("sub/baselines.json");
        const ProfileRun original = profileFromLaunch(*makePingPongReport(), 0);
        {
            ProfileView profile;
            profile.setBaselineFile(file); // none yet: nothing added, no complaint
            QCOMPARE(profile.runs().size(), 0);
            profile.addRun(original);
            QString message;
            const int index = profile.saveBaseline("before the edit", &message);
            QCOMPARE(index, 1);
            QVERIFY(profile.isBaseline(1) && !profile.isBaseline(0));
            QVERIFY2(message.contains("Saved baseline \u201cbefore the edit\u201d"), qPrintable(message));
            QVERIFY(QFile::exists(file));
        }
        // The next session offers it as a run, with what the comparison needs.
        ProfileView later;
        later.setBaselineFile(file);
        QCOMPARE(later.runs().size(), 1);
        const ProfileRun &kept = later.runs().first();
        QVERIFY(kept.baseline);
        QVERIFY(kept.label.contains("before the edit") && kept.label.contains(original.label));
        QCOMPARE(kept.source, original.source);
        QCOMPARE(kept.durationUs, original.durationUs);
        QCOMPARE(kept.pipeRatio, original.pipeRatio);
        QCOMPARE(kept.lineUs, original.lineUs);
        QCOMPARE(kept.peaks.platform, original.peaks.platform);
        QVERIFY(kept.trace.isEmpty()); // traces are not kept
        // Compared against a new run, then deleted (also from the file).
        later.addRun(original);
        later.setComparison(1, 0);
        QVERIFY(later.comparisonModel()->headerData(ProfileComparisonModel::BColumn, Qt::Horizontal).toString().contains("predicted"));
        QVERIFY(!later.deleteBaseline(1)); // not a baseline
        QVERIFY(later.deleteBaseline(0));
        QCOMPARE(later.runs().size(), 1);
        QCOMPARE(readBaselines(file).size(), 0);
        // A file that is not ours: a warning, no crash.
        QFile bad(dir.filePath("bad.json"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("not json");
        bad.close();
        ProfileView other;
        other.setBaselineFile(bad.fileName());
        QCOMPARE(other.messageKind(), ProfileView::MessageKind::Warning);
    }

    void profileGivesASpeedOfLightVerdictForSimulatedAndImportedRuns()
    {
        ProfileView profile;
        QVERIFY(profile.verdictView()->toPlainText().contains("Run a kernel"));
        profile.addRun(profileFromLaunch(*makePingPongReport(), 0));
        QString text = profile.verdictView()->toPlainText();
        QVERIFY2(text.contains("-bound: ") && text.contains("predicted by the simulator") && text.contains("What to try"),
                 qPrintable(text));
        // An msprof op import comes in as B: its headline under A's verdict.
        QString message;
        QVERIFY2(profile.importPath(ASC2_FIXTURES_DIR "/msprof_op", &message), qPrintable(message));
        text = profile.verdictView()->toPlainText();
        QVERIFY2(text.contains("predicted by the simulator") && text.contains("B (imported ") && text.contains("-bound: MTE2 busy"),
                 qPrintable(text));
        // As A (pipe ratios, no bytes): a verdict too, named as measured, and
        // no bandwidth roof made up.
        profile.setComparison(1, 0);
        text = profile.verdictView()->toPlainText();
        QVERIFY2(text.contains("measured (msprof op)") && text.contains("B (pp @ Ascend910B1"), qPrintable(text));
        QVERIFY(!text.contains("GM bandwidth"));
        QCOMPARE(profile.operatorTable()->rowCount(), 0); // msprof op data is one operator

        // An op_summary of two operators: MindStudio's operator summary, and
        // a double-click imports another one as B.
        QVERIFY2(profile.importPath(ASC2_FIXTURES_DIR "/op_summary", &message), qPrintable(message));
        QTableWidget *ops = profile.operatorTable();
        QCOMPARE(ops->rowCount(), 2);
        QCOMPARE(ops->item(0, 0)->text(), QStringLiteral("softmax_custom"));
        QCOMPARE(ops->item(0, 3)->text(), QStringLiteral("87.0"));
        QCOMPARE(ops->item(1, 0)->text(), QStringLiteral("Cast"));
        const int runs = int(profile.runs().size());
        QVERIFY(profile.importOperator("Cast", &message));
        QCOMPARE(int(profile.runs().size()), runs + 1);
        QCOMPARE(profile.runs().last().opName, QStringLiteral("Cast"));
        QCOMPARE(profile.runB(), runs);
    }

    void ubMapMsprofOverlay()
    {
        InspectorState state;
        UbMapPanel panel;
        panel.view()->setState(&state);
        panel.setReport(makePingPongReport());
        ProfileView profile;
        profile.addRun(profileFromLaunch(*makePingPongReport(), 0));
        connect(&profile, &ProfileView::runImported, &panel, &UbMapPanel::setOverlay);
        panel.resize(900, 400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        UbMapView *view = panel.view();
        QVERIFY(!view->hasOverlay());
        QVERIFY(!panel.overlayBox()->isEnabled());
        QVERIFY(view->overlayStrip(view->size()).isEmpty());
        const double plainTop = view->layout(view->size())[0].rect.top();

        // Importing an msprof op directory lays its pipe utilization over the points.
        QString message;
        QVERIFY2(profile.importPath(ASC2_FIXTURES_DIR "/msprof_op", &message), qPrintable(message));
        QVERIFY(view->hasOverlay());
        QVERIFY(panel.overlayBox()->isEnabled() && panel.overlayBox()->isChecked());
        QCOMPARE(view->overlay().basis, PointHeat::Basis::PipeUtilization);
        const QRectF strip = view->overlayStrip(view->size());
        QVERIFY(!strip.isEmpty());
        QVERIFY(view->layout(view->size())[0].rect.top() > strip.bottom()); // the bands make room
        QVERIFY(view->layout(view->size())[0].rect.top() > plainTop);
        const QPointF onLoad(view->xAxis().toPixel(5.5), strip.center().y());
        QCOMPARE(view->overlayPointAt(onLoad), 5);
        const QString tip = view->toolTipAt(onLoad);
        QVERIFY2(tip.contains("ascendc.data_copy_in") && tip.contains("MTE2 busy 70.0%") && tip.contains("vadd_custom"),
                 qPrintable(tip));
        QImage image = view->renderImage(view->size());
        // The load's cell is the hottest: red; the scalar alloc at 0 is pale.
        const QRect loadCell(QPoint(int(view->xAxis().toPixel(5.2)), int(strip.top() + 2)),
                             QPoint(int(view->xAxis().toPixel(5.8)), int(strip.bottom() - 2)));
        QVERIFY(reddish(image, loadCell) > 5);
        QCOMPARE(reddish(image, QRect(QPoint(int(view->xAxis().toPixel(0.2)), int(strip.top() + 2)),
                                      QPoint(int(view->xAxis().toPixel(0.8)), int(strip.bottom() - 2)))),
                 0);
        keep(image, "ub-map-overlay");

        // Toggled off: the plain map again.
        panel.overlayBox()->setChecked(false);
        QVERIFY(!view->overlayVisible());
        QVERIFY(view->overlayStrip(view->size()).isEmpty());
        QCOMPARE(view->layout(view->size())[0].rect.top(), plainTop);
        QVERIFY(!view->toolTipAt(onLoad).contains("vadd_custom"));
        panel.overlayBox()->setChecked(true);

        // An msprof op simulator import: its trace is of vadd.cpp, so by pipe, and the legend says so.
        QVERIFY(profile.importPath(ASC2_FIXTURES_DIR "/msprof_op_sim", &message));
        QVERIFY(view->overlay().note.contains("vadd.cpp"));
        QVERIFY(view->toolTipAt(onLoad).contains("msprof op simulator"));
        // A new report keeps the overlay, recomputed for its points.
        panel.setReport(makeCubeReport());
        QCOMPARE(view->overlay().value.size(), 20);
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
        QCOMPARE(view.comparisonModel()->headerData(ProfileComparisonModel::AColumn, Qt::Horizontal).toString(),
                 QString("A (predicted)")); // a simulated launch is a prediction
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
        const QModelIndex vDelta = view.comparisonModel()->index(2 + asc2::pipeLaneIndex(Pipe::V), ProfileComparisonModel::DeltaColumn);
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
        // The simulated run is labelled a prediction, the imported one measured.
        QCOMPARE(view.comparisonModel()->headerData(ProfileComparisonModel::AColumn, Qt::Horizontal).toString(),
                 QString("A (predicted)"));
        QVERIFY(view.comparisonModel()->headerData(ProfileComparisonModel::BColumn, Qt::Horizontal).toString()
                    .startsWith("B (measured: "));
        QCOMPARE(trace.count(), 1);
        // An import says when it came in: the same directory twice is two runs.
        QVERIFY2(QRegularExpression("^imported \\d\\d:\\d\\d:\\d\\d: ").match(view.runs()[1].label).hasMatch(),
                 qPrintable(view.runs()[1].label));
        QVERIFY(view.importPath(ASC2_FIXTURES_DIR "/msprof_op_sim", &message));
        QCOMPARE(view.runs().size(), 3);
        // A failed import is an error, in the error colour (it was plain grey).
        QVERIFY(!view.importPath(ASC2_FIXTURES_DIR "/bad_wrong_types", &message));
        QVERIFY(message.contains("not a number"));
        QVERIFY(view.messageLabel()->text().startsWith("Import failed"));
        QCOMPARE(view.messageKind(), ProfileView::MessageKind::Error);
        QVERIFY2(view.messageLabel()->styleSheet().contains(Theme::light().error.name()),
                 qPrintable(view.messageLabel()->styleSheet()));
        view.setTheme(Theme::dark());
        QVERIFY(view.messageLabel()->styleSheet().contains(Theme::dark().error.name()));
        QCOMPARE(view.runs().size(), 3);
        QVERIFY(view.importPath(ASC2_FIXTURES_DIR "/msprof_op_sim", &message));
        QVERIFY(view.messageKind() != ProfileView::MessageKind::Error);
    }

    void anImportedTraceIsTitledAsOneAndKeepsItsLinesToItself()
    {
        // Issue 18 item 5: after importing vadd.cpp's trace the timeline was
        // headed "<kernel> — predicted by the simulator" and its events
        // selected vadd.cpp's line numbers in the kernel open in the editor.
        ProfileView profile;
        profile.setSourceFile(QStringLiteral("/work/rms_norm.py"));
        profile.addRun(profileFromLaunch(*makePingPongReport(), 0));
        SimTrace shown;
        connect(&profile, &ProfileView::traceSelected, this, [&](const SimTrace &t) { shown = t; });
        QString message;
        QVERIFY(profile.importPath(ASC2_FIXTURES_DIR "/msprof_op_sim", &message));
        QVERIFY(!shown.isEmpty());
        QVERIFY(shown.origin.startsWith(QStringLiteral("imported ")));
        for (const TraceEvent &e : shown.events)
            QCOMPARE(e.line, 0); // vadd.cpp's lines are not rms_norm.py's
        // The import's own record keeps them (for the editor of vadd.cpp).
        bool kept = false;
        for (const TraceEvent &e : profile.runs().last().trace.events)
            kept |= e.line == 40;
        QVERIFY(kept);

        SyncTimelinePanel sync;
        sync.setReport(makePingPongReport());
        sync.setTrace(shown);
        sync.modeBox()->setCurrentIndex(1);
        PingPongView pingPong;
        pingPong.setTrace(shown);
        // The sync title names the import, not the kernel's prediction.
        QVERIFY(!sync.view()->title().contains(QStringLiteral("predicted")));
        QVERIFY2(sync.view()->title().startsWith(shown.origin), qPrintable(sync.view()->title()));
        QVERIFY2(pingPong.title().startsWith(shown.origin), qPrintable(pingPong.title()));
        // A launch's own trace is the prediction.
        sync.setTrace(SimTrace::parse(QByteArray::fromStdString(sampleTrace())));
        QVERIFY(sync.view()->title().contains(QStringLiteral("predicted by the simulator")));
        pingPong.setTrace(SimTrace::parse(QByteArray::fromStdString(sampleTrace())));
        QVERIFY(pingPong.title().startsWith(QStringLiteral("simulated")));
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
        {
            // Perfetto needs numbers for pid/tid: names go to metadata.
            QFile f(dir.filePath("trace.json"));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QJsonArray events = QJsonDocument::fromJson(f.readAll()).object().value("traceEvents").toArray();
            QStringList lanes, processes;
            for (const QJsonValue &v : events) {
                const QJsonObject e = v.toObject();
                QVERIFY(e.value("pid").isDouble());
                if (e.contains("tid"))
                    QVERIFY(e.value("tid").isDouble());
                if (e.value("name").toString() == "thread_name")
                    lanes << e.value("args").toObject().value("name").toString();
                if (e.value("name").toString() == "process_name")
                    processes << e.value("args").toObject().value("name").toString();
            }
            lanes.sort();
            QCOMPARE(lanes, (QStringList{"MTE2", "MTE3", "SCALAR", "VECTOR"}));
            QCOMPARE(processes, QStringList{"core0.veccore0"});
            const SimTrace back = SimTrace::parse([&] {
                f.seek(0);
                return f.readAll();
            }());
            QCOMPARE(back.cores, QStringList{"core0.veccore0"});
            QCOMPARE(back.flows.size(), 1);
            QCOMPARE(back.events[0].pipe, SimTrace::parse(QByteArray::fromStdString(sampleTrace())).events[0].pipe);
        }
        QVERIFY(portableChromeTrace("{\"traceEvents\": [", &error).isEmpty());
        QVERIFY(error.contains("not valid JSON"));

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

        // Without a window: fresh views of the report, every section.
        QVERIFY2(writeHtmlReport(report, dir.filePath("report.html"), &error), qPrintable(error));
        QFile file(dir.filePath("report.html"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString full = QString::fromUtf8(file.readAll());
        for (const char *id : {"passes", "final-ir", "ub-map", "sync-timeline-program-order", "sync-timeline-simulated",
                               "ping-pong-schedule", "pipe-utilization", "profile", "sync"})
            QVERIFY2(full.contains(QStringLiteral("id=\"%1\"").arg(QLatin1String(id))), id);
        QCOMPARE(full.count("src=\"data:image/png;base64,"), 5);
        QVERIFY(!full.contains("http://") && !full.contains("https://"));
    }

    void hotLinesOfAnotherFileOrWithoutBLinesAreNotMisattributed()
    {
        ProfileRun a, b;
        a.sourceFile = QStringLiteral("/k/vadd.cpp");
        a.lineUs = {{12, 2.0}};
        b.pipeRatio[0] = 0.5; // msprof op data: pipes, no lines
        HotLineModel model;
        model.setRuns(&a, &b, QStringLiteral("/k/rms_norm.py"));
        QCOMPARE(model.index(0, HotLineModel::LineColumn).data().toString(), QStringLiteral("vadd.cpp:12"));
        QCOMPARE(model.index(0, HotLineModel::LineColumn).data(HotLineModel::LineRole).toInt(), 0);
        QCOMPARE(model.index(0, HotLineModel::BTimeColumn).data().toString(), QStringLiteral("\u2014"));
        QCOMPARE(model.index(0, HotLineModel::DeltaColumn).data().toString(), QStringLiteral("\u2014"));
        model.setRuns(&a, nullptr, QStringLiteral("/other/vadd.cpp"));
        QCOMPARE(model.index(0, HotLineModel::LineColumn).data().toInt(), 12);
        QCOMPARE(model.index(0, HotLineModel::LineColumn).data(HotLineModel::LineRole).toInt(), 12);
        QVERIFY(!sameOperator(QStringLiteral("rms_norm_fused"), QStringLiteral("Add")));
        QVERIFY(sameOperator(QStringLiteral("rms_norm"), QStringLiteral("rms_norm_kernel_0")));
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
        QCOMPARE(view.scene()->items().size(), 7); // nodes + one edge layer + their parent
        QVERIFY(!view.showsOverview()); // small graphs need no far-out picture
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

    void graphIsReadableFitsAndShowsTilesOnly()
    {
        // Issue 18 item 7: labels were clipped ("ascendc.alloc_loca") and ~7 px
        // tall on open; no Fit, no double-click fit, no word of the pass, and
        // allocs, constants and index arithmetic buried the copies.
        GraphPanel panel;
        GraphView *view = panel.view();
        const auto report = makePingPongReport();
        view->setCaption(QStringLiteral("IR after pass 3: ascendc-insert-sync"));
        QCOMPARE(panel.captionLabel()->text(), QStringLiteral("IR after pass 3: ascendc-insert-sync"));
        const QString ir = QString::fromStdString(report->passes[0].ir)
                           + QStringLiteral("\n%c0 = arith.constant 0 : index\n%i = arith.addi %c0, %c0 : index\n");
        view->setIr(ir, QVector<int>(report->passes[0].irLines.begin(), report->passes[0].irLines.end()));
        panel.resize(700, 500);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(view->waitForLayout());
        // Every node is as wide as its label in the font it is drawn in.
        const QFontMetricsF fm(view->scene()->font());
        for (int i = 0; i < view->graph().nodes.size(); ++i) {
            const double need = fm.horizontalAdvance(view->graph().nodes[i].label());
            QVERIFY2(view->graphLayout().sizes[i].width() >= need,
                     qPrintable(view->graph().nodes[i].label() + QStringLiteral(" %1 < %2")
                                                                     .arg(view->graphLayout().sizes[i].width())
                                                                     .arg(need)));
        }
        QVERIFY(view->transform().m11() >= 0.9 - 1e-9); // readable on open
        // Double-click shows the whole graph.
        view->scale(4, 4);
        QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, QPoint(10, 10));
        const QRectF shown = view->mapToScene(view->viewport()->rect()).boundingRect();
        QVERIFY2(shown.contains(view->scene()->sceneRect().adjusted(1, 1, -1, -1)), "not fitted");
        // Tiles only: the copies and the add stay, the alloc, constant and addi go.
        const int all = int(view->graph().nodes.size());
        panel.tilesOnlyBox()->setChecked(true);
        QVERIFY(view->waitForLayout());
        QStringList ops;
        for (const GraphNode &n : view->graph().nodes)
            ops << n.op;
        QVERIFY2(view->graph().nodes.size() < all, qPrintable(ops.join(QLatin1Char(' '))));
        QVERIFY2(!ops.join(QLatin1Char(' ')).contains(QStringLiteral("alloc")) && !ops.contains(QStringLiteral("arith.constant"))
                     && !ops.contains(QStringLiteral("arith.addi")),
                 qPrintable(ops.join(QLatin1Char(' '))));
        QVERIFY2(ops.contains(QStringLiteral("ascendc.add")), qPrintable(ops.join(QLatin1Char(' '))));
        panel.tilesOnlyBox()->setChecked(false);
        QVERIFY(view->waitForLayout());
        QCOMPARE(int(view->graph().nodes.size()), all);
    }

    void graphOverviewWhenFarOut()
    {
        // 2,000 ops: the layered layout, and a picture of it when zoomed far out.
        QString ir = QStringLiteral("func.func @k(%arg0: index) {\n");
        for (int i = 0; i < 2000; ++i)
            ir += i % 20 ? QStringLiteral("  %v%1 = arith.addi %v%2, %arg0 : index\n").arg(i).arg(i - 1)
                         : QStringLiteral("  %v%1 = arith.muli %arg0, %arg0 : index\n").arg(i);
        ir += QStringLiteral("  return\n}\n");
        GraphView view;
        view.resize(900, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setIr(ir);
        QVERIFY(view.waitForLayout());
        QCOMPARE(view.graphLayout().engine, QString("layered"));
        view.viewport()->repaint();
        QVERIFY(!view.showsOverview()); // fit() keeps labels readable
        view.fitInView(view.scene()->sceneRect(), Qt::KeepAspectRatio);
        view.viewport()->repaint();
        QVERIFY(view.transform().m11() < GraphView::kOverviewLod);
        QVERIFY(view.showsOverview());
        const QImage far = view.viewport()->grab().toImage();
        int inked = 0;
        for (int y = 0; y < far.height(); y += 4)
            for (int x = 0; x < far.width(); x += 4)
                inked += far.pixelColor(x, y) != QColor(Qt::white);
        QVERIFY(inked > 50); // the picture shows the graph
        // Exports draw the items, not the picture; zooming in brings them back.
        QTemporaryDir dir;
        QVERIFY(view.exportTo(dir.filePath("g.png")));
        QVERIFY(view.showsOverview());
        view.resetTransform();
        view.viewport()->repaint();
        QVERIFY(!view.showsOverview());
    }

    void editorHeatToolTip()
    {
        KernelEditor editor;
        QString text;
        for (int i = 1; i <= 20; ++i)
            text += QStringLiteral("line_%1 = %1\n").arg(i);
        editor.setText(text);
        editor.resize(600, 500);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        ProfileView profile;
        connect(&profile, &ProfileView::lineCostsChanged, &editor, &KernelEditor::setLineCosts);
        const ProfileRun run = profileFromLaunch(*makePingPongReport(), 0);
        profile.addRun(run);
        QCOMPARE(editor.lineHeatLevel(10), KernelEditor::kHeatLevels);
        const QString tip = editor.heatToolTip(10);
        // 2.01 µs of 4.82, at 6300 cycles / 3.41 µs: 3713 cycles; all of it MTE2.
        QVERIFY2(tip.contains("line 10: 2.0100 \u00b5s") && tip.contains("3,713 cycles") && tip.contains("41.7%")
                     && tip.contains("MTE2 2.0100 \u00b5s") && tip.contains(run.label),
                 qPrintable(tip));
        QVERIFY(editor.heatToolTip(11).contains("V 1.6000"));
        QVERIFY(editor.heatToolTip(2).isEmpty()); // no time on line 2
        // Hovering the strip shows it.
        int left = 0;
        for (int m = 0; m < 3; ++m)
            left += editor.marginWidth(m);
        const long pos = editor.SendScintilla(QsciScintilla::SCI_POSITIONFROMLINE, 9);
        const int y = int(editor.SendScintilla(QsciScintilla::SCI_POINTYFROMPOSITION, 0, pos)) + 3;
        const QPoint onStrip(left + 2, y);
        QCOMPARE(editor.heatLineAt(onStrip), 10);
        QCOMPARE(editor.heatLineAt(QPoint(left + 40, y)), 0); // the text, not the strip
        QHelpEvent help(QEvent::ToolTip, onStrip, editor.viewport()->mapToGlobal(onStrip));
        QApplication::sendEvent(editor.viewport(), &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains("line 10"), qPrintable(QToolTip::text()));
        QToolTip::hideText();
        // Plain heat (no run) still says something.
        editor.setLineHeat({{3, 0.5}});
        QVERIFY(editor.heatToolTip(3).contains("50%"));
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
