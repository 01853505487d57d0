// Profiles the Profile view compares: a simulated launch, or measured data
// imported from msprof (`msprof op` directory with OpBasicInfo.csv and
// PipeUtilization.csv, `msprof` op_summary_*.csv, `msprof op simulator`
// trace.json). Readers return a clear message for malformed input.
#pragma once

#include "InspectorData.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <QVector>

namespace inspector {

struct ProfileRun {
    QString label;             // "softmax @ Ascend910B1 (reuse_alloc=1)"
    QString source;            // "simulated", "msprof op", "op_summary", "trace.json"
    bool baseline = false;     // a saved baseline (Baselines.h): kept across sessions
    QString opName;
    double durationUs = -1;    // -1: unknown
    double cycles = -1;
    int blockDim = 0;
    QVector<double> pipeRatio = QVector<double>(kPipeCount, -1.0);  // busy / duration, -1: unknown
    QVector<double> pipeTimeUs = QVector<double>(kPipeCount, -1.0); // per core, -1: unknown
    QHash<int, double> lineUs; // hot lines (µs of work per source line)
    QHash<int, double> lineWaitUs; // µs per source line spent waiting (wait_flag, pipe_barrier), when traced
    QHash<int, QVector<double>> linePipeUs; // per line: µs on each pipe (when the run has a trace)
    SimTrace trace;            // when the run has one (overlay on the timelines)
    /// Bytes each pipe's copies moved, summed over the cores (-1: unknown):
    /// MTE2 reads GM, MTE3 and FIX write it.
    QVector<double> pipeBytes = QVector<double>(kPipeCount, -1.0);
    /// What the platform offers, for the speed-of-light verdict (unknown when
    /// the run does not say which platform it ran on).
    struct Peaks {
        QString platform;
        double hbmGBps = -1;           // chip-wide GM (HBM) bandwidth
        double gmReadGBpsPerCore = -1; // one vector core's GM -> UB port
        double gmToL1GBpsPerCore = -1; // one cube core's GM -> L1 port
        int vectorCores = 0, cubeCores = 0;
        double launchUs = -1;          // launch + one block's start and end costs
    } peaks;
    /// The source file the line times (and the trace's lines) refer to: the
    /// kernel's script for a simulated run, the code of an imported trace
    /// ("vadd.cpp"); "" when the run has no lines or does not say.
    QString sourceFile;
};

/// Whether line numbers of @p runFile can be shown on @p editorFile: the same
/// file name, or either unknown.
bool sameSourceFile(const QString &runFile, const QString &editorFile);
/// @p trace without the source lines of events in files other than
/// @p editorFile (an imported trace of vadd.cpp must not select vadd.cpp's
/// line numbers in the kernel open in the editor).
SimTrace withLinesOf(SimTrace trace, const QString &editorFile);
/// Whether two op names name the same operator as far as we can tell (equal,
/// or one contains the other, ignoring case; "" matches anything): a kernel
/// "rms_norm" and its msprof op "rms_norm_kernel_0" do, "Add" does not.
bool sameOperator(const QString &a, const QString &b);

/// Clock of the run in cycles per µs (cycles / duration), -1 when unknown.
double cyclesPerUs(const ProfileRun &run);

/// What the editor's heat strip says about one source line of a run.
struct LineCost {
    double heat = 0;    // 0..1, the hottest line is 1
    double us = 0;      // per core
    double cycles = -1; // -1: the run's clock is unknown
    double share = 0;   // of the time of all lines, 0..1
    QVector<double> pipeUs; // per pipe (empty: unknown)
};
/// Costs of every line that took time in @p run.
QHash<int, LineCost> lineCosts(const ProfileRun &run);

/// A run laid over the program points of a report (the UB map's overlay).
/// With an instruction trace of the report's source file, each instruction's
/// time goes to the program points of its line (those of the same op name,
/// else the same pipe, else all of the line); without one (msprof op
/// PipeUtilization, op_summary, a trace of other source code), each point
/// gets the busy ratio of the pipe its op runs on.
struct PointHeat {
    enum class Basis { None, Trace, PipeUtilization };
    Basis basis = Basis::None;
    QString runLabel;
    QString note;           // how the values were made
    QVector<double> value;  // per point: µs per core (Trace) or busy ratio (PipeUtilization)
    QVector<double> heat;   // per point, 0..1 (the hottest point is 1)
    QVector<Pipe> pipe;     // the pipe of each point's op
    double total = 0;       // Trace: summed µs per core of the points
    double unplaced = 0;    // Trace: µs per core on lines without a program point
    bool isEmpty() const { return basis == Basis::None; }
};
PointHeat pointHeat(const asc2::CompileReport &report, const ProfileRun &run);

/// A CSV file as rows of named cells.
struct CsvTable {
    QStringList header;
    QVector<QStringList> rows;
    QString error;
    static CsvTable parse(const QString &text);
    int column(const QString &name) const { return int(header.indexOf(name)); }
};

/// One operator of an op_summary, over all its launches (MindStudio
/// Insight's operator summary): how much of the profiled time it took.
struct OperatorTotal {
    QString name, type;
    int calls = 0;
    double totalUs = 0, maxUs = 0;
    double share = 0; // of all operators' time, 0..1
};

struct ImportResult {
    bool ok = false;
    QString error;      // why nothing was imported
    QStringList notes;  // what was skipped
    ProfileRun run;
    /// An op_summary's operators, the most time first (empty for other data):
    /// the run is one of them, the caller may ask for another by name.
    QVector<OperatorTotal> operators;
};

/// The profile of launch @p launch of @p report (its pipes and trace).
ProfileRun profileFromLaunch(const asc2::CompileReport &report, int launch);

ImportResult importPipeUtilization(const QString &csvText, ProfileRun run = ProfileRun());
ImportResult importOpBasicInfo(const QString &csvText, ProfileRun run = ProfileRun());
ImportResult importOpSummary(const QString &csvText, const QString &preferredOp = QString());
ImportResult importTraceJson(const QByteArray &json);
/// A directory (msprof op output, OPPROF_*), or a single .csv/.json file.
ImportResult importProfilePath(const QString &path, const QString &preferredOp = QString());

} // namespace inspector
