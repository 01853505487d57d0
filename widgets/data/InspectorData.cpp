#include "InspectorData.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QMap>
#include <QRegularExpression>

#include <algorithm>
#include <numeric>

namespace inspector {

int pipeIndex(const QString &name)
{
    const std::optional<Pipe> pipe = asc2::parsePipe(name.trimmed().toStdString());
    return pipe && *pipe != Pipe::ALL ? int(*pipe) : -1;
}

QString pipeLabel(Pipe pipe)
{
    return QString::fromLatin1(asc2::pipeName(pipe));
}

QString roleLabel(const std::optional<asc2::SyncRole> &role)
{
    return role ? QString::fromLatin1(asc2::syncRoleName(*role)) : QString();
}

int slotOf(const asc2::BufferRecord &buffer)
{
    return buffer.slot;
}

QVector<int> inPlacePredecessors(const std::vector<asc2::BufferRecord> &buffers)
{
    // By the point a live range ends at: each buffer looks only at the
    // buffers ending where it begins, not at all of them.
    QHash<int, QVector<int>> endingAt;
    for (size_t i = 0; i < buffers.size(); ++i)
        endingAt[buffers[i].liveEnd].push_back(int(i));
    QVector<int> out(int(buffers.size()), -1);
    for (size_t i = 0; i < buffers.size(); ++i) {
        const asc2::BufferRecord &b = buffers[i];
        for (int j : endingAt.value(b.liveStart)) {
            const asc2::BufferRecord &a = buffers[size_t(j)];
            if (j != int(i) && a.space == b.space && a.liveStart < b.liveStart && a.offset < b.offset + b.size
                && b.offset < a.offset + a.size) {
                out[int(i)] = j;
                break;
            }
        }
    }
    return out;
}

QStringList tilesOf(const std::vector<asc2::BufferRecord> &buffers)
{
    // The lowering numbers every buffer of a kind in IR order ("broadcast",
    // "broadcast_1", ...), and the k-th copy of a kind in slot s comes from the
    // k-th buffer of that kind in slot 0: unrolling clones the body in order.
    static const QRegularExpression suffix(QStringLiteral("_\\d+$"));
    const auto kind = [](const asc2::BufferRecord &b) {
        return QString::fromStdString(b.name).remove(suffix) + QLatin1Char('/') + QString::fromStdString(b.space);
    };
    QHash<QString, QStringList> firstCopies; // kind -> names in slot 0
    for (const asc2::BufferRecord &b : buffers)
        if (b.slot <= 0)
            firstCopies[kind(b)] << QString::fromStdString(b.name);
    QHash<QPair<QString, int>, int> seen; // (kind, slot) -> copies so far
    QStringList out;
    for (const asc2::BufferRecord &b : buffers) {
        const QString name = QString::fromStdString(b.name);
        if (b.slot <= 0) {
            out << name;
            continue;
        }
        const QString k = kind(b);
        const int nth = seen[{k, b.slot}]++;
        const QStringList &first = firstCopies[k];
        out << (nth < first.size() ? first[nth] : name);
    }
    return out;
}

// --- static schedule

namespace {
StaticOp::Kind syncKind(asc2::SyncKind kind)
{
    switch (kind) {
    // A buffer id's release lets the next taker go, like a set_flag its wait.
    case asc2::SyncKind::SetFlag:
    case asc2::SyncKind::RlsBuf:
        return StaticOp::Kind::SetFlag;
    case asc2::SyncKind::WaitFlag:
    case asc2::SyncKind::GetBuf:
        return StaticOp::Kind::WaitFlag;
    case asc2::SyncKind::PipeBarrier:
        break;
    }
    return StaticOp::Kind::Barrier;
}

} // namespace

StaticSchedule StaticSchedule::fromReport(const asc2::CompileReport &report)
{
    StaticSchedule s;
    s.ops.reserve(int(report.points.size()));
    for (size_t i = 0; i < report.points.size(); ++i) {
        const asc2::ProgramPointRecord &point = report.points[i];
        StaticOp op;
        op.point = int(i);
        op.text = QString::fromStdString(point.text);
        op.name = QString::fromStdString(point.name);
        op.pipe = laneOf(point.pipe);
        op.line = point.loc.line;
        s.ops.push_back(op);
    }
    for (const asc2::SyncRecord &r : report.sync) {
        if (r.point < 0 || r.point >= s.ops.size())
            continue;
        StaticOp &op = s.ops[r.point];
        op.kind = syncKind(r.kind);
        op.srcPipe = laneOf(r.srcPipe);
        op.dstPipe = laneOf(r.dstPipe);
        op.eventId = r.eventId;
        op.reason = QString::fromStdString(r.reason);
        op.role = r.role;
    }
    // Which wait takes which set, and where that idles a pipe, is the
    // compiler's (StaticSchedule on the final IR); the views only draw it.
    for (const asc2::ScheduleEdgeRecord &r : report.scheduleEdges) {
        if (r.setPoint < 0 || r.setPoint >= s.ops.size() || r.waitPoint < 0 || r.waitPoint >= s.ops.size())
            continue;
        SyncEdge edge;
        edge.setPoint = r.setPoint;
        edge.waitPoint = r.waitPoint;
        edge.src = laneOf(r.src);
        edge.dst = laneOf(r.dst);
        edge.eventId = r.eventId;
        edge.reason = QString::fromStdString(r.reason);
        edge.wraps = r.wraps;
        s.edges.push_back(edge);
    }
    for (const asc2::ScheduleStallRecord &r : report.scheduleStalls) {
        StaticStall stall;
        stall.pipe = r.pipe;
        stall.from = r.from;
        stall.to = r.to;
        stall.edge = r.edge;
        stall.producer = r.producer;
        stall.lastOwn = r.lastOwn;
        s.stalls.push_back(stall);
    }
    return s;
}

// --- simulated trace

namespace {
QString jsonString(const QJsonValue &v)
{
    // All digits: flow ids of the simulator's later cores are above 2^32.
    return v.isString() ? v.toString() : v.isDouble() ? QString::number(v.toDouble(), 'g', 17) : QString();
}

// What an imported event is, from its name: files from msprof name flag ops
// SET_FLAG/WAIT_FLAG, ours by their op (ascendc.set_flag, ...).
TraceEvent::Kind kindOfName(const QString &name)
{
    if (name.contains(QLatin1String("set_flag"), Qt::CaseInsensitive))
        return TraceEvent::Kind::Set;
    if (name.contains(QLatin1String("wait_flag"), Qt::CaseInsensitive))
        return TraceEvent::Kind::Wait;
    if (name.contains(QLatin1String("barrier")))
        return TraceEvent::Kind::Barrier;
    return TraceEvent::Kind::Op;
}

// The flag of an imported set/wait from its msprof detail,
// "PIPE:MTE2, TRIGGER PIPE:V, FLAG ID:0".
void readFlagDetail(TraceEvent &e)
{
    static const QRegularExpression id(QStringLiteral("FLAG ID:\\s*(\\d+)"));
    static const QRegularExpression pipes(QStringLiteral("(?:^|[\\s,])PIPE:\\s*(\\w+).*TRIGGER PIPE:\\s*(\\w+)"));
    if (const QRegularExpressionMatch m = id.match(e.detail); m.hasMatch())
        e.flagId = m.captured(1).toInt();
    if (const QRegularExpressionMatch m = pipes.match(e.detail); m.hasMatch()) {
        const int src = pipeIndex(m.captured(1)), dst = pipeIndex(m.captured(2));
        if (src >= 0 && dst >= 0)
            e.flagPipes = std::pair{Pipe(src), Pipe(dst)};
    }
}
} // namespace

SimTrace SimTrace::parse(const QByteArray &json)
{
    SimTrace trace;
    if (json.trimmed().isEmpty()) {
        trace.error = QStringLiteral("the trace is empty");
        return trace;
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError) {
        trace.error = QStringLiteral("not valid JSON at offset %1: %2").arg(error.offset).arg(error.errorString());
        return trace;
    }
    QJsonArray events;
    if (doc.isObject()) {
        const QJsonValue v = doc.object().value(QLatin1String("traceEvents"));
        if (!v.isArray()) {
            trace.error = QStringLiteral("no \"traceEvents\" array: not a Chrome trace");
            return trace;
        }
        events = v.toArray();
    } else if (doc.isArray()) {
        events = doc.array(); // the bare-array form of the Chrome trace format
    } else {
        trace.error = QStringLiteral("not a Chrome trace");
        return trace;
    }

    // Lane names: tids may be numbers named by thread_name metadata; pids
    // (cores) may be numbers named by process_name.
    QHash<QString, QString> laneName, processName;
    for (const QJsonValue &v : events) {
        const QJsonObject e = v.toObject();
        if (e.value(QLatin1String("ph")).toString() != QLatin1String("M"))
            continue;
        const QString name = e.value(QLatin1String("args")).toObject().value(QLatin1String("name")).toString();
        if (e.value(QLatin1String("name")).toString() == QLatin1String("thread_name"))
            laneName.insert(jsonString(e.value(QLatin1String("pid"))) + QLatin1Char('/') + jsonString(e.value(QLatin1String("tid"))),
                            name);
        else if (e.value(QLatin1String("name")).toString() == QLatin1String("process_name") && !name.isEmpty())
            processName.insert(jsonString(e.value(QLatin1String("pid"))), name);
    }
    QHash<QString, int> coreOf;
    const auto core = [&](const QJsonValue &pid) {
        const QString name = jsonString(pid);
        auto it = coreOf.find(name);
        if (it == coreOf.end()) {
            it = coreOf.insert(name, int(trace.cores.size()));
            trace.cores << processName.value(name, name);
        }
        return it.value();
    };
    const auto pipeOf = [&](const QJsonObject &e) {
        const QString tid = jsonString(e.value(QLatin1String("tid")));
        const QString named = laneName.value(jsonString(e.value(QLatin1String("pid"))) + QLatin1Char('/') + tid, tid);
        return pipeIndex(named);
    };

    // A flow's start may come after its end in the file (ours are in order
    // of the instructions' start, and a wait often starts before its set).
    QHash<QString, QJsonObject> flowStart; // pid/id -> 's' event
    for (const QJsonValue &v : events) {
        const QJsonObject e = v.toObject();
        if (e.value(QLatin1String("ph")).toString() == QLatin1String("s"))
            flowStart.insert(jsonString(e.value(QLatin1String("pid"))) + QLatin1Char('/') + jsonString(e.value(QLatin1String("id"))), e);
    }
    QHash<QString, QJsonObject> openB;     // pid/tid/name -> 'B' event
    int skipped = 0;
    for (const QJsonValue &v : events) {
        if (!v.isObject()) {
            ++skipped;
            continue;
        }
        QJsonObject e = v.toObject();
        const QString ph = e.value(QLatin1String("ph")).toString();
        if (ph == QLatin1String("B")) {
            openB.insert(jsonString(e.value(QLatin1String("pid"))) + jsonString(e.value(QLatin1String("tid")))
                             + e.value(QLatin1String("name")).toString(), e);
            continue;
        }
        if (ph == QLatin1String("E")) {
            const QString key = jsonString(e.value(QLatin1String("pid"))) + jsonString(e.value(QLatin1String("tid")))
                                + e.value(QLatin1String("name")).toString();
            if (!openB.contains(key))
                continue;
            QJsonObject b = openB.take(key);
            b.insert(QLatin1String("dur"), e.value(QLatin1String("ts")).toDouble() - b.value(QLatin1String("ts")).toDouble());
            e = b;
        } else if (ph == QLatin1String("s")) {
            continue;
        } else if (ph == QLatin1String("f") || ph == QLatin1String("t")) {
            const QString key = jsonString(e.value(QLatin1String("pid"))) + QLatin1Char('/') + jsonString(e.value(QLatin1String("id")));
            const auto it = flowStart.constFind(key);
            if (it == flowStart.cend())
                continue;
            const int src = pipeOf(*it), dst = pipeOf(e);
            if (src < 0 || dst < 0)
                continue;
            TraceFlow flow;
            flow.core = core(e.value(QLatin1String("pid")));
            flow.src = Pipe(src);
            flow.dst = Pipe(dst);
            flow.srcTime = it->value(QLatin1String("ts")).toDouble();
            flow.dstTime = e.value(QLatin1String("ts")).toDouble();
            flow.category = e.value(QLatin1String("cat")).toString();
            trace.flows.push_back(flow);
            continue;
        } else if (ph != QLatin1String("X")) {
            continue; // metadata, counters
        }
        const int pipe = pipeOf(e);
        if (pipe < 0)
            continue; // lanes that are no pipe (cache_time, USERMARK, ...)
        if (!e.value(QLatin1String("ts")).isDouble() || !e.value(QLatin1String("dur")).isDouble()) {
            ++skipped;
            continue;
        }
        TraceEvent ev;
        ev.core = core(e.value(QLatin1String("pid")));
        ev.pipe = Pipe(pipe);
        ev.name = e.value(QLatin1String("name")).toString();
        ev.start = e.value(QLatin1String("ts")).toDouble();
        ev.duration = qMax(0.0, e.value(QLatin1String("dur")).toDouble());
        const QJsonObject args = e.value(QLatin1String("args")).toObject();
        const QString code = args.value(QLatin1String("code")).toString();
        const int colon = int(code.lastIndexOf(QLatin1Char(':')));
        if (colon > 0) {
            ev.file = code.left(colon);
            ev.line = code.mid(colon + 1).toInt();
        }
        ev.detail = args.value(QLatin1String("detail")).toString();
        ev.kind = kindOfName(ev.name);
        if (ev.kind == TraceEvent::Kind::Set || ev.kind == TraceEvent::Kind::Wait)
            readFlagDetail(ev);
        trace.endTime = qMax(trace.endTime, ev.end());
        trace.events.push_back(ev);
    }
    std::stable_sort(trace.events.begin(), trace.events.end(), [](const TraceEvent &a, const TraceEvent &b) {
        return a.core != b.core ? a.core < b.core : a.start < b.start;
    });
    for (int i = 0; i < trace.events.size(); ++i)
        if (trace.events[i].isWait() && trace.events[i].duration > 0)
            trace.stalls.push_back(i);
    if (trace.events.isEmpty() && skipped > 0)
        trace.error = QStringLiteral("%1 trace events without numeric ts/dur").arg(skipped);
    return trace;
}

QString SimTrace::sourceFile() const
{
    QHash<QString, int> count;
    for (const TraceEvent &e : events)
        if (e.line > 0 && !e.file.isEmpty())
            ++count[e.file];
    QString best;
    for (auto it = count.cbegin(); it != count.cend(); ++it)
        if (best.isEmpty() || it.value() > count.value(best) || (it.value() == count.value(best) && it.key() < best))
            best = it.key();
    return best;
}

SimTrace SimTrace::fromTrace(const asc2::sim::Trace &in)
{
    namespace sim = asc2::sim;
    SimTrace trace;
    // Cores in order of their first event, named as msprof names them.
    // Key: block * 4 + 0 for its AIC, 1 + sub for its AIVs.
    QHash<qint64, int> coreOf;
    const auto core = [&](const sim::TraceEvent &e) {
        const qint64 key = qint64(e.core) * 4 + (e.cube ? 0 : 1 + e.sub);
        auto it = coreOf.find(key);
        if (it == coreOf.end()) {
            it = coreOf.insert(key, int(trace.cores.size()));
            trace.cores << QStringLiteral("core%1.%2").arg(e.core).arg(e.cube ? QStringLiteral("cubecore0") : QStringLiteral("veccore%1").arg(e.sub));
        }
        return it.value();
    };
    QVector<int> index(int(in.events.size()), -1); // trace event -> ours
    for (size_t i = 0; i < in.events.size(); ++i) {
        const sim::TraceEvent &e = in.events[i];
        if (e.pipe == Pipe::ALL)
            continue; // no lane
        TraceEvent ev;
        ev.core = core(e);
        ev.pipe = e.pipe;
        ev.name = QString::fromStdString(in.nameOf(e));
        ev.start = double(e.start) / in.clockMHz;
        ev.duration = double(e.end - e.start) / in.clockMHz;
        if (e.point >= 0 && size_t(e.point) < in.pointLocs.size()) {
            const sim::SourceLoc &loc = in.pointLocs[e.point];
            ev.file = QString::fromStdString(loc.file);
            ev.line = loc.line;
        }
        const bool flag = sim::isFlagSet(e) || sim::isFlagWait(e);
        ev.detail = flag ? QString::fromStdString(sim::flagDetail(e)) : e.bytes ? QStringLiteral("%1 bytes").arg(e.bytes) : QString();
        ev.bytes = flag ? 0 : e.bytes;
        switch (e.op) {
        case sim::Opcode::SetFlag:
        case sim::Opcode::WaitFlag:
            // The flag id and pipe pair of one core; a cross-core flag's id
            // is of another id space.
            ev.flagId = e.eventId;
            ev.flagPipes = std::pair{e.flagSrc, e.flagDst};
            [[fallthrough]];
        case sim::Opcode::CrossCoreSetFlag:
        case sim::Opcode::CrossCoreWaitFlag:
            ev.kind = sim::isFlagSet(e) ? TraceEvent::Kind::Set : TraceEvent::Kind::Wait;
            break;
        case sim::Opcode::PipeBarrier:
            ev.kind = TraceEvent::Kind::Barrier;
            break;
        default:
            break;
        }
        trace.endTime = qMax(trace.endTime, ev.end());
        index[int(i)] = int(trace.events.size());
        trace.events.push_back(ev);
    }
    // By (core, start) as parse() orders them; `index` follows.
    QVector<int> order(trace.events.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const TraceEvent &x = trace.events[a], &y = trace.events[b];
        return x.core != y.core ? x.core < y.core : x.start < y.start;
    });
    QVector<TraceEvent> sorted;
    QVector<int> at(order.size());
    for (int k = 0; k < order.size(); ++k) {
        sorted.push_back(trace.events[order[k]]);
        at[order[k]] = k;
    }
    trace.events = std::move(sorted);
    for (int &i : index)
        if (i >= 0)
            i = at[i];
    // Arrows within a core (a view shows one): from the set when it fires to
    // the wait when it lets its pipe go.
    for (const sim::FlagPair &pair : in.pairs) {
        const int set = index[pair.set], wait = index[pair.wait];
        if (set < 0 || wait < 0 || trace.events[set].core != trace.events[wait].core)
            continue;
        const sim::TraceEvent &e = in.events[pair.wait];
        TraceFlow flow;
        flow.core = trace.events[wait].core;
        flow.src = trace.events[set].pipe;
        flow.dst = trace.events[wait].pipe;
        flow.srcTime = in.us(in.events[pair.set].end);
        flow.dstTime = in.us(e.end);
        flow.category = pipeLabel(e.flagSrc) + QStringLiteral("To") + pipeLabel(e.flagDst);
        trace.flows.push_back(flow);
    }
    for (const sim::Stall &stall : in.stalls)
        if (index[stall.wait] >= 0)
            trace.stalls.push_back(index[stall.wait]);
    std::sort(trace.stalls.begin(), trace.stalls.end());
    return trace;
}

