#include "DataflowGraph.h"

#include <QHash>

#include <algorithm>
#include <climits>
#include <QMutex>
#include <QRegularExpression>
#include <QStringList>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

namespace inspector {

DataflowGraph DataflowGraph::parse(const QString &ir)
{
    DataflowGraph g;
    QHash<QString, int> definer;
    static const QRegularExpression value(QStringLiteral("%[\\w.$#-]+"));
    static const QRegularExpression funcArgs(QStringLiteral("^\\s*func\\.func\\s+(?:\\w+\\s+)?@([\\w.$-]+)\\(([^)]*)\\)"));
    static const QRegularExpression regionArg(QStringLiteral("^\\s*(?:%[\\w.#:, ]+=\\s*)?scf\\.for\\s+(%[\\w.$-]+)\\s*="));
    static const QRegularExpression iterArgs(QStringLiteral("iter_args\\(([^)]*)\\)"));
    static const QRegularExpression opHead(QStringLiteral("^\\s*(?:((?:%[\\w.$#:-]+(?:\\s*,\\s*)?)+)\\s*=\\s*)?\"?([A-Za-z_][\\w.]*)\"?"));
    const QStringList lines = ir.split(QLatin1Char('\n'));
    int depth = 0;
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        const int opens = int(line.count(QLatin1Char('{'))), closes = int(line.count(QLatin1Char('}')));
        if (line.isEmpty() || line.startsWith(QLatin1String("//")) || line == QLatin1String("}") || line.startsWith(QLatin1String("module"))
            || line.startsWith(QLatin1String("^")) || line.startsWith(QLatin1String("} "))) {
            depth += opens - closes;
            continue;
        }
        const QRegularExpressionMatch fn = funcArgs.match(line);
        if (fn.hasMatch()) {
            // Each argument is a source node.
            const QStringList args = fn.captured(2).split(QLatin1Char(','), Qt::SkipEmptyParts);
            for (const QString &arg : args) {
                const QString name = arg.section(QLatin1Char(':'), 0, 0).trimmed();
                if (!name.startsWith(QLatin1Char('%')))
                    continue;
                GraphNode n;
                n.op = QStringLiteral("arg");
                n.results = name;
                n.text = arg.trimmed();
                n.irLine = i;
                definer.insert(name, int(g.nodes.size()));
                g.nodes.push_back(n);
            }
            depth += opens - closes;
            continue;
        }
        const QRegularExpressionMatch head = opHead.match(line);
        if (!head.hasMatch()) {
            depth += opens - closes;
            continue;
        }
        GraphNode n;
        n.results = head.captured(1).trimmed();
        n.op = head.captured(2);
        // Flags order pipes, they carry no data; terminators neither.
        static const QStringList skipped = {QStringLiteral("ascendc.set_flag"), QStringLiteral("ascendc.wait_flag"),
                                            QStringLiteral("ascendc.pipe_barrier"), QStringLiteral("scf.yield"),
                                            QStringLiteral("func.return"), QStringLiteral("return")};
        if (skipped.contains(n.op)) {
            depth += opens - closes;
            continue;
        }
        n.text = line;
        n.irLine = i;
        n.depth = depth;
        const int self = int(g.nodes.size());
        // Uses: every %value after the op name that something defined.
        const QString operands = line.mid(head.capturedEnd(2));
        QSet<QString> seen;
        auto it = value.globalMatch(operands);
        while (it.hasNext()) {
            const QString v = it.next().captured(0);
            const auto d = definer.constFind(v.section(QLatin1Char('#'), 0, 0));
            if (d != definer.cend() && *d != self && !seen.contains(v)) {
                seen.insert(v);
                g.edges.push_back({*d, self, v});
            }
        }
        g.nodes.push_back(n);
        // An ascendc op writes its first operand (a local buffer or GM) in
        // place: later readers of that buffer depend on this op.
        if (n.results.isEmpty() && n.op.startsWith(QLatin1String("ascendc."))) {
            const QRegularExpressionMatch dst = value.match(operands);
            if (dst.hasMatch())
                definer.insert(dst.captured(0), self);
        }
        auto defs = value.globalMatch(n.results);
        while (defs.hasNext()) {
            const QString r = defs.next().captured(0);
            definer.insert(r.section(QLatin1Char(':'), 0, 0), self);
        }
        const QRegularExpressionMatch loop = regionArg.match(line);
        if (loop.hasMatch())
            definer.insert(loop.captured(1), self);
        const QRegularExpressionMatch iters = iterArgs.match(line);
        if (iters.hasMatch()) {
            for (const QString &binding : iters.captured(1).split(QLatin1Char(',')))
                definer.insert(binding.section(QLatin1Char('='), 0, 0).trimmed(), self);
        }
        depth += opens - closes;
    }
    return g;
}

