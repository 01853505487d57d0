#include "CoresTimelineView.h"

#include "InspectorState.h"
#include "Stepping.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPainter>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>

using namespace inspector;

namespace {
constexpr double kAxisSpace = 30;

QString microseconds(double us)
{
    return us < 1 ? QStringLiteral("%1 ns").arg(us * 1000, 0, 'f', 0) : QStringLiteral("%1 \u00b5s").arg(us, 0, 'f', 3);
}

/// "core3 vec" for "core3.veccore0", "core3 cube" for "core3.cubecore0";
/// with two vector cores per block (MIX_AIC_1_2) "core3 vec0" and
/// "core3 vec1".
QString coreLabel(const QString &name, bool twoVectorCores)
{
    QString label = name;
    label.replace(QLatin1String(".veccore0"), twoVectorCores ? QLatin1String(" vec0") : QLatin1String(" vec"));
    label.replace(QLatin1String(".cubecore0"), QLatin1String(" cube"));
    label.replace(QLatin1String(".veccore1"), QLatin1String(" vec1"));
    return label;
}
} // namespace

CoresTimelineView::CoresTimelineView(QWidget *parent)
    : InspectorCanvas(parent)
{
    setObjectName(QStringLiteral("coresTimeline"));
    setFocusPolicy(Qt::StrongFocus); // W/A/S/D, F3 without a click first
}

void CoresTimelineView::setTrace(const SimTrace &trace)
{
    m_trace = trace;
    m_rangeFrom = m_rangeTo = 0;
    rebuild();
    m_x.setExtent(0, std::max(m_trace.endTime, 1e-3));
    updateMatches();
    emit rangeChanged();
    update();
}

void CoresTimelineView::setKernelName(const QString &name)
{
    m_kernel = name;
    update();
}

void CoresTimelineView::rebuild()
{
    m_rows.clear();
    m_rowEvents.clear();
    m_rowMaxDuration.clear();
    m_coreHeat.clear();
    const int cores = int(m_trace.cores.size());
    // Which pipes each core used, in lane order.
    QVector<QVector<int>> eventsOf(cores * kPipeCount);
    for (int i = 0; i < m_trace.events.size(); ++i) {
        const TraceEvent &e = m_trace.events[i];
        if (e.core >= 0 && e.core < cores)
            eventsOf[e.core * kPipeCount + int(e.pipe)].push_back(i);
    }
    m_coreHeat.fill(0.0, cores);
    for (int core = 0; core < cores; ++core) {
        bool first = true;
        for (Pipe pipe : asc2::kPipeLaneOrder) {
            QVector<int> &events = eventsOf[core * kPipeCount + int(pipe)];
            if (events.isEmpty())
                continue;
            std::stable_sort(events.begin(), events.end(),
                             [&](int a, int b) { return m_trace.events[a].start < m_trace.events[b].start; });
            double longest = 0, busy = 0, coveredTo = 0;
            for (int i : events) { // by start; overlapping (pipelined) slices count once
                const TraceEvent &e = m_trace.events[i];
                longest = std::max(longest, e.duration);
                if (!e.isWaiting() && e.end() > coveredTo) {
                    busy += e.end() - std::max(e.start, coveredTo);
                    coveredTo = e.end();
                }
            }
            if (m_trace.endTime > 0)
                m_coreHeat[core] = std::max(m_coreHeat[core], std::min(1.0, busy / m_trace.endTime));
            m_rows.push_back({core, pipe, first});
            m_rowEvents.push_back(std::move(events));
            m_rowMaxDuration.push_back(longest);
            first = false;
        }
    }
}

double CoresTimelineView::rowsBottom(const QSize &size) const
{
    return size.height() - kAxisSpace - legendSpace(size.width());
}

QRectF CoresTimelineView::rowRect(int row, const QSize &size) const
{
    const int cores = int(m_trace.cores.size());
    const double available = rowsBottom(size) - rowsTop();
    // A 3 px gap between cores; the rows share the rest.
    const double gap = cores > 1 ? std::min(3.0, available / (4.0 * cores)) : 0;
    const double height = m_rows.isEmpty() ? 0 : std::clamp((available - gap * (cores - 1)) / m_rows.size(), 1.0, 22.0);
    const double top = rowsTop() + row * height + m_rows[row].core * gap;
    return QRectF(plotLeft(), top, std::max(0.0, size.width() - 12 - plotLeft()), height);
}

