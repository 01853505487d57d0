// The dataflow graph of a function's IR text: one node per op, an edge from
// the op defining an SSA value to each op using it. Parsed from the printed
// IR (SSA def/use, `%x = op %a, %b`), turned into Graphviz DOT by a pure
// function, and laid out by Graphviz's dot (or, past a size Graphviz takes
// too long on, by a simple layered layout).
#pragma once

#include <QPointF>
#include <QSizeF>
#include <QString>
#include <QVector>

namespace inspector {

struct GraphNode {
    QString op;      // "ascendc.add"
    QString results; // "%3" or "%a, %b"
    QString text;    // the whole line
    int irLine = 0;  // 0-based line in the IR text
    int depth = 0;   // region nesting
    /// Width the view needs for the label in its font, in points (0: let
    /// the layout guess); set by the view before laying out.
    double labelWidth = 0;
    /// The label drawn in the node: "%3 = ascendc.add", or the op alone.
    QString label() const;
};

struct GraphEdge {
    int from = 0, to = 0;
    QString value; // the SSA name carried
};

struct DataflowGraph {
    QVector<GraphNode> nodes;
    QVector<GraphEdge> edges;
    /// Parses the ops of @p ir (all functions). Region-defining ops (scf.for)
    /// define their block arguments; function arguments become source nodes.
    static DataflowGraph parse(const QString &ir);
    /// The dataflow of tiles alone: the copies, the compute ops and the
    /// arguments they read or write, without the allocations, constants,
    /// index arithmetic, loops and block queries that bury them (edges only
    /// between the ops kept). @p kept: for each op kept, its index here.
    DataflowGraph tilesOnly(QVector<int> *kept = nullptr) const;
    /// Whether @p op is an op on tiles (kept by tilesOnly()).
    static bool isTileOp(const QString &op);
};

struct DotOptions {
    /// Edges out of a source node (no operands: an argument, a constant) with
    /// more uses than this stay out of the DOT text (-1: none do), and such
    /// hubs get the top rank to themselves. A function argument feeding
    /// hundreds of ops costs dot most of its time; the view draws those edges
    /// from the positions anyway.
    int hubFanOut = -1;
    /// Fewer network-simplex passes (nslimit, nslimit1 = 1): near the same
    /// picture in a fraction of the time on graphs of hundreds of ops.
    bool fast = false;
};
/// From this many ops on, layoutGraph() lays out with hubs left out and fast
/// network simplex (bench/gui_graph.cpp: a 1,000-op graph took 13 s in dot,
/// 0.5 s so).
constexpr int kDotFastFrom = 300;
constexpr int kDotHubFanOut = 8;

/// DOT text: `digraph dataflow { ... n0 [label="..."]; n0 -> n1; }`.
QString toDot(const DataflowGraph &graph, const DotOptions &options = DotOptions());

struct GraphLayout {
    QVector<QPointF> centers; // per node, top-left origin, points
    QVector<QSizeF> sizes;
    QSizeF bounds;
    QString engine; // "dot" or "layered"
    QString error;
};
/// Lays @p graph out with Graphviz dot when it has at most @p graphvizLimit
/// nodes, else with the built-in layered layout. Thread-safe: no Qt GUI.
GraphLayout layoutGraph(const DataflowGraph &graph, int graphvizLimit = 1500);

} // namespace inspector