QVector<TraceEvent> SimTrace::eventsOfCore(int core) const
{
    QVector<TraceEvent> out;
    for (const TraceEvent &e : events)
        if (e.core == core)
            out.push_back(e);
    return out;
}

QVector<TraceFlow> SimTrace::flowsOfCore(int core) const
{
    QVector<TraceFlow> out;
    for (const TraceFlow &f : flows)
        if (f.core == core)
            out.push_back(f);
    return out;
}

QHash<int, double> SimTrace::lineTime(int core) const
{
    QHash<int, double> out;
    for (const TraceEvent &e : events)
        if ((core < 0 || e.core == core) && e.line > 0 && !e.isWaiting())
            out[e.line] += e.duration;
    return out;
}

QHash<int, double> SimTrace::lineWaitTime(int core) const
{
    QHash<int, double> out;
    for (const TraceEvent &e : events)
        if ((core < 0 || e.core == core) && e.line > 0 && e.isWaiting())
            out[e.line] += e.duration;
    return out;
}

QHash<int, QVector<double>> SimTrace::linePipeTime(int core) const
{
    QHash<int, QVector<double>> out;
    for (const TraceEvent &e : events) {
        if ((core >= 0 && e.core != core) || e.line <= 0 || e.isWaiting())
            continue;
        QVector<double> &pipes = out[e.line];
        if (pipes.isEmpty())
            pipes.resize(kPipeCount, 0.0);
        pipes[int(e.pipe)] += e.duration;
    }
    return out;
}

