#include "SyncTimelineView.h"

#include "InspectorState.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QPainterPath>
#include <QRegularExpression>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>
#include <optional>

using namespace inspector;

namespace {
QString flagKey(Pipe src, Pipe dst, int id)
{
    return QStringLiteral("%1/%2/%3").arg(int(src)).arg(int(dst)).arg(id);
}

const QColor kStallColor = stallColor();
const QColor kWaitColor(0xf2, 0xc8, 0x1b);

double distanceToSegment(const QPointF &p, const QPointF &a, const QPointF &b)
{
    const QPointF ab = b - a;
    const double len2 = QPointF::dotProduct(ab, ab);
    const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / len2, 0.0, 1.0) : 0.0;
    const QPointF d = p - (a + t * ab);
    return std::hypot(d.x(), d.y());
}
} // namespace

SyncTimelineView::SyncTimelineView(QWidget *parent)
    : InspectorCanvas(parent)
{
    setObjectName(QStringLiteral("syncTimeline"));
    setWindowTitle(tr("Sync timeline"));
}

void SyncTimelineView::setReport(const ReportPtr &report)
{
    m_report = report;
    m_schedule = report ? StaticSchedule::fromReport(*report) : StaticSchedule();
    if (m_state)
        connect(m_state, &InspectorState::pointWindowChanged, this, &SyncTimelineView::followWindow, Qt::UniqueConnection);
    rebuild();
}

void SyncTimelineView::followWindow(double first, double last)
{
    if (m_syncingWindow || m_mode != Mode::Static)
        return;
    if (first < last) {
        m_x.first = first;
        m_x.last = last;
        m_x.clamp();
    } else {
        m_x.reset();
    }
    update();
}

void SyncTimelineView::setTrace(const SimTrace &trace)
{
    m_trace = trace;
    if (m_core >= m_trace.cores.size())
        m_core = 0;
    rebuild();
}

void SyncTimelineView::setMode(Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    rebuild();
}

void SyncTimelineView::setCore(int core)
{
    m_core = std::max(0, core);
    rebuild();
}

void SyncTimelineView::setPipeMask(int mask)
{
    m_pipeMask = mask;
    update();
}

void SyncTimelineView::setEventFilter(int eventId)
{
    m_eventFilter = eventId;
    update();
}

void SyncTimelineView::onWindowChanged()
{
    if (!m_state || m_mode != Mode::Static)
        return;
    m_syncingWindow = true;
    if (m_x.isZoomed())
        m_state->setPointWindow(m_x.first, m_x.last);
    else
        m_state->setPointWindow(0, 0);
    m_syncingWindow = false;
}

