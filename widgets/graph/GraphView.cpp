#include "GraphView.h"

#include "InspectorCanvas.h"
#include "InspectorData.h"
#include "InspectorState.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPointer>
#include <QStyleOptionGraphicsItem>
#include <QStaticText>
#include <QSvgGenerator>
#include <QThread>
#include <QCoreApplication>
#include <QScopeGuard>
#include <QWheelEvent>

using namespace inspector;

namespace {
constexpr double kReadableScale = 0.9;

class NodeItem : public QGraphicsItem
{
public:
    NodeItem(int index, const GraphNode &node, const QSizeF &size, int sourceLine, Pipe pipe)
        : m_index(index), m_label(node.results.isEmpty() ? node.op : node.results + QStringLiteral(" = ") + node.op),
          m_rect(-size.width() / 2, -size.height() / 2, size.width(), size.height()), m_sourceLine(sourceLine)
    {
        m_color = node.op == QLatin1String("arg") ? QColor(0xb0, 0xb0, 0xb0) : pipeColor(pipe).lighter(150);
        setToolTip(node.text.left(240) + (sourceLine > 0 ? QStringLiteral("\nline %1").arg(sourceLine) : QString()));
        setFlag(ItemIsSelectable);
    }
    QRectF boundingRect() const override { return m_rect.adjusted(-2, -2, 2, 2); }
    void paint(QPainter *p, const QStyleOptionGraphicsItem *option, QWidget *) override
    {
        const qreal lod = option->levelOfDetailFromTransform(p->worldTransform());
        if (lod < 0.15) { // far out: a filled box, no outline or text
            p->fillRect(m_rect, m_color);
            return;
        }
        p->setPen(QPen(isSelected() ? Qt::black : m_color.darker(160), isSelected() ? 2.5 : 1));
        p->setBrush(m_color);
        p->drawRoundedRect(m_rect, 4, 4);
        if (lod >= 0.45) {
            // Laid out once, not per frame: panning past hundreds of labels stays cheap.
            if (m_text.text().isEmpty()) {
                m_text.setText(m_label);
                m_text.setTextFormat(Qt::PlainText);
                m_text.prepare(QTransform(), p->font());
            }
            const QSizeF t = m_text.size();
            p->setPen(Qt::black);
            p->save();
            p->setClipRect(m_rect);
            p->drawStaticText(QPointF(m_rect.center().x() - t.width() / 2, m_rect.center().y() - t.height() / 2), m_text);
            p->restore();
        }
    }
    int sourceLine() const { return m_sourceLine; }

private:
    int m_index;
    QString m_label;
    QStaticText m_text;
    QRectF m_rect;
    QColor m_color;
    int m_sourceLine;
};

// All edges in one item: thousands of path items would dominate the scene index.
class EdgesItem : public QGraphicsItem
{
public:
    /// @p fromHub: the edge leaves a node with many uses (a GM pointer argument).
    EdgesItem(QVector<QLineF> lines, QVector<bool> fromHub, const QRectF &bounds)
        : m_lines(std::move(lines)), m_fromHub(std::move(fromHub)), m_bounds(bounds)
    {
        // option->exposedRect is the visible part (else the whole graph's rect).
        setFlag(ItemUsesExtendedStyleOption);
    }
    QRectF boundingRect() const override { return m_bounds; }
    void paint(QPainter *p, const QStyleOptionGraphicsItem *option, QWidget *) override
    {
        const qreal lod = option->levelOfDetailFromTransform(p->worldTransform());
        // One drawLines and one fillPath per frame: the raster engine's cost
        // is per call, and a screen can cross thousands of edges.
        const QRectF visible = option->exposedRect;
        QVector<QLineF> lines;
        QPainterPath heads;
        for (int i = 0; i < m_lines.size(); ++i) {
            const QLineF &l = m_lines[i];
            if (!visible.intersects(QRectF(l.p1(), l.p2()).normalized().adjusted(-1, -1, 1, 1)))
                continue;
            // A hub's fan of edges only where one of its ends is in view: the
            // rest is hundreds of lines through the screen that say nothing.
            if (m_fromHub.value(i) && !visible.contains(l.p1()) && !visible.contains(l.p2()))
                continue;
            lines.push_back(l);
            if (lod >= 0.45 && visible.contains(l.p2())) {
                const QPointF dir = (l.p2() - l.p1()) / std::max(1.0, l.length());
                const QPointF n(-dir.y(), dir.x());
                heads.addPolygon(QPolygonF{l.p2(), l.p2() - dir * 7 + n * 3, l.p2() - dir * 7 - n * 3, l.p2()});
            }
        }
        // Opaque: a translucent pen takes the raster engine's blending path,
        // several times slower over thousands of edges.
        p->setPen(QPen(lod < 0.15 ? QColor(190, 190, 190) : QColor(135, 135, 135), 0));
        p->drawLines(lines);
        if (!heads.isEmpty())
            p->fillPath(heads, QColor(120, 120, 120));
    }

private:
    QVector<QLineF> m_lines;
    QVector<bool> m_fromHub;
    QRectF m_bounds;
};

// The nodes and edges: one parent, so the far-out picture swaps them all at once.
class DetailItem : public QGraphicsItem
{
public:
    DetailItem() { setFlag(ItemHasNoContents); }
    QRectF boundingRect() const override { return {}; }
    void paint(QPainter *, const QStyleOptionGraphicsItem *, QWidget *) override {}
};

// Far out, a picture of the whole graph stands in for its thousands of items.
class OverviewItem : public QGraphicsItem
{
public:
    OverviewItem(QImage image, const QRectF &bounds) : m_image(std::move(image)), m_bounds(bounds) {}
    QRectF boundingRect() const override { return m_bounds; }
    void paint(QPainter *p, const QStyleOptionGraphicsItem *, QWidget *) override
    {
        p->setRenderHint(QPainter::SmoothPixmapTransform);
        p->drawImage(m_bounds, m_image);
    }

private:
    QImage m_image;
    QRectF m_bounds;
};
} // namespace

