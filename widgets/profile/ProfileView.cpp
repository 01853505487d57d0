#include "ProfileView.h"

#include "Baselines.h"
#include "SpeedOfLight.h"

#include "InspectorState.h"

#include <QComboBox>
#include <QDateTime>
#include <QLineEdit>
#include <QInputDialog>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QMenu>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTime>
#include <QVBoxLayout>

#include <cmath>

using namespace inspector;

namespace {
constexpr int kFixedRows = 2; // duration, cycles
QString number(double v, int decimals)
{
    return std::isnan(v) ? QStringLiteral("\u2014") : QString::number(v, 'f', decimals);
}
} // namespace

// --- comparison model

void ProfileComparisonModel::setRuns(const ProfileRun *a, const ProfileRun *b)
{
    beginResetModel();
    m_hasA = a;
    m_hasB = b;
    m_a = a ? *a : ProfileRun();
    m_b = b ? *b : ProfileRun();
    m_a.trace = m_b.trace = SimTrace(); // the table needs no trace copy
    endResetModel();
}

int ProfileComparisonModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_hasA ? 0 : kFixedRows + kPipeCount;
}

int ProfileComparisonModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {
// The pipe of a pipe row: rows follow the lanes.
Pipe laneAt(int row)
{
    return asc2::kPipeLaneOrder[row - kFixedRows];
}
} // namespace

double ProfileComparisonModel::value(const ProfileRun *run, int row) const
{
    double v = -1;
    if (row == 0)
        v = run->durationUs;
    else if (row == 1)
        v = run->cycles;
    else
        v = run->pipeRatio[int(laneAt(row))] < 0 ? -1 : 100 * run->pipeRatio[int(laneAt(row))];
    return v < 0 ? std::nan("") : v;
}

QVariant ProfileComparisonModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const int row = index.row();
    double v = std::nan("");
    switch (index.column()) {
    case AColumn: v = value(&m_a, row); break;
    case BColumn: v = m_hasB ? value(&m_b, row) : std::nan(""); break;
    case DeltaColumn: v = m_hasB ? value(&m_b, row) - value(&m_a, row) : std::nan(""); break;
    default: break;
    }
    if (role == ValueRole)
        return index.column() == MetricColumn ? QVariant() : QVariant(v);
    if (role == Qt::TextAlignmentRole)
        return index.column() == MetricColumn ? int(Qt::AlignLeft | Qt::AlignVCenter) : int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == DeltaColumn && m_hasB) {
        const double a = value(&m_a, row);
        return a > 0 && !std::isnan(v) ? QStringLiteral("%1%2%").arg(v >= 0 ? "+" : "").arg(100 * v / a, 0, 'f', 1) : QVariant();
    }
    if (role != Qt::DisplayRole)
        return {};
    if (index.column() == MetricColumn)
        return row == 0 ? tr("Duration (\u00b5s)") : row == 1 ? tr("Cycles") : tr("%1 busy (%)").arg(pipeLabel(laneAt(row)));
    if (index.column() != AColumn && !m_hasB)
        return {};
    QString text = number(v, row == 1 ? 0 : row == 0 ? 3 : 1);
    if (index.column() == DeltaColumn && !std::isnan(v) && v > 0)
        text.prepend(QLatin1Char('+'));
    return text;
}

QString ProfileComparisonModel::basisLabel(const inspector::ProfileRun &run)
{
    return run.source == QLatin1String("simulated") ? tr("predicted") : tr("measured: %1").arg(run.source);
}

QVariant ProfileComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case MetricColumn: return tr("Metric");
    // The simulator's times are predictions (docs/simulator.md gives their
    // measured error); msprof data is measured.
    case AColumn: return m_hasA ? tr("A (%1)").arg(basisLabel(m_a)) : tr("A");
    case BColumn: return m_hasB ? tr("B (%1)").arg(basisLabel(m_b)) : tr("B");
    case DeltaColumn: return tr("B \u2212 A");
    }
    return {};
}

// --- hot lines