int CoresTimelineView::rowAt(double y, const QSize &size) const
{
    if (m_rows.isEmpty() || y < rowsTop())
        return -1;
    // Rows are ordered top-down: a binary search on their tops.
    int lo = 0, hi = int(m_rows.size()) - 1;
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (rowRect(mid, size).top() <= y)
            lo = mid;
        else
            hi = mid - 1;
    }
    return y <= rowRect(lo, size).bottom() ? lo : -1;
}

int CoresTimelineView::preferredImageHeight() const
{
    // Rows of 8 px (room for the core labels of a 48-core run), axis, legend.
    return int(rowsTop() + 8 * m_rows.size() + 3 * m_trace.cores.size() + kAxisSpace + legendSpace(1200) + 8);
}

QString CoresTimelineView::sliceName(const TraceEvent &e)
{
    QString name = e.name;
    if (name.startsWith(QLatin1String("ascendc.")))
        name = name.mid(8);
    return name;
}

bool CoresTimelineView::matchesSearch(const TraceEvent &e) const
{
    const QString text = m_search.trimmed();
    if (text.isEmpty())
        return false;
    if (text.startsWith(QLatin1String("line "), Qt::CaseInsensitive)) {
        bool ok = false;
        const int line = text.mid(5).trimmed().toInt(&ok);
        if (ok)
            return e.line == line;
    }
    return e.name.contains(text, Qt::CaseInsensitive) || e.detail.contains(text, Qt::CaseInsensitive);
}

void CoresTimelineView::setSearch(const QString &text)
{
    if (text == m_search)
        return;
    m_search = text;
    updateMatches();
    update();
}

void CoresTimelineView::updateMatches()
{
    m_matches.clear();
    m_isMatch.fill(false, m_trace.events.size());
    m_current = -1;
    for (int i = 0; i < m_trace.events.size(); ++i) {
        if (matchesSearch(m_trace.events[i])) {
            m_matches.push_back(i);
            m_isMatch[i] = true;
        }
    }
    std::stable_sort(m_matches.begin(), m_matches.end(),
                     [&](int a, int b) { return m_trace.events[a].start < m_trace.events[b].start; });
    emit matchesChanged();
}

void CoresTimelineView::nextMatch()
{
    stepMatch(1);
}

void CoresTimelineView::previousMatch()
{
    stepMatch(-1);
}

void CoresTimelineView::stepMatch(int delta)
{
    if (m_matches.isEmpty())
        return;
    m_current = steppedIndex(m_current, int(m_matches.size()), delta);
    const TraceEvent &e = m_trace.events[m_matches[m_current]];
    // Into view: centred, zoomed in enough that the slice is a few pixels wide.
    updateAxisPixels(width());
    double span = m_x.span();
    if (e.duration > 0 && e.duration * m_x.scale() < 4)
        span = std::max(e.duration * 40, (m_x.upper - m_x.lower) * 1e-5);
    const double centre = e.start + e.duration / 2;
    m_x.first = centre - span / 2;
    m_x.last = centre + span / 2;
    m_x.clamp();
    if (m_state && e.line > 0)
        m_state->selectSourceLine(e.line);
    emit matchesChanged();
    emit viewChanged();
    update();
}

void CoresTimelineView::setRange(double from, double to)
{
    if (from > to)
        std::swap(from, to);
    if (from == m_rangeFrom && to == m_rangeTo)
        return;
    m_rangeFrom = from;
    m_rangeTo = to;
    emit rangeChanged();
    update();
}

CoresTimelineView::Totals CoresTimelineView::totals() const
{
    Totals t;
    t.from = hasRange() ? m_rangeFrom : 0;
    t.to = hasRange() ? m_rangeTo : m_trace.endTime;
    t.cores = int(m_trace.cores.size());
    // Per row, the time covered by its slices (a pipelined V instruction
    // overlaps the next: summing durations would count that time twice).
    for (int r = 0; r < m_rows.size(); ++r) {
        ++t.coresOfPipe[int(m_rows[r].pipe)];
        double busyEnd = t.from, waitEnd = t.from;
        for (int i : m_rowEvents[r]) { // by start
            const TraceEvent &e = m_trace.events[i];
            if (e.start > t.to || e.end() < t.from)
                continue;
            ++t.slices;
            double &coveredTo = e.isWaiting() ? waitEnd : busyEnd;
            const double from = std::max(e.start, coveredTo), to = std::min(e.end(), t.to);
            if (to > from) {
                (e.isWaiting() ? t.waiting : t.busy[int(e.pipe)]) += to - from;
                coveredTo = to;
            }
        }
    }
    return t;
}

