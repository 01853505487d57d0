#include "InspectorExport.h"

#include "PingPongView.h"
#include "ProfileView.h"
#include "SyncTimelineView.h"
#include "UbMapView.h"

#include <QBuffer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>

namespace inspector {

QByteArray portableChromeTrace(const QByteArray &json, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = QStringLiteral("the trace is not valid JSON: %1").arg(parseError.errorString());
        return {};
    }
    QJsonObject root;
    QJsonArray in;
    if (doc.isObject()) {
        root = doc.object();
        in = root.value(QLatin1String("traceEvents")).toArray();
    } else {
        in = doc.array();
    }
    const auto key = [](const QJsonValue &v) {
        return v.isString() ? v.toString() : QString::number(v.toDouble(), 'g', 17);
    };
    // Numbers for names, in order of appearance; numbers stay what they are.
    QHash<QString, int> pids;
    QHash<QString, int> tids; // "pid/tid"
    QStringList pidNames;
    QVector<QPair<int, QString>> tidNames; // (pid number, tid name) per tid number - 1
    QVector<int> tidPid;
    QSet<QString> namedProcess, namedThread;
    const auto pidOf = [&](const QJsonValue &v) -> QJsonValue {
        if (v.isDouble() || v.isUndefined())
            return v;
        auto it = pids.find(key(v));
        if (it == pids.end()) {
            it = pids.insert(key(v), int(pidNames.size()) + 1);
            pidNames << key(v);
        }
        return *it;
    };
    const auto tidOf = [&](const QJsonValue &pid, const QJsonValue &v) -> QJsonValue {
        if (v.isDouble() || v.isUndefined())
            return v;
        const QString k = key(pid) + QLatin1Char('/') + key(v);
        auto it = tids.find(k);
        if (it == tids.end()) {
            it = tids.insert(k, int(tidNames.size()) + 1);
            tidNames.push_back({pidOf(pid).toInt(), key(v)});
        }
        return *it;
    };
    QJsonArray out;
    for (const QJsonValue &v : in) {
        QJsonObject e = v.toObject();
        const QJsonValue pid = e.value(QLatin1String("pid")), tid = e.value(QLatin1String("tid"));
        const QString ph = e.value(QLatin1String("ph")).toString();
        if (ph == QLatin1String("M") && e.value(QLatin1String("name")).toString() == QLatin1String("process_name"))
            namedProcess.insert(key(pid));
        if (ph == QLatin1String("M") && e.value(QLatin1String("name")).toString() == QLatin1String("thread_name"))
            namedThread.insert(key(pid) + QLatin1Char('/') + key(tid));
        if (e.contains(QLatin1String("tid")))
            e.insert(QLatin1String("tid"), tidOf(pid, tid));
        if (e.contains(QLatin1String("pid")))
            e.insert(QLatin1String("pid"), pidOf(pid));
        out.append(e);
    }
    // Names for what had none: the process and lane names themselves.
    QJsonArray meta;
    for (int i = 0; i < pidNames.size(); ++i)
        if (!namedProcess.contains(pidNames[i]))
            meta.append(QJsonObject{{"name", "process_name"}, {"ph", "M"}, {"pid", i + 1},
                                    {"args", QJsonObject{{"name", pidNames[i]}}}});
    for (auto it = tids.cbegin(); it != tids.cend(); ++it) {
        if (namedThread.contains(it.key()))
            continue;
        const auto &[pid, name] = tidNames[it.value() - 1];
        meta.append(QJsonObject{{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", it.value()},
                                {"args", QJsonObject{{"name", name}}}});
    }
    for (const QJsonValue &m : meta)
        out.prepend(m);
    root.insert(QLatin1String("traceEvents"), out);
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

bool writeChromeTrace(const asc2::CompileReport &report, int launch, const QString &path, QString *error)
{
    if (launch < 0 || launch >= int(report.launches.size()) || !report.launches[launch].trace) {
        *error = QStringLiteral("%1 has no simulated trace: run it first").arg(QString::fromStdString(report.kernel));
        return false;
    }
    const QByteArray json = portableChromeTrace(QByteArray::fromStdString(asc2::sim::traceToJson(*report.launches[launch].trace)), error);
    if (json.isEmpty())
        return false;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(json) != json.size() || !file.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

namespace {

QString esc(const std::string &s) { return QString::fromStdString(s).toHtmlEscaped(); }

/// "Sync timeline (program order)" -> "sync-timeline-program-order"
QString idOf(const QString &title)
{
    static const QRegularExpression nonWord(QStringLiteral("[^a-z0-9]+"));
    static const QRegularExpression ends(QStringLiteral("^-|-$"));
    return title.toLower().replace(nonWord, QStringLiteral("-")).remove(ends);
}

/// One kernel's part of the page; ids start with @p prefix (its heading has
/// one only on a page of several kernels, where the list links to it).
QString kernelHtml(const ReportSection &section, const QString &prefix)
{
    const asc2::CompileReport &report = *section.report;
    QString h = prefix.isEmpty() ? QStringLiteral("<h1>%1</h1>\n").arg(esc(report.kernel))
                                 : QStringLiteral("<h1 id=\"%1kernel\">%2</h1>\n").arg(prefix, esc(report.kernel));
    h += QStringLiteral("<p>target %1 \u2014 %2</p>\n").arg(esc(report.target), esc(report.sourceFile));
    if (!report.launches.empty()) {
        const asc2::LaunchRecord &l = report.launches.back();
        h += QStringLiteral("<p>%1: %2 blocks, %3 cycles, %4 \u00b5s (predicted by the simulator), %5 races</p>\n")
                 .arg(report.launches.size() == 1 ? QStringLiteral("launch")
                                                  : QStringLiteral("last of %1 launches").arg(report.launches.size()))
                 .arg(l.blockNum).arg(l.totalCycles).arg(l.timeUs, 0, 'f', 3).arg(l.races);
    } else {
        h += QLatin1String("<p>compiled, not launched</p>\n");
    }
    h += QStringLiteral("<h2 id=\"%1passes\">Passes</h2>\n<table><tr><th class=\"n\">#</th><th>pass</th><th>stage</th>"
                        "<th>changed</th><th class=\"n\">ms</th><th class=\"n\">ops</th></tr>\n").arg(prefix);
    for (const asc2::PassRecord &p : report.passes)
        h += QStringLiteral("<tr><td class=\"n\">%1</td><td>%2</td><td>%3</td><td>%4</td><td class=\"n\">%5</td><td class=\"n\">%6</td></tr>\n")
                 .arg(p.index).arg(esc(p.name), esc(p.stage), p.changed ? QStringLiteral("yes") : QString())
                 .arg(p.wallMs, 0, 'f', 2).arg(p.opCount);
    h += QLatin1String("</table>\n");
    for (auto it = report.passes.rbegin(); it != report.passes.rend(); ++it) {
        if (it->ir.empty())
            continue;
        h += QStringLiteral("<details id=\"%3final-ir\"><summary>Final IR (after %1)</summary><pre>%2</pre></details>\n")
                 .arg(esc(it->name), esc(it->ir), prefix);
        break;
    }
    for (const ReportImage &image : section.images)
        h += QStringLiteral("<h2 id=\"%3%4\">%1</h2>\n<img alt=\"%1\" src=\"data:image/png;base64,%2\">\n")
                 .arg(image.title.toHtmlEscaped(), QString::fromLatin1(image.png.toBase64()), prefix, idOf(image.title));
    if (const ProfileRun *profile = section.profile) {
        h += QStringLiteral("<h2 id=\"%2profile\">Profile: %1</h2>\n<table><tr><th>pipe</th><th class=\"n\">busy (%)</th></tr>\n")
                 .arg(profile->label.toHtmlEscaped(), prefix);
        for (Pipe pipe : asc2::kPipeLaneOrder)
            if (profile->pipeRatio[int(pipe)] >= 0)
                h += QStringLiteral("<tr><td>%1</td><td class=\"n\">%2</td></tr>\n").arg(pipeLabel(pipe)).arg(100 * profile->pipeRatio[int(pipe)], 0, 'f', 1);
        h += QLatin1String("</table>\n");
        h += QStringLiteral("<h3 id=\"%1speed-of-light\">Speed of light</h3>\n%2\n")
                 .arg(prefix, speedOfLightHtml(profile, nullptr, Theme::light()));
        QVector<std::pair<int, double>> lines;
        for (auto it = profile->lineUs.cbegin(); it != profile->lineUs.cend(); ++it)
            lines.push_back({it.key(), it.value()});
        std::sort(lines.begin(), lines.end(), [](auto &a, auto &b) { return a.second > b.second; });
        if (!lines.isEmpty()) {
            h += QStringLiteral("<h3>Hot lines</h3>\n<table><tr><th class=\"n\">line</th><th class=\"n\">busy \u00b5s</th>"
                                "<th class=\"n\">waiting \u00b5s</th></tr>\n");
            for (int i = 0; i < std::min<qsizetype>(15, lines.size()); ++i)
                h += QStringLiteral("<tr><td class=\"n\">%1</td><td class=\"n\">%2</td><td class=\"n\">%3</td></tr>\n")
                         .arg(lines[i].first)
                         .arg(lines[i].second, 0, 'f', 4)
                         .arg(profile->lineWaitUs.value(lines[i].first), 0, 'f', 4);
            h += QLatin1String("</table>\n");
        }
    }
    if (!report.sync.empty()) {
        h += QStringLiteral("<h2 id=\"%1sync\">Sync</h2>\n<table><tr><th class=\"n\">point</th><th>kind</th><th>pipes</th>"
                            "<th class=\"n\">event</th><th>role</th><th>reason</th></tr>\n").arg(prefix);
        for (const asc2::SyncRecord &s : report.sync)
            h += QStringLiteral("<tr><td class=\"n\">%1</td><td>%2</td><td>%3\u2192%4</td><td class=\"n\">%5</td><td>%6</td><td>%7</td></tr>\n")
                     .arg(s.point).arg(esc(asc2::syncKindName(s.kind)), esc(asc2::pipeName(s.srcPipe)), esc(asc2::pipeName(s.dstPipe))).arg(s.eventId).arg(esc(asc2::syncRoleName(s.role)), esc(s.reason));
        h += QLatin1String("</table>\n");
    }
    return h;
}

} // namespace

QString htmlReport(const QVector<ReportSection> &sections, const QString &title)
{
    QString h;
    h += QStringLiteral("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>asc2 report: %1</title>\n").arg(title.toHtmlEscaped());
    // Text reads from the left, numbers line up on the right.
    h += QStringLiteral("<style>body{font-family:sans-serif;margin:2em;max-width:1300px}table{border-collapse:collapse}"
                        "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}td.n,th.n{text-align:right}"
                        "img{max-width:100%;border:1px solid #ddd}pre{background:#f6f6f6;padding:8px;overflow:auto;font-size:12px}"
                        "section{border-top:3px solid #888;margin-top:2em}</style>\n</head><body>\n");
    if (sections.size() == 1) {
        h += kernelHtml(sections[0], QString());
    } else {
        h += QStringLiteral("<h1>%1</h1>\n<p>%2 kernels:</p>\n<ol>\n").arg(title.toHtmlEscaped()).arg(sections.size());
        for (int i = 0; i < sections.size(); ++i) {
            const asc2::CompileReport &r = *sections[i].report;
            h += QStringLiteral("<li><a href=\"#k%1-kernel\">%2</a> \u2014 %3</li>\n")
                     .arg(i + 1)
                     .arg(esc(r.kernel),
                          r.launches.empty() ? QStringLiteral("compiled, not launched")
                                             : QStringLiteral("%1 cycles").arg(r.launches.back().totalCycles));
        }
        h += QLatin1String("</ol>\n");
        for (int i = 0; i < sections.size(); ++i)
            h += QStringLiteral("<section>\n%1</section>\n").arg(kernelHtml(sections[i], QStringLiteral("k%1-").arg(i + 1)));
    }
    h += QLatin1String("</body></html>\n");
    return h;
}

QString htmlReport(const asc2::CompileReport &report, const QVector<ReportImage> &images, const ProfileRun *profile)
{
    return htmlReport({ReportSection{&report, images, profile}}, QString::fromStdString(report.kernel));
}

namespace {

/// The cores an image of the simulated run shows: @p current and the other
/// cores of its block when the trace has several per block (a MIX group: its
/// AIC and its one or two AIVs, "core3.cubecore0" -> "core3.veccore0",
/// "core3.veccore1").
QVector<int> sidesOf(const SimTrace &trace, int current)
{
    QVector<int> cores{current};
    if (current < 0 || current >= trace.cores.size())
        return cores;
    const QString block = trace.cores[current].section(QLatin1Char('.'), 0, 0);
    for (int i = 0; i < trace.cores.size(); ++i)
        if (i != current && trace.cores[i].section(QLatin1Char('.'), 0, 0) == block)
            cores << i;
    return cores;
}

} // namespace

QVector<ReportImage> renderReportImages(const ReportViews &views)
{
    QVector<ReportImage> images;
    const auto add = [&](const QString &title, InspectorCanvas *canvas, QSize size) {
        if (!canvas || !canvas->hasContent())
            return;
        if (const int h = canvas->preferredImageHeight(); h > 0)
            size.setHeight(h);
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        canvas->renderImage(size).save(&buffer, "PNG");
        images.push_back({title, png});
    };
    // A view of one core's simulated run, once per side of a MIX kernel.
    // Titles: "Sync timeline (simulated)", "Sync timeline (simulated, core0.veccore0)".
    const auto addSides = [&](const QString &title, const QStringList &qualifiers, auto *view, QSize size) {
        const int core = view->core();
        const QVector<int> sides = sidesOf(view->trace(), core);
        for (int c : sides) {
            view->setCore(c);
            QStringList q = qualifiers;
            if (sides.size() > 1)
                q << view->trace().cores.value(c);
            add(q.isEmpty() ? title : QStringLiteral("%1 (%2)").arg(title, q.join(QStringLiteral(", "))), view, size);
        }
        view->setCore(core);
    };
    add(QStringLiteral("UB map"), views.ubMap, {1200, 420});
    if (SyncTimelineView *sync = views.sync) {
        // The timeline in program order and, after a run, in simulated time.
        const auto mode = sync->mode();
        sync->setMode(SyncTimelineView::Mode::Static);
        add(QStringLiteral("Sync timeline (program order)"), sync, {1200, 360});
        sync->setMode(SyncTimelineView::Mode::Simulated);
        addSides(QStringLiteral("Sync timeline"), {QStringLiteral("simulated")}, sync, {1200, 360});
        sync->setMode(mode);
    }
    if (views.pingPong)
        addSides(QStringLiteral("Ping-pong schedule"), {}, views.pingPong, {1200, 420});
    add(QStringLiteral("Pipe utilization"), views.profile, {900, 260});
    return images;
}

namespace {

/// A section of @p report drawn with fresh, off-screen views of its last
/// launch; @p run receives the profile the section points to.
ReportSection renderReportSection(const ReportPtr &report, ProfileRun &run, const Theme &theme)
{
    UbMapView ubMap;
    SyncTimelineView sync;
    PingPongView pingPong;
    ProfileChart chart;
    for (InspectorCanvas *canvas : std::initializer_list<InspectorCanvas *>{&ubMap, &sync, &pingPong, &chart})
        canvas->setTheme(theme);
    ubMap.setReport(report);
    sync.setReport(report);
    const bool launched = !report->launches.empty();
    if (launched) {
        run = profileFromLaunch(*report, int(report->launches.size()) - 1);
        sync.setTrace(run.trace);
        pingPong.setTrace(run.trace);
        chart.setRuns(&run, nullptr);
    }
    return {report.get(), renderReportImages({&ubMap, &sync, &pingPong, &chart}), launched ? &run : nullptr};
}

} // namespace

bool writeHtmlReport(const QVector<ReportPtr> &reports, const QString &path, QString *error, const Theme &theme,
                     const ReportSection *shown)
{
    if (reports.isEmpty() || std::find(reports.begin(), reports.end(), nullptr) != reports.end()) {
        *error = QStringLiteral("nothing was compiled");
        return false;
    }
    std::vector<ProfileRun> runs(size_t(reports.size())); // stable addresses for the sections
    QVector<ReportSection> sections;
    for (int i = 0; i < reports.size(); ++i)
        sections.push_back(shown && shown->report == reports[i].get() ? *shown
                                                                      : renderReportSection(reports[i], runs[size_t(i)], theme));
    const QString title = reports.size() == 1 ? QString::fromStdString(reports[0]->kernel)
                                              : QString::fromStdString(reports[0]->sourceFile).section(QLatin1Char('/'), -1);
    const QByteArray bytes = htmlReport(sections, title).toUtf8();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool writeHtmlReport(const ReportPtr &report, const QString &path, QString *error, const Theme &theme)
{
    return writeHtmlReport(QVector<ReportPtr>{report}, path, error, theme);
}

} // namespace inspector
