#include "MlirHighlighter.h"

#include <QFont>

namespace {
QTextCharFormat makeFormat(const QColor &color, bool bold = false, bool italic = false)
{
    QTextCharFormat f;
    f.setForeground(color);
    if (bold)
        f.setFontWeight(QFont::Bold);
    f.setFontItalic(italic);
    return f;
}
} // namespace

MlirHighlighter::MlirHighlighter(QTextDocument *document)
    : QSyntaxHighlighter(document)
{
    m_formats[Token::Operation] = makeFormat(QColor(0x00, 0x50, 0xa0), true);
    m_formats[Token::Value] = makeFormat(QColor(0x80, 0x30, 0x00));
    m_formats[Token::Block] = makeFormat(QColor(0x80, 0x00, 0x80), true);
    m_formats[Token::Symbol] = makeFormat(QColor(0x00, 0x70, 0x70), true);
    m_formats[Token::Type] = makeFormat(QColor(0x20, 0x80, 0x20));
    m_formats[Token::Attribute] = makeFormat(QColor(0x70, 0x50, 0x90));
    m_formats[Token::Number] = makeFormat(QColor(0xa0, 0x40, 0x40));
    m_formats[Token::String] = makeFormat(QColor(0xa0, 0x60, 0x00));
    m_formats[Token::Comment] = makeFormat(QColor(0x80, 0x80, 0x80), false, true);
    m_formats[Token::Location] = makeFormat(QColor(0xa0, 0xa0, 0xa0), false, true);

    // Later rules win where matches overlap, so the general ones come first.
    const auto add = [this](const char *pattern, Token token) {
        m_rules.push_back({QRegularExpression(QString::fromLatin1(pattern)), token});
    };
    add(R"(\b-?\d+(\.\d+)?([eE][-+]?\d+)?\b|\b0x[0-9a-fA-F]+\b|\b(true|false)\b)", Token::Number);
    add(R"(\b[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)+\b)", Token::Operation);
    add(R"(\b(i\d+|ui\d+|si\d+|f16|bf16|f32|f64|index|none|memref|tensor|vector)\b)", Token::Type);
    add(R"(![A-Za-z_][\w.]*(<[^<>]*(<[^<>]*>[^<>]*)*>)?)", Token::Type);
    add(R"(#[A-Za-z_][\w.]*)", Token::Attribute);
    add(R"(%[\w.$-]+(#\d+)?)", Token::Value);
    add(R"(\^[\w.$-]+)", Token::Block);
    add(R"(@[\w.$-]+|@"[^"]*")", Token::Symbol);
    add(R"("([^"\\]|\\.)*")", Token::String);
    add(R"(\bloc\((?:[^()]|\([^()]*\))*\))", Token::Location);
    add(R"(//.*$)", Token::Comment);
}

QTextCharFormat MlirHighlighter::format(Token token) const
{
    return m_formats.value(token);
}

void MlirHighlighter::highlightBlock(const QString &text)
{
    for (const Rule &rule : std::as_const(m_rules)) {
        const QTextCharFormat fmt = m_formats.value(rule.token);
        auto it = rule.pattern.globalMatch(text);
        while (it.hasNext()) {
            const QRegularExpressionMatch m = it.next();
            setFormat(int(m.capturedStart()), int(m.capturedLength()), fmt);
        }
    }
}