void SyncTimelineView::rebuild()
{
    for (QVector<Item> &lane : m_lanes)
        lane.clear();
    for (QVector<Stall> &lane : m_stalls)
        lane.clear();
    std::fill(std::begin(m_maxDuration), std::end(m_maxDuration), 0.0);
    m_arrows.clear();
    m_coreEvents.clear();
    if (m_mode == Mode::Static) {
        for (const StaticOp &op : m_schedule.ops) {
            Item item;
            item.start = op.point + 0.08;
            item.end = op.point + 0.92;
            item.kind = int(op.kind);
            item.source = op.point;
            item.line = op.line;
            item.eventId = op.eventId;
            m_lanes[int(op.pipe)].push_back(item);
        }
        for (const SyncEdge &e : m_schedule.edges)
            m_arrows.push_back({e.setPoint + 0.92, e.waitPoint + 0.08, e.src, e.dst, e.eventId, e.reason, e.wraps});
        for (const StaticStall &st : m_schedule.stalls) {
            const SyncEdge &e = m_schedule.edges[st.edge];
            Stall stall;
            // From the end of the pipe's last op (or the start of the op waited
            // for) to the start of the wait box (or the end of a carried set).
            stall.start = st.from + (st.lastOwn + 1 == int(st.from) ? -0.08 : 0.08);
            stall.end = st.to + (e.wraps ? -0.08 : 0.08);
            stall.pipe = st.pipe;
            stall.src = e.src;
            stall.eventId = e.eventId;
            stall.reason = e.reason;
            stall.role = roleLabel(m_schedule.ops[e.waitPoint].role);
            stall.setPoint = e.setPoint;
            stall.waitPoint = e.waitPoint;
            stall.producer = st.producer;
            stall.producerText = m_schedule.ops[st.producer].name;
            stall.wraps = e.wraps;
            stall.line = m_schedule.ops[e.waitPoint].line;
            m_stalls[int(st.pipe)].push_back(stall);
        }
        m_x.setExtent(0, std::max<double>(1, m_schedule.ops.size()));
        if (m_state && m_state->pointFirst() < m_state->pointLast()) {
            m_x.first = m_state->pointFirst();
            m_x.last = m_state->pointLast();
            m_x.clamp();
        }
        std::fill(std::begin(m_maxDuration), std::end(m_maxDuration), 1.0);
    } else {
        m_coreEvents = m_trace.eventsOfCore(m_core);
        // Reasons of the static flags, to explain simulated arrows.
        QHash<QString, QString> reasons;
        for (const StaticOp &op : m_schedule.ops)
            if (op.kind == StaticOp::Kind::SetFlag)
                reasons.insert(flagKey(op.srcPipe, op.dstPipe, op.eventId), op.reason);
        for (int i = 0; i < m_coreEvents.size(); ++i) {
            const TraceEvent &e = m_coreEvents[i];
            Item item;
            item.start = e.start;
            item.end = e.end();
            item.kind = int(e.kind);
            item.source = i;
            item.line = e.line;
            item.eventId = item.kind == 1 || item.kind == 2 ? e.flagId : -1;
            item.stall = item.kind == 2 ? e.duration : 0;
            m_lanes[int(e.pipe)].push_back(item);
            m_maxDuration[int(e.pipe)] = std::max(m_maxDuration[int(e.pipe)], e.duration);
        }
        for (int i : m_trace.stalls) {
            const TraceEvent &e = m_trace.events[i];
            if (e.core != m_core)
                continue;
            Stall stall;
            stall.start = e.start;
            stall.end = e.end();
            stall.pipe = e.pipe;
            stall.eventId = e.flagId;
            stall.line = e.line;
            stall.srcKnown = e.flagPipes.has_value();
            if (stall.srcKnown) {
                stall.src = e.flagPipes->first;
                stall.reason = reasons.value(flagKey(e.flagPipes->first, e.flagPipes->second, e.flagId));
            }
            m_stalls[int(e.pipe)].push_back(stall);
        }
        for (const TraceFlow &f : m_trace.flowsOfCore(m_core)) {
            Arrow a{f.srcTime, f.dstTime, f.src, f.dst, -1, QString(), false};
            // The set_flag that ends where the flow starts carries the id.
            const QVector<Item> &lane = m_lanes[int(f.src)];
            auto it = std::lower_bound(lane.cbegin(), lane.cend(), f.srcTime + 1e-9,
                                       [](const Item &item, double t) { return item.start < t; });
            while (it != lane.cbegin()) {
                --it;
                if (it->kind == 1) {
                    a.eventId = it->eventId;
                    break;
                }
            }
            a.reason = reasons.value(flagKey(a.src, a.dst, a.eventId));
            m_arrows.push_back(a);
        }
        m_x.setExtent(0, std::max(1e-3, m_trace.endTime));
    }
    updateAxisPixels(width());
    emit contentChanged();
    update();
}

bool SyncTimelineView::hasContent() const
{
    return itemCount() > 0;
}

int SyncTimelineView::itemCount() const
{
    int n = 0;
    for (const QVector<Item> &lane : m_lanes)
        n += int(lane.size());
    return n;
}

double SyncTimelineView::stallTime(Pipe pipe) const
{
    double total = 0;
    for (const Stall &stall : m_stalls[int(pipe)])
        total += stall.end - stall.start;
    return total;
}

int SyncTimelineView::stallCount() const
{
    int n = 0;
    for (const QVector<Stall> &lane : m_stalls)
        n += int(lane.size());
    return n;
}

