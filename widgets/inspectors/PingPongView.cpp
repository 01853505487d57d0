#include "PingPongView.h"

#include "InspectorState.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QToolButton>
#include <QVBoxLayout>

#include <map>

using namespace inspector;

PingPongView::PingPongView(QWidget *parent)
    : InspectorCanvas(parent)
{
    setObjectName(QStringLiteral("pingPong"));
    setWindowTitle(tr("Ping-pong schedule"));
}

void PingPongView::setTrace(const SimTrace &trace)
{
    m_trace = trace;
    if (m_core >= trace.cores.size())
        m_core = 0;
    rebuild();
}

void PingPongView::setCore(int core)
{
    m_core = std::max(0, core);
    rebuild();
}

void PingPongView::rebuild()
{
    m_events = m_trace.eventsOfCore(m_core);
    // Scalar bookkeeping would drown the pipes that matter here.
    m_events.erase(std::remove_if(m_events.begin(), m_events.end(),
                                  [](const TraceEvent &e) { return e.pipe == Pipe::S || e.isSet(); }),
                   m_events.end());
    m_iterations = iterationsOf(m_events);
    const int n = int(m_iterations.size());
    m_iterationOf = QVector<int>(m_events.size(), -1);
    m_rows = QVector<QVector<int>>(n);
    // k-th occurrence of an op (pipe, name, line) belongs to iteration
    // k * n / count when the op repeats at least once per iteration.
    std::map<std::tuple<int, QString, int>, QVector<int>> occurrences;
    for (int i = 0; i < m_events.size(); ++i) {
        const TraceEvent &e = m_events[i];
        occurrences[{asc2::pipeLaneIndex(e.pipe), e.name, e.line}].push_back(i); // rows drawn lane by lane
    }
    for (const auto &[key, list] : occurrences) {
        const int count = int(list.size());
        for (int k = 0; k < count; ++k) {
            const int event = list[k];
            int iteration = count >= n && n > 0 ? int(qint64(k) * n / count) : iterationAt(m_iterations, m_events[event].start);
            m_iterationOf[event] = iteration;
            if (iteration >= 0 && iteration < n)
                m_rows[iteration].push_back(event);
        }
    }
    // MTE2 time under the compute of another iteration: the vector pipe, or
    // on a cube core the cube (M) pipe.
    const bool cube = std::any_of(m_events.cbegin(), m_events.cend(),
                                  [](const TraceEvent &e) { return e.pipe == Pipe::M; });
    const Pipe compute = cube ? Pipe::M : Pipe::V;
    double mte2 = 0, overlapped = 0;
    QVector<const TraceEvent *> vector;
    QVector<int> vectorIteration;
    for (int i = 0; i < m_events.size(); ++i)
        if (m_events[i].pipe == compute && !m_events[i].isWait()) {
            vector.push_back(&m_events[i]);
            vectorIteration.push_back(m_iterationOf[i]);
        }
    for (int i = 0; i < m_events.size(); ++i) {
        const TraceEvent &e = m_events[i];
        if (e.pipe != Pipe::MTE2 || e.isWait())
            continue;
        mte2 += e.duration;
        // Compute instructions run one after another: their ends are sorted too.
        auto j = std::lower_bound(vector.cbegin(), vector.cend(), e.start,
                                  [](const TraceEvent *v, double t) { return v->end() < t; });
        for (; j != vector.cend() && (*j)->start < e.end(); ++j) {
            if (vectorIteration[int(j - vector.cbegin())] == m_iterationOf[i])
                continue;
            const double lo = std::max(e.start, (*j)->start), hi = std::min(e.end(), (*j)->end());
            if (hi > lo)
                overlapped += hi - lo;
        }
    }
    m_overlap = mte2 > 0 ? std::min(1.0, overlapped / mte2) : 0;
    // The pipes the legend names, found once (legend() runs on every paint
    // and every hover, through the row height).
    m_pipesShown.fill(false, kPipeCount);
    for (const TraceEvent &e : m_events)
        if (!e.isWait())
            m_pipesShown[int(e.pipe)] = true;
    m_x.setExtent(0, std::max(1e-3, m_trace.endTime));
    updateAxisPixels(width());
    update();
}

