// Compare: the script's kernels under another target or option set, side by
// side with the window's own run, as Compiler Explorer shows two compilers.
// A is the last run in the window (its toolbar settings); B is chosen here
// and run apart (CompareController). A table of metrics with B − A (time,
// cycles, memory peaks, buffers, sync ops, code size) and the two Ascend C
// sources as a side-by-side diff with next/previous change.
#pragma once

#include "CompareData.h"

#include <QWidget>

class IrDiffView;
class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;
struct Theme;

class ComparePanel : public QWidget
{
    Q_OBJECT
public:
    explicit ComparePanel(QWidget *parent = nullptr);

    /// What B is compiled (and run) with; "" : as in the kernel.
    struct Settings {
        QString platform;
        QString insertSync, reuseAlloc; // "", "0", "1" ("2")
        bool simulate = false;          // else compile only
        /// "Ascend950, reuse_alloc=2, compile only".
        QString describe() const;
    };
    Settings settings() const;
    void setSettings(const Settings &settings);
    void setPlatforms(const QStringList &platforms);

    void setA(const QVector<compare::KernelSummary> &kernels, const QString &label);
    void setB(const QVector<compare::KernelSummary> &kernels, const QString &label);
    const QVector<compare::KernelSummary> &aKernels() const { return m_a; }
    const QVector<compare::KernelSummary> &bKernels() const { return m_b; }
    /// The kernel compared (by name).
    QString kernel() const;
    void setKernel(const QString &name);

    /// B is being made: the Compare button turns into Stop.
    void setRunning(bool running);
    /// One line over the table: what B is, how it went (an error in red).
    void setStatus(const QString &text, bool error = false);
    QString status() const;

    QTableWidget *table() const { return m_table; }
    IrDiffView *diffView() const { return m_diff; }
    QComboBox *platformBox() const { return m_platform; }
    QPushButton *compareButton() const { return m_compare; }
    void setTheme(const Theme &theme);

signals:
    void compareRequested();
    void stopRequested();

private:
    void refresh();
    QVector<compare::KernelSummary> m_a, m_b;
    QString m_aLabel, m_bLabel;
    bool m_running = false;
    QComboBox *m_platform;
    QComboBox *m_insertSync;
    QComboBox *m_reuseAlloc;
    QCheckBox *m_simulate;
    QPushButton *m_compare;
    QComboBox *m_kernel;
    QLabel *m_status;
    QTableWidget *m_table;
    IrDiffView *m_diff;
    QColor m_better, m_worse;
};
