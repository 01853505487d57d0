#include "IrDiffView.h"

#include "MlirHighlighter.h"
#include "Stepping.h"
#include "Theme.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QShortcut>
#include <QToolButton>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QTextBlock>
#include <QVBoxLayout>

namespace {
QPlainTextEdit *makeTextView(QWidget *parent)
{
    auto *view = new QPlainTextEdit(parent);
    view->setReadOnly(true);
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    view->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    return view;
}

void markLines(QPlainTextEdit *view, const QVector<std::pair<int, QColor>> &lines)
{
    QList<QTextEdit::ExtraSelection> selections;
    selections.reserve(lines.size());
    for (const auto &[line, color] : lines) {
        QTextEdit::ExtraSelection s;
        s.cursor = QTextCursor(view->document()->findBlockByNumber(line));
        s.format.setBackground(color);
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        selections.push_back(s);
    }
    view->setExtraSelections(selections);
}
} // namespace

IrDiffView::IrDiffView(QWidget *parent)
    : QWidget(parent)
    , m_caption(new QLabel(this))
    , m_changeLabel(new QLabel(this))
    , m_previousChange(new QToolButton(this))
    , m_nextChange(new QToolButton(this))
    , m_stack(new QStackedWidget(this))
    , m_inline(makeTextView(this))
    , m_before(makeTextView(this))
    , m_after(makeTextView(this))
{
    for (QPlainTextEdit *view : {m_inline, m_before, m_after})
        m_highlighters << new MlirHighlighter(view->document());
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_caption->setContentsMargins(4, 2, 4, 2);

    auto *sideBySide = new QSplitter(Qt::Horizontal, this);
    sideBySide->addWidget(m_before);
    sideBySide->addWidget(m_after);
    sideBySide->setChildrenCollapsible(false);
    // Both columns show the same rows: they scroll as one.
    connect(m_before->verticalScrollBar(), &QScrollBar::valueChanged, m_after->verticalScrollBar(), &QScrollBar::setValue);
    connect(m_after->verticalScrollBar(), &QScrollBar::valueChanged, m_before->verticalScrollBar(), &QScrollBar::setValue);

    m_stack->addWidget(sideBySide);
    m_stack->addWidget(m_inline);

    m_previousChange->setArrowType(Qt::UpArrow);
    m_nextChange->setArrowType(Qt::DownArrow);
    m_previousChange->setToolTip(tr("Previous change (Shift+F7)"));
    m_nextChange->setToolTip(tr("Next change (F7)"));
    connect(m_previousChange, &QToolButton::clicked, this, &IrDiffView::previousChange);
    connect(m_nextChange, &QToolButton::clicked, this, &IrDiffView::nextChange);
    // In the view only: another diff (the Compare view's) has its own.
    auto *next = new QShortcut(QKeySequence(Qt::Key_F7), this, this, &IrDiffView::nextChange);
    auto *previous = new QShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F7), this, this, &IrDiffView::previousChange);
    next->setContext(Qt::WidgetWithChildrenShortcut);
    previous->setContext(Qt::WidgetWithChildrenShortcut);
    auto *header = new QHBoxLayout;
    header->setContentsMargins(0, 0, 4, 0);
    header->addWidget(m_caption, 1);
    header->addWidget(m_changeLabel);
    header->addWidget(m_previousChange);
    header->addWidget(m_nextChange);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(header);
    layout->addWidget(m_stack, 1);
    setTheme(Theme::light());
    clear();
}

void IrDiffView::setTexts(const QString &before, const QString &after, const QString &caption)
{
    m_beforeLines = LineDiff::splitLines(before);
    m_afterLines = LineDiff::splitLines(after);
    m_diff = LineDiff::compute(m_beforeLines, m_afterLines);
    m_caption->setText(tr("%1: %2 line(s) added, %3 removed")
                           .arg(caption)
                           .arg(m_diff.addedCount())
                           .arg(m_diff.removedCount()));
    rebuild();
}

void IrDiffView::clear(const QString &caption)
{
    m_beforeLines.clear();
    m_afterLines.clear();
    m_diff = LineDiff();
    m_caption->setText(caption.isEmpty() ? tr("Select a pass to compare its IR with the pass before it.") : caption);
    rebuild();
}

QString IrDiffView::caption() const
{
    return m_caption->text();
}

void IrDiffView::setMode(Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    rebuild();
}

void IrDiffView::nextChange()
{
    stepChange(1);
}

void IrDiffView::previousChange()
{
    stepChange(-1);
}

