#include "DocumentController.h"

#include "KernelEditor.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QSettings>

namespace {
constexpr int kMaxRecentFiles = 10;
} // namespace

QString DocumentController::sampleDescription(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    const QString head = QString::fromUtf8(file.read(4096));
    const int quote = int(head.indexOf(QStringLiteral("\"\"\"")));
    if (quote < 0)
        return {};
    // The docstring's first paragraph, its lines joined (a sentence often
    // runs on to the next line).
    QStringList lines;
    for (const QString &line : head.mid(quote + 3).split(QLatin1Char('\n'))) {
        const int end = int(line.indexOf(QStringLiteral("\"\"\"")));
        const QString text = (end >= 0 ? line.left(end) : line).trimmed();
        if (text.isEmpty())
            break;
        lines << text;
        if (end >= 0)
            break;
    }
    return lines.join(QLatin1Char(' '));
}

QString DocumentController::sampleSummary(const QString &path, int maxLength)
{
    const QString description = sampleDescription(path);
    if (description.size() <= maxLength)
        return description;
    // Cut at a word, and say so.
    const int space = int(description.lastIndexOf(QLatin1Char(' '), maxLength - 1));
    return description.left(space > 0 ? space : maxLength - 1) + QStringLiteral("\u2026");
}

bool DocumentController::sameFile(const QString &a, const QString &b)
{
    if (a.isEmpty() || b.isEmpty())
        return false;
    if (a == b)
        return true;
    const QString ca = QFileInfo(a).canonicalFilePath();
    return !ca.isEmpty() && ca == QFileInfo(b).canonicalFilePath();
}

QString DocumentController::samplesDirectory()
{
    const QString fromEnv = qEnvironmentVariable("ASC2_SAMPLES_DIR");
    if (!fromEnv.isEmpty())
        return fromEnv;
    // A build tree (build/bin) or an install (lib/asc2/bin, share/asc2/samples).
    for (const QString &relative : {QStringLiteral("/../../samples"), QStringLiteral("/../../../share/asc2/samples")}) {
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

DocumentController::DocumentController(KernelEditor *editor, bool persist, QWidget *window)
    : QObject(window)
    , m_editor(editor)
    , m_persist(persist)
    , m_window(window)
{
    if (m_persist) {
        m_autosave = std::make_unique<Autosave>();
        m_autosaveTimer.setInterval(5000);
        connect(&m_autosaveTimer, &QTimer::timeout, this, &DocumentController::autosaveTick);
        m_autosaveTimer.start();
    }
}

DocumentController::~DocumentController() = default;

void DocumentController::setMenus(QMenu *recent, QMenu *samples)
{
    m_recentMenu = recent;
    m_samplesMenu = samples;
    rebuildRecentMenu();
    rebuildSamplesMenu();
}

bool DocumentController::isInEditor(const QString &path) const
{
    return sameFile(path, m_filePath)
           || (m_filePath.isEmpty() && QFileInfo(path).fileName() == QStringLiteral("untitled.py"));
}

bool DocumentController::openFile(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        if (error)
            *error = tr("Cannot open %1: %2").arg(path, file.errorString());
        return false;
    }
    replaceBuffer(QString::fromUtf8(file.readAll()), QFileInfo(path).absoluteFilePath());
    addRecentFile(m_filePath);
    return true;
}

QString DocumentController::newKernelText()
{
    QFile file(QStringLiteral(":/asc2/new_kernel.py"));
    return file.open(QIODevice::ReadOnly | QIODevice::Text) ? QString::fromUtf8(file.readAll()) : QString();
}

bool DocumentController::newFile()
{
    if (!maybeSave())
        return false;
    replaceBuffer(newKernelText(), QString());
    return true;
}

void DocumentController::open()
{
    if (!maybeSave())
        return;
    const QString dir = m_filePath.isEmpty() ? samplesDirectory() : QFileInfo(m_filePath).absolutePath();
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open Kernel"), dir,
                                                      tr("Python files (*.py);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!openFile(path, &error))
        QMessageBox::warning(m_window, tr("Open Kernel"), error);
}

bool DocumentController::save()
{
    return m_filePath.isEmpty() ? saveAs() : saveTo(m_filePath);
}

bool DocumentController::saveAs()
{
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Save Kernel"), m_filePath,
                                                      tr("Python files (*.py);;All files (*)"));
    return !path.isEmpty() && saveTo(path);
}

bool DocumentController::saveTo(const QString &path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
        QMessageBox::warning(m_window, tr("Save Kernel"), tr("Cannot write %1: %2").arg(path, file.errorString()));
        return false;
    }
    file.write(m_editor->text().toUtf8());
    if (!file.commit()) {
        QMessageBox::warning(m_window, tr("Save Kernel"), tr("Cannot write %1: %2").arg(path, file.errorString()));
        return false;
    }
    if (m_autosave)
        m_autosave->discard(m_filePath);
    m_editor->setModified(false);
    setFilePath(QFileInfo(path).absoluteFilePath());
    addRecentFile(m_filePath);
    emit statusMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), 3000);
    return true;
}

