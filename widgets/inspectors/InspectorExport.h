// Exports of a run: the simulated trace as Chrome trace JSON, and a
// self-contained HTML report (passes, images of the views inline, profile).
#pragma once

#include "ProfileData.h"
#include "ReportPtr.h"
#include "Theme.h"

#include <QByteArray>
#include <QString>
#include <QVector>

class PingPongView;
class ProfileChart;
class SyncTimelineView;
class UbMapView;

namespace inspector {

struct ReportImage {
    QString title;
    QByteArray png; // encoded PNG
};

/// Writes launch @p launch's trace (Chrome trace format) to @p path; fails
/// with a message when the run has no trace or it is not valid JSON.
bool writeChromeTrace(const asc2::CompileReport &report, int launch, const QString &path, QString *error);

/// A Chrome trace that Perfetto reads as chrome://tracing does: Perfetto
/// wants integer pid/tid, the msprof simulator layout names them ("core0.
/// veccore0", "VECTOR"). Names become numbers with process_name/thread_name
/// metadata carrying the names; everything else is kept.
QByteArray portableChromeTrace(const QByteArray &json, QString *error);

/// What the HTML report shows of one compiled kernel.
struct ReportSection {
    const asc2::CompileReport *report = nullptr;
    QVector<ReportImage> images;
    const ProfileRun *profile = nullptr; // null: not launched
};

/// One HTML file with no external references, a section per kernel of the
/// script (in the order given) and, with several, a list of them on top.
/// Ids of a kernel's parts: passes, final-ir, one per image (its title as id:
/// ub-map, sync-timeline-..., ...), profile, sync; prefixed "k<N>-" (N from
/// 1) when there are several kernels.
QString htmlReport(const QVector<ReportSection> &sections, const QString &title);
/// The report of one kernel.
QString htmlReport(const asc2::CompileReport &report, const QVector<ReportImage> &images, const ProfileRun *profile);

/// The views an HTML report shows, rendered off screen.
struct ReportViews {
    UbMapView *ubMap = nullptr;
    SyncTimelineView *sync = nullptr; // both modes are rendered
    PingPongView *pingPong = nullptr;
    ProfileChart *profile = nullptr;
};
/// The views' images. The simulated timeline and the ping-pong schedule show
/// the views' core and, for a MIX kernel, also the first core of the other
/// kind (cube or vector) in the same block: both sides of the kernel.
QVector<ReportImage> renderReportImages(const ReportViews &views);

/// htmlReport() of every report to @p path (UTF-8, atomically), each drawn
/// with fresh, off-screen views of its last launch, except the one @p shown
/// stands for (a section the caller drew, e.g. from the views on screen).
/// Needs a QApplication (offscreen is fine).
bool writeHtmlReport(const QVector<ReportPtr> &reports, const QString &path, QString *error,
                     const Theme &theme = Theme::light(), const ReportSection *shown = nullptr);
bool writeHtmlReport(const ReportPtr &report, const QString &path, QString *error, const Theme &theme = Theme::light());

} // namespace inspector
