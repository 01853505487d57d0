#include "FindBar.h"

#include <Qsci/qsciscintilla.h>

#include <QCheckBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QToolButton>

namespace {
// The two kinds of text view, behind one face; offsets are QString (UTF-16)
// offsets into the whole text.
QsciScintilla *sci(QWidget *w) { return qobject_cast<QsciScintilla *>(w); }
QPlainTextEdit *plain(QWidget *w) { return qobject_cast<QPlainTextEdit *>(w); }

QString textOf(QWidget *w)
{
    if (QsciScintilla *s = sci(w))
        return s->text();
    if (QPlainTextEdit *p = plain(w))
        return p->toPlainText();
    return {};
}

long bytePosition(QsciScintilla *s, int offset)
{
    return s->SendScintilla(QsciScintillaBase::SCI_POSITIONRELATIVECODEUNITS, 0L, long(offset));
}

int codeUnitOffset(QsciScintilla *s, long position)
{
    return int(s->SendScintilla(QsciScintillaBase::SCI_COUNTCODEUNITS, 0UL, position));
}

/// [start, end) of the selection, or the cursor twice.
std::pair<int, int> selectionOf(QWidget *w)
{
    if (QsciScintilla *s = sci(w)) {
        const long a = s->SendScintilla(QsciScintillaBase::SCI_GETSELECTIONSTART);
        const long b = s->SendScintilla(QsciScintillaBase::SCI_GETSELECTIONEND);
        return {codeUnitOffset(s, a), codeUnitOffset(s, b)};
    }
    if (QPlainTextEdit *p = plain(w)) {
        const QTextCursor c = p->textCursor();
        return {c.selectionStart(), c.selectionEnd()};
    }
    return {0, 0};
}

void select(QWidget *w, int start, int end)
{
    if (QsciScintilla *s = sci(w)) {
        const long a = bytePosition(s, start), b = bytePosition(s, end);
        s->SendScintilla(QsciScintillaBase::SCI_SETSEL, a, b);
        s->SendScintilla(QsciScintillaBase::SCI_SCROLLCARET);
        return;
    }
    if (QPlainTextEdit *p = plain(w)) {
        QTextCursor c = p->textCursor();
        c.setPosition(start);
        c.setPosition(end, QTextCursor::KeepAnchor);
        p->setTextCursor(c);
        p->ensureCursorVisible();
    }
}

} // namespace

bool FindBar::isEditable(const QWidget *w)
{
    if (auto *s = qobject_cast<const QsciScintilla *>(w))
        return !s->isReadOnly();
    if (auto *p = qobject_cast<const QPlainTextEdit *>(w))
        return !p->isReadOnly();
    return false;
}

FindBar::FindBar(QWidget *parent)
    : QWidget(parent)
    , m_where(new QLabel(this))
    , m_find(new QLineEdit(this))
    , m_replace(new QLineEdit(this))
    , m_previous(new QToolButton(this))
    , m_next(new QToolButton(this))
    , m_replaceOne(new QToolButton(this))
    , m_replaceAllButton(new QToolButton(this))
    , m_case(new QCheckBox(tr("Match case"), this))
    , m_status(new QLabel(this))
    , m_theme(Theme::light())
{
    setObjectName(QStringLiteral("findBar"));
    m_find->setObjectName(QStringLiteral("findField"));
    m_find->setPlaceholderText(tr("Find"));
    m_find->setClearButtonEnabled(true);
    m_replace->setObjectName(QStringLiteral("replaceField"));
    m_replace->setPlaceholderText(tr("Replace with"));
    m_previous->setText(tr("\u25b2"));
    m_previous->setToolTip(tr("Previous match (Shift+F3, Shift+Enter)"));
    m_next->setText(tr("\u25bc"));
    m_next->setToolTip(tr("Next match (F3, Enter)"));
    m_replaceOne->setText(tr("Replace"));
    m_replaceAllButton->setText(tr("Replace All"));
    auto *close = new QToolButton(this);
    close->setText(QStringLiteral("\u2715"));
    close->setToolTip(tr("Close (Escape)"));
    m_find->setMinimumWidth(160);
    m_replace->setMinimumWidth(120);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->addWidget(m_where);
    layout->addWidget(m_find, 2);
    layout->addWidget(m_previous);
    layout->addWidget(m_next);
    layout->addWidget(m_case);
    layout->addWidget(m_replace, 1);
    layout->addWidget(m_replaceOne);
    layout->addWidget(m_replaceAllButton);
    layout->addWidget(m_status);
    layout->addStretch(1);
    layout->addWidget(close);
    m_where->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
    m_status->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("9999 of 9999")));

    connect(m_find, &QLineEdit::textEdited, this, [this] {
        // Incremental: from where the current match starts, so typing more
        // of the word keeps it.
        if (m_target) {
            const int start = selectionOf(m_target).first;
            select(m_target, start, start);
        }
        find(true);
    });
    // Enter: next match; Shift+Enter: the one before (the field takes both).
    connect(m_find, &QLineEdit::returnPressed, this, [this] {
        if (QGuiApplication::keyboardModifiers().testFlag(Qt::ShiftModifier))
            findPrevious();
        else
            findNext();
    });
    connect(m_replace, &QLineEdit::returnPressed, this, [this] { replaceCurrent(); });
    connect(m_next, &QToolButton::clicked, this, [this] { findNext(); });
    connect(m_previous, &QToolButton::clicked, this, [this] { findPrevious(); });
    connect(m_replaceOne, &QToolButton::clicked, this, [this] { replaceCurrent(); });
    connect(m_replaceAllButton, &QToolButton::clicked, this, [this] { replaceAll(); });
    connect(m_case, &QCheckBox::toggled, this, [this] { updateStatus(); });
    connect(close, &QToolButton::clicked, this, [this] {
        hide();
        emit closed();
    });
}

