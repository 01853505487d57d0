// The fixture the window tests share: one interpreter and JobRunner for the
// whole test case, a fresh MainWindow (no saved layout) per test function,
// and a spy on the runs it finishes. A test class derives from QObject and
// from this, and forwards its initTestCase/cleanupTestCase/init/cleanup.
#pragma once

#include "JobRunner.h"
#include "MainWindow.h"
#include "PythonHost.h"

#include <QDir>
#include <QSignalSpy>
#include <QTest>

class MainWindowFixture
{
protected:
    explicit MainWindowFixture(QSize windowSize) : m_windowSize(windowSize) {}

    /// initTestCase(): takes @p host (and makes the runner on it).
    void startHost(PythonHost *host)
    {
        m_host = host;
        m_runner = new JobRunner(m_host);
    }
    /// cleanupTestCase().
    void stopHost()
    {
        delete m_runner;
        delete m_host;
        m_runner = nullptr;
        m_host = nullptr;
    }
    /// init(): a shown window; false when it never got exposed.
    bool openWindow()
    {
        m_window = new MainWindow(m_runner, /*persistLayout=*/false);
        m_window->resize(m_windowSize);
        m_window->show();
        m_finished = new QSignalSpy(m_runner, &JobRunner::runFinished);
        return QTest::qWaitForWindowExposed(m_window);
    }
    /// cleanup(): stops a run still going, then drops the window.
    void closeWindow()
    {
        if (m_runner->isRunning()) {
            m_runner->stop();
            m_finished->wait(5000);
        }
        delete m_finished;
        delete m_window;
        m_finished = nullptr;
        m_window = nullptr;
    }
    /// For looking at, not for asserting: ASC2_TEST_SCREENSHOTS=DIR keeps them.
    bool saveScreenshot(const QString &name) const
    {
        const QString dir = qEnvironmentVariable("ASC2_TEST_SCREENSHOTS");
        return dir.isEmpty() || m_window->grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
    }

    QSize m_windowSize;
    PythonHost *m_host = nullptr;
    JobRunner *m_runner = nullptr;
    MainWindow *m_window = nullptr;
    QSignalSpy *m_finished = nullptr;
};
