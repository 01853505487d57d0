// The workbench on the real asc2 package and the samples: what a kernel
// author does in the edit -> compile -> inspect loop.
#include "AppTestSupport.h"
#include "AscendCView.h"
#include "RunController.h"
#include "MainWindowFixture.h"
#include "CompareController.h"
#include "ComparePanel.h"
#include "ConsoleView.h"
#include "CoresTimelineView.h"
#include "InspectorState.h"
#include "IrDiffView.h"
#include "IrView.h"
#include "KernelEditor.h"
#include "DocumentController.h"
#include "MainWindow.h"
#include "PassListModel.h"
#include "PassesPanel.h"
#include "PingPongView.h"
#include "ProfileView.h"
#include "UbMapView.h"

#include "InspectorExport.h"

#include "asc2/Driver/Pipeline.h"

#include <Qsci/qscilexer.h>

#include <QAction>
#include <QCheckBox>
#include <QMenu>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QScrollBar>
#include <QTableWidget>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTextBlock>

class TestWorkbench : public QObject, private MainWindowFixture
{
    Q_OBJECT
public:
    TestWorkbench() : MainWindowFixture(QSize(1400, 900)) {}

private slots:
    void initTestCase()
    {
        qputenv("ASC2_CACHE_DIR", m_cache.path().toUtf8());
        startHost(new PythonHost()); // the staged asc2 package
    }
    void cleanupTestCase() { stopHost(); }
    void init() { QVERIFY(openWindow()); }
    void cleanup() { closeWindow(); }

    void runASampleAndFollowIrLinesToPython()
    {
        QVERIFY(m_window->openFile(QStringLiteral(ASC2_SOURCE_DIR "/samples/vadd.py")));
        m_window->runScript();
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 60000);
        const RunSummary summary = m_finished->takeFirst().at(0).value<RunSummary>();
        QVERIFY2(summary.ok(), qPrintable(summary.headline() + m_window->console()->toPlainText()));

        PassesPanel *passes = m_window->passesPanel();
        // After lowering, the add is one op that came from `x + y`.
        const int sync = passes->model()->rowOfPass(QStringLiteral("convert-asctile-to-ascendc"));
        QVERIFY(sync > 0);
        passes->selectPass(sync);
        const asc2::PassRecord *pass = passes->model()->passAt(sync);
        QCOMPARE(passes->irView()->ir(), QString::fromStdString(pass->ir));

        // The reader clicks the vector add in the IR: the editor goes to `x + y`.
        const QStringList irLines = passes->irView()->ir().split(QLatin1Char('\n'));
        int addLine = -1;
        for (int i = 0; i < irLines.size() && addLine < 0; ++i) {
            if (irLines[i].contains(QStringLiteral("ascendc.add ")))
                addLine = i;
        }
        QVERIFY(addLine >= 0);
        QVERIFY(size_t(addLine) < pass->irLines.size());
        const int pythonLine = pass->irLines[size_t(addLine)];
        QVERIFY(pythonLine > 0);
        IrView *ir = passes->irView();
        const QRect rect = ir->cursorRect(QTextCursor(ir->document()->findBlockByNumber(addLine)));
        ir->verticalScrollBar()->setValue(0);
        ir->setTextCursor(QTextCursor(ir->document()->findBlockByNumber(addLine)));
        Q_UNUSED(rect);
        QTRY_COMPARE(m_window->editor()->cursorLine(), pythonLine);
        QVERIFY2(m_window->editor()->text(pythonLine - 1).contains(QStringLiteral("x + y")),
                 qPrintable(m_window->editor()->text(pythonLine - 1)));
        QCOMPARE(m_window->editor()->linkedLine(), pythonLine);

