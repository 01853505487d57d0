// Exports of a run: the simulated trace as Chrome trace JSON, and a
// self-contained HTML report (passes, images of the views inline, profile).
#pragma once

#include "ProfileData.h"

#include <QByteArray>
#include <QString>
#include <QVector>

namespace inspector {

struct ReportImage {
    QString title;
    QByteArray png; // encoded PNG
};

/// Writes launch @p launch's trace (Chrome trace format) to @p path; fails
/// with a message when the run has no trace or it is not valid JSON.
bool writeChromeTrace(const asc2::CompileReport &report, int launch, const QString &path, QString *error);

/// One HTML file with no external references.
QString htmlReport(const asc2::CompileReport &report, const QVector<ReportImage> &images, const ProfileRun *profile);

} // namespace inspector
