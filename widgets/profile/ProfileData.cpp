#include "ProfileData.h"

#include "asc2/Driver/Pipeline.h"

#include <QDir>
#include <QHash>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

#include <algorithm>

namespace inspector {

CsvTable CsvTable::parse(const QString &text)
{
    CsvTable table;
    QVector<QStringList> records;
    QStringList record;
    QString cell;
    bool quoted = false;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"')) {
                if (i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                    cell += c;
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                cell += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            record << cell.trimmed();
            cell.clear();
        } else if (c == QLatin1Char('\n')) {
            record << cell.trimmed();
            cell.clear();
            records << record;
            record.clear();
        } else if (c != QLatin1Char('\r')) {
            cell += c;
        }
    }
    if (quoted) {
        table.error = QStringLiteral("unterminated quoted cell");
        return table;
    }
    if (!cell.isEmpty() || !record.isEmpty()) {
        record << cell.trimmed();
        records << record;
    }
    records.erase(std::remove_if(records.begin(), records.end(),
                                 [](const QStringList &r) { return r.size() == 1 && r[0].isEmpty(); }),
                  records.end());
    if (records.isEmpty()) {
        table.error = QStringLiteral("the file is empty");
        return table;
    }
    table.header = records.takeFirst();
    if (!table.header.isEmpty())
        table.header[0].remove(QChar(0xfeff)); // UTF-8 BOM
    for (int i = 0; i < records.size(); ++i) {
        if (records[i].size() != table.header.size()) {
            table.error = QStringLiteral("row %1 has %2 cells, the header %3").arg(i + 2).arg(records[i].size()).arg(table.header.size());
            return table;
        }
    }
    table.rows = records;
    return table;
}

namespace {
// A numeric cell: a number, or "N/A"/"" (unknown). Anything else is an error.
bool cellValue(const CsvTable &t, int row, int column, double *value, QString *error, const QString &file)
{
    const QString text = t.rows[row][column];
    if (text.isEmpty() || text.compare(QLatin1String("N/A"), Qt::CaseInsensitive) == 0) {
        *value = -1;
        return true;
    }
    bool ok = false;
    *value = text.toDouble(&ok);
    if (!ok)
        *error = QStringLiteral("%1 row %2, column %3: \"%4\" is not a number")
                     .arg(file)
                     .arg(row + 2)
                     .arg(t.header[column], text);
    return ok;
}

struct PipeColumns {
    Pipe pipe;
    const char *ratio;
    const char *time;
};
// Vector-core columns first: the kernels here run on AIV.
const PipeColumns kPipeUtilColumns[] = {
    {Pipe::V, "aiv_vec_ratio", "aiv_vec_time(us)"},
    {Pipe::MTE2, "aiv_mte2_ratio", "aiv_mte2_time(us)"},
    {Pipe::MTE3, "aiv_mte3_ratio", "aiv_mte3_time(us)"},
    {Pipe::S, "aiv_scalar_ratio", "aiv_scalar_time(us)"},
    {Pipe::M, "aic_cube_ratio", "aic_cube_time(us)"},
    {Pipe::M, "aic_mac_ratio", "aic_mac_time(us)"},
    {Pipe::MTE1, "aic_mte1_ratio", "aic_mte1_time(us)"},
    {Pipe::FIX, "aic_fixpipe_ratio", "aic_fixpipe_time(us)"},
    {Pipe::MTE2, "aic_mte2_ratio", "aic_mte2_time(us)"},
    {Pipe::MTE3, "aic_mte3_ratio", "aic_mte3_time(us)"},
    {Pipe::S, "aic_scalar_ratio", "aic_scalar_time(us)"},
};

// Averages the pipe columns over @p rows (blocks) into @p run.
bool readPipeColumns(const CsvTable &t, const QVector<int> &rows, const QString &file, ProfileRun &run, QString *error)
{
    bool any = false;
    for (const PipeColumns &pc : kPipeUtilColumns) {
        const int rc = t.column(QLatin1String(pc.ratio));
        const int tc = t.column(QLatin1String(pc.time));
        if (rc < 0)
            continue;
        any = true;
        double ratioSum = 0, timeSum = 0;
        int ratioN = 0, timeN = 0;
        for (int row : rows) {
            double v = 0;
            if (!cellValue(t, row, rc, &v, error, file))
                return false;
            if (v >= 0) {
                ratioSum += v;
                ++ratioN;
            }
            if (tc >= 0) {
                if (!cellValue(t, row, tc, &v, error, file))
                    return false;
                if (v >= 0) {
                    timeSum += v;
                    ++timeN;
                }
            }
        }
        const int p = int(pc.pipe);
        // aic_* columns of an AIV-only op are zero: keep the aiv_ value.
        if (ratioN && (run.pipeRatio[p] <= 0))
            run.pipeRatio[p] = ratioSum / ratioN;
        if (timeN && (run.pipeTimeUs[p] <= 0))
            run.pipeTimeUs[p] = timeSum / timeN;
    }
    if (!any)
        *error = QStringLiteral("%1: none of the pipe columns (aiv_vec_ratio, aiv_mte2_ratio, aic_cube_ratio, ...)").arg(file);
    return any;
}
} // namespace

