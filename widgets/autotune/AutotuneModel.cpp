#include "AutotuneModel.h"

#include <QFont>
#include <QLocale>

using autotune::ConfigResult;
using autotune::Sweep;

namespace {
// Sort rank of a verdict: the useful configs first.
int verdictRank(const QString &verdict)
{
    static const char *const order[] = {"winner", "ok", "mismatch", "pruned", "dropped"};
    for (int i = 0; i < int(std::size(order)); ++i) {
        if (verdict == QLatin1String(order[i]))
            return i;
    }
    return int(std::size(order));
}

QString bytes(double value)
{
    return QLocale().toString(qlonglong(value));
}

QVariant numberOrNothing(double value)
{
    return std::isnan(value) ? QVariant() : QVariant(value);
}

// Text whose numbers compare as numbers: TILE=256 before TILE=4096.
bool naturalLess(const QString &a, const QString &b)
{
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            const auto digits = [](const QString &s, qsizetype &at) {
                while (at < s.size() && s[at] == QLatin1Char('0') && at + 1 < s.size() && s[at + 1].isDigit())
                    ++at;
                const qsizetype start = at;
                while (at < s.size() && s[at].isDigit())
                    ++at;
                return QStringView(s).mid(start, at - start);
            };
            const QStringView x = digits(a, i), y = digits(b, j);
            if (x.size() != y.size())
                return x.size() < y.size();
            if (const int c = x.compare(y))
                return c < 0;
        } else {
            if (a[i] != b[j])
                return a[i] < b[j];
            ++i;
            ++j;
        }
    }
    return a.size() - i < b.size() - j;
}
} // namespace

AutotuneModel::AutotuneModel(QObject *parent)
    : QAbstractTableModel(parent)
    , m_theme(Theme::light())
{
}

void AutotuneModel::setSweep(const Sweep &sweep)
{
    const bool sameRows = m_hasSweep && sweep.id == m_sweep.id && sweep.configs.size() == m_sweep.configs.size();
    if (!sameRows) {
        beginResetModel();
        m_sweep = sweep;
        m_hasSweep = true;
        endResetModel();
        return;
    }
    const bool sameUnit = sweep.timedInCycles() == m_sweep.timedInCycles();
    m_sweep = sweep;
    if (!m_sweep.configs.isEmpty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    if (!sameUnit)
        emit headerDataChanged(Qt::Horizontal, MeasureColumn, MeasureColumn);
}

void AutotuneModel::clear()
{
    beginResetModel();
    m_sweep = Sweep();
    m_hasSweep = false;
    endResetModel();
}

void AutotuneModel::setTheme(const Theme &theme)
{
    m_theme = theme;
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int AutotuneModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_sweep.configs.size());
}

int AutotuneModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AutotuneModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const int position = index.row();
    const ConfigResult &config = m_sweep.configs[position];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return display(config, position, column);
    case SortRole:
        return sortValue(config, column);
    case PositionRole:
        return position;
    case Qt::ToolTipRole: {
        const QString tip = toolTip(config, position, column);
        return tip.isEmpty() ? QVariant() : QVariant(tip);
    }
    case Qt::TextAlignmentRole:
        return column == IndexColumn || column == MeasureColumn || column == UbPeakColumn
            ? int(Qt::AlignRight | Qt::AlignVCenter)
            : int(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::FontRole:
        if (config.isWinner()) {
            QFont font;
            font.setBold(true);
            return font;
        }
        if (!config.done) {
            QFont font;
            font.setItalic(true);
            return font;
        }
        return {};
    case Qt::BackgroundRole:
        return config.isWinner() ? QVariant(m_theme.addedLine) : QVariant();
    case Qt::ForegroundRole:
        if (!config.done || config.verdict == QLatin1String("dropped") || config.verdict == QLatin1String("pruned"))
            return m_theme.marginText;
        if (config.verdict == QLatin1String("mismatch"))
            return m_theme.error;
        return {};
    default:
        return {};
    }
}

