#include "MainWindow.h"

#include "AscendCView.h"
#include "ConsoleView.h"
#include "GraphView.h"
#include "InspectorExport.h"
#include "InspectorState.h"
#include "PingPongView.h"
#include "ProfileView.h"
#include "SyncTimelineView.h"
#include "UbMapView.h"
#include "IrView.h"
#include "KernelEditor.h"
#include "PassesPanel.h"

#include "asc2/Driver/Pipeline.h"

#include <QAction>
#include <QBuffer>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QSaveFile>
#include <QSettings>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>

#include <algorithm>

namespace {
constexpr int kMaxRecentFiles = 10;

bool sameFile(const QString &a, const QString &b)
{
    if (a.isEmpty() || b.isEmpty())
        return false;
    if (a == b)
        return true;
    const QString ca = QFileInfo(a).canonicalFilePath();
    return !ca.isEmpty() && ca == QFileInfo(b).canonicalFilePath();
}

QVector<EditorDiagnostic> diagnosticsForFile(const asc2::CompileReport &report, const QString &filePath)
{
    QVector<EditorDiagnostic> result;
    for (const asc2::DiagnosticRecord &d : report.diagnostics) {
        const QString file = QString::fromStdString(d.loc.file);
        if (d.loc.line <= 0 || !sameFile(file, filePath))
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

// First line of a sample's docstring, for the Samples menu.
QString sampleSummary(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    const QString head = QString::fromUtf8(file.read(2048));
    const int quote = int(head.indexOf(QStringLiteral("\"\"\"")));
    if (quote < 0)
        return {};
    return head.mid(quote + 3).section(QLatin1Char('\n'), 0, 0).trimmed();
}
} // namespace

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
    if (n == QLatin1String("pingpong") || n == QLatin1String("ping-pong"))
        return View::PingPong;
    if (n == QLatin1String("graph"))
        return View::Graph;
    if (n == QLatin1String("profile"))
        return View::Profile;
    return std::nullopt;
}

QStringList MainWindow::viewNames()
{
    return {QStringLiteral("editor"), QStringLiteral("passes"), QStringLiteral("diff"), QStringLiteral("ascendc"),
            QStringLiteral("console"), QStringLiteral("ub-map"), QStringLiteral("sync"),
            QStringLiteral("pingpong"), QStringLiteral("graph"), QStringLiteral("profile")};
}

QStringList MainWindow::platforms()
{
    QStringList out;
    for (const std::string &p : asc2::availablePlatforms())
        out << QString::fromStdString(p);
    if (out.isEmpty())
        out << QStringLiteral("Ascend910B1");
    return out;
}

QString MainWindow::samplesDirectory()
{
    const QString fromEnv = qEnvironmentVariable("ASC2_SAMPLES_DIR");
    if (!fromEnv.isEmpty())
        return fromEnv;
    // A build tree (build/bin) or an install (bin, share/asc2/samples).
    for (const QString &relative : {QStringLiteral("/../../samples"), QStringLiteral("/../share/asc2/samples")}) {
        const QString dir = QDir::cleanPath(QCoreApplication::applicationDirPath() + relative);
        if (QFileInfo::exists(dir + QStringLiteral("/vadd.py")))
            return dir;
    }
#ifdef ASC2_SAMPLES_DIR
    return QStringLiteral(ASC2_SAMPLES_DIR);
#else
    return {};
#endif
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
    createActions();
    createDocks();

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
    m_elapsedTimer.setInterval(100);
    connect(&m_elapsedTimer, &QTimer::timeout, this, &MainWindow::updateElapsed);

    connect(m_editor, &QsciScintilla::modificationChanged, this, &QWidget::setWindowModified);
    connect(m_runner, &JobRunner::runStarted, this, &MainWindow::onRunStarted);
    connect(m_runner, &JobRunner::outputReceived, this, &MainWindow::onOutput);
    connect(m_runner, &JobRunner::reportsChanged, this, &MainWindow::onReportsChanged);
    connect(m_runner, &JobRunner::runFinished, this, &MainWindow::onRunFinished);
    connect(m_passesPanel, &PassesPanel::currentReportChanged, this, &MainWindow::onCurrentReportChanged);
    connect(m_runner->host(), &PythonHost::interpreterFailed, this, [this](const QString &message) {
        m_console->appendLine(message, ConsoleView::Channel::Error);
    });

    // IR line -> its Python line; Python line -> its IR lines.
    connect(m_passesPanel, &PassesPanel::sourceLineActivated, this, [this](int line) {
        m_editor->setLinkedLine(line);
        m_editor->goToLine(line);
    });
    connect(m_editor, &KernelEditor::cursorLineChanged, this, [this](int line) {
        m_passesPanel->highlightSourceLine(line);
        if (line != m_editor->linkedLine())
            m_editor->setLinkedLine(0);
    });
    connect(m_console, &ConsoleView::locationActivated, this, &MainWindow::onConsoleLocation);

    setFilePath(QString());
    resize(1400, 900);
    if (m_persistLayout) {
        QSettings settings;
        restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray());
        restoreState(settings.value(QStringLiteral("mainWindow/state")).toByteArray());
        setTheme(Theme::kindFromName(settings.value(QStringLiteral("theme")).toString()));
        m_autosave = std::make_unique<Autosave>();
        m_autosaveTimer.setInterval(5000);
        connect(&m_autosaveTimer, &QTimer::timeout, this, &MainWindow::autosaveTick);
        m_autosaveTimer.start();
    } else {
        setTheme(Theme::Kind::Light);
    }
    rebuildRecentMenu();
    rebuildSamplesMenu();
    updateRunActions();
}

