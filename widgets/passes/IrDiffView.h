// The IR after a pass against the IR before it, inline (one column, - and +
// lines) or side by side (two columns scrolled together).
#pragma once

#include "LineDiff.h"

#include <QWidget>

class MlirHighlighter;
class QLabel;
class QPlainTextEdit;
class QStackedWidget;
struct Theme;

class IrDiffView : public QWidget
{
    Q_OBJECT
public:
    enum class Mode { SideBySide, Inline };

    explicit IrDiffView(QWidget *parent = nullptr);

    void setTexts(const QString &before, const QString &after, const QString &caption);
    void clear();
    void setMode(Mode mode);
    Mode mode() const { return m_mode; }
    const LineDiff &diff() const { return m_diff; }
    QString caption() const;

    QPlainTextEdit *inlineView() const { return m_inline; }
    QPlainTextEdit *beforeView() const { return m_before; }
    QPlainTextEdit *afterView() const { return m_after; }
    void setTheme(const Theme &theme);

private:
    void rebuild();

    Mode m_mode = Mode::SideBySide;
    QStringList m_beforeLines;
    QStringList m_afterLines;
    LineDiff m_diff;
    QColor m_added, m_removed, m_changed, m_filler;

    QLabel *m_caption;
    QStackedWidget *m_stack;
    QPlainTextEdit *m_inline;
    QPlainTextEdit *m_before;
    QPlainTextEdit *m_after;
    QList<MlirHighlighter *> m_highlighters;
};
