// The pass list as the reader filters it: by a piece of the pass name, and
// optionally without the passes that left the IR unchanged.
#pragma once

#include <QSortFilterProxyModel>

class PassFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit PassFilterModel(QObject *parent = nullptr);

    void setNameFilter(const QString &text);
    QString nameFilter() const { return m_nameFilter; }
    void setHideUnchanged(bool hide);
    bool hideUnchanged() const { return m_hideUnchanged; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_nameFilter;
    bool m_hideUnchanged = false;
};