ImportResult importPipeUtilization(const QString &csvText, ProfileRun run)
{
    ImportResult r;
    const CsvTable t = CsvTable::parse(csvText);
    if (!t.error.isEmpty()) {
        r.error = QStringLiteral("PipeUtilization.csv: %1").arg(t.error);
        return r;
    }
    if (t.column(QStringLiteral("block_id")) < 0) {
        r.error = QStringLiteral("PipeUtilization.csv: no block_id column: not a msprof op PipeUtilization table");
        return r;
    }
    if (t.rows.isEmpty()) {
        r.error = QStringLiteral("PipeUtilization.csv: no rows");
        return r;
    }
    QVector<int> rows;
    for (int i = 0; i < t.rows.size(); ++i)
        rows << i;
    if (!readPipeColumns(t, rows, QStringLiteral("PipeUtilization.csv"), run, &r.error))
        return r;
    if (run.blockDim <= 0)
        run.blockDim = int(t.rows.size());
    // Duration: the longest block.
    for (const char *col : {"aiv_time(us)", "aic_time(us)"}) {
        const int c = t.column(QLatin1String(col));
        if (c < 0)
            continue;
        for (int i = 0; i < t.rows.size(); ++i) {
            double v = 0;
            if (!cellValue(t, i, c, &v, &r.error, QStringLiteral("PipeUtilization.csv")))
                return r;
            if (run.durationUs < 0 || v > run.durationUs)
                run.durationUs = std::max(run.durationUs, v);
        }
    }
    const int cyc = t.column(QStringLiteral("aiv_total_cycles"));
    if (cyc >= 0) {
        double v = 0;
        if (cellValue(t, 0, cyc, &v, &r.error, QStringLiteral("PipeUtilization.csv")) && v > 0)
            run.cycles = v;
    }
    r.ok = true;
    r.run = run;
    return r;
}

ImportResult importOpBasicInfo(const QString &csvText, ProfileRun run)
{
    ImportResult r;
    const CsvTable t = CsvTable::parse(csvText);
    if (!t.error.isEmpty()) {
        r.error = QStringLiteral("OpBasicInfo.csv: %1").arg(t.error);
        return r;
    }
    const int name = t.column(QStringLiteral("Op Name"));
    const int duration = t.column(QStringLiteral("Task Duration(us)"));
    if (name < 0 || duration < 0) {
        r.error = QStringLiteral("OpBasicInfo.csv: missing column \"%1\"")
                      .arg(name < 0 ? QStringLiteral("Op Name") : QStringLiteral("Task Duration(us)"));
        return r;
    }
    if (t.rows.isEmpty()) {
        r.error = QStringLiteral("OpBasicInfo.csv: no rows");
        return r;
    }
    double v = 0;
    if (!cellValue(t, 0, duration, &v, &r.error, QStringLiteral("OpBasicInfo.csv")))
        return r;
    run.opName = t.rows[0][name];
    run.durationUs = v;
    const int block = t.column(QStringLiteral("Block Dim"));
    if (block >= 0)
        run.blockDim = t.rows[0][block].toInt();
    r.ok = true;
    r.run = run;
    return r;
}

