#include "CompareController.h"

#include "ComparePanel.h"
#include "DocumentController.h"
#include "JobRunner.h"
#include "KernelEditor.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QTemporaryDir>

namespace {
/// The last lines of a failed run's output: where Python says what went wrong.
QString tail(const QByteArray &output, int lines)
{
    QStringList all = QString::fromUtf8(output).trimmed().split(QLatin1Char('\n'));
    if (all.size() > lines)
        all = all.mid(all.size() - lines);
    return all.join(QLatin1Char('\n'));
}
} // namespace

CompareController::CompareController(ComparePanel *panel, JobRunner *runner, DocumentController *document,
                                     KernelEditor *editor, QObject *parent)
    : QObject(parent)
    , m_panel(panel)
    , m_runner(runner)
    , m_document(document)
    , m_editor(editor)
{
    connect(m_panel, &ComparePanel::compareRequested, this, &CompareController::compare);
    connect(m_panel, &ComparePanel::stopRequested, this, &CompareController::stop);
}

CompareController::~CompareController()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(2000);
    }
}

QString CompareController::program() const
{
    return m_program.isEmpty() ? QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("asc2-workbench"))
                               : m_program;
}

void CompareController::updateA()
{
    QVector<compare::KernelSummary> kernels;
    for (const ReportPtr &report : m_runner->reports().kernels())
        if (report)
            kernels.push_back(compare::summaryOf(*report));
    const QString label = kernels.isEmpty() ? QString() : tr("%1, last run here").arg(kernels.first().target);
    m_panel->setA(kernels, label);
}

void CompareController::clear()
{
    stop();
    m_panel->setA({}, QString());
    m_panel->setB({}, QString());
    m_panel->setStatus(tr("Choose B's target or options and press Compare."));
}

bool CompareController::compare()
{
    stop();
    updateA();
    const QString exe = program();
    if (!QFileInfo(exe).isExecutable()) {
        m_panel->setStatus(tr("Cannot compare: %1 is missing (B runs as its own asc2-workbench --headless).").arg(exe), true);
        return false;
    }
    if (m_editor->text().trimmed().isEmpty()) {
        m_panel->setStatus(tr("Nothing to compare: the editor is empty."), true);
        return false;
    }
    // B runs the editor's text as it is (saved or not), from a copy.
    m_dir = std::make_unique<QTemporaryDir>();
    const QString name = m_document->filePath().isEmpty() ? QStringLiteral("untitled.py")
                                                          : QFileInfo(m_document->filePath()).fileName();
    const QString script = m_dir->filePath(name);
    QFile file(script);
    if (!m_dir->isValid() || !file.open(QIODevice::WriteOnly) || file.write(m_editor->text().toUtf8()) < 0) {
        m_panel->setStatus(tr("Cannot compare: cannot write a copy of the script to %1").arg(m_dir->path()), true);
        return false;
    }
    file.close();

    const ComparePanel::Settings s = m_panel->settings();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const auto set = [&env](const QString &key, const QString &value) {
        if (value.isEmpty())
            env.remove(key);
        else
            env.insert(key, value);
    };
    set(QStringLiteral("ASC2_JIT_INSERT_SYNC"), s.insertSync);
    set(QStringLiteral("ASC2_JIT_REUSE_ALLOC"), s.reuseAlloc);
    set(QStringLiteral("ASC2_COMPILE_ONLY"), s.simulate ? QString() : QStringLiteral("1"));
    QStringList arguments{QStringLiteral("--headless"), script, QStringLiteral("--report"), m_dir->filePath(QStringLiteral("report"))};
    if (!s.platform.isEmpty())
        arguments << QStringLiteral("--platform") << s.platform;
    if (!m_arguments.isEmpty())
        arguments << QStringLiteral("--") << m_arguments;

    m_description = s.describe();
    m_output.clear();
    m_stopped = false;
    m_process = new QProcess(this);
    m_process->setProcessEnvironment(env);
    m_process->setWorkingDirectory(m_document->filePath().isEmpty() ? QDir::currentPath()
                                                                    : QFileInfo(m_document->filePath()).absolutePath());
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    connect(m_process, &QProcess::readyRead, this, [this] { m_output += m_process->readAll(); });
    connect(m_process, &QProcess::finished, this, &CompareController::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            m_panel->setRunning(false);
            m_panel->setStatus(tr("B did not start: %1").arg(m_process->errorString()), true);
            emit finished(false);
        }
    });
    m_panel->setRunning(true);
    m_panel->setStatus(tr("B: %1 \u2014 %2...").arg(m_description, s.simulate ? tr("running") : tr("compiling")));
    m_process->start(exe, arguments);
    return true;
}

void CompareController::stop()
{
    if (!isRunning())
        return;
    m_stopped = true;
    m_process->kill();
    m_process->waitForFinished(3000);
}

void CompareController::onFinished(int exitCode, QProcess::ExitStatus status)
{
    m_panel->setRunning(false);
    m_output += m_process->readAll();
    m_process->deleteLater();
    if (m_stopped) {
        m_panel->setStatus(tr("B (%1) stopped.").arg(m_description));
        emit finished(false);
        return;
    }
    QFile report(QDir(m_dir->filePath(QStringLiteral("report"))).filePath(QStringLiteral("report.json")));
    QString error;
    QVector<compare::KernelSummary> kernels;
    if (report.open(QIODevice::ReadOnly))
        kernels = compare::summariesOfRun(report.readAll(), &error);
    else
        error = tr("it wrote no report");
    const bool ok = status == QProcess::NormalExit && exitCode == 0 && error.isEmpty();
    m_panel->setB(kernels, m_description);
    if (ok)
        m_panel->setStatus(tr("B: %1 \u2014 %n kernel(s).", nullptr, int(kernels.size())).arg(m_description));
    else
        m_panel->setStatus(tr("B (%1) failed%2:\n%3")
                               .arg(m_description, error.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(error),
                                    tail(m_output, 6)),
                           true);
    emit finished(ok);
}
