// asc2-workbench: the GUI, or one of its command-line modes (--headless,
// --screenshot), all on the same embedded interpreter and compiler.
#include "HeadlessRunner.h"
#include "JobRunner.h"
#include "MainWindow.h"
#include "PythonHost.h"
#include "ScreenshotRunner.h"
#include "Theme.h"

#include <QApplication>
#include <QIcon>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>

#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

namespace {
bool hasFlag(int argc, char **argv, const char *flag)
{
    for (int i = 1; i < argc && std::strcmp(argv[i], "--") != 0; ++i) { // after "--": the script's
        if (std::strcmp(argv[i], flag) == 0)
            return true;
    }
    return false;
}

// Qt reads -platform/--platform (the windowing plugin) before our parser sees
// it, and would abort on "--platform Ascend950": Qt gets the arguments without
// it; the value comes back as --platform=P for our parser.
struct TargetArgument {
    std::vector<char *> qtArgv;
    int qtArgc = 0;
    std::optional<QString> value;
};

TargetArgument takeTargetArgument(int argc, char **argv)
{
    TargetArgument out;
    for (int i = 0; i < argc; ++i) {
        if (i > 0 && std::strcmp(argv[i], "--") == 0) {
            out.qtArgv.insert(out.qtArgv.end(), argv + i, argv + argc);
            break;
        }
        if (std::strcmp(argv[i], "--platform") == 0 && i + 1 < argc) {
            out.value = QString::fromLocal8Bit(argv[++i]);
        } else if (std::strncmp(argv[i], "--platform=", 11) == 0) {
            out.value = QString::fromLocal8Bit(argv[i] + 11);
        } else {
            out.qtArgv.push_back(argv[i]);
        }
    }
    out.qtArgc = int(out.qtArgv.size());
    out.qtArgv.push_back(nullptr);
    return out;
}

int fail(const QString &message)
{
    std::fprintf(stderr, "asc2-workbench: %s\n", qPrintable(message));
    return 2;
}

void setUpApplication()
{
    QCoreApplication::setOrganizationName(QStringLiteral("asc2"));
    QCoreApplication::setApplicationName(QStringLiteral("asc2-workbench"));
    QCoreApplication::setApplicationVersion(QStringLiteral("0.1.0"));
}
} // namespace