QString CoresTimelineView::totalsText() const
{
    if (!hasContent())
        return {};
    const Totals t = totals();
    const double span = t.to - t.from;
    if (span <= 0)
        return {};
    QStringList pipes;
    for (Pipe pipe : asc2::kPipeLaneOrder) {
        const int i = int(pipe);
        if (t.busy[i] > 0 && t.coresOfPipe[i] > 0)
            pipes << tr("%1 %2%").arg(pipeLabel(pipe)).arg(100 * t.busy[i] / (span * t.coresOfPipe[i]), 0, 'f', 0);
    }
    const QString where = hasRange() ? tr("%1\u2013%2 (%3)").arg(microseconds(t.from), microseconds(t.to), microseconds(span))
                                     : tr("Whole run, %1").arg(microseconds(span));
    // Pipes wait side by side: waiting is a share of all pipes' time.
    const int lanes = int(m_rows.size());
    return tr("%1, %2 cores: busy %3; waiting %4 of pipe time; %5 slices")
        .arg(where)
        .arg(t.cores)
        .arg(pipes.isEmpty() ? tr("nothing") : pipes.join(QStringLiteral(", ")))
        .arg(QStringLiteral("%1%").arg(lanes > 0 ? 100 * t.waiting / (span * lanes) : 0, 0, 'f', 0))
        .arg(t.slices);
}

QString CoresTimelineView::title() const
{
    if (!m_trace.origin.isEmpty())
        return tr("%1 \u2014 all %2 cores").arg(m_trace.origin).arg(m_trace.cores.size());
    return tr("%1 \u2014 all %2 cores, predicted by the simulator")
        .arg(m_kernel.isEmpty() ? tr("kernel") : m_kernel)
        .arg(m_trace.cores.size());
}

Legend CoresTimelineView::legend() const
{
    using Mark = LegendEntry::Mark;
    Legend key;
    if (!hasContent())
        return key;
    key.add(Mark::Text, QColor(), tr("x: time since the kernel started \u2192; a row per pipe of each core"));
    QVector<bool> seen(kPipeCount, false);
    for (const Row &row : m_rows)
        seen[int(row.pipe)] = true;
    for (Pipe pipe : asc2::kPipeLaneOrder)
        if (seen[int(pipe)])
            key.add(Mark::Box, pipeColor(pipe), pipeLabel(pipe));
    key.add(Mark::Hatched, stallColor(), tr("waiting (wait_flag, barrier)"));
    key.add(Mark::Box, QColor::fromHslF(0.0, 0.8, 0.55), tr("core heat: its busiest pipe's share"));
    key.add(Mark::Outline, m_theme.text, tr("search match"));
    key.add(Mark::Box, QColor(0x3b, 0x7d, 0xd8, 60), tr("selected range (Shift+drag)"));
    return key;
}