double PingPongView::rowHeight(const QSize &size) const
{
    // Rows share the height left by the title, the axis and the legend; a
    // row splits in three (loads, compute, stores), so it is kept tall enough
    // to read each, and no taller than makes a few rows fill a tall dock.
    const double room = size.height() - 30 - 34 - legendSpace(size.width());
    return m_iterations.isEmpty() ? 20 : std::clamp(room / m_iterations.size(), 3.0, 48.0);
}

int PingPongView::preferredImageHeight() const
{
    return m_iterations.isEmpty()
               ? 0
               : int(std::clamp(30 + 34 + 30.0 * m_iterations.size() + legendSpace(width()) + 8, 140.0, 1400.0));
}

QString PingPongView::title() const
{
    // Whose trace: the simulator's of the kernel shown, or an import's.
    const QString whose = m_trace.origin.isEmpty() ? tr("simulated") : m_trace.origin;
    QString title = tr("%1, %2: %3 \u2014 %4% of load time overlaps compute of another iteration")
                        .arg(whose, m_trace.cores.value(m_core),
                             m_iterations.size() == 1 ? tr("1 iteration") : tr("%1 iterations").arg(m_iterations.size()))
                        .arg(100 * m_overlap, 0, 'f', 0);
    if (m_batchedRows && m_trace.origin.isEmpty())
        title += tr(" (rows batched)"); // asctile-batch-rows: an iteration moves several rows

    return title;
}

void PingPongView::setBatchedRows(bool batched)
{
    m_batchedRows = batched;
    update();
}

inspector::Legend PingPongView::legend() const
{
    using Mark = LegendEntry::Mark;
    Legend key;
    if (!hasContent())
        return key;
    key.add(Mark::Text, QColor(), tr("x: time since the kernel started \u2192   a row per loop iteration: loads, "
                                     "compute, stores"));
    for (Pipe pipe : asc2::kPipeLaneOrder)
        if (m_pipesShown.value(int(pipe)))
            key.add(Mark::Box, pipeColor(pipe), pipeLabel(pipe));
    key.add(Mark::Hatched, stallColor(), tr("waiting for a flag"));
    key.add(Mark::Outline, m_theme.edge, tr("the iteration's span"));
    return key;
}

void PingPongView::paintCanvas(QPainter &p, const QSize &size)
{
    updateAxisPixels(size.width());
    if (!hasContent()) {
        drawEmpty(p, size, m_trace.isEmpty() ? (m_trace.error.isEmpty() ? tr("Ping-pong: run the kernel (F5) to simulate it")
                                                                         : tr("Trace not readable: %1").arg(m_trace.error))
                                             : tr("No loads (MTE2) in this core's trace: nothing to pipeline"));
        return;
    }
    const QFontMetrics fm(p.font());
    const double top = 30, h = rowHeight(size);
    const int selectedLine = m_state ? m_state->sourceLine() : 0;
    p.setPen(m_theme.text);
    p.drawText(QPointF(8, 15), fm.elidedText(title(), Qt::ElideMiddle, size.width() - 16));
    const double right = size.width() - 12;
    for (int row = 0; row < m_iterations.size(); ++row) {
        const double y = top + row * h;
        if (row % 2) {
            p.fillRect(QRectF(0, y, right, h), m_theme.margin);
        }
        if (h >= fm.height() - 2) {
            p.setPen(m_theme.text);
            p.drawText(QRectF(4, y, plotLeft() - 8, h), Qt::AlignVCenter,
                       tr("i%1 %2").arg(row).arg(row % 2 ? tr("pong") : tr("ping")));
        }
        p.save();
        p.setClipRect(QRectF(plotLeft(), y, right - plotLeft(), h));
        // The iteration's span, faint.
        const Iteration &it = m_iterations[row];
        p.fillRect(QRectF(QPointF(m_x.toPixel(it.start), y + 1), QPointF(m_x.toPixel(it.end), y + h - 1)),
                   QColor(128, 128, 128, 28));
        for (int index : m_rows[row]) {
            const TraceEvent &e = m_events[index];
            if (e.end() < m_x.first || e.start > m_x.last)
                continue;
            const double x0 = m_x.toPixel(e.start), x1 = std::max(m_x.toPixel(e.end()), x0 + 1);
            // Lanes within the row: loads above, compute middle, stores below.
            const int sub = e.pipe == Pipe::MTE2 || e.pipe == Pipe::MTE1 ? 0 : e.pipe == Pipe::MTE3 || e.pipe == Pipe::FIX ? 2 : 1;
            const double sh = (h - 2) / 3;
            const QRectF r(QPointF(x0, y + 1 + sub * sh), QPointF(x1, y + 1 + (sub + 1) * sh));
            if (e.isWait()) {
                if (e.duration <= 0 || r.width() < 1.5)
                    continue;
                p.fillRect(r, QBrush(stallColor(), Qt::BDiagPattern));
                continue;
            }
            // Plain: hatching means waiting here (ping and pong are the rows' names).
            p.fillRect(r, pipeColor(e.pipe));
            if (selectedLine > 0 && e.line == selectedLine) {
                p.setPen(QPen(m_theme.text, 1.5));
                p.setBrush(Qt::NoBrush);
                p.drawRect(r);
            }
        }
        p.restore();
    }
    const double axis = std::min(size.height() - 28.0 - legendSpace(size.width()), top + m_iterations.size() * h + 4);
    drawTimeAxis(p, axis, size.width(), QStringLiteral(" \u00b5s"));
    drawLegend(p, size, axis + 24);
}

