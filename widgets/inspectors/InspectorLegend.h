// The key under a painted inspector: what its colours, hatchings and marks
// mean, and what its horizontal axis counts. One row of entries, wrapped
// onto more rows when the view is narrow; the views lay out around
// height() and draw() the same entries, so both agree on where it goes.
#pragma once

#include "Theme.h"

#include <QColor>
#include <QString>
#include <QVector>

class QFontMetricsF;
class QPainter;
class QPointF;

namespace inspector {

struct LegendEntry
{
    enum class Mark {
        Box,          ///< a filled box in the colour (a pipe, a tile)
        Hatched,      ///< a box hatched in the colour (waiting, a pong slot)
        Outline,      ///< an empty box outlined in the colour (a span)
        DashedLine,   ///< a dashed line (peak)
        DottedLine,   ///< a dotted line (lower bound)
        MarkerDown,   ///< a ▼ (set_flag)
        Arrow,        ///< an arrow (set -> wait)
        DashedArrow,  ///< a dashed arrow (to the next iteration)
        Seam,         ///< a thick vertical seam (hand-over in place)
        Dot,          ///< a point of a scatter plot
        RingedDot,    ///< a point with a ring (the best one)
        Text,         ///< no mark: the text alone (the axis)
    };
    Mark mark = Mark::Box;
    QColor color;
    QString text;
};

class Legend
{
public:
    Legend() = default;
    explicit Legend(QVector<LegendEntry> entries) : m_entries(std::move(entries)) {}
    void add(LegendEntry::Mark mark, const QColor &color, const QString &text) { m_entries.push_back({mark, color, text}); }
    bool isEmpty() const { return m_entries.isEmpty(); }
    const QVector<LegendEntry> &entries() const { return m_entries; }

    /// The height the entries take in @p width with the font of @p fm. The
    /// first row may start @p firstRow pixels right of the others (after a
    /// title on the same line).
    double height(const QFontMetricsF &fm, double width, double firstRow = 0) const;
    /// Draws them from @p left, @p top within @p width; returns the height.
    double draw(QPainter &p, double left, double top, double width, const Theme &theme, double firstRow = 0) const;

private:
    struct Placed
    {
        double x, y;
    };
    QVector<Placed> place(const QFontMetricsF &fm, double width, double firstRow) const;
    static double markWidth(LegendEntry::Mark mark);

    QVector<LegendEntry> m_entries;
};

} // namespace inspector
