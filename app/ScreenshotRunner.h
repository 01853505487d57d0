// `asc2-workbench --screenshot OUT.png [--view NAME] FILE.py`: shows the main
// window, runs the script, and grabs the window once the run is over.
#pragma once

#include "MainWindow.h"

#include <QObject>
#include <QElapsedTimer>
#include <QMap>
#include <QTimer>

class ScreenshotRunner : public QObject
{
    Q_OBJECT
public:
    struct Options {
        QString output;
        MainWindow::View view = MainWindow::View::Editor;
        QSize size{1600, 1000};
        int timeoutSeconds = 120;
    };

    ScreenshotRunner(MainWindow *window, Options options, QObject *parent = nullptr);

    void start();

signals:
    void finished(int exitCode);

private:
    void onRunFinished(const RunSummary &summary);
    void onTimeout();
    void capture(int exitCode);
    void noteTime(const QString &what);

    MainWindow *m_window;
    Options m_options;
    QTimer m_timeout;
    bool m_done = false;
    // ASC2_WORKBENCH_TIMINGS=1: when each view first had content (bench/gui_populate.py).
    QElapsedTimer m_clock;
    QMap<QString, double> m_timings;
};
