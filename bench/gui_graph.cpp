// Frame times of the Graph view on a synthetic 10,000-op dataflow graph,
// offscreen: the IR text goes through the real GraphView (parse, layout on
// its worker thread, QGraphicsScene with level-of-detail items), then the
// viewport is repainted while zooming and panning as the wheel and a drag
// would. Also lays the graph out with Graphviz dot (the view uses dot up to
// GraphView::graphvizLimit() ops, the layered layout past it) at several
// sizes to show where dot stops being interactive. Prints numbers; not a
// pass/fail test.
//
//   ninja -C build asc2-bench-gui-graph && QT_QPA_PLATFORM=offscreen build/bin/asc2-bench-gui-graph [OPS] [--dot-max N]
//   (dot runs up to N ops, 3,000 by default; --dot-max 10000 also lays the full graph out with dot)
//   ... --dump-dot OPS FILE writes the DOT text the view gives Graphviz;
//   ... --shots PREFIX saves the first frame and the whole graph as PREFIX-fit.png, PREFIX-all.png.
#include "DataflowGraph.h"
#include "GraphView.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QGraphicsScene>
#include <QScrollBar>

#include <algorithm>
#include <cstdio>
#include <cstring>
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

// An unrolled vector kernel: `streams` tiles side by side, each a chain of
// load -> vector ops -> store with the chain's buffer redefined in place
// (ascendc ops write their first operand), scalar index math feeding the
// copies, and every 8th op a cross-stream reduction; `ops` ops in all.
QString syntheticIr(int ops, int streams = 48)
{
    static const char *const vector[] = {"add", "mul", "exp", "sub", "max", "muls", "reduce", "div"};
    QString ir = QStringLiteral("func.func @big(%arg0: !ascendc.gm<f32>, %arg1: !ascendc.gm<f32>, %arg2: index) {\n");
    int emitted = 0, value = 0;
    std::vector<QString> buffer(streams), index(streams);
    for (int s = 0; s < streams && emitted < ops; ++s, ++emitted) {
        buffer[s] = QStringLiteral("%b%1").arg(s);
        ir += QStringLiteral("  %1 = ascendc.alloc_local {name = \"t%2\"} : !ascendc.local<256xf32, VECCALC>\n").arg(buffer[s]).arg(s);
    }
    for (int step = 0; emitted < ops; ++step) {
        for (int s = 0; s < streams && emitted < ops; ++s, ++emitted) {
            const int phase = step % 12;
            if (phase == 0) {
                index[s] = QStringLiteral("%i%1").arg(value++);
                ir += QStringLiteral("  %1 = arith.muli %arg2, %arg2 : index\n").arg(index[s]);
            } else if (phase == 1) {
                ir += QStringLiteral("  ascendc.data_copy_in %1, %arg0[%2] : !ascendc.local<256xf32, VECCALC>, !ascendc.gm<f32>\n")
                          .arg(buffer[s], index[s]);
            } else if (phase == 11) {
                ir += QStringLiteral("  ascendc.data_copy_out %arg1[%1], %2 : !ascendc.gm<f32>, !ascendc.local<256xf32, VECCALC>\n")
                          .arg(index[s], buffer[s]);
            } else if (step % 8 == 3 && s > 0) {
                // Cross-stream: this tile takes the neighbour's partial result.
                ir += QStringLiteral("  ascendc.add %1, %1, %2, %c256 : !ascendc.local<256xf32, VECCALC>\n")
                          .arg(buffer[s], buffer[s - 1]);
            } else {
                ir += QStringLiteral("  ascendc.%1 %2, %2, %2, %c256 : !ascendc.local<256xf32, VECCALC>\n")
                          .arg(QLatin1String(vector[(step + s) % 8]), buffer[s]);
            }
        }
    }
    ir += QStringLiteral("  return\n}\n");
    return ir;
}

constexpr int kLayoutBudgetMs = 600000;

// One frame: the viewport repainted now (QWidget::repaint paints synchronously).
double frame(GraphView &view)
{
    QElapsedTimer t;
    t.start();
    view.viewport()->repaint();
    return t.nsecsElapsed() / 1e6;
}

struct Run {
    Stats zoom, pan, all;
    bool laidOut = false;
    double layoutMs;
    QString engine;
    int nodes, edges;
    int visibleAtFit;
};

// Through the real view: setIr (parse + worker-thread layout + scene), then
// frames: zoom in 16 wheel steps at the centre, pan 30 drag steps, zoom back
// out 16 steps, and the whole graph in one screen (the worst frame).
QString g_shots; // --shots PREFIX: pictures of the first and the whole-graph frames

