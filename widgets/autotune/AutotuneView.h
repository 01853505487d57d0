// The Autotune dock: the sweeps of the last run (@asc2.autotune, batch
// sweeps) as they happen. A header names the sweep and its progress with a
// Cancel button; below, the configs as a sortable table and as a scatter of
// time against UB use, selected together. Activating a config asks the
// window to show its compile report in the other views.
#pragma once

#include "AutotuneData.h"

#include <QJsonObject>
#include <QWidget>

class AutotuneModel;
class AutotuneScatter;
class AutotuneSortModel;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;
struct Theme;

class AutotuneView : public QWidget
{
    Q_OBJECT
public:
    explicit AutotuneView(QWidget *parent = nullptr);

    /// Takes an event of asc2.tune.events (PythonHost::tuningEvent).
    void applyEvent(const QJsonObject &event);
    /// The run ended: a sweep it left running was cut short.
    void endRun();
    /// Forgets every sweep (a new run starts).
    void clear();

    const autotune::SweepLog &sweeps() const { return m_sweeps; }
    /// Position in sweeps() of the sweep on show, or -1.
    int currentSweep() const;
    void setCurrentSweep(int position);
    /// The sweep on show, or null.
    const autotune::Sweep *shownSweep() const;

    /// Position in the shown sweep's configs of the selected config, or -1.
    int selectedConfig() const;
    /// Selects the config at @p position in the table and the scatter (-1: none).
    void selectConfig(int position);

    void setTheme(const Theme &theme);

    QComboBox *sweepSelector() const { return m_sweepSelector; }
    QLabel *titleLabel() const { return m_title; }
    QLabel *progressLabel() const { return m_progressLabel; }
    QProgressBar *progressBar() const { return m_progress; }
    QPushButton *cancelButton() const { return m_cancel; }
    QTableView *table() const { return m_table; }
    AutotuneScatter *scatter() const { return m_scatter; }
    AutotuneModel *model() const { return m_model; }
    AutotuneSortModel *sortModel() const { return m_sortModel; }

signals:
    /// A sweep started (its id): the window brings the view forward.
    void sweepStarted(int id);
    /// The reader pressed Cancel: stop the run, as Stop does.
    void cancelRequested();
    /// The reader clicked or activated a config: show the compile report of
    /// @p kernel whose Ascend C has SHA-1 @p codeSha1 (empty: it has none).
    void configActivated(const QString &kernel, const QString &codeSha1);

private:
    void showSweep(int position);
    void refreshHeader();
    void updateSelectorItem(int position);
    void activate(int position);
    int positionOfRow(int proxyRow) const;

    autotune::SweepLog m_sweeps;
    // Show each new sweep, unless the reader picked an older one.
    bool m_followLatest = true;
    bool m_cancelPending = false;

    QComboBox *m_sweepSelector;
    QLabel *m_title;
    QLabel *m_progressLabel;
    QProgressBar *m_progress;
    QPushButton *m_cancel;
    AutotuneModel *m_model;
    AutotuneSortModel *m_sortModel;
    QTableView *m_table;
    AutotuneScatter *m_scatter;
};
