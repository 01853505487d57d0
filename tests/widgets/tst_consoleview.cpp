#include "ConsoleView.h"

#include <QScrollBar>
#include <QSignalSpy>
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

void appendLines(ConsoleView &console, const QString &prefix, int count = 200)
{
    for (int i = 0; i < count; ++i)
        console.appendText(QStringLiteral("%1 %2\n").arg(prefix).arg(i));
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
        QCOMPARE(colorAt(console, 0), console.colorFor(ConsoleView::Channel::Output));
        const int errorStart = int(console.toPlainText().indexOf(QStringLiteral("Traceback")));
        const QColor red = colorAt(console, errorStart);
        QCOMPARE(red, console.colorFor(ConsoleView::Channel::Error));
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
        console.resize(400, 400);
        console.show();
        QVERIFY(QTest::qWaitForWindowExposed(&console));
        appendLines(console, QStringLiteral("line"));
        QScrollBar *bar = console.verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        QCOMPARE(bar->value(), bar->maximum());

        // Every dock switch resizes the console: at the bottom it stays there.
        console.resize(400, 120);
        console.appendText(QStringLiteral("after the resize\n"));
        QCOMPARE(bar->value(), bar->maximum());

        // A reader who scrolled up is left where they are.
        bar->setValue(0);
        console.appendText(QStringLiteral("more\n"));
        QCOMPARE(bar->value(), 0);

        // Cleared for the next run: its output is followed again.
        console.clear();
        appendLines(console, QStringLiteral("run 2 line"));
        QCOMPARE(bar->value(), bar->maximum());
    }

    void findsSourceLocations()
    {
        const auto tb = ConsoleView::locationsIn(QStringLiteral("  File \"/work/k/vadd.py\", line 27, in vadd"));
        QCOMPARE(tb.size(), 1);
        QCOMPARE(tb[0].file, QStringLiteral("/work/k/vadd.py"));
        QCOMPARE(tb[0].line, 27);
        const auto ce = ConsoleView::locationsIn(QStringLiteral("asc2.ShapeError: /w/softmax.py:12:9: tile shapes differ"));
        QCOMPARE(ce.size(), 1);
        QCOMPARE(ce[0].file, QStringLiteral("/w/softmax.py"));
        QCOMPARE(ce[0].line, 12);
        QCOMPARE(ce[0].column, 9);
        QVERIFY(ConsoleView::locationsIn(QStringLiteral("vadd: OK (n=8192, 2077 cycles)")).isEmpty());
        QVERIFY(ConsoleView::locationsIn(QStringLiteral("ratio 3:4 of x.pyc")).isEmpty());
    }

    void clickingALocationAnnouncesIt()
    {
        ConsoleView console;
        console.resize(600, 200);
        console.show();
        QVERIFY(QTest::qWaitForWindowExposed(&console));
        QSignalSpy activated(&console, &ConsoleView::locationActivated);
        console.appendText(QStringLiteral("Traceback (most recent call last):\n  File \"/tmp/k.py\", line 3, in <module>\nValueError: x\n"),
                           ConsoleView::Channel::Error);
        // Links are underlined.
        const int at = int(console.toPlainText().indexOf(QStringLiteral("/tmp/k.py")));
        QTextCursor c(console.document());
        c.setPosition(at + 1);
        QVERIFY(c.charFormat().fontUnderline());

        const QRect r = console.cursorRect(c);
        QTest::mouseClick(console.viewport(), Qt::LeftButton, {}, r.center());
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.last().at(0).toString(), QStringLiteral("/tmp/k.py"));
        QCOMPARE(activated.last().at(1).toInt(), 3);
        // Elsewhere: nothing.
        QVERIFY(!console.activateAt(2));
        QCOMPARE(activated.count(), 1);
    }

    void themeSwitchRecoloursExistingText()
    {
        ConsoleView console;
        console.appendText(QStringLiteral("out\n"), ConsoleView::Channel::Output);
        console.appendText(QStringLiteral("err\n"), ConsoleView::Channel::Error);
        console.setTheme(Theme::dark());
        QCOMPARE(colorAt(console, 0), Theme::dark().consoleOutput);
        QCOMPARE(colorAt(console, 4), Theme::dark().consoleError);
        QCOMPARE(console.palette().color(QPalette::Base), Theme::dark().background);
    }
};

QTEST_MAIN(TestConsoleView)
#include "tst_consoleview.moc"