void CoresTimelineView::paintCanvas(QPainter &p, const QSize &size)
{
    updateAxisPixels(size.width());
    if (!hasContent()) {
        drawEmpty(p, size, m_trace.error.isEmpty() ? tr("All cores: run a kernel (F5) to see every core's pipes in time")
                                                   : tr("Trace not readable: %1").arg(m_trace.error));
        return;
    }
    const QFontMetrics fm(p.font());
    p.setPen(m_theme.text);
    p.drawText(QPointF(8, 15), fm.elidedText(title(), Qt::ElideRight, size.width() - 16));
    const int selectedLine = m_state ? m_state->sourceLine() : 0;
    const bool searching = !m_search.trimmed().isEmpty();
    const int current = m_current >= 0 && m_current < m_matches.size() ? m_matches[m_current] : -1;

    QFont small = p.font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() - 1.5));
    const QFontMetrics smallFm(small);
    const bool twoVectorCores = std::any_of(m_trace.cores.cbegin(), m_trace.cores.cend(), [](const QString &c) {
        return c.endsWith(QLatin1String(".veccore1"));
    });

    for (int r = 0; r < m_rows.size(); ++r) {
        const Row &row = m_rows[r];
        const QRectF lane = rowRect(r, size);
        if (lane.bottom() < rowsTop() || lane.height() <= 0)
            continue;
        p.setPen(Qt::NoPen);
        p.setBrush(row.core % 2 ? m_theme.background : m_theme.margin);
        p.drawRect(lane);
        // Header: the core's heat cell and label on its first row, the pipe on each.
        if (row.firstOfCore) {
            int last = r;
            while (last + 1 < m_rows.size() && m_rows[last + 1].core == row.core)
                ++last;
            const QRectF group(QPointF(2, lane.top()), QPointF(plotLeft() - 40, rowRect(last, size).bottom()));
            const double heat = m_coreHeat.value(row.core);
            QColor cell = QColor::fromHslF(0.0, 0.8, 0.95 - 0.4 * heat);
            if (m_theme.kind == Theme::Kind::Dark)
                cell = QColor::fromHslF(0.0, 0.6, 0.12 + 0.3 * heat);
            p.fillRect(group, cell);
            if (group.height() >= smallFm.height() - 2) {
                // The core, and how busy it was: on two lines when there is room.
                p.setFont(small);
                p.setPen(m_theme.text);
                const QString name = coreLabel(m_trace.cores.value(row.core), twoVectorCores);
                const QString busy = QStringLiteral("%1%").arg(100 * heat, 0, 'f', 0);
                const bool twoLines = group.height() >= 2 * smallFm.height();
                p.drawText(group.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                           twoLines ? smallFm.elidedText(name, Qt::ElideRight, int(group.width()) - 4) + QLatin1Char('\n') + busy
                                    : smallFm.elidedText(name + QLatin1Char(' ') + busy, Qt::ElideMiddle, int(group.width()) - 4));
            }
        }
        p.fillRect(QRectF(plotLeft() - 36, lane.top(), 32, lane.height()), pipeColor(row.pipe).lighter(m_theme.kind == Theme::Kind::Dark ? 60 : 170));
        if (lane.height() >= smallFm.height() - 3) {
            p.setFont(small);
            p.setPen(m_theme.text);
            p.drawText(QRectF(plotLeft() - 36, lane.top(), 32, lane.height()), Qt::AlignCenter, pipeLabel(row.pipe));
        }
        p.setFont(small);

        p.save();
        p.setClipRect(lane);
        const QVector<int> &events = m_rowEvents[r];
        auto it = std::lower_bound(events.cbegin(), events.cend(), m_x.first - m_rowMaxDuration[r],
                                   [&](int i, double t) { return m_trace.events[i].start < t; });
        int lastColumn = INT_MIN;
        const QColor colour = pipeColor(row.pipe);
        for (; it != events.cend() && m_trace.events[*it].start <= m_x.last; ++it) {
            const TraceEvent &e = m_trace.events[*it];
            if (e.end() < m_x.first)
                continue;
            const double x0 = m_x.toPixel(e.start);
            const double x1 = std::max(m_x.toPixel(e.end()), x0 + 1);
            const bool match = searching && m_isMatch[*it];
            const bool linked = selectedLine > 0 && e.line == selectedLine;
            // Level of detail: slices under a pixel share one column per pixel.
            if (x1 - x0 < 1.5 && !match && *it != current) {
                const int column = int(x0);
                if (column == lastColumn)
                    continue;
                lastColumn = column;
            }
            const QRectF slice(QPointF(x0, lane.top() + (lane.height() > 6 ? 1 : 0)),
                               QPointF(x1, lane.bottom() - (lane.height() > 6 ? 1 : 0)));
            QColor fill = e.isWaiting() ? stallColor() : e.isSet() ? m_theme.text : colour;
            if (searching && !match)
                fill.setAlpha(50);
            p.setPen(Qt::NoPen);
            p.setBrush(fill);
            if (e.isWaiting()) {
                QColor back = fill;
                back.setAlpha(searching && !match ? 15 : 45);
                p.setBrush(back);
                p.drawRect(slice);
                p.setBrush(QBrush(fill, Qt::BDiagPattern));
            }
            p.drawRect(slice);
            if (match || linked || *it == current) {
                p.setBrush(Qt::NoBrush);
                p.setPen(QPen(*it == current ? m_theme.error : m_theme.text, *it == current ? 2 : 1));
                p.drawRect(slice.adjusted(0.5, 0.5, -0.5, -0.5));
            }
            // The op's name inside a slice wide and tall enough for it.
            const QString name = sliceName(e);
            if (!e.isWaiting() && slice.height() >= smallFm.height() - 2 && slice.width() > smallFm.horizontalAdvance(QStringLiteral("mm")) + 6) {
                p.setPen(qGray(fill.rgb()) > 140 ? QColor(Qt::black) : QColor(Qt::white));
                p.drawText(slice.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                           smallFm.elidedText(name, Qt::ElideRight, int(slice.width()) - 5));
            }
        }
        p.restore();
    }
    p.setFont(font());

    // The selected range, over the rows.
    const double bottom = rowRect(int(m_rows.size()) - 1, size).bottom();
    if (hasRange()) {
        const double x0 = std::max(m_x.toPixel(m_rangeFrom), plotLeft());
        const double x1 = std::min(m_x.toPixel(m_rangeTo), m_x.pixelEnd);
        if (x1 > x0) {
            const QRectF band(QPointF(x0, rowsTop()), QPointF(x1, bottom));
            QColor shade = pipeColor(Pipe::MTE2);
            shade.setAlpha(55);
            p.fillRect(band, shade);
            p.setPen(QPen(pipeColor(Pipe::MTE2), 1));
            p.drawLine(band.topLeft(), band.bottomLeft());
            p.drawLine(band.topRight(), band.bottomRight());
        }
    }
    drawTimeAxis(p, bottom + 4, size.width(), QStringLiteral(" \u00b5s"));
    drawLegend(p, size);
}