QVector<Pipe> SyncTimelineView::visibleLanes() const
{
    QVector<Pipe> out;
    for (Pipe pipe : asc2::kPipeLaneOrder)
        if ((m_pipeMask & (1 << int(pipe))) && !m_lanes[int(pipe)].isEmpty())
            out.push_back(pipe);
    return out;
}

LaneLayout SyncTimelineView::laneLayout(const QSize &size) const
{
    LaneLayout l;
    l.top = 24;
    l.count = int(visibleLanes().size());
    l.headerWidth = plotLeft();
    const double available = size.height() - l.top - 34 - legendSpace(size.width());
    l.gap = 10;
    l.laneHeight = l.count ? std::clamp(available / l.count - l.gap, 14.0, 80.0) : 24;
    return l;
}

void SyncTimelineView::paintCanvas(QPainter &p, const QSize &size)
{
    updateAxisPixels(size.width());
    if (!hasContent()) {
        drawEmpty(p, size, m_mode == Mode::Static ? tr("Sync timeline: compile a kernel")
                           : m_trace.error.isEmpty() ? tr("No simulated trace: run the kernel (F5)")
                                                     : tr("Trace not readable: %1").arg(m_trace.error));
        return;
    }
    const QVector<Pipe> lanes = visibleLanes();
    const LaneLayout layout = laneLayout(size);
    const QFontMetrics fm(p.font());
    const int selectedLine = m_state ? m_state->sourceLine() : 0;
    const int selectedPoint = m_state ? m_state->point() : -1;
    const int selectedPipe = m_state ? m_state->pipe() : -1;

    p.setPen(m_theme.text);
    const QString title = this->title();
    p.drawText(QPointF(8, 15), title);

    QHash<int, int> laneRow;
    for (int row = 0; row < lanes.size(); ++row)
        laneRow.insert(int(lanes[row]), row);
    const double w = size.width();
    for (int row = 0; row < lanes.size(); ++row) {
        const Pipe pipe = lanes[row];
        const QRectF lane = layout.laneRect(row, w - 12);
        p.setPen(Qt::NoPen);
        p.setBrush(row % 2 ? m_theme.background : m_theme.margin);
        p.drawRect(lane);
        p.setPen(int(pipe) == selectedPipe ? m_theme.error : m_theme.text);
        QString header = pipeLabel(pipe);
        const double stall = stallTime(pipe);
        if (stall > 0 && m_mode == Mode::Simulated)
            header += QStringLiteral("\nwaits %1").arg(stall < 1 ? QStringLiteral("%1 ns").arg(stall * 1000, 0, 'f', 0)
                                                                 : QStringLiteral("%1 \u00b5s").arg(stall, 0, 'f', 2));
        else if (stall > 0)
            header += m_stalls[int(pipe)].size() == 1 ? tr("\n1 stall") : tr("\n%1 stalls").arg(m_stalls[int(pipe)].size());
        p.drawText(QRectF(4, lane.top(), plotLeft() - 8, lane.height()), Qt::AlignVCenter | Qt::AlignLeft, header);

        const QColor color = pipeColor(pipe);
        p.save();
        p.setClipRect(lane);
        if (m_mode == Mode::Static) {
            // Idle gaps before waits: hatched red, under the ops.
            for (const Stall &st : m_stalls[int(pipe)]) {
                if (st.end < m_x.first || st.start > m_x.last)
                    continue;
                const bool dim = m_eventFilter >= 0 && st.eventId != m_eventFilter;
                const double x0 = m_x.toPixel(st.start), x1 = std::max(m_x.toPixel(st.end), x0 + 2);
                const QRectF r(QPointF(x0, lane.top() + 5), QPointF(x1, lane.bottom() - 5));
                QColor fill = kStallColor;
                fill.setAlpha(dim ? 20 : 45);
                p.setPen(Qt::NoPen);
                p.setBrush(fill);
                p.drawRect(r);
                p.setBrush(QBrush(dim ? m_theme.edge : kStallColor, Qt::BDiagPattern));
                p.setPen(QPen(dim ? m_theme.edge : kStallColor, 1, Qt::DashLine));
                p.drawRect(r);
            }
        }
        const QVector<Item> &items = m_lanes[int(pipe)];
        auto it = std::lower_bound(items.cbegin(), items.cend(), m_x.first - m_maxDuration[int(pipe)],
                                   [](const Item &item, double t) { return item.start < t; });
        // Level of detail: items thinner than a pixel merge into one column per pixel.
        int lastColumn = INT_MIN;
        for (; it != items.cend() && it->start <= m_x.last; ++it) {
            if (it->end < m_x.first)
                continue;
            const double x0 = m_x.toPixel(it->start), x1 = m_x.toPixel(it->end);
            const bool linked = selectedLine > 0 && it->line == selectedLine;
            if (x1 - x0 < 1.5 && !linked && it->kind == 0) {
                const int column = int(x0);
                if (column == lastColumn)
                    continue;
                lastColumn = column;
                p.setPen(color);
                p.drawLine(QPointF(column + 0.5, lane.top() + 3), QPointF(column + 0.5, lane.bottom() - 3));
                continue;
            }
            QRectF r(QPointF(x0, lane.top() + 3), QPointF(std::max(x1, x0 + 1.5), lane.bottom() - 3));
            switch (it->kind) {
            case 0:
                p.setPen(linked ? QPen(m_theme.text, 2) : QPen(color.darker(130), 0.6));
                p.setBrush(color);
                p.drawRect(r);
                break;
            case 1: { // set_flag: a marker pointing down at its lane
                const bool dim = m_eventFilter >= 0 && it->eventId != m_eventFilter;
                p.setPen(QPen(dim ? m_theme.edge : m_theme.text, linked ? 2 : 1));
                p.setBrush(dim ? m_theme.edge : m_theme.text);
                const double cx = (x0 + std::max(x1, x0 + 1.5)) / 2;
                QPolygonF tri;
                tri << QPointF(cx - 4, lane.top() + 2) << QPointF(cx + 4, lane.top() + 2) << QPointF(cx, lane.top() + 9);
                p.drawPolygon(tri);
                break;
            }
            case 2: { // wait_flag; a long one is a stall
                const bool dim = m_eventFilter >= 0 && it->eventId != m_eventFilter;
                const QColor stall = kStallColor;
                const bool stalls = m_mode == Mode::Simulated && it->stall > 0 && r.width() > 3;
                p.setPen(QPen(linked ? m_theme.text : (stalls ? stall : QColor(0xc9, 0xa2, 0x00)), linked ? 2 : 1));
                p.setBrush(stalls ? QBrush(stall, Qt::BDiagPattern) : QBrush(dim ? m_theme.edge : kWaitColor));
                p.drawRect(r);
                break;
            }
            default:
                p.setPen(QPen(m_theme.text, 2));
                p.drawLine(QPointF(x0, lane.top()), QPointF(x0, lane.bottom()));
                break;
            }
        }
        p.restore();
    }

    // set_flag -> wait_flag arrows between the lanes; an event label that
    // would cover one already drawn moves aside, or is left out (the
    // arrow's tooltip still names the event).
    QVector<QRectF> labelBoxes;
    p.save();
    p.setClipRect(QRectF(plotLeft(), 0, w - 12 - plotLeft(), size.height()));
    for (const Arrow &a : m_arrows) {
        if (!laneRow.contains(int(a.src)) || !laneRow.contains(int(a.dst)))
            continue;
        if (m_eventFilter >= 0 && a.eventId != m_eventFilter)
            continue;
        if (std::max(a.from, a.to) < m_x.first || std::min(a.from, a.to) > m_x.last)
            continue;
        const double y0 = layout.laneCenter(laneRow[int(a.src)]);
        const double y1 = layout.laneCenter(laneRow[int(a.dst)]);
        const QPointF from(m_x.toPixel(a.from), y0), to(m_x.toPixel(a.to), y1);
        QPainterPath path(from);
        if (a.wraps) {
            // The next iteration's wait: loop back above the lanes.
            const double top = layout.top - 6;
            path.cubicTo(QPointF(from.x() + 30, top), QPointF(to.x() - 30, top), to);
        } else {
            const double dx = std::max(12.0, (to.x() - from.x()) / 2);
            path.cubicTo(QPointF(from.x() + dx, y0), QPointF(to.x() - dx, y1), to);
        }
        QColor c = pipeColor(a.dst).darker(140);
        p.setPen(QPen(c, 1.2, a.wraps ? Qt::DashLine : Qt::SolidLine));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        const double angle = path.angleAtPercent(1) * M_PI / 180;
        const QPointF tip = to;
        QPolygonF head;
        head << tip << tip + QPointF(-7 * std::cos(angle) + 3 * std::sin(angle), 7 * std::sin(angle) + 3 * std::cos(angle))
             << tip + QPointF(-7 * std::cos(angle) - 3 * std::sin(angle), 7 * std::sin(angle) - 3 * std::cos(angle));
        p.setBrush(c);
        p.drawPolygon(head);
        if (a.eventId >= 0 && std::abs(to.x() - from.x()) > 26) {
            const QString label = QStringLiteral("e%1").arg(a.eventId);
            const double bw = fm.horizontalAdvance(label) + 6, bh = fm.height();
            const auto boxAt = [&](double t) {
                const QPointF at = path.pointAtPercent(t);
                return QRectF(at.x() - bw / 2, at.y() - bh / 2, bw, bh);
            };
            const auto isFree = [&](const QRectF &box) {
                return std::none_of(labelBoxes.cbegin(), labelBoxes.cend(),
                                    [&](const QRectF &other) { return other.intersects(box); });
            };
            std::optional<QRectF> box;
            for (double t : {0.5, 0.35, 0.65, 0.2, 0.8})
                if (isFree(boxAt(t))) {
                    box = boxAt(t);
                    break;
                }
            if (box) {
                labelBoxes.push_back(*box);
                // The theme's text on its background, framed in the arrow's
                // colour: readable on any lane, hatching or theme.
                p.setPen(QPen(c, 1));
                p.setBrush(m_theme.background);
                p.drawRoundedRect(*box, 3, 3);
                p.setPen(m_theme.text);
                p.drawText(*box, Qt::AlignCenter, label);
            }
        }
    }
    p.restore();

    if (m_mode == Mode::Static && selectedPoint >= 0 && !lanes.isEmpty()) {
        const double x = m_x.toPixel(selectedPoint + 0.5);
        p.setPen(QPen(m_theme.text, 1, Qt::DashDotLine));
        p.drawLine(QPointF(x, layout.top), QPointF(x, layout.bottom()));
    }
    drawTimeAxis(p, size.height() - 28 - legendSpace(size.width()), w,
                 m_mode == Mode::Static ? QString() : QStringLiteral(" \u00b5s"));
    drawLegend(p, size);
}

