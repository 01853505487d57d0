#include "MlirHighlighter.h"

#include "Theme.h"

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
    setTheme(Theme::light());

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

void MlirHighlighter::setTheme(const Theme &t)
{
    m_formats[Token::Operation] = makeFormat(t.operation, true);
    m_formats[Token::Value] = makeFormat(t.value);
    m_formats[Token::Block] = makeFormat(t.block, true);
    m_formats[Token::Symbol] = makeFormat(t.symbol, true);
    m_formats[Token::Type] = makeFormat(t.type);
    m_formats[Token::Attribute] = makeFormat(t.attribute);
    m_formats[Token::Number] = makeFormat(t.number);
    m_formats[Token::String] = makeFormat(t.string);
    m_formats[Token::Comment] = makeFormat(t.comment, false, true);
    m_formats[Token::Location] = makeFormat(t.location, false, true);
    if (document())
        rehighlight();
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
