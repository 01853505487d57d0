// Unsaved typing survives a killed workbench: a child process (this binary
// with --child) opens a kernel, types, autosaves and is SIGKILLed; a new
// window on the same file gets the typed text back.
#include "Autosave.h"
#include "JobRunner.h"
#include "KernelEditor.h"
#include "MainWindow.h"
#include "PythonHost.h"

#include <QApplication>
#include <QDir>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <cstring>

namespace {
const char kTyped[] = "# typed, never saved\n";

void nameApplication()
{
    QCoreApplication::setOrganizationName(QStringLiteral("asc2"));
    QCoreApplication::setApplicationName(QStringLiteral("asc2-workbench"));
}

// The child: a user who types and never saves.
int childMain(int argc, char **argv, const QString &kernel)
{
    QApplication app(argc, argv);
    nameApplication();
    PythonHost host(QStringList{});
    JobRunner runner(&host);
    MainWindow window(&runner);
    window.setAutosaveInterval(100);
    if (!window.openFile(kernel))
        return 2;
    window.show();
    // An edit as typing makes it (key events need an active window, which
    // an offscreen child does not reliably get).
    window.editor()->insertAt(QString::fromLatin1(kTyped), 0, 0);
    std::printf("typed\n");
    std::fflush(stdout);
    return app.exec(); // until killed
}
} // namespace

class TestAutosave : public QObject
{
    Q_OBJECT
private slots:
    void anUnsavedBufferSurvivesAKill()
    {
        QTemporaryDir home;
        const QString kernel = home.filePath(QStringLiteral("kernel.py"));
        QFile file(kernel);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("print('saved text')\n");
        file.close();

        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        QProcess child;
        child.setProcessEnvironment(env);
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--child"), kernel});
        QVERIFY(child.waitForStarted(10000));
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += child.readAllStandardOutput()).contains("typed") || child.state() != QProcess::Running, 20000);
        QCOMPARE(child.state(), QProcess::Running);

        const QString autosaveDir = home.filePath(QStringLiteral("data/asc2/asc2-workbench/autosave"));
        QTRY_VERIFY_WITH_TIMEOUT(!QDir(autosaveDir).entryList({QStringLiteral("*.json")}, QDir::Files).isEmpty(), 10000);
        child.kill(); // SIGKILL: no close event, no chance to clean up
        QVERIFY(child.waitForFinished(5000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);

        // Start again, as main() does: open the file, then restore.
        qputenv("XDG_DATA_HOME", home.filePath(QStringLiteral("data")).toUtf8());
        qputenv("XDG_CONFIG_HOME", home.filePath(QStringLiteral("config")).toUtf8());
        nameApplication();
        PythonHost host(QStringList{});
        JobRunner runner(&host);
        {
            MainWindow window(&runner);
            QCOMPARE(window.autosave()->directory(), autosaveDir);
            QVERIFY(window.openFile(kernel));
            QCOMPARE(window.editor()->text(), QStringLiteral("print('saved text')\n"));
            QVERIFY(window.restoreAutosave());
            QCOMPARE(window.filePath(), QFileInfo(kernel).absoluteFilePath());
            QCOMPARE(window.editor()->text(), QString::fromLatin1(kTyped) + QStringLiteral("print('saved text')\n"));
            QVERIFY(window.editor()->isModified());
            // The file on disk is untouched until the user saves.
            QVERIFY(file.open(QIODevice::ReadOnly));
            QCOMPARE(file.readAll(), QByteArray("print('saved text')\n"));
            file.close();
            // Knowingly dropping the changes drops the copy.
            window.autosave()->discard(window.filePath());
            window.editor()->setModified(false);
        }
        MainWindow again(&runner);
        QVERIFY(again.openFile(kernel));
        QVERIFY(!again.restoreAutosave());
    }
};

int main(int argc, char **argv)
{
    if (argc >= 3 && std::strcmp(argv[1], "--child") == 0)
        return childMain(argc, argv, QString::fromLocal8Bit(argv[2]));
    QApplication app(argc, argv);
    TestAutosave test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_autosave.moc"
