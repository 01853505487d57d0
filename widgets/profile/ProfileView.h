// Profile: per-pipe utilization and hot source lines of a run (simulated or
// imported from msprof), and an A/B comparison of two runs with deltas.
#pragma once

#include "Theme.h"

#include "InspectorCanvas.h"
#include "ProfileData.h"

#include <QAbstractTableModel>

class QComboBox;
class QLabel;
class QTabWidget;
class QTableView;
class QTableWidget;
class QTextBrowser;

/// Rows: duration, cycles, then one utilization row per pipe. Columns:
/// metric, A, B, B - A.
class ProfileComparisonModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns { MetricColumn, AColumn, BColumn, DeltaColumn, ColumnCount };
    enum Roles { ValueRole = Qt::UserRole + 1 }; // double, NaN when unknown
    using QAbstractTableModel::QAbstractTableModel;
    void setRuns(const inspector::ProfileRun *a, const inspector::ProfileRun *b);
    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    double value(const inspector::ProfileRun *run, int row) const;
    /// "predicted" for a simulated run, "measured: <source>" for msprof data.
    static QString basisLabel(const inspector::ProfileRun &run);
    inspector::ProfileRun m_a, m_b;
    bool m_hasA = false, m_hasB = false;
};

/// Source lines by time spent (A), with B and the delta when comparing.
class HotLineModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns { LineColumn, TimeColumn, ShareColumn, WaitColumn, BTimeColumn, DeltaColumn, ColumnCount };
    enum Roles { LineRole = Qt::UserRole + 1, ValueRole };
    using QAbstractTableModel::QAbstractTableModel;
    /// @p editorFile: the file open in the editor. A's lines of another file
    /// are shown as "file:line" and lead nowhere (LineRole 0); B's time of a
    /// line is "—" when B has no line times or they are of another file.
    void setRuns(const inspector::ProfileRun *a, const inspector::ProfileRun *b, const QString &editorFile = QString());
    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString m_foreignFileA; // A's lines are of this other file ("": the editor's)
    bool m_bHasLines = false;
    QVector<int> m_lines;
    QHash<int, double> m_a, m_b;
    QHash<int, double> m_waitA; // A's waiting per line (not in its time)
    double m_total = 0;
    bool m_hasB = false;
};

/// Bars of pipe utilization, A above B.
class ProfileChart : public InspectorCanvas
{
    Q_OBJECT
public:
    explicit ProfileChart(QWidget *parent = nullptr);
    void setRuns(const inspector::ProfileRun *a, const inspector::ProfileRun *b);
    void paintCanvas(QPainter &painter, const QSize &size) override;
    QString toolTipAt(const QPointF &) const override { return {}; }
    void activateAt(const QPointF &pos) override;
    bool hasContent() const override { return m_hasA; }
    QSize sizeHint() const override { return {600, 220}; }

private:
    inspector::ProfileRun m_a, m_b;
    bool m_hasA = false, m_hasB = false;
};

class ProfileView : public QWidget
{
    Q_OBJECT
public:
    explicit ProfileView(QWidget *parent = nullptr);

    /// Adds a run (simulated or imported) and shows it as A; returns its index.
    int addRun(const inspector::ProfileRun &run, bool makeCurrent = true);
    /// Replaces a run with the same label, else adds it.
    int setRun(const inspector::ProfileRun &run);
    const QVector<inspector::ProfileRun> &runs() const { return m_runs; }
    void setComparison(int a, int b); // b = -1: no comparison
    int runA() const;
    int runB() const;
    /// Imports @p path; the message says what happened (error or what was read).
    bool importPath(const QString &path, QString *message = nullptr);
    /// The operators of the last op_summary imported (MindStudio Insight's
    /// operator summary: calls, total and longest µs, share), the most time
    /// first; a double-click (or importOperator) imports one as a run.
    QTableWidget *operatorTable() const { return m_operators; }
    const QVector<inspector::OperatorTotal> &operators() const { return m_operatorTotals; }
    /// Saved baselines (Nsight Compute's): runs kept in @p path across
    /// sessions, offered as A or B like any run. "" : none kept.
    void setBaselineFile(const QString &path);
    /// Keeps run A as a baseline named @p name (in the baseline file, when
    /// there is one); returns its index among runs().
    int saveBaseline(const QString &name, QString *message = nullptr);
    /// Forgets baseline run @p index (and drops it from the file).
    bool deleteBaseline(int index, QString *message = nullptr);
    bool isBaseline(int index) const;
    /// Imports operator @p name of the last op_summary as a run (B).
    bool importOperator(const QString &name, QString *message = nullptr);
    /// The file open in the editor: line times of runs on another file are
    /// not laid over it (heat, hot-line links).
    void setSourceFile(const QString &path);

    ProfileComparisonModel *comparisonModel() const { return m_comparison; }
    HotLineModel *hotLineModel() const { return m_hotLines; }
    ProfileChart *chart() const { return m_chart; }
    /// The speed-of-light verdict of run A (and B's headline when comparing).
    QTextBrowser *verdictView() const { return m_verdict; }
    QLabel *messageLabel() const { return m_message; }
    /// What the message line says is: news, a warning (data of another op
    /// or file) or an error (an import that failed), coloured so.
    enum class MessageKind { Info, Warning, Error };
    MessageKind messageKind() const { return m_messageKind; }
    void setTheme(const Theme &theme);

signals:
    /// Heat per source line (0..1) of run A, for the editor gutter.
    void lineHeatChanged(const QHash<int, double> &heat);
    /// The same with what the gutter's tooltip tells (time, cycles, pipes).
    void lineCostsChanged(const QHash<int, inspector::LineCost> &costs, const QString &runLabel);
    /// An import succeeded (its run is also in runs()).
    void runImported(const inspector::ProfileRun &run);
    /// Run A's trace changed (an import overlays the timelines).
    void traceSelected(const inspector::SimTrace &trace, const QString &label);
    void sourceLineActivated(int line);

private:
    void refresh();
    void updateVerdict();
    void setMessage(const QString &text, MessageKind kind);
    QString m_sourceFile;
    Theme m_theme;
    MessageKind m_messageKind = MessageKind::Info;
    QVector<inspector::ProfileRun> m_runs;
    QComboBox *m_a;
    QComboBox *m_b;
    QLabel *m_message;
    ProfileComparisonModel *m_comparison;
    HotLineModel *m_hotLines;
    ProfileChart *m_chart;
    QTableView *m_table;
    QTableView *m_lineTable;
    QTextBrowser *m_verdict;
    QTabWidget *m_lineTabs;
    QTableWidget *m_operators;
    QVector<inspector::OperatorTotal> m_operatorTotals;
    QString m_operatorsPath; // the op_summary they are of
    QString m_baselineFile;
    void writeBaselineFile();
    void rebuildRunBoxes();
    bool importPath(const QString &path, const QString &op, QString *message);
    void showOperators(const QVector<inspector::OperatorTotal> &operators, const QString &path);
};

/// The speed-of-light verdict of @p a (and @p b's headline), as HTML with
/// bars drawn in @p theme's colours: the Profile view and the HTML report.
QString speedOfLightHtml(const inspector::ProfileRun *a, const inspector::ProfileRun *b, const Theme &theme);
