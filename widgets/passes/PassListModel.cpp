#include "PassListModel.h"

#include <QBrush>
#include <QGuiApplication>
#include <QPalette>

PassListModel::PassListModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void PassListModel::setReport(ReportPtr report)
{
    beginResetModel();
    m_report = std::move(report);
    endResetModel();
}

const asc2::PassRecord *PassListModel::passAt(int row) const
{
    if (!m_report || row < 0 || row >= int(m_report->passes.size()))
        return nullptr;
    return &m_report->passes[row];
}

int PassListModel::rowOfPass(const QString &name) const
{
    if (!m_report)
        return -1;
    const std::string wanted = name.toStdString();
    for (int row = 0; row < int(m_report->passes.size()); ++row) {
        if (m_report->passes[row].name == wanted)
            return row;
    }
    return -1;
}

int PassListModel::lastRowWithIr() const
{
    if (!m_report)
        return -1;
    for (int row = int(m_report->passes.size()) - 1; row >= 0; --row) {
        if (!m_report->passes[row].ir.empty())
            return row;
    }
    return -1;
}

int PassListModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !m_report)
        return 0;
    return int(m_report->passes.size());
}

int PassListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : NumColumns;
}

QVariant PassListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const asc2::PassRecord &pass = m_report->passes[index.row()];

    switch (role) {
    case IrRole:
        return QString::fromStdString(pass.ir);
    case ChangedRole:
        return pass.changed;
    case PassIndexRole:
        return pass.index;
    case Qt::ForegroundRole:
        // Passes that left the IR alone fade, so the eye lands on the ones that matter.
        if (!pass.changed)
            return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::TextAlignmentRole:
        switch (index.column()) {
        case IndexColumn:
        case OpsColumn:
        case WallMsColumn:
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        case ChangedColumn:
            return QVariant::fromValue(Qt::AlignCenter);
        }
        return {};
    case Qt::ToolTipRole:
        return tr("%1 (%2 stage)\n%3, %4 ops after the pass, %5 ms")
            .arg(QString::fromStdString(pass.name), QString::fromStdString(pass.stage),
                 pass.changed ? tr("changed the IR") : tr("left the IR unchanged"))
            .arg(pass.opCount)
            .arg(pass.wallMs, 0, 'f', 3);
    case SortRole:
        switch (index.column()) {
        case IndexColumn:
            return pass.index;
        case NameColumn:
            return QString::fromStdString(pass.name);
        case StageColumn:
            return QString::fromStdString(pass.stage);
        case ChangedColumn:
            return pass.changed;
        case OpsColumn:
            return pass.opCount;
        case WallMsColumn:
            return pass.wallMs;
        }
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case IndexColumn:
            return pass.index;
        case NameColumn:
            return QString::fromStdString(pass.name);
        case StageColumn:
            return QString::fromStdString(pass.stage);
        case ChangedColumn:
            return pass.changed ? QStringLiteral("\u25CF") : QString();
        case OpsColumn:
            return pass.opCount;
        case WallMsColumn:
            return QString::number(pass.wallMs, 'f', 2);
        }
        return {};
    }
    return {};
}

QVariant PassListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= NumColumns)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case IndexColumn:
            return tr("#");
        case NameColumn:
            return tr("Pass");
        case StageColumn:
            return tr("Stage");
        case ChangedColumn:
            return tr("Changed");
        case OpsColumn:
            return tr("Ops");
        case WallMsColumn:
            return tr("Wall ms");
        }
    } else if (role == Qt::ToolTipRole) {
        switch (section) {
        case IndexColumn:
            return tr("Position of the pass in the pipeline");
        case ChangedColumn:
            return tr("Whether the pass changed the IR");
        case OpsColumn:
            return tr("Operations in the IR after the pass");
        case WallMsColumn:
            return tr("Wall time spent in the pass");
        }
    }
    return {};
}
