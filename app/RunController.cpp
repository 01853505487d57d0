#include "RunController.h"

#include "ConsoleView.h"
#include "DocumentController.h"
#include "KernelEditor.h"
#include "PassesPanel.h"
#include "RunSettingsController.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace {
QVector<EditorDiagnostic> diagnosticsForFile(const asc2::CompileReport &report, const QString &filePath)
{
    QVector<EditorDiagnostic> result;
    for (const asc2::DiagnosticRecord &d : report.diagnostics) {
        const QString file = QString::fromStdString(d.loc.file);
        if (d.loc.line <= 0 || !DocumentController::sameFile(file, filePath))
            continue;
        EditorDiagnostic diagnostic;
        diagnostic.line = d.loc.line;
        diagnostic.column = d.loc.col;
        diagnostic.message = QString::fromStdString(d.message);
        diagnostic.severity = d.severity == asc2::Severity::Error ? EditorDiagnostic::Severity::Error
                                                   : EditorDiagnostic::Severity::Warning;
        result.push_back(diagnostic);
    }
    return result;
}
} // namespace

RunController::RunController(JobRunner *runner, DocumentController *document, RunSettingsController *settings,
                             KernelEditor *editor, ConsoleView *console, PassesPanel *passes, QObject *parent)
    : QObject(parent)
    , m_runner(runner)
    , m_document(document)
    , m_settings(settings)
    , m_editor(editor)
    , m_console(console)
    , m_passes(passes)
{
    connect(m_runner, &JobRunner::runStarted, this, &RunController::onRunStarted);
    connect(m_runner, &JobRunner::outputReceived, this, &RunController::onOutput);
    connect(m_runner, &JobRunner::reportsChanged, this, &RunController::onReportsChanged);
    connect(m_runner, &JobRunner::runFinished, this, &RunController::onRunFinished);
    connect(m_passes, &PassesPanel::currentReportChanged, this, &RunController::onCurrentReportChanged);
    connect(m_runner->host(), &PythonHost::tuningEvent, this, [this](int generation, const QJsonObject &event) {
        // As the runner does with reports: a superseded run's events are dropped.
        if (generation == m_runner->currentGeneration() && m_runner->isRunning())
            emit tuningEvent(event);
    });
    connect(m_runner->host(), &PythonHost::interpreterFailed, this, [this](const QString &message) {
        m_console->appendLine(message, ConsoleView::Channel::Error);
    });
    connect(m_settings, &RunSettingsController::changed, this, &RunController::onRunSettingChanged);
    connect(m_document, &DocumentController::opened, this, &RunController::onDocumentOpened);
    // Results describe the code that ran; an edit makes them an earlier version's.
    connect(m_editor, &QsciScintilla::textChanged, this, [this] {
        if (m_runner->isRunning())
            m_editedDuringRun = true;
        else if (showsResults() && m_resultsNote.isEmpty())
            setResultsNote(editedNote());
        if (m_compileAsYouType)
            m_typingPause.start(); // restarts: the compile waits for a pause
    });
    m_typingPause.setSingleShot(true);
    m_typingPause.setInterval(700);
    connect(&m_typingPause, &QTimer::timeout, this, &RunController::onTypingPaused);
}

void RunController::setCompileAsYouType(bool on)
{
    if (on == m_compileAsYouType)
        return;
    m_compileAsYouType = on;
    m_autoCompilePending = false;
    if (!on) {
        m_typingPause.stop();
        return;
    }
    // Switching it on compiles what is in the editor now (unless it is empty).
    if (!m_editor->text().trimmed().isEmpty())
        m_typingPause.start();
}

void RunController::onTypingPaused()
{
    if (!m_compileAsYouType)
        return;
    // A run the user started (a simulation, an autotuning sweep) is not cut
    // short by typing: the compile follows it. An earlier compile as you type
    // of older text is superseded (the runner stops it).
    if (m_runner->isRunning() && !m_autoRun) {
        m_autoCompilePending = true;
        return;
    }
    runScript(RunMode::CompileOnly, /*auto*/ true);
}

QString RunController::editedNote() const
{
    return tr("The code was edited after the run these results are from: run it again (F5) to update them.");
}

bool RunController::showsResults() const
{
    return m_passes->currentReport() != nullptr;
}

void RunController::setResultsNote(const QString &note)
{
    if (note == m_resultsNote)
        return;
    m_resultsNote = note;
    emit resultsNoteChanged(note);
}

void RunController::setRunEnvironment(const QMap<QString, QString> &environment)
{
    m_environment = environment;
    m_settings->adoptEnvironment(environment);
}

QMap<QString, QString> RunController::runEnvironment(RunMode mode) const
{
    QMap<QString, QString> env = m_environment;
    const RunSettings s = m_settings->settings();
    env.insert(QStringLiteral("ASC2_PLATFORM"), s.platform);
    env.insert(QStringLiteral("ASC2_BACKEND"), s.backend);
    // The interpreter lives on between runs: every variable is set each time,
    // an empty value removes it (the kernel's own option applies).
    env.insert(QStringLiteral("ASC2_JIT_INSERT_SYNC"), s.insertSync);
    env.insert(QStringLiteral("ASC2_JIT_REUSE_ALLOC"), s.reuseAlloc);
    env.insert(QStringLiteral("ASC2_COMPILE_ONLY"), mode == RunMode::CompileOnly ? QStringLiteral("1") : QString());
    return env;
}