        // And back: the editor on the copy_in of x marks its IR lines.
        int copyInLine = 0;
        for (int l = 0; l < m_window->editor()->lines() && !copyInLine; ++l) {
            if (m_window->editor()->text(l).contains(QStringLiteral("x = asc2.copy_in")))
                copyInLine = l + 1;
        }
        QVERIFY(copyInLine > 0);
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window));
        m_window->editor()->setFocus();
        m_window->editor()->goToLine(copyInLine);
        const auto linkedToCopyIn = [&] {
            const QVector<int> linked = ir->linkedLines();
            return !linked.isEmpty() && std::all_of(linked.begin(), linked.end(), [&](int l) {
                return pass->irLines[size_t(l)] == copyInLine;
            });
        };
        QTRY_VERIFY(linkedToCopyIn());

        // Where did the copy first change? A pass after the frontend.
        const int first = passes->firstPassChangingSourceLine(copyInLine);
        QVERIFY(first > 0);
        m_window->action(QStringLiteral("firstChange"))->trigger();
        QCOMPARE(passes->selectedPass(), first);

        // The diff view shows the chosen pass against the one before.
        m_window->showView(MainWindow::View::Diff);
        QCOMPARE(passes->page(), PassesPanel::Page::Diff);
    }

    void ascendCLinesLeadToTheirPythonLineAndBack()
    {
        QVERIFY(m_window->openFile(QStringLiteral(ASC2_SOURCE_DIR "/samples/vadd.py")));
        m_window->runScript();
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 60000);
        QVERIFY(m_finished->takeFirst().at(0).value<RunSummary>().ok());

        // The reader clicks the vector add in the Ascend C: the editor goes to `x + y`.
        AscendCView *ascendc = m_window->ascendcView();
        m_window->showView(MainWindow::View::AscendC);
        int addLine = -1;
        for (int l = 0; l < ascendc->lines() && addLine < 0; ++l) {
            if (ascendc->text(l).contains(QStringLiteral("AscendC::Add(")))
                addLine = l;
        }
        QVERIFY(addLine >= 0);
        const int pythonLine = ascendc->sourceLineOf(addLine + 1);
        QVERIFY(pythonLine > 0);
        ascendc->setCursorPosition(addLine, 0);
        QTRY_COMPARE(m_window->editor()->cursorLine(), pythonLine);
        QVERIFY2(m_window->editor()->text(pythonLine - 1).contains(QStringLiteral("x + y")),
                 qPrintable(m_window->editor()->text(pythonLine - 1)));
        QCOMPARE(m_window->editor()->linkedLine(), pythonLine);
        QVERIFY(ascendc->linkedLines().contains(addLine));

        // And back: the editor on the copy_in of x marks its Ascend C lines (the
        // DataCopy of both ping-pong slots), and only those.
        int copyInLine = 0;
        for (int l = 0; l < m_window->editor()->lines() && !copyInLine; ++l) {
            if (m_window->editor()->text(l).contains(QStringLiteral("x = asc2.copy_in")))
                copyInLine = l + 1;
        }
        QVERIFY(copyInLine > 0);
        m_window->editor()->goToLine(copyInLine);
        QTRY_VERIFY(!ascendc->linkedLines().isEmpty() && ascendc->sourceLineOf(ascendc->linkedLines().first() + 1) == copyInLine);
        bool copies = false;
        for (int l : ascendc->linkedLines()) {
            QCOMPARE(ascendc->sourceLineOf(l + 1), copyInLine);
            QVERIFY2(ascendc->text(l).contains(QStringLiteral("// line %1").arg(copyInLine)), qPrintable(ascendc->text(l)));
            copies = copies || ascendc->text(l).contains(QStringLiteral("DataCopy"));
        }
        QVERIFY(copies);
    }

    void aRunFillsAllCoresAndColourBandsMatchALineToItsCode()
    {
        QVERIFY(m_window->openFile(QStringLiteral(ASC2_SOURCE_DIR "/samples/vadd.py")));
        m_window->runScript();
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 60000);
        QVERIFY(m_finished->takeFirst().at(0).value<RunSummary>().ok());
        // All Cores shows every block of the launch, titled with the kernel.
        CoresTimelineView *cores = m_window->coresPanel()->view();
        QVERIFY(cores->hasContent());
        const ReportPtr report = m_window->passesPanel()->currentReport();
        QCOMPARE(int(cores->trace().cores.size()), report->launches.back().blockNum);
        QVERIFY(cores->title().startsWith(QString::fromStdString(report->kernel)));
        m_window->showView(MainWindow::View::Cores);
        QVERIFY(m_window->coresPanel()->isVisible());
        KernelEditor *editor = m_window->editor();
        AscendCView *ascendc = m_window->ascendcView();
        IrView *ir = m_window->passesPanel()->irView();
        QAction *bands = m_window->action(QStringLiteral("colourBands"));
        QVERIFY(bands && bands->isCheckable() && !bands->isChecked());
        const auto pythonLineOf = [&](const QString &code) {
            for (int l = 0; l < editor->lines(); ++l)
                if (editor->text(l).contains(code))
                    return l + 1;
            return 0;
        };
        const int add = pythonLineOf(QStringLiteral("asc2.copy_out(x + y"));
        const int copyIn = pythonLineOf(QStringLiteral("x = asc2.copy_in"));
        QVERIFY(add > 0 && copyIn > 0);
        QCOMPARE(editor->bandAt(add), -1); // off until asked for

        bands->trigger();
        // The Python line, its Ascend C lines and its IR lines share one colour;
        // neighbouring lines differ.
        for (const int line : {add, copyIn}) {
            const int band = editor->bandAt(line);
            QVERIFY2(band >= 0, qPrintable(editor->text(line - 1)));
            int ascendcLines = 0;
            for (int l = 1; l <= ascendc->lines(); ++l) {
                if (ascendc->sourceLineOf(l) != line)
                    continue;
                QCOMPARE(ascendc->bandAt(l), band);
                ++ascendcLines;
            }
            QVERIFY(ascendcLines > 0);
            const asc2::PassRecord *pass = m_window->passesPanel()->model()->passAt(m_window->passesPanel()->selectedPass());
            QVERIFY(pass);
            int irLines = 0;
            for (size_t l = 0; l < pass->irLines.size(); ++l) {
                if (pass->irLines[l] != line)
                    continue;
                QCOMPARE(ir->bandAt(int(l)), band);
                ++irLines;
            }
            QVERIFY(irLines > 0);
        }
        QVERIFY(editor->bandAt(add) != editor->bandAt(add - 1) || editor->bandAt(add - 1) < 0);
        // A line that made no code has no band (the kernel's docstring, a comment).
        for (int l = 1; l <= editor->lines(); ++l)
            if (editor->text(l - 1).trimmed().startsWith(QLatin1Char('#')))
                QCOMPARE(editor->bandAt(l), -1);

        // Another pass: its IR gets its bands.
        m_window->passesPanel()->selectPass(1);
        const asc2::PassRecord *first = m_window->passesPanel()->model()->passAt(1);
        for (size_t l = 0; l < first->irLines.size(); ++l)
            QCOMPARE(ir->bandAt(int(l)), first->irLines[l] > 0 ? first->irLines[l] % Theme::kBandCount : -1);

        m_window->showView(MainWindow::View::AscendC);
        saveScreenshot(QStringLiteral("bands"));
        bands->trigger();
        QCOMPARE(editor->bandAt(add), -1);
        for (int l = 1; l <= ascendc->lines(); ++l)
            QCOMPARE(ascendc->bandAt(l), -1);
        QCOMPARE(ir->bandAt(0), -1);
    }

    void resultsOfOtherCodeAreMarkedStale()
    {
        QVERIFY(m_window->openFile(QStringLiteral(ASC2_SOURCE_DIR "/samples/vadd.py")));
        const auto staleDocks = [&] {
            int n = 0;
            for (QDockWidget *dock : m_window->resultDocks())
                n += dock->windowTitle().endsWith(QStringLiteral("(stale)"));
            return n;
        };
        UbMapView *ub = m_window->ubMap();
        m_window->runScript();
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 60000);
        QVERIFY(m_finished->takeFirst().at(0).value<RunSummary>().ok());
        QCOMPARE(staleDocks(), 0);
        QVERIFY(ub->staleNoteRect().isEmpty());

        // An edit: the results are of the code before it.
        KernelEditor *editor = m_window->editor();
        editor->insertAt(QStringLiteral("# an edit\n"), 0, 0);
        QCOMPARE(staleDocks(), int(m_window->resultDocks().size()));
        QVERIFY(m_window->inspectorState()->staleNote().contains(QStringLiteral("edited")));
        QVERIFY(!ub->staleNoteRect().isEmpty());
        QCOMPARE(m_window->passesPanel()->parentWidget()->toolTip(), m_window->inspectorState()->staleNote());

        // A run of it: fresh again once it reports its kernel.
        m_window->runScript();
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 60000);
        QVERIFY(m_finished->takeFirst().at(0).value<RunSummary>().ok());
        QCOMPARE(staleDocks(), 0);
        // Both runs stay in the Profile view, numbered and timed, so before
        // and after the edit can be compared (a re-run replaced the old one).
        auto *profile = m_window->findChild<ProfileView *>();
        QVERIFY(profile);
        QStringList labels;
        for (const inspector::ProfileRun &run : profile->runs())
            labels << run.label;
        const QRegularExpression numbered(QStringLiteral("^run (\\d+), \\d\\d:\\d\\d:\\d\\d: vadd @ "));
        QSet<QString> runNumbers;
        for (const QString &label : labels) {
            const QRegularExpressionMatch m = numbered.match(label);
            QVERIFY2(m.hasMatch(), qPrintable(label));
            runNumbers.insert(m.captured(1));
        }
        QCOMPARE(runNumbers.size(), 2);
        QVERIFY2(labels.size() >= 2, qPrintable(labels.join(QLatin1Char('\n'))));

        // A run that fails before it compiles anything leaves the earlier results, marked.
        editor->insertAt(QStringLiteral("raise SystemExit(3)\n"), 0, 0);
        m_window->runScript();
        QVERIFY(m_window->inspectorState()->staleNote().contains(QStringLiteral("Running")));
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 60000);
        QVERIFY(!m_finished->takeFirst().at(0).value<RunSummary>().ok());
        QVERIFY2(m_window->inspectorState()->staleNote().contains(QStringLiteral("before it compiled a kernel")),
                 qPrintable(m_window->inspectorState()->staleNote()));
        QCOMPARE(staleDocks(), int(m_window->resultDocks().size()));

        // Another file: nothing of the old one is shown, nothing is stale.
        QVERIFY(m_window->openFile(QStringLiteral(ASC2_SOURCE_DIR "/samples/gelu.py")));
        QCOMPARE(staleDocks(), 0);
        QVERIFY(m_window->inspectorState()->staleNote().isEmpty());
    }

    void aRunExplainsItsHeatAndAnImportOverlaysTheUbMap()
    {
        QVERIFY(m_window->openFile(QStringLiteral(ASC2_SOURCE_DIR "/samples/vadd.py")));
        m_window->runScript();
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 60000);
        QVERIFY(m_finished->takeFirst().at(0).value<RunSummary>().ok());

        // The hottest line's heat strip tells its time, cycles and pipes.
        KernelEditor *editor = m_window->editor();
        int hot = 0;
        for (int line = 1; line <= editor->lines() && !hot; ++line)
            if (editor->lineHeatLevel(line) == KernelEditor::kHeatLevels)
                hot = line;
        QVERIFY(hot > 0);
        const QString tip = editor->heatToolTip(hot);
        QVERIFY2(tip.contains(QStringLiteral("line %1:").arg(hot)) && tip.contains(QStringLiteral("cycles"))
                     && tip.contains(QStringLiteral("% of the time of all lines")) && tip.contains(QStringLiteral("vadd @")),
                 qPrintable(tip));

        // msprof op data over the UB map, from the Profile view's import.
        UbMapView *map = m_window->ubMap();
        QVERIFY(!map->hasOverlay());
        QString message;
        QVERIFY2(m_window->profileView()->importPath(QStringLiteral(ASC2_SOURCE_DIR "/tests/widgets/fixtures/msprof_op"), &message),
                 qPrintable(message));
        QVERIFY(map->hasOverlay());
        QCOMPARE(map->overlay().basis, inspector::PointHeat::Basis::PipeUtilization);
        QVERIFY(m_window->ubMapPanel()->overlayBox()->isChecked());

        // Our own trace, exported and imported back: time per program point.
        QTemporaryDir dir;
        const ReportPtr report = m_window->passesPanel()->currentReport();
        QString error;
        QVERIFY2(inspector::writeChromeTrace(*report, int(report->launches.size()) - 1, dir.filePath("trace.json"), &error),
                 qPrintable(error));
        QVERIFY(m_window->profileView()->importPath(dir.filePath("trace.json"), &message));
        QCOMPARE(map->overlay().basis, inspector::PointHeat::Basis::Trace);
        QVERIFY(map->overlay().total > 0);
        m_window->showView(MainWindow::View::UbMap);
        QVERIFY(!map->grab().isNull());

        // And the whole run as one HTML file.
        QVERIFY2(m_window->exportHtmlReport(dir.filePath("report.html"), &error), qPrintable(error));
        QFile html(dir.filePath("report.html"));
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QByteArray text = html.readAll();
        QVERIFY(text.contains("id=\"ub-map\"") && text.contains("id=\"sync-timeline-simulated\"") && text.contains("id=\"profile\""));
    }

    void aCompileErrorMarksTheKernelLineWithItsMessage()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad_kernel.py"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("import numpy as np\n"
                   "import asc2\n"
                   "\n"
                   "\n"
                   "@asc2.jit\n"
                   "def k(x_ptr: asc2.GlobalAddress, n: int):\n"
                   "    x = asc2.global_tensor(x_ptr, [n])\n"
                   "    t = asc2.copy_in(x, [0], [64])\n"
                   "    asc2.copy_out(t + asc2.nonexistent(t), x, [0])\n"
                   "\n"
                   "\n"
                   "x = np.zeros(64, np.float32)\n"
                   "k[1](x, 64)\n");
        file.close();
        QVERIFY(m_window->openFile(path));
        m_window->runScript();
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 60000);
        // The kernel line, not the launch at the bottom nor the compiler's frames.
        QCOMPARE(m_window->editor()->markedErrorLines(), QVector<int>{9});
        QVERIFY2(m_window->editor()->diagnosticsTextAt(9).contains(QStringLiteral("nonexistent")),
                 qPrintable(m_window->editor()->diagnosticsTextAt(9)));
        QVERIFY(m_window->editor()->annotation(8).contains(QStringLiteral("CompilationError")));

        // The console's "file:line:col" is a link to the same line.
        ConsoleView *console = m_window->console();
        const int at = int(console->toPlainText().indexOf(path + QStringLiteral(":9:")));
        QVERIFY2(at >= 0, qPrintable(console->toPlainText()));
        m_window->editor()->goToLine(1);
        QVERIFY(console->activateAt(at + 2));
        QCOMPARE(m_window->editor()->cursorLine(), 9);
        // The traceback is the user's: their launch line, not asc2's compiler
        // (asc2/tracebacks.py), and no chained internal cause.
        const QString text = console->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("line 13, in <module>")) && text.contains(QStringLiteral("inside asc2 hidden"))
                     && !text.contains(QStringLiteral("visitor.py")) && !text.contains(QStringLiteral("During handling")),
                 qPrintable(text));
    }

    void compileOnlyAndToolbarSettingsReachTheScript()
    {
        m_window->editor()->setText(QStringLiteral(
            "import os\n"
            "for k in ('ASC2_COMPILE_ONLY', 'ASC2_PLATFORM', 'ASC2_JIT_INSERT_SYNC', 'ASC2_JIT_REUSE_ALLOC'):\n"
            "    print(k, os.environ.get(k))\n"));
        QTest::keyClick(m_window->editor(), Qt::Key_B, Qt::ControlModifier);
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 20000);
        QString console = m_window->console()->toPlainText();
        QVERIFY2(console.contains(QStringLiteral("ASC2_COMPILE_ONLY 1\n")), qPrintable(console));
        QVERIFY(console.contains(QStringLiteral("compile only")));
        QVERIFY(console.contains(QStringLiteral("ASC2_JIT_INSERT_SYNC None\n")));

        // A plain run afterwards does not inherit compile-only.
        m_window->console()->clear();
        QTest::keyClick(m_window->editor(), Qt::Key_F5);
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 2, 20000);
        console = m_window->console()->toPlainText();
        QVERIFY2(console.contains(QStringLiteral("ASC2_COMPILE_ONLY None\n")), qPrintable(console));

        // Changing a toolbar setting re-runs with it.
        m_window->console()->clear();
        auto *platform = m_window->findChild<QComboBox *>(QStringLiteral("platform"));
        QVERIFY(platform && platform->count() >= 6);
        QVERIFY(platform->findText(QStringLiteral("Ascend950")) >= 0);
        auto *insertSync = m_window->findChild<QComboBox *>(QStringLiteral("insertSync"));
        insertSync->setCurrentIndex(insertSync->findData(QStringLiteral("0")));
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 3, 20000);
        console = m_window->console()->toPlainText();
        QVERIFY2(console.contains(QStringLiteral("ASC2_JIT_INSERT_SYNC 0\n")), qPrintable(console));
        platform->setCurrentText(QStringLiteral("Ascend950"));
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 4, 20000);
        QVERIFY(m_window->console()->toPlainText().contains(QStringLiteral("ASC2_PLATFORM Ascend950\n")));
        // The NPU backend needs CANN: offered, but disabled.
        auto *backend = m_window->findChild<QComboBox *>(QStringLiteral("backend"));
        QCOMPARE(backend->itemData(1, Qt::ToolTipRole).toString(), QStringLiteral("no CANN toolkit"));
    }

    void theTargetBoxSwitchesThePlatformOfTheNextRun()
    {
        // The interpreter outlives the runs: what the first run chose must not stick.
        QVERIFY(m_window->openFile(QStringLiteral(ASC2_SOURCE_DIR "/samples/vadd.py")));
        auto *platform = m_window->findChild<QComboBox *>(QStringLiteral("platform"));
        QCOMPARE(platform->currentText(), QStringLiteral("Ascend910B1"));
        m_window->runScript();
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 60000);
        QVERIFY(m_finished->takeFirst().at(0).value<RunSummary>().ok());
        QCOMPARE(m_window->passesPanel()->currentReport()->target, std::string("Ascend910B1"));
        const uint64_t a2Cycles = m_window->passesPanel()->currentReport()->launches.back().totalCycles;

        platform->setCurrentText(QStringLiteral("Ascend950")); // runs again
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 60000);
        QVERIFY(m_finished->takeFirst().at(0).value<RunSummary>().ok());
        const ReportPtr a5 = m_window->passesPanel()->currentReport();
        QCOMPARE(a5->target, std::string("Ascend950"));
        QVERIFY(a5->launches.back().totalCycles != a2Cycles);
        QVERIFY2(m_window->statusText().contains(QStringLiteral("Ascend950")), qPrintable(m_window->statusText()));

        // And a script's own asc2.set_platform lasts for that script only.
        m_window->editor()->setText(QStringLiteral(
            "import asc2\nasc2.set_platform('Model', 'Ascend910_93')\nprint('target', asc2.get_platform().platform)\n"));
        m_window->runScript();
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 20000);
        m_finished->clear();
        m_window->console()->clear();
        m_window->editor()->setText(QStringLiteral("import asc2\nprint('target', asc2.get_platform().platform)\n"));
        m_window->runScript();
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 20000);
        QVERIFY2(m_window->console()->toPlainText().contains(QStringLiteral("target Ascend950\n")),
                 qPrintable(m_window->console()->toPlainText()));
    }

    void aNewcomersWalkThroughEndsInAnHtmlReportOfEveryKernel()
    {
        // open sample -> edit -> run -> switch target -> compile only ->
        // import msprof data -> export HTML, through the window's own controls.
        QVERIFY(m_window->openFile(QStringLiteral(ASC2_SOURCE_DIR "/samples/softmax.py")));
        KernelEditor *editor = m_window->editor();
        m_window->activateWindow();
        editor->setFocus();
        editor->setCursorPosition(0, 0);
        QTest::keyClicks(editor, QStringLiteral("# tried by a newcomer"));
        QTest::keyClick(editor, Qt::Key_Return);
        QVERIFY(editor->text(0).startsWith(QStringLiteral("# tried by a newcomer")));

        QTest::keyClick(editor, Qt::Key_F5);
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 60000);
        RunSummary summary = m_finished->takeFirst().at(0).value<RunSummary>();
        QVERIFY2(summary.ok(), qPrintable(summary.headline() + m_window->console()->toPlainText()));
        QCOMPARE(summary.kernels.size(), 2); // softmax and softmax_fused
        // The sample has rows enough per core that its batched row loop
        // (8 rows a trip) runs several iterations: ping-pong shows something.
        const PingPongView *pingPong = m_window->pingPongPanel()->view();
        QVERIFY2(pingPong->iterations().size() >= 3, qPrintable(pingPong->title()));
        QVERIFY2(pingPong->title().contains("rows batched"), qPrintable(pingPong->title()));

        auto *platform = m_window->findChild<QComboBox *>(QStringLiteral("platform"));
        platform->setCurrentText(QStringLiteral("Ascend950")); // runs again
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 60000);
        summary = m_finished->takeFirst().at(0).value<RunSummary>();
        QVERIFY(summary.ok());
        QCOMPARE(m_window->passesPanel()->currentReport()->target, std::string("Ascend950"));

        m_window->action(QStringLiteral("compileOnly"))->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 60000);
        summary = m_finished->takeFirst().at(0).value<RunSummary>();
        QVERIFY(summary.ok() && !summary.lastLaunched && summary.kernels.size() == 2);

        QString message;
        QVERIFY2(m_window->profileView()->importPath(QStringLiteral(ASC2_SOURCE_DIR "/tests/widgets/fixtures/msprof_op"), &message),
                 qPrintable(message));

        QTemporaryDir dir;
        QString error;
        QVERIFY2(m_window->exportHtmlReport(dir.filePath("walk.html"), &error), qPrintable(error));
        QFile html(dir.filePath("walk.html"));
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(html.readAll());
        // Both kernels of the script, each on the target chosen, neither launched.
        QVERIFY(text.contains(QStringLiteral("<h1>softmax.py</h1>")));
        QVERIFY(text.contains(QStringLiteral("<h1 id=\"k1-kernel\">softmax</h1>")));
        QVERIFY(text.contains(QStringLiteral("<h1 id=\"k2-kernel\">softmax_fused</h1>")));
        QCOMPARE(text.count(QStringLiteral("<p>target Ascend950 ")), 2);
        QCOMPARE(text.count(QStringLiteral("compiled, not launched")), 4); // the list and each section
        QVERIFY(text.contains(QStringLiteral("id=\"k1-ub-map\"")) && text.contains(QStringLiteral("id=\"k2-ub-map\"")));
    }

    void compileOnlyRunsEverySample()
    {
        const QStringList samples = QDir(QStringLiteral(ASC2_SOURCE_DIR "/samples"))
                                        .entryList({QStringLiteral("*.py")}, QDir::Files, QDir::Name);
        QVERIFY2(samples.size() >= 14, "the samples directory lost its samples");
        for (const QString &name : samples) {
            QVERIFY(m_window->openFile(QStringLiteral(ASC2_SOURCE_DIR "/samples/") + name));
            m_window->console()->clear();
            m_window->action(QStringLiteral("compileOnly"))->trigger();
            QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 60000);
            const RunSummary summary = m_finished->takeFirst().at(0).value<RunSummary>();
            const QString console = m_window->console()->toPlainText();
            QVERIFY2(summary.ok(), qPrintable(name + QLatin1Char('\n') + summary.headline() + QLatin1Char('\n') + console));
            // Every kernel compiled and filled the views; none ran, and the script said so.
            QVERIFY2(!summary.kernels.isEmpty() && !summary.lastLaunched, qPrintable(name));
            QVERIFY(m_window->passesPanel()->model()->rowCount() > 5);
            QVERIFY2(console.contains(QStringLiteral(": compiled, not run (")) && !console.contains(QStringLiteral(": OK")),
                     qPrintable(name + QLatin1Char('\n') + console));
            QVERIFY2(m_window->statusText().startsWith(QStringLiteral("Compiled ")), qPrintable(m_window->statusText()));
        }
    }

    void stopAlsoCancelsTheSimulator()
    {
        asc2::cancelRequested() = false;
        m_window->editor()->setText(QStringLiteral("while True:\n    pass\n"));
        m_window->runScript();
        QTRY_VERIFY_WITH_TIMEOUT(m_host->runningGeneration() != 0, 10000);
        QVERIFY(m_window->isBusy());
        QTest::keyClick(m_window->editor(), Qt::Key_F5, Qt::ShiftModifier);
        QVERIFY(asc2::cancelRequested().load());
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 1000);
        QVERIFY(!m_window->isBusy());
    }

    void themeSwitchRecoloursEveryView()
    {
        QVERIFY(m_window->themeKind() == Theme::Kind::Light);
        m_window->action(QStringLiteral("darkTheme"))->trigger();
        QCOMPARE(m_window->themeKind(), Theme::Kind::Dark);
        const Theme dark = Theme::dark();
        QCOMPARE(QApplication::palette().color(QPalette::Window), dark.palette.color(QPalette::Window));
        QCOMPARE(m_window->editor()->lexer()->paper(0), dark.background);
        QCOMPARE(m_window->passesPanel()->irView()->palette().color(QPalette::Base), dark.background);
        QCOMPARE(m_window->console()->palette().color(QPalette::Base), dark.background);
        m_window->action(QStringLiteral("darkTheme"))->trigger();
        QCOMPARE(m_window->themeKind(), Theme::Kind::Light);
        QCOMPARE(m_window->editor()->lexer()->paper(0), Theme::light().background);
    }

    void fileNewGivesAKernelThatRuns()
    {
        QAction *create = m_window->action(QStringLiteral("new"));
        QVERIFY(create);
        QCOMPARE(create->shortcut(), QKeySequence(QKeySequence::New));
        m_window->editor()->setText(QStringLiteral("print('old')\n"));
        m_window->editor()->setModified(false);
        create->trigger();
        QCOMPARE(m_window->editor()->text(), DocumentController::newKernelText());
        QVERIFY(m_window->editor()->text().contains(QStringLiteral("@asc2.jit")));
        QVERIFY(m_window->filePath().isEmpty());
        QVERIFY(m_window->windowTitle().contains(QStringLiteral("untitled.py")));
        QVERIFY(!m_window->isWindowModified());
        m_window->action(QStringLiteral("run"))->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 60000);
        // It compiled a kernel: the views are filled and not stale.
        QCOMPARE(m_window->passesPanel()->reports().size(), 1);
        const QString console = m_window->console()->toPlainText();
        QVERIFY2(console.contains(QStringLiteral("max abs error: 0.0")), qPrintable(console));
    }

    void f5RunsWhileACallTipOrCompletionListShows()
    {
        // Issue 18 item 14: the first F5 after typing went to the call tip
        // (seen under a window manager; under Xvfb without one F5 ran, and the
        // tip stayed over the editor). F5 runs and closes both popups.
        KernelEditor *editor = m_window->editor();
        editor->setText(QStringLiteral("import asc2\nprint('ran')\nasc2.co"));
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window));
        editor->setFocus();
        editor->setCursorPosition(2, 7);
        QTest::keyClicks(editor, QStringLiteral("py_in("));
        QTRY_VERIFY(editor->SendScintilla(QsciScintillaBase::SCI_CALLTIPACTIVE) != 0
                    || editor->isListActive());
        QSignalSpy started(m_runner, &JobRunner::runStarted);
        QTest::keyClick(editor, Qt::Key_F5);
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 2000);
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 30000);
        QCOMPARE(editor->SendScintilla(QsciScintillaBase::SCI_CALLTIPACTIVE), 0L);
        // The same with the completion list open.
        editor->setText(QStringLiteral("import asc2\nprint('ran')\n"));
        editor->setCursorPosition(2, 0);
        QTest::keyClicks(editor, QStringLiteral("asc2.cop"));
        editor->autoCompleteFromAll();
        QTRY_VERIFY(editor->isListActive());
        QTest::keyClick(editor, Qt::Key_F5);
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 2, 2000);
        QVERIFY(!editor->isListActive());
    }

    void compileAsYouTypeCompilesOnceTypingPauses()
    {
        QVERIFY(m_window->openFile(QStringLiteral(ASC2_SOURCE_DIR "/samples/vadd.py")));
        RunController *runs = m_window->runs();
        runs->setAutoCompileDelay(300);
        QSignalSpy started(m_runner, &JobRunner::runStarted);
        QAction *asYouType = m_window->action(QStringLiteral("compileAsYouType"));
        QVERIFY(asYouType && asYouType->isCheckable() && !asYouType->isChecked());

        // Off: typing runs nothing. (A comment of its own at the end of the file.)
        KernelEditor *editor = m_window->editor();
        m_window->activateWindow();
        editor->setFocus();
        editor->SendScintilla(QsciScintillaBase::SCI_DOCUMENTEND);
        QTest::keyClick(editor, Qt::Key_Return);
        QTest::keyClicks(editor, QStringLiteral("#"));
        QTest::qWait(600);
        QCOMPARE(started.count(), 0);

        // On: a burst of keys (each within the pause) makes one compile, of the
        // text as it is after the last key, compile only.
        asYouType->setChecked(true);
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 60000); // switching on compiles what is there
        m_finished->clear();
        started.clear();
        for (const QChar c : QStringLiteral(" edited"))
            QTest::keyClick(editor, c.toLatin1(), Qt::NoModifier, 50);
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 60000);
        QTest::qWait(500);
        QCOMPARE(started.count(), 1);
        RunSummary summary = m_finished->takeFirst().at(0).value<RunSummary>();
        QVERIFY2(summary.ok() && !summary.lastLaunched && !summary.kernels.isEmpty(),
                 qPrintable(summary.headline() + m_window->console()->toPlainText()));
        QVERIFY(m_window->console()->toPlainText().contains(QStringLiteral("(as you type)")));
        QVERIFY(runs->resultsNote().isEmpty()); // the views show the code in the editor

        // An edit that breaks the kernel marks its line, as the compile would.
        const int addLine = [&] {
            for (int l = 0; l < editor->lines(); ++l)
                if (editor->text(l).contains(QStringLiteral("asc2.copy_out(x + y")))
                    return l;
            return -1;
        }();
        QVERIFY(addLine >= 0);
        const QString good = editor->text();
        const int at = editor->text(addLine).indexOf(QStringLiteral("x + y"));
        editor->setCursorPosition(addLine, at);
        QTest::keyClicks(editor, QStringLiteral("undefined_name + "));
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 60000);
        summary = m_finished->takeFirst().at(0).value<RunSummary>();
        QVERIFY(!summary.ok());
        QTRY_VERIFY(!editor->diagnostics().isEmpty());
        QCOMPARE(editor->diagnostics().first().line, addLine + 1);

        // A run the user started is not cut short by typing: the compile follows it.
        editor->setText(good);
        m_finished->clear();
        started.clear();
        QTest::keyClick(editor, Qt::Key_F5);
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 5000);
        editor->SendScintilla(QsciScintillaBase::SCI_DOCUMENTEND);
        QTest::keyClicks(editor, QStringLiteral(" "));
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 2, 60000);
        const RunSummary userRun = m_finished->at(0).at(0).value<RunSummary>();
        QVERIFY2(userRun.ok() && userRun.lastLaunched, qPrintable(userRun.headline()));
        QCOMPARE(started.count(), 2);

        // Off again: nothing more.
        asYouType->setChecked(false);
        QTest::keyClicks(editor, QStringLiteral("#"));
        QTest::qWait(600);
        QCOMPARE(started.count(), 2);
    }

    void compareSetsAnotherTargetBesideTheRun()
    {
        QVERIFY(m_window->openFile(QStringLiteral(ASC2_SOURCE_DIR "/samples/vadd.py")));
        m_window->runScript(RunMode::CompileOnly);
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 60000);
        QVERIFY(m_finished->takeFirst().at(0).value<RunSummary>().ok());
        m_window->showView(MainWindow::View::Compare);
        ComparePanel *panel = m_window->comparePanel();
        CompareController *compare = m_window->compareController();
        QVERIFY(panel->isVisible());
        QCOMPARE(panel->aKernels().size(), 1); // A: the run here
        QCOMPARE(panel->platformBox()->currentText(), QStringLiteral("Ascend950")); // not the toolbar's target

        // B on Ascend950, compiled apart: the script's kernels side by side.
        QSignalSpy done(compare, &CompareController::finished);
        QTest::mouseClick(panel->compareButton(), Qt::LeftButton);
        QVERIFY(compare->isRunning());
        QCOMPARE(panel->compareButton()->text(), QStringLiteral("Stop"));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 120000);
        QVERIFY2(done.first().first().toBool(), qPrintable(panel->status()));
        QCOMPARE(panel->kernel(), QStringLiteral("vadd"));
        QCOMPARE(panel->bKernels().first().target, QStringLiteral("Ascend950"));
        QCOMPARE(panel->table()->item(0, 0)->text(), QStringLiteral("target"));
        QCOMPARE(panel->table()->item(0, 1)->text(), QStringLiteral("Ascend910B1"));
        QCOMPARE(panel->table()->item(0, 2)->text(), QStringLiteral("Ascend950"));
        // The two targets' Ascend C differ (c220 and c310), and F7 steps through it.
        QVERIFY(!panel->diffView()->diff().isIdentical());
        QVERIFY(!panel->diffView()->changes().isEmpty());
        // The window's own views stay on A.
        QCOMPARE(m_window->passesPanel()->currentReport()->target, std::string("Ascend910B1"));
        panel->diffView()->nextChange();
        saveScreenshot(QStringLiteral("compare"));

        // Stop: a compare under way ends at once and says so.
        QTest::mouseClick(panel->compareButton(), Qt::LeftButton);
        QVERIFY(compare->isRunning());
        QTest::mouseClick(panel->compareButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, 10000);
        QVERIFY(!compare->isRunning());
        QVERIFY2(panel->status().contains("stopped"), qPrintable(panel->status()));

        // A B that cannot run says why, in the panel.
        compare->setProgram(QStringLiteral("/nonexistent/asc2-workbench"));
        QVERIFY(!compare->compare());
        QVERIFY(panel->status().contains("missing"));
    }

    void everyActionHasAShortcut()
    {
        QVERIFY(m_window->actions().size() >= 14);
        for (QAction *a : m_window->actions()) {
            QVERIFY2(!a->shortcut().isEmpty(), qPrintable(a->objectName()));
        }
        QCOMPARE(m_window->action(QStringLiteral("compileOnly"))->shortcut(), QKeySequence(QStringLiteral("Ctrl+B")));
        QCOMPARE(m_window->action(QStringLiteral("stop"))->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F5));
    }

private:
    QTemporaryDir m_cache;
};

QTEST_MAIN(TestWorkbench)
#include "tst_workbench.moc"