namespace {
QString dotEscape(QString s)
{
    s.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
    s.replace(QLatin1Char('"'), QLatin1String("\\\""));
    return s;
}

} // namespace

QString GraphNode::label() const
{
    return results.isEmpty() ? op : QStringLiteral("%1 = %2").arg(results, op);
}

bool DataflowGraph::isTileOp(const QString &op)
{
    if (!op.startsWith(QLatin1String("ascendc.")) && !op.startsWith(QLatin1String("asctile.")))
        return false;
    // Bookkeeping in those dialects: where a tile lives, which block runs.
    static const QStringList bookkeeping = {QStringLiteral("alloc"), QStringLiteral("get_block"),
                                            QStringLiteral("constant"), QStringLiteral("global_tensor"),
                                            QStringLiteral("index")};
    const QString name = op.section(QLatin1Char('.'), 1);
    return std::none_of(bookkeeping.cbegin(), bookkeeping.cend(),
                        [&](const QString &b) { return name.startsWith(b); });
}

DataflowGraph DataflowGraph::tilesOnly(QVector<int> *kept) const
{
    QVector<bool> keep(nodes.size(), false);
    for (int i = 0; i < nodes.size(); ++i)
        keep[i] = isTileOp(nodes[i].op);
    // Arguments (GM tensors) stay when a tile op reads or writes them.
    for (const GraphEdge &e : edges)
        if (e.from < nodes.size() && e.to < nodes.size() && nodes[e.from].op == QLatin1String("arg") && keep[e.to])
            keep[e.from] = true;
    DataflowGraph out;
    QVector<int> index(nodes.size(), -1);
    for (int i = 0; i < nodes.size(); ++i)
        if (keep[i]) {
            index[i] = int(out.nodes.size());
            out.nodes.push_back(nodes[i]);
            if (kept)
                kept->push_back(i);
        }
    for (const GraphEdge &e : edges)
        if (e.from < index.size() && e.to < index.size() && index[e.from] >= 0 && index[e.to] >= 0)
            out.edges.push_back({index[e.from], index[e.to], e.value});
    return out;
}

