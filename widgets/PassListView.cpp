#include "PassListView.h"

#include "PassListModel.h"

#include <QHeaderView>

PassListView::PassListView(QWidget *parent)
    : QTreeView(parent)
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
    setModel(model);
    QHeaderView *h = header();
    h->setStretchLastSection(false);
    h->setSectionResizeMode(QHeaderView::ResizeToContents);
    h->setSectionResizeMode(PassListModel::NameColumn, QHeaderView::Stretch);
}

void PassListView::selectRow(int row)
{
    if (!model())
        return;
    if (row < 0 || row >= model()->rowCount()) {
        clearSelection();
        setCurrentIndex({});
        return;
    }
    const QModelIndex index = model()->index(row, 0);
    setCurrentIndex(index);
    scrollTo(index);
}

int PassListView::selectedRow() const
{
    const QModelIndex index = currentIndex();
    return index.isValid() ? index.row() : -1;
}

void PassListView::currentChanged(const QModelIndex &current, const QModelIndex &previous)
{
    QTreeView::currentChanged(current, previous);
    if (current.row() != previous.row() || current.isValid() != previous.isValid())
        emit currentPassChanged(current.isValid() ? current.row() : -1);
}
