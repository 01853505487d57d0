#include "InspectorExport.h"

#include <QJsonDocument>
#include <QSaveFile>

namespace inspector {

bool writeChromeTrace(const asc2::CompileReport &report, int launch, const QString &path, QString *error)
{
    if (launch < 0 || launch >= int(report.launches.size()) || report.launches[launch].traceJson.empty()) {
        *error = QStringLiteral("%1 has no simulated trace: run it first").arg(QString::fromStdString(report.kernel));
        return false;
    }
    const QByteArray json = QByteArray::fromStdString(report.launches[launch].traceJson);
    QJsonParseError parseError;
    QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = QStringLiteral("the trace is not valid JSON: %1").arg(parseError.errorString());
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(json) != json.size() || !file.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

QString htmlReport(const asc2::CompileReport &report, const QVector<ReportImage> &images, const ProfileRun *profile)
{
    const auto esc = [](const std::string &s) { return QString::fromStdString(s).toHtmlEscaped(); };
    QString h;
    h += QStringLiteral("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>asc2 report: %1</title>\n").arg(esc(report.kernel));
    h += QStringLiteral("<style>body{font-family:sans-serif;margin:2em;max-width:1300px}table{border-collapse:collapse}"
                        "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}td:first-child,th:first-child{text-align:left}"
                        "img{max-width:100%;border:1px solid #ddd}pre{background:#f6f6f6;padding:8px;overflow:auto;font-size:12px}</style>\n");
    h += QStringLiteral("</head><body>\n<h1>%1</h1>\n<p>target %2 \u2014 %3</p>\n")
             .arg(esc(report.kernel), esc(report.target), esc(report.sourceFile));
    if (!report.launches.empty()) {
        const asc2::LaunchRecord &l = report.launches.back();
        h += QStringLiteral("<p>last launch: %1 blocks, %2 cycles, %3 \u00b5s, %4 races</p>\n")
                 .arg(l.blockNum).arg(l.totalCycles).arg(l.timeUs, 0, 'f', 3).arg(l.races);
    }
    h += QStringLiteral("<h2>Passes</h2>\n<table><tr><th>#</th><th>pass</th><th>stage</th><th>changed</th><th>ms</th><th>ops</th></tr>\n");
    for (const asc2::PassRecord &p : report.passes)
        h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td></tr>\n")
                 .arg(p.index).arg(esc(p.name), esc(p.stage), p.changed ? QStringLiteral("yes") : QString())
                 .arg(p.wallMs, 0, 'f', 2).arg(p.opCount);
    h += QLatin1String("</table>\n");
    for (auto it = report.passes.rbegin(); it != report.passes.rend(); ++it) {
        if (it->ir.empty())
            continue;
        h += QStringLiteral("<details><summary>Final IR (after %1)</summary><pre>%2</pre></details>\n").arg(esc(it->name), esc(it->ir));
        break;
    }
    for (const ReportImage &image : images)
        h += QStringLiteral("<h2>%1</h2>\n<img alt=\"%1\" src=\"data:image/png;base64,%2\">\n")
                 .arg(image.title.toHtmlEscaped(), QString::fromLatin1(image.png.toBase64()));
    if (profile) {
        h += QStringLiteral("<h2>Profile: %1</h2>\n<table><tr><th>pipe</th><th>busy (%)</th></tr>\n").arg(profile->label.toHtmlEscaped());
        for (int i = 0; i < kPipeCount; ++i)
            if (profile->pipeRatio[i] >= 0)
                h += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>\n").arg(pipeName(Pipe(i))).arg(100 * profile->pipeRatio[i], 0, 'f', 1);
        h += QLatin1String("</table>\n");
        QVector<std::pair<int, double>> lines;
        for (auto it = profile->lineUs.cbegin(); it != profile->lineUs.cend(); ++it)
            lines.push_back({it.key(), it.value()});
        std::sort(lines.begin(), lines.end(), [](auto &a, auto &b) { return a.second > b.second; });
        if (!lines.isEmpty()) {
            h += QLatin1String("<h3>Hot lines</h3>\n<table><tr><th>line</th><th>\u00b5s</th></tr>\n");
            for (int i = 0; i < std::min<qsizetype>(15, lines.size()); ++i)
                h += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>\n").arg(lines[i].first).arg(lines[i].second, 0, 'f', 4);
            h += QLatin1String("</table>\n");
        }
    }
    if (!report.sync.empty()) {
        h += QLatin1String("<h2>Sync</h2>\n<table><tr><th>point</th><th>kind</th><th>pipes</th><th>event</th><th>role</th><th>reason</th></tr>\n");
        for (const asc2::SyncRecord &s : report.sync)
            h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3\u2192%4</td><td>%5</td><td>%6</td><td style=\"text-align:left\">%7</td></tr>\n")
                     .arg(s.point).arg(esc(s.kind), esc(s.srcPipe), esc(s.dstPipe)).arg(s.eventId).arg(esc(s.role), esc(s.reason));
        h += QLatin1String("</table>\n");
    }
    h += QLatin1String("</body></html>\n");
    return h;
}

} // namespace inspector
