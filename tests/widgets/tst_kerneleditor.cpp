#include "KernelEditor.h"

#include <Qsci/qscilexer.h>

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
};

QTEST_MAIN(TestKernelEditor)
#include "tst_kerneleditor.moc"
