// The pass table: a flat, row-selecting tree view over a PassListModel,
// seen through a PassFilterModel. Rows in its API are model (pass) rows.
#pragma once

#include <QTreeView>

class PassFilterModel;
class PassListModel;

class PassListView : public QTreeView
{
    Q_OBJECT
public:
    explicit PassListView(QWidget *parent = nullptr);

    void setPassModel(PassListModel *model);
    PassFilterModel *filter() const { return m_filter; }
    /// Selects pass @p row (and scrolls to it); -1, or a row the filter
    /// hides, clears the selection.
    void selectRow(int row);
    int selectedRow() const;

signals:
    /// The current pass changed; -1 when nothing is selected.
    void currentPassChanged(int row);

protected:
    void currentChanged(const QModelIndex &current, const QModelIndex &previous) override;

private:
    PassFilterModel *m_filter;
    int m_lastRow = -1;
};
