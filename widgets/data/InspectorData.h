// Plain data the inspector views draw: the ops of the final IR in program
// order with their pipes (from the report's program points) and flags, and
// the simulated trace: the launch's typed trace in process, or one parsed
// from an imported msprof-op-simulator Chrome trace. No widgets here, so
// every rule (which slot a buffer is, which set_flag a wait_flag answers) is
// tested alone.
#pragma once

#include "asc2/Report/CompileReport.h"
#include "asc2/Report/StaticStalls.h"
#include "asc2/Sim/Simulator.h"

#include <QByteArray>
#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>
#include <utility>

namespace inspector {

/// The one pipe enum (asc2/Arch/Pipe.h). Per-pipe vectors are indexed by
/// its value; views show the lanes in asc2::kPipeLaneOrder.
using asc2::Pipe;
constexpr int kPipeCount = asc2::kNumPipes;
/// The pipe a lane or column name of imported data means (any spelling
/// asc2::parsePipe knows: S, SCALAR, VEC, CUBE, FIXP, PIPE_MTE2, ...), as
/// int(Pipe); -1 when it names no pipe an instruction runs on.
int pipeIndex(const QString &name);
/// The pipe's name ("MTE2") for display.
QString pipeLabel(Pipe pipe);
/// The lane an op of the report is drawn in: its pipe (a barrier of all
/// pipes on the scalar lane, which issues it).
using asc2::laneOf;

/// Ping/pong slot of a buffer, as the compiler assigned it (the IR's
/// `slot`): the unrolled copy of the loop body it serves; 0 for the first
/// copy and for a buffer outside such a loop. Never guessed from the name.
int slotOf(const asc2::BufferRecord &buffer);
/// The tile each buffer holds, by its first copy's name: a buffer in slot 0
/// is its own tile ("broadcast_1" is the second broadcast, not a copy); the
/// k-th buffer of a kind ("broadcast", same space) in slot s > 0 is a copy of
/// the k-th one of that kind in slot 0 ("broadcast_3" of "broadcast_1").
QStringList tilesOf(const std::vector<asc2::BufferRecord> &buffers);
/// Per buffer, the buffer whose memory it takes over in place (-1: none):
/// one in the same space whose addresses overlap it and whose live range
/// ends at the point where its own begins, so the op there reads the old
/// tile and writes the new one over it (the allocator's in-place reuse).
QVector<int> inPlacePredecessors(const std::vector<asc2::BufferRecord> &buffers);

/// One op of the final IR at its program point.
struct StaticOp {
    enum class Kind { Op, SetFlag, WaitFlag, Barrier };
    int point = 0;
    Pipe pipe = Pipe::S; // the lane (laneOf the point's pipe)
    Kind kind = Kind::Op;
    QString text;
    QString name; // "ascendc.add"
    int line = 0;
    int eventId = -1;
    Pipe srcPipe = Pipe::S, dstPipe = Pipe::S;
    QString reason;
    std::optional<asc2::SyncRole> role; // sync ops only
};
/// The role's name for display ("" without one).
QString roleLabel(const std::optional<asc2::SyncRole> &role);

/// A set_flag and a wait_flag that consumes it (the report's
/// scheduleEdges, computed by the compiler on the final IR).
struct SyncEdge {
    int setPoint = 0, waitPoint = 0;
    Pipe src = Pipe::S, dst = Pipe::S;
    int eventId = 0;
    QString reason;
    bool wraps = false; // the wait comes earlier in program order (next iteration)
};

/// Where a wait_flag makes its pipe idle in program order (the report's
/// scheduleStalls; the rule is asc2::staticStalls').
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
    QVector<StaticStall> stalls; // sorted by (lane, from)
    static StaticSchedule fromReport(const asc2::CompileReport &report);
};

/// One instruction of the simulated trace (times in µs).
struct TraceEvent {
    /// What the sync views tell apart: set_flag (and cross-core sets),
    /// wait_flag (and cross-core waits), barriers, and every other op.
    enum class Kind { Op, Set, Wait, Barrier }; // as SyncTimelineView::Item::kind
    int core = 0;
    Pipe pipe = Pipe::S;
    Kind kind = Kind::Op;
    QString name;
    double start = 0, duration = 0;
    int line = 0; // from args.code "file:line"
    QString file;
    QString detail;
    qint64 bytes = 0; // a copy's bytes (0: not a copy, or not known)
    int flagId = -1; // set/wait_flag: the flag's event id (-1: unknown)
    /// set/wait_flag: the flag's setting and waiting pipe, when known.
    std::optional<std::pair<Pipe, Pipe>> flagPipes;
    bool isWait() const { return kind == Kind::Wait; }
    /// Time the pipe spends waiting, not working: a wait_flag, or a
    /// pipe_barrier (it holds its pipe until the others drain).
    bool isWaiting() const { return kind == Kind::Wait || kind == Kind::Barrier; }
    bool isSet() const { return kind == Kind::Set; }
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
    /// The events where a pipe waits on a flag (wait_flag that took time),
    /// in order: indices into events.
    QVector<int> stalls;
    double endTime = 0;
    QString error;              // set when the text could not be read
    /// Where it comes from: "" for the simulator's trace of the run shown,
    /// else what the Profile view calls the import ("imported 21:40:05: ...").
    QString origin;
    /// The source file most of the events' lines are in ("": none).
    QString sourceFile() const;
    bool isEmpty() const { return events.isEmpty(); }
    /// Reads the Chrome trace layout of `msprof op simulator` (and ours):
    /// for imported files; a launch's own trace comes typed (fromTrace).
    static SimTrace parse(const QByteArray &json);
    /// The views' form of a simulated launch's trace.
    static SimTrace fromTrace(const asc2::sim::Trace &trace);
    QVector<TraceEvent> eventsOfCore(int core) const;
    QVector<TraceFlow> flowsOfCore(int core) const;
    /// Summed durations per source line (wait_flag and pipe_barrier excluded:
    /// waiting is no work of the line).
    QHash<int, double> lineTime(int core = -1) const;
    /// Summed waiting (wait_flag, pipe_barrier) per source line.
    QHash<int, double> lineWaitTime(int core = -1) const;
    /// Busy time per pipe (wait_flag and pipe_barrier excluded).
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