void RunController::onRunSettingChanged()
{
    // New settings show their effect at once: the last run again, with them.
    if (m_lastRunMode)
        runScript(*m_lastRunMode);
}

void RunController::onDocumentOpened()
{
    // A toolbar change repeats what the user ran; the new file has not run yet.
    m_passes->clear();
    m_lastRunMode.reset();
    setResultsNote(QString());
}

int RunController::runScript(RunMode mode, bool asYouType)
{
    m_autoRun = asYouType;
    m_autoCompilePending = false;
    if (!asYouType)
        m_typingPause.stop(); // what the user started includes the last edit
    // A call tip or completion list left open over the editor would hide
    // the first lines of what the run shows (and took the key under a
    // window manager that gives tool windows the focus).
    m_editor->dismissPopups();
    const QString filePath = m_document->filePath();
    ScriptJob job;
    job.source = m_editor->text();
    job.filePath = filePath.isEmpty() ? QDir::current().absoluteFilePath(QStringLiteral("untitled.py")) : filePath;
    job.arguments = m_arguments;
    job.environment = runEnvironment(mode);
    m_lastRunMode = mode;
    return m_runner->run(job);
}

void RunController::stopScript()
{
    if (!m_runner->isRunning())
        return;
    m_runner->stop();
    emit statusChanged(tr("Stopping..."));
}

void RunController::onRunStarted(int generation, const QString &filePath)
{
    Q_UNUSED(generation);
    m_editor->clearDiagnostics();
    const bool compileOnly = m_lastRunMode == RunMode::CompileOnly;
    const QString name = QFileInfo(filePath).fileName();
    m_console->appendLine(m_autoRun      ? tr("\u25B6 Compiling %1 (as you type)").arg(name)
                          : compileOnly ? tr("\u25B6 Compiling %1 (compile only)").arg(name)
                                        : tr("\u25B6 Running %1").arg(name));
    emit statusChanged(compileOnly ? tr("Compiling %1...").arg(name) : tr("Running %1...").arg(name));
    m_runReported = false;
    m_editedDuringRun = false;
    if (showsResults())
        setResultsNote(tr("Running %1: these results are from the run before, until it reports a kernel.").arg(name));
    emit runningChanged();
}

void RunController::onOutput(const QString &text, PythonHost::Stream stream)
{
    m_console->appendText(text, stream == PythonHost::Stream::Stderr ? ConsoleView::Channel::Error
                                                                     : ConsoleView::Channel::Output);
}

void RunController::onReportsChanged(int index, asc2::ReportEvent event)
{
    Q_UNUSED(event);
    m_runReported = true;
    setResultsNote(m_editedDuringRun ? editedNote() : QString());
    m_passes->setReports(m_runner->reports().kernels(), index);
    if (m_passes->selectedPass() < 0)
        m_passes->selectLastPassWithIr();
    // The Passes panel only re-announces a kernel it switched to; a newer
    // report of the same kernel (now with its launch) still updates the rest.
    onCurrentReportChanged(m_passes->currentReport());
}

void RunController::onCurrentReportChanged(const ReportPtr &report)
{
    emit reportShown(report);
    if (report) {
        const QVector<EditorDiagnostic> diagnostics = diagnosticsForFile(*report, m_document->filePath());
        if (!diagnostics.isEmpty())
            m_editor->setDiagnostics(diagnostics);
    }
}

void RunController::onRunFinished(const RunSummary &summary)
{
    emit runningChanged();
    const ScriptResult &script = summary.script;
    if (!m_runReported && showsResults()) {
        setResultsNote(script.status == ScriptResult::Status::Interrupted
                           ? tr("The last run was stopped before it compiled a kernel: these results are from "
                                "an earlier run.")
                           : tr("The last run ended before it compiled a kernel: these results are from an "
                                "earlier run."));
    }
    for (const QString &problem : summary.problems)
        m_console->appendLine(problem, ConsoleView::Channel::Error);

    switch (script.status) {
    case ScriptResult::Status::Succeeded:
        m_console->appendLine(tr("\u25A0 Finished in %1 s").arg(script.wallMs / 1000.0, 0, 'f', 2));
        break;
    case ScriptResult::Status::Interrupted:
        m_console->appendLine(tr("\u25A0 Stopped after %1 s").arg(script.wallMs / 1000.0, 0, 'f', 2));
        break;
    case ScriptResult::Status::Failed:
        m_console->appendLine(tr("\u25A0 Failed (exit code %1) after %2 s")
                                  .arg(script.exitCode)
                                  .arg(script.wallMs / 1000.0, 0, 'f', 2),
                              ConsoleView::Channel::Error);
        break;
    }

    if (script.status == ScriptResult::Status::Failed && script.errorLine > 0
        && DocumentController::sameFile(script.errorFile, summary.filePath)) {
        EditorDiagnostic diagnostic;
        diagnostic.line = script.errorLine;
        diagnostic.column = script.errorColumn;
        diagnostic.message = script.errorMessage;
        QVector<EditorDiagnostic> diagnostics = m_editor->diagnostics();
        const bool known = std::any_of(diagnostics.cbegin(), diagnostics.cend(), [&](const EditorDiagnostic &d) {
            return d.line == diagnostic.line && script.errorMessage.endsWith(d.message);
        });
        if (!known)
            diagnostics.push_back(diagnostic);
        m_editor->setDiagnostics(diagnostics);
        m_editor->ensureLineVisible(script.errorLine - 1);
    }
    emit statusChanged(summary.headline());
    if (m_autoCompilePending && m_compileAsYouType)
        m_typingPause.start();
}