ImportResult importOpSummary(const QString &csvText, const QString &preferredOp)
{
    ImportResult r;
    const CsvTable t = CsvTable::parse(csvText);
    if (!t.error.isEmpty()) {
        r.error = QStringLiteral("op_summary: %1").arg(t.error);
        return r;
    }
    const int name = t.column(QStringLiteral("Op Name"));
    const int duration = t.column(QStringLiteral("Task Duration(us)"));
    if (name < 0 || duration < 0) {
        r.error = QStringLiteral("op_summary: missing column \"%1\"")
                      .arg(name < 0 ? QStringLiteral("Op Name") : QStringLiteral("Task Duration(us)"));
        return r;
    }
    if (t.rows.isEmpty()) {
        r.error = QStringLiteral("op_summary: no rows");
        return r;
    }
    int row = 0;
    if (!preferredOp.isEmpty()) {
        for (int i = 0; i < t.rows.size(); ++i)
            if (t.rows[i][name].contains(preferredOp, Qt::CaseInsensitive)) {
                row = i;
                break;
            }
    }
    // Every operator over its launches, the most time first.
    const int type = t.column(QStringLiteral("OP Type"));
    QHash<QString, int> indexOf;
    double all = 0;
    for (int i = 0; i < t.rows.size(); ++i) {
        double us = 0;
        if (!cellValue(t, i, duration, &us, &r.error, QStringLiteral("op_summary")))
            return r;
        const QString op = t.rows[i][name];
        auto it = indexOf.find(op);
        if (it == indexOf.end()) {
            it = indexOf.insert(op, int(r.operators.size()));
            r.operators.push_back({op, type >= 0 ? t.rows[i][type] : QString()});
        }
        OperatorTotal &total = r.operators[*it];
        ++total.calls;
        total.totalUs += us;
        total.maxUs = std::max(total.maxUs, us);
        all += us;
    }
    for (OperatorTotal &total : r.operators)
        total.share = all > 0 ? total.totalUs / all : 0;
    std::stable_sort(r.operators.begin(), r.operators.end(),
                     [](const OperatorTotal &a, const OperatorTotal &b) { return a.totalUs > b.totalUs; });
    if (r.operators.size() > 1)
        r.notes << QStringLiteral("op_summary has %1 operators (%2 launches); showing %3: choose another in Operators")
                       .arg(r.operators.size())
                       .arg(t.rows.size())
                       .arg(t.rows[row][name]);
    ProfileRun run;
    run.source = QStringLiteral("op_summary");
    run.opName = t.rows[row][name];
    double v = 0;
    if (!cellValue(t, row, duration, &v, &r.error, QStringLiteral("op_summary")))
        return r;
    run.durationUs = v;
    const int block = t.column(QStringLiteral("Block Num"));
    if (block >= 0)
        run.blockDim = t.rows[row][block].toInt();
    QString pipeError;
    if (!readPipeColumns(t, {row}, QStringLiteral("op_summary"), run, &pipeError)) {
        if (pipeError.contains(QLatin1String("not a number"))) {
            r.error = pipeError;
            return r;
        }
        r.notes << QStringLiteral("op_summary has no pipe ratio columns (collected without --aic-metrics=PipeUtilization?)");
    }
    const int cyc = t.column(QStringLiteral("aiv_total_cycles"));
    if (cyc >= 0 && cellValue(t, row, cyc, &v, &r.error, QStringLiteral("op_summary")) && v > 0)
        run.cycles = v;
    run.label = QStringLiteral("%1 (op_summary)").arg(run.opName);
    r.ok = true;
    r.run = run;
    return r;
}

namespace {
// Per-line (and per-line, per-pipe) time of a trace, averaged over its cores.
void setLineTimes(ProfileRun &run, const SimTrace &trace)
{
    const double cores = std::max<qsizetype>(1, trace.cores.size());
    const QHash<int, double> lines = trace.lineTime();
    run.lineUs.clear();
    for (auto it = lines.cbegin(); it != lines.cend(); ++it)
        run.lineUs.insert(it.key(), it.value() / cores);
    const QHash<int, double> waits = trace.lineWaitTime();
    run.lineWaitUs.clear();
    for (auto it = waits.cbegin(); it != waits.cend(); ++it)
        run.lineWaitUs.insert(it.key(), it.value() / cores);
    run.linePipeUs = trace.linePipeTime();
    for (QVector<double> &pipes : run.linePipeUs)
        for (double &v : pipes)
            v /= cores;
}
} // namespace

