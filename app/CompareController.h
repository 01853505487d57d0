// Runs the B side of the Compare view: the editor's script again, with B's
// target and options, as a separate `asc2-workbench --headless` process
// (the window's interpreter and its views stay on A), and reads its
// report.json back. A is the window's last run. Stoppable; a new compare
// stops the one under way.
#pragma once

#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QStringList>

#include <memory>

class ComparePanel;
class DocumentController;
class JobRunner;
class KernelEditor;
class QTemporaryDir;

class CompareController : public QObject
{
    Q_OBJECT
public:
    CompareController(ComparePanel *panel, JobRunner *runner, DocumentController *document, KernelEditor *editor,
                      QObject *parent = nullptr);
    ~CompareController() override;

    /// sys.argv[1:] of the script, as the window's runs get them.
    void setRunArguments(const QStringList &arguments) { m_arguments = arguments; }
    /// The program that runs B (default: asc2-workbench next to this program).
    void setProgram(const QString &path) { m_program = path; }
    QString program() const;

    /// Starts B with the panel's settings; false (and the panel says why) when it cannot.
    bool compare();
    void stop();
    bool isRunning() const { return m_process && m_process->state() != QProcess::NotRunning; }

    /// Takes A from the window's last run (after a run reported its kernels).
    void updateA();
    /// Forgets both sides (another file was opened); stops B.
    void clear();

signals:
    /// B finished (ok or not); the panel shows it.
    void finished(bool ok);

private:
    void onFinished(int exitCode, QProcess::ExitStatus status);

    ComparePanel *m_panel;
    JobRunner *m_runner;
    DocumentController *m_document;
    KernelEditor *m_editor;
    QStringList m_arguments;
    QString m_program;
    QPointer<QProcess> m_process;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_description;
    QByteArray m_output;
    bool m_stopped = false;
};
