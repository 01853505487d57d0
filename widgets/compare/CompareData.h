// What the Compare view sets side by side, as Compiler Explorer does with two
// compilers: the kernels of one script compiled (and run) with two option
// sets or for two targets. Both sides are read from the report JSON
// (asc2.report/1): the window's own run through asc2::toJson, the other from
// the report.json of a headless run. Plain data, tested without a GUI.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QVector>

namespace asc2 {
struct CompileReport;
}

namespace compare {

/// One kernel of one side.
struct KernelSummary {
    QString kernel;
    QString target;
    QString options;  // "insert_sync=True reuse_alloc=1"
    QString ascendc;
    struct Space {
        QString name;
        qint64 peak = 0, capacity = 0;
    };
    QVector<Space> spaces;
    int buffers = 0;
    QVector<std::pair<QString, int>> syncOps; // kind ("set_flag", "get_buf", ...) -> count, by kind
    int ascendcLines = 0;
    bool launched = false;
    double timeUs = -1, cycles = -1;
    int blocks = 0;
    QStringList errors; // error diagnostics, a failed launch
};

KernelSummary summaryOf(const QJsonObject &report);
KernelSummary summaryOf(const asc2::CompileReport &report);
/// The kernels of a headless run's report.json ({"kernels": [...]}).
QVector<KernelSummary> summariesOfRun(const QByteArray &reportJson, QString *error);

/// One line of the comparison: a metric of A and of B and what changed.
struct Row {
    QString metric;
    QString a, b, delta; // "—" where a side has no value
    /// +1: B is better (faster, smaller), -1: worse, 0: same or not comparable.
    int verdict = 0;
};
/// The metrics of @p a and @p b (either may be null: a kernel only one side has).
QVector<Row> compareRows(const KernelSummary *a, const KernelSummary *b);

} // namespace compare