bool FindBar::canSearch(const QWidget *widget)
{
    return qobject_cast<const QsciScintilla *>(widget) || qobject_cast<const QPlainTextEdit *>(widget);
}

void FindBar::openOn(QWidget *target, const QString &name, bool replace)
{
    m_target = target;
    m_where->setText(tr("In %1:").arg(name));
    m_where->setFixedWidth(m_where->sizeHint().width());
    const bool editable = isEditable(target);
    for (QWidget *w : {static_cast<QWidget *>(m_replace), static_cast<QWidget *>(m_replaceOne),
                       static_cast<QWidget *>(m_replaceAllButton)})
        w->setVisible(editable && replace);
    const auto [start, end] = selectionOf(target);
    const QString selected = textOf(target).mid(start, end - start);
    if (!selected.isEmpty() && !selected.contains(QLatin1Char('\n')) && !selected.contains(QChar::ParagraphSeparator))
        m_find->setText(selected);
    show();
    layout()->activate(); // now, not at the next event loop turn: the label's width changed
    m_find->setFocus();
    m_find->selectAll();
    updateStatus();
}

Qt::CaseSensitivity FindBar::caseSensitivity() const
{
    return m_case->isChecked() ? Qt::CaseSensitive : Qt::CaseInsensitive;
}

QVector<int> FindBar::matches() const
{
    QVector<int> out;
    const QString needle = m_find->text();
    if (!m_target || needle.isEmpty())
        return out;
    const QString text = textOf(m_target);
    for (int at = text.indexOf(needle, 0, caseSensitivity()); at >= 0;
         at = text.indexOf(needle, at + int(needle.size()), caseSensitivity()))
        out.push_back(at);
    return out;
}

bool FindBar::find(bool forward)
{
    const QVector<int> all = matches();
    if (all.isEmpty() || !m_target) {
        updateStatus(all);
        return false;
    }
    const auto [start, end] = selectionOf(m_target);
    int pick = -1;
    if (forward) {
        // The first match at or after the selection's end; at its start when
        // nothing is selected (so a fresh search finds the word under the cursor).
        const int from = start == end ? start : end;
        auto it = std::lower_bound(all.cbegin(), all.cend(), from);
        pick = it == all.cend() ? all.first() : *it;
    } else {
        auto it = std::lower_bound(all.cbegin(), all.cend(), start);
        pick = it == all.cbegin() ? all.last() : *(it - 1);
    }
    select(m_target, pick, pick + int(m_find->text().size()));
    updateStatus(all);
    return true;
}

bool FindBar::findNext() { return find(true); }
bool FindBar::findPrevious() { return find(false); }

bool FindBar::replaceCurrent()
{
    if (!m_target || !isEditable(m_target))
        return false;
    const auto [start, end] = selectionOf(m_target);
    const QString selected = textOf(m_target).mid(start, end - start);
    if (m_find->text().isEmpty() || selected.compare(m_find->text(), caseSensitivity()) != 0)
        return findNext(); // first select a match, as editors do
    if (QsciScintilla *s = sci(m_target))
        s->replaceSelectedText(m_replace->text());
    else if (QPlainTextEdit *p = plain(m_target))
        p->textCursor().insertText(m_replace->text());
    findNext();
    return true;
}

int FindBar::replaceAll()
{
    if (!m_target || !isEditable(m_target))
        return 0;
    const QVector<int> all = matches();
    if (all.isEmpty()) {
        updateStatus(all);
        return 0;
    }
    const int length = int(m_find->text().size());
    const QString with = m_replace->text();
    // From the last match back, so earlier offsets stay valid; one undo step.
    if (QsciScintilla *s = sci(m_target)) {
        s->beginUndoAction();
        for (auto it = all.crbegin(); it != all.crend(); ++it) {
            select(s, *it, *it + length);
            s->replaceSelectedText(with);
        }
        s->endUndoAction();
    } else if (QPlainTextEdit *p = plain(m_target)) {
        QTextCursor c = p->textCursor();
        c.beginEditBlock();
        for (auto it = all.crbegin(); it != all.crend(); ++it) {
            c.setPosition(*it);
            c.setPosition(*it + length, QTextCursor::KeepAnchor);
            c.insertText(with);
        }
        c.endEditBlock();
    }
    m_status->setText(all.size() == 1 ? tr("1 replaced") : tr("%1 replaced").arg(all.size()));
    m_status->setStyleSheet(QString());
    return int(all.size());
}

QString FindBar::status() const
{
    return m_status->text();
}

void FindBar::updateStatus()
{
    updateStatus(matches());
}

void FindBar::updateStatus(const QVector<int> &all)
{
    QString text;
    bool missing = false;
    if (!m_find->text().isEmpty() && m_target) {
        if (all.isEmpty()) {
            text = tr("not found");
            missing = true;
        } else {
            const int start = selectionOf(m_target).first;
            const int index = int(all.indexOf(start));
            text = index >= 0 ? tr("%1 of %2").arg(index + 1).arg(all.size())
                              : (all.size() == 1 ? tr("1 match") : tr("%1 matches").arg(all.size()));
        }
    }
    m_status->setText(text);
    m_status->setStyleSheet(missing ? QStringLiteral("color: %1;").arg(m_theme.error.name()) : QString());
}

void FindBar::setTheme(const Theme &theme)
{
    m_theme = theme;
    updateStatus();
}

void FindBar::keyPressEvent(QKeyEvent *event)
{
    // (Enter and Shift+Enter never get here: the find field takes them.)
    if (event->key() == Qt::Key_Escape) {
        hide();
        emit closed();
        return;
    }
    QWidget::keyPressEvent(event);
}
