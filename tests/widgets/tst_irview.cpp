#include "AscendCView.h"
#include "IrView.h"
#include "MlirHighlighter.h"

#include <Qsci/qscilexer.h>

#include <QTest>
#include <QTextBlock>
#include <QTextLayout>

namespace {
// The highlighter's colour for the first occurrence of @p word in @p view.
QColor colorOf(const IrView &view, const QString &word)
{
    const QString text = view.toPlainText();
    const int at = int(text.indexOf(word));
    if (at < 0)
        return {};
    const QTextBlock block = view.document()->findBlock(at);
    const int inBlock = at - block.position();
    for (const QTextLayout::FormatRange &range : block.layout()->formats()) {
        if (range.start <= inBlock && inBlock < range.start + range.length)
            return range.format.foreground().color();
    }
    return {};
}
} // namespace

class TestIrView : public QObject
{
    Q_OBJECT
private slots:
    void highlightsMlirTokens()
    {
        IrView view;
        view.setIr(QStringLiteral(
            "func.func @vadd(%arg0: !asctile.tile<1x1024xf32, UB>) {\n"
            "  %c0 = arith.constant 0 : index loc(\"vadd.py\":3:5)\n"
            "  // a comment\n"
            "  return\n"
            "}\n"));
        const MlirHighlighter *h = view.highlighter();
        using T = MlirHighlighter::Token;
        QCOMPARE(colorOf(view, QStringLiteral("func.func")), h->format(T::Operation).foreground().color());
        QCOMPARE(colorOf(view, QStringLiteral("arith.constant")), h->format(T::Operation).foreground().color());
        QCOMPARE(colorOf(view, QStringLiteral("@vadd")), h->format(T::Symbol).foreground().color());
        QCOMPARE(colorOf(view, QStringLiteral("%arg0")), h->format(T::Value).foreground().color());
        // The op-like name inside a type is a type.
        QCOMPARE(colorOf(view, QStringLiteral("!asctile.tile")), h->format(T::Type).foreground().color());
        QCOMPARE(colorOf(view, QStringLiteral("index")), h->format(T::Type).foreground().color());
        QCOMPARE(colorOf(view, QStringLiteral("loc(")), h->format(T::Location).foreground().color());
        QCOMPARE(colorOf(view, QStringLiteral("// a comment")), h->format(T::Comment).foreground().color());
        QVERIFY(h->format(T::Operation).foreground().color() != h->format(T::Value).foreground().color());
    }

    void isReadOnly()
    {
        IrView view;
        view.setIr(QStringLiteral("return"));
        QVERIFY(view.isReadOnly());
        QTest::keyClicks(&view, QStringLiteral("x"));
        QCOMPARE(view.ir(), QStringLiteral("return"));
    }

    void ascendCViewShowsTheSourceReadOnly()
    {
        AscendCView view;
        view.setSource(QStringLiteral("#include \"kernel_operator.h\"\nvoid f() {}\n"));
        QVERIFY(view.isReadOnly());
        QCOMPARE(view.lines(), 3);
        QVERIFY(view.source().contains(QStringLiteral("kernel_operator.h")));
        QCOMPARE(QString::fromLatin1(view.lexer()->language()), QStringLiteral("C++"));
    }
};

QTEST_MAIN(TestIrView)
#include "tst_irview.moc"