QString SyncTimelineView::title() const
{
    const QString kernel = m_report ? QString::fromStdString(m_report->kernel) : QString();
    if (m_mode == Mode::Static)
        return tr("%1 \u2014 program order").arg(kernel);
    if (!m_trace.origin.isEmpty()) // an import: not the kernel's prediction
        return tr("%1 \u2014 %2 (%3 \u00b5s)").arg(m_trace.origin, m_trace.cores.value(m_core)).arg(m_trace.endTime, 0, 'f', 3);
    return tr("%1 \u2014 predicted by the simulator, %2 (%3 \u00b5s)")
        .arg(kernel, m_trace.cores.value(m_core))
        .arg(m_trace.endTime, 0, 'f', 3);
}

inspector::Legend SyncTimelineView::legend() const
{
    using Mark = LegendEntry::Mark;
    Legend key;
    if (!hasContent())
        return key;
    const bool simulated = m_mode == Mode::Simulated;
    key.add(Mark::Text, QColor(),
            simulated ? tr("x: time since the kernel started \u2192") : tr("x: program point (ops in order) \u2192"));
    key.add(Mark::Box, pipeColor(Pipe::V), tr("an op on its pipe"));
    key.add(Mark::MarkerDown, m_theme.text, tr("set_flag"));
    key.add(Mark::Box, kWaitColor, tr("wait_flag"));
    key.add(Mark::Hatched, kStallColor,
            simulated ? tr("waiting for the flag (stall)") : tr("idle until a flag is set"));
    key.add(Mark::Arrow, m_theme.marginText, tr("set \u2192 its wait (eN: event id)"));
    key.add(Mark::DashedArrow, m_theme.marginText, tr("to the next iteration's wait"));
    return key;
}

