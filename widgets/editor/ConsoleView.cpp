#include "ConsoleView.h"

#include <QFontDatabase>
#include <QMouseEvent>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBlock>

namespace {
// The channel a run of text was written on, kept to recolour it on a theme switch.
constexpr int kChannelProperty = QTextFormat::UserProperty + 1;
constexpr int kLinkProperty = QTextFormat::UserProperty + 2;
} // namespace

ConsoleView::ConsoleView(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_theme(Theme::light())
{
    setReadOnly(true);
    setUndoRedoEnabled(false);
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    // A script printing in a loop must not eat the machine's memory.
    setMaximumBlockCount(50000);
    setPlaceholderText(tr("Output of the script appears here. Run with F5."));
    setMouseTracking(true);

    // Whether to follow the end is the reader's choice, made by scrolling: a
    // new range (more text, a resized dock) keeps the bottom in view while
    // they were there, and the position alone would forget that on a resize.
    QScrollBar *bar = verticalScrollBar();
    connect(bar, &QScrollBar::valueChanged, this, [this, bar](int value) { m_followEnd = value >= bar->maximum(); });
    connect(bar, &QScrollBar::rangeChanged, this, [this, bar](int, int maximum) {
        if (maximum == 0)
            m_followEnd = true; // nothing to scroll (cleared, or it all fits)
        if (m_followEnd)
            bar->setValue(maximum);
    });
}

QColor ConsoleView::colorFor(Channel channel) const
{
    switch (channel) {
    case Channel::Error:
        return m_theme.consoleError;
    case Channel::Info:
        return m_theme.consoleInfo;
    case Channel::Output:
        break;
    }
    return m_theme.consoleOutput;
}

void ConsoleView::appendText(const QString &text, Channel channel)
{
    if (text.isEmpty())
        return;
    QScrollBar *bar = verticalScrollBar();
    const bool follow = m_followEnd;

    QTextCharFormat format;
    format.setForeground(colorFor(channel));
    format.setFontItalic(channel == Channel::Info);
    format.setProperty(kChannelProperty, int(channel));
    QTextCursor cursor(document());
    cursor.movePosition(QTextCursor::End);
    const int firstBlock = cursor.blockNumber();
    cursor.insertText(text, format);
    markLinks(firstBlock);

    if (follow)
        bar->setValue(bar->maximum());
}

void ConsoleView::appendLine(const QString &line, Channel channel)
{
    const bool atLineStart = document()->isEmpty() || document()->lastBlock().text().isEmpty();
    appendText((atLineStart ? QString() : QStringLiteral("\n")) + line + QLatin1Char('\n'), channel);
}

QVector<ConsoleView::Location> ConsoleView::locationsIn(const QString &line)
{
    static const QRegularExpression traceback(QString::fromLatin1(R"re(File "([^"]+)", line (\d+))re"));
    static const QRegularExpression compiler(
        QString::fromLatin1(R"((?:^|(?<=[\s('"]))([^\s:'"()]+\.py):(\d+)(?::(\d+))?)"));
    QVector<Location> out;
    for (const QRegularExpression *re : {&traceback, &compiler}) {
        auto it = re->globalMatch(line);
        while (it.hasNext()) {
            const QRegularExpressionMatch m = it.next();
            Location location;
            location.file = m.captured(1);
            location.line = m.captured(2).toInt();
            location.column = m.lastCapturedIndex() >= 3 ? m.captured(3).toInt() : 0;
            location.start = int(m.capturedStart());
            location.length = int(m.capturedLength());
            if (location.line > 0)
                out.push_back(location);
        }
    }
    return out;
}

std::optional<ConsoleView::Location> ConsoleView::locationAt(const QString &line, int column)
{
    const QVector<Location> all = locationsIn(line);
    for (const Location &location : all) {
        if (column >= location.start && column < location.start + location.length)
            return location;
    }
    if (all.size() == 1)
        return all.first();
    return std::nullopt;
}

bool ConsoleView::activateAt(int position)
{
    const QTextBlock block = document()->findBlock(position);
    if (!block.isValid())
        return false;
    const std::optional<Location> location = locationAt(block.text(), position - block.position());
    if (!location)
        return false;
    emit locationActivated(location->file, location->line, location->column);
    return true;
}

void ConsoleView::mouseReleaseEvent(QMouseEvent *event)
{
    QPlainTextEdit::mouseReleaseEvent(event);
    // A drag selects text; only a plain click follows a link.
    if (event->button() == Qt::LeftButton && !textCursor().hasSelection())
        activateAt(cursorForPosition(event->position().toPoint()).position());
}

void ConsoleView::mouseMoveEvent(QMouseEvent *event)
{
    QPlainTextEdit::mouseMoveEvent(event);
    const QTextCursor cursor = cursorForPosition(event->position().toPoint());
    const QTextBlock block = cursor.block();
    bool overLink = false;
    for (const Location &l : locationsIn(block.text()))
        overLink |= cursor.positionInBlock() >= l.start && cursor.positionInBlock() < l.start + l.length;
    viewport()->setCursor(overLink ? Qt::PointingHandCursor : Qt::IBeamCursor);
}

void ConsoleView::markLinks(int fromBlock)
{
    QTextCharFormat link;
    link.setFontUnderline(true);
    link.setForeground(m_theme.link);
    link.setProperty(kLinkProperty, true);
    for (QTextBlock block = document()->findBlockByNumber(fromBlock); block.isValid(); block = block.next()) {
        for (const Location &location : locationsIn(block.text())) {
            QTextCursor cursor(block);
            cursor.setPosition(block.position() + location.start);
            cursor.setPosition(block.position() + location.start + location.length, QTextCursor::KeepAnchor);
            cursor.mergeCharFormat(link);
        }
    }
}

void ConsoleView::setTheme(const Theme &theme)
{
    m_theme = theme;
    QPalette p = palette();
    p.setColor(QPalette::Base, theme.background);
    p.setColor(QPalette::Text, theme.text);
    setPalette(p);
    // Recolour what is already there, by the channel each run was written on.
    for (QTextBlock block = document()->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            QTextCharFormat format = fragment.charFormat();
            const QColor color = format.boolProperty(kLinkProperty)
                                     ? theme.link
                                     : colorFor(Channel(format.intProperty(kChannelProperty)));
            if (format.foreground().color() == color)
                continue;
            QTextCursor cursor(document());
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            format.setForeground(color);
            cursor.setCharFormat(format);
        }
    }
}
