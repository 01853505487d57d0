#include "SpeedOfLight.h"

#include <QObject>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace inspector {
namespace {

QString percent(double share)
{
    return QStringLiteral("%1%").arg(100.0 * share, 0, 'f', share < 0.1 ? 1 : 0);
}

QString bandwidth(double gbps)
{
    return gbps >= 1000 ? QStringLiteral("%1 TB/s").arg(gbps / 1000, 0, 'f', 2) : QStringLiteral("%1 GB/s").arg(gbps, 0, 'f', 0);
}

QString sizeText(double bytes)
{
    if (bytes >= 1 << 20)
        return QStringLiteral("%1 MiB").arg(bytes / double(1 << 20), 0, 'f', 1);
    if (bytes >= 1 << 10)
        return QStringLiteral("%1 KiB").arg(bytes / 1024.0, 0, 'f', 1);
    return QStringLiteral("%1 B").arg(bytes, 0, 'f', 0);
}

bool isCopyPipe(Pipe p)
{
    return p == Pipe::MTE1 || p == Pipe::MTE2 || p == Pipe::MTE3 || p == Pipe::FIX;
}

/// Busy share of each pipe over the cores that run it: a MIX launch's
/// totals count the cube and the vector cores together, which would halve
/// V (no V on a cube core) and M.
QVector<double> busyShares(const ProfileRun &run)
{
    QVector<double> share = run.pipeRatio;
    const SimTrace &trace = run.trace;
    if (trace.isEmpty() || trace.cores.size() < 2)
        return share;
    QVector<QSet<int>> coresOf(kPipeCount);
    for (const TraceEvent &e : trace.events)
        coresOf[int(e.pipe)].insert(e.core);
    for (int p = 0; p < kPipeCount; ++p)
        if (share[p] > 0 && !coresOf[p].isEmpty())
            share[p] = std::min(1.0, share[p] * double(trace.cores.size()) / double(coresOf[p].size()));
    return share;
}

/// Time (µs, per core that waits) pipe @p waiter spends in wait_flag for
/// pipe @p setter, as a share of the run.
double waitShare(const ProfileRun &run, Pipe waiter, Pipe setter)
{
    if (run.trace.isEmpty() || run.durationUs <= 0)
        return 0;
    double waited = 0;
    QSet<int> cores;
    for (const TraceEvent &e : run.trace.events) {
        if (e.pipe == waiter)
            cores.insert(e.core);
        if (e.isWait() && e.pipe == waiter && e.flagPipes && e.flagPipes->first == setter)
            waited += e.duration;
    }
    return cores.isEmpty() ? 0 : waited / double(cores.size()) / run.durationUs;
}

} // namespace

