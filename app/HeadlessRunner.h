// `asc2-workbench --headless FILE.py`: runs the script without a window,
// streams its output to the terminal and writes the run's reports.
#pragma once

#include "JobRunner.h"

#include <QObject>

class HeadlessRunner : public QObject
{
    Q_OBJECT
public:
    struct Options {
        QString file;
        QStringList arguments; // sys.argv[1:]
        QString reportDir; // empty: no report
        QString htmlPath;  // --export-html (needs a QApplication)
        QString tracePath; // --export-trace
        QString projectDir; // --export-project (the interpreter's ASC2_EXPORT_PROJECT)
        QMap<QString, QString> environment;
        int timeoutSeconds = 0; // --timeout: stop the run after this long; 0: never
    };

    HeadlessRunner(JobRunner *runner, Options options, QObject *parent = nullptr);

    /// Starts the run; finished() follows once it is over.
    void start();

    /// Writes DIR/report.json, DIR/trace.json and DIR/<kernel>/ for every kernel.
    static bool writeReport(const RunSummary &summary, const QString &dir, QString *error);
    /// Writes the last launch's trace as Chrome trace JSON (Perfetto-ready).
    static bool writeTrace(const RunSummary &summary, const QString &path, QString *error);
    /// Writes the self-contained HTML report (passes, UB map, timeline, profile)
    /// of every kernel the run compiled, in the order they were compiled.
    static bool writeHtml(const RunSummary &summary, const QString &path, QString *error);
    /// The process exit status for a run.
    static int exitCodeFor(const RunSummary &summary);

signals:
    void finished(int exitCode);

private:
    void onOutput(const QString &text, PythonHost::Stream stream);
    void onRunFinished(const RunSummary &summary);

    JobRunner *m_runner;
    Options m_options;
    bool m_timedOut = false;
};
