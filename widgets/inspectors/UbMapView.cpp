#include "UbMapView.h"

#include "InspectorData.h"
#include "InspectorState.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>
#include <set>

using namespace inspector;

namespace {
QString bytes(int64_t n)
{
    if (n >= 1024 * 1024)
        return QStringLiteral("%1 MB").arg(n / 1048576.0, 0, 'f', 1);
    if (n >= 1024)
        return QStringLiteral("%1 KB").arg(n / 1024.0, 0, 'f', n % 1024 ? 1 : 0);
    return QStringLiteral("%1 B").arg(n);
}
// A buffer is drawn at least this tall and wide: a 16 B tile over a 192 KB
// UB would be a tenth of a pixel, there but invisible.
constexpr double kMinBufferPixels = 3;
} // namespace

UbMapView::UbMapView(QWidget *parent)
    : InspectorCanvas(parent)
{
    setObjectName(QStringLiteral("ubMap"));
    setWindowTitle(tr("UB map"));
}

void UbMapView::setReport(const ReportPtr &report)
{
    m_report = report;
    m_tileIndex.clear();
    m_tiles = report ? tilesOf(report->buffers) : QStringList();
    m_inPlaceFrom = report ? inPlacePredecessors(report->buffers) : QVector<int>();
    m_inPlaceTo = QVector<int>(m_inPlaceFrom.size(), -1);
    for (int i = 0; i < m_inPlaceFrom.size(); ++i)
        if (m_inPlaceFrom[i] >= 0)
            m_inPlaceTo[m_inPlaceFrom[i]] = i;
    // What the legend names, found once (it is laid out on every paint and hover).
    m_hasInPlace = std::any_of(m_inPlaceFrom.cbegin(), m_inPlaceFrom.cend(), [](int from) { return from >= 0; });
    m_hasPongSlots = report && std::any_of(report->buffers.cbegin(), report->buffers.cend(),
                                           [](const asc2::BufferRecord &b) { return slotOf(b) > 0; });
    m_hasLowerBound = report && std::any_of(report->spaces.cbegin(), report->spaces.cend(),
                                            [](const asc2::SpaceUsage &u) { return u.lowerBound != u.peak; });
    int points = 1;
    if (report) {
        for (const asc2::BufferRecord &b : report->buffers)
            points = std::max(points, b.liveEnd + 1);
        const std::set<QString> tiles(m_tiles.cbegin(), m_tiles.cend());
        for (const QString &t : tiles)
            m_tileIndex.insert(t, int(m_tileIndex.size()));
        points = std::max(points, int(report->points.size()));
    }
    m_x.setExtent(0, points);
    if (m_hasOverlayRun && report)
        m_overlay = pointHeat(*report, m_overlayRun);
    else
        m_overlay = PointHeat();
    followState();
    update();
}

QStringList UbMapView::spaces() const
{
    QStringList out;
    if (!m_report)
        return out;
    QStringList present;
    for (const asc2::SpaceUsage &s : m_report->spaces)
        if (s.peak > 0)
            present << QString::fromStdString(s.space);
    for (const asc2::BufferRecord &b : m_report->buffers)
        if (!present.contains(QString::fromStdString(b.space)))
            present << QString::fromStdString(b.space);
    // The vector path's UB first, then the cube path's buffers in data-flow order.
    for (const char *known : {"UB", "L1", "L0A", "L0B", "L0C", "BT", "FB"})
        if (present.removeAll(QLatin1String(known)))
            out << QLatin1String(known);
    return out + present;
}

void UbMapView::setSpaceFilter(const QString &space)
{
    m_spaceFilter = space;
    update();
}

void UbMapView::setOverlay(const ProfileRun &run)
{
    m_overlayRun = run;
    m_hasOverlayRun = true;
    m_overlay = m_report ? pointHeat(*m_report, run) : PointHeat();
    update();
}

void UbMapView::clearOverlay()
{
    m_overlayRun = ProfileRun();
    m_hasOverlayRun = false;
    m_overlay = PointHeat();
    update();
}