SpeedOfLight SpeedOfLight::of(const ProfileRun &run)
{
    SpeedOfLight v;
    const QVector<double> share = busyShares(run);
    QVector<Pipe> worked;
    for (Pipe p : asc2::kPipeLaneOrder)
        if (share[int(p)] > 0)
            worked.push_back(p);
    if (worked.isEmpty() || run.durationUs <= 0)
        return v;
    v.known = true;
    v.basis = run.source == QLatin1String("simulated") ? QObject::tr("predicted by the simulator")
                                                       : QObject::tr("measured (%1)").arg(run.source);
    std::stable_sort(worked.begin(), worked.end(), [&](Pipe a, Pipe b) { return share[int(a)] > share[int(b)]; });
    for (Pipe p : worked) {
        // What the share is in time per core, and for a copy pipe in bytes.
        QString detail = QObject::tr("%1 \u00b5s busy per core").arg(share[int(p)] * run.durationUs, 0, 'f', 3);
        if (isCopyPipe(p) && run.pipeBytes[int(p)] > 0)
            detail += QObject::tr(", %1 moved in all").arg(sizeText(run.pipeBytes[int(p)]));
        v.roofs.push_back({pipeLabel(p), share[int(p)], detail});
    }

    // GM traffic against the chip's HBM bandwidth.
    const auto bytesOf = [&](Pipe p) { return std::max(0.0, run.pipeBytes[int(p)]); };
    const bool bytesKnown = run.pipeBytes[int(Pipe::MTE2)] >= 0;
    const double gmBytes = bytesOf(Pipe::MTE2) + bytesOf(Pipe::MTE3) + bytesOf(Pipe::FIX);
    const double gmGBps = gmBytes / (run.durationUs * 1e3);
    double hbmShare = -1;
    if (bytesKnown && run.peaks.hbmGBps > 0 && gmBytes > 0) {
        hbmShare = gmGBps / run.peaks.hbmGBps;
        v.roofs.push_back({QObject::tr("GM bandwidth"), std::min(1.0, hbmShare),
                           QObject::tr("%1 of the HBM's %2").arg(bandwidth(gmGBps), bandwidth(run.peaks.hbmGBps))});
    }

    const Pipe top = worked.first();
    const double topShare = share[int(top)];
    const bool usesCube = share[int(Pipe::M)] > 0 || share[int(Pipe::MTE1)] > 0;
    const bool usesVector = share[int(Pipe::V)] > 0 || share[int(Pipe::MTE3)] > 0;
    const bool saturated = topShare >= 0.6;
    v.bound = saturated ? QObject::tr("%1-bound").arg(pipeLabel(top)) : QObject::tr("latency-bound");
    QStringList parts;
    parts << QObject::tr("%1 busy %2 of the run").arg(pipeLabel(top), percent(topShare));
    if (hbmShare >= 0)
        parts << QObject::tr("GM at %1 of the HBM roofline").arg(percent(hbmShare));
    QStringList idle;
    for (Pipe p : {Pipe::V, Pipe::M})
        if (p != top && share[int(p)] > 0)
            idle << QObject::tr("%1 idle %2").arg(pipeLabel(p), percent(1 - share[int(p)]));
    v.headline = QObject::tr("%1: %2").arg(v.bound, parts.join(QStringLiteral(", ")));
    if (!idle.isEmpty())
        v.headline += QStringLiteral("; ") + idle.join(QStringLiteral(", "));

    // The rules, most telling first.
    const int available = usesCube ? run.peaks.cubeCores : run.peaks.vectorCores;
    if (run.blockDim > 0 && available > 0 && run.blockDim < available) {
        v.advice.push_back({QStringLiteral("few-cores"),
                            QObject::tr("The launch runs on %1 of the %2 %3 cores: %4 of the chip idles.")
                                .arg(run.blockDim)
                                .arg(available)
                                .arg(usesCube ? QObject::tr("cube") : QObject::tr("vector"))
                                .arg(percent(1 - double(run.blockDim) / available)),
                            QObject::tr("Launch %1 blocks (or a multiple) and split the work over them; if it divides "
                                        "evenly the run takes about %2 of the time.")
                                .arg(available)
                                .arg(percent(double(run.blockDim) / available))});
    }
    if (saturated && isCopyPipe(top)) {
        const QString relief = hbmShare >= 0.7
                                   ? QObject::tr("The HBM is nearly saturated (%1): only moving fewer bytes helps.").arg(percent(hbmShare))
                               : hbmShare >= 0
                                   ? QObject::tr("The HBM is at %1: the cores' own DMA, not the chip, is the limit, so more "
                                                 "blocks in flight help too.").arg(percent(hbmShare))
                                   : QString();
        v.advice.push_back({QStringLiteral("memory-bound"),
                            QObject::tr("Data movement bounds the run: %1 busy %2%3.")
                                .arg(pipeLabel(top), percent(topShare),
                                     usesVector && top != Pipe::V && share[int(Pipe::V)] >= 0 ? QObject::tr(", V only %1").arg(percent(share[int(Pipe::V)]))
                                                                  : QString()),
                            QObject::tr("Move fewer bytes: fuse this kernel with its neighbours so each tensor is read "
                                        "once, keep intermediates in UB, use f16/bf16 where precision allows. %1")
                                .arg(relief)
                                .trimmed()});
    }
    if (saturated && top == Pipe::V) {
        v.advice.push_back({QStringLiteral("vector-bound"),
                            QObject::tr("The vector unit bounds the run: V busy %1.").arg(percent(topShare)),
                            QObject::tr("Fewer vector instructions per element: fuse elementwise ops, avoid casts and "
                                        "temporary tiles, use the scalar forms (x * 2.0 rather than a broadcast tile).")});
    }
    if (saturated && top == Pipe::M) {
        v.advice.push_back({QStringLiteral("cube-bound"),
                            QObject::tr("The cube bounds the run: M busy %1, near the mmad roofline.").arg(percent(topShare)),
                            QObject::tr("What remains is the arithmetic: a lower precision (f16/int8 instead of f32) or "
                                        "fewer flops. Keep the K loop's L0A/L0B double-buffered so MTE1 stays hidden.")});
    }
    const double vWaitsLoads = waitShare(run, Pipe::V, Pipe::MTE2);
    if (vWaitsLoads >= 0.25) {
        v.advice.push_back({QStringLiteral("loads-not-hidden"),
                            QObject::tr("V waits for MTE2 loads %1 of the run (wait_flag).").arg(percent(vWaitsLoads)),
                            QObject::tr("Overlap loads with compute: loop over tiles small enough that two fit in UB, so "
                                        "the compiler double-buffers them (see the Ping-pong view).")});
    }
    const double loadsWaitV = waitShare(run, Pipe::MTE2, Pipe::V);
    if (loadsWaitV >= 0.25) {
        v.advice.push_back({QStringLiteral("buffer-reuse-waits"),
                            QObject::tr("MTE2 waits %1 of the run for V to free a buffer before loading into it.")
                                .arg(percent(loadsWaitV)),
                            QObject::tr("Give the load a second buffer (ping-pong: a loop over tiles, with UB room for "
                                        "two) so it can fill one while V reads the other.")});
    }
    if (share[int(Pipe::S)] >= 0.3) {
        v.advice.push_back({QStringLiteral("scalar-heavy"),
                            QObject::tr("The scalar unit is busy %1 of the run.").arg(percent(share[int(Pipe::S)])),
                            QObject::tr("Scalar work is address arithmetic, loop control and scalar GM reads: hoist index "
                                        "computations out of loops, read scalars once, use vector ops for per-element work.")});
    }
    if (!saturated) {
        v.advice.push_back({QStringLiteral("latency-bound"),
                            QObject::tr("No pipe is busy most of the run (the busiest, %1, %2): the pipes wait on each "
                                        "other or on GM latency.")
                                .arg(pipeLabel(top), percent(topShare)),
                            QObject::tr("Put more independent work in flight: more blocks, larger tiles per copy, a loop "
                                        "the compiler can double-buffer.")});
    }
    // Copies small enough that the GM latency, not the bandwidth, sets their time.
    int loads = 0;
    double loadBytes = 0;
    for (const TraceEvent &e : run.trace.events)
        if (e.pipe == Pipe::MTE2 && e.kind == TraceEvent::Kind::Op && e.bytes > 0) {
            ++loads;
            loadBytes += double(e.bytes);
        }
    if (loads > 0 && share[int(Pipe::MTE2)] >= 0.2 && loadBytes / loads < 4096) {
        v.advice.push_back({QStringLiteral("small-copies"),
                            QObject::tr("GM loads average %1: each pays the GM read latency.").arg(sizeText(loadBytes / loads)),
                            QObject::tr("Move more per copy: larger tiles, or several rows in one copy_in.")});
    }
    if (run.peaks.launchUs > 0 && run.durationUs < 10 * run.peaks.launchUs) {
        v.advice.push_back({QStringLiteral("short-run"),
                            QObject::tr("The run is short (%1 \u00b5s): launch and block start and end cost about "
                                        "%2 \u00b5s of it.")
                                .arg(run.durationUs, 0, 'f', 2)
                                .arg(run.peaks.launchUs, 0, 'f', 2),
                            QObject::tr("Do more work per launch: larger shapes per call, or several calls batched into one kernel.")});
    }
    return v;
}

QString SpeedOfLight::text() const
{
    if (!known)
        return QObject::tr("No speed-of-light verdict: the run has no pipe utilization.");
    QStringList lines;
    lines << QStringLiteral("%1 (%2)").arg(headline, basis);
    for (const Roof &r : roofs)
        lines << QStringLiteral("  %1: %2 (%3)").arg(r.name, percent(r.share), r.detail);
    for (const Advice &a : advice)
        lines << QStringLiteral("- %1 %2").arg(a.finding, a.action);
    return lines.join(QLatin1Char('\n'));
}

} // namespace inspector
