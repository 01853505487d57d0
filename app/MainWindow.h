// The workbench window: the kernel editor in the middle, inspectors docked
// around it, all fed by the JobRunner's queued results.
#pragma once

#include "JobRunner.h"

#include <QMainWindow>
#include <QMap>

#include <optional>

class AscendCView;
class ConsoleView;
class KernelEditor;
class PassesPanel;
class QAction;
class QDockWidget;
class QLabel;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    enum class View { Editor, Passes, AscendC, Console };
    static std::optional<View> viewFromName(const QString &name);
    static QStringList viewNames();

    /// @p persistLayout: restore and save dock layout and geometry in QSettings
    /// (off for screenshots, which must not depend on the user's layout).
    explicit MainWindow(JobRunner *runner, bool persistLayout = true, QWidget *parent = nullptr);
    ~MainWindow() override;

    bool openFile(const QString &path, QString *error = nullptr);
    QString filePath() const { return m_filePath; }
    /// Extra environment for runs (ASC2_PLATFORM, ASC2_BACKEND, ...).
    void setRunEnvironment(const QMap<QString, QString> &environment) { m_environment = environment; }
    /// sys.argv[1:] for runs.
    void setRunArguments(const QStringList &arguments) { m_arguments = arguments; }

    /// Runs the editor's text as it is, saved or not. Returns the generation.
    int runScript();
    void stopScript();

    /// Brings @p view to the front and gives it most of the window.
    void showView(View view);

    KernelEditor *editor() const { return m_editor; }
    ConsoleView *console() const { return m_console; }
    PassesPanel *passesPanel() const { return m_passesPanel; }
    AscendCView *ascendcView() const { return m_ascendcView; }
    JobRunner *jobRunner() const { return m_runner; }
    QString statusText() const;

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createDocks();
    void open();
    bool save();
    bool saveAs();
    bool saveTo(const QString &path);
    bool maybeSave();
    void setFilePath(const QString &path);
    void updateRunActions();

    void onRunStarted(int generation, const QString &filePath);
    void onOutput(const QString &text, PythonHost::Stream stream);
    void onReportsChanged(int index, asc2::ReportEvent event);
    void onCurrentReportChanged(const ReportPtr &report);
    void onRunFinished(const RunSummary &summary);

    JobRunner *m_runner;
    bool m_persistLayout;
    QString m_filePath;
    QMap<QString, QString> m_environment;
    QStringList m_arguments;

    KernelEditor *m_editor;
    PassesPanel *m_passesPanel;
    AscendCView *m_ascendcView;
    ConsoleView *m_console;
    QDockWidget *m_passesDock = nullptr;
    QDockWidget *m_ascendcDock = nullptr;
    QDockWidget *m_consoleDock = nullptr;
    QLabel *m_runStatus;

    QAction *m_openAction = nullptr;
    QAction *m_saveAction = nullptr;
    QAction *m_saveAsAction = nullptr;
    QAction *m_runAction = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_quitAction = nullptr;
};
