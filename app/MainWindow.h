// The workbench window: the kernel editor in the middle, inspectors docked
// around it, the menus, the toolbar and the status bar. What the window's
// parts do together lives in the controllers it creates and wires: the
// document in the editor, runs, the toolbar's run settings, the inspectors
// and the selection they share.
#pragma once

#include "RunController.h"
#include "Theme.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QMap>
#include <QTimer>

#include <optional>

class AscendCView;
class Autosave;
class AutotuneView;
class ColourBands;
class CompareController;
class ComparePanel;
class CoresTimelinePanel;
class ConsoleView;
class DocumentController;
class EditController;
class GraphPanel;
class GraphView;
class InspectorController;
class InspectorState;
class JobRunner;
class KernelEditor;
class PassesPanel;
class PingPongPanel;
class ProfileView;
class RunSettingsController;
class SelectionLinker;
class SyncTimelinePanel;
class UbMapPanel;
class UbMapView;
class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QToolBar;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    enum class View { Editor, Passes, Diff, AscendC, Console, UbMap, Sync, Cores, PingPong, Graph, Profile, Autotune, Compare };
    static std::optional<View> viewFromName(const QString &name);
    static QStringList viewNames();

    /// @p persistLayout: restore and save dock layout, geometry, theme and
    /// recent files in QSettings, and autosave unsaved buffers (off for
    /// screenshots, which must not depend on the user's state).
    explicit MainWindow(JobRunner *runner, bool persistLayout = true, QWidget *parent = nullptr);
    ~MainWindow() override;

    DocumentController *document() const { return m_document; }
    RunController *runs() const { return m_runs; }
    RunSettingsController *runSettings() const { return m_runSettings; }
    InspectorController *inspectors() const { return m_inspectors; }
    ColourBands *colourBands() const { return m_bands; }

    bool openFile(const QString &path, QString *error = nullptr);
    QString filePath() const;
    /// Puts back an autosaved copy of the buffer (DocumentController::restoreAutosave).
    bool restoreAutosave();
    void setAutosaveInterval(int ms);
    Autosave *autosave() const;

    /// Extra environment for runs (from the command line).
    void setRunEnvironment(const QMap<QString, QString> &environment);
    /// sys.argv[1:] for runs.
    void setRunArguments(const QStringList &arguments);
    /// Runs the editor's text as it is, saved or not. Returns the generation.
    int runScript(RunMode mode = RunMode::Run);
    void stopScript();

    /// Brings @p view to the front and gives it most of the window.
    void showView(View view);
    /// The docks that show results of a run (not the editor, console or autotune).
    QList<QDockWidget *> resultDocks() const;

    void setTheme(Theme::Kind kind);
    Theme::Kind themeKind() const { return m_theme.kind; }

    KernelEditor *editor() const { return m_editor; }
    EditController *editController() const { return m_edit; }
    ConsoleView *console() const { return m_console; }
    PassesPanel *passesPanel() const { return m_passesPanel; }
    AscendCView *ascendcView() const { return m_ascendcView; }
    InspectorState *inspectorState() const { return m_inspectorState; }
    UbMapView *ubMap() const { return m_ubMap; }
    UbMapPanel *ubMapPanel() const { return m_ubMapPanel; }
    SyncTimelinePanel *syncPanel() const { return m_syncPanel; }
    CoresTimelinePanel *coresPanel() const { return m_coresPanel; }
    PingPongPanel *pingPongPanel() const { return m_pingPongPanel; }
    GraphView *graphView() const { return m_graphView; }
    ProfileView *profileView() const { return m_profileView; }
    AutotuneView *autotuneView() const { return m_autotuneView; }
    ComparePanel *comparePanel() const { return m_comparePanel; }
    CompareController *compareController() const { return m_compare; }
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
    /// Tab bars of tabbed docks scroll rather than cut their names ("Pas...").
    void childEvent(QChildEvent *event) override;

private:
    void createActions();
    void createDocks();
    void createInspectors(QMenu *docksMenu);
    void createStatusBar();
    void createControllers();
    QAction *addAction(const QString &name, const QString &text, const QKeySequence &shortcut,
                       const QString &toolTip = QString());
    void updateTitle();
    void updateRunActions();
    void updateElapsed();
    void goToLineDialog();
    void exportViewDialog(View view);
    /// Shows and raises @p dock, widening (or heightening) its area to
    /// @p atLeast pixels only when it has less.
    void bringForward(QDockWidget *dock, int atLeast, Qt::Orientation orientation);
    /// Shows the compile report of an autotuned config (AutotuneView::configActivated) in the views.
    void showConfigReport(const QString &kernel, const QString &codeSha1);
    void markResults(const QString &staleNote);

    JobRunner *m_runner;
    bool m_persistLayout;
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
    CoresTimelinePanel *m_coresPanel = nullptr;
    ComparePanel *m_comparePanel = nullptr;
    CompareController *m_compare = nullptr;
    PingPongPanel *m_pingPongPanel = nullptr;
    GraphView *m_graphView = nullptr;
    GraphPanel *m_graphPanel = nullptr;
    ProfileView *m_profileView = nullptr;
    AutotuneView *m_autotuneView = nullptr;
    QMap<View, QDockWidget *> m_inspectorDocks;
    QLabel *m_runStatus;
    QProgressBar *m_busy;
    QLabel *m_elapsedLabel;
    QElapsedTimer m_elapsed;
    QTimer m_elapsedTimer;

    QToolBar *m_toolBar = nullptr;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_samplesMenu = nullptr;
    QAction *m_runAction = nullptr;
    QAction *m_compileAction = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_darkThemeAction = nullptr;

    DocumentController *m_document = nullptr;
    EditController *m_edit = nullptr;
    RunSettingsController *m_runSettings = nullptr;
    RunController *m_runs = nullptr;
    InspectorController *m_inspectors = nullptr;
    ColourBands *m_bands = nullptr;
    SelectionLinker *m_selection = nullptr;
};
