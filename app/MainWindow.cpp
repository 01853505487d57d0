#include "MainWindow.h"

#include "AscendCView.h"
#include "ColourBands.h"
#include "CompareController.h"
#include "ComparePanel.h"
#include "CoresTimelineView.h"
#include "AutotuneScatter.h"
#include "AutotuneView.h"
#include "ConsoleView.h"
#include "DocumentController.h"
#include "EditController.h"
#include "FindBar.h"
#include "GraphPanel.h"
#include "GraphView.h"
#include "IrDiffView.h"
#include "InspectorController.h"
#include "InspectorState.h"
#include "JobRunner.h"
#include "KernelEditor.h"
#include "PassesPanel.h"
#include "PingPongView.h"
#include "ProfileView.h"
#include "RunSettingsController.h"
#include "SelectionLinker.h"
#include "SyncTimelineView.h"
#include "UbMapView.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QChildEvent>
#include <QComboBox>
#include <QDir>
#include <QStandardPaths>
#include <QTabBar>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>

std::optional<MainWindow::View> MainWindow::viewFromName(const QString &name)
{
    const QString n = name.toLower();
    if (n == QLatin1String("editor"))
        return View::Editor;
    if (n == QLatin1String("passes") || n == QLatin1String("ir"))
        return View::Passes;
    if (n == QLatin1String("diff"))
        return View::Diff;
    if (n == QLatin1String("ascendc") || n == QLatin1String("ascend-c"))
        return View::AscendC;
    if (n == QLatin1String("console"))
        return View::Console;
    if (n == QLatin1String("ub-map") || n == QLatin1String("ubmap") || n == QLatin1String("ub"))
        return View::UbMap;
    if (n == QLatin1String("sync") || n == QLatin1String("timeline"))
        return View::Sync;
    if (n == QLatin1String("cores") || n == QLatin1String("all-cores"))
        return View::Cores;
    if (n == QLatin1String("pingpong") || n == QLatin1String("ping-pong"))
        return View::PingPong;
    if (n == QLatin1String("graph"))
        return View::Graph;
    if (n == QLatin1String("profile"))
        return View::Profile;
    if (n == QLatin1String("autotune"))
        return View::Autotune;
    if (n == QLatin1String("compare"))
        return View::Compare;
    return std::nullopt;
}

QStringList MainWindow::viewNames()
{
    return {QStringLiteral("editor"), QStringLiteral("passes"), QStringLiteral("diff"), QStringLiteral("ascendc"),
            QStringLiteral("console"), QStringLiteral("ub-map"), QStringLiteral("sync"), QStringLiteral("cores"),
            QStringLiteral("pingpong"), QStringLiteral("graph"), QStringLiteral("profile"),
            QStringLiteral("autotune"), QStringLiteral("compare")};
}

MainWindow::MainWindow(JobRunner *runner, bool persistLayout, QWidget *parent)
    : QMainWindow(parent)
    , m_runner(runner)
    , m_persistLayout(persistLayout)
    , m_theme(Theme::light())
    , m_editor(new KernelEditor(this))
    , m_passesPanel(new PassesPanel(this))
    , m_ascendcView(new AscendCView(this))
    , m_console(new ConsoleView(this))
    , m_runStatus(new QLabel(this))
    , m_busy(new QProgressBar(this))
    , m_elapsedLabel(new QLabel(this))
{
    setCentralWidget(m_editor);
    // The actions and the docks are wired to the controllers as they are built.
    m_document = new DocumentController(m_editor, m_persistLayout, this);
    createActions();
    createDocks();
    createStatusBar();
    createControllers();

    updateTitle();
    resize(1400, 900);
    if (m_persistLayout) {
        QSettings settings;
        restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray());
        restoreState(settings.value(QStringLiteral("mainWindow/state")).toByteArray());
        setTheme(Theme::kindFromName(settings.value(QStringLiteral("theme")).toString()));
        action(QStringLiteral("compileAsYouType"))
            ->setChecked(settings.value(QStringLiteral("run/compileAsYouType"), false).toBool());
        action(QStringLiteral("colourBands"))->setChecked(settings.value(QStringLiteral("view/colourBands"), false).toBool());
        // Saved profile baselines, for every session after this one.
        m_profileView->setBaselineFile(
            QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("baselines.json")));
    } else {
        setTheme(Theme::Kind::Light);
    }
    m_document->setMenus(m_recentMenu, m_samplesMenu);
    // QScintilla's key bindings would otherwise win over the window's shortcuts
    // while the editor has the focus: Ctrl+L would cut the line, not go to one.
    // (Not the Edit menu's Undo, Copy, ...: their keys are left to the views.)
    QList<QKeySequence> shortcuts;
    for (const QAction *a : findChildren<QAction *>())
        if (a->shortcutContext() != Qt::WidgetShortcut)
            shortcuts += a->shortcuts();
    m_editor->releaseKeys(shortcuts);
    updateRunActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::childEvent(QChildEvent *event)
{
    // The main window's layout makes a tab bar for each group of tabbed docks
    // when they are tabbed (and again after restoreState): ten docks on the
    // right would otherwise read "Pas…", "Ascen…", "UB …".
    if (event->type() == QEvent::ChildPolished)
        if (auto *tabs = qobject_cast<QTabBar *>(event->child())) {
            tabs->setElideMode(Qt::ElideNone);
            tabs->setUsesScrollButtons(true);
        }
    QMainWindow::childEvent(event);
}

