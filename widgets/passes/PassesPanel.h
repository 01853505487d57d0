// The Passes dock: which kernel (when a run compiled several), its passes
// (filtered by name, optionally without the unchanged ones), the IR after the
// selected pass and its diff against the pass before. IR lines link to the
// kernel's Python lines both ways.
#pragma once

#include "ReportPtr.h"

#include <QVector>
#include <QWidget>

class IrDiffView;
class IrView;
class PassListModel;
class PassListView;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTabWidget;
class QToolButton;
struct Theme;

class PassesPanel : public QWidget
{
    Q_OBJECT
public:
    enum class Page { Ir, Diff };

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

    void setPage(Page page);
    Page page() const;

    /// Marks the IR lines that came from Python line @p line (1-based; 0: none).
    void highlightSourceLine(int line);
    /// Colour bands on the IR of the pass shown (IrView::setBands).
    void setBandsShown(bool shown);
    bool bandsShown() const { return m_bandsShown; }
    int highlightedSourceLine() const { return m_sourceLine; }
    /// Python line of the IR line under the IR view's cursor (0: none).
    int sourceLineAtIrCursor() const;
    /// Row of the first pass after which the IR of Python line @p line
    /// differs from the IR before it; -1 if no pass changed it.
    int firstPassChangingSourceLine(int line) const;
    /// Selects that pass for the line at the IR cursor, else the highlighted
    /// line. Returns the row, or -1.
    int selectFirstPassChangingLine();
    /// Selects the first pass that changed the IR of Python line @p line; returns its row or -1.
    int selectFirstPassChangingSourceLine(int line);

    void setTheme(const Theme &theme);

    PassListModel *model() const { return m_model; }
    PassListView *passList() const { return m_passList; }
    IrView *irView() const { return m_irView; }
    IrDiffView *diffView() const { return m_diffView; }
    QComboBox *kernelSelector() const { return m_kernelSelector; }
    QLineEdit *searchField() const { return m_search; }
    QCheckBox *hideUnchangedBox() const { return m_hideUnchanged; }

signals:
    void currentReportChanged(ReportPtr report);
    /// The reader put the IR cursor on a line that came from Python line @p line.
    void sourceLineActivated(int line);
    /// The IR of pass @p pass (null: none) is now shown.
    void passShown(const asc2::PassRecord *pass);

private:
    void showKernel(int index);
    void showPass(int row);
    void updateDiff();
    void onIrCursorLine(int irLine);

    QVector<ReportPtr> m_reports;
    QComboBox *m_kernelSelector;
    QLabel *m_summary;
    QLineEdit *m_search;
    QCheckBox *m_hideUnchanged;
    QToolButton *m_firstChangeButton;
    QComboBox *m_diffMode;
    PassListModel *m_model;
    PassListView *m_passList;
    QTabWidget *m_tabs;
    IrView *m_irView;
    IrDiffView *m_diffView;
    QString m_selectedPassName;
    int m_sourceLine = 0;
    bool m_bandsShown = false;
};
