#include "EditController.h"

#include "FindBar.h"

#include <Qsci/qsciscintilla.h>

#include <QAction>
#include <QApplication>
#include <QMainWindow>
#include <QMenu>
#include <QPlainTextEdit>
#include <QToolBar>

#include <functional>

namespace {
/// One edit command on either kind of text view: @p onSci for QScintilla,
/// @p onPlain for QPlainTextEdit (member functions or callables).
template <typename OnSci, typename OnPlain>
std::function<void(QWidget *)> onView(OnSci onSci, OnPlain onPlain)
{
    return [onSci, onPlain](QWidget *w) {
        if (auto *s = qobject_cast<QsciScintilla *>(w))
            std::invoke(onSci, s);
        else if (auto *p = qobject_cast<QPlainTextEdit *>(w))
            std::invoke(onPlain, p);
    };
}

bool isReadOnly(const QWidget *w)
{
    return !FindBar::isEditable(w);
}
} // namespace

EditController::EditController(QMainWindow *window, QMenu *editMenu, QWidget *fallback,
                               std::function<QString(QWidget *)> nameOf)
    : QObject(window)
    , m_window(window)
    , m_fallback(fallback)
    , m_nameOf(std::move(nameOf))
    , m_findBar(new FindBar(window))
    , m_findToolBar(new QToolBar(tr("Find"), window))
{
    m_findToolBar->setObjectName(QStringLiteral("findToolBar"));
    m_findToolBar->setMovable(false);
    m_findToolBar->addWidget(m_findBar);
    window->addToolBar(Qt::BottomToolBarArea, m_findToolBar);
    m_findToolBar->hide();
    connect(m_findBar, &FindBar::closed, this, [this] {
        m_findToolBar->hide();
        if (QWidget *view = textView())
            view->setFocus();
    });

    // Keys shown, not taken: the shortcut lives on the menu only, so the
    // focused view's own Ctrl+Z (with its own undo stack) still gets the key.
    m_undo = addEditAction(editMenu, tr("&Undo"), QKeySequence::Undo, onView(&QsciScintilla::undo, &QPlainTextEdit::undo));
    m_redo = addEditAction(editMenu, tr("&Redo"), QKeySequence::Redo, onView(&QsciScintilla::redo, &QPlainTextEdit::redo));
    editMenu->addSeparator();
    m_cut = addEditAction(editMenu, tr("Cu&t"), QKeySequence::Cut, onView(&QsciScintilla::cut, &QPlainTextEdit::cut));
    addEditAction(editMenu, tr("&Copy"), QKeySequence::Copy, onView(&QsciScintilla::copy, &QPlainTextEdit::copy));
    m_paste = addEditAction(editMenu, tr("&Paste"), QKeySequence::Paste,
                            onView(&QsciScintilla::paste, &QPlainTextEdit::paste));
    addEditAction(editMenu, tr("Select &All"), QKeySequence::SelectAll,
                  onView([](QsciScintilla *s) { s->selectAll(); }, &QPlainTextEdit::selectAll));
    editMenu->addSeparator();
    addFindAction(editMenu, QStringLiteral("find"), tr("&Find..."), QKeySequence(QStringLiteral("Ctrl+F")),
                  &EditController::find);
    addFindAction(editMenu, QStringLiteral("findNext"), tr("Find &Next"), QKeySequence(Qt::Key_F3),
                  &EditController::findNext);
    addFindAction(editMenu, QStringLiteral("findPrevious"), tr("Find Pre&vious"),
                  QKeySequence(Qt::SHIFT | Qt::Key_F3), &EditController::findPrevious);
    m_replace = addFindAction(editMenu, QStringLiteral("replace"), tr("R&eplace..."),
                              QKeySequence(QStringLiteral("Ctrl+H")), &EditController::replace);
    editMenu->addSeparator();
    connect(editMenu, &QMenu::aboutToShow, this, &EditController::updateActions);
    connect(qApp, &QApplication::focusChanged, this, &EditController::onFocusChanged);
}

QAction *EditController::addEditAction(QMenu *menu, const QString &text, const QKeySequence &keys,
                                       const std::function<void(QWidget *)> &apply)
{
    auto *a = new QAction(text, menu);
    a->setShortcut(keys);
    a->setShortcutContext(Qt::WidgetShortcut);
    menu->addAction(a);
    connect(a, &QAction::triggered, this, [this, apply] {
        if (QWidget *view = textView()) {
            apply(view);
            view->setFocus();
        }
    });
    return a;
}

QAction *EditController::addFindAction(QMenu *menu, const QString &name, const QString &text,
                                       const QKeySequence &keys, void (EditController::*slot)())
{
    auto *a = new QAction(text, m_window);
    a->setObjectName(name);
    a->setShortcut(keys);
    a->setShortcutContext(Qt::WindowShortcut);
    m_window->addAction(a);
    menu->addAction(a);
    connect(a, &QAction::triggered, this, slot);
    return a;
}

void EditController::onFocusChanged(QWidget *, QWidget *now)
{
    // The find bar's own fields are not a view to search.
    if (now && FindBar::canSearch(now) && !m_findBar->isAncestorOf(now))
        m_last = now;
}

QWidget *EditController::textView() const
{
    return m_last ? m_last.data() : m_fallback;
}

void EditController::updateActions()
{
    QWidget *view = textView();
    bool undo = false, redo = false;
    if (auto *s = qobject_cast<QsciScintilla *>(view)) {
        undo = s->isUndoAvailable();
        redo = s->isRedoAvailable();
    } else if (auto *p = qobject_cast<QPlainTextEdit *>(view)) {
        undo = p->document()->isUndoAvailable() && !p->isReadOnly();
        redo = p->document()->isRedoAvailable() && !p->isReadOnly();
    }
    m_undo->setEnabled(undo);
    m_redo->setEnabled(redo);
    m_cut->setEnabled(!isReadOnly(view));
    m_paste->setEnabled(!isReadOnly(view));
    m_replace->setEnabled(!isReadOnly(view));
}

void EditController::find()
{
    QWidget *view = textView();
    m_findToolBar->show();
    m_findBar->openOn(view, m_nameOf(view));
}

void EditController::replace()
{
    QWidget *view = textView();
    m_findToolBar->show();
    m_findBar->openOn(view, m_nameOf(view), /*replace=*/!isReadOnly(view));
}

void EditController::findNext()
{
    if (m_findBar->target() != textView() || !m_findToolBar->isVisible()) {
        find();
        return;
    }
    m_findBar->findNext();
}

void EditController::findPrevious()
{
    if (m_findBar->target() != textView() || !m_findToolBar->isVisible()) {
        find();
        return;
    }
    m_findBar->findPrevious();
}
