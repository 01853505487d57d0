// The autotuning sweeps of a run as the Autotune view knows them, built from
// the events asc2.tune.events sends (sweep_started, config_done,
// sweep_finished, sweep_cancelled; the rows are docs/autotune.md's), and how
// a config finds the compile report it produced.
#pragma once

#include "ReportPtr.h"

#include <QJsonObject>
#include <QPair>
#include <QString>
#include <QVector>

#include <cmath>

namespace autotune {

/// One config of a sweep; the fields of its report row once it is done.
struct ConfigResult {
    int index = -1;  // its place in the autotuner's list of configs
    QString params;  // "TILE=4096, block_num=48"
    bool done = false;
    QString verdict; // winner, ok, dropped, mismatch, pruned, ...; empty until done
    QString reason;
    QString label;   // the shape, in batch sweeps
    double cycles = NAN, timeUs = NAN, metric = NAN;
    double ubPeak = NAN, ubCapacity = NAN; // bytes
    QVector<QPair<QString, double>> peaks; // bytes per on-chip memory space
    QString boundPipe;
    QString worker; // "host:pid" of the process that ran it
    double wallS = NAN;
    int blockNum = 0;
    QString codeSha1; // of its emitted Ascend C; empty when it did not compile

    bool isWinner() const { return verdict == QLatin1String("winner"); }
    /// UB peak in % of the capacity; NaN when either is unknown.
    double ubShare() const { return ubCapacity > 0 ? 100 * ubPeak / ubCapacity : NAN; }
    /// The fields of a report row over this config's (done afterwards).
    void takeRow(const QJsonObject &row);
};

struct Sweep {
    enum class State { Running, Finished, Cancelled };

    int id = 0; // asc2.tune.events.new_sweep(): unique in the Python process
    QString kernel, key, executor, platform;
    State state = State::Running;
    bool cached = false; // the choice was made earlier and read back, not run again
    QVector<ConfigResult> configs; // in the autotuner's order

    int doneCount() const;
    /// Position in configs of the winner, or -1.
    int winnerPosition() const;
    /// Position in configs of the config numbered @p index, or -1.
    int positionOf(int index) const;
    /// Whether the configs are compared by simulated cycles (the Model
    /// backend) rather than wall microseconds, as the sweep report decides.
    bool timedInCycles() const;
    /// What the configs are compared by: cycles or microseconds (NaN: none).
    double measureOf(const ConfigResult &config) const { return timedInCycles() ? config.cycles : config.timeUs; }
    /// The unit of measureOf(): "cycles" or "µs".
    QString measureUnit() const;
    /// What a config says before its row arrived: "running…" (the one the
    /// sweep waits for: rows arrive in config order), "queued", or, after
    /// the sweep ended, "cancelled" / "not run".
    QString pendingText(int position) const;
};

/// Every sweep of a run in the order they started, updated by events.
class SweepLog
{
public:
    /// Applies an event of asc2.tune.events; returns the position of the sweep
    /// it changed, or -1 when it is no sweep event.
    int apply(const QJsonObject &event);
    /// The run ended: a sweep still running was cut short.
    void endRun();
    void clear() { m_sweeps.clear(); }

    const QVector<Sweep> &sweeps() const { return m_sweeps; }
    int size() const { return int(m_sweeps.size()); }
    bool isEmpty() const { return m_sweeps.isEmpty(); }
    /// Position of the sweep with id @p id, or -1.
    int positionOf(int id) const;

private:
    QVector<Sweep> m_sweeps;
};

/// The SHA-1 (hex) of a report's emitted Ascend C, as asc2.tune.events.code_sha1
/// computes a row's code_sha1; empty when it emitted none.
QString codeSha1(const asc2::CompileReport &report);
/// Index in @p reports of the latest report of @p kernel whose code has SHA-1
/// @p codeSha1, or -1.
int indexOfConfigReport(const QVector<ReportPtr> &reports, const QString &kernel, const QString &codeSha1);
/// Whether @p worker ("host:pid", a row's worker) is this process.
bool ranInThisProcess(const QString &worker);
/// Why a config has no compile report among those of this run, for the
/// status bar.
QString whyNoReport(const ConfigResult &config);

} // namespace autotune