QVariant AutotuneModel::display(const ConfigResult &config, int position, int column) const
{
    switch (column) {
    case IndexColumn:
        return config.index;
    case ConfigColumn:
        return config.params;
    case MeasureColumn: {
        const double value = m_sweep.measureOf(config);
        if (std::isnan(value))
            return config.done ? QStringLiteral("\u2014") : QString();
        return m_sweep.timedInCycles() ? QLocale().toString(qlonglong(value)) : QLocale().toString(value, 'f', 2);
    }
    case UbPeakColumn:
        if (std::isnan(config.ubPeak))
            return config.done ? QStringLiteral("\u2014") : QString();
        if (std::isnan(config.ubShare()))
            return tr("%1 B").arg(bytes(config.ubPeak));
        return tr("%1 B (%2%)").arg(bytes(config.ubPeak)).arg(config.ubShare(), 0, 'f', 1);
    case BoundPipeColumn:
        return config.boundPipe.isEmpty() ? (config.done ? QStringLiteral("\u2014") : QString()) : config.boundPipe;
    case VerdictColumn:
        if (!config.done)
            return m_sweep.pendingText(position);
        return config.isWinner() ? tr("\u2605 winner") : config.verdict;
    }
    return {};
}

QVariant AutotuneModel::sortValue(const ConfigResult &config, int column) const
{
    switch (column) {
    case IndexColumn:
        return config.index;
    case ConfigColumn:
        return config.params;
    case MeasureColumn:
        return numberOrNothing(m_sweep.measureOf(config));
    case UbPeakColumn:
        return numberOrNothing(config.ubPeak);
    case BoundPipeColumn:
        return config.boundPipe.isEmpty() ? QVariant() : QVariant(config.boundPipe);
    case VerdictColumn:
        return config.done ? QVariant(verdictRank(config.verdict)) : QVariant();
    }
    return {};
}

QString AutotuneModel::toolTip(const ConfigResult &config, int position, int column) const
{
    switch (column) {
    case IndexColumn:
    case ConfigColumn: {
        QStringList lines{tr("Config #%1: %2").arg(config.index).arg(config.params)};
        if (!config.label.isEmpty())
            lines << tr("Shape: %1").arg(config.label);
        if (config.blockNum > 0)
            lines << tr("Blocks: %1").arg(config.blockNum);
        if (!config.worker.isEmpty())
            lines << tr("Ran in %1 in %2 s").arg(config.worker).arg(config.wallS, 0, 'f', 2);
        return lines.join(QLatin1Char('\n'));
    }
    case UbPeakColumn: {
        if (std::isnan(config.ubPeak))
            return {};
        QStringList lines;
        lines << (std::isnan(config.ubShare())
                      ? tr("UB peak: %1 bytes").arg(bytes(config.ubPeak))
                      : tr("UB peak: %1 of %2 bytes (%3%)")
                            .arg(bytes(config.ubPeak), bytes(config.ubCapacity))
                            .arg(config.ubShare(), 0, 'f', 1));
        for (const auto &[space, peak] : config.peaks) {
            if (space != QLatin1String("UB") && !std::isnan(peak))
                lines << tr("%1 peak: %2 bytes").arg(space, bytes(peak));
        }
        return lines.join(QLatin1Char('\n'));
    }
    case VerdictColumn:
        if (!config.done)
            return m_sweep.pendingText(position);
        return config.reason.isEmpty() ? config.verdict : config.reason;
    }
    return {};
}

QVariant AutotuneModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case IndexColumn: return tr("The config's place in the autotuner's list");
        case MeasureColumn:
            return m_sweep.timedInCycles() ? tr("Simulated cycles of the launch (what the winner is chosen by)")
                                           : tr("Median wall time of the launch (what the winner is chosen by)");
        case UbPeakColumn: return tr("The memory plan's UB peak: bytes and % of the UB capacity");
        case BoundPipeColumn: return tr("The pipe busy longest in the launch");
        case VerdictColumn: return tr("winner, ok, mismatch (outputs differ), dropped (did not compile, fit or run), "
                                      "pruned; hover a verdict for the reason");
        }
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case IndexColumn: return tr("#");
    case ConfigColumn: return tr("Config");
    case MeasureColumn: return m_sweep.timedInCycles() ? tr("Cycles") : tr("Time (\u00b5s)");
    case UbPeakColumn: return tr("UB peak");
    case BoundPipeColumn: return tr("Bound pipe");
    case VerdictColumn: return tr("Verdict");
    }
    return {};
}

AutotuneSortModel::AutotuneSortModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(AutotuneModel::SortRole);
}

bool AutotuneSortModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const QVariant a = left.data(sortRole());
    const QVariant b = right.data(sortRole());
    // Unknown values (pending, dropped) stay at the bottom whichever way it sorts.
    if (!a.isValid() || !b.isValid()) {
        if (a.isValid() == b.isValid())
            return left.row() < right.row();
        return a.isValid() == (sortOrder() == Qt::AscendingOrder);
    }
    if (a.typeId() == QMetaType::QString || b.typeId() == QMetaType::QString)
        return naturalLess(a.toString(), b.toString());
    return a.toDouble() < b.toDouble();
}
