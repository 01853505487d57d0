#include "InspectorLegend.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

namespace inspector {

namespace {
constexpr double kMarkGap = 4;    // between a mark and its text
constexpr double kEntryGap = 14;  // between entries
constexpr double kRowGap = 4;
constexpr double kDotRadius = 5;
} // namespace

double Legend::markWidth(LegendEntry::Mark mark)
{
    switch (mark) {
    case LegendEntry::Mark::Text: return 0;
    case LegendEntry::Mark::Seam:
    case LegendEntry::Mark::MarkerDown: return 9;
    case LegendEntry::Mark::Dot:
    case LegendEntry::Mark::RingedDot: return 2 * kDotRadius;
    case LegendEntry::Mark::DashedLine:
    case LegendEntry::Mark::DottedLine:
    case LegendEntry::Mark::Arrow:
    case LegendEntry::Mark::DashedArrow: return 20;
    default: return 12;
    }
}

QVector<Legend::Placed> Legend::place(const QFontMetricsF &fm, double width, double firstRow) const
{
    QVector<Placed> placed;
    double x = firstRow, y = 0;
    const double rowHeight = fm.height() + kRowGap;
    for (const LegendEntry &e : m_entries) {
        const double mark = markWidth(e.mark);
        const double w = mark + (mark > 0 ? kMarkGap : 0) + fm.horizontalAdvance(e.text);
        if (x > 0 && x + w > width) {
            x = 0;
            y += rowHeight;
        }
        placed.push_back({x, y});
        x += w + kEntryGap;
    }
    return placed;
}

double Legend::height(const QFontMetricsF &fm, double width, double firstRow) const
{
    if (m_entries.isEmpty())
        return 0;
    return place(fm, width, firstRow).last().y + fm.height();
}

double Legend::draw(QPainter &p, double left, double top, double width, const Theme &theme, double firstRow) const
{
    if (m_entries.isEmpty())
        return 0;
    const QFontMetricsF fm(p.font());
    const QVector<Placed> placed = place(fm, width, firstRow);
    p.save();
    for (int i = 0; i < m_entries.size(); ++i) {
        const LegendEntry &e = m_entries[i];
        const double x = left + placed[i].x, y = top + placed[i].y;
        const double mid = y + fm.height() / 2;
        const QRectF box(x, mid - 5, markWidth(e.mark), 10);
        p.setBrush(Qt::NoBrush);
        switch (e.mark) {
        case LegendEntry::Mark::Box:
            p.setPen(QPen(e.color.darker(130), 0.8));
            p.setBrush(e.color);
            p.drawRect(box);
            break;
        case LegendEntry::Mark::Hatched:
            p.setPen(QPen(e.color, 1));
            p.setBrush(QBrush(e.color, Qt::BDiagPattern));
            p.drawRect(box);
            break;
        case LegendEntry::Mark::Outline:
            p.setPen(QPen(e.color, 1));
            p.setBrush(QColor(128, 128, 128, 40));
            p.drawRect(box);
            break;
        case LegendEntry::Mark::DashedLine:
        case LegendEntry::Mark::DottedLine:
            p.setPen(QPen(e.color, 1.4, e.mark == LegendEntry::Mark::DashedLine ? Qt::DashLine : Qt::DotLine));
            p.drawLine(QPointF(box.left(), mid), QPointF(box.right(), mid));
            break;
        case LegendEntry::Mark::MarkerDown: {
            p.setPen(QPen(e.color, 1));
            p.setBrush(e.color);
            QPolygonF tri;
            tri << QPointF(box.left(), mid - 4) << QPointF(box.right(), mid - 4) << QPointF(box.center().x(), mid + 3);
            p.drawPolygon(tri);
            break;
        }
        case LegendEntry::Mark::Arrow:
        case LegendEntry::Mark::DashedArrow: {
            p.setPen(QPen(e.color, 1.2, e.mark == LegendEntry::Mark::Arrow ? Qt::SolidLine : Qt::DashLine));
            p.drawLine(QPointF(box.left(), mid), QPointF(box.right() - 3, mid));
            p.setPen(Qt::NoPen);
            p.setBrush(e.color);
            QPolygonF head;
            head << QPointF(box.right(), mid) << QPointF(box.right() - 6, mid - 3) << QPointF(box.right() - 6, mid + 3);
            p.drawPolygon(head);
            break;
        }
        case LegendEntry::Mark::Seam:
            p.setPen(QPen(e.color, 2.5));
            p.drawLine(QPointF(box.center().x(), mid - 6), QPointF(box.center().x(), mid + 6));
            break;
        case LegendEntry::Mark::Dot:
        case LegendEntry::Mark::RingedDot:
            p.setPen(QPen(theme.background, 1));
            p.setBrush(e.color);
            p.drawEllipse(box.center(), kDotRadius, kDotRadius);
            if (e.mark == LegendEntry::Mark::RingedDot) {
                p.setBrush(Qt::NoBrush);
                p.setPen(QPen(theme.text, 1.5));
                p.drawEllipse(box.center(), kDotRadius + 2.5, kDotRadius + 2.5);
            }
            break;
        case LegendEntry::Mark::Text: break;
        }
        const double mark = markWidth(e.mark);
        p.setPen(e.mark == LegendEntry::Mark::Text ? theme.marginText : theme.text);
        p.drawText(QPointF(x + mark + (mark > 0 ? kMarkGap : 0), y + fm.ascent()), e.text);
    }
    p.restore();
    return placed.last().y + fm.height();
}

} // namespace inspector