ImportResult importTraceJson(const QByteArray &json)
{
    ImportResult r;
    SimTrace trace = SimTrace::parse(json);
    if (!trace.error.isEmpty() || trace.isEmpty()) {
        r.error = QStringLiteral("trace.json: %1").arg(trace.error.isEmpty() ? QStringLiteral("no instruction events on pipe lanes")
                                                                             : trace.error);
        return r;
    }
    ProfileRun run;
    run.source = QStringLiteral("trace.json");
    run.durationUs = trace.endTime;
    run.blockDim = int(trace.cores.size());
    const QVector<double> busy = trace.pipeBusy();
    for (int p = 0; p < kPipeCount; ++p) {
        run.pipeTimeUs[p] = busy[p] / std::max<qsizetype>(1, trace.cores.size());
        run.pipeRatio[p] = trace.endTime > 0 ? run.pipeTimeUs[p] / trace.endTime : -1;
    }
    setLineTimes(run, trace);
    run.sourceFile = trace.sourceFile();
    run.trace = std::move(trace);
    r.ok = true;
    r.run = run;
    return r;
}

namespace {
QString readText(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, f.errorString());
        return {};
    }
    return QString::fromUtf8(f.readAll());
}
} // namespace

ImportResult importProfilePath(const QString &path, const QString &preferredOp)
{
    ImportResult r;
    const QFileInfo info(path);
    if (!info.exists()) {
        r.error = QStringLiteral("%1 does not exist").arg(path);
        return r;
    }
    if (info.isFile()) {
        const QString name = info.fileName();
        if (name.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
            QFile f(path);
            if (!f.open(QIODevice::ReadOnly)) {
                r.error = QStringLiteral("cannot read %1: %2").arg(path, f.errorString());
                return r;
            }
            r = importTraceJson(f.readAll());
        } else if (name.startsWith(QLatin1String("op_summary"))) {
            QString error;
            const QString text = readText(path, &error);
            if (!error.isEmpty()) {
                r.error = error;
                return r;
            }
            r = importOpSummary(text, preferredOp);
        } else if (name.startsWith(QLatin1String("PipeUtilization"))) {
            QString error;
            const QString text = readText(path, &error);
            if (!error.isEmpty()) {
                r.error = error;
                return r;
            }
            ProfileRun run;
            run.source = QStringLiteral("msprof op");
            r = importPipeUtilization(text, run);
        } else {
            r.error = QStringLiteral("%1: not a msprof file (expected a directory, PipeUtilization.csv, op_summary_*.csv or trace.json)").arg(name);
            return r;
        }
        if (r.ok && r.run.label.isEmpty())
            r.run.label = QStringLiteral("%1 (%2)").arg(r.run.opName.isEmpty() ? info.fileName() : r.run.opName, r.run.source);
        return r;
    }
    // A directory: msprof op (OpBasicInfo.csv + PipeUtilization.csv), maybe
    // with simulator/trace.json, or an msprof output holding op_summary_*.csv.
    const QDir dir(path);
    ProfileRun run;
    run.source = QStringLiteral("msprof op");
    bool found = false;
    QString error;
    if (dir.exists(QStringLiteral("OpBasicInfo.csv"))) {
        const QString text = readText(dir.filePath(QStringLiteral("OpBasicInfo.csv")), &error);
        const ImportResult basic = error.isEmpty() ? importOpBasicInfo(text, run) : ImportResult{false, error, {}, {}};
        if (!basic.ok)
            return basic;
        run = basic.run;
        found = true;
    }
    if (dir.exists(QStringLiteral("PipeUtilization.csv"))) {
        const QString text = readText(dir.filePath(QStringLiteral("PipeUtilization.csv")), &error);
        const ImportResult pipes = error.isEmpty() ? importPipeUtilization(text, run) : ImportResult{false, error, {}, {}};
        if (!pipes.ok)
            return pipes;
        run = pipes.run;
        found = true;
    }
    for (const QString &trace : {QStringLiteral("simulator/trace.json"), QStringLiteral("trace.json")}) {
        if (!dir.exists(trace))
            continue;
        QFile f(dir.filePath(trace));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const ImportResult t = importTraceJson(f.readAll());
        if (!t.ok) {
            if (!found)
                return t;
            r.notes << t.error;
            break;
        }
        if (!found) {
            run = t.run;
            run.source = QStringLiteral("msprof op simulator");
        } else {
            run.trace = t.run.trace;
            run.sourceFile = t.run.sourceFile;
            run.lineUs = t.run.lineUs;
            run.lineWaitUs = t.run.lineWaitUs;
            run.linePipeUs = t.run.linePipeUs;
        }
        found = true;
        break;
    }
    if (!found) {
        QDirIterator it(path, {QStringLiteral("op_summary*.csv")}, QDir::Files, QDirIterator::Subdirectories);
        if (it.hasNext()) {
            r = importProfilePath(it.next(), preferredOp);
            return r;
        }
        r.error = QStringLiteral("%1: no OpBasicInfo.csv, PipeUtilization.csv, trace.json or op_summary_*.csv").arg(path);
        return r;
    }
    run.label = QStringLiteral("%1 (%2)").arg(run.opName.isEmpty() ? info.fileName() : run.opName, run.source);
    r.ok = true;
    r.run = run;
    return r;
}

