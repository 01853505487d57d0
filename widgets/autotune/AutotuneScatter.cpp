#include "AutotuneScatter.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QLocale>
#include <QMap>
#include <QPainter>

#include <algorithm>
#include <functional>

using autotune::ConfigResult;
using autotune::ScatterScale;
using autotune::Sweep;

namespace {
constexpr double kPointRadius = 5;
constexpr double kWinnerRing = 9;
constexpr double kSelectionRing = 13;
constexpr double kReach = 10; // pixels from a point's centre that still hit it
constexpr double kRightMargin = 12; // as InspectorCanvas::updateAxisPixels

double kib(double bytes)
{
    return bytes / 1024.0;
}

// Tick labels: 52,318 cycles read as 52.3k; µs keep their decimals.
QString compact(double value)
{
    const double a = std::abs(value);
    if (a >= 1e6)
        return QString::number(value / 1e6, 'g', 3) + QLatin1Char('M');
    if (a >= 1e4)
        return QString::number(value / 1e3, 'g', 3) + QLatin1Char('k');
    return QString::number(value, 'g', 4);
}

} // namespace

namespace {
// The 1, 2, 5 x 10^k just below and just above a value.
double niceBelow(double v)
{
    const double decade = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {5.0, 2.0, 1.0}) {
        if (m * decade <= v)
            return m * decade;
    }
    return decade;
}

double niceAbove(double v)
{
    const double decade = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 5.0}) {
        if (m * decade >= v)
            return m * decade;
    }
    return 10 * decade;
}
} // namespace

void ScatterScale::fitY(double min, double max)
{
    logY = min > 0 && max / min >= 20;
    if (logY) {
        yMin = niceBelow(min / 1.25);
        yMax = niceAbove(max * 1.25);
        return;
    }
    yMin = 0;
    if (!(max > 0)) {
        yMax = 1;
        return;
    }
    // Room above the highest point, on a tick.
    const double want = max * 1.08;
    const double step = inspector::niceStep(want, 5);
    yMax = std::ceil(want / step) * step;
}

QVector<double> ScatterScale::yTicks(int count) const
{
    QVector<double> ticks;
    if (!logY) {
        const double step = inspector::niceStep(yMax - yMin, std::max(2, count));
        for (double v = yMin; v <= yMax + step * 1e-9; v += step)
            ticks << v;
        return ticks;
    }
    const int decades = int(std::ceil(std::log10(yMax / yMin)));
    // 1, 2, 5 in each decade while they fit, else the powers of ten alone.
    const QVector<double> steps = decades * 3 <= std::max(2, count) ? QVector<double>{1, 2, 5} : QVector<double>{1};
    for (double decade = std::pow(10.0, std::floor(std::log10(yMin))); decade <= yMax; decade *= 10) {
        for (double m : steps) {
            const double v = m * decade;
            if (v >= yMin * (1 - 1e-9) && v <= yMax * (1 + 1e-9))
                ticks << v;
        }
    }
    return ticks;
}

AutotuneScatter::AutotuneScatter(QWidget *parent)
    : InspectorCanvas(parent)
{
    setObjectName(QStringLiteral("autotuneScatter"));
    setWindowTitle(tr("Autotune: time against UB use"));
    setMinimumSize(260, 160);
}

void AutotuneScatter::setSweep(const Sweep &sweep)
{
    const bool sameSweep = m_hasSweep && sweep.id == m_sweep.id;
    m_sweep = sweep;
    m_hasSweep = true;
    if (!sameSweep)
        m_selected = -1;
    updateExtent();
    update();
}

void AutotuneScatter::clear()
{
    m_sweep = Sweep();
    m_hasSweep = false;
    m_selected = -1;
    updateExtent();
    update();
}

void AutotuneScatter::setSelectedPosition(int position)
{
    if (position == m_selected)
        return;
    m_selected = position;
    update();
}

bool AutotuneScatter::isPlotted(int position) const
{
    if (position < 0 || position >= m_sweep.configs.size())
        return false;
    const ConfigResult &c = m_sweep.configs[position];
    return c.done && !std::isnan(c.ubPeak) && !std::isnan(m_sweep.measureOf(c));
}

