#include "ConsoleView.h"

#include <QFontDatabase>
#include <QScrollBar>
#include <QTextBlock>

ConsoleView::ConsoleView(QWidget *parent)
    : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setUndoRedoEnabled(false);
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    // A script printing in a loop must not eat the machine's memory.
    setMaximumBlockCount(50000);
    setPlaceholderText(tr("Output of the script appears here. Run with F5."));
}

QColor ConsoleView::colorFor(Channel channel)
{
    switch (channel) {
    case Channel::Error:
        return QColor(0xc0, 0x10, 0x10);
    case Channel::Info:
        return QColor(0x70, 0x70, 0x80);
    case Channel::Output:
        break;
    }
    return QColor(0x20, 0x20, 0x20);
}

void ConsoleView::appendText(const QString &text, Channel channel)
{
    if (text.isEmpty())
        return;
    QScrollBar *bar = verticalScrollBar();
    const bool follow = bar->value() == bar->maximum();

    QTextCharFormat format;
    format.setForeground(colorFor(channel));
    format.setFontItalic(channel == Channel::Info);
    QTextCursor cursor(document());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(text, format);

    if (follow)
        bar->setValue(bar->maximum());
}

void ConsoleView::appendLine(const QString &line, Channel channel)
{
    const bool atLineStart = document()->isEmpty() || document()->lastBlock().text().isEmpty();
    appendText((atLineStart ? QString() : QStringLiteral("\n")) + line + QLatin1Char('\n'), channel);
}
