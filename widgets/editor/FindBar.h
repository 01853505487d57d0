// Find (and, in the editor, replace) in any text view of the window: the
// kernel editor and the Ascend C view (QScintilla) and the IR, diff and
// console views (QPlainTextEdit). The bar searches the view it was opened
// on, says which one and "3 of 12" (or "not found" in the error colour),
// wraps around, and makes Replace All a single undo step.
#pragma once

#include "Theme.h"

#include <QPointer>
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QToolButton;

class FindBar : public QWidget
{
    Q_OBJECT
public:
    explicit FindBar(QWidget *parent = nullptr);

    /// Whether @p widget is a view the bar can search.
    static bool canSearch(const QWidget *widget);
    /// Whether @p widget is a text view that may be edited (replaced in).
    static bool isEditable(const QWidget *widget);
    /// Shows the bar on @p target named @p name ("Editor", "Ascend C"): the
    /// find field gets the focus, filled with the target's selection if it
    /// has a one-line one. @p replace: also the replace field (editable
    /// targets only).
    void openOn(QWidget *target, const QString &name, bool replace = false);
    QWidget *target() const { return m_target; }

    QLineEdit *findField() const { return m_find; }
    QLineEdit *replaceField() const { return m_replace; }
    QCheckBox *caseBox() const { return m_case; }
    /// "3 of 12", "not found", "" (nothing to find).
    QString status() const;

    /// Selects the next (previous) match after (before) the selection,
    /// wrapping around; false: none.
    bool findNext();
    bool findPrevious();
    /// Replaces the selected match, then selects the next one.
    bool replaceCurrent();
    /// Replaces every match as one undo step; returns how many.
    int replaceAll();

    void setTheme(const Theme &theme);

signals:
    /// The bar closed (Escape or its button): focus goes back to its target.
    void closed();

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    bool find(bool forward);
    /// Start offsets of every match in the target's text.
    QVector<int> matches() const;
    void updateStatus();
    /// The same with the matches already found.
    void updateStatus(const QVector<int> &all);
    Qt::CaseSensitivity caseSensitivity() const;

    QPointer<QWidget> m_target;
    QLabel *m_where;
    QLineEdit *m_find;
    QLineEdit *m_replace;
    QToolButton *m_previous;
    QToolButton *m_next;
    QToolButton *m_replaceOne;
    QToolButton *m_replaceAllButton;
    QCheckBox *m_case;
    QLabel *m_status;
    Theme m_theme;
};
