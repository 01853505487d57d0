// Plain data the inspector views draw: pipes, the ops of the final IR in
// program order with their pipes and flags, and the simulated trace parsed
// from the msprof-op-simulator Chrome trace. No widgets here, so every rule
// (which pipe an op runs on, which slot a buffer is, which set_flag a
// wait_flag answers) is tested alone.
#pragma once

#include "asc2/Report/CompileReport.h"

#include <QByteArray>
#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QVector>

namespace inspector {

/// Lanes in the order every view shows them.
enum class Pipe { S, MTE2, V, MTE3, MTE1, M, FIX };
constexpr int kPipeCount = 7;
QString pipeName(Pipe pipe);
/// Report names (S, V, MTE2, M, FIX) and trace lane names (SCALAR, VECTOR,
/// CUBE, FIXP, ...). -1 when the name is no pipe.
int pipeIndex(const QString &name);
/// The pipe an op of the final IR runs on, from its mnemonic.
Pipe pipeOfOp(const QString &opText);
/// "ascendc.data_copy_in" from "%3 = ascendc.data_copy_in %0, ...".
QString mnemonic(const QString &opText);

/// Ping/pong slot of a buffer: its own slot, or the copy number a `_N`
/// suffix gives a buffer duplicated by unrolling ("x_1" is slot 1 of "x").
/// With @p names (all buffer names of the report), a suffix only counts
/// when the first copy "x" exists too ("mulf_7" alone is just a name).
int slotOf(const asc2::BufferRecord &buffer, const QSet<QString> *names = nullptr);
/// The tile a buffer holds: its name without the copy suffix.
QString tileOf(const asc2::BufferRecord &buffer, const QSet<QString> *names = nullptr);

/// One op of the final IR at its program point.
struct StaticOp {
    enum class Kind { Op, SetFlag, WaitFlag, Barrier };
    int point = 0;
    Pipe pipe = Pipe::S;
    Kind kind = Kind::Op;
    QString text;
    int line = 0;
    int eventId = -1;
    Pipe srcPipe = Pipe::S, dstPipe = Pipe::S;
    QString reason;
    QString role;
};

/// A set_flag and the wait_flag that consumes it.
struct SyncEdge {
    int setPoint = 0, waitPoint = 0;
    Pipe src = Pipe::S, dst = Pipe::S;
    int eventId = 0;
    QString reason;
    bool wraps = false; // the wait comes earlier in program order (next iteration)
};

/// Where a wait_flag makes its pipe idle in program order. Op i occupies
/// points [i, i + 1). The waiting pipe runs out of work after its last op
/// before the wait (`lastOwn`), but the flag only comes once the set_flag's
/// pipe has finished the op the flag guards (`producer`, the last non-sync op
/// of the source pipe before the set): the waiting pipe idles over
/// [max(lastOwn + 1, producer), wait) -- for a loop-carried flag until the
/// set is done, [.., set + 1), then its next iteration's wait passes.
/// No stall when the waiting pipe still has work after the set, or the set
/// guards no op (a priming set_flag).
struct StaticStall {
    Pipe pipe = Pipe::S;   // the waiting pipe
    double from = 0, to = 0; // program points
    int edge = -1;         // index into StaticSchedule::edges
    int producer = -1;     // the op the flag waits for
    int lastOwn = -1;      // the waiting pipe's last op before (-1: none)
};

struct StaticSchedule {
    QVector<StaticOp> ops;
    QVector<SyncEdge> edges;
    QVector<StaticStall> stalls; // sorted by (pipe, from)
    static StaticSchedule fromReport(const asc2::CompileReport &report);
};

/// One instruction of the simulated trace (times in µs).
struct TraceEvent {
    int core = 0;
    Pipe pipe = Pipe::S;
    QString name;
    double start = 0, duration = 0;
    int line = 0; // from args.code "file:line"
    QString file;
    QString detail;
    bool isWait() const { return name.contains(QLatin1String("wait_flag"), Qt::CaseInsensitive); }
    bool isSet() const { return name.contains(QLatin1String("set_flag"), Qt::CaseInsensitive); }
    double end() const { return start + duration; }
};

struct TraceFlow {
    int core = 0;
    Pipe src = Pipe::S, dst = Pipe::S;
    double srcTime = 0, dstTime = 0;
    QString category;
};

struct SimTrace {
    QStringList cores;         // pid names in order of appearance
    QVector<TraceEvent> events; // sorted by (core, start)
    QVector<TraceFlow> flows;
    double endTime = 0;
    QString error;              // set when the text could not be read
    bool isEmpty() const { return events.isEmpty(); }
    /// Reads the Chrome trace layout of `msprof op simulator` (and ours).
    static SimTrace parse(const QByteArray &json);
    QVector<TraceEvent> eventsOfCore(int core) const;
    QVector<TraceFlow> flowsOfCore(int core) const;
    /// Summed durations per source line (wait_flag stalls excluded).
    QHash<int, double> lineTime(int core = -1) const;
    /// Busy time per pipe (wait_flag excluded).
    QVector<double> pipeBusy(int core = -1) const;
    /// Summed durations per source line and pipe (kPipeCount values per line).
    QHash<int, QVector<double>> linePipeTime(int core = -1) const;
};

/// Loop iterations of one core's simulated run: iteration k starts at the
/// k-th issue of the first MTE2 instruction (by source line) of the loop.
struct Iteration {
    int index = 0;
    double start = 0, end = 0;
};
QVector<Iteration> iterationsOf(const QVector<TraceEvent> &coreEvents);
/// Index of the iteration containing time @p t (-1: before the first).
int iterationAt(const QVector<Iteration> &iterations, double t);

} // namespace inspector