void HotLineModel::setRuns(const ProfileRun *a, const ProfileRun *b, const QString &editorFile)
{
    beginResetModel();
    m_a = a ? a->lineUs : QHash<int, double>();
    m_waitA = a ? a->lineWaitUs : QHash<int, double>();
    m_foreignFileA = a && !sameSourceFile(a->sourceFile, editorFile) ? QFileInfo(a->sourceFile).fileName() : QString();
    // B's lines count only when they are of the same file as A's.
    m_bHasLines = b && !b->lineUs.isEmpty() && (!a || sameSourceFile(b->sourceFile, a->sourceFile));
    m_b = m_bHasLines ? b->lineUs : QHash<int, double>();
    m_hasB = b;
    m_lines = m_a.keys().toVector();
    for (int line : m_b.keys() + m_waitA.keys())
        if (!m_lines.contains(line))
            m_lines.push_back(line);
    std::sort(m_lines.begin(), m_lines.end(), [this](int x, int y) {
        const double tx = m_a.value(x), ty = m_a.value(y);
        return tx != ty ? tx > ty : x < y;
    });
    m_total = 0;
    for (double v : m_a)
        m_total += v;
    endResetModel();
}

int HotLineModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_lines.size());
}

int HotLineModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HotLineModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const int line = m_lines[index.row()];
    const double a = m_a.value(line), b = m_bHasLines ? m_b.value(line) : std::nan("");
    if (role == LineRole)
        return m_foreignFileA.isEmpty() ? line : 0; // another file's line leads nowhere in the editor
    double v = 0;
    switch (index.column()) {
    case LineColumn: v = line; break;
    case TimeColumn: v = a; break;
    case ShareColumn: v = m_total > 0 ? 100 * a / m_total : 0; break;
    case WaitColumn: v = m_waitA.value(line); break;
    case BTimeColumn: v = b; break;
    case DeltaColumn: v = b - a; break;
    }
    if (role == ValueRole)
        return v;
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == LineColumn && !m_foreignFileA.isEmpty())
        return tr("A line of %1, not of the file in the editor").arg(m_foreignFileA);
    if (role == Qt::ToolTipRole && (index.column() == BTimeColumn || index.column() == DeltaColumn) && m_hasB && !m_bHasLines)
        return tr("B has no time per line of this file");
    if (role != Qt::DisplayRole)
        return {};
    if (index.column() == LineColumn)
        return m_foreignFileA.isEmpty() ? QVariant(line) : QVariant(QStringLiteral("%1:%2").arg(m_foreignFileA).arg(line));
    if ((index.column() == BTimeColumn || index.column() == DeltaColumn) && !m_hasB)
        return {};
    return index.column() == ShareColumn ? QString::number(v, 'f', 1) : number(v, 4);
}

QVariant HotLineModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case LineColumn: return tr("Line");
    case TimeColumn: return tr("A (\u00b5s)");
    case ShareColumn: return tr("A share (%)");
    case WaitColumn: return tr("A waiting (\u00b5s)");
    case BTimeColumn: return tr("B (\u00b5s)");
    case DeltaColumn: return tr("B \u2212 A");
    }
    return {};
}

// --- chart

ProfileChart::ProfileChart(QWidget *parent)
    : InspectorCanvas(parent)
{
    setObjectName(QStringLiteral("profileChart"));
    setWindowTitle(tr("Pipe utilization"));
}

void ProfileChart::setRuns(const ProfileRun *a, const ProfileRun *b)
{
    m_hasA = a;
    m_hasB = b;
    m_a = a ? *a : ProfileRun();
    m_b = b ? *b : ProfileRun();
    m_a.trace = m_b.trace = SimTrace();
    update();
}

void ProfileChart::activateAt(const QPointF &) {}

