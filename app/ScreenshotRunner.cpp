#include "ScreenshotRunner.h"

#include "AscendCView.h"
#include "ConsoleView.h"
#include "GraphView.h"
#include "IrView.h"
#include "PassesPanel.h"

#include <QFileInfo>
#include <QPixmap>

#include <cstdio>

ScreenshotRunner::ScreenshotRunner(MainWindow *window, Options options, QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_options(std::move(options))
{
    m_timeout.setSingleShot(true);
    connect(&m_timeout, &QTimer::timeout, this, &ScreenshotRunner::onTimeout);
    connect(m_window->jobRunner(), &JobRunner::runFinished, this, &ScreenshotRunner::onRunFinished);
    // The picture shows the console; a log should still say why a run failed.
    connect(m_window->jobRunner(), &JobRunner::outputReceived, this,
            [this](const QString &text, PythonHost::Stream stream) {
                noteTime(QStringLiteral("console"));
                if (stream == PythonHost::Stream::Stderr)
                    std::fputs(text.toUtf8().constData(), stderr);
            });
    connect(m_window->jobRunner(), &JobRunner::reportsChanged, this, [this] {
        // Queued behind the window's own handler of the same signal (its RunController's).
        QTimer::singleShot(0, this, [this] {
            if (!m_window->passesPanel()->irView()->ir().isEmpty())
                noteTime(QStringLiteral("passes"));
            if (!m_window->ascendcView()->source().isEmpty())
                noteTime(QStringLiteral("ascendc"));
        });
    });
}

void ScreenshotRunner::noteTime(const QString &what)
{
    if (!m_timings.contains(what))
        m_timings.insert(what, m_clock.nsecsElapsed() / 1e6);
}

void ScreenshotRunner::start()
{
    m_window->resize(m_options.size);
    m_window->show();
    m_timeout.start(m_options.timeoutSeconds * 1000);
    m_clock.start();
    m_window->runScript();
}

void ScreenshotRunner::onRunFinished(const RunSummary &summary)
{
    if (m_done)
        return;
    m_timeout.stop();
    if (!summary.ok())
        std::fprintf(stderr, "asc2-workbench: the run failed: %s\n", qPrintable(summary.headline()));
    noteTime(QStringLiteral("finished"));
    m_window->passesPanel()->selectLastPassWithIr();
    capture(summary.ok() ? 0 : 1);
}

void ScreenshotRunner::onTimeout()
{
    std::fprintf(stderr, "asc2-workbench: the run did not finish within %d s\n", m_options.timeoutSeconds);
    m_window->stopScript();
    capture(3);
}

void ScreenshotRunner::capture(int exitCode)
{
    m_done = true;
    m_window->showView(m_options.view);
    // Let the dock resize and the views lay out before grabbing.
    QTimer::singleShot(200, this, [this, exitCode] {
        if (m_options.view == MainWindow::View::Graph)
            m_window->graphView()->waitForLayout();
        noteTime(QStringLiteral("shown"));
        if (qEnvironmentVariableIsSet("ASC2_WORKBENCH_TIMINGS")) {
            QStringList parts;
            for (auto it = m_timings.cbegin(); it != m_timings.cend(); ++it)
                parts << QStringLiteral("%1=%2").arg(it.key()).arg(it.value(), 0, 'f', 1);
            std::fprintf(stderr, "asc2-workbench: timings-ms %s\n", qPrintable(parts.join(QLatin1Char(' '))));
        }
        const QPixmap pixmap = m_window->grab();
        int code = exitCode;
        if (pixmap.isNull() || !pixmap.save(m_options.output)) {
            std::fprintf(stderr, "asc2-workbench: cannot write %s\n", qPrintable(m_options.output));
            code = code ? code : 1;
        } else {
            std::fprintf(stderr, "asc2-workbench: screenshot written to %s\n",
                         qPrintable(QFileInfo(m_options.output).absoluteFilePath()));
        }
        emit finished(code);
    });
}
