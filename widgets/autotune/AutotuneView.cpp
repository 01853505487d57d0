#include "AutotuneView.h"

#include "AutotuneModel.h"
#include "AutotuneScatter.h"
#include "Theme.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

using autotune::ConfigResult;
using autotune::Sweep;

AutotuneView::AutotuneView(QWidget *parent)
    : QWidget(parent)
    , m_sweepSelector(new QComboBox(this))
    , m_title(new QLabel(this))
    , m_progressLabel(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_cancel(new QPushButton(this))
    , m_model(new AutotuneModel(this))
    , m_sortModel(new AutotuneSortModel(this))
    , m_table(new QTableView(this))
    , m_scatter(new AutotuneScatter(this))
{
    setObjectName(QStringLiteral("autotune"));
    m_sweepSelector->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_sweepSelector->setToolTip(tr("The sweeps of the last run: one per kernel and tuning key that tuned"));
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress->setTextVisible(false);
    m_progress->setMaximumHeight(16);
    m_cancel->setText(tr("Cancel"));
    m_cancel->setIcon(style()->standardIcon(QStyle::SP_MediaStop));
    m_cancel->setToolTip(tr("Stop the run, as Stop (Shift+F5) does: the sweep ends and its Dask tasks are cancelled"));

    auto *top = new QHBoxLayout;
    top->setContentsMargins(4, 4, 4, 0);
    top->addWidget(new QLabel(tr("Sweep:"), this));
    top->addWidget(m_sweepSelector);
    top->addWidget(m_title, 1);
    auto *progressRow = new QHBoxLayout;
    progressRow->setContentsMargins(4, 0, 4, 0);
    progressRow->addWidget(m_progressLabel);
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_cancel);

    m_sortModel->setSourceModel(m_model);
    m_table->setModel(m_sortModel);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(AutotuneModel::IndexColumn, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setHighlightSections(false);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(m_scatter);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addLayout(progressRow);
    layout->addWidget(split, 1);

    connect(m_sweepSelector, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_followLatest = index == m_sweeps.size() - 1;
        showSweep(index);
    });
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_cancelPending = true;
        refreshHeader();
        emit cancelRequested();
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { m_scatter->setSelectedPosition(positionOfRow(current.row())); });
    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex &index) { activate(positionOfRow(index.row())); });
    connect(m_table, &QTableView::activated, this,
            [this](const QModelIndex &index) { activate(positionOfRow(index.row())); });
    connect(m_scatter, &AutotuneScatter::configClicked, this, [this](int position) {
        selectConfig(position);
        activate(position);
    });
    showSweep(-1);
}

void AutotuneView::applyEvent(const QJsonObject &event)
{
    const int before = m_sweeps.size();
    const int position = m_sweeps.apply(event);
    if (position < 0)
        return;
    if (m_sweeps.size() > before) {
        const QSignalBlocker blocker(m_sweepSelector);
        m_sweepSelector->addItem(QString());
    }
    updateSelectorItem(position);
    m_sweepSelector->setEnabled(m_sweeps.size() > 1);
    if (m_sweeps.size() > before && (m_followLatest || currentSweep() < 0))
        setCurrentSweep(position);
    else if (position == currentSweep())
        showSweep(position);
    if (event.value(QLatin1String("event")).toString() == QLatin1String("sweep_started"))
        emit sweepStarted(m_sweeps.sweeps()[position].id);
}

void AutotuneView::endRun()
{
    m_sweeps.endRun();
    m_cancelPending = false;
    for (int i = 0; i < m_sweeps.size(); ++i)
        updateSelectorItem(i);
    showSweep(currentSweep());
}

void AutotuneView::clear()
{
    m_sweeps.clear();
    m_followLatest = true;
    m_cancelPending = false;
    {
        const QSignalBlocker blocker(m_sweepSelector);
        m_sweepSelector->clear();
        m_sweepSelector->setEnabled(false);
    }
    showSweep(-1);
}

int AutotuneView::currentSweep() const
{
    const int index = m_sweepSelector->currentIndex();
    return index >= 0 && index < m_sweeps.size() ? index : -1;
}

void AutotuneView::setCurrentSweep(int position)
{
    if (m_sweepSelector->currentIndex() == position)
        showSweep(position); // the sweep behind it may have changed
    else
        m_sweepSelector->setCurrentIndex(position);
}

const Sweep *AutotuneView::shownSweep() const
{
    const int position = currentSweep();
    return position >= 0 ? &m_sweeps.sweeps()[position] : nullptr;
}

int AutotuneView::selectedConfig() const
{
    const QModelIndex current = m_table->currentIndex();
    return current.isValid() ? positionOfRow(current.row()) : -1;
}

