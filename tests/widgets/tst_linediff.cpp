#include "LineDiff.h"

#include <QRandomGenerator>
#include <QTest>

namespace {
using Kind = LineDiff::Kind;

// Length of the longest common subsequence, the slow and obvious way.
int lcsLength(const QStringList &a, const QStringList &b)
{
    QVector<QVector<int>> t(a.size() + 1, QVector<int>(b.size() + 1, 0));
    for (int i = int(a.size()) - 1; i >= 0; --i)
        for (int j = int(b.size()) - 1; j >= 0; --j)
            t[i][j] = a[i] == b[j] ? t[i + 1][j + 1] + 1 : qMax(t[i + 1][j], t[i][j + 1]);
    return t[0][0];
}

// The edit script must rebuild both sides in order.
void checkRebuilds(const LineDiff &diff, const QStringList &a, const QStringList &b)
{
    int nextOld = 0;
    int nextNew = 0;
    for (const LineDiff::Line &line : diff.lines()) {
        if (line.kind != Kind::Added) {
            QCOMPARE(line.oldLine, nextOld++);
        }
        if (line.kind != Kind::Removed) {
            QCOMPARE(line.newLine, nextNew++);
        }
        if (line.kind == Kind::Same) {
            QCOMPARE(a[line.oldLine], b[line.newLine]);
        }
    }
    QCOMPARE(nextOld, int(a.size()));
    QCOMPARE(nextNew, int(b.size()));
}
} // namespace

class TestLineDiff : public QObject
{
    Q_OBJECT
private slots:
    void identicalTextsHaveNoEdits()
    {
        const QStringList a{"a", "b", "c"};
        const LineDiff diff = LineDiff::compute(a, a);
        QVERIFY(diff.isIdentical());
        QCOMPARE(diff.lines().size(), 3);
        for (const auto &line : diff.lines())
            QCOMPARE(line.kind, Kind::Same);
    }

    void emptySides()
    {
        QVERIFY(LineDiff::compute({}, {}).lines().isEmpty());
        const LineDiff added = LineDiff::compute({}, {"x", "y"});
        QCOMPARE(added.addedCount(), 2);
        QCOMPARE(added.lines().first(), (LineDiff::Line{Kind::Added, -1, 0}));
        const LineDiff removed = LineDiff::compute({"x"}, {});
        QCOMPARE(removed.removedCount(), 1);
        QCOMPARE(removed.lines().first(), (LineDiff::Line{Kind::Removed, 0, -1}));
    }

    void aChangedLineInTheMiddle()
    {
        const QStringList a{"func", "  %0 = add", "  %1 = mul", "return"};
        const QStringList b{"func", "  %0 = add", "  %1 = sub", "  %2 = mul", "return"};
        const LineDiff diff = LineDiff::compute(a, b);
        QCOMPARE(diff.removedCount(), 1);
        QCOMPARE(diff.addedCount(), 2);
        checkRebuilds(diff, a, b);

        // Side by side, the removed line pairs with the first line added in its place.
        const QVector<LineDiff::Row> rows = diff.rows();
        QCOMPARE(rows.size(), 5);
        QCOMPARE(rows[0], (LineDiff::Row{Kind::Same, 0, 0}));
        QCOMPARE(rows[2], (LineDiff::Row{Kind::Changed, 2, 2}));
        QCOMPARE(rows[3], (LineDiff::Row{Kind::Added, -1, 3}));
        QCOMPARE(rows[4], (LineDiff::Row{Kind::Same, 3, 4}));
    }

    void theClassicExampleIsMinimal()
    {
        // Myers' paper: ABCABBA -> CBABAC needs 5 edits.
        const QStringList a = QString("ABCABBA").split(QString(), Qt::SkipEmptyParts);
        const QStringList b = QString("CBABAC").split(QString(), Qt::SkipEmptyParts);
        const LineDiff diff = LineDiff::compute(a, b);
        QCOMPARE(diff.addedCount() + diff.removedCount(), 5);
        checkRebuilds(diff, a, b);
    }

    void randomTextsGiveAShortestScript()
    {
        QRandomGenerator rng(42);
        for (int round = 0; round < 300; ++round) {
            QStringList a;
            QStringList b;
            const int n = int(rng.bounded(0, 25));
            const int m = int(rng.bounded(0, 25));
            for (int i = 0; i < n; ++i)
                a << QString(QChar('a' + rng.bounded(0, 4)));
            for (int i = 0; i < m; ++i)
                b << QString(QChar('a' + rng.bounded(0, 4)));
            const LineDiff diff = LineDiff::compute(a, b);
            checkRebuilds(diff, a, b);
            const int lcs = lcsLength(a, b);
            QCOMPARE(diff.removedCount(), int(a.size()) - lcs);
            QCOMPARE(diff.addedCount(), int(b.size()) - lcs);
        }
    }

    void splitLinesIgnoresTheLastNewline()
    {
        QCOMPARE(LineDiff::splitLines(QStringLiteral("a\nb\n")), (QStringList{"a", "b"}));
        QCOMPARE(LineDiff::splitLines(QStringLiteral("a\n\nb")), (QStringList{"a", "", "b"}));
        QVERIFY(LineDiff::splitLines(QString()).isEmpty());
    }

    void largeMostlyEqualTextsAreFast()
    {
        QStringList a;
        for (int i = 0; i < 20000; ++i)
            a << QStringLiteral("  %%1 = arith.addi %%2, %%3 : index").arg(i).arg(i / 2).arg(i / 3);
        QStringList b = a;
        b[5000] = QStringLiteral("changed");
        b.insert(15000, QStringLiteral("inserted"));
        QElapsedTimer timer;
        timer.start();
        const LineDiff diff = LineDiff::compute(a, b);
        QVERIFY(timer.elapsed() < 2000);
        QCOMPARE(diff.addedCount(), 2);
        QCOMPARE(diff.removedCount(), 1);
    }
};

QTEST_APPLESS_MAIN(TestLineDiff)
#include "tst_linediff.moc"
