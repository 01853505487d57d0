#include "IrView.h"

#include "MlirHighlighter.h"
#include "Theme.h"

#include <QFontDatabase>
#include <QScrollBar>
#include <QTextBlock>

IrView::IrView(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_highlighter(new MlirHighlighter(document()))
    , m_linkedColor(Theme::light().linkedLine)
    , m_theme(Theme::light())
{
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setPlaceholderText(tr("Select a pass to see the IR after it."));
    // Keyboard navigation needs a visible cursor; the text stays read-only.
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, [this] {
        const int line = cursorLine();
        if (m_settingText || line == m_lastCursorLine)
            return;
        m_lastCursorLine = line;
        emit cursorLineChanged(line);
    });
}

void IrView::setIr(const QString &ir, bool keepScroll)
{
    if (ir == toPlainText())
        return;
    const int v = verticalScrollBar()->value();
    const int h = horizontalScrollBar()->value();
    m_settingText = true;
    setPlainText(ir);
    m_lastCursorLine = -1;
    m_settingText = false;
    m_linkedLines.clear();
    m_bandSourceLines.clear(); // they were the old text's
    updateExtraSelections();
    if (keepScroll) {
        verticalScrollBar()->setValue(v);
        horizontalScrollBar()->setValue(h);
    }
}

void IrView::setLinkedLines(const QVector<int> &lines)
{
    if (lines == m_linkedLines)
        return;
    m_linkedLines = lines;
    updateExtraSelections();
    if (!lines.isEmpty()) {
        const QTextBlock block = document()->findBlockByNumber(lines.first());
        if (block.isValid()) {
            // Scroll without moving the cursor (which would announce a new line).
            const QRectF r = blockBoundingGeometry(block).translated(contentOffset());
            if (r.top() < 0 || r.bottom() > viewport()->height())
                verticalScrollBar()->setValue(qMax(0, block.firstLineNumber() - 3));
        }
    }
}

int IrView::cursorLine() const
{
    return textCursor().blockNumber();
}

void IrView::setTheme(const Theme &theme)
{
    QPalette p = palette();
    p.setColor(QPalette::Base, theme.background);
    p.setColor(QPalette::Text, theme.text);
    p.setColor(QPalette::Highlight, theme.selection);
    p.setColor(QPalette::HighlightedText, theme.text);
    setPalette(p);
    m_linkedColor = theme.linkedLine;
    m_theme = theme;
    m_highlighter->setTheme(theme);
    updateExtraSelections();
}

void IrView::setBands(const QVector<int> &sourceLines)
{
    if (sourceLines == m_bandSourceLines)
        return;
    m_bandSourceLines = sourceLines;
    updateExtraSelections();
}

int IrView::bandAt(int line) const
{
    if (line < 0 || line >= m_bandSourceLines.size() || m_bandSourceLines[line] <= 0)
        return -1;
    return m_bandSourceLines[line] % Theme::kBandCount;
}

void IrView::updateExtraSelections()
{
    QList<QTextEdit::ExtraSelection> selections;
    // Bands first: the linked lines are drawn over them.
    QTextBlock block = document()->firstBlock();
    for (int line = 0; line < m_bandSourceLines.size() && block.isValid(); ++line, block = block.next()) {
        if (m_bandSourceLines[line] <= 0)
            continue;
        QTextEdit::ExtraSelection s;
        s.cursor = QTextCursor(block);
        s.format.setBackground(m_theme.band(m_bandSourceLines[line]));
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        selections.push_back(s);
    }
    for (int line : std::as_const(m_linkedLines)) {
        const QTextBlock block = document()->findBlockByNumber(line);
        if (!block.isValid())
            continue;
        QTextEdit::ExtraSelection s;
        s.cursor = QTextCursor(block);
        s.format.setBackground(m_linkedColor);
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        selections.push_back(s);
    }
    setExtraSelections(selections);
}
