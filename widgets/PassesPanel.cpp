#include "PassesPanel.h"

#include "IrView.h"
#include "PassListModel.h"
#include "PassListView.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSplitter>
#include <QVBoxLayout>

namespace {
QString kernelLabel(const QVector<ReportPtr> &reports, int index)
{
    const QString name = QString::fromStdString(reports[index]->kernel);
    int sameNameBefore = 0;
    int sameNameTotal = 0;
    for (int i = 0; i < reports.size(); ++i) {
        if (reports[i]->kernel == reports[index]->kernel) {
            ++sameNameTotal;
            if (i < index)
                ++sameNameBefore;
        }
    }
    // One kernel specialised twice (other shapes or options) shows up twice.
    return sameNameTotal > 1 ? QStringLiteral("%1 #%2").arg(name).arg(sameNameBefore + 1) : name;
}
} // namespace

PassesPanel::PassesPanel(QWidget *parent)
    : QWidget(parent)
    , m_kernelSelector(new QComboBox(this))
    , m_summary(new QLabel(this))
    , m_model(new PassListModel(this))
    , m_passList(new PassListView(this))
    , m_irView(new IrView(this))
{
    m_kernelSelector->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_kernelSelector->setToolTip(tr("Kernels compiled by the last run"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *top = new QHBoxLayout;
    top->setContentsMargins(4, 4, 4, 0);
    auto *kernelLabelWidget = new QLabel(tr("&Kernel:"), this);
    kernelLabelWidget->setBuddy(m_kernelSelector);
    top->addWidget(kernelLabelWidget);
    top->addWidget(m_kernelSelector);
    top->addWidget(m_summary, 1);

    m_passList->setPassModel(m_model);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_passList);
    splitter->addWidget(m_irView);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);

    connect(m_kernelSelector, &QComboBox::currentIndexChanged, this, &PassesPanel::showKernel);
    connect(m_passList, &PassListView::currentPassChanged, this, &PassesPanel::showPass);
    clear();
}

void PassesPanel::clear()
{
    setReports({}, -1);
}

void PassesPanel::setReports(const QVector<ReportPtr> &reports, int current)
{
    m_reports = reports;
    {
        const QSignalBlocker blocker(m_kernelSelector);
        m_kernelSelector->clear();
        for (int i = 0; i < m_reports.size(); ++i)
            m_kernelSelector->addItem(kernelLabel(m_reports, i));
        m_kernelSelector->setEnabled(m_reports.size() > 1);
    }
    if (m_reports.isEmpty()) {
        showKernel(-1);
        return;
    }
    setCurrentKernel(qBound(0, current, int(m_reports.size()) - 1));
}

ReportPtr PassesPanel::currentReport() const
{
    return m_model->report();
}

int PassesPanel::currentKernel() const
{
    return m_kernelSelector->currentIndex();
}

void PassesPanel::setCurrentKernel(int index)
{
    if (m_kernelSelector->currentIndex() == index)
        showKernel(index); // the report behind the index may be newer
    else
        m_kernelSelector->setCurrentIndex(index);
}

void PassesPanel::showKernel(int index)
{
    const ReportPtr report = index >= 0 && index < m_reports.size() ? m_reports[index] : ReportPtr();
    const bool sameReport = report == m_model->report();
    if (!sameReport) {
        const QString keep = m_selectedPassName;
        m_model->setReport(report);
        const int row = m_model->rowOfPass(keep);
        if (row >= 0)
            selectPass(row);
        else
            showPass(-1);
    }

    if (!report) {
        m_summary->setText(tr("No kernel compiled yet."));
    } else {
        QString text = tr("%1 passes, target %2")
                           .arg(report->passes.size())
                           .arg(QString::fromStdString(report->target));
        if (!report->launches.empty())
            text += tr(", last launch %1 cycles").arg(report->launches.back().totalCycles);
        m_summary->setText(text);
    }
    if (!sameReport)
        emit currentReportChanged(report);
}

void PassesPanel::selectLastPassWithIr()
{
    selectPass(m_model->lastRowWithIr());
}

void PassesPanel::selectPass(int row)
{
    m_passList->selectRow(row);
    // Selecting the row that is already current emits nothing; show it anyway.
    showPass(m_passList->selectedRow());
}

int PassesPanel::selectedPass() const
{
    return m_passList->selectedRow();
}

void PassesPanel::showPass(int row)
{
    const asc2::PassRecord *pass = m_model->passAt(row);
    if (!pass) {
        m_irView->setIr(QString());
        return;
    }
    const QString name = QString::fromStdString(pass->name);
    const bool samePass = name == m_selectedPassName;
    m_selectedPassName = name;
    m_irView->setIr(pass->ir.empty() ? tr("// %1 kept no IR").arg(name)
                                     : QString::fromStdString(pass->ir),
                    samePass);
}
