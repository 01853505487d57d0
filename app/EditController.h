// The Edit menu: Undo, Redo, Cut, Copy, Paste and Select All act on the text
// view that last had the focus (the editor, Ascend C, IR, diff, console);
// their keys stay the views' own, so the menu only names them. Find, Find
// Next/Previous and Replace open the window's find bar on that view.
#pragma once

#include <QObject>
#include <QPointer>

#include <functional>

class FindBar;
class QAction;
class QMainWindow;
class QMenu;
class QToolBar;
class QWidget;

class EditController : public QObject
{
    Q_OBJECT
public:
    /// @p nameOf: how the window calls a view ("Editor", "Ascend C", "IR").
    /// @p fallback: the view searched when no text view had the focus yet.
    EditController(QMainWindow *window, QMenu *editMenu, QWidget *fallback,
                   std::function<QString(QWidget *)> nameOf);

    FindBar *findBar() const { return m_findBar; }
    /// The text view the menu acts on now.
    QWidget *textView() const;
    void find();
    void replace();
    void findNext();
    void findPrevious();

private:
    void onFocusChanged(QWidget *old, QWidget *now);
    void updateActions();
    QAction *addEditAction(QMenu *menu, const QString &text, const QKeySequence &keys,
                           const std::function<void(QWidget *)> &apply);
    QAction *addFindAction(QMenu *menu, const QString &name, const QString &text, const QKeySequence &keys,
                           void (EditController::*slot)());

    QMainWindow *m_window;
    QWidget *m_fallback;
    std::function<QString(QWidget *)> m_nameOf;
    QPointer<QWidget> m_last;
    FindBar *m_findBar;
    QToolBar *m_findToolBar;
    QAction *m_undo = nullptr, *m_redo = nullptr, *m_cut = nullptr, *m_paste = nullptr, *m_replace = nullptr;
};
