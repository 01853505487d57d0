// Runs of the editor's script from the window: Run, Compile Only and Stop
// become ScriptJobs for the JobRunner; what comes back (output, reports as
// kernels compile and launch, the end of the run) goes to the console, the
// Passes panel and the editor's diagnostics; autotuning events of the run
// are passed on for the Autotune view.
#pragma once

#include "JobRunner.h"

#include <QJsonObject>
#include <QMap>
#include <QObject>
#include <QStringList>
#include <QTimer>

#include <optional>

class ConsoleView;
class DocumentController;
class KernelEditor;
class PassesPanel;
class RunSettingsController;

enum class RunMode { Run, CompileOnly };

class RunController : public QObject
{
    Q_OBJECT
public:
    RunController(JobRunner *runner, DocumentController *document, RunSettingsController *settings,
                  KernelEditor *editor, ConsoleView *console, PassesPanel *passes, QObject *parent = nullptr);

    /// Extra environment for runs (from the command line).
    void setRunEnvironment(const QMap<QString, QString> &environment);
    /// sys.argv[1:] for runs.
    void setRunArguments(const QStringList &arguments) { m_arguments = arguments; }
    /// The environment the next run gets: the command line's, then the toolbar's.
    QMap<QString, QString> runEnvironment(RunMode mode) const;

    /// Runs the editor's text as it is, saved or not. Returns the generation.
    /// @p asYouType: started by compile as you type, not by the user.
    int runScript(RunMode mode = RunMode::Run, bool asYouType = false);
    void stopScript();

    /// Compile as you type: a pause in typing of autoCompileDelay() ms
    /// compiles the editor's code (Compile Only), as Compiler Explorer does.
    /// A newer edit cancels a compile under way and starts again after the
    /// pause; a run the user started is not cut short: the compile follows it.
    void setCompileAsYouType(bool on);
    bool compilesAsYouType() const { return m_compileAsYouType; }
    void setAutoCompileDelay(int ms) { m_typingPause.setInterval(ms); }
    int autoCompileDelay() const { return m_typingPause.interval(); }
    /// Whether the run under way is one compile as you type started.
    bool isAutoCompiling() const { return m_runner->isRunning() && m_autoRun; }

    /// Why the results on show are not those of the code in the editor ("":
    /// they are): a run is under way and has reported no kernel yet, the last
    /// run ended before it compiled one, or the code was edited since.
    QString resultsNote() const { return m_resultsNote; }

signals:
    /// The runner started or finished a run.
    void runningChanged();
    /// What the status bar says about the runs.
    void statusChanged(const QString &text);
    /// The report the Passes panel shows now (null: none), or a newer report of it.
    void reportShown(const ReportPtr &report);
    /// resultsNote() changed.
    void resultsNoteChanged(const QString &note);
    /// An autotuning sweep event of the current run (PythonHost::tuningEvent).
    void tuningEvent(const QJsonObject &event);

private:
    void onDocumentOpened();
    void onTypingPaused();
    void onRunSettingChanged();
    void onRunStarted(int generation, const QString &filePath);
    void onOutput(const QString &text, PythonHost::Stream stream);
    void onReportsChanged(int index, asc2::ReportEvent event);
    void onCurrentReportChanged(const ReportPtr &report);
    void onRunFinished(const RunSummary &summary);
    void setResultsNote(const QString &note);
    bool showsResults() const;
    QString editedNote() const;

    JobRunner *m_runner;
    DocumentController *m_document;
    RunSettingsController *m_settings;
    KernelEditor *m_editor;
    ConsoleView *m_console;
    PassesPanel *m_passes;
    QMap<QString, QString> m_environment;
    QStringList m_arguments;
    std::optional<RunMode> m_lastRunMode;
    QString m_resultsNote;
    /// The run under way has reported a kernel: what is on show is its own.
    bool m_runReported = false;
    bool m_editedDuringRun = false;
    bool m_compileAsYouType = false;
    QTimer m_typingPause;
    /// The run under way (or the last) was started by compile as you type.
    bool m_autoRun = false;
    /// An edit paused while a run the user started was under way.
    bool m_autoCompilePending = false;
};