void AutotuneScatter::updateExtent()
{
    double maxPeak = 0, minValue = INFINITY, maxValue = 0, capacity = 0;
    for (int i = 0; i < m_sweep.configs.size(); ++i) {
        const ConfigResult &c = m_sweep.configs[i];
        if (c.ubCapacity > 0)
            capacity = std::max(capacity, kib(c.ubCapacity));
        if (!isPlotted(i))
            continue;
        maxPeak = std::max(maxPeak, kib(c.ubPeak));
        minValue = std::min(minValue, m_sweep.measureOf(c));
        maxValue = std::max(maxValue, m_sweep.measureOf(c));
    }
    double upper = std::max(1.0, maxPeak * 1.15);
    // The capacity line is worth showing when the peaks come near it.
    if (capacity > 0 && capacity <= maxPeak * 1.6)
        upper = std::max(upper, capacity * 1.04);
    if (upper != m_x.upper || m_x.lower != 0)
        m_x.setExtent(0, upper);
    m_y.fitY(minValue, maxValue);
}

double AutotuneScatter::plotLeft() const
{
    // Room for the widest y label.
    const QFontMetricsF fm(font());
    return std::max(44.0, fm.horizontalAdvance(compact(m_y.yMax) + QStringLiteral("00")) + 10);
}

QColor AutotuneScatter::colorOf(const ConfigResult &config) const
{
    if (config.isWinner())
        return m_theme.type;
    if (config.verdict == QLatin1String("ok"))
        return m_theme.link;
    if (config.verdict == QLatin1String("mismatch"))
        return m_theme.error;
    return m_theme.marginText;
}

namespace {
// The legend: the verdicts that have points, then what has none.
inspector::Legend legendOf(const Sweep &sweep, const std::function<bool(int)> &plotted,
                           const std::function<QColor(const ConfigResult &)> &colorOf)
{
    using Mark = inspector::LegendEntry::Mark;
    inspector::Legend items;
    QStringList seen;
    QMap<QString, int> unplotted;
    int pending = 0;
    for (int i = 0; i < sweep.configs.size(); ++i) {
        const ConfigResult &c = sweep.configs[i];
        if (!c.done) {
            ++pending;
        } else if (!plotted(i)) {
            unplotted[c.verdict.isEmpty() ? QStringLiteral("?") : c.verdict] += 1;
        } else if (!seen.contains(c.verdict)) {
            seen << c.verdict;
        }
    }
    static const char *const order[] = {"winner", "ok", "mismatch"};
    for (const char *verdict : order) {
        if (seen.removeAll(QLatin1String(verdict))) {
            ConfigResult c;
            c.verdict = QLatin1String(verdict);
            items.add(c.isWinner() ? Mark::RingedDot : Mark::Dot, colorOf(c),
                      c.isWinner() ? QStringLiteral("\u2605 winner") : c.verdict);
        }
    }
    for (const QString &verdict : std::as_const(seen)) {
        ConfigResult c;
        c.verdict = verdict;
        items.add(Mark::Dot, colorOf(c), verdict);
    }
    QStringList missing;
    for (auto it = unplotted.cbegin(); it != unplotted.cend(); ++it)
        missing << QStringLiteral("%1 %2").arg(it.value()).arg(it.key());
    if (pending)
        missing << QCoreApplication::translate("AutotuneScatter", "%1 pending").arg(pending);
    if (!missing.isEmpty())
        items.add(Mark::Text, QColor(),
                  QCoreApplication::translate("AutotuneScatter", "no point: %1").arg(missing.join(QStringLiteral(", "))));
    return items;
}
} // namespace

QString AutotuneScatter::yTitle() const
{
    const QString title = m_sweep.timedInCycles() ? tr("cycles") : tr("time (\u00b5s)");
    return m_y.logY ? tr("%1, log scale").arg(title) : title;
}

inspector::Legend AutotuneScatter::legend() const
{
    return legendOf(
        m_sweep, [this](int i) { return isPlotted(i); }, [this](const ConfigResult &c) { return colorOf(c); });
}

double AutotuneScatter::headerHeight(double width) const
{
    const QFontMetricsF fm(font());
    // The legend follows the y axis title on its line, later rows under the plot's left edge.
    const double titleEnd = 8 + fm.horizontalAdvance(yTitle()) + 20;
    return 6 + legend().height(fm, width - kRightMargin - plotLeft(), titleEnd - plotLeft()) + 4;
}

