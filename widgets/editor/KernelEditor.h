// The kernel source editor: Python highlighting, asc2 API completion and call
// tips, line numbers, the diagnostics of the last run (margin markers,
// squiggles, annotations, message on hover) and the line linked to the IR
// line selected in the Passes view.
#pragma once

#include "ProfileData.h"
#include "Theme.h"

#include <Qsci/qsciscintilla.h>
#include <Qsci/qscistyle.h>

#include <QHash>
#include <QKeySequence>
#include <QList>
#include <QVector>

class QsciAPIs;

struct EditorDiagnostic {
    enum class Severity { Error, Warning };
    int line = 0;   // 1-based
    int column = 0; // 1-based; 0 = whole line
    QString message;
    Severity severity = Severity::Error;
};

class KernelEditor : public QsciScintilla
{
    Q_OBJECT
public:
    explicit KernelEditor(QWidget *parent = nullptr);
    ~KernelEditor() override;

    /// New text puts the cursor on line 1 without announcing it as a move.
    void setText(const QString &text) override;

    void setDiagnostics(const QVector<EditorDiagnostic> &diagnostics);
    void clearDiagnostics();
    QVector<EditorDiagnostic> diagnostics() const { return m_diagnostics; }
    /// 1-based lines that carry an error marker in the margin.
    QVector<int> markedErrorLines() const;
    /// The messages of the diagnostics on 1-based @p line, one per line of text.
    QString diagnosticsTextAt(int line) const;

    /// Moves the cursor to a 1-based line/column and centres it.
    void goToLine(int line, int column = 0);
    /// Closes the call tip and the completion list, if shown.
    void dismissPopups();
    /// 1-based line of the cursor.
    int cursorLine() const;

    /// Unbinds the editor's own commands from @p keys (QScintilla's Ctrl+L cuts
    /// the line, Ctrl+Shift+L deletes it), so shortcuts of the window on these
    /// keys fire while the editor has the focus instead of editing the text.
    void releaseKeys(const QList<QKeySequence> &keys);

    /// Marks 1-based @p line as the one linked to the IR selection (0: none).
    void setLinkedLine(int line);
    /// Colour bands on the 1-based Python @p lines that the IR and Ascend C
    /// on show were made from (Theme::band), none when empty.
    void setBandLines(const QVector<int> &lines);
    QVector<int> bandLines() const { return m_bandLines; }
    /// The band colour index of 1-based @p line (-1: no band).
    int bandAt(int line) const;
    int linkedLine() const { return m_linkedLine; }

    /// The asc2 API entries offered for completion ("asc2.copy_in(src, ...) doc").
    QsciAPIs *apis() const { return m_apis; }
    /// The entries are prepared (on a worker thread) and complete.
    bool apisReady() const { return m_apisReady; }

    void setTheme(const Theme &theme);
    const Theme &theme() const { return m_theme; }

    /// Profile heat per 1-based line (0..1) in a gutter strip; empty: none.
    void setLineHeat(const QHash<int, double> &heat);
    /// The heat strip of a run with what its tooltip tells per line (time,
    /// cycles, share, pipes); @p runLabel names the run.
    void setLineCosts(const QHash<int, inspector::LineCost> &costs, const QString &runLabel = QString());
    /// Tooltip of the heat strip on 1-based @p line ("" when it has no heat).
    QString heatToolTip(int line) const;
    /// The 1-based line whose heat strip is under @p viewportPos, or 0.
    int heatLineAt(const QPoint &viewportPos) const;
    /// Heat level (1..kHeatLevels) shown on 1-based @p line, 0 when none.
    int lineHeatLevel(int line) const;
    static constexpr int kHeatLevels = 5;

signals:
    /// The cursor moved to another line (1-based).
    void cursorLineChanged(int line);

protected:
    bool viewportEvent(QEvent *event) override;

private:
    // A line's background is the highest-numbered background marker on it:
    // the error line and the linked line show over a colour band.
    enum Markers {
        ErrorMarker = 1,
        WarningMarker,
        HeatMarker0,
        BandMarker0 = HeatMarker0 + kHeatLevels,
        ErrorLineMarker = BandMarker0 + Theme::kBandCount,
        LinkedLineMarker
    };
    enum Margins { LineNumberMargin = 0, SymbolMargin = 1, FoldMargin = 2, HeatMargin = 3 };

    void updateLineNumberMargin();
    void loadApis();

    QVector<EditorDiagnostic> m_diagnostics;
    int m_squiggle = -1;
    int m_linkedLine = 0;
    QVector<int> m_bandLines;
    int m_lastCursorLine = 1;
    Theme m_theme;
    QsciStyle m_errorStyle;
    QsciStyle m_warningStyle;
    QsciAPIs *m_apis = nullptr;
    bool m_apisReady = false;
    QHash<int, double> m_heat;
    QHash<int, inspector::LineCost> m_lineCosts;
    QString m_heatRun;
};
