#include "GraphView.h"

#include "InspectorCanvas.h"
#include "InspectorData.h"
#include "InspectorState.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QMouseEvent>
#include <QPainter>
#include <QPointer>
#include <QStyleOptionGraphicsItem>
#include <QSvgGenerator>
#include <QThread>
#include <QCoreApplication>
#include <QWheelEvent>

using namespace inspector;

namespace {
class NodeItem : public QGraphicsItem
{
public:
    NodeItem(int index, const GraphNode &node, const QSizeF &size, int sourceLine)
        : m_index(index), m_label(node.results.isEmpty() ? node.op : node.results + QStringLiteral(" = ") + node.op),
          m_rect(-size.width() / 2, -size.height() / 2, size.width(), size.height()), m_sourceLine(sourceLine)
    {
        m_color = node.op == QLatin1String("arg") ? QColor(0xb0, 0xb0, 0xb0) : pipeColor(pipeOfOp(node.text)).lighter(150);
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
            p->setPen(Qt::black);
            p->drawText(m_rect, Qt::AlignCenter, m_label);
        }
    }
    int sourceLine() const { return m_sourceLine; }

private:
    int m_index;
    QString m_label;
    QRectF m_rect;
    QColor m_color;
    int m_sourceLine;
};

// All edges in one item: thousands of path items would dominate the scene index.
class EdgesItem : public QGraphicsItem
{
public:
    EdgesItem(QVector<QLineF> lines, const QRectF &bounds) : m_lines(std::move(lines)), m_bounds(bounds) {}
    QRectF boundingRect() const override { return m_bounds; }
    void paint(QPainter *p, const QStyleOptionGraphicsItem *option, QWidget *) override
    {
        const qreal lod = option->levelOfDetailFromTransform(p->worldTransform());
        p->setPen(QPen(QColor(120, 120, 120, lod < 0.15 ? 90 : 200), 0));
        const QRectF visible = option->exposedRect;
        for (const QLineF &l : m_lines) {
            if (!visible.intersects(QRectF(l.p1(), l.p2()).normalized().adjusted(-1, -1, 1, 1)))
                continue;
            p->drawLine(l);
            if (lod >= 0.45) {
                const QPointF dir = (l.p2() - l.p1()) / std::max(1.0, l.length());
                const QPointF n(-dir.y(), dir.x());
                QPolygonF head;
                head << l.p2() << l.p2() - dir * 7 + n * 3 << l.p2() - dir * 7 - n * 3;
                p->setBrush(QColor(120, 120, 120));
                p->drawPolygon(head);
            }
        }
    }

private:
    QVector<QLineF> m_lines;
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

void GraphView::setIr(const QString &ir, const QVector<int> &irLines)
{
    const int generation = ++m_generation;
    m_irLines = irLines;
    m_graph = DataflowGraph::parse(ir);
    m_pending = true;
    const DataflowGraph graph = m_graph;
    QPointer<GraphView> self(this);
    QThread *thread = QThread::create([self, graph, generation] {
        GraphLayout layout = layoutGraph(graph);
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
    QVector<QLineF> lines;
    lines.reserve(m_graph.edges.size());
    for (const GraphEdge &e : m_graph.edges) {
        if (e.from >= layout.centers.size() || e.to >= layout.centers.size())
            continue;
        const QPointF a = layout.centers[e.from] + QPointF(0, layout.sizes[e.from].height() / 2);
        const QPointF b = layout.centers[e.to] - QPointF(0, layout.sizes[e.to].height() / 2);
        lines.push_back(QLineF(a, b));
    }
    const QRectF bounds(QPointF(0, 0), layout.bounds);
    m_scene->addItem(new EdgesItem(lines, bounds.adjusted(-20, -20, 20, 20)));
    for (int i = 0; i < m_graph.nodes.size() && i < layout.centers.size(); ++i) {
        const int irLine = m_graph.nodes[i].irLine;
        auto *item = new NodeItem(i, m_graph.nodes[i], layout.sizes[i], irLine < m_irLines.size() ? m_irLines[irLine] : 0);
        item->setPos(layout.centers[i]);
        m_scene->addItem(item);
    }
    m_scene->setSceneRect(bounds.adjusted(-20, -20, 20, 20));
    fit();
    emit layoutReady();
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
    // Too small to read: readable labels first, starting at the top; scroll for the rest.
    if (transform().m11() < 0.5) {
        resetTransform();
        scale(0.6, 0.6);
        const QRectF r = m_scene->sceneRect();
        centerOn(r.center().x(), r.top() + viewport()->height() / 1.2);
    }
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
                          m_pending ? tr("Laying out...") : tr("Graph: select a pass with IR"));
    }
}

bool GraphView::exportTo(const QString &path, QString *error)
{
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