void MainWindow::createControllers()
{
    connect(m_editor, &QsciScintilla::modificationChanged, this, &QWidget::setWindowModified);
    connect(m_document, &DocumentController::filePathChanged, this, &MainWindow::updateTitle);
    // Line times of imported runs are laid over the editor only when they are of its file.
    connect(m_document, &DocumentController::filePathChanged, m_profileView, &ProfileView::setSourceFile);
    connect(m_document, &DocumentController::notice, this, [this](const QString &text) { m_console->appendLine(text); });

    m_runs = new RunController(m_runner, m_document, m_runSettings, m_editor, m_console, m_passesPanel, this);
    connect(m_runs, &RunController::runningChanged, this, &MainWindow::updateRunActions);
    connect(m_runs, &RunController::statusChanged, m_runStatus, &QLabel::setText);
    connect(m_runs, &RunController::reportShown, m_inspectors, &InspectorController::showReport);
    // After the RunController's own handler: the Passes panel is cleared first.
    connect(m_document, &DocumentController::opened, m_inspectors, &InspectorController::clear);
    // After the inspectors': the bands follow the Ascend C they were given.
    m_bands = new ColourBands(m_editor, m_passesPanel, m_ascendcView, this);
    connect(m_runs, &RunController::reportShown, m_bands, &ColourBands::refresh);
    connect(m_document, &DocumentController::opened, m_bands, &ColourBands::refresh);
    m_bands->setShown(action(QStringLiteral("colourBands"))->isChecked());

    m_selection = new SelectionLinker(m_document, m_editor, m_passesPanel, m_ascendcView, m_console,
                                      m_inspectorState, m_profileView, this);

    const auto showMessage = [this](const QString &text, int timeoutMs) { statusBar()->showMessage(text, timeoutMs); };
    connect(m_document, &DocumentController::statusMessage, this, showMessage);
    connect(m_inspectors, &InspectorController::statusMessage, this, showMessage);
    connect(m_selection, &SelectionLinker::statusMessage, this, showMessage);

    // Autotune: the run's sweeps as they happen; a new run starts it afresh.
    connect(m_runs, &RunController::tuningEvent, m_autotuneView, &AutotuneView::applyEvent);
    connect(m_runner, &JobRunner::runStarted, m_autotuneView, &AutotuneView::clear);
    connect(m_runner, &JobRunner::runStarted, m_inspectors, &InspectorController::beginRun);
    connect(m_runner, &JobRunner::runFinished, m_autotuneView, &AutotuneView::endRun);
    connect(m_document, &DocumentController::opened, m_autotuneView, &AutotuneView::clear);
    connect(m_autotuneView, &AutotuneView::sweepStarted, this, [this] {
        QDockWidget *dock = m_inspectorDocks.value(View::Autotune);
        dock->show();
        dock->raise();
    });
    connect(m_autotuneView, &AutotuneView::cancelRequested, m_runs, &RunController::stopScript);
    connect(m_autotuneView, &AutotuneView::configActivated, this, &MainWindow::showConfigReport);

    // Compare: A is the window's last run; B runs apart.
    m_compare = new CompareController(m_comparePanel, m_runner, m_document, m_editor, this);
    // A's summaries (a JSON round trip of every kernel's report) are made when
    // the Compare view can be seen, not after every run on the GUI thread.
    connect(m_runner, &JobRunner::runFinished, m_compare, [this] {
        if (m_comparePanel->isVisible())
            m_compare->updateA();
    });
    connect(m_inspectorDocks.value(View::Compare), &QDockWidget::visibilityChanged, m_compare, [this](bool visible) {
        if (visible)
            m_compare->updateA();
    });
    connect(m_document, &DocumentController::opened, m_compare, &CompareController::clear);

    // Results that are not the editor's code's say so: on the docks' tabs and
    // at the foot of the drawn views.
    connect(m_runs, &RunController::resultsNoteChanged, this, &MainWindow::markResults);
}

