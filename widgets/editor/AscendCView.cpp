#include "AscendCView.h"

#include "Theme.h"

#include <Qsci/qscilexercpp.h>

#include <QFontDatabase>

AscendCView::AscendCView(QWidget *parent)
    : QsciScintilla(parent)
{
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    auto *lexer = new QsciLexerCPP(this);
    lexer->setDefaultFont(mono);
    lexer->setFont(mono, -1);
    setLexer(lexer);
    setFont(mono);
    setMarginsFont(mono);

    setReadOnly(true);
    setUtf8(true);
    // Size the horizontal scroll bar to the text, not to Scintilla's 2000 px default.
    SendScintilla(SCI_SETSCROLLWIDTH, 1);
    SendScintilla(SCI_SETSCROLLWIDTHTRACKING, true);
    setMarginType(0, QsciScintilla::NumberMargin);
    setMarginLineNumbers(0, true);
    setFolding(QsciScintilla::BoxedTreeFoldStyle, 2);
    setCaretLineVisible(true);
    setWrapMode(QsciScintilla::WrapNone);
    setTheme(Theme::light());
    updateMarginWidth();
}

void AscendCView::setTheme(const Theme &theme)
{
    applyThemeToScintilla(this, theme);
}

void AscendCView::setSource(const QString &source)
{
    if (source == text())
        return;
    const int firstLine = firstVisibleLine();
    setReadOnly(false);
    setText(source);
    setReadOnly(true);
    updateMarginWidth();
    // Re-running the same kernel should not throw the reader back to the top.
    setFirstVisibleLine(firstLine);
}

void AscendCView::updateMarginWidth()
{
    setMarginWidth(0, QStringLiteral("0%1").arg(qMax(lines(), 100)));
}