int CoresTimelineView::eventAt(const QPointF &pos) const
{
    const int r = rowAt(pos.y(), size());
    if (r < 0 || pos.x() < plotLeft())
        return -1;
    const double t = m_x.toValue(pos.x());
    const double slack = 2 / m_x.scale();
    const QVector<int> &events = m_rowEvents[r];
    auto it = std::lower_bound(events.cbegin(), events.cend(), t - m_rowMaxDuration[r] - slack,
                               [&](int i, double v) { return m_trace.events[i].start < v; });
    int best = -1;
    for (; it != events.cend() && m_trace.events[*it].start <= t + slack; ++it) {
        const TraceEvent &e = m_trace.events[*it];
        if (t >= e.start - slack && t <= e.end() + slack)
            best = *it; // the latest that covers t
    }
    return best;
}

QString CoresTimelineView::toolTipAt(const QPointF &pos) const
{
    if (pos.x() < plotLeft()) {
        const int r = rowAt(pos.y(), size());
        if (r < 0)
            return {};
        const int core = m_rows[r].core;
        return tr("%1: its busiest pipe is busy %2% of the run (double-click: show it in the Sync Timeline)")
            .arg(m_trace.cores.value(core))
            .arg(100 * m_coreHeat.value(core), 0, 'f', 1);
    }
    const int i = eventAt(pos);
    if (i < 0)
        return {};
    const TraceEvent &e = m_trace.events[i];
    QString text = tr("<b>%1</b> on %2 of %3<br>%4 \u2192 %5 (%6)")
                       .arg(e.name.toHtmlEscaped(), pipeLabel(e.pipe), m_trace.cores.value(e.core))
                       .arg(microseconds(e.start), microseconds(e.end()), microseconds(e.duration));
    if (e.isWaiting())
        text += tr("<br>waiting: the pipe does no work");
    if (!e.detail.isEmpty())
        text += QStringLiteral("<br>") + e.detail.toHtmlEscaped();
    if (e.line > 0)
        text += tr("<br>line %1").arg(e.line);
    return text;
}

void CoresTimelineView::activateAt(const QPointF &pos)
{
    const int i = eventAt(pos);
    if (i < 0 || !m_state)
        return;
    const TraceEvent &e = m_trace.events[i];
    m_state->selectPipe(int(e.pipe));
    if (e.line > 0)
        m_state->selectSourceLine(e.line);
}

void CoresTimelineView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier) && event->position().x() >= plotLeft()) {
        updateAxisPixels(width());
        m_selectingRange = true;
        m_rangeAnchor = m_x.toValue(event->position().x());
        setRange(m_rangeAnchor, m_rangeAnchor);
        return;
    }
    InspectorCanvas::mousePressEvent(event);
}