QList<QDockWidget *> MainWindow::resultDocks() const
{
    QList<QDockWidget *> docks{m_passesDock, m_ascendcDock};
    for (View v : {View::UbMap, View::Sync, View::Cores, View::PingPong, View::Graph, View::Profile})
        docks.push_back(m_inspectorDocks.value(v));
    return docks;
}

void MainWindow::markResults(const QString &staleNote)
{
    for (QDockWidget *dock : resultDocks()) {
        QString title = dock->property("resultTitle").toString();
        if (title.isEmpty()) {
            title = dock->windowTitle();
            dock->setProperty("resultTitle", title);
        }
        dock->setWindowTitle(staleNote.isEmpty() ? title : tr("%1 (stale)").arg(title));
        dock->setToolTip(staleNote);
    }
    m_inspectorState->setStaleNote(staleNote);
}

void MainWindow::showConfigReport(const QString &kernel, const QString &codeSha1)
{
    const autotune::Sweep *sweep = m_autotuneView->shownSweep();
    const int position = m_autotuneView->selectedConfig();
    if (!sweep || position < 0)
        return;
    const autotune::ConfigResult &config = sweep->configs[position];
    const int index = autotune::indexOfConfigReport(m_passesPanel->reports(), kernel, codeSha1);
    if (index < 0) {
        statusBar()->showMessage(autotune::whyNoReport(config), 10000);
        return;
    }
    m_passesPanel->setCurrentKernel(index);
    statusBar()->showMessage(tr("The views show config #%1 (%2) of %3").arg(config.index).arg(config.params, kernel),
                             6000);
}

QAction *MainWindow::addAction(const QString &name, const QString &text, const QKeySequence &shortcut,
                               const QString &toolTip)
{
    auto *a = new QAction(text, this);
    a->setObjectName(name);
    a->setShortcut(shortcut);
    // Shortcuts work whichever dock has the focus.
    a->setShortcutContext(Qt::WindowShortcut);
    const QString tip = toolTip.isEmpty() ? QString(text).remove(QLatin1Char('&')).remove(QStringLiteral("..."))
                                          : toolTip;
    a->setToolTip(shortcut.isEmpty() ? tip
                                     : QStringLiteral("%1 (%2)").arg(tip, shortcut.toString(QKeySequence::NativeText)));
    QMainWindow::addAction(a);
    return a;
}

QAction *MainWindow::action(const QString &objectName) const
{
    return findChild<QAction *>(objectName);
}

