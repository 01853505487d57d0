// Feeds the report the Passes panel shows to the views that inspect it (the
// Ascend C source, UB map, sync timeline, ping-pong, graph and profile), lays
// imported profiles over them, and exports what they show.
#pragma once

#include "InspectorData.h"
#include "ReportPtr.h"

#include <QObject>
#include <QVector>

class AscendCView;
class CoresTimelinePanel;
class GraphView;
class InspectorState;
class PassesPanel;
class PingPongPanel;
class ProfileView;
class SyncTimelinePanel;
class UbMapPanel;
class QWidget;

/// The views an InspectorController feeds; the window owns them.
struct InspectorViews {
    PassesPanel *passes = nullptr;
    AscendCView *ascendc = nullptr;
    InspectorState *state = nullptr;
    UbMapPanel *ubMap = nullptr;
    SyncTimelinePanel *sync = nullptr;
    PingPongPanel *pingPong = nullptr;
    GraphView *graph = nullptr;
    ProfileView *profile = nullptr;
    CoresTimelinePanel *cores = nullptr;
};

class InspectorController : public QObject
{
    Q_OBJECT
public:
    /// @p window parents the dialogs.
    InspectorController(const InspectorViews &views, QWidget *window);

    /// Shows @p report (null: nothing) and its last launch; a report already
    /// shown is redrawn only when it gained a launch.
    void showReport(const ReportPtr &report);
    /// A run of the script starts: its launches are "run N, HH:mm:ss: ..." in
    /// the Profile view, kept next to the earlier runs' (before/after an edit).
    void beginRun();
    /// Forgets the report and the selection (another file was opened).
    void clear();
    ReportPtr inspectedReport() const { return m_inspectedReport; }

    /// Writes a self-contained HTML report of every kernel in @p kernels (the
    /// run's, in order) and the inspected one, which shows as its views are.
    bool exportHtmlReport(const QString &path, QString *error = nullptr, const QVector<ReportPtr> &kernels = {});
    void exportHtmlReportDialog(const QVector<ReportPtr> &kernels);
    /// The last launch's simulated trace as Chrome trace JSON.
    void exportTraceDialog();
    /// Adds the runs of an msprof output directory to the profile.
    void importMsprofDialog();

signals:
    void statusMessage(const QString &text, int timeoutMs);

private:
    /// The simulated (or imported) trace to the views that draw one.
    void showTrace(const inspector::SimTrace &trace);
    InspectorViews m_views;
    QWidget *m_window;
    ReportPtr m_inspectedReport;
    size_t m_inspectedLaunches = 0;
    int m_runNumber = 0;
    QString m_runTime;
};
