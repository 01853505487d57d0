#include "Baselines.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

namespace inspector {
namespace {

QJsonArray numbers(const QVector<double> &values)
{
    QJsonArray a;
    for (double v : values)
        a.append(v);
    return a;
}

QVector<double> numbersOf(const QJsonValue &value, int size)
{
    QVector<double> out(size, -1.0);
    const QJsonArray a = value.toArray();
    for (int i = 0; i < size && i < a.size(); ++i)
        out[i] = a[i].toDouble(-1);
    return out;
}

QJsonObject lines(const QHash<int, double> &times)
{
    QJsonObject o;
    for (auto it = times.cbegin(); it != times.cend(); ++it)
        o.insert(QString::number(it.key()), it.value());
    return o;
}

QHash<int, double> linesOf(const QJsonValue &value)
{
    QHash<int, double> out;
    const QJsonObject o = value.toObject();
    for (auto it = o.constBegin(); it != o.constEnd(); ++it)
        out.insert(it.key().toInt(), it.value().toDouble());
    return out;
}

} // namespace

QJsonObject baselineToJson(const ProfileRun &run)
{
    // Pipes by name, not by position: the enum may grow.
    QJsonObject ratio, time, bytes;
    for (int p = 0; p < kPipeCount; ++p) {
        const QString name = pipeLabel(Pipe(p));
        ratio.insert(name, run.pipeRatio[p]);
        time.insert(name, run.pipeTimeUs[p]);
        bytes.insert(name, run.pipeBytes[p]);
    }
    return QJsonObject{
        {"label", run.label},
        {"source", run.source},
        {"baseline", true},
        {"op", run.opName},
        {"duration_us", run.durationUs},
        {"cycles", run.cycles},
        {"block_dim", run.blockDim},
        {"pipe_ratio", ratio},
        {"pipe_time_us", time},
        {"pipe_bytes", bytes},
        {"line_us", lines(run.lineUs)},
        {"line_wait_us", lines(run.lineWaitUs)},
        {"source_file", run.sourceFile},
        {"peaks",
         QJsonObject{{"platform", run.peaks.platform},
                     {"hbm_gbps", run.peaks.hbmGBps},
                     {"gm_read_gbps_per_core", run.peaks.gmReadGBpsPerCore},
                     {"gm_to_l1_gbps_per_core", run.peaks.gmToL1GBpsPerCore},
                     {"vector_cores", run.peaks.vectorCores},
                     {"cube_cores", run.peaks.cubeCores},
                     {"launch_us", run.peaks.launchUs}}},
    };
}

ProfileRun baselineFromJson(const QJsonObject &o)
{
    ProfileRun run;
    run.label = o.value("label").toString();
    run.source = o.value("source").toString();
    run.baseline = true;
    run.opName = o.value("op").toString();
    run.durationUs = o.value("duration_us").toDouble(-1);
    run.cycles = o.value("cycles").toDouble(-1);
    run.blockDim = o.value("block_dim").toInt();
    for (const auto &[key, target] : {std::pair{"pipe_ratio", &run.pipeRatio}, std::pair{"pipe_time_us", &run.pipeTimeUs},
                                      std::pair{"pipe_bytes", &run.pipeBytes}}) {
        const QJsonObject byName = o.value(QLatin1String(key)).toObject();
        for (auto it = byName.constBegin(); it != byName.constEnd(); ++it)
            if (const int p = pipeIndex(it.key()); p >= 0)
                (*target)[p] = it.value().toDouble(-1);
    }
    run.lineUs = linesOf(o.value("line_us"));
    run.lineWaitUs = linesOf(o.value("line_wait_us"));
    run.sourceFile = o.value("source_file").toString();
    const QJsonObject peaks = o.value("peaks").toObject();
    run.peaks.platform = peaks.value("platform").toString();
    run.peaks.hbmGBps = peaks.value("hbm_gbps").toDouble(-1);
    run.peaks.gmReadGBpsPerCore = peaks.value("gm_read_gbps_per_core").toDouble(-1);
    run.peaks.gmToL1GBpsPerCore = peaks.value("gm_to_l1_gbps_per_core").toDouble(-1);
    run.peaks.vectorCores = peaks.value("vector_cores").toInt();
    run.peaks.cubeCores = peaks.value("cube_cores").toInt();
    run.peaks.launchUs = peaks.value("launch_us").toDouble(-1);
    run.trace.error = QStringLiteral("a saved baseline keeps no trace");
    return run;
}

QVector<ProfileRun> readBaselines(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.exists())
        return {};
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return {};
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (!doc.isObject()) {
        if (error)
            *error = QStringLiteral("%1 is not a baselines file: %2").arg(path, parseError.errorString());
        return {};
    }
    QVector<ProfileRun> runs;
    for (const QJsonValue &v : doc.object().value("baselines").toArray())
        runs.push_back(baselineFromJson(v.toObject()));
    return runs;
}

bool writeBaselines(const QString &path, const QVector<ProfileRun> &runs, QString *error)
{
    QJsonArray array;
    for (const ProfileRun &run : runs)
        array.append(baselineToJson(run));
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile file(path);
    const QByteArray bytes = QJsonDocument(QJsonObject{{"schema", "asc2.baselines/1"}, {"baselines", array}}).toJson();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace inspector
