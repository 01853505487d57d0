// One run at a time of the editor's script: gives each run a generation,
// drops whatever a superseded run still delivers, and gathers the run's
// output and compile reports into a RunSummary.
#pragma once

#include "PythonHost.h"
#include "RunReports.h"

#include <QObject>

struct RunSummary {
    int generation = 0;
    QString filePath;
    ScriptResult script;
    QVector<ReportPtr> kernels;
    ReportPtr lastLaunched;
    QStringList problems; // failed launches, races, error diagnostics

    /// The script succeeded and every launch was clean.
    bool ok() const { return script.succeeded() && problems.isEmpty(); }
    /// One line for a status bar: "vadd: 4,321 cycles (2.4 us) on Ascend910B1" or why it failed.
    QString headline() const;
};

Q_DECLARE_METATYPE(RunSummary)

class JobRunner : public QObject
{
    Q_OBJECT
public:
    explicit JobRunner(PythonHost *host, QObject *parent = nullptr);

    /// Starts @p job, stopping the current run if there is one. Returns the
    /// generation of the new run.
    int run(const ScriptJob &job);
    /// Stops the current run (KeyboardInterrupt in the script).
    void stop();

    bool isRunning() const { return m_running; }
    int currentGeneration() const { return m_current; }
    const RunReports &reports() const { return m_reports; }
    PythonHost *host() const { return m_host; }

signals:
    void runStarted(int generation, const QString &filePath);
    void outputReceived(const QString &text, PythonHost::Stream stream);
    /// A kernel of the current run was compiled or launched; @p index is its
    /// entry in reports().kernels().
    void reportsChanged(int index, asc2::ReportEvent event);
    void runFinished(const RunSummary &summary);

private:
    void onOutput(int generation, PythonHost::Stream stream, const QString &text);
    void onReport(int generation, asc2::ReportEvent event, const ReportPtr &report);
    void onFinished(const ScriptResult &result);

    PythonHost *m_host;
    int m_current = 0;
    bool m_running = false;
    QString m_filePath;
    RunReports m_reports;
};
