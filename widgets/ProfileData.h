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
    QString opName;
    double durationUs = -1;    // -1: unknown
    double cycles = -1;
    int blockDim = 0;
    QVector<double> pipeRatio = QVector<double>(kPipeCount, -1.0);  // busy / duration, -1: unknown
    QVector<double> pipeTimeUs = QVector<double>(kPipeCount, -1.0); // per core, -1: unknown
    QHash<int, double> lineUs; // hot lines (µs per source line)
    SimTrace trace;            // when the run has one (overlay on the timelines)
};

/// A CSV file as rows of named cells.
struct CsvTable {
    QStringList header;
    QVector<QStringList> rows;
    QString error;
    static CsvTable parse(const QString &text);
    int column(const QString &name) const { return int(header.indexOf(name)); }
};

struct ImportResult {
    bool ok = false;
    QString error;      // why nothing was imported
    QStringList notes;  // what was skipped
    ProfileRun run;
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
