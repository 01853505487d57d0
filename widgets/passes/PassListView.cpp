#include "PassListView.h"

#include "PassFilterModel.h"
#include "PassListModel.h"

#include <QHeaderView>

PassListView::PassListView(QWidget *parent)
    : QTreeView(parent)
    , m_filter(new PassFilterModel(this))
{
    setRootIsDecorated(false);
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setAllColumnsShowFocus(true);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
}

void PassListView::setPassModel(PassListModel *model)
{
    m_filter->setSourceModel(model);
    setModel(m_filter);
    QHeaderView *h = header();
    h->setStretchLastSection(false);
    h->setSectionResizeMode(QHeaderView::ResizeToContents);
    h->setSectionResizeMode(PassListModel::NameColumn, QHeaderView::Stretch);
}

void PassListView::selectRow(int row)
{
    if (!m_filter->sourceModel())
        return;
    const QModelIndex index = row >= 0 && row < m_filter->sourceModel()->rowCount()
                                  ? m_filter->mapFromSource(m_filter->sourceModel()->index(row, 0))
                                  : QModelIndex();
    if (!index.isValid()) {
        clearSelection();
        setCurrentIndex({});
        return;
    }
    setCurrentIndex(index);
    scrollTo(index);
}

int PassListView::selectedRow() const
{
    const QModelIndex index = m_filter->mapToSource(currentIndex());
    return index.isValid() ? index.row() : -1;
}

void PassListView::currentChanged(const QModelIndex &current, const QModelIndex &previous)
{
    QTreeView::currentChanged(current, previous);
    // Filtering moves proxy rows under an unchanged pass: compare passes.
    const int row = selectedRow();
    if (row != m_lastRow) {
        m_lastRow = row;
        emit currentPassChanged(row);
    }
}
