// The IR after a pass against the IR before it, inline (one column, - and +
// lines) or side by side (two columns scrolled together).
#pragma once

#include "LineDiff.h"

#include <QWidget>

class MlirHighlighter;
class QLabel;
class QPlainTextEdit;
class QStackedWidget;
class QToolButton;
struct Theme;

class IrDiffView : public QWidget
{
    Q_OBJECT
public:
    enum class Mode { SideBySide, Inline };

    explicit IrDiffView(QWidget *parent = nullptr);

    void setTexts(const QString &before, const QString &after, const QString &caption);
    /// Empties both sides; @p caption says what to do to fill them ("": select a pass).
    void clear(const QString &caption = QString());
    void setMode(Mode mode);
    Mode mode() const { return m_mode; }
    const LineDiff &diff() const { return m_diff; }
    QString caption() const;

    /// The changes (runs of added, removed or changed lines) as the rows of
    /// the text shown where each starts, top to bottom.
    const QVector<int> &changes() const { return m_changes; }
    /// The change stepped to (-1: none yet).
    int currentChange() const { return m_currentChange; }
    /// Steps to the next (previous) change, wrapping; F7 / Shift+F7 in the view.
    void nextChange();
    void previousChange();

    QPlainTextEdit *inlineView() const { return m_inline; }
    QPlainTextEdit *beforeView() const { return m_before; }
    QPlainTextEdit *afterView() const { return m_after; }
    void setTheme(const Theme &theme);

private:
    void rebuild();
    void stepChange(int delta);
    void updateChangeLabel();

    Mode m_mode = Mode::SideBySide;
    QStringList m_beforeLines;
    QStringList m_afterLines;
    LineDiff m_diff;
    QColor m_added, m_removed, m_changed, m_filler;

    QVector<int> m_changes;
    int m_currentChange = -1;
    QLabel *m_caption;
    QLabel *m_changeLabel;
    QToolButton *m_previousChange;
    QToolButton *m_nextChange;
    QStackedWidget *m_stack;
    QPlainTextEdit *m_inline;
    QPlainTextEdit *m_before;
    QPlainTextEdit *m_after;
    QList<MlirHighlighter *> m_highlighters;
};