const SyncTimelineView::Item *SyncTimelineView::itemAt(const QPointF &pos, Pipe *pipe) const
{
    const QVector<Pipe> lanes = visibleLanes();
    const LaneLayout layout = laneLayout(size());
    const int row = layout.laneAt(pos.y());
    if (row < 0 || row >= lanes.size() || pos.x() < plotLeft())
        return nullptr;
    const QVector<Item> &items = m_lanes[int(lanes[row])];
    const double t = m_x.toValue(pos.x());
    const double slack = 2 / m_x.scale(); // 2 px
    auto it = std::lower_bound(items.cbegin(), items.cend(), t - m_maxDuration[int(lanes[row])] - slack,
                               [](const Item &item, double v) { return item.start < v; });
    const Item *best = nullptr;
    for (; it != items.cend() && it->start <= t + slack; ++it)
        if (it->end + slack >= t)
            best = &*it; // the last one starting before t
    if (best && pipe)
        *pipe = lanes[row];
    return best;
}

const SyncTimelineView::Arrow *SyncTimelineView::arrowAt(const QPointF &pos) const
{
    const QVector<Pipe> lanes = visibleLanes();
    const LaneLayout layout = laneLayout(size());
    QHash<int, int> laneRow;
    for (int row = 0; row < lanes.size(); ++row)
        laneRow.insert(int(lanes[row]), row);
    const Arrow *best = nullptr;
    double bestDistance = 5;
    for (const Arrow &a : m_arrows) {
        if (!laneRow.contains(int(a.src)) || !laneRow.contains(int(a.dst)) || a.wraps)
            continue;
        if (m_eventFilter >= 0 && a.eventId != m_eventFilter)
            continue;
        const QPointF from(m_x.toPixel(a.from), layout.laneCenter(laneRow[int(a.src)]));
        const QPointF to(m_x.toPixel(a.to), layout.laneCenter(laneRow[int(a.dst)]));
        const double d = distanceToSegment(pos, from, to);
        if (d < bestDistance) {
            bestDistance = d;
            best = &a;
        }
    }
    return best;
}

