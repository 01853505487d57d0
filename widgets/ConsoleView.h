// Streams a script's stdout/stderr as it arrives; errors in red, the
// workbench's own notes (run started/finished) dimmed.
#pragma once

#include <QPlainTextEdit>

class ConsoleView : public QPlainTextEdit
{
    Q_OBJECT
public:
    enum class Channel { Output, Error, Info };

    explicit ConsoleView(QWidget *parent = nullptr);

    /// Appends @p text as is (it may end mid-line: print() writes the newline separately).
    void appendText(const QString &text, Channel channel = Channel::Output);
    /// Appends @p line on a line of its own.
    void appendLine(const QString &line, Channel channel = Channel::Info);

    static QColor colorFor(Channel channel);
};
