// UB map: x = program point, y = address, one band per memory space of the
// report; a rectangle per buffer over its live range (colour = tile, hatch =
// ping/pong slot, a seam where one tile takes another's memory over in
// place), the capacity, peak and lower bound as lines, and a legend saying so.
#pragma once

#include "InspectorCanvas.h"
#include "ProfileData.h"
#include "ReportPtr.h"

#include <QVector>

class QCheckBox;
class QComboBox;

class UbMapView : public InspectorCanvas
{
    Q_OBJECT
public:
    explicit UbMapView(QWidget *parent = nullptr);

    void setReport(const ReportPtr &report);
    ReportPtr report() const { return m_report; }

    /// Memory spaces of the report in drawing order (UB, L1, L0A, L0B, L0C,
    /// then any other), those with buffers or a peak.
    QStringList spaces() const;
    /// Shows only @p space ("": every space, one band each).
    void setSpaceFilter(const QString &space);
    QString spaceFilter() const { return m_spaceFilter; }

    /// Lays @p run (an msprof import) over the program points: a heat strip
    /// above the bands, hot points tinted in them, a legend naming the run.
    void setOverlay(const inspector::ProfileRun &run);
    void clearOverlay();
    bool hasOverlay() const { return !m_overlay.isEmpty(); }
    void setOverlayVisible(bool visible);
    bool overlayVisible() const { return m_overlayVisible; }
    const inspector::PointHeat &overlay() const { return m_overlay; }
    /// The strip's rectangle for a canvas of @p size (empty when not shown).
    QRectF overlayStrip(const QSize &size) const;
    /// Program point of the strip under @p pos, or -1.
    int overlayPointAt(const QPointF &pos) const;

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
    /// Buffer @p index's rectangle: its live range by its addresses, at least
    /// 3 px each way; a hand-over in place splits the shared
    /// point between the two tiles instead of drawing them overlapped.
    QRectF bufferRect(const Band &band, int index) const;
    inspector::Legend legend() const override;

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
    bool showsOverlay() const { return m_overlayVisible && !m_overlay.isEmpty(); }
    QString describeOverlayPoint(int point) const;

    ReportPtr m_report;
    QString m_spaceFilter;
    inspector::ProfileRun m_overlayRun;
    bool m_hasOverlayRun = false;
    inspector::PointHeat m_overlay;
    bool m_overlayVisible = true;
    QHash<QString, int> m_tileIndex;
    QStringList m_tiles; // per buffer: the tile it holds (its first copy's name)
    QVector<int> m_inPlaceFrom; // per buffer: whose memory it takes over in place (-1: none)
    QVector<int> m_inPlaceTo;   // per buffer: who takes its memory over in place (-1: none)
    bool m_hasInPlace = false, m_hasPongSlots = false, m_hasLowerBound = false; // what the legend names
    bool m_syncingWindow = false;
};

/// The UB map with its controls: the memory space shown and the msprof overlay.
class UbMapPanel : public QWidget
{
    Q_OBJECT
public:
    explicit UbMapPanel(QWidget *parent = nullptr);
    UbMapView *view() const { return m_view; }
    void setReport(const ReportPtr &report);
    void setOverlay(const inspector::ProfileRun &run);
    QComboBox *spaceBox() const { return m_space; }
    QCheckBox *overlayBox() const { return m_overlay; }

private:
    void refreshControls();
    UbMapView *m_view;
    QComboBox *m_space;
    QCheckBox *m_overlay;
};