void ProfileChart::paintCanvas(QPainter &p, const QSize &size)
{
    if (!m_hasA) {
        drawEmpty(p, size, tr("Profile: run a kernel, or import msprof data"));
        return;
    }
    const QFontMetrics fm(p.font());
    p.setPen(m_theme.text);
    QString title = tr("A: %1 \u2014 %2 \u00b5s").arg(m_a.label).arg(m_a.durationUs, 0, 'f', 3);
    p.drawText(QPointF(8, 15), title);
    if (m_hasB) {
        QString line = tr("B: %1 \u2014 %2 \u00b5s").arg(m_b.label).arg(m_b.durationUs, 0, 'f', 3);
        if (m_a.durationUs > 0 && m_b.durationUs > 0)
            line += tr("  (%1%2%)").arg(m_b.durationUs >= m_a.durationUs ? "+" : "").arg(100 * (m_b.durationUs / m_a.durationUs - 1), 0, 'f', 1);
        p.drawText(QPointF(8, 15 + fm.height()), line);
    }
    const double top = 22 + fm.height() * (m_hasB ? 2 : 1);
    const double left = 60, right = size.width() - 60;
    const double rowH = std::clamp((size.height() - top - 8) / kPipeCount, 10.0, 40.0);
    for (int row = 0; row < kPipeCount; ++row) {
        const Pipe pipe = asc2::kPipeLaneOrder[row];
        const int i = int(pipe);
        const double y = top + row * rowH;
        p.setPen(m_theme.text);
        p.drawText(QRectF(4, y, left - 8, rowH), Qt::AlignVCenter | Qt::AlignRight, pipeLabel(pipe));
        const auto bar = [&](double ratio, double y0, double h, bool hatched) {
            if (ratio < 0)
                return;
            const QRectF r(left, y0, (right - left) * std::min(1.0, ratio), h);
            p.fillRect(r, pipeColor(pipe));
            if (hatched)
                p.fillRect(r, QBrush(pipeColor(pipe).darker(170), Qt::BDiagPattern));
            p.setPen(m_theme.text);
            p.drawText(QPointF(r.right() + 4, y0 + h / 2 + fm.ascent() / 2.0 - 1), QStringLiteral("%1%").arg(100 * ratio, 0, 'f', 1));
        };
        if (m_hasB) {
            bar(m_a.pipeRatio[i], y + 2, rowH / 2 - 2, false);
            bar(m_b.pipeRatio[i], y + rowH / 2, rowH / 2 - 2, true);
        } else {
            bar(m_a.pipeRatio[i], y + 3, rowH - 6, false);
        }
    }
    p.setPen(QPen(m_theme.edge, 1, Qt::DashLine));
    p.drawLine(QPointF(right, top), QPointF(right, top + kPipeCount * rowH));
}

// --- view

