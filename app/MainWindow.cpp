#include "MainWindow.h"

#include "AscendCView.h"
#include "ConsoleView.h"
#include "KernelEditor.h"
#include "PassesPanel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSaveFile>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>

namespace {
QVector<EditorDiagnostic> diagnosticsForFile(const asc2::CompileReport &report, const QString &filePath)
{
    QVector<EditorDiagnostic> result;
    const QString canonical = QFileInfo(filePath).canonicalFilePath();
    for (const asc2::DiagnosticRecord &d : report.diagnostics) {
        const QString file = QString::fromStdString(d.loc.file);
        if (d.loc.line <= 0 || (file != filePath && QFileInfo(file).canonicalFilePath() != canonical))
            continue;
        EditorDiagnostic diagnostic;
        diagnostic.line = d.loc.line;
        diagnostic.column = d.loc.col;
        diagnostic.message = QString::fromStdString(d.message);
        diagnostic.severity = d.severity == "error" ? EditorDiagnostic::Severity::Error
                                                   : EditorDiagnostic::Severity::Warning;
        result.push_back(diagnostic);
    }
    return result;
}
} // namespace

std::optional<MainWindow::View> MainWindow::viewFromName(const QString &name)
{
    const QString n = name.toLower();
    if (n == QLatin1String("editor"))
        return View::Editor;
    if (n == QLatin1String("passes") || n == QLatin1String("ir"))
        return View::Passes;
    if (n == QLatin1String("ascendc") || n == QLatin1String("ascend-c"))
        return View::AscendC;
    if (n == QLatin1String("console"))
        return View::Console;
    return std::nullopt;
}

QStringList MainWindow::viewNames()
{
    return {QStringLiteral("editor"), QStringLiteral("passes"), QStringLiteral("ascendc"),
            QStringLiteral("console")};
}

MainWindow::MainWindow(JobRunner *runner, bool persistLayout, QWidget *parent)
    : QMainWindow(parent)
    , m_runner(runner)
    , m_persistLayout(persistLayout)
    , m_editor(new KernelEditor(this))
    , m_passesPanel(new PassesPanel(this))
    , m_ascendcView(new AscendCView(this))
    , m_console(new ConsoleView(this))
    , m_runStatus(new QLabel(this))
{
    setCentralWidget(m_editor);
    createActions();
    createDocks();

    m_runStatus->setText(tr("Ready"));
    statusBar()->addPermanentWidget(m_runStatus);

    connect(m_editor, &QsciScintilla::modificationChanged, this, &QWidget::setWindowModified);
    connect(m_runner, &JobRunner::runStarted, this, &MainWindow::onRunStarted);
    connect(m_runner, &JobRunner::outputReceived, this, &MainWindow::onOutput);
    connect(m_runner, &JobRunner::reportsChanged, this, &MainWindow::onReportsChanged);
    connect(m_runner, &JobRunner::runFinished, this, &MainWindow::onRunFinished);
    connect(m_passesPanel, &PassesPanel::currentReportChanged, this, &MainWindow::onCurrentReportChanged);
    connect(m_runner->host(), &PythonHost::interpreterFailed, this, [this](const QString &message) {
        m_console->appendLine(message, ConsoleView::Channel::Error);
    });

    setFilePath(QString());
    resize(1400, 900);
    if (m_persistLayout) {
        QSettings settings;
        restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray());
        restoreState(settings.value(QStringLiteral("mainWindow/state")).toByteArray());
    }
    updateRunActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    QStyle *s = style();
    m_openAction = new QAction(s->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open..."), this);
    m_openAction->setShortcut(QKeySequence::Open);
    connect(m_openAction, &QAction::triggered, this, &MainWindow::open);

    m_saveAction = new QAction(s->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save"), this);
    m_saveAction->setShortcut(QKeySequence::Save);
    connect(m_saveAction, &QAction::triggered, this, &MainWindow::save);

    m_saveAsAction = new QAction(tr("Save &As..."), this);
    m_saveAsAction->setShortcut(QKeySequence::SaveAs);
    connect(m_saveAsAction, &QAction::triggered, this, &MainWindow::saveAs);

    m_quitAction = new QAction(tr("&Quit"), this);
    m_quitAction->setShortcut(QKeySequence::Quit);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

    m_runAction = new QAction(s->standardIcon(QStyle::SP_MediaPlay), tr("&Run"), this);
    m_runAction->setShortcut(Qt::Key_F5);
    m_runAction->setToolTip(tr("Run the script in the editor (F5)"));
    connect(m_runAction, &QAction::triggered, this, &MainWindow::runScript);

    m_stopAction = new QAction(s->standardIcon(QStyle::SP_MediaStop), tr("S&top"), this);
    m_stopAction->setShortcut(Qt::SHIFT | Qt::Key_F5);
    m_stopAction->setToolTip(tr("Stop the running script (Shift+F5)"));
    connect(m_stopAction, &QAction::triggered, this, &MainWindow::stopScript);

    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_openAction);
    file->addAction(m_saveAction);
    file->addAction(m_saveAsAction);
    file->addSeparator();
    file->addAction(m_quitAction);

    QMenu *run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_runAction);
    run->addAction(m_stopAction);

    QToolBar *toolBar = addToolBar(tr("Main"));
    toolBar->setObjectName(QStringLiteral("mainToolBar"));
    toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolBar->addAction(m_openAction);
    toolBar->addAction(m_saveAction);
    toolBar->addSeparator();
    toolBar->addAction(m_runAction);
    toolBar->addAction(m_stopAction);
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
    view->addAction(m_passesDock->toggleViewAction());
    view->addAction(m_ascendcDock->toggleViewAction());
    view->addAction(m_consoleDock->toggleViewAction());
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
        m_passesDock->show();
        m_passesDock->raise();
        resizeDocks({m_passesDock}, {w * 3 / 5}, Qt::Horizontal);
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
    }
}

