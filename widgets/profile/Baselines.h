// Saved baselines, as Nsight Compute keeps them: a profile run (its pipe
// utilization, bytes, line times and platform peaks; not its trace) written
// to a JSON file so a later session can compare against it. Plain data.
#pragma once

#include "ProfileData.h"

#include <QJsonObject>
#include <QString>
#include <QVector>

namespace inspector {

QJsonObject baselineToJson(const ProfileRun &run);
ProfileRun baselineFromJson(const QJsonObject &object);

/// The baselines in @p path ({"baselines": [...]}); none when the file does
/// not exist. @p error says why a file that exists could not be read.
QVector<ProfileRun> readBaselines(const QString &path, QString *error = nullptr);
/// Writes @p runs to @p path (creating its directory).
bool writeBaselines(const QString &path, const QVector<ProfileRun> &runs, QString *error = nullptr);

} // namespace inspector