QVector<double> SimTrace::pipeBusy(int core) const
{
    QVector<double> out(kPipeCount, 0.0);
    for (const TraceEvent &e : events)
        if ((core < 0 || e.core == core) && !e.isWaiting())
            out[int(e.pipe)] += e.duration;
    return out;
}

QVector<Iteration> iterationsOf(const QVector<TraceEvent> &coreEvents)
{
    QVector<Iteration> out;
    const auto isLoad = [](const TraceEvent &e) { return e.pipe == Pipe::MTE2 && !e.isWait() && !e.isSet(); };
    // The loop's load is the one issued most often (prologue loads of
    // constants like gamma run once); ties go to the earliest.
    QHash<QString, int> count;
    for (const TraceEvent &e : coreEvents)
        if (isLoad(e))
            ++count[e.name + QLatin1Char('@') + QString::number(e.line)];
    auto first = coreEvents.cend();
    int best = 0;
    for (auto it = coreEvents.cbegin(); it != coreEvents.cend(); ++it) {
        if (!isLoad(*it))
            continue;
        const int n = count.value(it->name + QLatin1Char('@') + QString::number(it->line));
        if (n > best) {
            best = n;
            first = it;
        }
    }
    if (first == coreEvents.cend())
        return out;
    double end = 0;
    for (const TraceEvent &e : coreEvents) {
        end = qMax(end, e.end());
        if (isLoad(e) && e.line == first->line && e.name == first->name) {
            if (!out.isEmpty())
                out.back().end = e.start;
            out.push_back({int(out.size()), e.start, e.start});
        }
    }
    out.back().end = end;
    return out;
}

int iterationAt(const QVector<Iteration> &iterations, double t)
{
    const auto it = std::upper_bound(iterations.cbegin(), iterations.cend(), t,
                                     [](double v, const Iteration &i) { return v < i.start; });
    return int(it - iterations.cbegin()) - 1;
}

} // namespace inspector
