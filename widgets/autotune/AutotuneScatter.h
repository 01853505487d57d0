// The configs of one sweep as points: x = UB peak (KiB), y = what the
// winner is chosen by (cycles, or µs off the simulator), coloured by
// verdict, the winner ringed. Hover explains a point, a click selects its
// config; the wheel zooms the UB axis as in the other inspectors.
#pragma once

#include "AutotuneData.h"
#include "InspectorCanvas.h"

#include <QVector>

namespace autotune {

/// Where the scatter draws: the x axis (KiB, zoomable) and a y axis from
/// yMin at the bottom of the plot to yMax at its top, linear from 0, or
/// logarithmic when the configs' times span more than a decade or so (a
/// tile 10x too small is 20x slower: linear, every good config sits on 0).
struct ScatterScale {
    inspector::Axis x;
    bool logY = false;
    double yMin = 0, yMax = 1;
    double top = 0, bottom = 100; // pixel rows of yMax and of yMin

    double toY(double value) const
    {
        const double f = logY ? std::log(value / yMin) / std::log(yMax / yMin) : (value - yMin) / (yMax - yMin);
        return bottom - f * (bottom - top);
    }
    QPointF toPixel(double kib, double value) const { return {x.toPixel(kib), toY(value)}; }
    /// The y extent for values from @p min to @p max (both > 0 for a log axis).
    void fitY(double min, double max);
    /// The y values with a tick and a grid line: about @p count of them
    /// (1, 2, 5 x 10^k on a log axis).
    QVector<double> yTicks(int count) const;
};

} // namespace autotune

class AutotuneScatter : public InspectorCanvas
{
    Q_OBJECT
public:
    explicit AutotuneScatter(QWidget *parent = nullptr);

    void setSweep(const autotune::Sweep &sweep);
    void clear();
    /// Marks the config at @p position of the sweep (-1: none).
    void setSelectedPosition(int position);
    int selectedPosition() const { return m_selected; }

    /// The scale for a canvas of @p size (the x axis keeps its zoom).
    autotune::ScatterScale scaleFor(const QSize &size) const;
    /// Whether the config at @p position has a point (both numbers known).
    bool isPlotted(int position) const;
    /// Centre of the point of the config at @p position, on the widget.
    QPointF pointOf(int position) const;
    /// Position of the config whose point is under @p pos (nearest within reach), or -1.
    int positionAt(const QPointF &pos) const;

    /// The verdicts' colours, then what has no point (drawn in the header).
    inspector::Legend legend() const override;

    void paintCanvas(QPainter &painter, const QSize &size) override;
    QString toolTipAt(const QPointF &pos) const override;
    void activateAt(const QPointF &pos) override;
    bool hasContent() const override { return m_hasSweep; }
    QSize sizeHint() const override { return {600, 300}; }

signals:
    /// The reader clicked the point of the config at @p position.
    void configClicked(int position);

protected:
    double plotLeft() const override;

private:
    /// The verdicts' colours, from the theme.
    QColor colorOf(const autotune::ConfigResult &config) const;
    QString yTitle() const;
    double headerHeight(double width) const;
    double footerHeight() const;
    void updateExtent();

    autotune::Sweep m_sweep;
    bool m_hasSweep = false;
    autotune::ScatterScale m_y; // the y extent; x is the canvas's axis
    int m_selected = -1;
};