double AutotuneScatter::footerHeight() const
{
    const QFontMetricsF fm(font());
    return 2 * fm.height() + 14;
}

ScatterScale AutotuneScatter::scaleFor(const QSize &size) const
{
    ScatterScale scale = m_y;
    scale.x = m_x;
    scale.x.setPixels(plotLeft(), size.width() - kRightMargin);
    scale.top = headerHeight(size.width()) + 8;
    scale.bottom = std::max(scale.top + 20, size.height() - footerHeight());
    return scale;
}

QPointF AutotuneScatter::pointOf(int position) const
{
    if (!isPlotted(position))
        return {};
    const ConfigResult &c = m_sweep.configs[position];
    return scaleFor(size()).toPixel(kib(c.ubPeak), m_sweep.measureOf(c));
}

int AutotuneScatter::positionAt(const QPointF &pos) const
{
    const ScatterScale scale = scaleFor(size());
    int best = -1;
    double bestDistance = kReach;
    for (int i = 0; i < m_sweep.configs.size(); ++i) {
        if (!isPlotted(i))
            continue;
        const ConfigResult &c = m_sweep.configs[i];
        const QPointF d = scale.toPixel(kib(c.ubPeak), m_sweep.measureOf(c)) - pos;
        const double distance = std::hypot(d.x(), d.y());
        if (distance <= bestDistance) {
            best = i;
            bestDistance = distance;
        }
    }
    return best;
}

QString AutotuneScatter::toolTipAt(const QPointF &pos) const
{
    const int position = positionAt(pos);
    if (position < 0)
        return {};
    const ConfigResult &c = m_sweep.configs[position];
    const QLocale locale;
    const double value = m_sweep.measureOf(c);
    QStringList lines;
    lines << tr("#%1 %2").arg(c.index).arg(c.params);
    const QString measure = m_sweep.timedInCycles() ? tr("%1 cycles").arg(locale.toString(qlonglong(value)))
                                                    : tr("%1 \u00b5s").arg(locale.toString(value, 'f', 2));
    lines << (std::isnan(c.ubShare()) ? tr("%1, UB peak %2 KiB").arg(measure).arg(kib(c.ubPeak), 0, 'f', 1)
                                      : tr("%1, UB peak %2 KiB (%3% of %4 KiB)")
                                            .arg(measure)
                                            .arg(kib(c.ubPeak), 0, 'f', 1)
                                            .arg(c.ubShare(), 0, 'f', 1)
                                            .arg(kib(c.ubCapacity), 0, 'f', 0));
    QString verdict = c.isWinner() ? tr("\u2605 winner") : c.verdict;
    if (!c.boundPipe.isEmpty())
        verdict = tr("%1, bound by %2").arg(verdict, c.boundPipe);
    lines << verdict;
    if (!c.reason.isEmpty() && !c.isWinner())
        lines << c.reason.section(QLatin1Char('\n'), 0, 0);
    return lines.join(QLatin1Char('\n'));
}

void AutotuneScatter::activateAt(const QPointF &pos)
{
    const int position = positionAt(pos);
    if (position < 0)
        return;
    setSelectedPosition(position);
    emit configClicked(position);
}

