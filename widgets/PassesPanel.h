// The Passes dock: which kernel (when a run compiled several), its passes, and
// the IR after the selected pass.
#pragma once

#include "ReportPtr.h"

#include <QVector>
#include <QWidget>

class IrView;
class PassListModel;
class PassListView;
class QComboBox;
class QLabel;

class PassesPanel : public QWidget
{
    Q_OBJECT
public:
    explicit PassesPanel(QWidget *parent = nullptr);

    /// Shows the reports of a run, one per compiled kernel, and switches to
    /// @p current. The selected pass is kept when the kernel is shown again.
    void setReports(const QVector<ReportPtr> &reports, int current);
    QVector<ReportPtr> reports() const { return m_reports; }
    void clear();

    ReportPtr currentReport() const;
    int currentKernel() const;
    void setCurrentKernel(int index);

    /// Selects the last pass that kept its IR (the final IR of the pipeline).
    void selectLastPassWithIr();
    void selectPass(int row);
    int selectedPass() const;

    PassListModel *model() const { return m_model; }
    PassListView *passList() const { return m_passList; }
    IrView *irView() const { return m_irView; }
    QComboBox *kernelSelector() const { return m_kernelSelector; }

signals:
    void currentReportChanged(ReportPtr report);

private:
    void showKernel(int index);
    void showPass(int row);

    QVector<ReportPtr> m_reports;
    QComboBox *m_kernelSelector;
    QLabel *m_summary;
    PassListModel *m_model;
    PassListView *m_passList;
    IrView *m_irView;
    QString m_selectedPassName;
};