void MainWindow::createActions()
{
    QStyle *s = style();
    QAction *newAction = addAction(QStringLiteral("new"), tr("&New"), QKeySequence::New,
                                   tr("A new untitled kernel (a small one that runs as it is)"));
    newAction->setIcon(s->standardIcon(QStyle::SP_FileIcon));
    connect(newAction, &QAction::triggered, m_document, &DocumentController::newFile);

    QAction *openAction = addAction(QStringLiteral("open"), tr("&Open..."), QKeySequence::Open);
    openAction->setIcon(s->standardIcon(QStyle::SP_DialogOpenButton));
    connect(openAction, &QAction::triggered, m_document, &DocumentController::open);

    QAction *saveAction = addAction(QStringLiteral("save"), tr("&Save"), QKeySequence::Save);
    saveAction->setIcon(s->standardIcon(QStyle::SP_DialogSaveButton));
    connect(saveAction, &QAction::triggered, m_document, &DocumentController::save);

    QAction *saveAsAction = addAction(QStringLiteral("saveAs"), tr("Save &As..."), QKeySequence(QStringLiteral("Ctrl+Shift+S")));
    connect(saveAsAction, &QAction::triggered, m_document, &DocumentController::saveAs);

    QAction *quitAction = addAction(QStringLiteral("quit"), tr("&Quit"), QKeySequence(QStringLiteral("Ctrl+Q")));
    connect(quitAction, &QAction::triggered, this, &QWidget::close);

    QAction *goToLineAction = addAction(QStringLiteral("goToLine"), tr("&Go to Line..."), QKeySequence(QStringLiteral("Ctrl+L")),
                                        tr("Move the editor to a line"));
    connect(goToLineAction, &QAction::triggered, this, &MainWindow::goToLineDialog);

    m_runAction = addAction(QStringLiteral("run"), tr("&Run"), Qt::Key_F5, tr("Run the script in the editor"));
    m_runAction->setIcon(s->standardIcon(QStyle::SP_MediaPlay));
    connect(m_runAction, &QAction::triggered, this, [this] { runScript(RunMode::Run); });

    m_compileAction = addAction(QStringLiteral("compileOnly"), tr("&Compile Only"), QKeySequence(QStringLiteral("Ctrl+B")),
                                tr("Run the script but only compile its kernels (no simulation)"));
    m_compileAction->setIcon(s->standardIcon(QStyle::SP_BrowserReload));
    connect(m_compileAction, &QAction::triggered, this, [this] { runScript(RunMode::CompileOnly); });

    QAction *asYouType = addAction(QStringLiteral("compileAsYouType"), tr("Compile as You &Type"),
                                   QKeySequence(QStringLiteral("Ctrl+Shift+B")),
                                   tr("Compile the editor's code whenever typing pauses (as Compiler Explorer does)"));
    asYouType->setCheckable(true);
    connect(asYouType, &QAction::toggled, this, [this](bool on) {
        m_runs->setCompileAsYouType(on);
        if (m_persistLayout)
            QSettings().setValue(QStringLiteral("run/compileAsYouType"), on);
    });

    m_stopAction = addAction(QStringLiteral("stop"), tr("S&top"), QKeySequence(Qt::SHIFT | Qt::Key_F5),
                             tr("Stop the running script and its simulation"));
    m_stopAction->setIcon(s->standardIcon(QStyle::SP_MediaStop));
    connect(m_stopAction, &QAction::triggered, this, &MainWindow::stopScript);

    QAction *firstChange = addAction(QStringLiteral("firstChange"), tr("&First Pass Changing This Line"),
                                     QKeySequence(QStringLiteral("Ctrl+Shift+L")),
                                     tr("Select the first pass that changed the IR of the selected line"));
    connect(firstChange, &QAction::triggered, this, [this] {
        showView(View::Passes);
        if (!m_selection->selectFirstPassChangingLine())
            statusBar()->showMessage(tr("No pass changed the IR of this line"), 4000);
    });

    m_darkThemeAction = addAction(QStringLiteral("darkTheme"), tr("&Dark Theme"), QKeySequence(QStringLiteral("Ctrl+Shift+T")));
    m_darkThemeAction->setCheckable(true);
    connect(m_darkThemeAction, &QAction::toggled, this,
            [this](bool dark) { setTheme(dark ? Theme::Kind::Dark : Theme::Kind::Light); });

    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(newAction);
    file->addAction(openAction);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_samplesMenu = file->addMenu(tr("S&amples"));
    file->addAction(saveAction);
    file->addAction(saveAsAction);
    file->addSeparator();
    file->addAction(quitAction);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    m_edit = new EditController(this, edit, m_editor, [this](QWidget *view) {
        if (view == m_editor)
            return tr("Editor");
        if (view == m_ascendcView)
            return tr("Ascend C");
        if (view == m_console)
            return tr("Console");
        if (m_passesPanel->diffView()->isAncestorOf(view))
            return tr("Pass Diff");
        return tr("IR");
    });
    edit->addAction(goToLineAction);

    QMenu *run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_runAction);
    run->addAction(m_compileAction);
    run->addAction(m_stopAction);
    run->addAction(asYouType);
    run->addSeparator();
    run->addAction(firstChange);

    m_toolBar = addToolBar(tr("Main"));
    m_toolBar->setObjectName(QStringLiteral("mainToolBar"));
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toolBar->addAction(openAction);
    m_toolBar->addAction(saveAction);
    m_toolBar->addSeparator();
    m_toolBar->addAction(m_runAction);
    m_toolBar->addAction(m_compileAction);
    m_toolBar->addAction(m_stopAction);
    m_toolBar->addAction(action(QStringLiteral("compileAsYouType")));
    m_toolBar->addSeparator();
    m_runSettings = new RunSettingsController(m_toolBar, this);
}