void CoresTimelineView::mouseMoveEvent(QMouseEvent *event)
{
    if (m_selectingRange) {
        updateAxisPixels(width());
        const double t = std::clamp(m_x.toValue(event->position().x()), m_x.lower, m_x.upper);
        setRange(m_rangeAnchor, t);
        return;
    }
    InspectorCanvas::mouseMoveEvent(event);
}

void CoresTimelineView::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_selectingRange) {
        m_selectingRange = false;
        return;
    }
    InspectorCanvas::mouseReleaseEvent(event);
}

void CoresTimelineView::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (event->position().x() < plotLeft()) {
        const int r = rowAt(event->position().y(), size());
        if (r >= 0)
            emit coreActivated(m_rows[r].core);
        return;
    }
    InspectorCanvas::mouseDoubleClickEvent(event);
}

void CoresTimelineView::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_F3) {
        stepMatch(event->modifiers() & Qt::ShiftModifier ? -1 : 1);
        return;
    }
    if (event->key() == Qt::Key_Escape && hasRange()) {
        clearRange();
        return;
    }
    InspectorCanvas::keyPressEvent(event);
}

// --- panel

CoresTimelinePanel::CoresTimelinePanel(QWidget *parent)
    : QWidget(parent)
    , m_view(new CoresTimelineView(this))
    , m_search(new QLineEdit(this))
    , m_matchLabel(new QLabel(this))
    , m_previous(new QToolButton(this))
    , m_next(new QToolButton(this))
    , m_totals(new QLabel(this))
{
    m_search->setObjectName(QStringLiteral("coresSearch"));
    m_search->setPlaceholderText(tr("Find slices: op (copy_in, add, wait_flag), detail, or line N"));
    m_search->setClearButtonEnabled(true);
    m_previous->setArrowType(Qt::LeftArrow);
    m_next->setArrowType(Qt::RightArrow);
    m_previous->setToolTip(tr("Previous match (Shift+F3)"));
    m_next->setToolTip(tr("Next match (F3, Enter)"));
    m_totals->setObjectName(QStringLiteral("coresTotals"));
    m_totals->setWordWrap(true);
    m_totals->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(m_search, 1);
    bar->addWidget(m_previous);
    bar->addWidget(m_next);
    bar->addWidget(m_matchLabel);
    auto *fit = new QToolButton(this);
    fit->setText(tr("Fit"));
    fit->setToolTip(tr("Show the whole run (or double-click, or 0); W/S zoom, A/D pan, wheel zooms, drag pans"));
    connect(fit, &QToolButton::clicked, m_view, &InspectorCanvas::resetZoom);
    bar->addWidget(fit);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addWidget(m_totals);
    layout->addWidget(m_view, 1);

    connect(m_search, &QLineEdit::textChanged, m_view, &CoresTimelineView::setSearch);
    connect(m_search, &QLineEdit::returnPressed, m_view, &CoresTimelineView::nextMatch);
    connect(m_previous, &QToolButton::clicked, m_view, &CoresTimelineView::previousMatch);
    connect(m_next, &QToolButton::clicked, m_view, &CoresTimelineView::nextMatch);
    connect(m_view, &CoresTimelineView::matchesChanged, this, &CoresTimelinePanel::updateLabels);
    connect(m_view, &CoresTimelineView::rangeChanged, this, &CoresTimelinePanel::updateLabels);
    updateLabels();
}

void CoresTimelinePanel::setTrace(const SimTrace &trace)
{
    m_view->setTrace(trace);
}

void CoresTimelinePanel::updateLabels()
{
    const int n = int(m_view->matches().size());
    const bool searching = !m_view->search().trimmed().isEmpty();
    m_matchLabel->setText(!searching ? QString()
                          : n == 0   ? tr("not found")
                          : m_view->currentMatch() >= 0 ? tr("%1 of %2").arg(m_view->currentMatch() + 1).arg(n)
                                                        : tr("%1 matches").arg(n));
    m_matchLabel->setStyleSheet(searching && n == 0 ? QStringLiteral("QLabel { color: #d93b3b; }") : QString());
    m_previous->setEnabled(n > 0);
    m_next->setEnabled(n > 0);
    m_totals->setText(m_view->hasContent() ? m_view->totalsText() + (m_view->hasRange() ? QString() : tr(" \u2014 Shift+drag to total a range"))
                                           : QString());
}