QString MainWindow::statusText() const
{
    return m_runStatus->text();
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
    return true;
}

void MainWindow::open()
{
    if (!maybeSave())
        return;
    const QString dir = m_filePath.isEmpty() ? QString() : QFileInfo(m_filePath).absolutePath();
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
    m_editor->setModified(false);
    setFilePath(QFileInfo(path).absoluteFilePath());
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
    return answer == QMessageBox::Discard;
}

void MainWindow::setFilePath(const QString &path)
{
    m_filePath = path;
    const QString name = path.isEmpty() ? tr("untitled.py") : QFileInfo(path).fileName();
    setWindowTitle(tr("%1[*] \u2014 asc2 Workbench").arg(name));
    setWindowModified(m_editor->isModified());
}

int MainWindow::runScript()
{
    ScriptJob job;
    job.source = m_editor->text();
    job.filePath = m_filePath.isEmpty() ? QDir::current().absoluteFilePath(QStringLiteral("untitled.py"))
                                        : m_filePath;
    job.arguments = m_arguments;
    job.environment = m_environment;
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
    m_stopAction->setEnabled(m_runner->isRunning());
    m_runAction->setText(m_runner->isRunning() ? tr("&Restart") : tr("&Run"));
}

void MainWindow::onRunStarted(int generation, const QString &filePath)
{
    Q_UNUSED(generation);
    m_editor->clearDiagnostics();
    m_console->appendLine(tr("\u25B6 Running %1").arg(QFileInfo(filePath).fileName()));
    m_runStatus->setText(tr("Running %1...").arg(QFileInfo(filePath).fileName()));
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
        && QFileInfo(script.errorFile) == QFileInfo(summary.filePath)) {
        EditorDiagnostic diagnostic;
        diagnostic.line = script.errorLine;
        diagnostic.column = script.errorColumn;
        diagnostic.message = script.errorMessage;
        QVector<EditorDiagnostic> diagnostics = m_editor->diagnostics();
        diagnostics.push_back(diagnostic);
        m_editor->setDiagnostics(diagnostics);
        m_editor->ensureLineVisible(script.errorLine - 1);
    }
    m_runStatus->setText(summary.headline());
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