bool sameSourceFile(const QString &runFile, const QString &editorFile)
{
    return runFile.isEmpty() || editorFile.isEmpty() || QFileInfo(runFile).fileName() == QFileInfo(editorFile).fileName();
}

bool sameOperator(const QString &a, const QString &b)
{
    return a.isEmpty() || b.isEmpty() || a.contains(b, Qt::CaseInsensitive) || b.contains(a, Qt::CaseInsensitive);
}

SimTrace withLinesOf(SimTrace trace, const QString &editorFile)
{
    for (TraceEvent &e : trace.events)
        if (e.line > 0 && !sameSourceFile(e.file, editorFile))
            e.line = 0;
    return trace;
}

ProfileRun profileFromLaunch(const asc2::CompileReport &report, int launch)
{
    ProfileRun run;
    if (launch < 0 || launch >= int(report.launches.size()))
        return run;
    const asc2::LaunchRecord &l = report.launches[launch];
    run.source = QStringLiteral("simulated");
    run.opName = QString::fromStdString(report.kernel);
    run.sourceFile = QString::fromStdString(report.sourceFile);
    QString options;
    for (const char *key : {"reuse_alloc", "insert_sync"}) {
        const auto it = report.options.find(key);
        if (it != report.options.end())
            options += QStringLiteral(" %1=%2").arg(QLatin1String(key), QString::fromStdString(it->second));
    }
    run.label = QStringLiteral("%1 @ %2, launch %3%4")
                    .arg(run.opName, QString::fromStdString(report.target))
                    .arg(launch + 1)
                    .arg(options);
    run.durationUs = l.timeUs;
    run.cycles = double(l.totalCycles);
    run.blockDim = l.blockNum;
    for (const asc2::PipeTotals &p : l.pipes) {
        const int i = int(p.pipe);
        run.pipeRatio[i] = p.utilization;
        run.pipeBytes[i] = double(p.bytes);
        if (l.totalCycles > 0 && l.blockNum > 0)
            run.pipeTimeUs[i] = p.utilization * l.timeUs;
    }
    std::string archError;
    if (const std::optional<asc2::ArchModel> arch = asc2::loadArch(report.target, "", archError)) {
        const double bytesPerCycleToGBps = arch->clockMHz / 1000.0;
        run.peaks.platform = QString::fromStdString(report.target);
        run.peaks.hbmGBps = arch->hbmBytesPerCycle * bytesPerCycleToGBps;
        run.peaks.gmReadGBpsPerCore = arch->gmToUbBytesPerCycle * bytesPerCycleToGBps;
        run.peaks.gmToL1GBpsPerCore = arch->gmToL1BytesPerCycle * bytesPerCycleToGBps;
        run.peaks.vectorCores = arch->aivCores;
        run.peaks.cubeCores = arch->aicCores;
        run.peaks.launchUs = (arch->launchCycles + arch->blockStartCycles + arch->blockEndCycles) / arch->clockMHz;
    }
    if (l.trace)
        run.trace = SimTrace::fromTrace(*l.trace);
    else
        run.trace.error = QStringLiteral("the trace is empty"); // only the latest launch keeps one
    setLineTimes(run, run.trace);
    return run;
}

