#include "KernelEditor.h"

#include <Qsci/qsciapis.h>
#include <Qsci/qscilexer.h>

#include <QHelpEvent>
#include <QSignalSpy>
#include <QToolTip>

#include <QTest>

class TestKernelEditor : public QObject
{
    Q_OBJECT
private slots:
    void usesPythonLexerAndLineNumbers()
    {
        KernelEditor editor;
        QVERIFY(editor.lexer());
        QCOMPARE(QString::fromLatin1(editor.lexer()->language()), QStringLiteral("Python"));
        editor.setText(QStringLiteral("a = 1\nb = 2\n"));
        QVERIFY(editor.marginLineNumbers(0));
        QVERIFY(editor.marginWidth(0) > 0);
    }

    void marksDiagnosticsAndClearsThemOnEdit()
    {
        KernelEditor editor;
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setText(QStringLiteral("import asc2\n\nx = 1 / 0\nprint(x)\n"));

        EditorDiagnostic error;
        error.line = 3;
        error.column = 5;
        error.message = QStringLiteral("ZeroDivisionError: division by zero");
        EditorDiagnostic warning;
        warning.line = 4;
        warning.message = QStringLiteral("unused");
        warning.severity = EditorDiagnostic::Severity::Warning;
        editor.setDiagnostics({error, warning});

        QCOMPARE(editor.markedErrorLines(), QVector<int>{3});
        QCOMPARE(editor.annotation(2), error.message);
        QCOMPARE(editor.annotation(3), warning.message);
        QCOMPARE(editor.diagnostics().size(), 2);

        // The diagnostics describe the text that ran; typing makes them stale.
        editor.setCursorPosition(0, 0);
        QTest::keyClicks(editor.viewport(), QStringLiteral("#"));
        QVERIFY(editor.text().startsWith(QStringLiteral("#import")));
        QVERIFY(editor.markedErrorLines().isEmpty());
        QVERIFY(editor.annotation(2).isEmpty());
        QVERIFY(editor.diagnostics().isEmpty());
    }

    void ignoresDiagnosticsOutsideTheText()
    {
        KernelEditor editor;
        editor.setText(QStringLiteral("x = 1\n"));
        EditorDiagnostic beyond;
        beyond.line = 40;
        beyond.message = QStringLiteral("from another file");
        editor.setDiagnostics({beyond});
        QVERIFY(editor.markedErrorLines().isEmpty());
    }

    void goToLineMovesTheCursor()
    {
        KernelEditor editor;
        editor.setText(QStringLiteral("a\nb\nc\nd\n"));
        editor.goToLine(3, 1);
        int line = -1;
        int index = -1;
        editor.getCursorPosition(&line, &index);
        QCOMPARE(line, 2);
        QCOMPARE(index, 0);
    }

    void hoveringAMarkedLineShowsItsMessage()
    {
        KernelEditor editor;
        editor.resize(500, 300);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setText(QStringLiteral("a = 1\nb = a.nope\nc = 3\n"));
        EditorDiagnostic d;
        d.line = 2;
        d.column = 5;
        d.message = QStringLiteral("AttributeError: 'int' object has no attribute 'nope'");
        editor.setDiagnostics({d});
        QCOMPARE(editor.diagnosticsTextAt(2), QStringLiteral("error: ") + d.message);
        QVERIFY(editor.diagnosticsTextAt(1).isEmpty());

        // A tooltip event over the marker margin of line 2.
        const int y = int(editor.SendScintilla(QsciScintilla::SCI_POINTYFROMPOSITION, 0,
                                               editor.positionFromLineIndex(1, 0)))
                      + editor.textHeight(1) / 2;
        QHelpEvent help(QEvent::ToolTip, QPoint(editor.marginWidth(0) + 4, y), editor.viewport()->mapToGlobal(QPoint(20, y)));
        QApplication::sendEvent(editor.viewport(), &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains(QStringLiteral("no attribute 'nope'")), qPrintable(QToolTip::text()));
    }

    void offersTheAsc2Api()
    {
        KernelEditor editor;
        QStringList entries;
        // The completion list for "asc2." holds the DSL's calls.
        QsciAPIs *apis = editor.apis();
        QVERIFY(apis);
        QTRY_VERIFY(editor.apisReady()); // prepared on a worker thread
        apis->updateAutoCompletionList({QStringLiteral("asc2"), QStringLiteral("copy")}, entries);
        QVERIFY2(entries.join(QLatin1Char(' ')).contains(QStringLiteral("copy_in")), qPrintable(entries.join(QLatin1Char(' '))));
        // Typing a call shows its signature as a tip.
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setFocus();
        QTest::keyClicks(editor.viewport(), QStringLiteral("asc2.copy_in("));
        QTRY_VERIFY(editor.SendScintilla(QsciScintilla::SCI_CALLTIPACTIVE) != 0);
    }

    void announcesCursorLinesAndMarksTheLinkedLine()
    {
        KernelEditor editor;
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setText(QStringLiteral("a\nb\nc\n"));
        QSignalSpy moved(&editor, &KernelEditor::cursorLineChanged);
        editor.goToLine(3);
        QTRY_COMPARE(moved.count(), 1);
        QCOMPARE(moved.last().at(0).toInt(), 3);
        editor.setLinkedLine(2);
        QCOMPARE(editor.linkedLine(), 2);
        QVERIFY(editor.markersAtLine(1) != 0);
        editor.setLinkedLine(0);
        QCOMPARE(editor.markersAtLine(1), 0u);
    }

    void themesRecolourTheText()
    {
        KernelEditor editor;
        editor.setTheme(Theme::dark());
        QCOMPARE(editor.lexer()->paper(0), Theme::dark().background);
        QCOMPARE(editor.lexer()->color(5), Theme::dark().keyword); // Python keyword style
        // Readable: text and background far apart in lightness.
        QVERIFY(qAbs(editor.lexer()->color(0).lightness() - editor.lexer()->paper(0).lightness()) > 100);
        editor.setTheme(Theme::light());
        QCOMPARE(editor.lexer()->paper(0), Theme::light().background);
    }
};

QTEST_MAIN(TestKernelEditor)
#include "tst_kerneleditor.moc"
