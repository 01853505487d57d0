#include "Theme.h"

#include <Qsci/qscilexercpp.h>
#include <Qsci/qscilexerpython.h>
#include <Qsci/qsciscintilla.h>

namespace {
// The colours of the application palette that are not already a Theme
// colour; text, base, link and placeholder come from the Theme itself.
struct PaletteColors {
    QColor window, alternateBase, button, highlight, toolTipBase, disabledText;
};

QPalette paletteOf(const Theme &t, const PaletteColors &c)
{
    QPalette p;
    p.setColor(QPalette::Window, c.window);
    p.setColor(QPalette::AlternateBase, c.alternateBase);
    p.setColor(QPalette::Button, c.button);
    p.setColor(QPalette::Highlight, c.highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, c.toolTipBase);
    p.setColor(QPalette::Base, t.background);
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::ToolTipText})
        p.setColor(role, t.text);
    p.setColor(QPalette::PlaceholderText, t.marginText);
    p.setColor(QPalette::Link, t.link);
    for (QPalette::ColorRole role : {QPalette::Text, QPalette::WindowText, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, c.disabledText);
    return p;
}
} // namespace

QColor Theme::band(int sourceLine) const
{
    // Hues far apart for neighbours; pale on light, deep on dark, so text
    // and the syntax colours stay readable on every band.
    static constexpr int kHues[kBandCount] = {210, 35, 130, 285, 0, 175, 60, 320};
    const int hue = kHues[((sourceLine % kBandCount) + kBandCount) % kBandCount];
    return kind == Kind::Dark ? QColor::fromHsv(hue, 120, 68) : QColor::fromHsv(hue, 38, 252);
}

Theme Theme::light()
{
    Theme t;
    t.kind = Kind::Light;
    t.background = Qt::white;
    t.text = QColor(0x1e, 0x1e, 0x22);
    t.caretLine = QColor(0xf2, 0xf2, 0xf8);
    t.margin = QColor(0xf0, 0xf0, 0xf2);
    t.marginText = QColor(0x80, 0x80, 0x88);
    t.edge = QColor(0xe0, 0xe0, 0xe0);
    t.selection = QColor(0xc8, 0xdc, 0xf8);
    t.linkedLine = QColor(0xff, 0xf0, 0xa8);
    t.addedLine = QColor(0xdc, 0xf5, 0xdc);
    t.removedLine = QColor(0xfa, 0xdc, 0xdc);
    t.changedLine = QColor(0xfa, 0xf0, 0xc8);
    t.filler = QColor(0xee, 0xee, 0xf0);
    t.error = QColor(0xd0, 0x20, 0x20);
    t.errorLine = QColor(0xff, 0xe4, 0xe4);
    t.errorAnnotationText = QColor(0xa0, 0x00, 0x00);
    t.errorAnnotationBack = QColor(0xff, 0xf0, 0xf0);
    t.warning = QColor(0xe0, 0xa0, 0x00);
    t.warningAnnotationText = QColor(0x80, 0x50, 0x00);
    t.warningAnnotationBack = QColor(0xff, 0xf8, 0xe0);
    t.consoleOutput = QColor(0x20, 0x20, 0x20);
    t.consoleError = QColor(0xc0, 0x10, 0x10);
    t.consoleInfo = QColor(0x70, 0x70, 0x80);
    t.link = QColor(0x10, 0x50, 0xc0);
    t.keyword = QColor(0x00, 0x00, 0xa0);
    t.operation = QColor(0x00, 0x50, 0xa0);
    t.value = QColor(0x80, 0x30, 0x00);
    t.block = QColor(0x80, 0x00, 0x80);
    t.symbol = QColor(0x00, 0x70, 0x70);
    t.type = QColor(0x20, 0x80, 0x20);
    t.attribute = QColor(0x70, 0x50, 0x90);
    t.number = QColor(0xa0, 0x40, 0x40);
    t.string = QColor(0xa0, 0x60, 0x00);
    t.comment = QColor(0x70, 0x80, 0x70);
    t.location = QColor(0xa0, 0xa0, 0xa0);
    t.decorator = QColor(0x80, 0x50, 0x00);
    t.function = QColor(0x00, 0x60, 0x80);
    t.palette = paletteOf(t, {QColor(0xef, 0xef, 0xf0), QColor(0xf5, 0xf5, 0xf7), QColor(0xe6, 0xe6, 0xea),
                              QColor(0x30, 0x74, 0xd0), QColor(0xff, 0xff, 0xe8), QColor(0x9a, 0x9a, 0xa2)});
    return t;
}