ProfileView::ProfileView(QWidget *parent)
    : QWidget(parent)
    , m_theme(Theme::light())
    , m_a(new QComboBox(this))
    , m_b(new QComboBox(this))
    , m_message(new QLabel(this))
    , m_comparison(new ProfileComparisonModel(this))
    , m_hotLines(new HotLineModel(this))
    , m_chart(new ProfileChart(this))
    , m_table(new QTableView(this))
    , m_lineTable(new QTableView(this))
    , m_verdict(new QTextBrowser(this))
    , m_lineTabs(new QTabWidget(this))
    , m_operators(new QTableWidget(this))
{
    setObjectName(QStringLiteral("profile"));
    // One button, two ways in (a directory or a single file): the bar stays
    // narrow enough to share the dock area with the editor.
    auto *import = new QPushButton(tr("Runs"), this);
    import->setToolTip(tr("An msprof op output directory (OpBasicInfo.csv, PipeUtilization.csv), "
                          "op_summary_*.csv, or an msprof op simulator trace.json"));
    auto *importMenu = new QMenu(import);
    connect(importMenu->addAction(tr("Output &Directory...")), &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getExistingDirectory(this, tr("Import msprof Output Directory"));
        QString message;
        if (!path.isEmpty())
            importPath(path, &message);
    });
    connect(importMenu->addAction(tr("&File (csv, trace.json)...")), &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Import msprof File"), QString(),
                                                          tr("msprof files (*.csv *.json);;All files (*)"));
        QString message;
        if (!path.isEmpty())
            importPath(path, &message);
    });
    importMenu->addSeparator();
    connect(importMenu->addAction(tr("&Save A as Baseline...")), &QAction::triggered, this, [this] {
        bool ok = false;
        const QString name = QInputDialog::getText(this, tr("Save Baseline"), tr("Name of the baseline:"), QLineEdit::Normal,
                                                   m_a->currentText().section(QLatin1Char(':'), -1).trimmed(), &ok);
        if (ok && !name.trimmed().isEmpty())
            saveBaseline(name.trimmed());
    });
    connect(importMenu->addAction(tr("&Delete Baseline B")), &QAction::triggered, this, [this] {
        if (!deleteBaseline(runB()))
            setMessage(tr("B is not a saved baseline"), MessageKind::Warning);
    });
    import->setMenu(importMenu);
    import->setToolTip(tr("Import msprof data (a directory or a file), or keep run A as a baseline for later sessions"));
    // Short minimums (the combos stretch, their popups show whole names):
    // this panel's minimum width is that of the whole dock area it is tabbed
    // in, and so decides how wide the editor can be.
    m_a->setMinimumContentsLength(8);
    m_b->setMinimumContentsLength(8);
    m_a->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_b->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(new QLabel(tr("A:"), this));
    bar->addWidget(m_a, 1);
    bar->addWidget(new QLabel(tr("B:"), this));
    bar->addWidget(m_b, 1);
    bar->addWidget(import);

    m_table->setModel(m_comparison);
    m_lineTable->setModel(m_hotLines);
    for (QTableView *t : {m_table, m_lineTable}) {
        t->verticalHeader()->hide();
        t->horizontalHeader()->setStretchLastSection(true);
        t->setSelectionBehavior(QAbstractItemView::SelectRows);
        t->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    }
    connect(m_lineTable, &QTableView::activated, this,
            [this](const QModelIndex &index) { emit sourceLineActivated(index.data(HotLineModel::LineRole).toInt()); });
    connect(m_lineTable, &QTableView::clicked, this,
            [this](const QModelIndex &index) { emit sourceLineActivated(index.data(HotLineModel::LineRole).toInt()); });

    m_operators->setObjectName(QStringLiteral("operators"));
    m_operators->setColumnCount(5);
    m_operators->setHorizontalHeaderLabels({tr("Operator"), tr("Calls"), tr("Total (\u00b5s)"), tr("Share (%)"), tr("Longest (\u00b5s)")});
    m_operators->verticalHeader()->hide();
    m_operators->horizontalHeader()->setStretchLastSection(true);
    m_operators->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_operators->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_operators->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    m_operators->setToolTip(tr("Every operator of the op_summary imported; double-click one to import it as run B"));
    connect(m_operators, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        if (QTableWidgetItem *item = m_operators->item(row, 0))
            importOperator(item->text());
    });
    m_lineTabs->addTab(m_lineTable, tr("Hot lines"));
    m_lineTabs->addTab(m_operators, tr("Operators"));
    m_lineTabs->setTabEnabled(1, false);
    auto *tables = new QSplitter(Qt::Horizontal, this);
    tables->addWidget(m_table);
    tables->addWidget(m_lineTabs);
    m_verdict->setObjectName(QStringLiteral("speedOfLight"));
    m_verdict->setOpenLinks(false);
    m_verdict->setMinimumHeight(fontMetrics().height() * 3);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_verdict);
    split->addWidget(m_chart);
    split->addWidget(tables);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setStretchFactor(2, 1);

    m_message->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addWidget(m_message);
    layout->addWidget(split, 1);

    m_b->addItem(tr("(no comparison)"), -1);
    connect(m_a, &QComboBox::currentIndexChanged, this, &ProfileView::refresh);
    connect(m_b, &QComboBox::currentIndexChanged, this, &ProfileView::refresh);
    refresh();
}