void AutotuneView::selectConfig(int position)
{
    const QModelIndex source = position >= 0 && position < m_model->rowCount() ? m_model->index(position, 0)
                                                                                : QModelIndex();
    const QModelIndex index = m_sortModel->mapFromSource(source);
    if (!index.isValid()) {
        m_table->clearSelection();
        m_table->setCurrentIndex({});
        return;
    }
    m_table->setCurrentIndex(index);
    m_table->scrollTo(index);
}

void AutotuneView::setTheme(const Theme &theme)
{
    m_model->setTheme(theme);
    m_scatter->setTheme(theme);
}

int AutotuneView::positionOfRow(int proxyRow) const
{
    if (proxyRow < 0 || proxyRow >= m_sortModel->rowCount())
        return -1;
    return m_sortModel->index(proxyRow, 0).data(AutotuneModel::PositionRole).toInt();
}

void AutotuneView::showSweep(int position)
{
    if (position < 0 || position >= m_sweeps.size()) {
        m_model->clear();
        m_scatter->clear();
    } else {
        const Sweep &sweep = m_sweeps.sweeps()[position];
        m_model->setSweep(sweep);
        m_scatter->setSweep(sweep);
        m_scatter->setSelectedPosition(selectedConfig());
    }
    refreshHeader();
}

void AutotuneView::updateSelectorItem(int position)
{
    const Sweep &sweep = m_sweeps.sweeps()[position];
    QString text = sweep.kernel.isEmpty() ? tr("sweep %1").arg(sweep.id) : sweep.kernel;
    if (!sweep.key.isEmpty())
        text += QStringLiteral(" \u00b7 ") + sweep.key;
    if (sweep.state == Sweep::State::Running)
        text += tr(" (running)");
    m_sweepSelector->setItemText(position, text);
}

void AutotuneView::refreshHeader()
{
    const Sweep *sweep = shownSweep();
    if (!sweep) {
        m_title->setText(tr("No sweep yet: run a script whose kernel is tuned with @asc2.autotune."));
        m_progressLabel->setText(QString());
        m_progress->setRange(0, 1);
        m_progress->setValue(0);
        m_progress->setEnabled(false);
        m_cancel->setEnabled(false);
        m_cancel->setText(tr("Cancel"));
        return;
    }
    QStringList parts;
    parts << QStringLiteral("<b>%1</b>").arg((sweep->kernel.isEmpty() ? tr("sweep %1").arg(sweep->id) : sweep->kernel)
                                                  .toHtmlEscaped());
    if (!sweep->key.isEmpty())
        parts << tr("key %1").arg(sweep->key.toHtmlEscaped());
    if (!sweep->executor.isEmpty())
        parts << tr("executor %1").arg(sweep->executor.toHtmlEscaped());
    if (!sweep->platform.isEmpty())
        parts << sweep->platform.toHtmlEscaped();
    m_title->setText(parts.join(QStringLiteral(" \u00b7 ")));

    const int done = sweep->doneCount();
    const int total = int(sweep->configs.size());
    const bool running = sweep->state == Sweep::State::Running;
    m_progress->setEnabled(true);
    m_progress->setRange(0, std::max(1, total));
    m_progress->setValue(done);
    QString progress;
    switch (sweep->state) {
    case Sweep::State::Running:
        progress = tr("%1 / %2 configs").arg(done).arg(total);
        break;
    case Sweep::State::Cancelled:
        progress = tr("Cancelled at %1 / %2 configs").arg(done).arg(total);
        break;
    case Sweep::State::Finished: {
        progress = sweep->cached ? tr("Chosen earlier (cached), %1 configs").arg(total)
                                 : tr("%1 / %2 configs").arg(done).arg(total);
        const int winner = sweep->winnerPosition();
        if (winner < 0) {
            progress += tr(", no winner");
        } else {
            const ConfigResult &w = sweep->configs[winner];
            const double value = sweep->measureOf(w);
            progress += std::isnan(value)
                ? tr(", winner #%1").arg(w.index)
                : tr(", winner #%1 (%2 %3)")
                      .arg(w.index)
                      .arg(sweep->timedInCycles() ? QLocale().toString(qlonglong(value))
                                                  : QLocale().toString(value, 'f', 2))
                      .arg(sweep->measureUnit());
        }
        break;
    }
    }
    m_progressLabel->setText(progress);
    if (!running)
        m_cancelPending = false;
    m_cancel->setEnabled(running && !m_cancelPending);
    m_cancel->setText(running && m_cancelPending ? tr("Cancelling\u2026") : tr("Cancel"));
}

void AutotuneView::activate(int position)
{
    const Sweep *sweep = shownSweep();
    if (!sweep || position < 0 || position >= sweep->configs.size())
        return;
    emit configActivated(sweep->kernel, sweep->configs[position].codeSha1);
}
