#include "AppTestSupport.h"
#include "MainWindowFixture.h"
#include "AscendCView.h"
#include "ConsoleView.h"
#include "DocumentController.h"
#include "EditController.h"
#include "FindBar.h"
#include "IrView.h"
#include "KernelEditor.h"
#include "MainWindow.h"
#include "PassListModel.h"
#include "PassesPanel.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QCheckBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QTemporaryDir>
#include <QTimer>

#include <Qsci/qscicommandset.h>

class TestMainWindow : public QObject, private MainWindowFixture
{
    Q_OBJECT
public:
    TestMainWindow() : MainWindowFixture(QSize(1200, 800)) {}

private slots:
    void initTestCase() { startHost(new PythonHost(QStringList())); }
    void cleanupTestCase() { stopHost(); }
    void init() { QVERIFY(openWindow()); }
    void cleanup() { closeWindow(); }

    void f5RunsTheEditorTextAndStreamsItsOutput()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("kernel.py"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("print('from disk')\n");
        file.close();
        QVERIFY(m_window->openFile(path));
        QCOMPARE(m_window->filePath(), path);

        // Edited, not saved: the run uses what the editor shows.
        m_window->editor()->setText(QStringLiteral("print('from the editor')\nimport sys\nprint('err line', file=sys.stderr)\n"));
        QVERIFY(m_window->isWindowModified());
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window));
        QTest::keyClick(m_window->editor(), Qt::Key_F5);
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 20000);

        const QString console = m_window->console()->toPlainText();
        QVERIFY2(console.contains(QStringLiteral("from the editor\n")), qPrintable(console));
        QVERIFY(!console.contains(QStringLiteral("from disk")));
        QVERIFY(console.contains(QStringLiteral("Finished")));
        // The run did not save the file.
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("print('from disk')\n"));
        QVERIFY(m_window->statusText().startsWith(QStringLiteral("Finished")));
    }

    void tabbedDocksKeepTheirNamesWhole()
    {
        // Ten docks share the right area: their tabs scroll, never "Pas…".
        const QList<QTabBar *> bars = m_window->findChildren<QTabBar *>();
        QVERIFY(!bars.isEmpty());
        bool right = false;
        for (QTabBar *bar : bars) {
            QCOMPARE(bar->elideMode(), Qt::ElideNone);
            QVERIFY(bar->usesScrollButtons());
            for (int i = 0; i < bar->count(); ++i)
                right = right || bar->tabText(i) == QStringLiteral("All Cores");
        }
        QVERIFY(right);
    }

    void aReportFillsPassesAscendCAndTheStatusBar()
    {
        m_window->editor()->setText(QStringLiteral(
            "import _asc2_test\n_asc2_test.publish('vadd', passes=6, cycles=123456)\n"));
        m_window->runScript();
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 20000);

        PassesPanel *passes = m_window->passesPanel();
        QCOMPARE(passes->model()->rowCount(), 6);
        QCOMPARE(passes->currentReport()->kernel, std::string("vadd"));
        QVERIFY(passes->currentReport()->launches.size() == 1);
        // The final IR is on show without a click.
        QCOMPARE(passes->selectedPass(), 5);
        QVERIFY(passes->irView()->ir().contains(QStringLiteral("after ascendc-insert-sync")));
        passes->selectPass(3);
        QVERIFY(passes->irView()->ir().contains(QStringLiteral("after asctile-to-ascendc")));

        QVERIFY(m_window->ascendcView()->source().contains(QStringLiteral("void vadd(GM_ADDR x)")));
        QVERIFY2(m_window->statusText().contains(QStringLiteral("vadd: 123,456 cycles")), qPrintable(m_window->statusText()));
        QVERIFY(saveScreenshot(QStringLiteral("report")));
    }

    void severalKernelsAreSelectable()
    {
        m_window->editor()->setText(QStringLiteral(
            "import _asc2_test\n_asc2_test.publish('vadd', passes=4)\n_asc2_test.publish('gelu', passes=7)\n"));
        m_window->runScript();
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 20000);
        QComboBox *selector = m_window->passesPanel()->kernelSelector();
        QCOMPARE(selector->count(), 2);
        QCOMPARE(selector->currentText(), QStringLiteral("gelu"));
        QCOMPARE(m_window->passesPanel()->model()->rowCount(), 7);
        selector->setCurrentIndex(0);
        QCOMPARE(m_window->passesPanel()->model()->rowCount(), 4);
        QVERIFY(m_window->ascendcView()->source().contains(QStringLiteral("void vadd(")));
    }

    void anErrorIsRedInTheConsoleAndMarkedInTheEditor()
    {
        m_window->editor()->setText(QStringLiteral("x = 1\ny = x / 0\n"));
        m_window->runScript();
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 20000);
        QCOMPARE(m_window->editor()->markedErrorLines(), QVector<int>{2});
        QVERIFY(m_window->editor()->annotation(1).contains(QStringLiteral("ZeroDivisionError")));

        ConsoleView *console = m_window->console();
        const int at = int(console->toPlainText().indexOf(QStringLiteral("ZeroDivisionError")));
        QVERIFY(at >= 0);
        QTextCursor cursor(console->document());
        cursor.setPosition(at + 1);
        QCOMPARE(cursor.charFormat().foreground().color(), console->colorFor(ConsoleView::Channel::Error));
        QVERIFY(m_window->statusText().contains(QStringLiteral("ZeroDivisionError")));
    }

    void stopEndsARunawayScriptAndTheWindowStaysUsable()
    {
        m_window->editor()->setText(QStringLiteral("while True:\n    pass\n"));
        m_window->runScript();
        QTRY_VERIFY_WITH_TIMEOUT(m_host->runningGeneration() != 0, 10000);
        QTest::qWait(100);

        // The GUI thread is free while the script spins.
        QElapsedTimer timer;
        timer.start();
        QTest::keyClick(m_window->editor(), Qt::Key_F5, Qt::ShiftModifier);
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 5000);
        QVERIFY2(timer.elapsed() < 1000, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(m_finished->takeFirst().at(0).value<RunSummary>().script.status, ScriptResult::Status::Interrupted);
        QVERIFY(m_window->console()->toPlainText().contains(QStringLiteral("Stopped")));
        QCOMPARE(m_window->statusText(), QStringLiteral("Stopped"));

        m_window->editor()->setText(QStringLiteral("print('alive')\n"));
        m_window->runScript();
        QTRY_COMPARE_WITH_TIMEOUT(m_finished->count(), 1, 20000);
        QVERIFY(m_window->console()->toPlainText().contains(QStringLiteral("alive\n")));
    }

    void noShortcutEditsTheEditorText()
    {
        // QScintilla claims the keys it binds (Ctrl+L cuts the line, Ctrl+Shift+L
        // deletes it, Ctrl+Shift+T copies it) before the window's shortcuts see them.
        KernelEditor *editor = m_window->editor();
        const QString text = QStringLiteral("first = 1\nsecond = 2\nthird = 3\n");
        editor->setText(text);
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window));
        editor->setFocus();
        editor->goToLine(2);

        // Every shortcut of the window: the editor lets it go to the action.
        // The Edit menu's Undo, Cut, Paste... only name the views' own keys
        // (a menu-only shortcut), which edit text by design.
        int audited = 0;
        QStringList viewKeys;
        for (QAction *a : m_window->findChildren<QAction *>()) {
            if (a->shortcutContext() == Qt::WidgetShortcut) {
                QVERIFY2(qobject_cast<QMenu *>(a->parent()), qPrintable(a->text()));
                viewKeys << QString(a->text()).remove(QLatin1Char('&'));
                continue;
            }
            for (const QKeySequence &key : a->shortcuts()) {
                QVERIFY2(!editor->standardCommands()->boundTo(key[0].toCombined()),
                         qPrintable(a->objectName() + QLatin1Char(' ') + key.toString()));
                QKeyEvent override(QEvent::ShortcutOverride, key[0].key(), key[0].keyboardModifiers());
                override.ignore();
                QApplication::sendEvent(editor, &override);
                QVERIFY2(!override.isAccepted(), qPrintable(a->objectName() + QLatin1Char(' ') + key.toString()));
                ++audited;
            }
        }
        QVERIFY(audited >= 20);
        viewKeys.sort();
        QCOMPARE(viewKeys, (QStringList{"Copy", "Cut", "Paste", "Redo", "Select All", "Undo"}));

        // And the keys a newcomer hit: the action runs, the text stays.
        QSignalSpy firstChange(m_window->action(QStringLiteral("firstChange")), &QAction::triggered);
        QTest::keyClick(editor, Qt::Key_L, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(firstChange.count(), 1);
        QCOMPARE(editor->text(), text);

        QTest::keyClick(editor, Qt::Key_T, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(m_window->themeKind(), Theme::Kind::Dark);
        QCOMPARE(editor->text(), text);

        editor->setFocus();
        QSignalSpy goToLine(m_window->action(QStringLiteral("goToLine")), &QAction::triggered);
        QTimer closeDialog;
        connect(&closeDialog, &QTimer::timeout, [] {
            if (QWidget *dialog = QApplication::activeModalWidget())
                dialog->close();
        });
        closeDialog.start(50);
        QTest::keyClick(editor, Qt::Key_L, Qt::ControlModifier);
        closeDialog.stop();
        QCOMPARE(goToLine.count(), 1);
        QCOMPARE(editor->text(), text);
    }

    void viewsCanBeBroughtForward()
    {
        QCOMPARE(MainWindow::viewFromName(QStringLiteral("ascendc")), MainWindow::View::AscendC);
        QVERIFY(!MainWindow::viewFromName(QStringLiteral("nonsense")));
        // Passes and Ascend C share a tabbed dock: what is on top at its centre?
        const auto onTop = [this](QWidget *view) {
            const QPoint centre = view->mapTo(m_window, view->rect().center());
            QWidget *hit = m_window->childAt(centre);
            return hit && (hit == view || view->isAncestorOf(hit));
        };
        m_window->showView(MainWindow::View::AscendC);
        QTRY_VERIFY(onTop(m_window->ascendcView()));
        m_window->showView(MainWindow::View::Passes);
        QTRY_VERIFY(onTop(m_window->passesPanel()));
        QVERIFY(saveScreenshot(QStringLiteral("passes-view")));
        QVERIFY(!onTop(m_window->ascendcView()));
        m_window->showView(MainWindow::View::Console);
        QTRY_VERIFY(m_window->console()->height() > m_window->height() / 2);
    }

    void findAndReplaceInTheEditor()
    {
        // Issue 18 item 14: the Edit menu had Go to Line only.
        KernelEditor *editor = m_window->editor();
        const QString text = QStringLiteral("a = 1\nb = a + A\n");
        editor->setText(text);
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window));
        editor->setFocus();
        editor->setCursorPosition(0, 0);
        QTest::keyClick(editor, Qt::Key_F, Qt::ControlModifier);
        FindBar *bar = m_window->editController()->findBar();
        QTRY_VERIFY(bar->isVisible());
        QCOMPARE(bar->target(), static_cast<QWidget *>(editor));
        QVERIFY(bar->findField()->hasFocus());
        QTest::keyClicks(bar->findField(), QStringLiteral("a"));
        QCOMPARE(bar->status(), QStringLiteral("1 of 3")); // case-insensitive: a, a, A
        QCOMPARE(editor->selectedText(), QStringLiteral("a"));
        QTest::keyClick(bar->findField(), Qt::Key_F3);
        QCOMPARE(bar->status(), QStringLiteral("2 of 3"));
        QTest::keyClick(bar->findField(), Qt::Key_Return);
        QCOMPARE(bar->status(), QStringLiteral("3 of 3"));
        QCOMPARE(editor->selectedText(), QStringLiteral("A"));
        QTest::keyClick(bar->findField(), Qt::Key_Return); // wraps
        QCOMPARE(bar->status(), QStringLiteral("1 of 3"));
        QTest::keyClick(bar->findField(), Qt::Key_F3, Qt::ShiftModifier); // and back
        QCOMPARE(bar->status(), QStringLiteral("3 of 3"));
        bar->caseBox()->setChecked(true);
        QTest::keyClick(bar->findField(), Qt::Key_Return);
        QVERIFY2(bar->status().endsWith(QStringLiteral("of 2")), qPrintable(bar->status()));
        bar->findField()->setText(QStringLiteral("nowhere"));
        bar->findNext();
        QCOMPARE(bar->status(), QStringLiteral("not found"));
        QVERIFY(saveScreenshot(QStringLiteral("find-bar-not-found")));

        // Replace All: every match, one undo step.
        m_window->action(QStringLiteral("replace"))->trigger();
        QVERIFY(bar->replaceField()->isVisible());
        bar->findField()->setText(QStringLiteral("a"));
        bar->caseBox()->setChecked(false);
        bar->replaceField()->setText(QStringLiteral("xy"));
        QCOMPARE(bar->replaceAll(), 3);
        QCOMPARE(editor->text(), QStringLiteral("xy = 1\nb = xy + xy\n"));
        editor->undo();
        QCOMPARE(editor->text(), text);
        // Escape closes the bar and gives the editor the focus back.
        QTest::keyClick(bar->findField(), Qt::Key_Escape);
        QTRY_VERIFY(!bar->isVisible());
        QTRY_VERIFY(editor->hasFocus());

        // The editor's own Ctrl+Z still undoes (the menu only names the key),
        // exactly once; the menu's Undo does the same.
        editor->setText(QStringLiteral("x\n"));
        editor->setCursorPosition(0, 1);
        QTest::keyClicks(editor, QStringLiteral("yz"));
        QCOMPARE(editor->text(), QStringLiteral("xyz\n"));
        QTest::keyClick(editor, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY2(editor->text() != QStringLiteral("xyz\n"), qPrintable(editor->text()));
        const QString afterOne = editor->text();
        QTest::keyClick(editor, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier); // redo
        QCOMPARE(editor->text(), QStringLiteral("xyz\n"));
        QAction *undo = nullptr;
        for (QAction *a : m_window->findChildren<QAction *>())
            if (QString(a->text()).remove(QLatin1Char('&')) == QStringLiteral("Undo"))
                undo = a;
        QVERIFY(undo);
        undo->trigger();
        QCOMPARE(editor->text(), afterOne);
    }

    void sampleDescriptionsAreWholeSentences()
    {
        // Issue 18 item 14: the menu showed the docstring's first line, cut
        // mid-sentence ("Casts: float32 -> float16 ... -> float32, and float32 ->").
        const QDir samples(DocumentController::samplesDirectory());
        const QStringList names = samples.entryList({QStringLiteral("*.py")}, QDir::Files);
        QVERIFY(names.size() >= 10);
        for (const QString &name : names) {
            const QString path = samples.filePath(name);
            const QString description = DocumentController::sampleDescription(path);
            QVERIFY2(description.endsWith(QLatin1Char('.')), qPrintable(name + QStringLiteral(": ") + description));
            const QString summary = DocumentController::sampleSummary(path);
            QVERIFY(summary.size() <= 120);
            QVERIFY2(summary == description || summary.endsWith(QChar(0x2026)), qPrintable(summary));
        }
        QCOMPARE(DocumentController::sampleDescription(samples.filePath(QStringLiteral("cast.py"))),
                 QStringLiteral("Casts: float32 -> float16 (round to nearest even) -> float32, and float32 -> int32 "
                                "with each rounding mode, checked bit-exactly against numpy."));
        // The menu entry's tooltip is the whole description.
        QMenu *menu = nullptr;
        for (QMenu *m : m_window->findChildren<QMenu *>())
            if (QString(m->title()).remove(QLatin1Char('&')) == QStringLiteral("Samples"))
                menu = m;
        QVERIFY(menu);
        bool found = false;
        for (QAction *a : menu->actions())
            if (a->data().toString().endsWith(QStringLiteral("reduce_sum.py"))) {
                found = true;
                QVERIFY2(a->toolTip().endsWith(QStringLiteral("into the output.")), qPrintable(a->toolTip()));
            }
        QVERIFY(found);
    }

    void findInReadOnlyViews()
    {
        // Ascend C and the IR are searched too; they are not replaced in.
        AscendCView *ascendc = m_window->ascendcView();
        ascendc->setSource(QStringLiteral("AscendC::Add(z, x, y, 256);\nAscendC::DataCopy(o, z, 256);\n"));
        m_window->showView(MainWindow::View::AscendC);
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window));
        ascendc->setFocus();
        QTRY_VERIFY(ascendc->hasFocus());
        m_window->action(QStringLiteral("replace"))->trigger();
        FindBar *bar = m_window->editController()->findBar();
        QCOMPARE(bar->target(), static_cast<QWidget *>(ascendc));
        QVERIFY(!bar->replaceField()->isVisible());
        QTest::keyClicks(bar->findField(), QStringLiteral("256"));
        QCOMPARE(bar->status(), QStringLiteral("1 of 2"));
        QCOMPARE(ascendc->selectedText(), QStringLiteral("256"));
        QCOMPARE(bar->replaceAll(), 0);

        QPlainTextEdit *ir = m_window->passesPanel()->irView();
        ir->setPlainText(QStringLiteral("%0 = ascendc.alloc\n%1 = ascendc.add %0\n"));
        m_window->showView(MainWindow::View::Passes);
        ir->setFocus();
        QTRY_VERIFY(ir->hasFocus());
        m_window->action(QStringLiteral("find"))->trigger();
        QCOMPARE(bar->target(), static_cast<QWidget *>(ir));
        bar->findField()->setText(QStringLiteral("%0"));
        QVERIFY(bar->findNext());
        QCOMPARE(ir->textCursor().selectedText(), QStringLiteral("%0"));
        QVERIFY(bar->findNext());
        QCOMPARE(bar->status(), QStringLiteral("2 of 2"));
    }

    void switchingViewsKeepsTheSplit()
    {
        // Issue 18 item 9: every switch used to resize the docks, and the
        // editor lost width step by step (660 -> 530 -> 400 px).
        using View = MainWindow::View;
        QWidget *editor = m_window->editor();
        const auto settle = [] { QTest::qWait(50); };
        // The docks tabbed on the right share one area, whose minimum width is
        // the largest of theirs: each must leave the editor 3/5 of the window.
        for (QDockWidget *d : m_window->findChildren<QDockWidget *>())
            QVERIFY2(d->minimumSizeHint().width() <= m_window->width() * 2 / 5,
                     qPrintable(d->objectName() + QStringLiteral(" needs %1 px").arg(d->minimumSizeHint().width())));
        m_window->showView(View::Sync);
        settle();
        const int editorWidth = editor->width();
        QVERIFY2(editorWidth >= m_window->width() * 2 / 5, qPrintable(QString::number(editorWidth)));
        QVERIFY(m_window->width() - editorWidth >= m_window->width() / 2 - 20);
        for (View v : {View::UbMap, View::Passes, View::Graph, View::AscendC, View::Diff, View::Profile, View::Sync}) {
            m_window->showView(v);
            settle();
            QCOMPARE(editor->width(), editorWidth);
        }
        // A split the user narrowed below what a view needs is widened again...
        auto *syncDock = m_window->findChild<QDockWidget *>(QStringLiteral("syncDock"));
        QVERIFY(syncDock);
        m_window->resizeDocks({syncDock}, {250}, Qt::Horizontal);
        settle();

        QVERIFY(editor->width() > editorWidth);
        m_window->showView(View::UbMap);
        settle();
        QVERIFY(m_window->width() - editor->width() >= m_window->width() / 2 - 20);
        // ...and one they widened is left alone, until the editor asks for room.
        m_window->resizeDocks({syncDock}, {m_window->width() * 4 / 5}, Qt::Horizontal);
        settle();
        const int narrow = editor->width();
        m_window->showView(View::PingPong);
        settle();
        QCOMPARE(editor->width(), narrow);
        m_window->showView(View::Editor);
        settle();
        QVERIFY(editor->width() >= m_window->width() * 3 / 5 - 20);
        // A closed dock comes back with room.
        syncDock->close();
        auto *ubDock = m_window->findChild<QDockWidget *>(QStringLiteral("ubMapDock"));
        for (QDockWidget *d : m_window->findChildren<QDockWidget *>())
            if (d->isVisible() && d != m_window->findChild<QDockWidget *>(QStringLiteral("consoleDock")))
                d->close();
        settle();
        QVERIFY(ubDock && !ubDock->isVisible());
        m_window->showView(View::UbMap);
        settle();
        QVERIFY(ubDock->isVisible());
        QVERIFY(m_window->width() - editor->width() >= m_window->width() / 2 - 20);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