QString speedOfLightHtml(const ProfileRun *a, const ProfileRun *b, const Theme &theme)
{
    if (!a)
        return QObject::tr("<p>Run a kernel (F5) or import msprof data: its speed-of-light verdict shows here.</p>");
    const SpeedOfLight v = SpeedOfLight::of(*a);
    if (!v.known)
        return QObject::tr("<p><b>No speed-of-light verdict</b>: %1 has no pipe utilization.</p>").arg(a->label.toHtmlEscaped());
    QString html = QStringLiteral("<p><b>%1</b> <span style=\"color:%3\">(%2)</span></p>")
                       .arg(v.headline.toHtmlEscaped(), v.basis.toHtmlEscaped(), theme.comment.name());
    // One bar per roof, in the pipe's colour (GM in the MTE2 colour).
    html += QStringLiteral("<table cellspacing=\"1\" cellpadding=\"0\">");
    constexpr int kBarWidth = 160;
    for (const SpeedOfLight::Roof &r : v.roofs) {
        const int pipe = pipeIndex(r.name);
        const QColor colour = pipeColor(pipe >= 0 ? Pipe(pipe) : Pipe::MTE2);
        const int filled = std::clamp(int(std::lround(r.share * kBarWidth)), 1, kBarWidth);
        html += QStringLiteral("<tr><td>%1&nbsp;</td><td><table cellspacing=\"0\" cellpadding=\"0\"><tr>"
                               "<td width=\"%2\" bgcolor=\"%3\">&nbsp;</td><td width=\"%4\" bgcolor=\"%5\"></td>"
                               "</tr></table></td><td>&nbsp;%6%&nbsp;</td><td style=\"color:%7\">%8</td></tr>")
                    .arg(r.name.toHtmlEscaped())
                    .arg(filled)
                    .arg(colour.name())
                    .arg(kBarWidth - filled)
                    .arg(theme.edge.name())
                    .arg(100 * r.share, 0, 'f', 0)
                    .arg(theme.comment.name(), r.detail.toHtmlEscaped());
    }
    html += QStringLiteral("</table>");
    if (!v.advice.isEmpty()) {
        html += QObject::tr("<p style=\"margin-bottom:0\"><b>What to try</b></p><ul style=\"margin-top:0\">");
        for (const SpeedOfLight::Advice &advice : v.advice)
            html += QStringLiteral("<li><b>%1</b> %2</li>").arg(advice.finding.toHtmlEscaped(), advice.action.toHtmlEscaped());
        html += QStringLiteral("</ul>");
    }
    if (b) {
        const SpeedOfLight vb = SpeedOfLight::of(*b);
        html += QObject::tr("<p>B (%1): %2</p>")
                    .arg(b->label.toHtmlEscaped(), vb.known ? vb.headline.toHtmlEscaped() : QObject::tr("no verdict"));
    }
    return html;
}

void ProfileView::setTheme(const Theme &theme)
{
    m_theme = theme;
    updateVerdict(); // its bars are in the theme's colours; nothing else of the runs changes
    m_chart->setTheme(theme);
    setMessage(m_message->text(), m_messageKind);
}

void ProfileView::setMessage(const QString &text, MessageKind kind)
{
    m_messageKind = kind;
    m_message->setText(text);
    const QColor colour = kind == MessageKind::Error ? m_theme.error : kind == MessageKind::Warning ? m_theme.warning : QColor();
    m_message->setStyleSheet(colour.isValid() ? QStringLiteral("QLabel { color: %1; font-weight: bold; }").arg(colour.name())
                                              : QString());
}

int ProfileView::addRun(const ProfileRun &run, bool makeCurrent)
{
    m_runs.push_back(run);
    const int index = int(m_runs.size()) - 1;
    {
        const QSignalBlocker b1(m_a), b2(m_b);
        m_a->addItem(run.label, index);
        m_b->addItem(run.label, index);
        if (makeCurrent)
            m_a->setCurrentIndex(index);
    }
    refresh();
    return index;
}

int ProfileView::setRun(const ProfileRun &run)
{
    for (int i = 0; i < m_runs.size(); ++i) {
        if (m_runs[i].label == run.label) {
            m_runs[i] = run;
            const QSignalBlocker b1(m_a);
            m_a->setCurrentIndex(i);
            refresh();
            return i;
        }
    }
    return addRun(run);
}

void ProfileView::setComparison(int a, int b)
{
    const QSignalBlocker b1(m_a), b2(m_b);
    m_a->setCurrentIndex(a);
    m_b->setCurrentIndex(b < 0 ? 0 : b + 1);
    refresh();
}

int ProfileView::runA() const
{
    return m_a->currentIndex();
}

