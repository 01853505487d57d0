#include "PythonHost.h"

// Python's headers use `slots` as a field name; Qt defines it as a macro.
#pragma push_macro("slots")
#undef slots
#include <pybind11/embed.h>
#pragma pop_macro("slots")

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonDocument>

#include "asc2/Driver/Pipeline.h"

#include <chrono>

#include <pthread.h>
#include <signal.h>

namespace py = pybind11;
using namespace std::chrono_literals;

// A file-like object that sys.stdout/sys.stderr point at; every write goes to
// the host, which batches it to the GUI thread.
class ConsoleStream
{
public:
    ConsoleStream(PythonHost *host, PythonHost::Stream stream)
        : m_host(host)
        , m_stream(stream)
    {
    }

    size_t write(const std::string &text)
    {
        m_host->appendOutput(m_stream, QString::fromStdString(text));
        // Python counts characters, not UTF-8 bytes.
        return size_t(py::len(py::str(text)));
    }

private:
    PythonHost *m_host;
    PythonHost::Stream m_stream;
};

namespace {
// A str or bytes argument of os.putenv/os.unsetenv as the bytes the OS gets.
std::string osBytes(const py::object &text)
{
    return py::module_::import("os").attr("fsencode")(text).cast<std::string>();
}

// An environment variable's name, refused as os.putenv refuses it.
std::string environmentName(const py::object &name)
{
    const std::string key = osBytes(name);
    if (key.empty() || key.find('=') != std::string::npos)
        throw py::value_error("illegal environment variable name");
    if (key.find('\0') != std::string::npos)
        throw py::value_error("embedded null byte");
    return key;
}
} // namespace

PYBIND11_EMBEDDED_MODULE(_asc2_workbench, m)
{
    // tuning_event() is added when the interpreter starts (PythonHost::workerMain).
    m.doc() = "Hooks of the asc2 Workbench into its embedded interpreter.";
    py::class_<ConsoleStream>(m, "ConsoleStream")
        .def("write", &ConsoleStream::write)
        .def("flush", [](ConsoleStream &) {})
        .def("isatty", [](ConsoleStream &) { return false; })
        .def("writable", [](ConsoleStream &) { return true; })
        .def("readable", [](ConsoleStream &) { return false; })
        .def("seekable", [](ConsoleStream &) { return false; })
        .def_property_readonly("encoding", [](ConsoleStream &) { return "utf-8"; })
        .def_property_readonly("errors", [](ConsoleStream &) { return "strict"; });

    // os.putenv/os.unsetenv of the embedded interpreter (installed in
    // PythonHost::workerMain). setenv() on the worker thread may move the
    // environment block while the GUI thread reads it (Qt's font engine calls
    // getenv as it draws); Qt's qputenv/qgetenv share one lock, so the
    // script's writes no longer race Qt's reads.
    m.def(
        "putenv",
        [](const py::object &name, const py::object &value) {
            const std::string key = environmentName(name);
            const std::string text = osBytes(value);
            if (text.find('\0') != std::string::npos)
                throw py::value_error("embedded null byte");
            if (!qputenv(key.c_str(), QByteArray::fromStdString(text))) {
                PyErr_SetFromErrno(PyExc_OSError);
                throw py::error_already_set();
            }
        },
        py::arg("name"), py::arg("value"), "Change or add an environment variable (under Qt's environment lock).");
    m.def(
        "unsetenv", [](const py::object &name) { qunsetenv(environmentName(name).c_str()); }, py::arg("name"),
        "Delete an environment variable (under Qt's environment lock).");
}

namespace {
// The argument of `_asc2_workbench.tuning_event`: a JSON object as text.
QJsonObject tuningEventFromJson(const std::string &text)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
    if (error.error != QJsonParseError::NoError)
        throw py::value_error("tuning_event: not JSON: " + error.errorString().toStdString());
    if (!document.isObject())
        throw py::value_error("tuning_event: the event must be a JSON object");
    return document.object();
}

// Sent to the worker thread by Stop; our handler ignores it unless a Stop
// of the running script is pending.
constexpr int kStopSignal = SIGUSR1;

