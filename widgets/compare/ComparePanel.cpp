#include "ComparePanel.h"

#include "IrDiffView.h"
#include "Theme.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

using compare::KernelSummary;

namespace {
const KernelSummary *kernelNamed(const QVector<KernelSummary> &kernels, const QString &name)
{
    for (const KernelSummary &k : kernels)
        if (k.kernel == name)
            return &k;
    return nullptr;
}

void fillOptionBox(QComboBox *box, const QStringList &values)
{
    box->addItem(QObject::tr("as in kernel"), QString());
    for (const QString &v : values)
        box->addItem(v, v);
}
} // namespace

QString ComparePanel::Settings::describe() const
{
    QStringList parts;
    parts << (platform.isEmpty() ? QObject::tr("the toolbar's target") : platform);
    if (!insertSync.isEmpty())
        parts << QStringLiteral("insert_sync=%1").arg(insertSync);
    if (!reuseAlloc.isEmpty())
        parts << QStringLiteral("reuse_alloc=%1").arg(reuseAlloc);
    parts << (simulate ? QObject::tr("run") : QObject::tr("compile only"));
    return parts.join(QStringLiteral(", "));
}

ComparePanel::ComparePanel(QWidget *parent)
    : QWidget(parent)
    , m_platform(new QComboBox(this))
    , m_insertSync(new QComboBox(this))
    , m_reuseAlloc(new QComboBox(this))
    , m_simulate(new QCheckBox(tr("Run"), this))
    , m_compare(new QPushButton(tr("Compare"), this))
    , m_kernel(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_table(new QTableWidget(this))
    , m_diff(new IrDiffView(this))
{
    setObjectName(QStringLiteral("compare"));
    m_platform->setObjectName(QStringLiteral("comparePlatform"));
    m_platform->setToolTip(tr("B's target"));
    m_platform->setMinimumContentsLength(8);
    m_platform->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    fillOptionBox(m_insertSync, {QStringLiteral("1"), QStringLiteral("0")});
    fillOptionBox(m_reuseAlloc, {QStringLiteral("0"), QStringLiteral("1"), QStringLiteral("2")});
    m_insertSync->setToolTip(tr("B's insert_sync"));
    m_reuseAlloc->setToolTip(tr("B's reuse_alloc"));
    m_simulate->setToolTip(tr("Run B's launches in the simulator too (predicted times); else compile only"));
    m_compare->setToolTip(tr("Compile (or run) the script again with B's settings and compare it with the last run here"));
    m_kernel->setToolTip(tr("The kernel compared"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // Two short rows, not one long one: this panel's minimum width is the
    // minimum of the whole dock area it is tabbed in (and so the editor's maximum).
    for (QComboBox *box : {m_insertSync, m_reuseAlloc}) {
        box->setMinimumContentsLength(4);
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    }
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 0);
    bar->addWidget(new QLabel(tr("B:"), this));
    bar->addWidget(m_platform, 1);
    bar->addWidget(m_simulate);
    bar->addWidget(m_compare);
    auto *options = new QHBoxLayout;
    options->setContentsMargins(4, 0, 4, 2);
    options->addWidget(new QLabel(tr("insert_sync"), this));
    options->addWidget(m_insertSync, 1);
    options->addWidget(new QLabel(tr("reuse_alloc"), this));
    options->addWidget(m_reuseAlloc, 1);
    auto *kernelBar = new QHBoxLayout;
    kernelBar->setContentsMargins(4, 0, 4, 0);
    kernelBar->addWidget(new QLabel(tr("Kernel:"), this));
    kernelBar->addWidget(m_kernel, 1);

    m_table->setColumnCount(4);
    m_table->setHorizontalHeaderLabels({tr("Metric"), tr("A"), tr("B"), tr("B \u2212 A")});
    m_table->verticalHeader()->hide();
    // Metric as wide as its names; A, B and the change share the rest.
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    for (int c = 1; c < 4; ++c)
        m_table->horizontalHeader()->setSectionResizeMode(c, QHeaderView::Stretch);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(m_diff);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addLayout(options);
    layout->addWidget(m_status);
    layout->addLayout(kernelBar);
    layout->addWidget(split, 1);

    connect(m_compare, &QPushButton::clicked, this, [this] {
        if (m_running)
            emit stopRequested();
        else
            emit compareRequested();
    });
    connect(m_kernel, &QComboBox::currentIndexChanged, this, &ComparePanel::refresh);
    setTheme(Theme::light());
    setStatus(tr("Choose B's target or options and press Compare: the script is compiled (or run) again with them "
                 "and set against the last run here (A)."));
    refresh();
}

ComparePanel::Settings ComparePanel::settings() const
{
    Settings s;
    s.platform = m_platform->currentText();
    s.insertSync = m_insertSync->currentData().toString();
    s.reuseAlloc = m_reuseAlloc->currentData().toString();
    s.simulate = m_simulate->isChecked();
    return s;
}

void ComparePanel::setSettings(const Settings &s)
{
    m_platform->setCurrentText(s.platform);
    m_insertSync->setCurrentIndex(std::max(0, m_insertSync->findData(s.insertSync)));
    m_reuseAlloc->setCurrentIndex(std::max(0, m_reuseAlloc->findData(s.reuseAlloc)));
    m_simulate->setChecked(s.simulate);
}

void ComparePanel::setPlatforms(const QStringList &platforms)
{
    const QString current = m_platform->currentText();
    m_platform->clear();
    m_platform->addItems(platforms);
    if (platforms.contains(current))
        m_platform->setCurrentText(current);
}

void ComparePanel::setA(const QVector<KernelSummary> &kernels, const QString &label)
{
    m_a = kernels;
    m_aLabel = label;
    refresh();
}

void ComparePanel::setB(const QVector<KernelSummary> &kernels, const QString &label)
{
    m_b = kernels;
    m_bLabel = label;
    refresh();
}

QString ComparePanel::kernel() const
{
    return m_kernel->currentText();
}

void ComparePanel::setKernel(const QString &name)
{
    m_kernel->setCurrentText(name);
}

void ComparePanel::setRunning(bool running)
{
    m_running = running;
    m_compare->setText(running ? tr("Stop") : tr("Compare"));
}

void ComparePanel::setStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("QLabel { color: %1; font-weight: bold; }").arg(Theme::light().error.name())
                                  : QString());
}

