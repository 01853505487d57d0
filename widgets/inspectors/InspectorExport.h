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

/// One HTML file with no external references. Sections (ids): passes,
/// final-ir, one per image (its title as id: ub-map, sync-timeline-..., ...),
/// profile, sync.
QString htmlReport(const asc2::CompileReport &report, const QVector<ReportImage> &images, const ProfileRun *profile);

/// The views an HTML report shows, rendered off screen.
struct ReportViews {
    UbMapView *ubMap = nullptr;
    SyncTimelineView *sync = nullptr; // both modes are rendered
    PingPongView *pingPong = nullptr;
    ProfileChart *profile = nullptr;
};
QVector<ReportImage> renderReportImages(const ReportViews &views);

/// Without a window: fresh views of @p report and its last launch, then
/// htmlReport() to @p path. Needs a QApplication (offscreen is fine).
bool writeHtmlReport(const ReportPtr &report, const QString &path, QString *error, const Theme &theme = Theme::light());

} // namespace inspector