bool DocumentController::maybeSave()
{
    if (!m_editor->isModified())
        return true;
    const auto answer = QMessageBox::question(
        m_window, tr("Unsaved Changes"), tr("The kernel has unsaved changes. Save them?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    if (answer == QMessageBox::Discard && m_autosave)
        m_autosave->discard(m_filePath);
    return answer == QMessageBox::Discard;
}

void DocumentController::replaceBuffer(const QString &text, const QString &path)
{
    m_editor->setText(text);
    m_editor->setModified(false);
    setFilePath(path);
    emit opened(m_filePath);
    m_lastAutosavedText.clear();
}

void DocumentController::setFilePath(const QString &path)
{
    m_filePath = path;
    emit filePathChanged(m_filePath);
}

// --- recent files and samples

QStringList DocumentController::recentFiles() const
{
    return QSettings().value(QStringLiteral("recentFiles")).toStringList();
}

void DocumentController::addRecentFile(const QString &path)
{
    if (!m_persist || path.isEmpty())
        return;
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    QSettings().setValue(QStringLiteral("recentFiles"), files);
    rebuildRecentMenu();
}

void DocumentController::openFromMenu(const QString &path, const QString &title)
{
    if (!maybeSave())
        return;
    QString error;
    if (!openFile(path, &error))
        QMessageBox::warning(m_window, title, error);
}

void DocumentController::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList files = m_persist ? recentFiles() : QStringList();
    for (int i = 0; i < files.size(); ++i) {
        const QString path = files[i];
        QAction *a = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg((i + 1) % 10).arg(QFileInfo(path).fileName()));
        a->setToolTip(path);
        a->setStatusTip(path);
        if (i == 0)
            a->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+O")));
        connect(a, &QAction::triggered, this, [this, path] { openFromMenu(path, tr("Open Recent")); });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

void DocumentController::rebuildSamplesMenu()
{
    if (!m_samplesMenu)
        return;
    m_samplesMenu->clear();
    const QString dir = samplesDirectory();
    const QStringList samples = dir.isEmpty() ? QStringList()
                                              : QDir(dir).entryList({QStringLiteral("*.py")}, QDir::Files, QDir::Name);
    for (const QString &name : samples) {
        const QString path = QDir(dir).filePath(name);
        const QString summary = sampleSummary(path);
        QAction *a = m_samplesMenu->addAction(summary.isEmpty() ? name : QStringLiteral("%1 \u2014 %2").arg(name, summary));
        a->setData(path);
        a->setToolTip(sampleDescription(path));
        a->setStatusTip(a->toolTip());
        connect(a, &QAction::triggered, this, [this, path] { openFromMenu(path, tr("Open Sample")); });
    }
    m_samplesMenu->setToolTipsVisible(true);
    m_samplesMenu->setEnabled(!samples.isEmpty());
}

// --- autosave

void DocumentController::setAutosaveInterval(int ms)
{
    m_autosaveTimer.setInterval(ms);
}

void DocumentController::autosaveTick()
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

bool DocumentController::restoreAutosave()
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
    emit statusMessage(tr("Restored unsaved changes from %1").arg(entry->savedAt.toString(Qt::ISODate)), 8000);
    emit notice(tr("Restored the unsaved changes of %1 (autosaved %2).")
                    .arg(m_filePath.isEmpty() ? tr("untitled.py") : QFileInfo(m_filePath).fileName(),
                         entry->savedAt.toString(Qt::ISODate)));
    return true;
}