void MainWindow::createDocks()
{
    const auto makeDock = [this](const QString &title, const QString &name, QWidget *widget) {
        auto *dock = new QDockWidget(title, this);
        dock->setObjectName(name);
        dock->setWidget(widget);
        return dock;
    };
    m_passesDock = makeDock(tr("Passes"), QStringLiteral("passesDock"), m_passesPanel);
    m_ascendcDock = makeDock(tr("Ascend C"), QStringLiteral("ascendcDock"), m_ascendcView);
    m_consoleDock = makeDock(tr("Console"), QStringLiteral("consoleDock"), m_console);

    // Inspectors take the full height on the right; the console sits under the editor.
    setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    addDockWidget(Qt::RightDockWidgetArea, m_passesDock);
    addDockWidget(Qt::RightDockWidgetArea, m_ascendcDock);
    tabifyDockWidget(m_passesDock, m_ascendcDock);
    m_passesDock->raise();
    addDockWidget(Qt::BottomDockWidgetArea, m_consoleDock);
    resizeDocks({m_passesDock}, {700}, Qt::Horizontal);
    resizeDocks({m_consoleDock}, {220}, Qt::Vertical);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    const auto showAction = [this, view](const QString &name, const QString &text, const QKeySequence &key, View v) {
        QAction *a = addAction(name, text, key);
        connect(a, &QAction::triggered, this, [this, v] { showView(v); });
        view->addAction(a);
    };
    showAction(QStringLiteral("showEditor"), tr("&Editor"), QKeySequence(QStringLiteral("Alt+1")), View::Editor);
    showAction(QStringLiteral("showPasses"), tr("&Passes"), QKeySequence(QStringLiteral("Alt+2")), View::Passes);
    showAction(QStringLiteral("showDiff"), tr("Pass &Diff"), QKeySequence(QStringLiteral("Alt+3")), View::Diff);
    showAction(QStringLiteral("showAscendC"), tr("&Ascend C"), QKeySequence(QStringLiteral("Alt+4")), View::AscendC);
    showAction(QStringLiteral("showConsole"), tr("&Console"), QKeySequence(QStringLiteral("Alt+5")), View::Console);
    view->addSeparator();
    QAction *filter = addAction(QStringLiteral("filterPasses"), tr("&Filter Passes"), QKeySequence(QStringLiteral("Ctrl+Shift+F")));
    connect(filter, &QAction::triggered, this, [this] {
        showView(View::Passes);
        m_passesPanel->searchField()->setFocus();
        m_passesPanel->searchField()->selectAll();
    });
    view->addAction(filter);
    QMenu *docks = view->addMenu(tr("Show &Docks"));
    docks->addAction(m_passesDock->toggleViewAction());
    docks->addAction(m_ascendcDock->toggleViewAction());
    docks->addAction(m_consoleDock->toggleViewAction());
    view->addSeparator();
    QAction *bands = addAction(QStringLiteral("colourBands"), tr("Colour &Bands"), QKeySequence(QStringLiteral("Ctrl+Shift+K")),
                               tr("Colour each Python line and the IR and Ascend C lines made from it alike"));
    bands->setCheckable(true);
    connect(bands, &QAction::toggled, this, [this](bool on) {
        if (m_bands)
            m_bands->setShown(on);
        if (m_persistLayout)
            QSettings().setValue(QStringLiteral("view/colourBands"), on);
    });
    view->addAction(bands);
    view->addAction(m_darkThemeAction);
    createInspectors(docks);
}