int PingPongView::eventAt(const QPointF &pos) const
{
    if (!hasContent() || pos.x() < plotLeft())
        return -1;
    const double top = 30, h = rowHeight(size());
    const int row = int((pos.y() - top) / h);
    if (pos.y() < top || row < 0 || row >= m_rows.size())
        return -1;
    const double t = m_x.toValue(pos.x()), slack = 2 / m_x.scale();
    const int sub = int((pos.y() - top - row * h - 1) / ((h - 2) / 3));
    int best = -1;
    for (int index : m_rows[row]) {
        const TraceEvent &e = m_events[index];
        const int esub = e.pipe == Pipe::MTE2 || e.pipe == Pipe::MTE1 ? 0 : e.pipe == Pipe::MTE3 || e.pipe == Pipe::FIX ? 2 : 1;
        if (esub == sub && e.start - slack <= t && e.end() + slack >= t)
            best = index;
    }
    return best;
}

QString PingPongView::toolTipAt(const QPointF &pos) const
{
    const int index = eventAt(pos);
    if (index < 0)
        return {};
    const TraceEvent &e = m_events[index];
    const int iteration = m_iterationOf[index];
    QString text = tr("<b>%1</b> (%2) \u2014 iteration %3 (%4)<br>%5 \u00b5s at %6 \u00b5s")
                       .arg(e.name.toHtmlEscaped(), pipeLabel(e.pipe))
                       .arg(iteration)
                       .arg(iteration % 2 ? tr("pong") : tr("ping"))
                       .arg(e.duration, 0, 'f', 4)
                       .arg(e.start, 0, 'f', 4);
    if (e.isWait())
        text += tr("<br><b>stall</b>: %1 waits on a flag").arg(pipeLabel(e.pipe));
    if (e.line > 0)
        text += tr("<br>line %1").arg(e.line);
    return text;
}

void PingPongView::activateAt(const QPointF &pos)
{
    updateAxisPixels(width());
    const int index = eventAt(pos);
    if (index >= 0 && m_state) {
        m_state->selectPipe(int(m_events[index].pipe));
        if (m_events[index].line > 0)
            m_state->selectSourceLine(m_events[index].line);
    }
}

PingPongPanel::PingPongPanel(QWidget *parent)
    : QWidget(parent)
    , m_view(new PingPongView(this))
    , m_core(new QComboBox(this))
    , m_summary(new QLabel(this))
{
    m_core->setMinimumContentsLength(14);
    m_core->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    auto *fit = new QToolButton(this);
    fit->setText(tr("Fit"));
    connect(fit, &QToolButton::clicked, m_view, &InspectorCanvas::resetZoom);
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(new QLabel(tr("Core:"), this));
    bar->addWidget(m_core);
    bar->addWidget(fit);
    bar->addWidget(m_summary, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    connect(m_core, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0)
            m_view->setCore(index);
    });
}

void PingPongPanel::setTrace(const SimTrace &trace)
{
    m_view->setTrace(trace);
    const QSignalBlocker blocker(m_core);
    m_core->clear();
    m_core->addItems(trace.cores);
    m_core->setCurrentIndex(m_view->core());
    m_summary->setText(trace.error.isEmpty() ? QString() : tr("trace: %1").arg(trace.error));
}
