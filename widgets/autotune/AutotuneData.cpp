#include "AutotuneData.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSysInfo>

#include <algorithm>

namespace autotune {

namespace {
double number(const QJsonValue &value)
{
    return value.isDouble() ? value.toDouble() : NAN;
}

// The key is "the autotune key as text"; anything else is shown as JSON.
QString text(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isDouble())
        return QString::number(value.toDouble(), 'g', 15);
    if (value.isBool())
        return value.toBool() ? QStringLiteral("True") : QStringLiteral("False");
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    return {};
}

// Every event may name the sweep's kernel, key, executor and platform; a
// cached choice may announce itself only by sweep_finished.
void takeHeader(Sweep &sweep, const QJsonObject &event)
{
    const struct {
        const char *name;
        QString *field;
    } fields[] = {{"kernel", &sweep.kernel}, {"key", &sweep.key}, {"executor", &sweep.executor},
                  {"platform", &sweep.platform}};
    for (const auto &f : fields) {
        const QString value = text(event.value(QLatin1String(f.name)));
        if (!value.isEmpty())
            *f.field = value;
    }
}

void takeRow(Sweep &sweep, const QJsonObject &row)
{
    const int index = row.value(QLatin1String("index")).toInt(-1);
    int position = sweep.positionOf(index);
    if (position < 0) {
        ConfigResult config;
        config.index = index;
        sweep.configs.push_back(config);
        position = int(sweep.configs.size()) - 1;
    }
    sweep.configs[position].takeRow(row);
}
} // namespace

void ConfigResult::takeRow(const QJsonObject &row)
{
    if (row.contains(QLatin1String("index")))
        index = row.value(QLatin1String("index")).toInt(index);
    if (row.contains(QLatin1String("params")))
        params = text(row.value(QLatin1String("params")));
    verdict = text(row.value(QLatin1String("verdict")));
    reason = text(row.value(QLatin1String("reason")));
    label = text(row.value(QLatin1String("label")));
    cycles = number(row.value(QLatin1String("cycles")));
    timeUs = number(row.value(QLatin1String("time_us")));
    metric = number(row.value(QLatin1String("metric")));
    ubPeak = number(row.value(QLatin1String("ub_peak")));
    ubCapacity = number(row.value(QLatin1String("ub_capacity")));
    peaks.clear();
    const QJsonObject spaces = row.value(QLatin1String("peaks")).toObject();
    for (auto it = spaces.begin(); it != spaces.end(); ++it)
        peaks.push_back({it.key(), number(it.value())});
    boundPipe = text(row.value(QLatin1String("bound_pipe")));
    worker = text(row.value(QLatin1String("worker")));
    wallS = number(row.value(QLatin1String("wall_s")));
    blockNum = row.value(QLatin1String("block_num")).toInt();
    codeSha1 = text(row.value(QLatin1String("code_sha1"))).toLower();
    done = true;
}

int Sweep::doneCount() const
{
    return int(std::count_if(configs.cbegin(), configs.cend(), [](const ConfigResult &c) { return c.done; }));
}

int Sweep::winnerPosition() const
{
    for (int i = 0; i < configs.size(); ++i) {
        if (configs[i].isWinner())
            return i;
    }
    return -1;
}

int Sweep::positionOf(int index) const
{
    for (int i = 0; i < configs.size(); ++i) {
        if (configs[i].index == index)
            return i;
    }
    return -1;
}

bool Sweep::timedInCycles() const
{
    // As python/asc2/tune/report.py: the metric is the cycles on the Model
    // backend, wall microseconds elsewhere.
    bool anyTimed = false;
    for (const ConfigResult &c : configs) {
        if (std::isnan(c.metric))
            continue;
        anyTimed = true;
        if (c.metric == c.cycles)
            return true;
    }
    return !anyTimed;
}

QString Sweep::measureUnit() const
{
    return timedInCycles() ? QCoreApplication::translate("autotune", "cycles")
                           : QCoreApplication::translate("autotune", "\u00b5s");
}

QString Sweep::pendingText(int position) const
{
    switch (state) {
    case State::Running:
        break;
    case State::Cancelled:
        return QCoreApplication::translate("autotune", "cancelled");
    case State::Finished:
        return QCoreApplication::translate("autotune", "not run");
    }
    for (int i = 0; i < position; ++i) {
        if (!configs[i].done)
            return QCoreApplication::translate("autotune", "queued");
    }
    return QCoreApplication::translate("autotune", "running\u2026");
}

int SweepLog::positionOf(int id) const
{
    for (int i = 0; i < m_sweeps.size(); ++i) {
        if (m_sweeps[i].id == id)
            return i;
    }
    return -1;
}