GraphView::GraphView(QWidget *parent)
    : QGraphicsView(parent)
    , m_scene(new QGraphicsScene(this))
    , m_theme(Theme::light())
{
    setObjectName(QStringLiteral("graph"));
    setScene(m_scene);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setOptimizationFlags(QGraphicsView::DontSavePainterState | QGraphicsView::DontAdjustForAntialiasing);
    setRenderHint(QPainter::Antialiasing, false);
    setRenderHint(QPainter::TextAntialiasing);
}

GraphView::~GraphView()
{
    for (QThread *t : m_threads)
        t->wait();
}

void GraphView::setState(InspectorState *state)
{
    m_state = state;
    if (state)
        connect(state, &InspectorState::sourceLineChanged, this, &GraphView::showSourceLine);
}

void GraphView::setTheme(const Theme &theme)
{
    m_theme = theme;
    setBackgroundBrush(theme.background);
}

void GraphView::setIr(const QString &ir, const QVector<int> &irLines, const QVector<Pipe> &irPipes)
{
    m_irLines = irLines;
    m_irPipes = irPipes;
    m_fullGraph = DataflowGraph::parse(ir);
    relayout();
}

void GraphView::setCaption(const QString &caption)
{
    m_caption = caption;
    emit captionChanged(caption);
}

void GraphView::setTilesOnly(bool on)
{
    if (on == m_tilesOnly)
        return;
    m_tilesOnly = on;
    relayout();
}