// Only while Python's handler is in place: the default action would kill us.
bool stopSignalIsHandled()
{
    struct sigaction action;
    return sigaction(kStopSignal, nullptr, &action) == 0 && action.sa_handler != SIG_DFL
        && action.sa_handler != SIG_IGN;
}
} // namespace

// What Python tells the GUI outside a script's output (compile reports,
// sweep events) goes through here from whichever thread says it. The relay
// outlives the host, so a late call finds a null host and is dropped.
struct PythonHost::Relay {
    std::mutex mutex;
    PythonHost *host = nullptr;

    /// Calls @p deliver(host, generation) on the GUI thread, with the
    /// generation of the script running now.
    template <typename Deliver>
    void post(Deliver deliver)
    {
        std::lock_guard<std::mutex> lock(mutex);
        PythonHost *h = host;
        if (!h)
            return;
        const int generation = h->m_running.load();
        QMetaObject::invokeMethod(
            h,
            [h, generation, deliver] {
                // Output printed before belongs before.
                h->drainOutput();
                deliver(h, generation);
            },
            Qt::QueuedConnection);
    }
};

PythonHost::PythonHost(const QStringList &pythonPaths, QObject *parent)
    : QObject(parent)
    , m_pythonPaths(pythonPaths)
    , m_relay(std::make_shared<Relay>())
{
    qRegisterMetaType<ScriptResult>();
    qRegisterMetaType<ReportPtr>();
    qRegisterMetaType<asc2::ReportEvent>();

    m_relay->host = this;
    // Called on whichever thread publishes (the worker, for reports of our scripts).
    m_reportListener = asc2::ReportHub::instance().addListener(
        [relay = m_relay](asc2::ReportEvent event, std::shared_ptr<const asc2::CompileReport> report) {
            relay->post([event, report](PythonHost *host, int generation) {
                emit host->reportPublished(generation, event, report);
            });
        });

    m_worker = std::thread([this] { workerMain(); });
    m_interrupter = std::thread([this] { interrupterMain(); });
}

PythonHost::~PythonHost()
{
    asc2::ReportHub::instance().removeListener(m_reportListener);
    {
        std::lock_guard<std::mutex> lock(m_relay->mutex);
        m_relay->host = nullptr;
    }

    {
        std::lock_guard<std::mutex> lock(m_queueMutex);
        m_quit = true;
        m_queue.clear();
    }
    m_queueCond.notify_all();
    interrupt(0);

    bool workerExited;
    {
        std::unique_lock<std::mutex> lock(m_queueMutex);
        workerExited = m_exitCond.wait_for(lock, 3s, [this] { return m_workerExited; });
    }
    {
        std::lock_guard<std::mutex> lock(m_interruptMutex);
        m_interrupterQuit = true;
    }
    m_interruptCond.notify_all();

    if (!workerExited) {
        // The script is stuck in native code that never returns to Python.
        // Finalizing under it would deadlock; leave the interpreter to the OS.
        qWarning("asc2-workbench: the Python script did not stop; exiting without finalizing Python");
        m_interrupter.detach();
        m_worker.detach();
        return;
    }
    m_interrupter.join();
    {
        std::lock_guard<std::mutex> lock(m_queueMutex);
        m_finalize = true;
    }
    m_exitCond.notify_all();
    m_worker.join();
}

QStringList PythonHost::defaultPythonPaths()
{
    const QString staged = QDir::cleanPath(QCoreApplication::applicationDirPath() + QStringLiteral("/../python"));
    if (QFileInfo::exists(staged + QStringLiteral("/asc2")))
        return {staged};
#ifdef ASC2_PYTHON_DIR
    const QString built = QStringLiteral(ASC2_PYTHON_DIR);
    if (QFileInfo::exists(built))
        return {built};
#endif
    return {};
}

int PythonHost::execute(const ScriptJob &job)
{
    // Into the process environment here, on the GUI thread: adding a variable
    // may move the environment block, and the GUI thread reads it unlocked
    // (fontconfig, Qt's font engine). The worker then only overwrites values
    // that exist, which moves nothing.
    for (auto it = job.environment.cbegin(); it != job.environment.cend(); ++it) {
        const QByteArray name = it.key().toUtf8();
        if (it.value().isEmpty())
            qunsetenv(name.constData());
        else
            qputenv(name.constData(), it.value().toUtf8());
    }
    std::lock_guard<std::mutex> lock(m_queueMutex);
    const int generation = m_nextGeneration++;
    m_queue.emplace_back(generation, job);
    m_queueCond.notify_one();
    return generation;
}

