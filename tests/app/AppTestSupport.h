// Helpers shared by the app tests: run a script through a host or runner and
// wait for its end.
#pragma once

#include "JobRunner.h"
#include "PythonHost.h"

#include <QSignalSpy>
#include <QTest>

inline ScriptJob scriptJob(const QString &source, const QString &path = QStringLiteral("/tmp/asc2-test/script.py"))
{
    ScriptJob job;
    job.source = source;
    job.filePath = path;
    return job;
}

/// Waits for the finished() of @p generation; returns its result.
inline ScriptResult waitForResult(PythonHost &host, QSignalSpy &finished, int generation, int timeoutMs = 20000)
{
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < timeoutMs) {
        for (const QList<QVariant> &args : std::as_const(finished)) {
            const auto result = args.at(0).value<ScriptResult>();
            if (result.generation == generation)
                return result;
        }
        finished.wait(100);
    }
    Q_UNUSED(host);
    ScriptResult none;
    none.generation = -1;
    return none;
}