void GraphView::relayout()
{
    const int generation = ++m_generation;
    m_graph = m_tilesOnly ? m_fullGraph.tilesOnly() : m_fullGraph;
    // Nodes as wide as their labels in the font they are drawn in.
    const QFontMetricsF fm(m_scene->font());
    for (GraphNode &n : m_graph.nodes)
        n.labelWidth = fm.horizontalAdvance(n.label()) + 14;
    m_pending = true;
    const DataflowGraph graph = m_graph;
    const int limit = m_graphvizLimit;
    QPointer<GraphView> self(this);
    QThread *thread = QThread::create([self, graph, generation, limit] {
        GraphLayout layout = layoutGraph(graph, limit);
        if (self)
            QMetaObject::invokeMethod(self, [self, generation, layout] {
                if (self)
                    self->showLayout(generation, layout);
            }, Qt::QueuedConnection);
    });
    m_threads << thread;
    connect(thread, &QThread::finished, this, [this, thread] {
        m_threads.removeAll(thread);
        thread->deleteLater();
    });
    thread->start();
}

void GraphView::showLayout(int generation, const GraphLayout &layout)
{
    if (generation != m_generation)
        return; // a newer IR is on its way
    m_pending = false;
    m_layout = layout;
    m_scene->clear();
    m_detail = nullptr;
    m_overview = nullptr;
    QVector<QLineF> lines;
    QVector<bool> fromHub;
    lines.reserve(m_graph.edges.size());
    QVector<int> uses(m_graph.nodes.size(), 0);
    for (const GraphEdge &e : m_graph.edges)
        if (e.from < uses.size())
            ++uses[e.from];
    for (const GraphEdge &e : m_graph.edges) {
        if (e.from >= layout.centers.size() || e.to >= layout.centers.size())
            continue;
        const QPointF a = layout.centers[e.from] + QPointF(0, layout.sizes[e.from].height() / 2);
        const QPointF b = layout.centers[e.to] - QPointF(0, layout.sizes[e.to].height() / 2);
        lines.push_back(QLineF(a, b));
        fromHub.push_back(uses[e.from] > kDotHubFanOut);
    }
    const QRectF bounds(QPointF(0, 0), layout.bounds);
    m_detail = new DetailItem;
    m_scene->addItem(m_detail);
    (new EdgesItem(lines, fromHub, bounds.adjusted(-20, -20, 20, 20)))->setParentItem(m_detail);
    for (int i = 0; i < m_graph.nodes.size() && i < layout.centers.size(); ++i) {
        const int irLine = m_graph.nodes[i].irLine;
        auto *item = new NodeItem(i, m_graph.nodes[i], layout.sizes[i], irLine < m_irLines.size() ? m_irLines[irLine] : 0,
                                  irLine < m_irPipes.size() ? m_irPipes[irLine] : Pipe::S);
        item->setPos(layout.centers[i]);
        item->setParentItem(m_detail);
    }
    m_scene->setSceneRect(bounds.adjusted(-20, -20, 20, 20));
    m_overview = nullptr;
    m_overviewShown = false;
    if (m_graph.nodes.size() > kOverviewNodes) {
        // Drawn once at the scale where the items would turn into plain boxes.
        const QRectF area = m_scene->sceneRect();
        const double scale = std::min({kOverviewLod, 4096 / area.width(), 4096 / area.height()});
        QImage image((area.size() * scale).toSize().expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter p(&image);
        m_scene->render(&p, QRectF(QPointF(0, 0), image.size()), area);
        p.end();
        auto *overview = new OverviewItem(image, area);
        overview->setVisible(false);
        m_scene->addItem(overview);
        m_overview = overview;
    }
    fit();
    emit layoutReady();
}

void GraphView::updateLevelOfDetail()
{
    if (!m_overview || !m_detail)
        return;
    const bool far = transform().m11() < kOverviewLod;
    if (far == m_overviewShown)
        return;
    m_overviewShown = far;
    m_overview->setVisible(far);
    m_detail->setVisible(!far);
}

void GraphView::paintEvent(QPaintEvent *event)
{
    updateLevelOfDetail();
    QGraphicsView::paintEvent(event);
}

bool GraphView::waitForLayout(int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (m_pending && timer.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    return !m_pending;
}

void GraphView::fit()
{
    if (m_scene->items().isEmpty())
        return;
    fitInView(m_scene->sceneRect(), Qt::KeepAspectRatio);
    // Too small to read (labels under ~11 px): readable labels first,
    // starting at the top; scroll for the rest, or Fit for the whole.
    if (transform().m11() < kReadableScale) {
        resetTransform();
        scale(kReadableScale, kReadableScale);
        const QRectF r = m_scene->sceneRect();
        centerOn(r.center().x(), r.top() + viewport()->height() / (2 * kReadableScale));
    } else if (transform().m11() > 1.5) {
        resetTransform(); // a few ops: their size, not blown up
        scale(1.5, 1.5);
        centerOn(m_scene->sceneRect().center());
    }
}

void GraphView::fitAll()
{
    if (!m_scene->items().isEmpty())
        fitInView(m_scene->sceneRect(), Qt::KeepAspectRatio);
}

void GraphView::mouseDoubleClickEvent(QMouseEvent *event)
{
    fitAll();
    event->accept();
}

void GraphView::showSourceLine(int line)
{
    if (line <= 0)
        return;
    m_scene->clearSelection();
    QGraphicsItem *first = nullptr;
    for (QGraphicsItem *item : m_scene->items()) {
        auto *node = dynamic_cast<NodeItem *>(item);
        if (node && node->sourceLine() == line) {
            node->setSelected(true);
            if (!first || node->pos().y() < first->pos().y())
                first = node;
        }
    }
    if (first)
        ensureVisible(first);
}

void GraphView::wheelEvent(QWheelEvent *event)
{
    const double factor = std::pow(1.0015, event->angleDelta().y());
    scale(factor, factor);
    event->accept();
}

void GraphView::mouseReleaseEvent(QMouseEvent *event)
{
    QGraphicsView::mouseReleaseEvent(event);
    if (auto *node = dynamic_cast<NodeItem *>(itemAt(event->pos()))) {
        if (node->sourceLine() > 0) {
            emit sourceLineActivated(node->sourceLine());
            if (m_state)
                m_state->selectSourceLine(node->sourceLine());
        }
    }
}

void GraphView::drawBackground(QPainter *painter, const QRectF &rect)
{
    painter->fillRect(rect, m_theme.background);
    if (m_graph.nodes.isEmpty()) {
        painter->setPen(m_theme.marginText);
        painter->drawText(mapToScene(viewport()->rect()).boundingRect(), Qt::AlignCenter,
                          m_pending                   ? tr("Laying out...")
                          : m_fullGraph.nodes.isEmpty() ? tr("Graph: select a pass with IR")
                                                        : tr("No ops on tiles in this pass's IR: untick \"Tiles only\""));
    }
}

bool GraphView::exportTo(const QString &path, QString *error)
{
    // Exports draw the items themselves, not the far-out picture.
    const bool overview = m_overviewShown;
    if (overview) {
        m_overview->setVisible(false);
        m_detail->setVisible(true);
    }
    const auto restore = qScopeGuard([&] {
        if (overview) {
            m_overview->setVisible(true);
            m_detail->setVisible(false);
        }
    });
    const QRectF source = m_scene->sceneRect();
    QSize size = source.size().toSize();
    if (size.width() > 4000)
        size.scale(4000, 4000 * 8, Qt::KeepAspectRatio);
    if (size.isEmpty())
        size = QSize(800, 600);
    if (QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        QPainter p(&svg);
        p.fillRect(QRect(QPoint(0, 0), size), m_theme.background);
        m_scene->render(&p, QRectF(QPointF(0, 0), size), source);
        return true;
    }
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(m_theme.background);
    {
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        m_scene->render(&p, QRectF(QPointF(0, 0), size), source);
    }
    if (!image.save(path)) {
        if (error)
            *error = tr("cannot write %1").arg(path);
        return false;
    }
    return true;
}
