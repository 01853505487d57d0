#include "ConsoleView.h"

#include <QScrollBar>
#include <QTest>
#include <QTextBlock>

namespace {
// Colour of the character at @p position in the console's document.
QColor colorAt(const ConsoleView &console, int position)
{
    QTextCursor cursor(console.document());
    cursor.setPosition(position + 1);
    return cursor.charFormat().foreground().color();
}
} // namespace

class TestConsoleView : public QObject
{
    Q_OBJECT
private slots:
    void joinsPartialWritesIntoLines()
    {
        ConsoleView console;
        console.appendText(QStringLiteral("hello"));
        console.appendText(QStringLiteral(" world"));
        console.appendText(QStringLiteral("\n"));
        console.appendText(QStringLiteral("next\n"));
        QCOMPARE(console.toPlainText(), QStringLiteral("hello world\nnext\n"));
    }

    void showsErrorsInRed()
    {
        ConsoleView console;
        console.appendText(QStringLiteral("ok\n"), ConsoleView::Channel::Output);
        console.appendText(QStringLiteral("Traceback\n"), ConsoleView::Channel::Error);
        QCOMPARE(colorAt(console, 0), ConsoleView::colorFor(ConsoleView::Channel::Output));
        const int errorStart = int(console.toPlainText().indexOf(QStringLiteral("Traceback")));
        const QColor red = colorAt(console, errorStart);
        QCOMPARE(red, ConsoleView::colorFor(ConsoleView::Channel::Error));
        QVERIFY(red.red() > 150 && red.green() < 80 && red.blue() < 80);
    }

    void appendLineStartsOnAFreshLine()
    {
        ConsoleView console;
        console.appendText(QStringLiteral("no newline"));
        console.appendLine(QStringLiteral("Finished"));
        QCOMPARE(console.toPlainText(), QStringLiteral("no newline\nFinished\n"));
        console.appendLine(QStringLiteral("again"));
        QCOMPARE(console.toPlainText(), QStringLiteral("no newline\nFinished\nagain\n"));
    }

    void followsTheEndWhileScrolledToTheBottom()
    {
        ConsoleView console;
        console.resize(400, 200);
        console.show();
        QVERIFY(QTest::qWaitForWindowExposed(&console));
        for (int i = 0; i < 200; ++i)
            console.appendText(QStringLiteral("line %1\n").arg(i));
        QScrollBar *bar = console.verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        QCOMPARE(bar->value(), bar->maximum());

        // A reader who scrolled up is left where they are.
        bar->setValue(0);
        console.appendText(QStringLiteral("more\n"));
        QCOMPARE(bar->value(), 0);
    }
};

QTEST_MAIN(TestConsoleView)
#include "tst_consoleview.moc"