MainWindow::~MainWindow() = default;

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
    QAction *openAction = addAction(QStringLiteral("open"), tr("&Open..."), QKeySequence::Open);
    openAction->setIcon(s->standardIcon(QStyle::SP_DialogOpenButton));
    connect(openAction, &QAction::triggered, this, &MainWindow::open);

    QAction *saveAction = addAction(QStringLiteral("save"), tr("&Save"), QKeySequence::Save);
    saveAction->setIcon(s->standardIcon(QStyle::SP_DialogSaveButton));
    connect(saveAction, &QAction::triggered, this, &MainWindow::save);

    QAction *saveAsAction = addAction(QStringLiteral("saveAs"), tr("Save &As..."), QKeySequence(QStringLiteral("Ctrl+Shift+S")));
    connect(saveAsAction, &QAction::triggered, this, &MainWindow::saveAs);

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

    m_stopAction = addAction(QStringLiteral("stop"), tr("S&top"), QKeySequence(Qt::SHIFT | Qt::Key_F5),
                             tr("Stop the running script and its simulation"));
    m_stopAction->setIcon(s->standardIcon(QStyle::SP_MediaStop));
    connect(m_stopAction, &QAction::triggered, this, &MainWindow::stopScript);

    QAction *firstChange = addAction(QStringLiteral("firstChange"), tr("&First Pass Changing This Line"),
                                     QKeySequence(QStringLiteral("Ctrl+Shift+L")),
                                     tr("Select the first pass that changed the IR of the selected line"));
    connect(firstChange, &QAction::triggered, this, &MainWindow::firstPassChangingLine);

    m_darkThemeAction = addAction(QStringLiteral("darkTheme"), tr("&Dark Theme"), QKeySequence(QStringLiteral("Ctrl+Shift+T")));
    m_darkThemeAction->setCheckable(true);
    connect(m_darkThemeAction, &QAction::toggled, this,
            [this](bool dark) { setTheme(dark ? Theme::Kind::Dark : Theme::Kind::Light); });

    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(openAction);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_samplesMenu = file->addMenu(tr("S&amples"));
    file->addAction(saveAction);
    file->addAction(saveAsAction);
    file->addSeparator();
    file->addAction(quitAction);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(goToLineAction);

    QMenu *run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_runAction);
    run->addAction(m_compileAction);
    run->addAction(m_stopAction);
    run->addSeparator();
    run->addAction(firstChange);

    QToolBar *toolBar = addToolBar(tr("Main"));
    toolBar->setObjectName(QStringLiteral("mainToolBar"));
    toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolBar->addAction(openAction);
    toolBar->addAction(saveAction);
    toolBar->addSeparator();
    toolBar->addAction(m_runAction);
    toolBar->addAction(m_compileAction);
    toolBar->addAction(m_stopAction);
    toolBar->addSeparator();
    createToolBarControls(toolBar);
}