void AutotuneScatter::paintCanvas(QPainter &p, const QSize &size)
{
    if (!m_hasSweep) {
        drawEmpty(p, size,
                  tr("Autotune: run a script that tunes a kernel (@asc2.autotune); its configs appear here as they "
                     "finish."));
        return;
    }
    const QFontMetricsF fm(p.font());
    const ScatterScale scale = scaleFor(size);
    m_x = scale.x; // the base class's tooltips and zoom use the same pixels
    const QRectF plot(QPointF(scale.x.pixelStart, scale.top), QPointF(scale.x.pixelEnd, scale.bottom));

    // Header: the y axis title, then the legend.
    p.setPen(m_theme.text);
    p.drawText(QPointF(8, 6 + fm.ascent()), yTitle());
    const double titleEnd = 8 + fm.horizontalAdvance(yTitle()) + 20;
    legend().draw(p, plotLeft(), 6, size.width() - kRightMargin - plotLeft(), m_theme, titleEnd - plotLeft());

    // Axes: y ticks with grid lines, the x axis with its ticks, both titled with units.
    for (double v : scale.yTicks(int((scale.bottom - scale.top) / (fm.height() * 2.2)))) {
        const double y = scale.toY(v);
        p.setPen(QPen(m_theme.edge, 1));
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        p.setPen(m_theme.marginText);
        const QString label = compact(v);
        p.drawText(QPointF(plot.left() - 6 - fm.horizontalAdvance(label), y + fm.ascent() / 2 - 1), label);
    }
    p.setPen(m_theme.marginText);
    p.drawLine(plot.topLeft(), plot.bottomLeft());
    drawTimeAxis(p, plot.bottom(), size.width(), QString());
    const QString xTitle = tr("UB peak (KiB)");
    p.setPen(m_theme.text);
    p.drawText(QPointF(plot.center().x() - fm.horizontalAdvance(xTitle) / 2, plot.bottom() + 8 + fm.height() + fm.ascent()),
               xTitle);

    double capacity = 0;
    for (const ConfigResult &c : std::as_const(m_sweep.configs))
        capacity = std::max(capacity, c.ubCapacity > 0 ? kib(c.ubCapacity) : 0.0);
    p.save();
    // Rings may cross the axes; nothing goes into the header.
    p.setClipRect(plot.adjusted(-kSelectionRing - 2, -kWinnerRing - 2, kSelectionRing + 2, kSelectionRing + 2));
    if (capacity > 0 && capacity >= m_x.first && capacity <= m_x.last) {
        const double x = m_x.toPixel(capacity);
        p.setPen(QPen(m_theme.warning, 1.5, Qt::DashLine));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        const QString label = tr("UB capacity %1 KiB").arg(capacity, 0, 'f', 0);
        p.setPen(m_theme.text);
        p.drawText(QPointF(x - 4 - fm.horizontalAdvance(label), plot.top() + fm.ascent() + 2), label);
    }

    bool anyPoint = false;
    const auto drawPoint = [&](int i) {
        const ConfigResult &c = m_sweep.configs[i];
        const QPointF at = scale.toPixel(kib(c.ubPeak), m_sweep.measureOf(c));
        p.setPen(QPen(m_theme.background, 1));
        p.setBrush(colorOf(c));
        p.drawEllipse(at, kPointRadius, kPointRadius);
        p.setBrush(Qt::NoBrush);
        if (c.isWinner()) {
            p.setPen(QPen(m_theme.text, 2));
            p.drawEllipse(at, kWinnerRing, kWinnerRing);
        }
        if (m_sweep.configs.size() <= 40 || c.isWinner()) {
            QFont font = p.font();
            font.setBold(c.isWinner());
            p.save();
            p.setFont(font);
            p.setPen(c.isWinner() ? m_theme.text : m_theme.marginText);
            p.drawText(at + QPointF(kSelectionRing, -4), c.isWinner() ? tr("\u2605 #%1").arg(c.index)
                                                                         : tr("#%1").arg(c.index));
            p.restore();
        }
        anyPoint = true;
    };
    // The winner last, so no other point covers it.
    const int winner = m_sweep.winnerPosition();
    for (int i = 0; i < m_sweep.configs.size(); ++i) {
        if (i != winner && isPlotted(i))
            drawPoint(i);
    }
    if (isPlotted(winner))
        drawPoint(winner);
    if (isPlotted(m_selected)) {
        const ConfigResult &c = m_sweep.configs[m_selected];
        const QPointF at = scale.toPixel(kib(c.ubPeak), m_sweep.measureOf(c));
        const QColor highlight = m_theme.palette.color(QPalette::Highlight);
        p.setPen(QPen(highlight, 1, Qt::DotLine));
        p.drawLine(QPointF(plot.left(), at.y()), at);
        p.drawLine(at, QPointF(at.x(), plot.bottom()));
        p.setPen(QPen(highlight, 2.5));
        p.drawEllipse(at, kSelectionRing, kSelectionRing);
    }
    p.restore();

    if (!anyPoint) {
        const QString message = m_sweep.state == Sweep::State::Running
            ? tr("Waiting for the first config to finish\u2026")
            : tr("No config has both a time and a UB peak to plot.");
        p.setPen(m_theme.marginText);
        p.drawText(plot, Qt::AlignCenter | Qt::TextWordWrap, message);
    }
}
