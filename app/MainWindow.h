// The workbench window: the kernel editor in the middle, inspectors docked
// around it, all fed by the JobRunner's queued results and linked by source
// line (IR line <-> Python line, console locations -> editor).
#pragma once

#include "Autosave.h"
#include "JobRunner.h"
#include "Theme.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QMap>
#include <QTimer>

#include <memory>
#include <optional>

class AscendCView;
class GraphView;
class InspectorState;
class PingPongPanel;
class ProfileView;
class SyncTimelinePanel;
class UbMapPanel;
class UbMapView;
class ConsoleView;
class KernelEditor;
class PassesPanel;
class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;

/// Settings of the next run that the toolbar controls; empty: the kernel's own choice.
struct RunSettings {
    QString platform;    // ASC2_PLATFORM
    QString backend;     // ASC2_BACKEND
    QString insertSync;  // ASC2_JIT_INSERT_SYNC: "", "1", "0"
    QString reuseAlloc;  // ASC2_JIT_REUSE_ALLOC: "", "0", "1", "2"
};

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    enum class View { Editor, Passes, Diff, AscendC, Console, UbMap, Sync, PingPong, Graph, Profile };
    enum class RunMode { Run, CompileOnly };
    static std::optional<View> viewFromName(const QString &name);
    static QStringList viewNames();

    /// @p persistLayout: restore and save dock layout, geometry, theme and
    /// recent files in QSettings, and autosave unsaved buffers (off for
    /// screenshots, which must not depend on the user's state).
    explicit MainWindow(JobRunner *runner, bool persistLayout = true, QWidget *parent = nullptr);
    ~MainWindow() override;

    bool openFile(const QString &path, QString *error = nullptr);
    QString filePath() const { return m_filePath; }
    /// Extra environment for runs (from the command line).
    void setRunEnvironment(const QMap<QString, QString> &environment);
    /// sys.argv[1:] for runs.
    void setRunArguments(const QStringList &arguments) { m_arguments = arguments; }
    /// The environment the next run gets: the command line's, then the toolbar's.
    QMap<QString, QString> runEnvironment(RunMode mode) const;

    /// Runs the editor's text as it is, saved or not. Returns the generation.
    int runScript(RunMode mode = RunMode::Run);
    int compileOnly() { return runScript(RunMode::CompileOnly); }
    void stopScript();

    /// Brings @p view to the front and gives it most of the window.
    void showView(View view);

    void setTheme(Theme::Kind kind);
    Theme::Kind themeKind() const { return m_theme.kind; }

    RunSettings runSettings() const;
    void setRunSettings(const RunSettings &settings);
    static QStringList platforms();

    /// Puts back an autosaved copy of the buffer for the open file (or, with
    /// none open, the newest copy). Returns whether one was restored.
    bool restoreAutosave();
    void setAutosaveInterval(int ms);
    Autosave *autosave() const { return m_autosave.get(); }

    QStringList recentFiles() const;
    static QString samplesDirectory();

    KernelEditor *editor() const { return m_editor; }
    ConsoleView *console() const { return m_console; }
    PassesPanel *passesPanel() const { return m_passesPanel; }
    AscendCView *ascendcView() const { return m_ascendcView; }
    InspectorState *inspectorState() const { return m_inspectorState; }
    UbMapView *ubMap() const { return m_ubMap; }
    UbMapPanel *ubMapPanel() const { return m_ubMapPanel; }
    SyncTimelinePanel *syncPanel() const { return m_syncPanel; }
    PingPongPanel *pingPongPanel() const { return m_pingPongPanel; }
    GraphView *graphView() const { return m_graphView; }
    ProfileView *profileView() const { return m_profileView; }
    /// Writes a self-contained HTML report of the current kernel's last run.
    bool exportHtmlReport(const QString &path, QString *error = nullptr);
    /// Writes inspector @p view as PNG or SVG (by suffix).
    bool exportView(View view, const QString &path, QString *error = nullptr);
    JobRunner *jobRunner() const { return m_runner; }
    QString statusText() const;
    bool isBusy() const;
    QAction *action(const QString &objectName) const;

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createToolBarControls(class QToolBar *toolBar);
    void createDocks();
    void open();
    bool save();
    bool saveAs();
    bool saveTo(const QString &path);
    bool maybeSave();
    void setFilePath(const QString &path);
    void updateRunActions();
    void updateElapsed();
    void addRecentFile(const QString &path);
    void rebuildRecentMenu();
    void rebuildSamplesMenu();
    void goToLineDialog();
    void firstPassChangingLine();
    void onRunSettingChanged();
    void autosaveTick();
    QAction *addAction(const QString &name, const QString &text, const QKeySequence &shortcut,
                       const QString &toolTip = QString());

    void onRunStarted(int generation, const QString &filePath);
    void onOutput(const QString &text, PythonHost::Stream stream);
    void onReportsChanged(int index, asc2::ReportEvent event);
    void onCurrentReportChanged(const ReportPtr &report);
    void onRunFinished(const RunSummary &summary);
    void onConsoleLocation(const QString &file, int line, int column);
    void createInspectors();
    void showInspectorReport(const ReportPtr &report);
    void exportViewDialog(View view);

    JobRunner *m_runner;
    bool m_persistLayout;
    QString m_filePath;
    QMap<QString, QString> m_environment;
    QStringList m_arguments;
    std::optional<RunMode> m_lastRunMode;
    Theme m_theme;

    KernelEditor *m_editor;
    PassesPanel *m_passesPanel;
    AscendCView *m_ascendcView;
    ConsoleView *m_console;
    QDockWidget *m_passesDock = nullptr;
    QDockWidget *m_ascendcDock = nullptr;
    QDockWidget *m_consoleDock = nullptr;
    InspectorState *m_inspectorState = nullptr;
    UbMapPanel *m_ubMapPanel = nullptr;
    UbMapView *m_ubMap = nullptr;
    SyncTimelinePanel *m_syncPanel = nullptr;
    PingPongPanel *m_pingPongPanel = nullptr;
    GraphView *m_graphView = nullptr;
    ProfileView *m_profileView = nullptr;
    QMap<View, QDockWidget *> m_inspectorDocks;
    ReportPtr m_inspectedReport;
    size_t m_inspectedLaunches = 0;
    QLabel *m_runStatus;
    QProgressBar *m_busy;
    QLabel *m_elapsedLabel;
    QElapsedTimer m_elapsed;
    QTimer m_elapsedTimer;

    QComboBox *m_platformBox = nullptr;
    QComboBox *m_backendBox = nullptr;
    QComboBox *m_insertSyncBox = nullptr;
    QComboBox *m_reuseAllocBox = nullptr;

    QMenu *m_recentMenu = nullptr;
    QMenu *m_samplesMenu = nullptr;
    QAction *m_runAction = nullptr;
    QAction *m_compileAction = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_darkThemeAction = nullptr;

    std::unique_ptr<Autosave> m_autosave;
    QTimer m_autosaveTimer;
    QString m_lastAutosavedText;
};
