#include "HeadlessRunner.h"

#include "InspectorExport.h"

#include "asc2/Report/ReportWriter.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QTimer>

#include <chrono>

#include <cstdio>
#include <set>

namespace {
bool writeFile(const QString &path, const QByteArray &data, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

// A directory name for a kernel; kernels sharing a name get _2, _3, ...
QString kernelDirName(const std::string &kernel, std::set<QString> &taken)
{
    QString base;
    for (const QChar c : QString::fromStdString(kernel))
        base += (c.isLetterOrNumber() || c == QLatin1Char('_') || c == QLatin1Char('-')) ? c : QLatin1Char('_');
    if (base.isEmpty())
        base = QStringLiteral("kernel");
    QString name = base;
    for (int i = 2; taken.count(name); ++i)
        name = QStringLiteral("%1_%2").arg(base).arg(i);
    taken.insert(name);
    return name;
}
} // namespace

HeadlessRunner::HeadlessRunner(JobRunner *runner, Options options, QObject *parent)
    : QObject(parent)
    , m_runner(runner)
    , m_options(std::move(options))
{
    connect(m_runner, &JobRunner::outputReceived, this, &HeadlessRunner::onOutput);
    connect(m_runner, &JobRunner::runFinished, this, &HeadlessRunner::onRunFinished);
}

void HeadlessRunner::start()
{
    QFile file(m_options.file);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        std::fprintf(stderr, "asc2-workbench: cannot open %s: %s\n", qPrintable(m_options.file),
                     qPrintable(file.errorString()));
        QMetaObject::invokeMethod(this, [this] { emit finished(2); }, Qt::QueuedConnection);
        return;
    }
    ScriptJob job;
    job.source = QString::fromUtf8(file.readAll());
    job.filePath = QFileInfo(m_options.file).absoluteFilePath();
    job.arguments = m_options.arguments;
    job.environment = m_options.environment;
    m_runner->run(job);
    if (m_options.timeoutSeconds > 0) {
        // Stop as the GUI's Stop does: the simulator is cancelled, the script gets KeyboardInterrupt.
        QTimer::singleShot(std::chrono::seconds(m_options.timeoutSeconds), this, [this] {
            if (!m_runner->isRunning())
                return;
            m_timedOut = true;
            std::fprintf(stderr, "asc2-workbench: --timeout: %s still running after %d s, stopping it\n",
                         qPrintable(m_options.file), m_options.timeoutSeconds);
            m_runner->stop();
        });
    }
}

void HeadlessRunner::onOutput(const QString &text, PythonHost::Stream stream)
{
    FILE *out = stream == PythonHost::Stream::Stderr ? stderr : stdout;
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), out);
    std::fflush(out);
}

int HeadlessRunner::exitCodeFor(const RunSummary &summary)
{
    if (!summary.script.succeeded())
        return summary.script.exitCode != 0 ? summary.script.exitCode : 1;
    return summary.problems.isEmpty() ? 0 : 1;
}