void MainWindow::createInspectors(QMenu *docksMenu)
{
    m_inspectorState = new InspectorState(this);
    m_ubMapPanel = new UbMapPanel(this);
    m_ubMap = m_ubMapPanel->view();
    m_syncPanel = new SyncTimelinePanel(this);
    m_coresPanel = new CoresTimelinePanel(this);
    m_pingPongPanel = new PingPongPanel(this);
    m_graphPanel = new GraphPanel(this);
    m_graphView = m_graphPanel->view();
    m_profileView = new ProfileView(this);
    m_autotuneView = new AutotuneView(this);
    m_comparePanel = new ComparePanel(this);
    m_comparePanel->setPlatforms(RunSettingsController::platforms());
    // B differs from the toolbar's target at first: the A5 against the A2 it runs on.
    for (const QString &other : {QStringLiteral("Ascend950"), QStringLiteral("Ascend910B1")})
        if (other != m_runSettings->settings().platform && RunSettingsController::platforms().contains(other)) {
            m_comparePanel->platformBox()->setCurrentText(other);
            break;
        }
    m_ubMap->setState(m_inspectorState);
    m_syncPanel->view()->setState(m_inspectorState);
    m_coresPanel->view()->setState(m_inspectorState);
    // A core double-clicked in All Cores opens in the Sync Timeline, in detail.
    connect(m_coresPanel->view(), &CoresTimelineView::coreActivated, this, [this](int core) {
        m_syncPanel->modeBox()->setCurrentIndex(1); // simulated
        m_syncPanel->coreBox()->setCurrentIndex(core);
        showView(View::Sync);
    });
    m_pingPongPanel->view()->setState(m_inspectorState);
    m_graphView->setState(m_inspectorState);
    m_inspectors = new InspectorController({m_passesPanel, m_ascendcView, m_inspectorState, m_ubMapPanel, m_syncPanel,
                                            m_pingPongPanel, m_graphView, m_profileView, m_coresPanel},
                                           this);

    const struct {
        View view;
        QString title, name;
        QWidget *widget;
        const char *key;
    } inspectors[] = {
        {View::UbMap, tr("UB Map"), QStringLiteral("ubMapDock"), m_ubMapPanel, "Alt+6"},
        {View::Sync, tr("Sync Timeline"), QStringLiteral("syncDock"), m_syncPanel, "Alt+7"},
        {View::Cores, tr("All Cores"), QStringLiteral("coresDock"), m_coresPanel, "Alt+C"},
        {View::PingPong, tr("Ping-pong"), QStringLiteral("pingPongDock"), m_pingPongPanel, "Alt+8"},
        {View::Graph, tr("Graph"), QStringLiteral("graphDock"), m_graphPanel, "Alt+9"},
        {View::Profile, tr("Profile"), QStringLiteral("profileDock"), m_profileView, "Alt+0"},
        {View::Autotune, tr("Autotune"), QStringLiteral("autotuneDock"), m_autotuneView, "Alt+U"},
        {View::Compare, tr("Compare"), QStringLiteral("compareDock"), m_comparePanel, "Alt+K"},
    };
    QMenu *menu = menuBar()->addMenu(tr("&Inspect"));
    QMenu *exportMenu = new QMenu(tr("&Export View"), menu);
    QDockWidget *previous = m_ascendcDock;
    for (const auto &i : inspectors) {
        auto *dock = new QDockWidget(i.title, this);
        dock->setObjectName(i.name);
        dock->setWidget(i.widget);
        addDockWidget(Qt::RightDockWidgetArea, dock);
        tabifyDockWidget(previous, dock);
        previous = dock;
        m_inspectorDocks.insert(i.view, dock);
        const View v = i.view;
        QAction *show = addAction(i.name + QStringLiteral("Show"), i.title, QKeySequence(QString::fromLatin1(i.key)));
        connect(show, &QAction::triggered, this, [this, v] { showView(v); });
        menu->addAction(show);
        QAction *exportAction = exportMenu->addAction(tr("%1 as PNG/SVG...").arg(i.title));
        connect(exportAction, &QAction::triggered, this, [this, v] { exportViewDialog(v); });
        docksMenu->addAction(dock->toggleViewAction());
    }
    m_passesDock->raise();
    menu->addSeparator();
    menu->addMenu(exportMenu);
    QAction *html = menu->addAction(tr("Export &HTML Report..."));
    connect(html, &QAction::triggered, this, [this] { m_inspectors->exportHtmlReportDialog(m_runner->reports().kernels()); });
    QAction *trace = menu->addAction(tr("Export Simulated &Trace (Chrome JSON)..."));
    connect(trace, &QAction::triggered, m_inspectors, &InspectorController::exportTraceDialog);
    QAction *import = menu->addAction(tr("&Import msprof Data..."));
    connect(import, &QAction::triggered, this, [this] {
        m_inspectors->importMsprofDialog();
        showView(View::Profile);
    });
}

