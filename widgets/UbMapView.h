// UB map: x = program point, y = address, one band per memory space of the
// report; a rectangle per buffer over its live range (colour = tile, hatch =
// ping/pong slot), the capacity, peak and lower bound as lines.
#pragma once

#include "InspectorCanvas.h"
#include "ReportPtr.h"

#include <QVector>

class UbMapView : public InspectorCanvas
{
    Q_OBJECT
public:
    explicit UbMapView(QWidget *parent = nullptr);

    void setReport(const ReportPtr &report);
    ReportPtr report() const { return m_report; }

    struct Band {
        QString space;
        QRectF rect;
        inspector::AddressScale scale;
        int64_t capacity = 0, peak = 0, lowerBound = 0;
        QVector<int> buffers; // indices into report->buffers
    };
    /// The bands for a canvas of @p size (also used for hit testing).
    QVector<Band> layout(const QSize &size) const;
    /// Buffer under @p pos in the widget, or -1.
    int bufferAt(const QPointF &pos) const;
    /// Tooltip text of buffer @p index.
    QString describeBuffer(int index) const;

    void paintCanvas(QPainter &painter, const QSize &size) override;
    QString toolTipAt(const QPointF &pos) const override;
    void activateAt(const QPointF &pos) override;
    bool hasContent() const override;

protected:
    double plotLeft() const override { return 84; }
    void onWindowChanged() override;

private:
    void followState();
    void followWindow(double first, double last);
    QRectF bufferRect(const Band &band, const asc2::BufferRecord &b) const;

    ReportPtr m_report;
    QHash<QString, int> m_tileIndex;
    QSet<QString> m_names;
    bool m_syncingWindow = false;
};
