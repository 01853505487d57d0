// All cores in one timeline, as Nsight Systems and Perfetto show a run: a
// group of rows per core (one per pipe it used), every instruction a slice
// named by its op, waiting hatched. Search marks the slices whose op, detail
// or line matches and steps through them; a Shift+drag selects a time range
// and totals it (busy per pipe, waiting, slices); the header column is a heat
// map of how busy each core was. Keys: W/S zoom, A/D pan, 0 shows all, F3 /
// Shift+F3 next / previous match, Esc drops the range.
#pragma once

#include "InspectorCanvas.h"
#include "InspectorData.h"

#include <QVector>

class QLabel;
class QLineEdit;
class QToolButton;

class CoresTimelineView : public InspectorCanvas
{
    Q_OBJECT
public:
    explicit CoresTimelineView(QWidget *parent = nullptr);

    /// The run to show (the last launch's trace, or an imported one).
    void setTrace(const inspector::SimTrace &trace);
    const inspector::SimTrace &trace() const { return m_trace; }
    /// The kernel the trace is of, for the title.
    void setKernelName(const QString &name);

    /// One row: a pipe of a core.
    struct Row {
        int core = 0;
        inspector::Pipe pipe = inspector::Pipe::S;
        bool firstOfCore = false;
    };
    const QVector<Row> &rows() const { return m_rows; }
    /// The row under y in a view of @p size (-1: none).
    int rowAt(double y, const QSize &size) const;
    QRectF rowRect(int row, const QSize &size) const;
    /// Busy share (0..1) of each core's busiest pipe: the heat map column.
    const QVector<double> &coreHeat() const { return m_coreHeat; }

    /// Marks the slices matching @p text: a part of the op name ("copy_in",
    /// "wait_flag") or of its detail ("FLAG ID:2"), or "line N" for the
    /// instructions of source line N; case does not matter. "" : none.
    void setSearch(const QString &text);
    QString search() const { return m_search; }
    /// The matching events (indices into trace().events), by start time.
    const QVector<int> &matches() const { return m_matches; }
    /// Index into matches() of the match stepped to (-1: none yet).
    int currentMatch() const { return m_current; }
    /// Steps to the next (previous) match: it is selected and brought into view.
    void nextMatch();
    void previousMatch();

    /// The time range selected (Shift+drag), in µs; from >= to: none.
    void setRange(double from, double to);
    void clearRange() { setRange(0, 0); }
    bool hasRange() const { return m_rangeTo > m_rangeFrom; }
    double rangeFrom() const { return m_rangeFrom; }
    double rangeTo() const { return m_rangeTo; }
    struct Totals {
        double from = 0, to = 0;
        QVector<double> busy = QVector<double>(inspector::kPipeCount, 0.0); // µs, summed over cores
        QVector<int> coresOfPipe = QVector<int>(inspector::kPipeCount, 0);  // cores that run each pipe
        double waiting = 0; // µs of wait_flag and barriers, summed over cores
        int slices = 0;
        int cores = 0;
    };
    /// What the range holds (the whole run when none is selected).
    Totals totals() const;
    /// totals() in a line: "0.52–1.73 µs (1.21 µs), 8 cores: busy MTE2 34%, ...;
    /// waiting 12% of pipe time; 96 slices" (busy: of the cores that run the
    /// pipe; waiting: of every row's time, as pipes wait side by side).
    QString totalsText() const;

    /// The event under @p pos (-1: none).
    int eventAt(const QPointF &pos) const;

    void paintCanvas(QPainter &painter, const QSize &size) override;
    inspector::Legend legend() const override;
    QString title() const;
    QString toolTipAt(const QPointF &pos) const override;
    void activateAt(const QPointF &pos) override;
    bool hasContent() const override { return !m_trace.isEmpty(); }
    int preferredImageHeight() const override;

signals:
    void matchesChanged();
    void rangeChanged();
    /// The user double-clicked a core's header: show that core in detail.
    void coreActivated(int core);

protected:
    double plotLeft() const override { return 118; }
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    void rebuild();
    void updateMatches();
    void stepMatch(int delta);
    bool matchesSearch(const inspector::TraceEvent &e) const;
    double rowsTop() const { return 24; }
    double rowsBottom(const QSize &size) const;
    /// The short name a slice shows ("data_copy_in" of "ascendc.data_copy_in").
    static QString sliceName(const inspector::TraceEvent &e);

    inspector::SimTrace m_trace;
    QString m_kernel;
    QVector<Row> m_rows;
    QVector<QVector<int>> m_rowEvents; // per row, events by start
    QVector<double> m_rowMaxDuration;
    QVector<double> m_coreHeat;
    QString m_search;
    QVector<int> m_matches;
    QVector<bool> m_isMatch; // per event
    int m_current = -1;
    double m_rangeFrom = 0, m_rangeTo = 0;
    bool m_selectingRange = false;
    double m_rangeAnchor = 0;
};

/// The view with a search field, match stepping and the range's totals.
class CoresTimelinePanel : public QWidget
{
    Q_OBJECT
public:
    explicit CoresTimelinePanel(QWidget *parent = nullptr);
    CoresTimelineView *view() const { return m_view; }
    QLineEdit *searchField() const { return m_search; }
    QLabel *matchLabel() const { return m_matchLabel; }
    QLabel *totalsLabel() const { return m_totals; }
    void setTrace(const inspector::SimTrace &trace);

private:
    void updateLabels();
    CoresTimelineView *m_view;
    QLineEdit *m_search;
    QLabel *m_matchLabel;
    QToolButton *m_previous;
    QToolButton *m_next;
    QLabel *m_totals;
};
