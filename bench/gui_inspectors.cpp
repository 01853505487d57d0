// Frame times of the inspectors on big synthetic data, offscreen: a sync
// timeline of 100,000 simulated instructions and a UB map of 10,000
// buffers, each rendered to a QImage while zooming in and panning, as a
// wheel and a drag would. Prints numbers; not a pass/fail test.
//
//   ninja -C build asc2-bench-gui-inspectors && QT_QPA_PLATFORM=offscreen build/bin/asc2-bench-gui-inspectors
#include "InspectorSample.h"
#include "SyncTimelineView.h"
#include "UbMapView.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {
struct Stats {
    double median, p95, max;
};

Stats stats(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v[std::min(v.size() - 1, v.size() * 95 / 100)], v.back()};
}

// Zoom in 20 steps, pan 20 steps, zoom out 20 steps; one frame each.
Stats frames(InspectorCanvas &view, const QSize &size)
{
    view.resize(size);
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    std::vector<double> ms;
    const auto frame = [&] {
        QElapsedTimer t;
        t.start();
        image.fill(Qt::white);
        QPainter p(&image);
        view.paintCanvas(p, size);
        p.end();
        ms.push_back(t.nsecsElapsed() / 1e6);
    };
    frame();
    for (int i = 0; i < 20; ++i) {
        view.zoomBy(1.4, size.width() * 0.4);
        frame();
    }
    for (int i = 0; i < 20; ++i) {
        view.panBy(-60);
        frame();
    }
    for (int i = 0; i < 20; ++i) {
        view.zoomBy(1 / 1.4, size.width() * 0.6);
        frame();
    }
    return stats(ms);
}
} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QSize size(1600, 500);

    QElapsedTimer t;
    t.start();
    const inspector::SimTrace trace = inspector::SimTrace::parse(QByteArray::fromStdString(syntheticTrace(100000)));
    const double parseMs = t.nsecsElapsed() / 1e6;
    SyncTimelineView timeline;
    t.restart();
    timeline.setMode(SyncTimelineView::Mode::Simulated);
    timeline.setTrace(trace);
    const double loadMs = t.nsecsElapsed() / 1e6;
    const Stats s = frames(timeline, size);
    std::printf("sync timeline, %d instructions (%d flows): parse %.0f ms, load %.0f ms; frame median %.2f ms, p95 %.2f ms, max %.2f ms\n",
                timeline.itemCount(), int(timeline.arrows().size()), parseMs, loadMs, s.median, s.p95, s.max);

    UbMapView map;
    t.restart();
    map.setReport(syntheticBufferReport(10000));
    const double mapLoadMs = t.nsecsElapsed() / 1e6;
    const Stats m = frames(map, size);
    std::printf("UB map, %zu buffers: load %.1f ms; frame median %.2f ms, p95 %.2f ms, max %.2f ms\n",
                map.report()->buffers.size(), mapLoadMs, m.median, m.p95, m.max);
    return 0;
}
