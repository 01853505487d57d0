#include "InspectorController.h"

#include "CoresTimelineView.h"

#include "AscendCView.h"
#include "GraphView.h"
#include "InspectorExport.h"
#include "InspectorState.h"
#include "PassesPanel.h"
#include "PingPongView.h"
#include "ProfileView.h"
#include "SyncTimelineView.h"
#include "UbMapView.h"

#include <QComboBox>
#include <QFileDialog>
#include <QMessageBox>
#include <QTime>

InspectorController::InspectorController(const InspectorViews &views, QWidget *window)
    : QObject(window)
    , m_views(views)
    , m_window(window)
{
    connect(m_views.passes, &PassesPanel::passShown, this, [this](const asc2::PassRecord *pass) {
        if (pass && !pass->ir.empty()) {
            m_views.graph->setCaption(tr("IR after pass %1: %2").arg(pass->index).arg(QString::fromStdString(pass->name)));
            m_views.graph->setIr(QString::fromStdString(pass->ir), QVector<int>(pass->irLines.begin(), pass->irLines.end()),
                                 QVector<asc2::Pipe>(pass->irPipes.begin(), pass->irPipes.end()));
        }
    });
    // An msprof import is laid over the UB map's program points.
    connect(m_views.profile, &ProfileView::runImported, m_views.ubMap, &UbMapPanel::setOverlay);
    connect(m_views.profile, &ProfileView::traceSelected, this, [this](const inspector::SimTrace &trace) {
        // Imported traces overlay the simulated views.
        showTrace(trace);
    });
}

void InspectorController::showReport(const ReportPtr &report)
{
    m_views.ascendc->setSource(report ? QString::fromStdString(report->ascendc) : QString(),
                               report ? QVector<int>(report->ascendcLines.begin(), report->ascendcLines.end())
                                      : QVector<int>());
    const bool sameReport = report == m_inspectedReport;
    const size_t launches = report ? report->launches.size() : 0;
    if (sameReport && launches == m_inspectedLaunches)
        return;
    m_inspectedReport = report;
    m_inspectedLaunches = launches;
    m_views.ubMap->setReport(report);
    m_views.sync->setReport(report);
    bool batched = false;
    if (report)
        for (const asc2::PassRecord &pass : report->passes)
            batched = batched || (pass.name == "asctile-batch-rows" && pass.changed);
    m_views.pingPong->view()->setBatchedRows(batched);
    if (m_views.cores)
        m_views.cores->view()->setKernelName(report ? QString::fromStdString(report->kernel) : QString());
    if (!report || report->launches.empty()) {
        showTrace(inspector::SimTrace());
        return;
    }
    const int last = int(report->launches.size()) - 1;
    const asc2::LaunchRecord &launch = report->launches[size_t(last)];
    if (launch.onDevice) {
        // An NPU run has no simulated trace; its measured profile is msprof's, when it ran under msprof.
        showTrace(inspector::SimTrace());
        if (!launch.profileDir.empty())
            m_views.profile->importPath(QString::fromStdString(launch.profileDir));
        return;
    }
    inspector::ProfileRun run = inspector::profileFromLaunch(*report, last);
    if (m_runNumber > 0)
        run.label = tr("run %1, %2: %3").arg(m_runNumber).arg(m_runTime, run.label);
    showTrace(run.trace);
    if (!run.trace.isEmpty() && m_views.sync->modeBox()->currentIndex() == 0)
        m_views.sync->modeBox()->setCurrentIndex(1);
    m_views.profile->setRun(run);
}

void InspectorController::showTrace(const inspector::SimTrace &trace)
{
    m_views.sync->setTrace(trace);
    m_views.pingPong->setTrace(trace);
    if (m_views.cores)
        m_views.cores->setTrace(trace);
}

void InspectorController::beginRun()
{
    ++m_runNumber;
    m_runTime = QTime::currentTime().toString(QStringLiteral("HH:mm:ss"));
}

void InspectorController::clear()
{
    showReport(nullptr);
    m_views.state->clear();
}

bool InspectorController::exportHtmlReport(const QString &path, QString *error, const QVector<ReportPtr> &kernels)
{
    if (!m_inspectedReport) {
        if (error)
            *error = tr("Nothing compiled yet");
        return false;
    }
    // The inspected kernel as its views show it (the chosen core, profile
    // run A); every other kernel of the run drawn afresh, in run order.
    ProfileView *profileView = m_views.profile;
    const int a = profileView->runA();
    const inspector::ReportSection inspected{
        m_inspectedReport.get(),
        inspector::renderReportImages({m_views.ubMap->view(), m_views.sync->view(), m_views.pingPong->view(),
                                       profileView->chart()}),
        a >= 0 && a < profileView->runs().size() ? &profileView->runs()[a] : nullptr};
    QVector<ReportPtr> order = kernels;
    if (!order.contains(m_inspectedReport))
        order.push_back(m_inspectedReport);
    QString message;
    if (!inspector::writeHtmlReport(order, path, &message, m_views.ubMap->view()->theme(), &inspected)) {
        if (error)
            *error = message;
        return false;
    }
    return true;
}

void InspectorController::exportHtmlReportDialog(const QVector<ReportPtr> &kernels)
{
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export HTML Report"), QString(), tr("HTML (*.html)"));
    QString error;
    if (!path.isEmpty() && !exportHtmlReport(path, &error, kernels))
        QMessageBox::warning(m_window, tr("Export HTML Report"), error);
}

void InspectorController::exportTraceDialog()
{
    if (!m_inspectedReport) {
        emit statusMessage(tr("Nothing ran yet"), 4000);
        return;
    }
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export Trace"), QStringLiteral("trace.json"),
                                                      tr("Chrome trace (*.json)"));
    QString error;
    if (!path.isEmpty()
        && !inspector::writeChromeTrace(*m_inspectedReport, int(m_inspectedReport->launches.size()) - 1, path, &error))
        QMessageBox::warning(m_window, tr("Export Trace"), error);
}

void InspectorController::importMsprofDialog()
{
    const QString path = QFileDialog::getExistingDirectory(m_window, tr("Import msprof Output Directory"));
    QString message;
    if (!path.isEmpty() && !m_views.profile->importPath(path, &message))
        QMessageBox::warning(m_window, tr("Import msprof Data"), message);
}