int SweepLog::apply(const QJsonObject &event)
{
    const QString kind = event.value(QLatin1String("event")).toString();
    const QJsonValue idValue = event.value(QLatin1String("sweep"));
    if (!idValue.isDouble())
        return -1;
    const bool started = kind == QLatin1String("sweep_started");
    const bool configDone = kind == QLatin1String("config_done");
    const bool finished = kind == QLatin1String("sweep_finished");
    const bool cancelled = kind == QLatin1String("sweep_cancelled");
    if (!started && !configDone && !finished && !cancelled)
        return -1;

    const int id = idValue.toInt();
    int position = positionOf(id);
    if (position < 0) {
        Sweep sweep;
        sweep.id = id;
        m_sweeps.push_back(sweep);
        position = int(m_sweeps.size()) - 1;
    }
    Sweep &sweep = m_sweeps[position];
    takeHeader(sweep, event);

    if (started) {
        sweep.state = Sweep::State::Running;
        sweep.configs.clear();
        for (const QJsonValue &value : event.value(QLatin1String("configs")).toArray()) {
            const QJsonObject config = value.toObject();
            ConfigResult result;
            result.index = config.value(QLatin1String("index")).toInt(int(sweep.configs.size()));
            result.params = text(config.value(QLatin1String("params")));
            sweep.configs.push_back(result);
        }
    } else if (configDone) {
        takeRow(sweep, event.value(QLatin1String("row")).toObject());
    } else if (finished) {
        for (const QJsonValue &row : event.value(QLatin1String("rows")).toArray())
            takeRow(sweep, row.toObject());
        // The rows say who won; `winner` says it again by index.
        const QJsonValue winner = event.value(QLatin1String("winner"));
        const int winnerAt = winner.isDouble() ? sweep.positionOf(winner.toInt()) : -1;
        if (winnerAt >= 0 && sweep.winnerPosition() < 0 && sweep.configs[winnerAt].done)
            sweep.configs[winnerAt].verdict = QStringLiteral("winner");
        sweep.cached = event.value(QLatin1String("cached")).toBool();
        sweep.state = Sweep::State::Finished;
    } else {
        sweep.state = Sweep::State::Cancelled;
    }
    return position;
}

void SweepLog::endRun()
{
    for (Sweep &sweep : m_sweeps) {
        if (sweep.state == Sweep::State::Running)
            sweep.state = Sweep::State::Cancelled;
    }
}

QString codeSha1(const asc2::CompileReport &report)
{
    if (report.ascendc.empty())
        return {};
    const QByteArray code = QByteArray::fromRawData(report.ascendc.data(), qsizetype(report.ascendc.size()));
    return QString::fromLatin1(QCryptographicHash::hash(code, QCryptographicHash::Sha1).toHex());
}

int indexOfConfigReport(const QVector<ReportPtr> &reports, const QString &kernel, const QString &codeSha1)
{
    if (codeSha1.isEmpty())
        return -1;
    const std::string name = kernel.toStdString();
    for (int i = int(reports.size()) - 1; i >= 0; --i) {
        const ReportPtr &report = reports[i];
        if (report && report->kernel == name && autotune::codeSha1(*report) == codeSha1)
            return i;
    }
    return -1;
}

bool ranInThisProcess(const QString &worker)
{
    // socket.gethostname() and QSysInfo both ask gethostname().
    const int colon = int(worker.lastIndexOf(QLatin1Char(':')));
    if (colon < 0)
        return false;
    return worker.left(colon) == QSysInfo::machineHostName()
        && worker.mid(colon + 1).toLongLong() == QCoreApplication::applicationPid();
}

QString whyNoReport(const ConfigResult &config)
{
    const QString which = QCoreApplication::translate("autotune", "Config #%1 (%2)").arg(config.index).arg(config.params);
    if (!config.done)
        return QCoreApplication::translate("autotune", "%1 has not been compiled yet").arg(which);
    if (config.codeSha1.isEmpty()) {
        const QString reason = config.reason.section(QLatin1Char('\n'), 0, 0);
        return reason.isEmpty() ? QCoreApplication::translate("autotune", "%1 did not compile").arg(which)
                                : QCoreApplication::translate("autotune", "%1 did not compile: %2").arg(which, reason);
    }
    if (!config.worker.isEmpty() && !ranInThisProcess(config.worker))
        return QCoreApplication::translate("autotune",
                                           "%1 was compiled on the Dask worker %2: its report stayed in that process "
                                           "(tune with executor=\"local\" to inspect every config)")
            .arg(which, config.worker);
    return QCoreApplication::translate("autotune", "No compile report of %1 in this run").arg(which);
}

} // namespace autotune