void HeadlessRunner::onRunFinished(const RunSummary &summary)
{
    // 124: what timeout(1) returns when the command timed out.
    int exitCode = m_timedOut ? 124 : exitCodeFor(summary);
    for (const QString &problem : summary.problems)
        std::fprintf(stderr, "asc2-workbench: %s\n", qPrintable(problem));
    if (!m_options.reportDir.isEmpty()) {
        QString error;
        if (writeReport(summary, m_options.reportDir, &error)) {
            std::fprintf(stderr, "asc2-workbench: report written to %s\n",
                         qPrintable(QDir(m_options.reportDir).absoluteFilePath(QStringLiteral("report.json"))));
        } else {
            std::fprintf(stderr, "asc2-workbench: %s\n", qPrintable(error));
            exitCode = exitCode ? exitCode : 1;
        }
    }
    const struct {
        const QString &path;
        bool (*write)(const RunSummary &, const QString &, QString *);
        const char *what;
    } exports[] = {{m_options.htmlPath, &HeadlessRunner::writeHtml, "HTML report"},
                   {m_options.tracePath, &HeadlessRunner::writeTrace, "trace"}};
    for (const auto &e : exports) {
        if (e.path.isEmpty())
            continue;
        QString error;
        if (e.write(summary, e.path, &error)) {
            std::fprintf(stderr, "asc2-workbench: %s written to %s\n", e.what, qPrintable(QFileInfo(e.path).absoluteFilePath()));
        } else {
            std::fprintf(stderr, "asc2-workbench: %s\n", qPrintable(error));
            exitCode = exitCode ? exitCode : 1;
        }
    }
    if (!m_options.projectDir.isEmpty() && summary.script.succeeded()) {
        // asc2.runtime.project names each project as it writes it; a run without a launch wrote none.
        if (!summary.lastLaunched) {
            std::fprintf(stderr, "asc2-workbench: --export-project: %s launched no kernel, so there is nothing to export\n",
                         qPrintable(m_options.file));
            exitCode = exitCode ? exitCode : 1;
        }
    }
    std::fflush(stdout);
    std::fflush(stderr);
    emit finished(exitCode);
}

bool HeadlessRunner::writeTrace(const RunSummary &summary, const QString &path, QString *error)
{
    const ReportPtr report = summary.lastLaunched;
    if (!report || report->launches.empty()) {
        *error = QStringLiteral("--export-trace: no kernel was launched, so there is no simulated trace");
        return false;
    }
    return inspector::writeChromeTrace(*report, int(report->launches.size()) - 1, path, error);
}

bool HeadlessRunner::writeHtml(const RunSummary &summary, const QString &path, QString *error)
{
    if (summary.kernels.isEmpty()) {
        *error = QStringLiteral("--export-html: no kernel was compiled");
        return false;
    }
    return inspector::writeHtmlReport(summary.kernels, path, error);
}

bool HeadlessRunner::writeReport(const RunSummary &summary, const QString &dirPath, QString *error)
{
    QDir dir(dirPath);
    if (!dir.mkpath(QStringLiteral("."))) {
        *error = QStringLiteral("cannot create %1").arg(dirPath);
        return false;
    }

    QJsonArray kernels;
    std::set<QString> taken;
    for (const ReportPtr &report : summary.kernels) {
        const QByteArray json = QByteArray::fromStdString(asc2::toJson(*report, /*includeIr=*/true));
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
        if (!doc.isObject()) {
            *error = QStringLiteral("report of %1 is not a JSON object: %2")
                         .arg(QString::fromStdString(report->kernel), parseError.errorString());
            return false;
        }
        kernels.append(doc.object());

        const QString kernelDir = dir.absoluteFilePath(kernelDirName(report->kernel, taken));
        std::string writeError;
        if (!asc2::writeReportDir(*report, kernelDir.toStdString(), writeError)) {
            *error = QStringLiteral("cannot write %1: %2").arg(kernelDir, QString::fromStdString(writeError));
            return false;
        }
    }

    QJsonObject root;
    root[QStringLiteral("schema")] = QStringLiteral("asc2.report/1");
    root[QStringLiteral("file")] = summary.filePath;
    root[QStringLiteral("ok")] = summary.ok();
    root[QStringLiteral("exit_code")] = exitCodeFor(summary);
    root[QStringLiteral("problems")] = QJsonArray::fromStringList(summary.problems);
    root[QStringLiteral("kernels")] = kernels;
    if (!writeFile(dir.absoluteFilePath(QStringLiteral("report.json")),
                   QJsonDocument(root).toJson(QJsonDocument::Indented), error))
        return false;

    if (summary.lastLaunched && summary.lastLaunched->launches.back().trace) {
        const std::string trace = asc2::sim::traceToJson(*summary.lastLaunched->launches.back().trace);
        if (!writeFile(dir.absoluteFilePath(QStringLiteral("trace.json")), QByteArray::fromStdString(trace), error))
            return false;
    }
    return true;
}
