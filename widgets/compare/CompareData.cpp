#include "CompareData.h"

#include "asc2/Report/CompileReport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>
#include <QSet>

#include <cmath>

namespace compare {

KernelSummary summaryOf(const QJsonObject &r)
{
    KernelSummary s;
    s.kernel = r.value(QStringLiteral("kernel")).toString();
    s.target = r.value(QStringLiteral("target")).toString();
    const QJsonObject options = r.value(QStringLiteral("options")).toObject();
    QStringList parts;
    for (auto it = options.constBegin(); it != options.constEnd(); ++it)
        parts << QStringLiteral("%1=%2").arg(it.key(), it.value().toVariant().toString());
    s.options = parts.join(QLatin1Char(' '));
    s.ascendc = r.value(QStringLiteral("ascendc")).toString();
    s.ascendcLines = s.ascendc.isEmpty() ? 0 : int(s.ascendc.count(QLatin1Char('\n'))) + (s.ascendc.endsWith(QLatin1Char('\n')) ? 0 : 1);
    const QJsonObject memory = r.value(QStringLiteral("memory")).toObject();
    for (const QJsonValue &v : memory.value(QStringLiteral("spaces")).toArray()) {
        const QJsonObject o = v.toObject();
        s.spaces.push_back({o.value(QStringLiteral("space")).toString(), qint64(o.value(QStringLiteral("peak")).toDouble()),
                            qint64(o.value(QStringLiteral("capacity")).toDouble())});
    }
    s.buffers = int(memory.value(QStringLiteral("buffers")).toArray().size());
    QMap<QString, int> sync;
    for (const QJsonValue &v : r.value(QStringLiteral("sync")).toArray())
        ++sync[v.toObject().value(QStringLiteral("kind")).toString()];
    // Counted apart by the compiler (no record each): barriers.
    const QJsonObject counts = r.value(QStringLiteral("sync_counts")).toObject();
    if (counts.contains(QStringLiteral("pipe_barrier")))
        sync[QStringLiteral("pipe_barrier")] = counts.value(QStringLiteral("pipe_barrier")).toInt();
    for (auto it = sync.cbegin(); it != sync.cend(); ++it)
        s.syncOps.push_back({it.key(), it.value()});
    for (const QJsonValue &v : r.value(QStringLiteral("diagnostics")).toArray()) {
        const QJsonObject d = v.toObject();
        if (d.value(QStringLiteral("severity")).toString() == QLatin1String("error"))
            s.errors << d.value(QStringLiteral("message")).toString();
    }
    const QJsonArray launches = r.value(QStringLiteral("launches")).toArray();
    if (!launches.isEmpty()) {
        const QJsonObject last = launches.last().toObject();
        s.launched = true;
        s.blocks = last.value(QStringLiteral("block_num")).toInt();
        if (last.value(QStringLiteral("ok")).toBool()) {
            s.timeUs = last.value(QStringLiteral("time_us")).toDouble(-1);
            s.cycles = last.value(QStringLiteral("cycles")).toDouble(-1);
        } else {
            s.errors << last.value(QStringLiteral("error")).toString();
        }
    }
    return s;
}

KernelSummary summaryOf(const asc2::CompileReport &report)
{
    return summaryOf(QJsonDocument::fromJson(QByteArray::fromStdString(asc2::toJson(report, /*includeIr=*/false))).object());
}

QVector<KernelSummary> summariesOfRun(const QByteArray &reportJson, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(reportJson, &parseError);
    if (!doc.isObject()) {
        if (error)
            *error = QStringLiteral("report.json is not readable: %1").arg(parseError.errorString());
        return {};
    }
    QVector<KernelSummary> kernels;
    for (const QJsonValue &v : doc.object().value(QStringLiteral("kernels")).toArray())
        kernels.push_back(summaryOf(v.toObject()));
    return kernels;
}

namespace {
QString none()
{
    return QStringLiteral("\u2014");
}

QString bytes(qint64 b)
{
    return b >= 10240 ? QStringLiteral("%1 KiB").arg(b / 1024.0, 0, 'f', 1) : QStringLiteral("%1 B").arg(b);
}

/// A numeric row: smaller is better when @p lowerIsBetter.
Row numberRow(const QString &metric, double a, double b, const std::function<QString(double)> &format, bool lowerIsBetter = true)
{
    Row row{metric, a >= 0 ? format(a) : none(), b >= 0 ? format(b) : none(), none(), 0};
    if (a >= 0 && b >= 0) {
        const double d = b - a;
        row.delta = d == 0 ? QStringLiteral("=")
                           : (d > 0 ? QStringLiteral("+") : QStringLiteral("\u2212")) + format(std::abs(d))
                                 + (a > 0 ? QStringLiteral(" (%1%2%)").arg(d > 0 ? QStringLiteral("+") : QStringLiteral("\u2212"))
                                                .arg(100 * std::abs(d) / a, 0, 'f', 1)
                                          : QString());
        row.verdict = d == 0 ? 0 : ((d < 0) == lowerIsBetter ? 1 : -1);
    }
    return row;
}
} // namespace

QVector<Row> compareRows(const KernelSummary *a, const KernelSummary *b)
{
    QVector<Row> rows;
    const auto text = [](const KernelSummary *s, const QString &value) { return s ? value : none(); };
    rows.push_back({QStringLiteral("target"), text(a, a ? a->target : QString()), text(b, b ? b->target : QString()),
                    QString(), 0});
    // Options: only those that differ (the rest are the same both sides).
    {
        const auto split = [](const KernelSummary *s) {
            QMap<QString, QString> map;
            if (s)
                for (const QString &part : s->options.split(QLatin1Char(' '), Qt::SkipEmptyParts))
                    map.insert(part.section(QLatin1Char('='), 0, 0), part.section(QLatin1Char('='), 1));
            return map;
        };
        const QMap<QString, QString> oa = split(a), ob = split(b);
        QStringList da, db;
        QStringList keys = oa.keys() + ob.keys();
        keys.removeDuplicates();
        keys.sort();
        for (const QString &key : keys)
            if (oa.value(key) != ob.value(key)) {
                da << QStringLiteral("%1=%2").arg(key, oa.value(key, QStringLiteral("-")));
                db << QStringLiteral("%1=%2").arg(key, ob.value(key, QStringLiteral("-")));
            }
        if (a && b)
            rows.push_back({QStringLiteral("options that differ"), da.isEmpty() ? QStringLiteral("(none)") : da.join(QLatin1Char(' ')),
                            db.isEmpty() ? QStringLiteral("(none)") : db.join(QLatin1Char(' ')), QString(), 0});
    }
    const auto number = [](const KernelSummary *s, double v) { return s ? v : -1.0; };
    const auto us = [](double v) { return QStringLiteral("%1 \u00b5s").arg(v, 0, 'f', 3); };
    const auto count = [](double v) { return QString::number(qint64(std::llround(v))); };
    rows.push_back(numberRow(QStringLiteral("predicted time"), a ? a->timeUs : -1, b ? b->timeUs : -1, us));
    rows.push_back(numberRow(QStringLiteral("cycles"), a ? a->cycles : -1, b ? b->cycles : -1, count));
    // Memory: every space either side uses, by its peak.
    QStringList spaces;
    for (const KernelSummary *s : {a, b})
        if (s)
            for (const KernelSummary::Space &space : s->spaces)
                if (!spaces.contains(space.name))
                    spaces << space.name;
    const auto peakOf = [](const KernelSummary *s, const QString &name) -> double {
        if (!s)
            return -1;
        for (const KernelSummary::Space &space : s->spaces)
            if (space.name == name)
                return double(space.peak);
        return 0;
    };
    for (const QString &space : spaces)
        rows.push_back(numberRow(QStringLiteral("%1 peak").arg(space), peakOf(a, space), peakOf(b, space),
                                 [](double v) { return bytes(qint64(v)); }));
    rows.push_back(numberRow(QStringLiteral("buffers"), number(a, a ? a->buffers : 0), number(b, b ? b->buffers : 0), count));
    QStringList kinds;
    for (const KernelSummary *s : {a, b})
        if (s)
            for (const auto &[kind, n] : s->syncOps)
                if (!kinds.contains(kind))
                    kinds << kind;
    const auto countOf = [](const KernelSummary *s, const QString &kind) -> double {
        if (!s)
            return -1;
        for (const auto &[k, n] : s->syncOps)
            if (k == kind)
                return n;
        return 0;
    };
    for (const QString &kind : kinds)
        rows.push_back(numberRow(kind, countOf(a, kind), countOf(b, kind), count));
    rows.push_back(numberRow(QStringLiteral("Ascend C lines"), number(a, a ? a->ascendcLines : 0),
                             number(b, b ? b->ascendcLines : 0), count));
    return rows;
}

} // namespace compare
