// Sync timeline: one lane per pipe, ops in program order (static) or in
// simulated time from the last run's trace (one core at a time), with
// set_flag -> wait_flag arrows labelled by event id and explained by their
// hazard, and stalls (time a pipe waits on a flag) drawn hatched.
#pragma once

#include "InspectorCanvas.h"
#include "InspectorData.h"
#include "ReportPtr.h"

#include <QVector>

class QComboBox;
class QToolButton;

class SyncTimelineView : public InspectorCanvas
{
    Q_OBJECT
public:
    enum class Mode { Static, Simulated };

    explicit SyncTimelineView(QWidget *parent = nullptr);

    void setReport(const ReportPtr &report);
    /// The trace to show in simulated mode (the last launch's, or imported).
    void setTrace(const inspector::SimTrace &trace);
    const inspector::SimTrace &trace() const { return m_trace; }
    void setMode(Mode mode);
    Mode mode() const { return m_mode; }
    void setCore(int core);
    int core() const { return m_core; }
    /// Pipes shown (bit i = inspector::Pipe(i)); event id shown (-1: all).
    void setPipeMask(int mask);
    int pipeMask() const { return m_pipeMask; }
    void setEventFilter(int eventId);
    int eventFilter() const { return m_eventFilter; }

    struct Item {
        double start = 0, end = 0;
        int kind = 0; // 0 op, 1 set_flag, 2 wait_flag, 3 barrier
        int source = -1; // static: program point; simulated: event index
        int line = 0;
        int eventId = -1;
        double stall = 0; // waiting time of a simulated wait_flag
    };
    struct Arrow {
        double from = 0, to = 0;
        inspector::Pipe src{}, dst{};
        int eventId = -1;
        QString reason;
        bool wraps = false;
    };
    /// Time a pipe sits idle on a wait_flag. Program order: the gap before a
    /// wait (inspector::StaticStall), in points; simulated: the wait_flag's
    /// own duration, in µs.
    struct Stall {
        double start = 0, end = 0;
        inspector::Pipe pipe{}, src{}; // the waiting pipe, the setting pipe
        bool srcKnown = true;          // simulated: from the wait's "PIPE:" detail
        int eventId = -1;
        QString reason, role;
        int setPoint = -1, waitPoint = -1, producer = -1; // program order
        bool wraps = false;
        QString producerText;
        int line = 0;
    };
    const QVector<Stall> &laneStalls(inspector::Pipe pipe) const { return m_stalls[int(pipe)]; }
    int stallCount() const;

    /// Lanes shown, top to bottom.
    QVector<inspector::Pipe> visibleLanes() const;
    const QVector<Item> &laneItems(inspector::Pipe pipe) const { return m_lanes[int(pipe)]; }
    const QVector<Arrow> &arrows() const { return m_arrows; }
    int itemCount() const;
    /// Summed stall time per pipe (µs simulated, points in program order).
    double stallTime(inspector::Pipe pipe) const;

    inspector::LaneLayout laneLayout(const QSize &size) const;
    void paintCanvas(QPainter &painter, const QSize &size) override;
    inspector::Legend legend() const override;
    /// The line over the lanes: the kernel and what the lanes show (program
    /// order, the simulator's prediction, or an import, named).
    QString title() const;
    QString toolTipAt(const QPointF &pos) const override;
    void activateAt(const QPointF &pos) override;
    bool hasContent() const override;

signals:
    void contentChanged();

protected:
    double plotLeft() const override { return 92; }
    void onWindowChanged() override;

private:
    void rebuild();
    void followWindow(double first, double last);
    const Item *itemAt(const QPointF &pos, inspector::Pipe *pipe) const;
    const Arrow *arrowAt(const QPointF &pos) const;
    const Stall *stallAt(const QPointF &pos) const;
    QString describeStall(const Stall &stall) const;
    QString describe(const Item &item, inspector::Pipe pipe) const;

    ReportPtr m_report;
    inspector::StaticSchedule m_schedule;
    inspector::SimTrace m_trace;
    QVector<inspector::TraceEvent> m_coreEvents;
    Mode m_mode = Mode::Static;
    int m_core = 0;
    int m_pipeMask = 0x7f;
    int m_eventFilter = -1;
    QVector<Item> m_lanes[inspector::kPipeCount];
    double m_maxDuration[inspector::kPipeCount] = {};
    QVector<Arrow> m_arrows;
    QVector<Stall> m_stalls[inspector::kPipeCount];
    bool m_syncingWindow = false;
};

/// The timeline with its controls: mode, core, pipe and event filters.
class SyncTimelinePanel : public QWidget
{
    Q_OBJECT
public:
    explicit SyncTimelinePanel(QWidget *parent = nullptr);
    SyncTimelineView *view() const { return m_view; }
    void setReport(const ReportPtr &report);
    void setTrace(const inspector::SimTrace &trace);
    QComboBox *modeBox() const { return m_mode; }
    QComboBox *coreBox() const { return m_core; }
    QComboBox *eventBox() const { return m_event; }

private:
    void refreshControls();
    SyncTimelineView *m_view;
    QComboBox *m_mode;
    QComboBox *m_core;
    QComboBox *m_event;
    QToolButton *m_pipes;
};