void PythonHost::interrupt(int generation)
{
    // A launch spends its time in the simulator with the GIL released, where
    // no KeyboardInterrupt can reach it: ask the simulator itself to stop.
    const int running = m_running.load();
    if (running != 0 && (generation == 0 || generation == running)) {
        m_interruptedGeneration = running;
        asc2::cancelRequested() = true;
    }
    if (generation != 0) {
        // Still queued: it never starts.
        std::lock_guard<std::mutex> lock(m_queueMutex);
        for (auto it = m_queue.begin(); it != m_queue.end(); ++it) {
            if (it->first == generation) {
                m_queue.erase(it);
                ScriptResult result;
                result.generation = generation;
                result.status = ScriptResult::Status::Interrupted;
                result.exitCode = 130;
                result.errorMessage = QStringLiteral("Stopped before it started");
                QMetaObject::invokeMethod(this, [this, result] { deliverFinished(result); },
                                          Qt::QueuedConnection);
                return;
            }
        }
    }
    {
        std::lock_guard<std::mutex> lock(m_interruptMutex);
        m_interruptRequests.push_back(generation);
    }
    m_interruptCond.notify_one();
}

// Raising in another thread needs the GIL, which the script may hold for up
// to the switch interval (5 ms), or for as long as it stays in native code.
// Waiting for it here keeps the GUI thread free.
void PythonHost::interrupterMain()
{
    for (;;) {
        int generation;
        {
            std::unique_lock<std::mutex> lock(m_interruptMutex);
            m_interruptCond.wait(lock, [this] { return m_interrupterQuit || !m_interruptRequests.empty(); });
            if (m_interruptRequests.empty())
                return;
            generation = m_interruptRequests.front();
            m_interruptRequests.pop_front();
        }
        const auto wanted = [&](int running) {
            return running != 0 && (generation == 0 || running == generation);
        };
        if (!m_interpreterReady || !wanted(m_running.load()))
            continue;
        const PyGILState_STATE gil = PyGILState_Ensure();
        // The worker changes m_running only with the GIL held: this is exact.
        const int running = m_running.load();
        if (wanted(running)) {
            m_interruptedGeneration = running;
            // Raised at the script's next bytecode: ends busy Python loops.
            PyThreadState_SetAsyncExc(m_workerThreadId, PyExc_KeyboardInterrupt);
            // Breaks blocking calls (time.sleep, select) with EINTR; the
            // handler installed at start-up then raises in the script.
            if (stopSignalIsHandled())
                pthread_kill(m_workerPthread, kStopSignal);
        }
        PyGILState_Release(gil);
    }
}