QString toDot(const DataflowGraph &graph, const DotOptions &options)
{
    QVector<int> uses(graph.nodes.size(), 0), defs(graph.nodes.size(), 0);
    for (const GraphEdge &e : graph.edges) {
        if (e.from >= 0 && e.from < uses.size())
            ++uses[e.from];
        if (e.to >= 0 && e.to < defs.size())
            ++defs[e.to];
    }
    // Hubs: sources (arguments, constants) with many uses. Their edges stay
    // out; the top rank, theirs alone, keeps them above every use.
    QVector<bool> hub(graph.nodes.size(), false);
    QStringList hubs;
    for (int i = 0; i < graph.nodes.size(); ++i)
        if (options.hubFanOut >= 0 && uses[i] > options.hubFanOut && defs[i] == 0) {
            hub[i] = true;
            hubs << QStringLiteral("n%1;").arg(i);
        }
    QString dot;
    dot += QLatin1String("digraph dataflow {\n");
    dot += QLatin1String("  rankdir=TB;\n");
    if (options.fast)
        dot += QLatin1String("  nslimit=1;\n  nslimit1=1;\n");
    dot += QLatin1String("  node [shape=box, fontsize=10, height=0.3];\n");
    // The view's own measure of a label, when it gave one, as the least
    // width (inches): Graphviz's guess at its font's width clipped labels.
    for (int i = 0; i < graph.nodes.size(); ++i) {
        const GraphNode &n = graph.nodes[i];
        // One arg() call: a label such as "%3 = ascendc.add" must not be
        // taken for a placeholder of a later one.
        dot += n.labelWidth > 0 ? QStringLiteral("  n%1 [label=\"%2\", width=%3];\n")
                                      .arg(QString::number(i), dotEscape(n.label()),
                                           QString::number(n.labelWidth / 72.0, 'f', 3))
                                : QStringLiteral("  n%1 [label=\"%2\"];\n").arg(i).arg(dotEscape(n.label()));
    }
    for (const GraphEdge &e : graph.edges)
        if (!hub.value(e.from))
            dot += QStringLiteral("  n%1 -> n%2;\n").arg(e.from).arg(e.to);
    if (!hubs.isEmpty())
        dot += QStringLiteral("  { rank=source; %1 }\n").arg(hubs.join(QLatin1Char(' ')));
    dot += QLatin1String("}\n");
    return dot;
}

