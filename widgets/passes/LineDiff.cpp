#include "LineDiff.h"

#include <QHash>

#include <algorithm>
#include <vector>

QStringList LineDiff::splitLines(const QString &text)
{
    if (text.isEmpty())
        return {};
    QStringList lines = text.split(QLatin1Char('\n'));
    if (text.endsWith(QLatin1Char('\n')))
        lines.removeLast();
    return lines;
}

LineDiff LineDiff::compute(const QStringList &oldLines, const QStringList &newLines)
{
    LineDiff diff;
    // Lines compare as small integers: one hash lookup per line, not per comparison.
    QHash<QString, int> ids;
    const auto idsOf = [&ids](const QStringList &lines) {
        std::vector<int> out;
        out.reserve(size_t(lines.size()));
        for (const QString &line : lines) {
            auto it = ids.constFind(line);
            if (it == ids.cend())
                it = ids.insert(line, int(ids.size()));
            out.push_back(it.value());
        }
        return out;
    };
    const std::vector<int> a = idsOf(oldLines);
    const std::vector<int> b = idsOf(newLines);
    const int n = int(a.size());
    const int m = int(b.size());

    // The common head and tail need no search; IR passes mostly touch the middle.
    int head = 0;
    while (head < n && head < m && a[head] == b[head])
        ++head;
    int tail = 0;
    while (tail < n - head && tail < m - head && a[n - 1 - tail] == b[m - 1 - tail])
        ++tail;
    const int an = n - head - tail;
    const int bn = m - head - tail;
    const auto A = [&](int i) { return a[size_t(head + i)]; };
    const auto B = [&](int j) { return b[size_t(head + j)]; };

    // Myers: v[k] = furthest x on diagonal k after d edits; keep each round's
    // slice (k in -d..d) to walk the path back.
    const int max = an + bn;
    std::vector<int> v(size_t(2 * max + 3), 0);
    const int offset = max + 1;
    std::vector<std::vector<int>> trace;
    int finalD = 0;
    for (int d = 0; d <= max; ++d) {
        trace.emplace_back(v.begin() + (offset - d - 1), v.begin() + (offset + d + 2));
        bool done = false;
        for (int k = -d; k <= d; k += 2) {
            int x;
            if (k == -d || (k != d && v[size_t(offset + k - 1)] < v[size_t(offset + k + 1)]))
                x = v[size_t(offset + k + 1)]; // down: take a line of b
            else
                x = v[size_t(offset + k - 1)] + 1; // right: drop a line of a
            int y = x - k;
            while (x < an && y < bn && A(x) == B(y)) {
                ++x;
                ++y;
            }
            v[size_t(offset + k)] = x;
            if (x >= an && y >= bn) {
                done = true;
                break;
            }
        }
        if (done) {
            finalD = d;
            break;
        }
    }

    QVector<Line> middle;
    int x = an;
    int y = bn;
    for (int d = finalD; d >= 0; --d) {
        const std::vector<int> &slice = trace[size_t(d)];
        const auto V = [&](int k) { return slice[size_t(k + d + 1)]; };
        const int k = x - y;
        int prevK;
        if (d == 0)
            prevK = 0;
        else if (k == -d || (k != d && V(k - 1) < V(k + 1)))
            prevK = k + 1;
        else
            prevK = k - 1;
        const int prevX = d == 0 ? 0 : V(prevK);
        const int prevY = prevX - prevK;
        while (x > prevX && y > prevY) {
            --x;
            --y;
            middle.push_back({Kind::Same, head + x, head + y});
        }
        if (d > 0) {
            if (x == prevX)
                middle.push_back({Kind::Added, -1, head + prevY});
            else
                middle.push_back({Kind::Removed, head + prevX, -1});
        }
        x = prevX;
        y = prevY;
    }
    std::reverse(middle.begin(), middle.end());

    diff.m_lines.reserve(n + bn + 1);
    for (int i = 0; i < head; ++i)
        diff.m_lines.push_back({Kind::Same, i, i});
    for (const Line &line : std::as_const(middle)) {
        diff.m_lines.push_back(line);
        diff.m_added += line.kind == Kind::Added;
        diff.m_removed += line.kind == Kind::Removed;
    }
    for (int i = 0; i < tail; ++i)
        diff.m_lines.push_back({Kind::Same, n - tail + i, m - tail + i});
    return diff;
}

QVector<LineDiff::Row> LineDiff::rows() const
{
    QVector<Row> rows;
    rows.reserve(m_lines.size());
    QVector<int> removed;
    QVector<int> added;
    const auto flush = [&] {
        const int count = int(qMax(removed.size(), added.size()));
        for (int i = 0; i < count; ++i) {
            Row row;
            row.oldLine = i < removed.size() ? removed[i] : -1;
            row.newLine = i < added.size() ? added[i] : -1;
            row.kind = row.oldLine >= 0 && row.newLine >= 0 ? Kind::Changed
                       : row.oldLine >= 0                   ? Kind::Removed
                                                            : Kind::Added;
            rows.push_back(row);
        }
        removed.clear();
        added.clear();
    };
    for (const Line &line : m_lines) {
        switch (line.kind) {
        case Kind::Removed:
            removed.push_back(line.oldLine);
            break;
        case Kind::Added:
            added.push_back(line.newLine);
            break;
        default:
            flush();
            rows.push_back({Kind::Same, line.oldLine, line.newLine});
            break;
        }
    }
    flush();
    return rows;
}