const SyncTimelineView::Stall *SyncTimelineView::stallAt(const QPointF &pos) const
{
    const QVector<Pipe> lanes = visibleLanes();
    const int row = laneLayout(size()).laneAt(pos.y());
    if (row < 0 || row >= lanes.size() || pos.x() < plotLeft())
        return nullptr;
    const double t = m_x.toValue(pos.x());
    const double slack = 2 / m_x.scale();
    for (const Stall &st : m_stalls[int(lanes[row])])
        if (t >= st.start - slack && t <= st.end + slack && (m_eventFilter < 0 || st.eventId == m_eventFilter))
            return &st;
    return nullptr;
}

QString SyncTimelineView::describeStall(const Stall &st) const
{
    QString text;
    if (m_mode == Mode::Static) {
        text = tr("<b>stall</b>: %1 idle over points %2\u2013%3")
                   .arg(pipeLabel(st.pipe))
                   .arg(st.start, 0, 'f', 0)
                   .arg(st.end, 0, 'f', 0);
        text += tr("<br>wait_flag %1\u2192%2 event %3 at point %4%5 waits for the set_flag at point %6, "
                   "issued after %7 (point %8) on %1")
                    .arg(pipeLabel(st.src), pipeLabel(st.pipe))
                    .arg(st.eventId)
                    .arg(st.waitPoint)
                    .arg(st.wraps ? tr(" (next iteration)") : QString())
                    .arg(st.setPoint)
                    .arg(st.producerText.toHtmlEscaped())
                    .arg(st.producer);
    } else {
        text = tr("<b>stall</b>: %1 waited %2 ns on wait_flag %3%1 event %4")
                   .arg(pipeLabel(st.pipe))
                   .arg((st.end - st.start) * 1000, 0, 'f', 1)
                   .arg(st.srcKnown ? pipeLabel(st.src) + QStringLiteral("\u2192") : QString())
                   .arg(st.eventId);
    }
    if (st.line > 0)
        text += tr("<br>line %1").arg(st.line);
    text += QStringLiteral("<br>%1").arg(st.reason.isEmpty() ? tr("(no reason recorded)") : st.reason.toHtmlEscaped());
    if (!st.role.isEmpty())
        text += tr(" [%1]").arg(st.role.toHtmlEscaped());
    return text;
}