namespace {
// Longest-path layering: fast enough for any size, and readable.
GraphLayout layeredLayout(const DataflowGraph &graph)
{
    GraphLayout out;
    out.engine = QStringLiteral("layered");
    const int n = int(graph.nodes.size());
    QVector<int> rank(n, 0);
    // Edges go from an earlier line to a later one (SSA dominance in
    // straight-line order), so one pass in node order ranks them.
    QVector<QVector<int>> preds(n);
    for (const GraphEdge &e : graph.edges)
        if (e.from < e.to)
            preds[e.to].push_back(e.from);
    for (int i = 0; i < n; ++i)
        for (int p : preds[i])
            rank[i] = std::max(rank[i], rank[p] + 1);
    // A node that needs nothing but hubs (an alloc, index math on an
    // argument, a constant) goes right above its first use, not to the top:
    // hundreds of them in the first rows make the graph wide and every edge
    // long. Hubs themselves stay on top.
    QVector<int> uses(n, 0), firstUse(n, INT_MAX);
    for (const GraphEdge &e : graph.edges)
        if (e.from >= 0 && e.from < e.to && e.to < n)
            ++uses[e.from];
    const auto isHub = [&](int i) { return uses[i] > kDotHubFanOut; };
    for (int i = n - 1; i >= 0; --i) {
        const bool free = !isHub(i)
                          && std::none_of(preds[i].cbegin(), preds[i].cend(), [&](int p) { return !isHub(p); });
        if (free && firstUse[i] != INT_MAX)
            rank[i] = std::max(rank[i], firstUse[i] - 1);
        for (int p : preds[i])
            firstUse[p] = std::min(firstUse[p], rank[i]);
    }
    // Rank by rank, each node goes under the mean x of its predecessors (hubs
    // like a GM pointer argument aside: they would pull everything to
    // themselves), so chains run straight down and edges stay short; a node
    // without one goes next to the op before it in the IR. Sorted by that
    // wish, packed left to right at least kGap apart, and the rank shifted so
    // it sits on its wishes on average (no drift to the right, rank by rank).
    constexpr double kGap = 30, kRowPitch = 60;
    int maxRank = 0;
    for (int r : rank)
        maxRank = std::max(maxRank, r);
    QVector<QVector<int>> byRank(maxRank + 1);
    for (int i = 0; i < n; ++i)
        byRank[rank[i]].push_back(i);
    out.centers.resize(n);
    out.sizes.resize(n);
    for (int i = 0; i < n; ++i)
        out.sizes[i] = QSizeF(std::max(graph.nodes[i].labelWidth,
                                       30 + 6.0 * (graph.nodes[i].op.size() + graph.nodes[i].results.size())),
                              22);
    QVector<double> x(n, 0);
    QVector<bool> placed(n, false);
    double minLeft = 0;
    for (const QVector<int> &nodes : byRank) {
        QVector<std::pair<double, int>> wish;
        wish.reserve(nodes.size());
        double slot = 0;
        for (int i : nodes) {
            double sum = 0;
            int k = 0;
            for (int p : preds[i])
                if (!isHub(p)) {
                    sum += x[p];
                    ++k;
                }
            double want = slot;
            if (k)
                want = sum / k;
            else if (i > 0 && placed[i - 1])
                want = x[i - 1] + 1; // just right of its IR neighbour
            wish.push_back({want, i});
            slot += out.sizes[i].width() + kGap;
        }
        std::stable_sort(wish.begin(), wish.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
        double right = -1e300, drift = 0;
        for (const auto &[want, i] : wish) {
            const double w = out.sizes[i].width();
            const double left = std::max(want - w / 2, right + kGap);
            x[i] = left + w / 2;
            right = left + w;
            drift += x[i] - want;
        }
        drift /= std::max<qsizetype>(1, wish.size());
        for (const auto &[want, i] : wish) {
            x[i] -= drift;
            placed[i] = true;
            minLeft = std::min(minLeft, x[i] - out.sizes[i].width() / 2);
        }
    }
    double maxX = 0, maxY = 0;
    for (int i = 0; i < n; ++i) {
        out.centers[i] = QPointF(x[i] - minLeft + 20, 20 + rank[i] * kRowPitch);
        maxX = std::max(maxX, out.centers[i].x() + out.sizes[i].width() / 2);
        maxY = std::max(maxY, out.centers[i].y() + 11);
    }
    out.bounds = QSizeF(maxX + 20, maxY + 20);
    return out;
}
} // namespace

GraphLayout layoutGraph(const DataflowGraph &graph, int graphvizLimit)
{
    if (graph.nodes.size() > graphvizLimit || graph.nodes.isEmpty())
        return layeredLayout(graph);
    // Graphviz keeps global state: one layout at a time.
    static QMutex mutex;
    QMutexLocker lock(&mutex);
    GraphLayout out;
    out.engine = QStringLiteral("dot");
    DotOptions options;
    if (graph.nodes.size() > kDotFastFrom) {
        options.hubFanOut = kDotHubFanOut;
        options.fast = true;
    }
    const QByteArray dot = toDot(graph, options).toUtf8();
    // One context for the process, never freed: Graphviz 2.42's pango text
    // plugin keeps a pointer to the last font name it measured, a string the
    // context owns, and compares against it on the next layout; with a
    // context per layout that was a read of freed memory (ASan,
    // tst_inspectordata graphvizLeavesHubsOutOfBigGraphs), and a rare crash.
    static GVC_t *const gvc = gvContext();
    Agraph_t *g = agmemread(dot.constData());
    if (!g) {
        GraphLayout fallback = layeredLayout(graph);
        fallback.error = QStringLiteral("Graphviz could not read the graph");
        return fallback;
    }
    if (gvLayout(gvc, g, "dot") != 0) {
        agclose(g);
        GraphLayout fallback = layeredLayout(graph);
        fallback.error = QStringLiteral("Graphviz dot layout failed");
        return fallback;
    }
    const boxf bb = GD_bb(g);
    const double height = bb.UR.y;
    out.bounds = QSizeF(bb.UR.x + 10, bb.UR.y + 10);
    out.centers.resize(graph.nodes.size());
    out.sizes.resize(graph.nodes.size());
    for (int i = 0; i < graph.nodes.size(); ++i) {
        Agnode_t *node = agnode(g, QStringLiteral("n%1").arg(i).toUtf8().data(), 0);
        if (!node)
            continue;
        const pointf c = ND_coord(node);
        out.centers[i] = QPointF(c.x + 5, height - c.y + 5); // Graphviz's y grows upwards
        out.sizes[i] = QSizeF(ND_width(node) * 72, ND_height(node) * 72);
    }
    gvFreeLayout(gvc, g);
    agclose(g);
    return out;
}

} // namespace inspector
