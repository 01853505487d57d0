// The pass table: a flat, row-selecting tree view over a PassListModel.
#pragma once

#include <QTreeView>

class PassListModel;

class PassListView : public QTreeView
{
    Q_OBJECT
public:
    explicit PassListView(QWidget *parent = nullptr);

    void setPassModel(PassListModel *model);
    /// Selects @p row (and scrolls to it); -1 clears the selection.
    void selectRow(int row);
    int selectedRow() const;

signals:
    /// The current pass changed; -1 when nothing is selected.
    void currentPassChanged(int row);

protected:
    void currentChanged(const QModelIndex &current, const QModelIndex &previous) override;
};
