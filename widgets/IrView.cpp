#include "IrView.h"

#include "MlirHighlighter.h"

#include <QFontDatabase>
#include <QScrollBar>

IrView::IrView(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_highlighter(new MlirHighlighter(document()))
{
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setPlaceholderText(tr("Select a pass to see the IR after it."));
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
}

void IrView::setIr(const QString &ir, bool keepScroll)
{
    if (ir == toPlainText())
        return;
    const int v = verticalScrollBar()->value();
    const int h = horizontalScrollBar()->value();
    setPlainText(ir);
    if (keepScroll) {
        verticalScrollBar()->setValue(v);
        horizontalScrollBar()->setValue(h);
    }
}