int ProfileView::runB() const
{
    return m_b->currentIndex() <= 0 ? -1 : m_b->currentData().toInt();
}

bool ProfileView::importPath(const QString &path, QString *message)
{
    return importPath(path, QString(), message);
}

void ProfileView::setBaselineFile(const QString &path)
{
    m_baselineFile = path;
    QString error;
    const QVector<ProfileRun> saved = readBaselines(path, &error);
    if (!error.isEmpty())
        setMessage(tr("Baselines not read: %1").arg(error), MessageKind::Warning);
    for (const ProfileRun &run : saved)
        addRun(run, false);
}

bool ProfileView::isBaseline(int index) const
{
    return index >= 0 && index < m_runs.size() && m_runs[index].baseline;
}

int ProfileView::saveBaseline(const QString &name, QString *message)
{
    const int a = runA();
    if (a < 0 || a >= m_runs.size()) {
        if (message)
            *message = tr("no run A to keep");
        return -1;
    }
    ProfileRun run = m_runs[a];
    run.label = tr("baseline \u201c%1\u201d (%2): %3")
                    .arg(name, QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")), run.label);
    run.baseline = true;
    run.trace = SimTrace();
    run.trace.error = tr("a saved baseline keeps no trace");
    const int index = addRun(run, false);
    writeBaselineFile();
    setMessage(m_baselineFile.isEmpty() ? tr("Kept %1 for this session").arg(run.label)
                                        : tr("Saved %1 to %2").arg(run.label, m_baselineFile),
               MessageKind::Info);
    if (message)
        *message = m_message->text();
    return index;
}

bool ProfileView::deleteBaseline(int index, QString *message)
{
    if (!isBaseline(index)) {
        if (message)
            *message = tr("not a baseline");
        return false;
    }
    const QString label = m_runs[index].label;
    m_runs.removeAt(index);
    rebuildRunBoxes();
    writeBaselineFile();
    setMessage(tr("Deleted %1").arg(label), MessageKind::Info);
    if (message)
        *message = m_message->text();
    return true;
}

void ProfileView::writeBaselineFile()
{
    if (m_baselineFile.isEmpty())
        return;
    QVector<ProfileRun> baselines;
    for (int i = 0; i < m_runs.size(); ++i)
        if (isBaseline(i))
            baselines.push_back(m_runs[i]);
    QString error;
    if (!writeBaselines(m_baselineFile, baselines, &error))
        setMessage(tr("Baselines not saved: %1").arg(error), MessageKind::Error);
}

void ProfileView::rebuildRunBoxes()
{
    // After a run was removed: the boxes list the runs again, A and B kept where they can be.
    const QString a = m_a->currentText(), b = m_b->currentText();
    {
        const QSignalBlocker b1(m_a), b2(m_b);
        m_a->clear();
        m_b->clear();
        m_b->addItem(tr("(no comparison)"), -1);
        for (int i = 0; i < m_runs.size(); ++i) {
            m_a->addItem(m_runs[i].label, i);
            m_b->addItem(m_runs[i].label, i);
        }
        m_a->setCurrentIndex(std::max(0, m_a->findText(a)));
        m_b->setCurrentIndex(std::max(0, m_b->findText(b)));
    }
    refresh();
}

bool ProfileView::importOperator(const QString &name, QString *message)
{
    if (m_operatorsPath.isEmpty()) {
        if (message)
            *message = tr("no op_summary imported");
        return false;
    }
    return importPath(m_operatorsPath, name, message);
}

void ProfileView::showOperators(const QVector<OperatorTotal> &operators, const QString &path)
{
    m_operatorTotals = operators;
    m_operatorsPath = path;
    m_operators->setRowCount(int(operators.size()));
    for (int r = 0; r < operators.size(); ++r) {
        const OperatorTotal &op = operators[r];
        const QStringList cells{op.name, QString::number(op.calls), QString::number(op.totalUs, 'f', 3),
                                QString::number(100 * op.share, 'f', 1), QString::number(op.maxUs, 'f', 3)};
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            if (c > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            else if (!op.type.isEmpty() && op.type != op.name)
                item->setToolTip(tr("type %1").arg(op.type));
            m_operators->setItem(r, c, item);
        }
    }
    m_operators->resizeColumnsToContents();
    m_lineTabs->setTabEnabled(1, operators.size() > 1);
    m_lineTabs->setTabText(1, operators.size() > 1 ? tr("Operators (%1)").arg(operators.size()) : tr("Operators"));
    if (operators.size() > 1)
        m_lineTabs->setCurrentIndex(1);
}

bool ProfileView::importPath(const QString &path, const QString &op, QString *message)
{
    const ImportResult r = importProfilePath(path, op);
    if (r.ok && !r.operators.isEmpty())
        showOperators(r.operators, path);
    if (!r.ok) {
        setMessage(tr("Import failed: %1").arg(r.error), MessageKind::Error);
        if (message)
            *message = r.error;
        return false;
    }
    const int a = runA();
    // Say so when the data is of another operator or of other source code:
    // the comparison and the line times would silently mean something else.
    QStringList warnings;
    if (a >= 0 && a < m_runs.size() && !sameOperator(m_runs[a].opName, r.run.opName))
        warnings << tr("\u26a0 op %1 is not A's %2: the comparison is of different operators").arg(r.run.opName, m_runs[a].opName);
    if (!r.run.lineUs.isEmpty() && !sameSourceFile(r.run.sourceFile, m_sourceFile))
        warnings << tr("\u26a0 its lines are of %1, not of %2: the editor shows no heat for them")
                        .arg(QFileInfo(r.run.sourceFile).fileName(), QFileInfo(m_sourceFile).fileName());
    const QStringList notes = r.notes + warnings;
    // Imports are told apart by when they came in (the same directory twice
    // is two runs to compare, not one).
    ProfileRun run = r.run;
    run.label = tr("imported %1: %2").arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), r.run.label);
    const int index = addRun(run, false);
    // Imported data is compared against what A showed.
    setComparison(std::max(0, a), index);
    setMessage(tr("Imported %1%2").arg(r.run.label, notes.isEmpty() ? QString() : QStringLiteral(" \u2014 ") + notes.join(QStringLiteral("; "))),
               warnings.isEmpty() ? MessageKind::Info : MessageKind::Warning);
    if (!run.trace.isEmpty()) {
        SimTrace shown = withLinesOf(run.trace, m_sourceFile);
        shown.origin = run.label;
        emit traceSelected(shown, run.label);
    }
    emit runImported(run);
    if (message)
        *message = m_message->text();
    return true;
}