void IrDiffView::stepChange(int delta)
{
    if (m_changes.isEmpty())
        return;
    m_currentChange = steppedIndex(m_currentChange, int(m_changes.size()), delta);
    const int row = m_changes[m_currentChange];
    // The cursor to the change's first row, a few rows of context above it.
    for (QPlainTextEdit *view : {m_inline, m_before, m_after}) {
        if ((view == m_inline) != (m_mode == Mode::Inline))
            continue;
        QTextCursor cursor(view->document()->findBlockByNumber(row));
        view->setTextCursor(cursor);
        view->verticalScrollBar()->setValue(std::max(0, row - 3));
    }
    updateChangeLabel();
}

void IrDiffView::updateChangeLabel()
{
    const int n = int(m_changes.size());
    m_changeLabel->setText(n == 0 ? QString()
                           : m_currentChange < 0 ? tr("%n change(s)", nullptr, n)
                                                 : tr("change %1 of %2").arg(m_currentChange + 1).arg(n));
    m_previousChange->setEnabled(n > 0);
    m_nextChange->setEnabled(n > 0);
}

void IrDiffView::rebuild()
{
    m_stack->setCurrentIndex(m_mode == Mode::Inline ? 1 : 0);
    // Where each change starts in the text shown: a changed row after an unchanged one.
    const QVector<LineDiff::Row> rows = m_mode == Mode::Inline ? QVector<LineDiff::Row>() : m_diff.rows();
    QVector<LineDiff::Kind> kinds;
    if (m_mode == Mode::Inline)
        for (const LineDiff::Line &line : m_diff.lines())
            kinds.push_back(line.kind);
    else
        for (const LineDiff::Row &row : rows)
            kinds.push_back(row.kind);
    m_changes.clear();
    m_currentChange = -1;
    for (int i = 0; i < kinds.size(); ++i)
        if (kinds[i] != LineDiff::Kind::Same && (i == 0 || kinds[i - 1] == LineDiff::Kind::Same))
            m_changes.push_back(i);
    updateChangeLabel();
    if (m_mode == Mode::Inline) {
        QStringList text;
        QVector<std::pair<int, QColor>> marks;
        for (const LineDiff::Line &line : m_diff.lines()) {
            switch (line.kind) {
            case LineDiff::Kind::Removed:
                marks.push_back({int(text.size()), m_removed});
                text << QStringLiteral("- ") + m_beforeLines[line.oldLine];
                break;
            case LineDiff::Kind::Added:
                marks.push_back({int(text.size()), m_added});
                text << QStringLiteral("+ ") + m_afterLines[line.newLine];
                break;
            default:
                text << QStringLiteral("  ") + m_afterLines[line.newLine];
                break;
            }
        }
        m_inline->setPlainText(text.join(QLatin1Char('\n')));
        markLines(m_inline, marks);
        return;
    }
    QStringList left;
    QStringList right;
    QVector<std::pair<int, QColor>> leftMarks;
    QVector<std::pair<int, QColor>> rightMarks;
    for (const LineDiff::Row &row : rows) {
        const int at = int(left.size());
        left << (row.oldLine >= 0 ? m_beforeLines[row.oldLine] : QString());
        right << (row.newLine >= 0 ? m_afterLines[row.newLine] : QString());
        switch (row.kind) {
        case LineDiff::Kind::Same:
            break;
        case LineDiff::Kind::Changed:
            leftMarks.push_back({at, m_removed});
            rightMarks.push_back({at, m_added});
            break;
        case LineDiff::Kind::Removed:
            leftMarks.push_back({at, m_removed});
            rightMarks.push_back({at, m_filler});
            break;
        case LineDiff::Kind::Added:
            leftMarks.push_back({at, m_filler});
            rightMarks.push_back({at, m_added});
            break;
        }
    }
    m_before->setPlainText(left.join(QLatin1Char('\n')));
    m_after->setPlainText(right.join(QLatin1Char('\n')));
    markLines(m_before, leftMarks);
    markLines(m_after, rightMarks);
}

void IrDiffView::setTheme(const Theme &theme)
{
    m_added = theme.addedLine;
    m_removed = theme.removedLine;
    m_changed = theme.changedLine;
    m_filler = theme.filler;
    for (QPlainTextEdit *view : {m_inline, m_before, m_after}) {
        QPalette p = view->palette();
        p.setColor(QPalette::Base, theme.background);
        p.setColor(QPalette::Text, theme.text);
        view->setPalette(p);
    }
    for (MlirHighlighter *h : std::as_const(m_highlighters))
        h->setTheme(theme);
    rebuild();
}
