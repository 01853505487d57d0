// Graph: the dataflow graph of the selected pass's IR, laid out off the GUI
// thread (Graphviz dot) and drawn in a QGraphicsView. Zoomed out, nodes drop
// their labels (level of detail) so graphs of 10,000 ops stay responsive.
#pragma once

#include "DataflowGraph.h"
#include "Theme.h"

#include "asc2/Arch/Pipe.h"

#include <QGraphicsView>

class InspectorState;
class QGraphicsScene;

class GraphView : public QGraphicsView
{
    Q_OBJECT
public:
    explicit GraphView(QWidget *parent = nullptr);
    ~GraphView() override;

    /// Parses @p ir and lays it out in the background; @p irLines maps IR
    /// lines to source lines (PassRecord::irLines), @p irPipes to the pipe
    /// of their op (PassRecord::irPipes), which colours its node.
    void setIr(const QString &ir, const QVector<int> &irLines = {}, const QVector<asc2::Pipe> &irPipes = {});
    /// Blocks until the pending layout is shown (tests, screenshots).
    bool waitForLayout(int timeoutMs = 30000);
    const inspector::DataflowGraph &graph() const { return m_graph; }
    const inspector::GraphLayout &graphLayout() const { return m_layout; }
    bool isLayingOut() const { return m_pending; }
    /// Graphs with more ops than this get the layered layout instead of
    /// Graphviz dot (which needs minutes past a few thousand ops).
    void setGraphvizLimit(int ops) { m_graphvizLimit = ops; }
    int graphvizLimit() const { return m_graphvizLimit; }
    void setState(InspectorState *state);
    void setTheme(const Theme &theme);
    /// On open: the whole graph when its labels stay readable, else readable
    /// labels from the top (scroll for the rest).
    void fit();
    /// What the graph is of ("IR after pass 12: ascendc-insert-sync").
    void setCaption(const QString &caption);
    QString caption() const { return m_caption; }
    /// The whole graph, however small (Fit, double-click).
    void fitAll();
    /// The dataflow of tiles alone (DataflowGraph::tilesOnly), or every op.
    void setTilesOnly(bool on);
    bool tilesOnly() const { return m_tilesOnly; }
    /// Node whose source line is @p line gets selected and centred.
    void showSourceLine(int line);
    bool exportTo(const QString &path, QString *error = nullptr);
    /// Whether the far-out picture stands in for the items (graphs of more
    /// than kOverviewNodes ops, zoomed out below kOverviewLod).
    bool showsOverview() const { return m_overviewShown; }
    static constexpr int kOverviewNodes = 1500;
    static constexpr double kOverviewLod = 0.15;

signals:
    void layoutReady();
    void captionChanged(const QString &caption);
    void sourceLineActivated(int line);

protected:
    void wheelEvent(QWheelEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void drawBackground(QPainter *painter, const QRectF &rect) override;
    void paintEvent(QPaintEvent *event) override;

private:
    void relayout();
    void showLayout(int generation, const inspector::GraphLayout &layout);
    void updateLevelOfDetail();

    QGraphicsScene *m_scene;
    class QGraphicsItem *m_detail = nullptr;   // parent of the nodes and edges
    class QGraphicsItem *m_overview = nullptr; // the far-out picture
    bool m_overviewShown = false;
    inspector::DataflowGraph m_fullGraph; // every op of the IR
    inspector::DataflowGraph m_graph;     // what is shown (all, or tiles only)
    bool m_tilesOnly = false;
    QString m_caption;
    inspector::GraphLayout m_layout;
    QVector<int> m_irLines;
    QVector<asc2::Pipe> m_irPipes;
    int m_generation = 0;
    int m_graphvizLimit = 1500;
    bool m_pending = false;
    Theme m_theme;
    InspectorState *m_state = nullptr;
    QList<class QThread *> m_threads;
};
