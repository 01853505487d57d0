// Colours MLIR text: op names, SSA values, blocks, symbols, types, attributes,
// literals, comments and trailing locations.
#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QVector>

struct Theme;

class MlirHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    enum class Token { Operation, Value, Block, Symbol, Type, Attribute, Number, String, Comment, Location };

    explicit MlirHighlighter(QTextDocument *document);

    QTextCharFormat format(Token token) const;
    /// Recolours with @p theme and re-highlights the document.
    void setTheme(const Theme &theme);

protected:
    void highlightBlock(const QString &text) override;

private:
    struct Rule {
        QRegularExpression pattern;
        Token token;
    };
    QVector<Rule> m_rules;
    QHash<Token, QTextCharFormat> m_formats;
};