void UbMapView::setOverlayVisible(bool visible)
{
    m_overlayVisible = visible;
    update();
}

QRectF UbMapView::overlayStrip(const QSize &size) const
{
    if (!showsOverlay())
        return {};
    return QRectF(plotLeft(), 24, size.width() - 12 - plotLeft(), 11);
}

int UbMapView::overlayPointAt(const QPointF &pos) const
{
    const QRectF strip = overlayStrip(size()).adjusted(0, -2, 0, 2);
    if (!strip.contains(pos))
        return -1;
    const int point = int(std::floor(m_x.toValue(pos.x())));
    return point >= 0 && point < m_overlay.value.size() ? point : -1;
}

QString UbMapView::describeOverlayPoint(int point) const
{
    const QString op = point < int(m_report->points.size()) ? QString::fromStdString(m_report->points[point].name) : QString();
    QString text = tr("<b>point %1</b>: %2 on %3").arg(point).arg(op.toHtmlEscaped(), pipeLabel(m_overlay.pipe[point]));
    if (point < int(m_report->points.size()) && m_report->points[point].loc.line > 0)
        text += tr(", line %1").arg(m_report->points[point].loc.line);
    if (m_overlay.basis == PointHeat::Basis::Trace)
        text += tr("<br>%1 \u00b5s per core (%2% of the run's placed time)")
                    .arg(m_overlay.value[point], 0, 'f', 4)
                    .arg(m_overlay.total > 0 ? 100 * m_overlay.value[point] / m_overlay.total : 0, 0, 'f', 1);
    else
        text += tr("<br>%1 busy %2%").arg(pipeLabel(m_overlay.pipe[point])).arg(100 * m_overlay.value[point], 0, 'f', 1);
    text += tr("<br>overlay: %1 \u2014 %2").arg(m_overlay.runLabel.toHtmlEscaped(), m_overlay.note.toHtmlEscaped());
    return text;
}

void UbMapView::followState()
{
    if (!m_state)
        return;
    connect(m_state, &InspectorState::pointWindowChanged, this, &UbMapView::followWindow, Qt::UniqueConnection);
}