void MainWindow::createStatusBar()
{
    m_runStatus->setText(tr("Ready"));
    m_busy->setRange(0, 0); // busy, not a percentage: a script's length is unknown
    m_busy->setMaximumWidth(120);
    m_busy->setMaximumHeight(14);
    m_busy->setTextVisible(false);
    m_busy->hide();
    m_elapsedLabel->hide();
    statusBar()->addPermanentWidget(m_runStatus, 1);
    statusBar()->addPermanentWidget(m_elapsedLabel);
    statusBar()->addPermanentWidget(m_busy);
    // A temporary message is drawn left of the permanent widgets, where the
    // run's status (stretched over the bar) leaves it no room: the status
    // steps aside while a message shows.
    connect(statusBar(), &QStatusBar::messageChanged, m_runStatus,
            [this](const QString &message) { m_runStatus->setVisible(message.isEmpty()); });
    m_elapsedTimer.setInterval(100);
    connect(&m_elapsedTimer, &QTimer::timeout, this, &MainWindow::updateElapsed);
}

bool MainWindow::exportView(View view, const QString &path, QString *error)
{
    switch (view) {
    case View::UbMap: return m_ubMap->exportTo(path, error);
    case View::Sync: return m_syncPanel->view()->exportTo(path, error);
    case View::Cores: return m_coresPanel->view()->exportTo(path, error);
    case View::PingPong: return m_pingPongPanel->view()->exportTo(path, error);
    case View::Graph: return m_graphView->exportTo(path, error);
    case View::Profile: return m_profileView->chart()->exportTo(path, error);
    case View::Autotune: return m_autotuneView->scatter()->exportTo(path, error);
    default: break;
    }
    if (error)
        *error = tr("only inspector views can be exported");
    return false;
}

void MainWindow::exportViewDialog(View view)
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export View"), QString(),
                                                      tr("PNG image (*.png);;SVG drawing (*.svg)"));
    QString error;
    if (!path.isEmpty() && !exportView(view, path, &error))
        QMessageBox::warning(this, tr("Export View"), error);
}

bool MainWindow::exportHtmlReport(const QString &path, QString *error)
{
    return m_inspectors->exportHtmlReport(path, error, m_runner->reports().kernels());
}

void MainWindow::showView(View view)
{
    // A view brought forward gets room only when it has too little: the
    // split the user (or an earlier view) set is kept, so switching between
    // views never squeezes the editor step by step.
    const int w = width();
    const int h = height();
    switch (view) {
    case View::Editor:
        if (m_editor->width() < w * 3 / 5)
            resizeDocks({m_passesDock}, {w * 2 / 5}, Qt::Horizontal);
        if (m_consoleDock->isVisible() && m_consoleDock->height() > h / 4)
            resizeDocks({m_consoleDock}, {h / 5}, Qt::Vertical);
        m_editor->setFocus();
        break;
    case View::Passes:
    case View::Diff:
        bringForward(m_passesDock, w * 2 / 5, Qt::Horizontal);
        m_passesPanel->setPage(view == View::Diff ? PassesPanel::Page::Diff : PassesPanel::Page::Ir);
        m_passesPanel->setFocus();
        break;
    case View::AscendC:
        bringForward(m_ascendcDock, w * 2 / 5, Qt::Horizontal);
        m_ascendcView->setFocus();
        break;
    case View::Console:
        bringForward(m_consoleDock, h * 3 / 5, Qt::Vertical);
        m_console->setFocus();
        break;
    case View::UbMap:
    case View::Sync:
    case View::Cores:
    case View::PingPong:
    case View::Graph:
    case View::Profile:
    case View::Autotune:
    case View::Compare: {
        QDockWidget *dock = m_inspectorDocks.value(view);
        bringForward(dock, w / 2, Qt::Horizontal);
        dock->widget()->setFocus();
        break;
    }
    }
}