void MainWindow::createToolBarControls(QToolBar *toolBar)
{
    const auto labelled = [&](const QString &text, QComboBox *box, const QString &toolTip) {
        auto *label = new QLabel(text, toolBar);
        label->setBuddy(box);
        label->setContentsMargins(6, 0, 2, 0);
        box->setToolTip(toolTip);
        toolBar->addWidget(label);
        toolBar->addWidget(box);
    };

    m_platformBox = new QComboBox(toolBar);
    m_platformBox->setObjectName(QStringLiteral("platform"));
    m_platformBox->addItems(platforms());
    const QString envPlatform = qEnvironmentVariable("ASC2_PLATFORM");
    m_platformBox->setCurrentText(envPlatform.isEmpty() ? QStringLiteral("Ascend910B1") : envPlatform);
    labelled(tr("&Target:"), m_platformBox, tr("Platform the kernels are compiled and simulated for (ASC2_PLATFORM)"));

    m_backendBox = new QComboBox(toolBar);
    m_backendBox->setObjectName(QStringLiteral("backend"));
    m_backendBox->addItem(QStringLiteral("Model"));
    m_backendBox->addItem(QStringLiteral("NPU"));
    // The NPU backend needs the CANN toolkit and a device; say why it is off.
    if (auto *model = qobject_cast<QStandardItemModel *>(m_backendBox->model())) {
        QStandardItem *npu = model->item(1);
        npu->setEnabled(false);
        npu->setToolTip(tr("no CANN toolkit"));
        npu->setData(tr("no CANN toolkit"), Qt::ToolTipRole);
    }
    labelled(tr("&Backend:"), m_backendBox, tr("Where kernels run: Model is the simulator (ASC2_BACKEND)"));

    m_insertSyncBox = new QComboBox(toolBar);
    m_insertSyncBox->setObjectName(QStringLiteral("insertSync"));
    m_insertSyncBox->addItem(tr("as in kernel"), QString());
    m_insertSyncBox->addItem(tr("on"), QStringLiteral("1"));
    m_insertSyncBox->addItem(tr("off"), QStringLiteral("0"));
    labelled(tr("insert_&sync:"), m_insertSyncBox,
             tr("Override the asc2.jit insert_sync option of every kernel (ASC2_JIT_INSERT_SYNC)"));

    m_reuseAllocBox = new QComboBox(toolBar);
    m_reuseAllocBox->setObjectName(QStringLiteral("reuseAlloc"));
    m_reuseAllocBox->addItem(tr("as in kernel"), QString());
    for (const char *level : {"0", "1", "2"})
        m_reuseAllocBox->addItem(QString::fromLatin1(level), QString::fromLatin1(level));
    labelled(tr("reuse_&alloc:"), m_reuseAllocBox,
             tr("Override the asc2.jit reuse_alloc option of every kernel (ASC2_JIT_REUSE_ALLOC)"));

    for (QComboBox *box : {m_platformBox, m_backendBox, m_insertSyncBox, m_reuseAllocBox})
        connect(box, &QComboBox::currentIndexChanged, this, &MainWindow::onRunSettingChanged);
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
    view->addAction(m_darkThemeAction);
    createInspectors();
    for (QDockWidget *dock : std::as_const(m_inspectorDocks))
        docks->addAction(dock->toggleViewAction());
}