Theme Theme::dark()
{
    Theme t;
    t.kind = Kind::Dark;
    t.background = QColor(0x1e, 0x1f, 0x22);
    t.text = QColor(0xd8, 0xd8, 0xdc);
    t.caretLine = QColor(0x2a, 0x2c, 0x32);
    t.margin = QColor(0x26, 0x28, 0x2c);
    t.marginText = QColor(0x80, 0x84, 0x8c);
    t.edge = QColor(0x34, 0x36, 0x3c);
    t.selection = QColor(0x2f, 0x4a, 0x70);
    t.linkedLine = QColor(0x4a, 0x44, 0x20);
    t.addedLine = QColor(0x1f, 0x3d, 0x26);
    t.removedLine = QColor(0x4a, 0x22, 0x24);
    t.changedLine = QColor(0x45, 0x3e, 0x1e);
    t.filler = QColor(0x28, 0x29, 0x2d);
    t.error = QColor(0xf0, 0x50, 0x50);
    t.errorLine = t.removedLine;
    t.errorAnnotationText = QColor(0xff, 0xb0, 0xb0);
    t.errorAnnotationBack = QColor(0x3c, 0x20, 0x22);
    t.warning = QColor(0xe8, 0xb0, 0x30);
    t.warningAnnotationText = QColor(0xf0, 0xd0, 0x90);
    t.warningAnnotationBack = QColor(0x3a, 0x32, 0x1c);
    t.consoleOutput = t.text;
    t.consoleError = QColor(0xff, 0x70, 0x70);
    t.consoleInfo = QColor(0x98, 0x9c, 0xa8);
    t.link = QColor(0x6c, 0xa8, 0xf0);
    t.keyword = QColor(0xc6, 0x8c, 0xf0);
    t.operation = QColor(0x68, 0xb0, 0xf0);
    t.value = QColor(0xf0, 0xa8, 0x70);
    t.block = QColor(0xe0, 0x90, 0xe0);
    t.symbol = QColor(0x50, 0xd0, 0xd0);
    t.type = QColor(0x80, 0xd0, 0x80);
    t.attribute = QColor(0xb8, 0xa0, 0xe8);
    t.number = QColor(0xf0, 0x90, 0x90);
    t.string = QColor(0xe8, 0xc0, 0x70);
    t.comment = QColor(0x80, 0x90, 0x80);
    t.location = QColor(0x78, 0x7c, 0x84);
    t.decorator = QColor(0xe0, 0xb0, 0x60);
    t.function = QColor(0x70, 0xc8, 0xe8);
    t.palette = paletteOf(t, {QColor(0x2b, 0x2d, 0x31), QColor(0x26, 0x28, 0x2c), QColor(0x36, 0x38, 0x3d),
                              QColor(0x3d, 0x6e, 0xb4), QColor(0x36, 0x38, 0x3d), QColor(0x78, 0x7a, 0x80)});
    // Fusion draws bevels from these; the defaults are a light theme's.
    t.palette.setColor(QPalette::BrightText, Qt::white);
    t.palette.setColor(QPalette::Light, QColor(0x46, 0x48, 0x4e));
    t.palette.setColor(QPalette::Midlight, QColor(0x3a, 0x3c, 0x42));
    t.palette.setColor(QPalette::Mid, QColor(0x30, 0x32, 0x36));
    t.palette.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1c));
    t.palette.setColor(QPalette::Shadow, QColor(0x10, 0x10, 0x12));
    return t;
}

