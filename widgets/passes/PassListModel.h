// One row per compiler pass of one CompileReport.
#pragma once

#include "ReportPtr.h"

#include <QAbstractTableModel>

class PassListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns {
        IndexColumn,
        NameColumn,
        StageColumn,
        ChangedColumn,
        OpsColumn,
        WallMsColumn,
        NumColumns
    };

    enum Roles {
        // Raw value of the cell (numbers stay numbers), for sorting proxies.
        SortRole = Qt::UserRole + 1,
        IrRole,
        ChangedRole,
        PassIndexRole,
    };

    explicit PassListModel(QObject *parent = nullptr);

    void setReport(ReportPtr report);
    ReportPtr report() const { return m_report; }

    const asc2::PassRecord *passAt(int row) const;
    /// Row of the pass named @p name, or -1.
    int rowOfPass(const QString &name) const;
    /// The last row whose pass kept its IR, or -1.
    int lastRowWithIr() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    ReportPtr m_report;
};
