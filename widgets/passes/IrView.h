// Read-only MLIR text with highlighting, for the IR after a pass. Lines linked
// to the Python line under the editor's cursor are marked.
#pragma once

#include <QPlainTextEdit>
#include <QVector>

#include "Theme.h"

class MlirHighlighter;

class IrView : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit IrView(QWidget *parent = nullptr);

    /// Replaces the text; keeps the scroll position when @p keepScroll and the
    /// text is a revision of what is shown (same pass, newer report).
    void setIr(const QString &ir, bool keepScroll = false);
    QString ir() const { return toPlainText(); }
    MlirHighlighter *highlighter() const { return m_highlighter; }

    /// Marks the 0-based @p lines (and scrolls the first into view).
    void setLinkedLines(const QVector<int> &lines);
    QVector<int> linkedLines() const { return m_linkedLines; }
    /// Colour bands: 0-based IR line i on the band of Python line
    /// @p sourceLines[i] (Theme::band; 0: none). Empty: no bands.
    void setBands(const QVector<int> &sourceLines);
    /// The band colour index of 0-based @p line (-1: none).
    int bandAt(int line) const;
    /// 0-based line of the text cursor.
    int cursorLine() const;
    void setTheme(const Theme &theme);

signals:
    /// The user put the cursor on another line (0-based).
    void cursorLineChanged(int line);

private:
    void updateExtraSelections();

    MlirHighlighter *m_highlighter;
    QVector<int> m_linkedLines;
    QColor m_linkedColor;
    QVector<int> m_bandSourceLines;
    Theme m_theme;
    bool m_settingText = false;
    int m_lastCursorLine = -1;
};