void MainWindow::bringForward(QDockWidget *dock, int atLeast, Qt::Orientation orientation)
{
    // The room the dock's area has now: the window less the editor for the
    // right area (whichever of its tabbed docks is on top), the console's own
    // height for the bottom area, where it is alone.
    int room = width() - m_editor->width();
    if (orientation == Qt::Vertical)
        room = dock->isVisible() ? dock->height() : 0;
    dock->show();
    dock->raise();
    if (room < atLeast)
        resizeDocks({dock}, {atLeast}, orientation);
}

void MainWindow::setTheme(Theme::Kind kind)
{
    m_theme = Theme::of(kind);
    QApplication::setPalette(m_theme.palette);
    m_editor->setTheme(m_theme);
    m_passesPanel->setTheme(m_theme);
    m_ascendcView->setTheme(m_theme);
    m_console->setTheme(m_theme);
    m_edit->findBar()->setTheme(m_theme);
    m_ubMap->setTheme(m_theme);
    m_syncPanel->view()->setTheme(m_theme);
    m_coresPanel->view()->setTheme(m_theme);
    m_comparePanel->setTheme(m_theme);
    m_pingPongPanel->view()->setTheme(m_theme);
    m_graphView->setTheme(m_theme);
    m_profileView->setTheme(m_theme);
    m_autotuneView->setTheme(m_theme);
    {
        const QSignalBlocker blocker(m_darkThemeAction);
        m_darkThemeAction->setChecked(kind == Theme::Kind::Dark);
    }
    if (m_persistLayout)
        QSettings().setValue(QStringLiteral("theme"), Theme::name(kind));
}

void MainWindow::updateTitle()
{
    const QString path = m_document->filePath();
    const QString name = path.isEmpty() ? tr("untitled.py") : QFileInfo(path).fileName();
    setWindowTitle(tr("%1[*] \u2014 asc2 Workbench").arg(name));
    setWindowModified(m_editor->isModified());
}

void MainWindow::goToLineDialog()
{
    bool ok = false;
    const int line = QInputDialog::getInt(this, tr("Go to Line"), tr("Line (1-%1):").arg(m_editor->lines()),
                                          m_editor->cursorLine(), 1, qMax(1, m_editor->lines()), 1, &ok);
    if (!ok)
        return;
    m_editor->goToLine(line);
    m_editor->setFocus();
}

// --- the document and runs, for main() and the tests

bool MainWindow::openFile(const QString &path, QString *error)
{
    return m_document->openFile(path, error);
}

QString MainWindow::filePath() const
{
    return m_document->filePath();
}

bool MainWindow::restoreAutosave()
{
    return m_document->restoreAutosave();
}

void MainWindow::setAutosaveInterval(int ms)
{
    m_document->setAutosaveInterval(ms);
}

Autosave *MainWindow::autosave() const
{
    return m_document->autosave();
}

void MainWindow::setRunEnvironment(const QMap<QString, QString> &environment)
{
    m_runs->setRunEnvironment(environment);
}

void MainWindow::setRunArguments(const QStringList &arguments)
{
    m_runs->setRunArguments(arguments);
    m_compare->setRunArguments(arguments);
}

int MainWindow::runScript(RunMode mode)
{
    return m_runs->runScript(mode);
}

void MainWindow::stopScript()
{
    m_runs->stopScript();
}

void MainWindow::updateRunActions()
{
    const bool running = m_runner->isRunning();
    m_stopAction->setEnabled(running);
    m_runAction->setText(running ? tr("&Restart") : tr("&Run"));
    m_busy->setVisible(running);
    m_elapsedLabel->setVisible(running);
    if (running) {
        m_elapsed.start();
        m_elapsedTimer.start();
        updateElapsed();
    } else {
        m_elapsedTimer.stop();
    }
}

void MainWindow::updateElapsed()
{
    m_elapsedLabel->setText(tr("%1 s").arg(m_elapsed.elapsed() / 1000.0, 0, 'f', 1));
}

QString MainWindow::statusText() const
{
    return m_runStatus->text();
}

bool MainWindow::isBusy() const
{
    return m_busy->isVisible() || m_runner->isRunning();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_persistLayout && !m_document->maybeSave()) {
        event->ignore();
        return;
    }
    if (m_persistLayout) {
        QSettings settings;
        settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
        settings.setValue(QStringLiteral("mainWindow/state"), saveState());
    }
    m_runner->stop();
    event->accept();
}