void ProfileView::setSourceFile(const QString &path)
{
    if (path == m_sourceFile)
        return;
    m_sourceFile = path;
    refresh();
}

void ProfileView::updateVerdict()
{
    const int a = runA(), b = runB();
    m_verdict->setHtml(speedOfLightHtml(a >= 0 && a < m_runs.size() ? &m_runs[a] : nullptr,
                                        b >= 0 && b < m_runs.size() ? &m_runs[b] : nullptr, m_theme));
}

void ProfileView::refresh()
{
    const int a = runA(), b = runB();
    const ProfileRun *ra = a >= 0 && a < m_runs.size() ? &m_runs[a] : nullptr;
    const ProfileRun *rb = b >= 0 && b < m_runs.size() ? &m_runs[b] : nullptr;
    m_comparison->setRuns(ra, rb);
    m_hotLines->setRuns(ra, rb, m_sourceFile);
    m_chart->setRuns(ra, rb);
    updateVerdict();
    m_table->resizeColumnsToContents();
    m_lineTable->resizeColumnsToContents();
    // Line times of another file are not laid over the editor's lines.
    const QHash<int, LineCost> costs = ra && sameSourceFile(ra->sourceFile, m_sourceFile) ? lineCosts(*ra) : QHash<int, LineCost>();
    QHash<int, double> heat;
    for (auto it = costs.cbegin(); it != costs.cend(); ++it)
        heat.insert(it.key(), it.value().heat);
    emit lineHeatChanged(heat);
    emit lineCostsChanged(costs, ra ? ra->label : QString());
}