void PythonHost::workerMain()
{
    PyThreadState *saved = nullptr;
    try {
        PyConfig config;
        PyConfig_InitIsolatedConfig(&config);
        config.isolated = 0;
        config.use_environment = 1;
        // No signal handlers: Ctrl+C in the terminal should end the app, not
        // a script; Stop goes through interrupt().
        config.install_signal_handlers = 0;
#ifdef ASC2_PYTHON_EXECUTABLE
        // Otherwise Python derives its prefix from the first python3 on PATH,
        // which may be another installation than the libpython we link.
        PyConfig_SetBytesString(&config, &config.program_name, ASC2_PYTHON_EXECUTABLE);
#endif
        py::initialize_interpreter(&config, 0, nullptr, /*add_program_dir_to_path=*/false);
        py::module_ sys = py::module_::import("sys");
        py::list path = sys.attr("path");
        for (auto it = m_pythonPaths.crbegin(); it != m_pythonPaths.crend(); ++it)
            path.insert(0, it->toStdString());
        // asc2.tune.events sends every sweep event to `tuning_event` when it
        // exists, from the thread that runs the sweep. Bound to this host's
        // relay here: the module is defined once for the process.
        py::module_ workbench = py::module_::import("_asc2_workbench");
        // os.environ writes call os.putenv/os.unsetenv by name at each write.
        py::module_ os = py::module_::import("os");
        os.attr("putenv") = workbench.attr("putenv");
        os.attr("unsetenv") = workbench.attr("unsetenv");
        workbench.attr("tuning_event") = py::cpp_function(
            [relay = m_relay](const std::string &text) {
                const QJsonObject event = tuningEventFromJson(text);
                relay->post([event](PythonHost *host, int generation) { emit host->tuningEvent(generation, event); });
            },
            py::arg("event"), "Hands an autotuning sweep event (a JSON object, as text) to the Autotune view.");
        m_workerThreadId = PyThread_get_thread_ident();
        m_workerPthread = pthread_self();
        // This thread initialised Python, so it is Python's main thread and
        // the one that runs signal handlers.
        py::module_ signal = py::module_::import("signal");
        signal.attr("signal")(int(kStopSignal), py::cpp_function([this](py::object, py::object) {
            const int running = m_running.load();
            if (running != 0 && running == m_interruptedGeneration.load()) {
                PyErr_SetNone(PyExc_KeyboardInterrupt);
                throw py::error_already_set();
            }
        }));
        saved = PyEval_SaveThread();
        m_interpreterReady = true;
    } catch (const std::exception &e) {
        m_initError = QStringLiteral("Cannot start Python: %1").arg(QString::fromUtf8(e.what()));
        const QString message = m_initError;
        QMetaObject::invokeMethod(this, [this, message] { emit interpreterFailed(message); },
                                  Qt::QueuedConnection);
    }

    for (;;) {
        std::pair<int, ScriptJob> job;
        {
            std::unique_lock<std::mutex> lock(m_queueMutex);
            m_queueCond.wait(lock, [this] { return m_quit || !m_queue.empty(); });
            if (m_quit)
                break;
            job = std::move(m_queue.front());
            m_queue.pop_front();
        }
        const int generation = job.first;
        m_currentOutputGeneration = generation;
        QMetaObject::invokeMethod(this, [this, generation] { emit started(generation); },
                                  Qt::QueuedConnection);

        ScriptResult result;
        if (m_interpreterReady) {
            PyEval_RestoreThread(saved);
            result = runJob(job.second, generation);
            saved = PyEval_SaveThread();
        } else {
            result.generation = generation;
            result.exitCode = 1;
            result.errorMessage = m_initError;
            appendOutput(Stream::Stderr, m_initError + QLatin1Char('\n'));
        }
        QMetaObject::invokeMethod(this, [this, result] { deliverFinished(result); },
                                  Qt::QueuedConnection);
    }

    {
        std::unique_lock<std::mutex> lock(m_queueMutex);
        m_workerExited = true;
        m_exitCond.notify_all();
        m_exitCond.wait(lock, [this] { return m_finalize; });
    }
    if (m_interpreterReady) {
        PyEval_RestoreThread(saved);
        py::finalize_interpreter();
    }
}

namespace {
// error_already_set holds null handles where Python has None (no traceback).
py::object orNone(const py::object &o)
{
    return o ? o : py::none();
}

// Where an exception points into the script: SyntaxError-like errors carry
// filename/lineno/offset; otherwise the innermost traceback frame in the file.
void locateError(const py::error_already_set &error, const std::string &path, ScriptResult &result)
{
    const py::object value = error.value();
    // asc2.CompilationError points into the kernel (file/line/col), which the
    // traceback does not: it ends in the compiler.
    if (py::hasattr(value, "message") && py::hasattr(value, "file") && py::hasattr(value, "line")) {
        const py::object file = value.attr("file");
        const py::object line = value.attr("line");
        if (py::isinstance<py::str>(file) && py::isinstance<py::int_>(line)) {
            result.errorFile = QString::fromStdString(file.cast<std::string>());
            result.errorLine = line.cast<int>();
            const py::object col = py::getattr(value, "col", py::none());
            if (py::isinstance<py::int_>(col))
                result.errorColumn = col.cast<int>();
            result.errorMessage = QStringLiteral("%1: %2").arg(
                QString::fromStdString(py::str(error.type().attr("__name__")).cast<std::string>()),
                QString::fromStdString(py::str(value.attr("message")).cast<std::string>()));
            return;
        }
    }
    if (py::hasattr(value, "filename") && py::hasattr(value, "lineno")) {
        const py::object file = value.attr("filename");
        const py::object line = value.attr("lineno");
        if (py::isinstance<py::str>(file) && py::isinstance<py::int_>(line)) {
            result.errorFile = QString::fromStdString(file.cast<std::string>());
            result.errorLine = line.cast<int>();
            const py::object offset = py::getattr(value, "offset", py::none());
            if (py::isinstance<py::int_>(offset))
                result.errorColumn = offset.cast<int>();
            return;
        }
    }
    py::object tb = orNone(error.trace());
    while (!tb.is_none()) {
        const py::object code = tb.attr("tb_frame").attr("f_code");
        if (code.attr("co_filename").cast<std::string>() == path) {
            result.errorFile = QString::fromStdString(path);
            result.errorLine = tb.attr("tb_lineno").cast<int>();
        }
        tb = tb.attr("tb_next");
    }
}
} // namespace