QString SyncTimelineView::describe(const Item &item, Pipe pipe) const
{
    if (m_mode == Mode::Static) {
        const StaticOp &op = m_schedule.ops[item.source];
        QString text = tr("<b>%1</b> \u2014 point %2, pipe %3").arg(op.name.toHtmlEscaped()).arg(op.point).arg(pipeLabel(pipe));
        if (op.line > 0)
            text += tr(", line %1").arg(op.line);
        text += QStringLiteral("<br><tt>%1</tt>").arg(op.text.left(160).toHtmlEscaped());
        if (!op.reason.isEmpty())
            text += tr("<br>%1 %2\u2192%3 event %4 (%5): %6")
                        .arg(op.kind == StaticOp::Kind::SetFlag ? tr("set") : tr("wait"), pipeLabel(op.srcPipe),
                             pipeLabel(op.dstPipe))
                        .arg(op.eventId)
                        .arg(roleLabel(op.role), op.reason.toHtmlEscaped());
        return text;
    }
    const TraceEvent &e = m_coreEvents[item.source];
    QString text = tr("<b>%1</b> on %2 \u2014 %3 \u00b5s at %4 \u00b5s")
                       .arg(e.name.toHtmlEscaped(), pipeLabel(pipe))
                       .arg(e.duration, 0, 'f', 4)
                       .arg(e.start, 0, 'f', 4);
    if (e.line > 0)
        text += tr("<br>line %1").arg(e.line);
    if (!e.detail.isEmpty())
        text += QStringLiteral("<br>%1").arg(e.detail.toHtmlEscaped());
    if (item.kind == 2 && item.stall > 0) {
        for (const Stall &st : m_stalls[int(pipe)])
            if (st.start == item.start)
                return text + QStringLiteral("<br>") + describeStall(st);
        text += tr("<br><b>stall</b>: %1 waited %2 ns for the flag").arg(pipeLabel(pipe)).arg(item.stall * 1000, 0, 'f', 1);
    }
    return text;
}

QString SyncTimelineView::toolTipAt(const QPointF &pos) const
{
    if (const Arrow *a = arrowAt(pos))
        return tr("<b>%1 \u2192 %2, event %3</b><br>%4")
            .arg(pipeLabel(a->src), pipeLabel(a->dst))
            .arg(a->eventId)
            .arg(a->reason.isEmpty() ? tr("(no reason recorded)") : a->reason.toHtmlEscaped());
    Pipe pipe{};
    if (const Item *item = itemAt(pos, &pipe))
        return describe(*item, pipe);
    if (const Stall *st = stallAt(pos))
        return describeStall(*st);
    return {};
}

void SyncTimelineView::activateAt(const QPointF &pos)
{
    updateAxisPixels(width());
    if (!m_state)
        return;
    Pipe pipe{};
    const Item *item = itemAt(pos, &pipe);
    if (!item) {
        const int row = laneLayout(size()).laneAt(pos.y());
        if (pos.x() < plotLeft() && row >= 0 && row < visibleLanes().size())
            m_state->selectPipe(int(visibleLanes()[row]));
        return;
    }
    m_state->selectPipe(int(pipe));
    if (m_mode == Mode::Static)
        m_state->selectPoint(item->source, item->line);
    else if (item->line > 0)
        m_state->selectSourceLine(item->line);
}

