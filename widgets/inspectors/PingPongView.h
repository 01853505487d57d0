// Ping-pong schedule: the simulated run of one core as a Gantt with one row
// per loop iteration (iteration k starts at the k-th issue of the loop's
// first load), bars coloured by pipe, stalls hatched in red, a legend under
// the time axis, so a load of iteration k+1 under the compute of k is plain
// to see.
#pragma once

#include "InspectorCanvas.h"
#include "InspectorData.h"

class QComboBox;
class QLabel;

class PingPongView : public InspectorCanvas
{
    Q_OBJECT
public:
    explicit PingPongView(QWidget *parent = nullptr);

    void setTrace(const inspector::SimTrace &trace);
    void setCore(int core);
    /// The compiler batched a row loop (asctile-batch-rows changed the IR):
    /// one iteration moves several rows, and the title says so (a core with a
    /// few rows then runs its loop once or twice).
    void setBatchedRows(bool batched);
    bool batchedRows() const { return m_batchedRows; }
    int core() const { return m_core; }
    const inspector::SimTrace &trace() const { return m_trace; }

    const QVector<inspector::Iteration> &iterations() const { return m_iterations; }
    /// Iteration of each event of the core (by its occurrence among the
    /// events of the same op), -1 before the loop.
    const QVector<int> &iterationOfEvent() const { return m_iterationOf; }
    const QVector<inspector::TraceEvent> &events() const { return m_events; }
    /// Time MTE2 spends loading while V computes another iteration, over all MTE2 time.
    double loadComputeOverlap() const { return m_overlap; }

    void paintCanvas(QPainter &painter, const QSize &size) override;
    inspector::Legend legend() const override;
    /// Whose trace (simulated, or the import's name), the core, iterations, overlap.
    QString title() const;
    QString toolTipAt(const QPointF &pos) const override;
    void activateAt(const QPointF &pos) override;
    bool hasContent() const override { return !m_iterations.isEmpty(); }
    /// Rows of 22 px under the title, the time axis and the legend below.
    int preferredImageHeight() const override;

protected:
    double plotLeft() const override { return 92; }

private:
    bool m_batchedRows = false;
    void rebuild();
    int eventAt(const QPointF &pos) const;
    /// A row's height on a canvas of @p size (the widget, or an export's).
    double rowHeight(const QSize &size) const;

    inspector::SimTrace m_trace;
    int m_core = 0;
    QVector<inspector::TraceEvent> m_events;
    QVector<inspector::Iteration> m_iterations;
    QVector<int> m_iterationOf;
    QVector<QVector<int>> m_rows; // event indices per iteration
    double m_overlap = 0;
    QVector<bool> m_pipesShown; // per pipe: whether an op of the trace runs on it
};

class PingPongPanel : public QWidget
{
    Q_OBJECT
public:
    explicit PingPongPanel(QWidget *parent = nullptr);
    PingPongView *view() const { return m_view; }
    void setTrace(const inspector::SimTrace &trace);

private:
    PingPongView *m_view;
    QComboBox *m_core;
    QLabel *m_summary;
};