void MainWindow::createInspectors()
{
    m_inspectorState = new InspectorState(this);
    m_ubMapPanel = new UbMapPanel(this);
    m_ubMap = m_ubMapPanel->view();
    m_syncPanel = new SyncTimelinePanel(this);
    m_pingPongPanel = new PingPongPanel(this);
    m_graphView = new GraphView(this);
    m_profileView = new ProfileView(this);
    m_ubMap->setState(m_inspectorState);
    m_syncPanel->view()->setState(m_inspectorState);
    m_pingPongPanel->view()->setState(m_inspectorState);
    m_graphView->setState(m_inspectorState);

    const struct {
        View view;
        QString title, name;
        QWidget *widget;
        const char *key;
    } inspectors[] = {
        {View::UbMap, tr("UB Map"), QStringLiteral("ubMapDock"), m_ubMapPanel, "Alt+6"},
        {View::Sync, tr("Sync Timeline"), QStringLiteral("syncDock"), m_syncPanel, "Alt+7"},
        {View::PingPong, tr("Ping-pong"), QStringLiteral("pingPongDock"), m_pingPongPanel, "Alt+8"},
        {View::Graph, tr("Graph"), QStringLiteral("graphDock"), m_graphView, "Alt+9"},
        {View::Profile, tr("Profile"), QStringLiteral("profileDock"), m_profileView, "Alt+0"},
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
    }
    m_passesDock->raise();
    menu->addSeparator();
    menu->addMenu(exportMenu);
    QAction *html = menu->addAction(tr("Export &HTML Report..."));
    connect(html, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export HTML Report"), QString(), tr("HTML (*.html)"));
        QString error;
        if (!path.isEmpty() && !exportHtmlReport(path, &error))
            QMessageBox::warning(this, tr("Export HTML Report"), error);
    });
    QAction *trace = menu->addAction(tr("Export Simulated &Trace (Chrome JSON)..."));
    connect(trace, &QAction::triggered, this, [this] {
        if (!m_inspectedReport) {
            statusBar()->showMessage(tr("Nothing ran yet"), 4000);
            return;
        }
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Trace"), QStringLiteral("trace.json"),
                                                          tr("Chrome trace (*.json)"));
        QString error;
        if (!path.isEmpty()
            && !inspector::writeChromeTrace(*m_inspectedReport, int(m_inspectedReport->launches.size()) - 1, path, &error))
            QMessageBox::warning(this, tr("Export Trace"), error);
    });
    QAction *import = menu->addAction(tr("&Import msprof Data..."));
    connect(import, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getExistingDirectory(this, tr("Import msprof Output Directory"));
        QString message;
        if (!path.isEmpty() && !m_profileView->importPath(path, &message))
            QMessageBox::warning(this, tr("Import msprof Data"), message);
        showView(View::Profile);
    });

    // One selection: a point, line, buffer or pipe chosen anywhere moves the rest.
    connect(m_inspectorState, &InspectorState::sourceLineChanged, this, [this](int line) {
        if (line <= 0 || line == m_editor->cursorLine())
            return;
        m_editor->setLinkedLine(line);
        m_editor->goToLine(line);
        m_passesPanel->highlightSourceLine(line);
    });
    connect(m_editor, &KernelEditor::cursorLineChanged, m_inspectorState, &InspectorState::selectSourceLine);
    connect(m_passesPanel, &PassesPanel::sourceLineActivated, m_inspectorState, &InspectorState::selectSourceLine);
    connect(m_profileView, &ProfileView::sourceLineActivated, m_inspectorState, &InspectorState::selectSourceLine);
    connect(m_passesPanel, &PassesPanel::passShown, this, [this](const asc2::PassRecord *pass) {
        if (pass && !pass->ir.empty())
            m_graphView->setIr(QString::fromStdString(pass->ir), QVector<int>(pass->irLines.begin(), pass->irLines.end()),
                               QVector<asc2::Pipe>(pass->irPipes.begin(), pass->irPipes.end()));
    });
    connect(m_profileView, &ProfileView::lineCostsChanged, m_editor, &KernelEditor::setLineCosts);
    // An msprof import is laid over the UB map's program points.
    connect(m_profileView, &ProfileView::runImported, m_ubMapPanel, &UbMapPanel::setOverlay);
    connect(m_profileView, &ProfileView::traceSelected, this, [this](const inspector::SimTrace &trace) {
        // Imported traces overlay the simulated views.
        m_syncPanel->setTrace(trace);
        m_pingPongPanel->setTrace(trace);
    });
}

void MainWindow::showInspectorReport(const ReportPtr &report)
{
    const bool sameReport = report == m_inspectedReport;
    const size_t launches = report ? report->launches.size() : 0;
    if (sameReport && launches == m_inspectedLaunches)
        return;
    m_inspectedReport = report;
    m_inspectedLaunches = launches;
    m_ubMapPanel->setReport(report);
    m_syncPanel->setReport(report);
    if (!report || report->launches.empty()) {
        m_syncPanel->setTrace(inspector::SimTrace());
        m_pingPongPanel->setTrace(inspector::SimTrace());
        return;
    }
    const int last = int(report->launches.size()) - 1;
    inspector::ProfileRun run = inspector::profileFromLaunch(*report, last);
    m_syncPanel->setTrace(run.trace);
    m_pingPongPanel->setTrace(run.trace);
    if (!run.trace.isEmpty() && m_syncPanel->modeBox()->currentIndex() == 0)
        m_syncPanel->modeBox()->setCurrentIndex(1);
    m_profileView->setRun(run);
}

