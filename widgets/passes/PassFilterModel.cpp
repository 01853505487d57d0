#include "PassFilterModel.h"

#include "PassListModel.h"

PassFilterModel::PassFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
}

void PassFilterModel::setNameFilter(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed == m_nameFilter)
        return;
    m_nameFilter = trimmed;
    invalidateRowsFilter();
}

void PassFilterModel::setHideUnchanged(bool hide)
{
    if (hide == m_hideUnchanged)
        return;
    m_hideUnchanged = hide;
    invalidateRowsFilter();
}

bool PassFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex name = sourceModel()->index(sourceRow, PassListModel::NameColumn, sourceParent);
    if (m_hideUnchanged && !name.data(PassListModel::ChangedRole).toBool())
        return false;
    return m_nameFilter.isEmpty() || name.data().toString().contains(m_nameFilter, Qt::CaseInsensitive);
}
