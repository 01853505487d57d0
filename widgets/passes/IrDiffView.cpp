#include "IrDiffView.h"

#include "MlirHighlighter.h"
#include "Theme.h"

#include <QFontDatabase>
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

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_caption);
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

void IrDiffView::clear()
{
    m_beforeLines.clear();
    m_afterLines.clear();
    m_diff = LineDiff();
    m_caption->setText(tr("Select a pass to compare its IR with the pass before it."));
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

void IrDiffView::rebuild()
{
    m_stack->setCurrentIndex(m_mode == Mode::Inline ? 1 : 0);
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
    for (const LineDiff::Row &row : m_diff.rows()) {
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
