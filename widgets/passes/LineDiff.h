// A line diff of two texts (Myers' O(ND) algorithm), as plain data: the
// inline edit script and the side-by-side rows both views draw from.
#pragma once

#include <QStringList>
#include <QVector>

class LineDiff
{
public:
    enum class Kind { Same, Removed, Added, Changed };

    /// One line of the inline diff. Lines are 0-based; -1 where a side has none.
    struct Line {
        Kind kind = Kind::Same; // Same, Removed or Added
        int oldLine = -1;
        int newLine = -1;
        bool operator==(const Line &o) const
        {
            return kind == o.kind && oldLine == o.oldLine && newLine == o.newLine;
        }
    };

    /// One row of the side-by-side diff: a removed line and the added line
    /// that took its place are one Changed row.
    struct Row {
        Kind kind = Kind::Same;
        int oldLine = -1;
        int newLine = -1;
        bool operator==(const Row &o) const
        {
            return kind == o.kind && oldLine == o.oldLine && newLine == o.newLine;
        }
    };

    LineDiff() = default;
    static LineDiff compute(const QStringList &oldLines, const QStringList &newLines);
    /// Splits on '\n'; a trailing newline does not make an extra empty line.
    static QStringList splitLines(const QString &text);

    const QVector<Line> &lines() const { return m_lines; }
    QVector<Row> rows() const;
    int addedCount() const { return m_added; }
    int removedCount() const { return m_removed; }
    bool isIdentical() const { return m_added == 0 && m_removed == 0; }

private:
    QVector<Line> m_lines;
    int m_added = 0;
    int m_removed = 0;
};