namespace {
void colourPython(QsciLexerPython *lexer, const Theme &t)
{
    lexer->setColor(t.text, QsciLexerPython::Default);
    lexer->setColor(t.text, QsciLexerPython::Identifier);
    lexer->setColor(t.text, QsciLexerPython::Operator);
    lexer->setColor(t.comment, QsciLexerPython::Comment);
    lexer->setColor(t.comment, QsciLexerPython::CommentBlock);
    lexer->setColor(t.number, QsciLexerPython::Number);
    lexer->setColor(t.keyword, QsciLexerPython::Keyword);
    for (int style : {int(QsciLexerPython::DoubleQuotedString), int(QsciLexerPython::SingleQuotedString),
                      int(QsciLexerPython::TripleSingleQuotedString), int(QsciLexerPython::TripleDoubleQuotedString),
                      int(QsciLexerPython::DoubleQuotedFString), int(QsciLexerPython::SingleQuotedFString),
                      int(QsciLexerPython::TripleSingleQuotedFString), int(QsciLexerPython::TripleDoubleQuotedFString),
                      int(QsciLexerPython::UnclosedString)})
        lexer->setColor(t.string, style);
    lexer->setColor(t.type, QsciLexerPython::ClassName);
    lexer->setColor(t.function, QsciLexerPython::FunctionMethodName);
    lexer->setColor(t.symbol, QsciLexerPython::HighlightedIdentifier);
    lexer->setColor(t.decorator, QsciLexerPython::Decorator);
    lexer->setEolFill(true, QsciLexerPython::UnclosedString);
    lexer->setPaper(t.kind == Theme::Kind::Dark ? t.removedLine : t.errorLine, QsciLexerPython::UnclosedString);
}

void colourCpp(QsciLexerCPP *lexer, const Theme &t)
{
    for (int offset : {0, 0x40}) { // 0x40: the same styles in inactive #if blocks
        lexer->setColor(t.text, offset + QsciLexerCPP::Default);
        lexer->setColor(t.text, offset + QsciLexerCPP::Identifier);
        lexer->setColor(t.text, offset + QsciLexerCPP::Operator);
        for (int style : {int(QsciLexerCPP::Comment), int(QsciLexerCPP::CommentLine), int(QsciLexerCPP::CommentDoc),
                          int(QsciLexerCPP::CommentLineDoc)})
            lexer->setColor(t.comment, offset + style);
        lexer->setColor(t.number, offset + QsciLexerCPP::Number);
        lexer->setColor(t.keyword, offset + QsciLexerCPP::Keyword);
        lexer->setColor(t.type, offset + QsciLexerCPP::KeywordSet2);
        for (int style : {int(QsciLexerCPP::DoubleQuotedString), int(QsciLexerCPP::SingleQuotedString),
                          int(QsciLexerCPP::RawString)})
            lexer->setColor(t.string, offset + style);
        lexer->setColor(t.decorator, offset + QsciLexerCPP::PreProcessor);
    }
}
} // namespace

void applyThemeToScintilla(QsciScintilla *view, const Theme &t)
{
    if (QsciLexer *lexer = view->lexer()) {
        lexer->setDefaultPaper(t.background);
        lexer->setDefaultColor(t.text);
        lexer->setPaper(t.background, -1);
        if (auto *python = qobject_cast<QsciLexerPython *>(lexer))
            colourPython(python, t);
        else if (auto *cpp = qobject_cast<QsciLexerCPP *>(lexer))
            colourCpp(cpp, t);
    }
    view->setPaper(t.background);
    view->setColor(t.text);
    view->setCaretForegroundColor(t.text);
    view->setCaretLineBackgroundColor(t.caretLine);
    view->setMarginsBackgroundColor(t.margin);
    view->setMarginsForegroundColor(t.marginText);
    view->setFoldMarginColors(t.margin, t.margin);
    view->setEdgeColor(t.edge);
    view->setSelectionBackgroundColor(t.selection);
    view->setSelectionForegroundColor(t.text);
    view->setIndentationGuidesBackgroundColor(t.background);
    view->setIndentationGuidesForegroundColor(t.edge);
    view->setMatchedBraceBackgroundColor(t.selection);
    view->setMatchedBraceForegroundColor(t.text);
    view->setUnmatchedBraceForegroundColor(t.error);
    view->setUnmatchedBraceBackgroundColor(t.background);
}