void UbMapView::followWindow(double first, double last)
{
    if (m_syncingWindow)
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

void UbMapView::onWindowChanged()
{
    if (!m_state)
        return;
    m_syncingWindow = true;
    if (m_x.isZoomed())
        m_state->setPointWindow(m_x.first, m_x.last);
    else
        m_state->setPointWindow(0, 0);
    m_syncingWindow = false;
}

bool UbMapView::hasContent() const
{
    return m_report && !m_report->buffers.empty();
}

QVector<UbMapView::Band> UbMapView::layout(const QSize &size) const
{
    QVector<Band> bands;
    if (!m_report)
        return bands;
    QStringList order = spaces();
    if (!m_spaceFilter.isEmpty() && order.contains(m_spaceFilter))
        order = QStringList{m_spaceFilter};
    for (const QString &space : order) {
        Band band;
        band.space = space;
        int64_t used = 0;
        for (size_t i = 0; i < m_report->buffers.size(); ++i) {
            const asc2::BufferRecord &b = m_report->buffers[i];
            if (QString::fromStdString(b.space) == space) {
                band.buffers.push_back(int(i));
                used = std::max(used, b.offset + b.size);
            }
        }
        for (const asc2::SpaceUsage &s : m_report->spaces)
            if (QString::fromStdString(s.space) == space) {
                band.capacity = s.capacity;
                band.peak = s.peak;
                band.lowerBound = s.lowerBound;
            }
        if (band.buffers.isEmpty() && band.peak == 0)
            continue; // a space the kernel does not use
        band.scale.maxAddress = AddressScale::visibleMax(double(std::max(used, band.peak)), double(band.capacity));
        bands.push_back(band);
    }
    const double top = showsOverlay() ? 53 : 22, bottom = size.height() - 28 - legendSpace(size.width()), gap = 18;
    const double h = bands.isEmpty() ? 0 : (bottom - top - gap * (bands.size() - 1)) / bands.size();
    for (int i = 0; i < bands.size(); ++i) {
        Band &band = bands[i];
        band.rect = QRectF(plotLeft(), top + i * (h + gap), size.width() - 12 - plotLeft(), h);
        band.scale.top = band.rect.top();
        band.scale.bottom = band.rect.bottom();
    }
    return bands;
}

QRectF UbMapView::bufferRect(const Band &band, int index) const
{
    const asc2::BufferRecord &b = m_report->buffers[size_t(index)];
    const double start = b.liveStart + (m_inPlaceFrom.value(index, -1) >= 0 ? 0.5 : 0.0);
    const double end = m_inPlaceTo.value(index, -1) >= 0 ? b.liveEnd + 0.5 : b.liveEnd + 1.0;
    double x0 = m_x.toPixel(start), x1 = m_x.toPixel(end);
    double y0 = band.scale.toPixel(double(b.offset + b.size)), y1 = band.scale.toPixel(double(b.offset));
    if (x1 - x0 < kMinBufferPixels)
        x1 = x0 + kMinBufferPixels;
    if (y1 - y0 < kMinBufferPixels) {
        // Grown upwards from its address, so it stays on its tick.
        y0 = y1 - kMinBufferPixels;
    }
    return QRectF(QPointF(x0, y0), QPointF(x1, y1));
}

inspector::Legend UbMapView::legend() const
{
    using Mark = LegendEntry::Mark;
    Legend key;
    if (!hasContent())
        return key;
    key.add(Mark::Text, QColor(), tr("x: program point (ops in order) →"));
    key.add(Mark::Box, categoryColor(0), tr("a buffer, live from its first write to its last read (a colour per tile)"));
    if (m_hasPongSlots)
        key.add(Mark::Hatched, m_theme.text, tr("the tile's copy for the next iteration (pong slot)"));
    if (m_hasInPlace)
        key.add(Mark::Seam, m_theme.text, tr("memory handed over in place"));
    key.add(Mark::DashedLine, m_theme.error, tr("peak"));
    if (m_hasLowerBound)
        key.add(Mark::DottedLine, m_theme.warning, tr("lower bound (most bytes live at once)"));
    return key;
}

void UbMapView::paintCanvas(QPainter &p, const QSize &size)
{
    updateAxisPixels(size.width());
    if (!hasContent()) {
        drawEmpty(p, size, m_report ? tr("%1 has no local buffers").arg(QString::fromStdString(m_report->kernel))
                                    : tr("UB map: run or compile a kernel"));
        return;
    }
    const QVector<Band> bands = layout(size);
    const QFontMetrics fm(p.font());
    const int selectedLine = m_state ? m_state->sourceLine() : 0;
    const QString selectedBuffer = m_state ? m_state->buffer() : QString();
    const int selectedPoint = m_state ? m_state->point() : -1;
    p.setPen(m_theme.text);
    p.drawText(QPointF(8, 15), tr("%1 \u2014 buffers over program points").arg(QString::fromStdString(m_report->kernel)));
    const auto heatColor = [](double heat) { return QColor::fromHslF(0.0, 0.85, 0.92 - 0.5 * std::clamp(heat, 0.0, 1.0)); };
    if (showsOverlay()) {
        // Legend: which run, and what the heat means.
        const QRectF strip = overlayStrip(size);
        const QString legend = tr("msprof overlay: %1 \u2014 %2").arg(m_overlay.runLabel, m_overlay.note);
        p.setPen(m_theme.marginText);
        p.drawText(QRectF(0, strip.top(), plotLeft() - 6, strip.height()), Qt::AlignRight | Qt::AlignVCenter, tr("heat"));
        const double titleEnd = 8 + fm.horizontalAdvance(tr("%1 \u2014 buffers over program points").arg(QString::fromStdString(m_report->kernel))) + 24;
        const QRectF legendRect(titleEnd, 15 - fm.ascent(), size.width() - 12 - titleEnd, fm.height());
        p.drawText(legendRect, Qt::AlignRight | Qt::AlignVCenter, fm.elidedText(legend, Qt::ElideMiddle, int(legendRect.width())));
        p.save();
        p.setClipRect(strip);
        p.setPen(Qt::NoPen);
        const int first = std::max(0, int(std::floor(m_x.first)));
        const int last = std::min(int(m_overlay.heat.size()) - 1, int(std::ceil(m_x.last)));
        for (int i = first; i <= last; ++i) {
            if (m_overlay.heat[i] <= 0)
                continue;
            const double x0 = m_x.toPixel(i), x1 = std::max(m_x.toPixel(i + 1), x0 + 1);
            p.setBrush(heatColor(m_overlay.heat[i]));
            p.drawRect(QRectF(QPointF(x0, strip.top()), QPointF(x1, strip.bottom())));
        }
        p.restore();
        p.setPen(m_theme.edge);
        p.setBrush(Qt::NoBrush);
        p.drawRect(strip);
    }

    for (const Band &band : bands) {
        p.setClipping(false);
        p.setPen(m_theme.edge);
        p.setBrush(Qt::NoBrush);
        p.drawRect(band.rect);
        // Address ticks on the left.
        p.setPen(m_theme.marginText);
        p.drawText(QPointF(6, band.rect.top() + fm.ascent()), band.space);
        const double step = niceByteStep(band.scale.maxAddress, std::max(1, int(band.rect.height() / 40)));
        for (double a = 0; a <= band.scale.maxAddress; a += step) {
            const double y = band.scale.toPixel(a);
            p.drawLine(QPointF(band.rect.left() - 4, y), QPointF(band.rect.left(), y));
            if (y > band.rect.top() + fm.height())
                p.drawText(QRectF(0, y - fm.height() / 2.0, band.rect.left() - 6, fm.height()),
                           Qt::AlignRight | Qt::AlignVCenter, bytes(int64_t(a)));
        }
        p.setClipRect(band.rect.adjusted(0, -1, 1, 1));
        if (showsOverlay()) {
            // Hot program points tint the band behind the buffers.
            const int first = std::max(0, int(std::floor(m_x.first)));
            const int last = std::min(int(m_overlay.heat.size()) - 1, int(std::ceil(m_x.last)));
            p.setPen(Qt::NoPen);
            for (int i = first; i <= last; ++i) {
                if (m_overlay.heat[i] < 0.05)
                    continue;
                QColor c = heatColor(1.0);
                c.setAlpha(int(70 * m_overlay.heat[i]));
                p.setBrush(c);
                const double x0 = m_x.toPixel(i), x1 = std::max(m_x.toPixel(i + 1), x0 + 1);
                p.drawRect(QRectF(QPointF(x0, band.rect.top()), QPointF(x1, band.rect.bottom())));
            }
        }
        // Buffers; tiny ones (thousands zoomed out) collapse into 1-px marks.
        for (int index : band.buffers) {
            const asc2::BufferRecord &b = m_report->buffers[index];
            if (b.liveEnd + 1 < m_x.first || b.liveStart > m_x.last)
                continue;
            const QRectF r = bufferRect(band, index);
            QColor fill = categoryColor(m_tileIndex.value(m_tiles.value(index)));
            const bool linked = selectedLine > 0 && b.loc.line == selectedLine;
            const bool selected = QString::fromStdString(b.name) == selectedBuffer;
            if ((selectedLine > 0 || !selectedBuffer.isEmpty()) && !linked && !selected)
                fill.setAlpha(110);
            p.setPen(Qt::NoPen);
            p.setBrush(fill);
            p.drawRect(r);
            const int slot = slotOf(b);
            if (slot > 0 && r.width() > 3 && r.height() > 3) {
                p.setBrush(QBrush(fill.darker(170), slot % 2 ? Qt::BDiagPattern : Qt::FDiagPattern));
                p.drawRect(r);
            }
            if (r.width() > 3 && r.height() > 3) {
                p.setPen(QPen(selected ? m_theme.text : fill.darker(150), selected ? 2.5 : linked ? 1.8 : 0.8));
                p.setBrush(Qt::NoBrush);
                p.drawRect(r);
            }
            if (m_inPlaceFrom.value(index, -1) >= 0 && r.height() > 3) {
                // The seam where this tile takes the one before over, in place.
                p.setPen(QPen(m_theme.text, 2.5));
                p.drawLine(QPointF(r.left(), r.top()), QPointF(r.left(), r.bottom()));
            }
            const QString label = QString::fromStdString(b.name);
            if (r.height() >= fm.height() && r.width() > fm.horizontalAdvance(label) + 6) {
                p.setPen(fill.lightnessF() > 0.55 ? Qt::black : Qt::white);
                p.drawText(r.adjusted(3, 0, -3, 0), Qt::AlignLeft | Qt::AlignVCenter, label);
            }
        }
        // Capacity, peak and lower bound.
        const auto hline = [&](double address, const QColor &color, Qt::PenStyle style, const QString &text) {
            if (address <= 0 || address > band.scale.maxAddress * 1.0001)
                return false;
            const double y = band.scale.toPixel(address);
            p.setPen(QPen(color, 1.4, style));
            p.drawLine(QPointF(band.rect.left(), y), QPointF(band.rect.right(), y));
            p.setPen(color);
            p.drawText(QPointF(band.rect.right() - fm.horizontalAdvance(text) - 4, y - 3), text);
            return true;
        };
        hline(double(band.peak), m_theme.error, Qt::DashLine, tr("peak %1").arg(bytes(band.peak)));
        if (band.lowerBound != band.peak)
            hline(double(band.lowerBound), m_theme.warning, Qt::DotLine, tr("lower bound %1").arg(bytes(band.lowerBound)));
        p.setClipping(false);
        if (!hline(double(band.capacity), m_theme.text, Qt::SolidLine, tr("capacity %1").arg(bytes(band.capacity)))
            && band.capacity > 0) {
            const QString note = tr("capacity %1 (peak uses %2%)")
                                     .arg(bytes(band.capacity))
                                     .arg(100.0 * band.peak / band.capacity, 0, 'f', 1);
            p.setPen(m_theme.marginText);
            p.drawText(QPointF(band.rect.right() - fm.horizontalAdvance(note), band.rect.top() - 4), note);
        }
    }
    p.setClipping(false);
    if (selectedPoint >= 0 && selectedPoint >= m_x.first && selectedPoint <= m_x.last && !bands.isEmpty()) {
        const double x = m_x.toPixel(selectedPoint + 0.5);
        p.setPen(QPen(m_theme.text, 1, Qt::DashDotLine));
        p.drawLine(QPointF(x, bands.first().rect.top()), QPointF(x, bands.last().rect.bottom()));
    }
    drawTimeAxis(p, size.height() - 24 - legendSpace(size.width()), size.width(), QString());
    drawLegend(p, size);
}

int UbMapView::bufferAt(const QPointF &pos) const
{
    if (!hasContent())
        return -1;
    const QVector<Band> bands = layout(size());
    int best = -1;
    double bestArea = 0;
    for (const Band &band : bands) {
        if (!band.rect.contains(pos))
            continue;
        for (int index : band.buffers) {
            const QRectF r = bufferRect(band, index).adjusted(-1, -1, 1, 1);
            const double area = r.width() * r.height();
            if (r.contains(pos) && (best < 0 || area < bestArea)) {
                best = index;
                bestArea = area;
            }
        }
    }
    return best;
}

QString UbMapView::describeBuffer(int index) const
{
    if (!m_report || index < 0 || index >= int(m_report->buffers.size()))
        return {};
    const asc2::BufferRecord &b = m_report->buffers[index];
    const int slot = slotOf(b);
    QString text = tr("<b>%1</b> (tile %2%3)<br>%4: %5 at offset %6 (0x%7)<br>live: points %8\u2013%9")
                       .arg(QString::fromStdString(b.name).toHtmlEscaped(), m_tiles.value(index).toHtmlEscaped(),
                            slot > 0 ? tr(", slot %1 \u2014 %2").arg(slot).arg(slot % 2 ? tr("pong") : tr("ping"))
                                     : QString(),
                            QString::fromStdString(b.space), bytes(b.size))
                       .arg(b.offset)
                       .arg(b.offset, 0, 16)
                       .arg(b.liveStart)
                       .arg(b.liveEnd);
    const auto nameOf = [this](int i) { return QString::fromStdString(m_report->buffers[size_t(i)].name).toHtmlEscaped(); };
    if (const int from = m_inPlaceFrom.value(index, -1); from >= 0)
        text += tr("<br>takes over %1's memory in place at point %2").arg(nameOf(from)).arg(b.liveStart);
    if (const int to = m_inPlaceTo.value(index, -1); to >= 0)
        text += tr("<br>hands its memory over in place to %1 at point %2").arg(nameOf(to)).arg(b.liveEnd);
    if (b.loc.line > 0)
        text += tr("<br>source line %1").arg(b.loc.line);
    return text;
}

QString UbMapView::toolTipAt(const QPointF &pos) const
{
    const int point = overlayPointAt(pos);
    if (point >= 0)
        return describeOverlayPoint(point);
    return describeBuffer(bufferAt(pos));
}

void UbMapView::activateAt(const QPointF &pos)
{
    const_cast<UbMapView *>(this)->updateAxisPixels(width());
    const int index = bufferAt(pos);
    if (!m_state)
        return;
    if (index < 0) {
        m_state->selectBuffer(QString());
        return;
    }
    const asc2::BufferRecord &b = m_report->buffers[index];
    m_state->selectBuffer(QString::fromStdString(b.name), b.liveStart, b.loc.line);
}

// --- panel

UbMapPanel::UbMapPanel(QWidget *parent)
    : QWidget(parent)
    , m_view(new UbMapView(this))
    , m_space(new QComboBox(this))
    , m_overlay(new QCheckBox(tr("msprof overlay"), this))
{
    setObjectName(QStringLiteral("ubMapPanel"));
    m_space->setObjectName(QStringLiteral("ubMapSpace"));
    m_space->setToolTip(tr("The memory space shown; all: one band per space"));
    m_overlay->setObjectName(QStringLiteral("ubMapOverlay"));
    m_overlay->setToolTip(tr("Heat of the imported msprof run over the program points (Inspect \u25b8 Import msprof Data)"));
    auto *fit = new QToolButton(this);
    fit->setText(tr("Fit"));
    fit->setToolTip(tr("Show everything (or double-click the map); wheel zooms, drag pans"));
    connect(fit, &QToolButton::clicked, m_view, &InspectorCanvas::resetZoom);
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(new QLabel(tr("Space:"), this));
    bar->addWidget(m_space);
    bar->addWidget(m_overlay);
    bar->addWidget(fit);
    bar->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    connect(m_space, &QComboBox::currentIndexChanged, this,
            [this](int index) { m_view->setSpaceFilter(index <= 0 ? QString() : m_space->itemText(index)); });
    connect(m_overlay, &QCheckBox::toggled, m_view, &UbMapView::setOverlayVisible);
    refreshControls();
}

void UbMapPanel::setReport(const ReportPtr &report)
{
    m_view->setReport(report);
    refreshControls();
}

void UbMapPanel::setOverlay(const ProfileRun &run)
{
    m_view->setOverlay(run);
    m_view->setOverlayVisible(true);
    refreshControls();
}

void UbMapPanel::refreshControls()
{
    {
        const QSignalBlocker blocker(m_space);
        const QString current = m_view->spaceFilter();
        m_space->clear();
        m_space->addItem(tr("all"));
        m_space->addItems(m_view->spaces());
        const int index = current.isEmpty() ? 0 : int(m_space->findText(current));
        m_space->setCurrentIndex(std::max(0, index));
        if (index < 0)
            m_view->setSpaceFilter(QString());
        m_space->setEnabled(m_space->count() > 2);
    }
    const QSignalBlocker blocker(m_overlay);
    m_overlay->setEnabled(m_view->hasOverlay());
    m_overlay->setChecked(m_view->hasOverlay() && m_view->overlayVisible());
}