bool MainWindow::exportView(View view, const QString &path, QString *error)
{
    switch (view) {
    case View::UbMap: return m_ubMap->exportTo(path, error);
    case View::Sync: return m_syncPanel->view()->exportTo(path, error);
    case View::PingPong: return m_pingPongPanel->view()->exportTo(path, error);
    case View::Graph: return m_graphView->exportTo(path, error);
    case View::Profile: return m_profileView->chart()->exportTo(path, error);
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
    if (!m_inspectedReport) {
        if (error)
            *error = tr("Nothing compiled yet");
        return false;
    }
    const QVector<inspector::ReportImage> images = inspector::renderReportImages(
        {m_ubMap, m_syncPanel->view(), m_pingPongPanel->view(), m_profileView->chart()});
    const int a = m_profileView->runA();
    const inspector::ProfileRun *profile = a >= 0 && a < m_profileView->runs().size() ? &m_profileView->runs()[a] : nullptr;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    file.write(inspector::htmlReport(*m_inspectedReport, images, profile).toUtf8());
    if (!file.commit()) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void MainWindow::showView(View view)
{
    const int w = width();
    const int h = height();
    switch (view) {
    case View::Editor:
        resizeDocks({m_passesDock}, {w * 2 / 5}, Qt::Horizontal);
        resizeDocks({m_consoleDock}, {h / 5}, Qt::Vertical);
        m_editor->setFocus();
        break;
    case View::Passes:
    case View::Diff:
        m_passesDock->show();
        m_passesDock->raise();
        resizeDocks({m_passesDock}, {w * 3 / 5}, Qt::Horizontal);
        m_passesPanel->setPage(view == View::Diff ? PassesPanel::Page::Diff : PassesPanel::Page::Ir);
        m_passesPanel->setFocus();
        break;
    case View::AscendC:
        m_ascendcDock->show();
        m_ascendcDock->raise();
        resizeDocks({m_ascendcDock}, {w * 3 / 5}, Qt::Horizontal);
        m_ascendcView->setFocus();
        break;
    case View::Console:
        m_consoleDock->show();
        m_consoleDock->raise();
        resizeDocks({m_consoleDock}, {h * 3 / 5}, Qt::Vertical);
        m_console->setFocus();
        break;
    case View::UbMap:
    case View::Sync:
    case View::PingPong:
    case View::Graph:
    case View::Profile: {
        QDockWidget *dock = m_inspectorDocks.value(view);
        dock->show();
        dock->raise();
        resizeDocks({dock}, {w * 7 / 10}, Qt::Horizontal);
        dock->widget()->setFocus();
        break;
    }
    }
}

void MainWindow::setTheme(Theme::Kind kind)
{
    m_theme = Theme::of(kind);
    QApplication::setPalette(m_theme.palette);
    m_editor->setTheme(m_theme);
    m_passesPanel->setTheme(m_theme);
    m_ascendcView->setTheme(m_theme);
    m_console->setTheme(m_theme);
    if (m_ubMap) {
        m_ubMap->setTheme(m_theme);
        m_syncPanel->view()->setTheme(m_theme);
        m_pingPongPanel->view()->setTheme(m_theme);
        m_graphView->setTheme(m_theme);
        m_profileView->setTheme(m_theme);
    }
    {
        const QSignalBlocker blocker(m_darkThemeAction);
        m_darkThemeAction->setChecked(kind == Theme::Kind::Dark);
    }
    if (m_persistLayout)
        QSettings().setValue(QStringLiteral("theme"), Theme::name(kind));
}

QString MainWindow::statusText() const
{
    return m_runStatus->text();
}

bool MainWindow::isBusy() const
{
    return m_busy->isVisible() || m_runner->isRunning();
}

bool MainWindow::openFile(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        if (error)
            *error = tr("Cannot open %1: %2").arg(path, file.errorString());
        return false;
    }
    m_editor->setText(QString::fromUtf8(file.readAll()));
    m_editor->setModified(false);
    setFilePath(QFileInfo(path).absoluteFilePath());
    m_passesPanel->clear();
    m_ascendcView->setSource(QString());
    showInspectorReport(nullptr);
    m_inspectorState->clear();
    m_lastRunMode.reset();
    m_lastAutosavedText.clear();
    addRecentFile(m_filePath);
    return true;
}

void MainWindow::open()
{
    if (!maybeSave())
        return;
    const QString dir = m_filePath.isEmpty() ? samplesDirectory() : QFileInfo(m_filePath).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Kernel"), dir,
                                                      tr("Python files (*.py);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!openFile(path, &error))
        QMessageBox::warning(this, tr("Open Kernel"), error);
}

bool MainWindow::save()
{
    return m_filePath.isEmpty() ? saveAs() : saveTo(m_filePath);
}

bool MainWindow::saveAs()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Kernel"), m_filePath,
                                                      tr("Python files (*.py);;All files (*)"));
    return !path.isEmpty() && saveTo(path);
}