int main(int argc, char **argv)
{
    // --export-project runs the file as --headless does.
    const bool exportsProject = hasFlag(argc, argv, "--export-project");
    const bool headless = hasFlag(argc, argv, "--headless") || exportsProject;
    const bool screenshot = hasFlag(argc, argv, "--screenshot");
    // The HTML report draws the inspector views: widgets, but no window.
    const bool paints = hasFlag(argc, argv, "--export-html");
    // Screenshots and exports are for tests and docs: they need no display.
    if ((screenshot || (headless && paints)) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    // Help and version print text: no display needed.
    const bool printsOnly = hasFlag(argc, argv, "--help") || hasFlag(argc, argv, "-h")
                            || hasFlag(argc, argv, "--help-all") || hasFlag(argc, argv, "--version")
                            || hasFlag(argc, argv, "-v");
    const bool windowless = printsOnly || (headless && !paints);
    if (!windowless)
        QApplication::setStyle(QStringLiteral("Fusion")); // follows the theme's palette everywhere

    TargetArgument target = takeTargetArgument(argc, argv);
    std::unique_ptr<QCoreApplication> app;
    if (windowless)
        app = std::make_unique<QCoreApplication>(target.qtArgc, target.qtArgv.data());
    else
        app = std::make_unique<QApplication>(target.qtArgc, target.qtArgv.data());
    setUpApplication();
    if (!windowless) {
        // Wayland and the task bars match the window to the desktop entry (packaging/).
        QGuiApplication::setDesktopFileName(QStringLiteral("org.asc2.Workbench"));
        QGuiApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("org.asc2.Workbench")));
    }

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Write Ascend kernels in the asc2 tile DSL, compile and simulate them."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption headlessOption(QStringLiteral("headless"),
                                            QStringLiteral("Run FILE without a window."));
    const QCommandLineOption platformOption(QStringLiteral("platform"),
                                            QStringLiteral("Target platform (sets ASC2_PLATFORM)."),
                                            QStringLiteral("P"));
    const QCommandLineOption backendOption(QStringLiteral("backend"),
                                           QStringLiteral("Execution backend, e.g. Model (sets ASC2_BACKEND)."),
                                           QStringLiteral("B"));
    const QCommandLineOption reportOption(QStringLiteral("report"),
                                          QStringLiteral("With --headless: write the run's reports to DIR."),
                                          QStringLiteral("DIR"));
    const QCommandLineOption htmlOption(
        QStringLiteral("export-html"),
        QStringLiteral("With --headless: write a self-contained HTML report (passes, UB map, sync timeline, "
                       "ping-pong, profile) of every kernel the script compiled to OUT.html."),
        QStringLiteral("OUT.html"));
    const QCommandLineOption traceOption(
        QStringLiteral("export-trace"),
        QStringLiteral("With --headless: write the last launch's simulated trace as Chrome trace JSON "
                       "(chrome://tracing, Perfetto, MindStudio Insight) to OUT.json."),
        QStringLiteral("OUT.json"));
    const QCommandLineOption exportProjectOption(
        QStringLiteral("export-project"),
        QStringLiteral("Run FILE without a window and write the first launch of every kernel it launches as a "
                       "self-contained Ascend C kernel project (CANN CMake flow, ACL host program, inputs, golden "
                       "outputs, compare script; builds on the host with -DASC2_TWIN=ON) to DIR/<kernel>/."),
        QStringLiteral("DIR"));
    const QCommandLineOption screenshotOption(QStringLiteral("screenshot"),
                                              QStringLiteral("Run FILE in the window and save it to OUT.png."),
                                              QStringLiteral("OUT.png"));
    const QCommandLineOption viewOption(
        QStringLiteral("view"),
        QStringLiteral("With --screenshot: the view to show (%1).").arg(MainWindow::viewNames().join(QStringLiteral(", "))),
        QStringLiteral("NAME"), QStringLiteral("editor"));
    const QCommandLineOption timeoutOption(
        QStringLiteral("timeout"),
        QStringLiteral("With --screenshot: seconds to wait for the run (default 120). With --headless: stop the run "
                       "after S seconds (exit status 124); no limit unless given."),
        QStringLiteral("S"), QStringLiteral("120"));
    const QCommandLineOption maxStepsOption(
        QStringLiteral("max-steps"),
        QStringLiteral("Stop a simulated block after N instructions as a probable endless loop, naming the loop's "
                       "line (sets ASC2_MAX_STEPS; 0: no limit, the default)."),
        QStringLiteral("N"));
    const QCommandLineOption themeOption(QStringLiteral("theme"),
                                         QStringLiteral("Colour theme: light or dark (the GUI remembers the last one)."),
                                         QStringLiteral("NAME"));
    parser.addOptions({headlessOption, platformOption, backendOption, reportOption, htmlOption, traceOption,
                       exportProjectOption, screenshotOption, viewOption, timeoutOption, maxStepsOption, themeOption});
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("The kernel script (.py) to open."));
    parser.addPositionalArgument(QStringLiteral("-- ARGS"), QStringLiteral("Arguments for the script (its sys.argv[1:])."),
                                 QStringLiteral("[-- ARGS...]"));
    QStringList arguments = app->arguments();
    if (target.value)
        arguments.insert(1, QStringLiteral("--platform=") + *target.value);
    parser.process(arguments);

    const QStringList positional = parser.positionalArguments();
    const QString file = positional.value(0);
    const QStringList scriptArguments = positional.mid(1);

    QMap<QString, QString> environment;
    if (parser.isSet(platformOption))
        environment.insert(QStringLiteral("ASC2_PLATFORM"), parser.value(platformOption));
    if (parser.isSet(backendOption))
        environment.insert(QStringLiteral("ASC2_BACKEND"), parser.value(backendOption));
    if (parser.isSet(maxStepsOption)) {
        bool stepsOk = false;
        parser.value(maxStepsOption).toULongLong(&stepsOk);
        if (!stepsOk)
            return fail(QStringLiteral("--max-steps needs a whole number of instructions (0: no limit), got '%1'")
                            .arg(parser.value(maxStepsOption)));
        environment.insert(QStringLiteral("ASC2_MAX_STEPS"), parser.value(maxStepsOption));
    }
    if (exportsProject)
        environment.insert(QStringLiteral("ASC2_EXPORT_PROJECT"), QFileInfo(parser.value(exportProjectOption)).absoluteFilePath());
    // Also for the compiler's own getenv, before the interpreter starts.
    for (auto it = environment.cbegin(); it != environment.cend(); ++it)
        qputenv(it.key().toUtf8().constData(), it.value().toUtf8());

    if (!headless && (parser.isSet(htmlOption) || parser.isSet(traceOption) || parser.isSet(reportOption)))
        return fail(QStringLiteral("--report, --export-html and --export-trace go with --headless"));

    PythonHost host;
    JobRunner runner(&host);

    if (headless) {
        if (file.isEmpty())
            return fail(QStringLiteral("--headless needs a FILE"));
        int timeout = 0;
        if (parser.isSet(timeoutOption)) {
            bool timeoutOk = false;
            timeout = parser.value(timeoutOption).toInt(&timeoutOk);
            if (!timeoutOk || timeout <= 0)
                return fail(QStringLiteral("--timeout needs a positive number of seconds"));
        }
        HeadlessRunner headlessRunner(&runner, {file, scriptArguments, parser.value(reportOption), parser.value(htmlOption),
                                                parser.value(traceOption), parser.value(exportProjectOption),
                                                environment, timeout});
        QObject::connect(&headlessRunner, &HeadlessRunner::finished, app.get(), &QCoreApplication::exit);
        headlessRunner.start();
        return app->exec();
    }

    if (screenshot) {
        if (file.isEmpty())
            return fail(QStringLiteral("--screenshot needs a FILE"));
        const std::optional<MainWindow::View> view = MainWindow::viewFromName(parser.value(viewOption));
        if (!view)
            return fail(QStringLiteral("unknown view '%1' (one of: %2)")
                            .arg(parser.value(viewOption), MainWindow::viewNames().join(QStringLiteral(", "))));
        bool timeoutOk = false;
        const int timeout = parser.value(timeoutOption).toInt(&timeoutOk);
        if (!timeoutOk || timeout <= 0)
            return fail(QStringLiteral("--timeout needs a positive number of seconds"));

        MainWindow window(&runner, /*persistLayout=*/false);
        if (parser.isSet(themeOption))
            window.setTheme(Theme::kindFromName(parser.value(themeOption)));
        window.setRunEnvironment(environment);
        window.setRunArguments(scriptArguments);
        QString error;
        if (!window.openFile(file, &error))
            return fail(error);
        ScreenshotRunner::Options options;
        options.output = parser.value(screenshotOption);
        options.view = *view;
        options.timeoutSeconds = timeout;
        ScreenshotRunner screenshotRunner(&window, options);
        QObject::connect(&screenshotRunner, &ScreenshotRunner::finished, app.get(), &QCoreApplication::exit);
        screenshotRunner.start();
        return app->exec();
    }

    MainWindow window(&runner);
    if (parser.isSet(themeOption))
        window.setTheme(Theme::kindFromName(parser.value(themeOption)));
    window.setRunEnvironment(environment);
    window.setRunArguments(scriptArguments);
    if (!file.isEmpty()) {
        QString error;
        if (!window.openFile(file, &error))
            std::fprintf(stderr, "asc2-workbench: %s\n", qPrintable(error));
    }
    // Unsaved changes of a crashed or killed session come back.
    window.restoreAutosave();
    window.show();
    return app->exec();
}
