// The embedded Python interpreter. It lives on one worker thread that owns it
// (and the GIL) for the life of the process; the GUI thread only queues
// scripts and asks for interrupts, and hears back through queued signals.
#pragma once

#include "ReportPtr.h"

#include <QJsonObject>
#include <QMap>
#include <QObject>
#include <QStringList>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <thread>

struct ScriptJob {
    QString source;      // runs as __main__; need not be saved to filePath
    QString filePath;    // __file__, tracebacks, sys.path[0]
    QStringList arguments; // sys.argv[1:]
    QMap<QString, QString> environment; // set in os.environ before the run; "" unsets
};

struct ScriptResult {
    enum class Status { Succeeded, Failed, Interrupted };

    int generation = 0;
    Status status = Status::Failed;
    int exitCode = 0;        // SystemExit code; 1 for an exception
    QString errorMessage;    // "ZeroDivisionError: division by zero"
    QString errorFile;       // innermost frame in the script (or SyntaxError file)
    int errorLine = 0;       // 1-based; 0 when unknown
    int errorColumn = 0;     // 1-based; 0 when unknown
    double wallMs = 0;

    bool succeeded() const { return status == Status::Succeeded; }
};

Q_DECLARE_METATYPE(ScriptResult)

class PythonHost : public QObject
{
    Q_OBJECT
public:
    enum class Stream { Stdout, Stderr };
    Q_ENUM(Stream)

    /// Starts the worker thread, which initialises the interpreter and puts
    /// @p pythonPaths in front of sys.path.
    explicit PythonHost(const QStringList &pythonPaths = defaultPythonPaths(),
                        QObject *parent = nullptr);
    /// Interrupts a running script and shuts the interpreter down; gives up
    /// (leaving the interpreter alive) if a script ignores the interrupt.
    ~PythonHost() override;

    /// The staged asc2 package: <exe dir>/../python first (a build or an
    /// install tree), else the build's ASC2_PYTHON_DIR.
    static QStringList defaultPythonPaths();

    /// Queues @p job; returns its generation (increasing from 1).
    int execute(const ScriptJob &job);
    /// Raises KeyboardInterrupt in the script of @p generation if it is still
    /// running (any running script when 0), or drops it if still queued.
    /// Returns at once; finished() reports the outcome.
    void interrupt(int generation = 0);

    /// Generation of the script running now, 0 when idle. Any thread.
    int runningGeneration() const { return m_running.load(); }

signals:
    void started(int generation);
    void output(int generation, PythonHost::Stream stream, const QString &text);
    void finished(const ScriptResult &result);
    /// A compile report published by the compiler while @p generation ran
    /// (0 when published outside any script).
    void reportPublished(int generation, asc2::ReportEvent event, ReportPtr report);
    /// An event of an autotuning sweep (asc2.tune.events: sweep_started,
    /// config_done, sweep_finished, sweep_cancelled) sent by the script of
    /// @p generation (0 when sent outside any script) through
    /// `_asc2_workbench.tuning_event(json_text)`.
    void tuningEvent(int generation, const QJsonObject &event);
    void interpreterFailed(const QString &message);

private:
    struct Chunk {
        int generation;
        Stream stream;
        QString text;
    };

    friend class ConsoleStream;
    void appendOutput(Stream stream, const QString &text); // worker thread
    void drainOutput(); // GUI thread
    void deliverFinished(const ScriptResult &result);

    void workerMain();
    void interrupterMain();
    ScriptResult runJob(const ScriptJob &job, int generation);

    QStringList m_pythonPaths;

    std::mutex m_queueMutex;
    std::condition_variable m_queueCond;
    std::deque<std::pair<int, ScriptJob>> m_queue;
    bool m_quit = false;
    bool m_workerExited = false; // left its job loop, GIL released
    bool m_finalize = false;     // may finalize: nobody else touches Python now
    std::condition_variable m_exitCond;
    int m_nextGeneration = 1;

    // Written by the worker only while it holds the GIL, so a thread holding
    // the GIL sees a stable value.
    std::atomic<int> m_running{0};
    std::atomic<int> m_currentOutputGeneration{0};
    std::atomic<int> m_interruptedGeneration{0};
    std::atomic<bool> m_interpreterReady{false};
    unsigned long m_workerThreadId = 0;
    pthread_t m_workerPthread{};
    QString m_initError;
    std::string m_scriptDirOnPath;

    std::mutex m_interruptMutex;
    std::condition_variable m_interruptCond;
    std::deque<int> m_interruptRequests;
    bool m_interrupterQuit = false;

    std::mutex m_outputMutex;
    std::vector<Chunk> m_pendingOutput;
    bool m_drainPosted = false;

    struct Relay;
    std::shared_ptr<Relay> m_relay;
    int m_reportListener = 0;
    std::thread m_worker;
    std::thread m_interrupter;
};