// --- panel

SyncTimelinePanel::SyncTimelinePanel(QWidget *parent)
    : QWidget(parent)
    , m_view(new SyncTimelineView(this))
    , m_mode(new QComboBox(this))
    , m_core(new QComboBox(this))
    , m_event(new QComboBox(this))
    , m_pipes(new QToolButton(this))
{
    m_mode->addItem(tr("Program order"));
    m_mode->addItem(tr("Simulated"));
    m_mode->setToolTip(tr("Static: ops in program order; Simulated: the last run's trace"));
    m_core->setToolTip(tr("Core of the simulated trace"));
    m_core->setMinimumContentsLength(6);
    m_core->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_event->setToolTip(tr("Show only the flags of one event id"));
    // Sized to a short entry, not the longest one: the panel's minimum is
    // the minimum of the whole dock area (and so the editor's maximum).
    m_event->setMinimumContentsLength(4); // "all" or an id
    m_event->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_pipes->setText(tr("Pipes"));
    m_pipes->setPopupMode(QToolButton::InstantPopup);
    auto *menu = new QMenu(m_pipes);
    for (Pipe pipe : asc2::kPipeLaneOrder) {
        const int i = int(pipe);
        QAction *a = menu->addAction(pipeLabel(pipe));
        a->setCheckable(true);
        a->setChecked(true);
        connect(a, &QAction::toggled, this, [this, i](bool on) {
            m_view->setPipeMask(on ? m_view->pipeMask() | (1 << i) : m_view->pipeMask() & ~(1 << i));
        });
    }
    m_pipes->setMenu(menu);
    auto *fit = new QToolButton(this);
    fit->setText(tr("Fit"));
    fit->setToolTip(tr("Show everything (or double-click the timeline); wheel zooms, drag pans"));
    connect(fit, &QToolButton::clicked, m_view, &InspectorCanvas::resetZoom);

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(m_mode);
    bar->addWidget(new QLabel(tr("Core:"), this));
    bar->addWidget(m_core);
    bar->addWidget(new QLabel(tr("Event:"), this));
    bar->addWidget(m_event);
    bar->addWidget(m_pipes);
    bar->addWidget(fit);
    bar->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);

    connect(m_mode, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_view->setMode(index == 1 ? SyncTimelineView::Mode::Simulated : SyncTimelineView::Mode::Static);
        m_core->setEnabled(index == 1);
        refreshControls();
    });
    connect(m_core, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0)
            m_view->setCore(index);
    });
    connect(m_event, &QComboBox::currentIndexChanged, this,
            [this](int index) { m_view->setEventFilter(index <= 0 ? -1 : m_event->itemData(index).toInt()); });
    m_core->setEnabled(false);
    refreshControls();
}

void SyncTimelinePanel::setReport(const ReportPtr &report)
{
    m_view->setReport(report);
    refreshControls();
}

void SyncTimelinePanel::setTrace(const SimTrace &trace)
{
    m_view->setTrace(trace);
    refreshControls();
}

void SyncTimelinePanel::refreshControls()
{
    {
        const QSignalBlocker blocker(m_core);
        const int current = m_view->core();
        m_core->clear();
        m_core->addItems(m_view->trace().cores);
        m_core->setCurrentIndex(std::min(current, int(m_core->count()) - 1));
    }
    {
        const QSignalBlocker blocker(m_event);
        const int current = m_view->eventFilter();
        m_event->clear();
        m_event->addItem(tr("all"), -1);
        QSet<int> ids;
        for (const SyncTimelineView::Arrow &a : m_view->arrows())
            if (a.eventId >= 0)
                ids.insert(a.eventId);
        QList<int> sorted(ids.cbegin(), ids.cend());
        std::sort(sorted.begin(), sorted.end());
        for (int id : sorted)
            m_event->addItem(QString::number(id), id);
        m_event->setCurrentIndex(std::max(0, m_event->findData(current)));
    }
}