PointHeat pointHeat(const asc2::CompileReport &report, const ProfileRun &run)
{
    PointHeat h;
    h.runLabel = run.label;
    const StaticSchedule schedule = StaticSchedule::fromReport(report);
    const int n = int(schedule.ops.size());
    if (n == 0)
        return h;
    h.value.fill(0.0, n);
    h.pipe.resize(n);
    for (int i = 0; i < n; ++i)
        h.pipe[i] = schedule.ops[i].pipe;
    const QString sourceName = QFileInfo(QString::fromStdString(report.sourceFile)).fileName();

    // Instructions of this source file, by line.
    QHash<int, QVector<int>> pointsOfLine;
    for (int i = 0; i < n; ++i)
        if (schedule.ops[i].line > 0)
            pointsOfLine[schedule.ops[i].line].push_back(i);
    bool sameSource = false;
    QString otherSource;
    for (const TraceEvent &e : run.trace.events) {
        if (e.line <= 0)
            continue;
        if (!sourceName.isEmpty() && QFileInfo(e.file).fileName() == sourceName) {
            sameSource = true;
            break;
        }
        if (otherSource.isEmpty())
            otherSource = QFileInfo(e.file).fileName();
    }
    if (sameSource) {
        h.basis = PointHeat::Basis::Trace;
        const double cores = std::max<qsizetype>(1, run.trace.cores.size());
        for (const TraceEvent &e : run.trace.events) {
            if (e.isWaiting() || e.duration <= 0)
                continue; // waiting (flags, barriers) is no work of the point
            const double us = e.duration / cores;
            const QVector<int> points = e.line > 0 && QFileInfo(e.file).fileName() == sourceName
                                            ? pointsOfLine.value(e.line)
                                            : QVector<int>();
            QVector<int> chosen;
            for (int i : points)
                if (schedule.ops[i].name == e.name)
                    chosen << i;
            if (chosen.isEmpty())
                for (int i : points)
                    if (schedule.ops[i].pipe == e.pipe)
                        chosen << i;
            if (chosen.isEmpty())
                chosen = points;
            if (chosen.isEmpty()) {
                h.unplaced += us;
                continue;
            }
            for (int i : chosen)
                h.value[i] += us / chosen.size();
        }
        for (double v : h.value)
            h.total += v;
        h.note = QStringLiteral("instruction time per program point (trace of %1)").arg(sourceName);
        if (h.unplaced > 0)
            h.note += QStringLiteral("; %1% of it on no program point")
                          .arg(100 * h.unplaced / std::max(1e-12, h.total + h.unplaced), 0, 'f', 0);
    } else {
        bool any = false;
        for (double r : run.pipeRatio)
            any = any || r >= 0;
        if (!any)
            return h;
        h.basis = PointHeat::Basis::PipeUtilization;
        // A flag op only orders its pipe: the pipe is not busy for it.
        for (int i = 0; i < n; ++i)
            if (schedule.ops[i].kind == StaticOp::Kind::Op)
                h.value[i] = std::max(0.0, run.pipeRatio[int(h.pipe[i])]);
        h.note = QStringLiteral("busy ratio of each op's pipe");
        if (!otherSource.isEmpty())
            h.note += QStringLiteral(" (the trace is of %1, not %2)").arg(otherSource, sourceName);
    }
    double peak = 0;
    for (double v : h.value)
        peak = std::max(peak, v);
    h.heat.resize(n);
    for (int i = 0; i < n; ++i)
        h.heat[i] = peak > 0 ? h.value[i] / peak : 0;
    return h;
}

double cyclesPerUs(const ProfileRun &run)
{
    return run.cycles > 0 && run.durationUs > 0 ? run.cycles / run.durationUs : -1;
}

QHash<int, LineCost> lineCosts(const ProfileRun &run)
{
    QHash<int, LineCost> out;
    double total = 0, peak = 0;
    for (double v : run.lineUs) {
        total += v;
        peak = std::max(peak, v);
    }
    const double clock = cyclesPerUs(run);
    for (auto it = run.lineUs.cbegin(); it != run.lineUs.cend(); ++it) {
        LineCost c;
        c.us = it.value();
        c.heat = peak > 0 ? c.us / peak : 0;
        c.share = total > 0 ? c.us / total : 0;
        c.cycles = clock > 0 ? c.us * clock : -1;
        c.pipeUs = run.linePipeUs.value(it.key());
        out.insert(it.key(), c);
    }
    return out;
}

} // namespace inspector