ScriptResult PythonHost::runJob(const ScriptJob &job, int generation)
{
    ScriptResult result;
    result.generation = generation;
    QElapsedTimer timer;
    timer.start();
    const std::string path = job.filePath.toStdString();

    try {
        py::module_ sys = py::module_::import("sys");
        py::module_ os = py::module_::import("os");
        py::module_ builtins = py::module_::import("builtins");

        // A previous script may have replaced them and not put them back.
        sys.attr("stdout") = py::cast(ConsoleStream(this, Stream::Stdout));
        sys.attr("stderr") = py::cast(ConsoleStream(this, Stream::Stderr));

        py::object environ = os.attr("environ");
        // The interpreter outlives the run: an empty value removes a variable
        // an earlier run set.
        for (auto it = job.environment.cbegin(); it != job.environment.cend(); ++it) {
            const py::str key(it.key().toStdString());
            if (it.value().isEmpty())
                environ.attr("pop")(key, py::none());
            else
                environ[key] = py::str(it.value().toStdString());
        }
        // asc2 keeps the platform it chose on first use: it reads $ASC2_PLATFORM
        // (the Target box) again, and forgets the last script's set_platform(),
        // as a fresh `python3 script.py` would.
        const py::dict modules = sys.attr("modules");
        if (modules.contains("asc2.runtime.platform"))
            modules["asc2.runtime.platform"].attr("reset_platform")();

        py::list argv;
        argv.append(path);
        for (const QString &arg : job.arguments)
            argv.append(arg.toStdString());
        sys.attr("argv") = argv;

        // The script's directory comes first, as with `python3 script.py`.
        py::list syspath = sys.attr("path");
        if (!m_scriptDirOnPath.empty() && syspath.contains(py::str(m_scriptDirOnPath)))
            syspath.attr("remove")(m_scriptDirOnPath);
        m_scriptDirOnPath = QFileInfo(job.filePath).absolutePath().toStdString();
        syspath.insert(0, m_scriptDirOnPath);

        // Tracebacks quote the text that ran, saved or not.
        const std::string source = job.source.toStdString();
        py::module_ linecache = py::module_::import("linecache");
        py::list lines = py::str(source).attr("splitlines")(true);
        linecache.attr("cache")[py::str(path)] =
            py::make_tuple(source.size(), py::none(), lines, path);

        py::module_ mainModule = py::module_::import("types").attr("ModuleType")("__main__");
        mainModule.attr("__file__") = path;
        mainModule.attr("__builtins__") = builtins;
        sys.attr("modules")["__main__"] = mainModule;

        py::object code = builtins.attr("compile")(source, path, "exec");
        struct RunningScope {
            PythonHost *host;
            RunningScope(PythonHost *h, int generation) : host(h) { host->m_running = generation; }
            ~RunningScope()
            {
                host->m_running = 0;
                // An interrupt that arrived as the script ended must not hit our own code.
                PyThreadState_SetAsyncExc(host->m_workerThreadId, nullptr);
            }
        };
        {
            RunningScope running(this, generation);
            builtins.attr("exec")(code, mainModule.attr("__dict__"));
        }
        result.status = ScriptResult::Status::Succeeded;
    } catch (py::error_already_set &error) {
        try {
            if (error.matches(PyExc_SystemExit)) {
                const py::object code = error.value().attr("code");
                if (code.is_none()) {
                    result.exitCode = 0;
                } else if (py::isinstance<py::int_>(code)) {
                    result.exitCode = code.cast<int>();
                } else {
                    // sys.exit("message") prints the message and fails.
                    py::print(code, py::arg("file") = py::module_::import("sys").attr("stderr"));
                    result.exitCode = 1;
                }
                result.status = result.exitCode == 0 ? ScriptResult::Status::Succeeded
                                                     : ScriptResult::Status::Failed;
                if (result.exitCode != 0)
                    result.errorMessage = QStringLiteral("SystemExit: %1").arg(result.exitCode);
            } else if (m_interruptedGeneration == generation || error.matches(PyExc_KeyboardInterrupt)) {
                // Stop raised KeyboardInterrupt, or cancelled a simulation
                // (SimulationError "cancelled"), or Ctrl+C reached the script
                // (headless: the simulator polls for it): the user stopped it.
                const bool stopped = m_interruptedGeneration == generation;
                result.status = ScriptResult::Status::Interrupted;
                result.exitCode = 130; // as a shell reports SIGINT
                result.errorMessage = stopped ? QStringLiteral("Stopped") : QStringLiteral("Interrupted (Ctrl+C)");
                locateError(error, path, result);
            } else {
                result.status = ScriptResult::Status::Failed;
                result.exitCode = 1;
                py::module_ traceback = py::module_::import("traceback");
                const py::object lines =
                    traceback.attr("format_exception_only")(error.type(), error.value());
                // A SyntaxError quotes the line first; the message is the last line.
                const QString text = QString::fromStdString(py::str("").attr("join")(lines).cast<std::string>());
                result.errorMessage = text.trimmed().split(QLatin1Char('\n')).last().trimmed();
                locateError(error, path, result);
                // asc2's errors in the user's terms (no frames of the compiler's
                // own code, asc2/tracebacks.py), when the script got that far.
                const py::dict modules = py::module_::import("sys").attr("modules");
                const py::object printer = modules.contains("asc2.tracebacks")
                                               ? modules["asc2.tracebacks"].attr("print_exception")
                                               : traceback.attr("print_exception");
                printer(error.type(), error.value(), orNone(error.trace()));
            }
        } catch (const std::exception &inner) {
            result.status = ScriptResult::Status::Failed;
            result.exitCode = 1;
            result.errorMessage = QString::fromUtf8(error.what());
            appendOutput(Stream::Stderr, QString::fromUtf8(error.what()) + QLatin1Char('\n'));
            appendOutput(Stream::Stderr, QStringLiteral("(while reporting it: %1)\n").arg(QString::fromUtf8(inner.what())));
        }
    } catch (const std::exception &e) {
        result.status = ScriptResult::Status::Failed;
        result.exitCode = 1;
        result.errorMessage = QString::fromUtf8(e.what());
        appendOutput(Stream::Stderr, result.errorMessage + QLatin1Char('\n'));
    }
    result.wallMs = timer.nsecsElapsed() / 1e6;
    return result;
}

void PythonHost::appendOutput(Stream stream, const QString &text)
{
    if (text.isEmpty())
        return;
    std::lock_guard<std::mutex> lock(m_outputMutex);
    const int generation = m_currentOutputGeneration.load();
    if (!m_pendingOutput.empty() && m_pendingOutput.back().generation == generation
        && m_pendingOutput.back().stream == stream) {
        m_pendingOutput.back().text += text;
    } else {
        m_pendingOutput.push_back({generation, stream, text});
    }
    // One delivery per turn of the GUI event loop, however often the script prints.
    if (!m_drainPosted) {
        m_drainPosted = true;
        QMetaObject::invokeMethod(this, &PythonHost::drainOutput, Qt::QueuedConnection);
    }
}

void PythonHost::drainOutput()
{
    std::vector<Chunk> chunks;
    {
        std::lock_guard<std::mutex> lock(m_outputMutex);
        chunks.swap(m_pendingOutput);
        m_drainPosted = false;
    }
    for (const Chunk &chunk : chunks)
        emit output(chunk.generation, chunk.stream, chunk.text);
}

void PythonHost::deliverFinished(const ScriptResult &result)
{
    drainOutput();
    emit finished(result);
}
