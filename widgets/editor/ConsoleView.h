// Streams a script's stdout/stderr as it arrives; errors in red, the
// workbench's own notes (run started/finished) dimmed. Source locations in
// tracebacks and compiler errors are links: a click announces them.
#pragma once

#include "Theme.h"

#include <QPlainTextEdit>

#include <optional>

class ConsoleView : public QPlainTextEdit
{
    Q_OBJECT
public:
    enum class Channel { Output, Error, Info };

    struct Location {
        QString file;
        int line = 0;   // 1-based
        int column = 0; // 1-based; 0 when not given
        int start = 0;  // span of the match in the console line
        int length = 0;
    };

    explicit ConsoleView(QWidget *parent = nullptr);

    /// Appends @p text as is (it may end mid-line: print() writes the newline separately).
    void appendText(const QString &text, Channel channel = Channel::Output);
    /// Appends @p line on a line of its own.
    void appendLine(const QString &line, Channel channel = Channel::Info);

    QColor colorFor(Channel channel) const;
    void setTheme(const Theme &theme);

    /// Every source location in one console line: `File "f.py", line 3`
    /// (Python tracebacks) and `f.py:3:5:` (compiler errors).
    static QVector<Location> locationsIn(const QString &line);
    /// The location at @p column of @p line (or the only one on the line).
    static std::optional<Location> locationAt(const QString &line, int column);
    /// Acts as a click at document @p position; returns whether it hit a link.
    bool activateAt(int position);

signals:
    void locationActivated(const QString &file, int line, int column);

protected:
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;

private:
    void markLinks(int fromBlock);

    Theme m_theme;
    bool m_followEnd = true; // the reader is at the end: new text scrolls into view
};
