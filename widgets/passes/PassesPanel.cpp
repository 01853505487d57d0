#include "PassesPanel.h"

#include "IrDiffView.h"
#include "IrView.h"
#include "PassFilterModel.h"
#include "PassListModel.h"
#include "PassListView.h"
#include "Theme.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTabWidget>
#include <QToolButton>
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

// The IR text a pass gives Python line @p line, in order.
std::vector<std::string> irOfSourceLine(const asc2::PassRecord &pass, int line)
{
    std::vector<std::string> out;
    size_t start = 0;
    for (size_t i = 0; i < pass.irLines.size() && start <= pass.ir.size(); ++i) {
        size_t end = pass.ir.find('\n', start);
        if (end == std::string::npos)
            end = pass.ir.size();
        if (pass.irLines[i] == line)
            out.push_back(pass.ir.substr(start, end - start));
        start = end + 1;
    }
    return out;
}
} // namespace

PassesPanel::PassesPanel(QWidget *parent)
    : QWidget(parent)
    , m_kernelSelector(new QComboBox(this))
    , m_summary(new QLabel(this))
    , m_search(new QLineEdit(this))
    , m_hideUnchanged(new QCheckBox(tr("&Hide unchanged"), this))
    , m_firstChangeButton(new QToolButton(this))
    , m_diffMode(new QComboBox(this))
    , m_model(new PassListModel(this))
    , m_passList(new PassListView(this))
    , m_tabs(new QTabWidget(this))
    , m_irView(new IrView(this))
    , m_diffView(new IrDiffView(this))
{
    m_kernelSelector->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_kernelSelector->setToolTip(tr("Kernels compiled by the last run; every view follows the choice"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *top = new QHBoxLayout;
    top->setContentsMargins(4, 4, 4, 0);
    auto *kernelLabelWidget = new QLabel(tr("&Kernel:"), this);
    kernelLabelWidget->setBuddy(m_kernelSelector);
    top->addWidget(kernelLabelWidget);
    top->addWidget(m_kernelSelector);
    top->addWidget(m_summary, 1);

    m_search->setPlaceholderText(tr("Filter passes by name"));
    m_search->setClearButtonEnabled(true);
    m_search->setToolTip(tr("Show only the passes whose name contains this text"));
    m_hideUnchanged->setToolTip(tr("Hide the passes that left the IR unchanged"));
    m_firstChangeButton->setText(tr("First change"));
    m_firstChangeButton->setToolTip(
        tr("Select the first pass that changed the IR of the selected line (Ctrl+Shift+L)"));
    auto *filterRow = new QHBoxLayout;
    filterRow->setContentsMargins(4, 0, 4, 0);
    filterRow->addWidget(m_search, 1);
    filterRow->addWidget(m_hideUnchanged);
    filterRow->addWidget(m_firstChangeButton);

    m_passList->setPassModel(m_model);

    m_diffMode->addItem(tr("Side by side"));
    m_diffMode->addItem(tr("Inline"));
    m_diffMode->setToolTip(tr("How the diff against the previous pass is laid out"));
    m_tabs->addTab(m_irView, tr("IR after pass"));
    m_tabs->addTab(m_diffView, tr("Diff to previous"));
    m_tabs->setCornerWidget(m_diffMode, Qt::TopRightCorner);
    m_tabs->setDocumentMode(true);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_passList);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addLayout(filterRow);
    layout->addWidget(splitter, 1);

    connect(m_kernelSelector, &QComboBox::currentIndexChanged, this, &PassesPanel::showKernel);
    connect(m_passList, &PassListView::currentPassChanged, this, &PassesPanel::showPass);
    connect(m_search, &QLineEdit::textChanged, m_passList->filter(), &PassFilterModel::setNameFilter);
    connect(m_hideUnchanged, &QCheckBox::toggled, m_passList->filter(), &PassFilterModel::setHideUnchanged);
    connect(m_firstChangeButton, &QToolButton::clicked, this, &PassesPanel::selectFirstPassChangingLine);
    connect(m_diffMode, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_diffView->setMode(index == 1 ? IrDiffView::Mode::Inline : IrDiffView::Mode::SideBySide);
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        m_diffMode->setEnabled(page() == Page::Diff);
        updateDiff();
    });
    connect(m_irView, &IrView::cursorLineChanged, this, &PassesPanel::onIrCursorLine);
    m_diffMode->setEnabled(false);
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

void PassesPanel::setPage(Page page)
{
    m_tabs->setCurrentIndex(page == Page::Diff ? 1 : 0);
}

PassesPanel::Page PassesPanel::page() const
{
    return m_tabs->currentIndex() == 1 ? Page::Diff : Page::Ir;
}

void PassesPanel::showPass(int row)
{
    const asc2::PassRecord *pass = m_model->passAt(row);
    if (!pass) {
        m_irView->setIr(QString());
        updateDiff();
        emit passShown(nullptr);
        return;
    }
    const QString name = QString::fromStdString(pass->name);
    const bool samePass = name == m_selectedPassName;
    m_selectedPassName = name;
    m_irView->setIr(pass->ir.empty() ? tr("// %1 kept no IR").arg(name)
                                     : QString::fromStdString(pass->ir),
                    samePass);
    highlightSourceLine(m_sourceLine);
    updateDiff();
    emit passShown(pass);
}

void PassesPanel::updateDiff()
{
    if (page() != Page::Diff)
        return; // computed when shown
    const int row = selectedPass();
    const asc2::PassRecord *pass = m_model->passAt(row);
    if (!pass || pass->ir.empty()) {
        m_diffView->clear();
        return;
    }
    const asc2::PassRecord *previous = nullptr;
    for (int r = row - 1; r >= 0 && !previous; --r) {
        if (!m_model->passAt(r)->ir.empty())
            previous = m_model->passAt(r);
    }
    const QString before = previous ? QString::fromStdString(previous->ir) : QString();
    const QString caption = previous ? tr("%1 \u2192 %2").arg(QString::fromStdString(previous->name),
                                                             QString::fromStdString(pass->name))
                                     : tr("(nothing) \u2192 %1").arg(QString::fromStdString(pass->name));
    m_diffView->setTexts(before, QString::fromStdString(pass->ir), caption);
}

void PassesPanel::setBandsShown(bool shown)
{
    if (shown == m_bandsShown)
        return;
    m_bandsShown = shown;
    highlightSourceLine(m_sourceLine);
}

void PassesPanel::highlightSourceLine(int line)
{
    m_sourceLine = line;
    QVector<int> bands;
    if (const asc2::PassRecord *pass = m_model->passAt(selectedPass()); pass && m_bandsShown)
        bands = QVector<int>(pass->irLines.begin(), pass->irLines.end());
    m_irView->setBands(bands);
    QVector<int> irLines;
    if (const asc2::PassRecord *pass = m_model->passAt(selectedPass()); pass && line > 0) {
        for (size_t i = 0; i < pass->irLines.size(); ++i) {
            if (pass->irLines[i] == line)
                irLines.push_back(int(i));
        }
    }
    m_irView->setLinkedLines(irLines);
}

int PassesPanel::sourceLineAtIrCursor() const
{
    const asc2::PassRecord *pass = m_model->passAt(selectedPass());
    const int irLine = m_irView->cursorLine();
    if (!pass || irLine < 0 || irLine >= int(pass->irLines.size()) || m_irView->ir().isEmpty())
        return 0;
    return pass->irLines[size_t(irLine)];
}

void PassesPanel::onIrCursorLine(int irLine)
{
    const asc2::PassRecord *pass = m_model->passAt(selectedPass());
    if (!pass || irLine < 0 || irLine >= int(pass->irLines.size()))
        return;
    const int line = pass->irLines[size_t(irLine)];
    if (line > 0)
        emit sourceLineActivated(line);
}

int PassesPanel::firstPassChangingSourceLine(int line) const
{
    const ReportPtr report = m_model->report();
    if (!report || line <= 0)
        return -1;
    const asc2::PassRecord *previous = nullptr;
    for (const asc2::PassRecord &pass : report->passes) {
        if (pass.ir.empty() || pass.irLines.empty())
            continue;
        if (previous && irOfSourceLine(pass, line) != irOfSourceLine(*previous, line))
            return int(&pass - report->passes.data());
        previous = &pass;
    }
    return -1;
}

int PassesPanel::selectFirstPassChangingLine()
{
    const int atCursor = sourceLineAtIrCursor();
    return selectFirstPassChangingSourceLine(atCursor > 0 ? atCursor : m_sourceLine);
}

int PassesPanel::selectFirstPassChangingSourceLine(int line)
{
    const int row = firstPassChangingSourceLine(line);
    if (row < 0) {
        m_summary->setText(line > 0 ? tr("No pass changed the IR of line %1.").arg(line)
                                    : tr("Put the cursor on an IR or Python line first."));
        return -1;
    }
    // A hidden pass cannot be selected: show every pass again.
    if (!m_passList->filter()->mapFromSource(m_model->index(row, 0)).isValid()) {
        m_search->clear();
        m_hideUnchanged->setChecked(false);
    }
    selectPass(row);
    highlightSourceLine(line);
    m_summary->setText(tr("Line %1 first changed by %2").arg(line).arg(QString::fromStdString(m_model->passAt(row)->name)));
    return row;
}

void PassesPanel::setTheme(const Theme &theme)
{
    m_irView->setTheme(theme);
    m_diffView->setTheme(theme);
}