bool MainWindow::saveTo(const QString &path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
        QMessageBox::warning(this, tr("Save Kernel"), tr("Cannot write %1: %2").arg(path, file.errorString()));
        return false;
    }
    file.write(m_editor->text().toUtf8());
    if (!file.commit()) {
        QMessageBox::warning(this, tr("Save Kernel"), tr("Cannot write %1: %2").arg(path, file.errorString()));
        return false;
    }
    if (m_autosave)
        m_autosave->discard(m_filePath);
    m_editor->setModified(false);
    setFilePath(QFileInfo(path).absoluteFilePath());
    addRecentFile(m_filePath);
    statusBar()->showMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), 3000);
    return true;
}

bool MainWindow::maybeSave()
{
    if (!m_editor->isModified())
        return true;
    const auto answer = QMessageBox::question(
        this, tr("Unsaved Changes"), tr("The kernel has unsaved changes. Save them?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    if (answer == QMessageBox::Discard && m_autosave)
        m_autosave->discard(m_filePath);
    return answer == QMessageBox::Discard;
}

void MainWindow::setFilePath(const QString &path)
{
    m_filePath = path;
    const QString name = path.isEmpty() ? tr("untitled.py") : QFileInfo(path).fileName();
    setWindowTitle(tr("%1[*] \u2014 asc2 Workbench").arg(name));
    setWindowModified(m_editor->isModified());
}

// --- recent files, samples, go to line

QStringList MainWindow::recentFiles() const
{
    return QSettings().value(QStringLiteral("recentFiles")).toStringList();
}

void MainWindow::addRecentFile(const QString &path)
{
    if (!m_persistLayout || path.isEmpty())
        return;
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    QSettings().setValue(QStringLiteral("recentFiles"), files);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = m_persistLayout ? recentFiles() : QStringList();
    for (int i = 0; i < files.size(); ++i) {
        const QString path = files[i];
        QAction *a = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg((i + 1) % 10).arg(QFileInfo(path).fileName()));
        a->setToolTip(path);
        a->setStatusTip(path);
        if (i == 0)
            a->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+O")));
        connect(a, &QAction::triggered, this, [this, path] {
            if (!maybeSave())
                return;
            QString error;
            if (!openFile(path, &error))
                QMessageBox::warning(this, tr("Open Recent"), error);
        });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::rebuildSamplesMenu()
{
    m_samplesMenu->clear();
    const QString dir = samplesDirectory();
    const QStringList samples = dir.isEmpty() ? QStringList()
                                              : QDir(dir).entryList({QStringLiteral("*.py")}, QDir::Files, QDir::Name);
    for (const QString &name : samples) {
        const QString path = QDir(dir).filePath(name);
        const QString summary = sampleSummary(path);
        QAction *a = m_samplesMenu->addAction(summary.isEmpty() ? name : QStringLiteral("%1 \u2014 %2").arg(name, summary));
        a->setData(path);
        connect(a, &QAction::triggered, this, [this, path] {
            if (!maybeSave())
                return;
            QString error;
            if (!openFile(path, &error))
                QMessageBox::warning(this, tr("Open Sample"), error);
        });
    }
    m_samplesMenu->setEnabled(!samples.isEmpty());
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

void MainWindow::firstPassChangingLine()
{
    showView(View::Passes);
    // From the IR view: its selected line; from anywhere else: the editor's.
    const int row = m_passesPanel->irView()->hasFocus() && m_passesPanel->sourceLineAtIrCursor() > 0
                        ? m_passesPanel->selectFirstPassChangingLine()
                        : m_passesPanel->selectFirstPassChangingSourceLine(m_editor->cursorLine());
    if (row < 0)
        statusBar()->showMessage(tr("No pass changed the IR of this line"), 4000);
}

void MainWindow::onConsoleLocation(const QString &file, int line, int column)
{
    const bool inEditor = sameFile(file, m_filePath)
                          || (m_filePath.isEmpty() && QFileInfo(file).fileName() == QStringLiteral("untitled.py"));
    if (!inEditor) {
        statusBar()->showMessage(tr("%1 is not the file in the editor").arg(file), 4000);
        return;
    }
    m_editor->goToLine(line, column);
    m_editor->setFocus();
}

// --- runs

void MainWindow::setRunEnvironment(const QMap<QString, QString> &environment)
{
    m_environment = environment;
    RunSettings settings = runSettings();
    if (environment.contains(QStringLiteral("ASC2_PLATFORM")))
        settings.platform = environment.value(QStringLiteral("ASC2_PLATFORM"));
    if (environment.contains(QStringLiteral("ASC2_BACKEND")))
        settings.backend = environment.value(QStringLiteral("ASC2_BACKEND"));
    const QSignalBlocker b1(m_platformBox);
    const QSignalBlocker b2(m_backendBox);
    setRunSettings(settings);
}

RunSettings MainWindow::runSettings() const
{
    RunSettings s;
    s.platform = m_platformBox->currentText();
    s.backend = m_backendBox->currentText();
    s.insertSync = m_insertSyncBox->currentData().toString();
    s.reuseAlloc = m_reuseAllocBox->currentData().toString();
    return s;
}

void MainWindow::setRunSettings(const RunSettings &s)
{
    if (m_platformBox->findText(s.platform) < 0 && !s.platform.isEmpty())
        m_platformBox->addItem(s.platform);
    m_platformBox->setCurrentText(s.platform);
    if (m_backendBox->findText(s.backend, Qt::MatchFixedString) >= 0)
        m_backendBox->setCurrentIndex(m_backendBox->findText(s.backend, Qt::MatchFixedString));
    m_insertSyncBox->setCurrentIndex(qMax(0, m_insertSyncBox->findData(s.insertSync)));
    m_reuseAllocBox->setCurrentIndex(qMax(0, m_reuseAllocBox->findData(s.reuseAlloc)));
}

QMap<QString, QString> MainWindow::runEnvironment(RunMode mode) const
{
    QMap<QString, QString> env = m_environment;
    const RunSettings s = runSettings();
    env.insert(QStringLiteral("ASC2_PLATFORM"), s.platform);
    env.insert(QStringLiteral("ASC2_BACKEND"), s.backend);
    // The interpreter lives on between runs: every variable is set each time,
    // an empty value removes it (the kernel's own option applies).
    env.insert(QStringLiteral("ASC2_JIT_INSERT_SYNC"), s.insertSync);
    env.insert(QStringLiteral("ASC2_JIT_REUSE_ALLOC"), s.reuseAlloc);
    env.insert(QStringLiteral("ASC2_COMPILE_ONLY"), mode == RunMode::CompileOnly ? QStringLiteral("1") : QString());
    return env;
}

void MainWindow::onRunSettingChanged()
{
    // New settings show their effect at once: the last run again, with them.
    if (m_lastRunMode)
        runScript(*m_lastRunMode);
}

int MainWindow::runScript(RunMode mode)
{
    ScriptJob job;
    job.source = m_editor->text();
    job.filePath = m_filePath.isEmpty() ? QDir::current().absoluteFilePath(QStringLiteral("untitled.py"))
                                        : m_filePath;
    job.arguments = m_arguments;
    job.environment = runEnvironment(mode);
    m_lastRunMode = mode;
    return m_runner->run(job);
}

void MainWindow::stopScript()
{
    if (!m_runner->isRunning())
        return;
    m_runner->stop();
    m_runStatus->setText(tr("Stopping..."));
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

void MainWindow::onRunStarted(int generation, const QString &filePath)
{
    Q_UNUSED(generation);
    m_editor->clearDiagnostics();
    const bool compileOnly = m_lastRunMode == RunMode::CompileOnly;
    const QString name = QFileInfo(filePath).fileName();
    m_console->appendLine(compileOnly ? tr("\u25B6 Compiling %1 (compile only)").arg(name)
                                      : tr("\u25B6 Running %1").arg(name));
    m_runStatus->setText(compileOnly ? tr("Compiling %1...").arg(name) : tr("Running %1...").arg(name));
    updateRunActions();
}

void MainWindow::onOutput(const QString &text, PythonHost::Stream stream)
{
    m_console->appendText(text, stream == PythonHost::Stream::Stderr ? ConsoleView::Channel::Error
                                                                     : ConsoleView::Channel::Output);
}

void MainWindow::onReportsChanged(int index, asc2::ReportEvent event)
{
    Q_UNUSED(event);
    m_passesPanel->setReports(m_runner->reports().kernels(), index);
    if (m_passesPanel->selectedPass() < 0)
        m_passesPanel->selectLastPassWithIr();
    // The Passes panel only re-announces a kernel it switched to; a newer
    // report of the same kernel (now with its launch) still updates the rest.
    onCurrentReportChanged(m_passesPanel->currentReport());
}

void MainWindow::onCurrentReportChanged(const ReportPtr &report)
{
    showInspectorReport(report);
    m_ascendcView->setSource(report ? QString::fromStdString(report->ascendc) : QString());
    if (report) {
        const QVector<EditorDiagnostic> diagnostics = diagnosticsForFile(*report, m_filePath);
        if (!diagnostics.isEmpty())
            m_editor->setDiagnostics(diagnostics);
    }
}

void MainWindow::onRunFinished(const RunSummary &summary)
{
    updateRunActions();
    const ScriptResult &script = summary.script;
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
        && sameFile(script.errorFile, summary.filePath)) {
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
    m_runStatus->setText(summary.headline());
}

// --- autosave

void MainWindow::setAutosaveInterval(int ms)
{
    m_autosaveTimer.setInterval(ms);
}

void MainWindow::autosaveTick()
{
    if (!m_autosave)
        return;
    if (!m_editor->isModified()) {
        if (!m_lastAutosavedText.isEmpty()) {
            m_autosave->discard(m_filePath);
            m_lastAutosavedText.clear();
        }
        return;
    }
    const QString text = m_editor->text();
    if (text == m_lastAutosavedText)
        return;
    if (m_autosave->store(m_filePath, text))
        m_lastAutosavedText = text;
}

bool MainWindow::restoreAutosave()
{
    if (!m_autosave)
        return false;
    std::optional<Autosave::Entry> entry = m_autosave->find(m_filePath);
    if (!entry && m_filePath.isEmpty()) {
        const QVector<Autosave::Entry> all = m_autosave->entries();
        if (!all.isEmpty())
            entry = all.first();
    }
    if (!entry)
        return false;
    if (!entry->documentPath.isEmpty() && entry->documentPath != m_filePath) {
        if (!openFile(entry->documentPath))
            setFilePath(entry->documentPath); // gone from disk: Save writes it again
    }
    if (entry->text == m_editor->text()) {
        m_autosave->discard(m_filePath);
        return false;
    }
    m_editor->setText(entry->text);
    m_editor->setModified(true);
    m_lastAutosavedText = entry->text;
    statusBar()->showMessage(tr("Restored unsaved changes from %1").arg(entry->savedAt.toString(Qt::ISODate)), 8000);
    m_console->appendLine(tr("Restored the unsaved changes of %1 (autosaved %2).")
                              .arg(m_filePath.isEmpty() ? tr("untitled.py") : QFileInfo(m_filePath).fileName(),
                                   entry->savedAt.toString(Qt::ISODate)));
    return true;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_persistLayout && !maybeSave()) {
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
