#include "JobRunner.h"

#include <QLocale>

QString RunSummary::headline() const
{
    switch (script.status) {
    case ScriptResult::Status::Interrupted:
        return QObject::tr("Stopped");
    case ScriptResult::Status::Failed:
        return script.errorMessage.isEmpty() ? QObject::tr("Failed (exit code %1)").arg(script.exitCode)
                                             : QObject::tr("Failed: %1").arg(script.errorMessage);
    case ScriptResult::Status::Succeeded:
        break;
    }
    if (!problems.isEmpty())
        return problems.first();
    if (lastLaunched) {
        const asc2::LaunchRecord &launch = lastLaunched->launches.back();
        if (launch.onDevice)
            return QObject::tr("%1: ran on the NPU").arg(QString::fromStdString(lastLaunched->kernel));
        return QObject::tr("%1: %2 cycles (%3 us) on %4")
            .arg(QString::fromStdString(lastLaunched->kernel),
                 QLocale().toString(qulonglong(launch.totalCycles)))
            .arg(launch.timeUs, 0, 'f', 2)
            .arg(QString::fromStdString(lastLaunched->target));
    }
    if (!kernels.isEmpty())
        return QObject::tr("Compiled %n kernel(s), none launched", nullptr, int(kernels.size()));
    return QObject::tr("Finished in %1 s").arg(script.wallMs / 1000.0, 0, 'f', 2);
}

JobRunner::JobRunner(PythonHost *host, QObject *parent)
    : QObject(parent)
    , m_host(host)
{
    qRegisterMetaType<RunSummary>();
    connect(host, &PythonHost::output, this, &JobRunner::onOutput);
    connect(host, &PythonHost::reportPublished, this, &JobRunner::onReport);
    connect(host, &PythonHost::finished, this, &JobRunner::onFinished);
}

int JobRunner::run(const ScriptJob &job)
{
    if (m_running)
        m_host->interrupt(m_current);
    m_reports.clear();
    m_filePath = job.filePath;
    m_current = m_host->execute(job);
    m_running = true;
    emit runStarted(m_current, m_filePath);
    return m_current;
}

void JobRunner::stop()
{
    if (m_running)
        m_host->interrupt(m_current);
}

void JobRunner::onOutput(int generation, PythonHost::Stream stream, const QString &text)
{
    if (generation == m_current)
        emit outputReceived(text, stream);
}

void JobRunner::onReport(int generation, asc2::ReportEvent event, const ReportPtr &report)
{
    if (generation != m_current || !m_running)
        return;
    const int index = m_reports.add(event, report);
    emit reportsChanged(index, event);
}

void JobRunner::onFinished(const ScriptResult &result)
{
    if (result.generation != m_current)
        return;
    m_running = false;
    RunSummary summary;
    summary.generation = result.generation;
    summary.filePath = m_filePath;
    summary.script = result;
    summary.kernels = m_reports.kernels();
    summary.lastLaunched = m_reports.lastLaunched();
    summary.problems = m_reports.problems();
    emit runFinished(summary);
}