QString ComparePanel::status() const
{
    return m_status->text();
}

void ComparePanel::setTheme(const Theme &theme)
{
    m_diff->setTheme(theme);
    m_better = theme.addedLine;
    m_worse = theme.removedLine;
    refresh();
}

void ComparePanel::refresh()
{
    // The kernels either side has, in A's order, then B's own.
    const QString current = m_kernel->currentText();
    QStringList names;
    for (const QVector<KernelSummary> *side : {&m_a, &m_b})
        for (const KernelSummary &k : *side)
            if (!names.contains(k.kernel))
                names << k.kernel;
    {
        const QSignalBlocker blocker(m_kernel);
        m_kernel->clear();
        m_kernel->addItems(names);
        m_kernel->setCurrentIndex(std::max(0, int(names.indexOf(current))));
    }
    const KernelSummary *a = kernelNamed(m_a, m_kernel->currentText());
    const KernelSummary *b = kernelNamed(m_b, m_kernel->currentText());
    const QVector<compare::Row> rows = a || b ? compare::compareRows(a, b) : QVector<compare::Row>();
    m_table->setRowCount(int(rows.size()));
    m_table->setHorizontalHeaderLabels({tr("Metric"), m_aLabel.isEmpty() ? tr("A") : tr("A: %1").arg(m_aLabel),
                                        m_bLabel.isEmpty() ? tr("B") : tr("B: %1").arg(m_bLabel), tr("B \u2212 A")});
    for (int r = 0; r < rows.size(); ++r) {
        const compare::Row &row = rows[r];
        const QStringList cells{row.metric, row.a, row.b, row.delta};
        for (int c = 0; c < 4; ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            item->setToolTip(cells[c]); // a long cell is cut to the column
            if (c > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (c == 3 && row.verdict != 0)
                item->setBackground(row.verdict > 0 ? m_better : m_worse);
            m_table->setItem(r, c, item);
        }
    }
    if (a && b)
        m_diff->setTexts(a->ascendc, b->ascendc, tr("Ascend C of %1: A \u2192 B").arg(m_kernel->currentText()));
    else
        m_diff->clear(a || b ? tr("Only %1 has %2: nothing to set its Ascend C against.").arg(a ? tr("A") : tr("B"), m_kernel->currentText())
                             : tr("The Ascend C of A and B, side by side, once both are there."));
}
