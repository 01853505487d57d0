// The speed-of-light verdict of a run, as Nsight Compute gives one: how close
// each pipe and the GM (HBM) bandwidth come to what the platform can do, what
// bounds the kernel, and rules that say what to try. Plain data from a
// ProfileRun (simulated or imported); the Profile view and the HTML report
// show it.
#pragma once

#include "ProfileData.h"

#include <QString>
#include <QVector>

namespace inspector {

struct SpeedOfLight {
    /// One throughput against its roof: a pipe's busy share of the run, or
    /// the GM traffic against the HBM bandwidth.
    struct Roof {
        QString name;     // "MTE2", "GM bandwidth"
        double share = 0; // of the roof, 0..1
        QString detail;   // "1.23 TB/s of 1.80 TB/s"
    };
    /// A rule that fired: what it saw and what to try.
    struct Advice {
        QString rule;     // a stable id: "few-cores", "memory-bound", ...
        QString finding;  // what the numbers say
        QString action;   // what to try
    };

    bool known = false;      // false: the run has no pipe data
    QString bound;           // "MTE2-bound", "V-bound", "latency-bound"
    QString headline;        // "MTE2-bound: MTE2 busy 82% of the run, GM at 45% of the HBM roofline; V idle 61%"
    QVector<Roof> roofs;     // the pipes that worked, busiest first, then GM bandwidth
    QVector<Advice> advice;  // most important first
    QString basis;           // "predicted by the simulator" / "measured (msprof op)"

    static SpeedOfLight of(const ProfileRun &run);
    /// The verdict as plain text (headline, roofs, advice), for tooltips and exports.
    QString text() const;
};

} // namespace inspector
