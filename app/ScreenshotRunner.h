// `asc2-workbench --screenshot OUT.png [--view NAME] FILE.py`: shows the main
// window, runs the script, and grabs the window once the run is over.
#pragma once

#include "MainWindow.h"

#include <QObject>
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

    MainWindow *m_window;
    Options m_options;
    QTimer m_timeout;
    bool m_done = false;
};
