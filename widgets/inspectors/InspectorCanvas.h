// Base of the painted inspectors (UB map, sync timeline, ping-pong): a
// horizontal Axis zoomed with the wheel and panned by dragging, tooltips
// and clicks resolved by the subclass, and painting that targets any
// QPaintDevice so the same code draws the widget, PNG/SVG exports and the
// offscreen benchmark.
#pragma once

#include "InspectorGeometry.h"
#include "InspectorLegend.h"
#include "InspectorState.h"
#include "Theme.h"

#include "asc2/Arch/Pipe.h"

#include <QColor>
#include <QPointer>
#include <QWidget>

class QPainter;

namespace inspector {
using asc2::Pipe;
QColor pipeColor(Pipe pipe);
/// Waiting for a flag (a stall), hatched in this colour in every view.
QColor stallColor();
/// A stable, distinct colour per index (tiles, iterations).
QColor categoryColor(int index);
}

class InspectorCanvas : public QWidget
{
    Q_OBJECT
public:
    explicit InspectorCanvas(QWidget *parent = nullptr);

    void setState(InspectorState *state);
    InspectorState *state() const { return m_state; }
    void setTheme(const Theme &theme);
    const Theme &theme() const { return m_theme; }

    /// Draws the whole view into @p size on @p painter (widget, image, SVG).
    virtual void paintCanvas(QPainter &painter, const QSize &size) = 0;
    /// What the view says about the place under @p pos ("" : nothing).
    virtual QString toolTipAt(const QPointF &pos) const = 0;
    /// A click at @p pos: select what is there in the shared state.
    virtual void activateAt(const QPointF &pos) = 0;
    /// Whether there is something to draw.
    virtual bool hasContent() const = 0;
    /// The height an exported image needs to show the content without blank
    /// space or crowding (0: the caller's choice).
    virtual int preferredImageHeight() const { return 0; }

    inspector::Axis &xAxis() { return m_x; }
    const inspector::Axis &xAxis() const { return m_x; }
    void zoomBy(double factor, double atPixel);
    void panBy(double pixels);
    void resetZoom();

    QImage renderImage(const QSize &size);
    /// Writes the view to a .png or .svg file (by suffix).
    bool exportTo(const QString &path, QString *error = nullptr);

    /// What the view's colours and marks mean and what its x axis counts,
    /// drawn at its foot (under the time axis) on screen and in exports.
    virtual inspector::Legend legend() const { return {}; }
    /// The height legend() takes at the foot of a view @p width wide.
    double legendSpace(double width) const;

    QSize sizeHint() const override { return {800, 360}; }
    /// Where the on-screen strip saying the results are stale is (empty: none).
    QRect staleNoteRect() const;

signals:
    void viewChanged();

protected:
    /// Left edge of the plotting area (lanes' header column).
    virtual double plotLeft() const { return 72; }
    /// Called after zoom/pan changed the window (views sharing it push it).
    virtual void onWindowChanged() {}
    void updateAxisPixels(double width);
    void drawTimeAxis(QPainter &p, double y, double width, const QString &unit) const;
    /// Draws legend() in the bottom legendSpace() of @p size, or from @p top
    /// (a view whose content ends above its foot).
    void drawLegend(QPainter &p, const QSize &size, double top = -1) const;
    void drawEmpty(QPainter &p, const QSize &size, const QString &message) const;
    void drawStaleNote(QPainter &p) const;

    void paintEvent(QPaintEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    /// Perfetto's keys: W/S zoom in/out at the centre, A/D pan, 0 shows all.
    void keyPressEvent(QKeyEvent *event) override;
    bool event(QEvent *event) override;

    QPointer<InspectorState> m_state;
    Theme m_theme;
    inspector::Axis m_x;

private:
    QPoint m_pressPos;
    QPoint m_lastDragPos;
    bool m_dragging = false;
};
