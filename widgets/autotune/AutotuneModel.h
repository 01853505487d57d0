// The configs of one sweep as a table, one row per config in the
// autotuner's order; the view sorts it through AutotuneSortModel.
#pragma once

#include "AutotuneData.h"
#include "Theme.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

class AutotuneModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns { IndexColumn, ConfigColumn, MeasureColumn, UbPeakColumn, BoundPipeColumn, VerdictColumn, ColumnCount };
    enum Roles {
        // The cell's value for sorting: numbers stay numbers, invalid when unknown.
        SortRole = Qt::UserRole + 1,
        // The config's position in the sweep (Sweep::configs).
        PositionRole,
    };

    explicit AutotuneModel(QObject *parent = nullptr);

    /// Shows @p sweep. The same sweep again (more configs done) updates the
    /// rows in place, so the selection and the sort order stay; another
    /// sweep resets the model.
    void setSweep(const autotune::Sweep &sweep);
    void clear();
    bool hasSweep() const { return m_hasSweep; }
    const autotune::Sweep &sweep() const { return m_sweep; }
    /// Winner background and verdict colours.
    void setTheme(const Theme &theme);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const autotune::ConfigResult &config, int position, int column) const;
    QVariant sortValue(const autotune::ConfigResult &config, int column) const;
    QString toolTip(const autotune::ConfigResult &config, int position, int column) const;

    autotune::Sweep m_sweep;
    bool m_hasSweep = false;
    Theme m_theme;
};

/// Sorts by AutotuneModel::SortRole: numbers by value, text in natural order
/// (TILE=256 before TILE=4096), unknown values last in either direction.
class AutotuneSortModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit AutotuneSortModel(QObject *parent = nullptr);

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;
};