Run measure(const QString &ir, int graphvizLimit, const QSize &size)
{
    Run r{};
    GraphView view;
    view.setGraphvizLimit(graphvizLimit);
    view.resize(size);
    view.show();
    QElapsedTimer t;
    t.start();
    view.setIr(ir);
    r.laidOut = view.waitForLayout(kLayoutBudgetMs);
    QCoreApplication::processEvents();
    r.layoutMs = t.nsecsElapsed() / 1e6;
    r.engine = view.graphLayout().engine;
    r.nodes = int(view.graph().nodes.size());
    r.edges = int(view.graph().edges.size());
    if (!r.laidOut) {
        // The worker thread cannot be stopped inside Graphviz: leave it.
        std::printf("%d ops: no layout within %.0f s\n", r.nodes, kLayoutBudgetMs / 1000.0);
        std::fflush(stdout);
        std::_Exit(0);
    }
    // Start from the view's own fit (readable labels at the top).
    view.fit();
    frame(view);
    if (!g_shots.isEmpty())
        view.viewport()->grab().save(g_shots + QStringLiteral("-fit.png"));
    std::vector<double> zoom, pan, all;
    for (int i = 0; i < 16; ++i) {
        view.scale(1.15, 1.15);
        zoom.push_back(frame(view));
    }
    for (int i = 0; i < 30; ++i) {
        QScrollBar *bar = i % 2 ? view.verticalScrollBar() : view.horizontalScrollBar();
        bar->setValue(bar->value() + 80);
        pan.push_back(frame(view));
    }
    for (int i = 0; i < 16; ++i) {
        view.scale(1 / 1.15, 1 / 1.15);
        zoom.push_back(frame(view));
    }
    // Everything at once: every node a filled box, every edge a line.
    view.fitInView(view.scene()->sceneRect(), Qt::KeepAspectRatio);
    r.visibleAtFit = int(view.scene()->items(view.mapToScene(view.viewport()->rect())).size());
    for (int i = 0; i < 10; ++i) {
        view.scale(i % 2 ? 1 / 1.05 : 1.05, i % 2 ? 1 / 1.05 : 1.05);
        all.push_back(frame(view));
    }
    if (!g_shots.isEmpty())
        view.viewport()->grab().save(g_shots + QStringLiteral("-all.png"));
    r.zoom = stats(zoom);
    r.pan = stats(pan);
    r.all = stats(all);
    return r;
}

void print(const char *what, const Run &r)
{
    std::printf("%s: %d ops, %d edges, layout (%s) %.0f ms\n", what, r.nodes, r.edges, qPrintable(r.engine), r.layoutMs);
    std::printf("  zoom  frame median %.2f ms, p95 %.2f ms, max %.2f ms\n", r.zoom.median, r.zoom.p95, r.zoom.max);
    std::printf("  pan   frame median %.2f ms, p95 %.2f ms, max %.2f ms\n", r.pan.median, r.pan.p95, r.pan.max);
    std::printf("  whole graph on screen (%d items): frame median %.2f ms, p95 %.2f ms, max %.2f ms\n", r.visibleAtFit,
                r.all.median, r.all.p95, r.all.max);
}
} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    std::setvbuf(stdout, nullptr, _IOLBF, 0); // each line as it is measured
    int ops = 10000;
    int dotMax = 3000; // dot past that takes minutes: --dot-max 10000 to see
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--dump-dot") == 0 && i + 2 < argc) {
            // The DOT text the view hands Graphviz, for trying dot's options.
            QFile f(QString::fromLocal8Bit(argv[i + 2]));
            if (!f.open(QIODevice::WriteOnly))
                return 1;
            f.write(inspector::toDot(inspector::DataflowGraph::parse(syntheticIr(std::atoi(argv[i + 1])))).toUtf8());
            return 0;
        }
        if (std::strcmp(argv[i], "--shots") == 0 && i + 1 < argc) {
            g_shots = QString::fromLocal8Bit(argv[++i]);
            continue;
        }
        if (std::strcmp(argv[i], "--dot-max") == 0 && i + 1 < argc)
            dotMax = std::atoi(argv[++i]);
        else
            ops = std::max(10, std::atoi(argv[i]));
    }
    const QSize size(1600, 1000);
    const QString ir = syntheticIr(ops);

    // As the workbench shows it (the layered layout past 1,500 ops).
    print("graph view (default)", measure(ir, GraphView().graphvizLimit(), size));

    // Graphviz dot alone, growing: where it stops being interactive.
    for (int n : {1000, 1500, 3000, 5000}) {
        if (n >= ops || n > dotMax)
            break;
        const inspector::DataflowGraph graph = inspector::DataflowGraph::parse(syntheticIr(n));
        QElapsedTimer t;
        t.start();
        const inspector::GraphLayout layout = inspector::layoutGraph(graph, int(graph.nodes.size()));
        std::printf("graphviz dot, %d ops, %d edges: %.0f ms%s\n", int(graph.nodes.size()), int(graph.edges.size()),
                    t.nsecsElapsed() / 1e6, layout.error.isEmpty() ? "" : qPrintable(QStringLiteral(" (") + layout.error + QLatin1Char(')')));
    }
    // The full graph through the real view with dot forced on it (minutes at 10,000).
    if (dotMax >= ops)
        print("graph view, dot forced", measure(ir, ops + 100, size));
    return 0;
}
