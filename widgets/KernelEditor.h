// The kernel source editor: Python highlighting, line numbers, and the
// diagnostics of the last run shown as margin markers, squiggles and
// annotations under the offending line.
#pragma once

#include <Qsci/qsciscintilla.h>
#include <Qsci/qscistyle.h>

#include <QVector>

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

    void setDiagnostics(const QVector<EditorDiagnostic> &diagnostics);
    void clearDiagnostics();
    QVector<EditorDiagnostic> diagnostics() const { return m_diagnostics; }
    /// 1-based lines that carry an error marker in the margin.
    QVector<int> markedErrorLines() const;

    /// Moves the cursor to a 1-based line/column and centres it.
    void goToLine(int line, int column = 0);

private:
    enum Markers { ErrorMarker = 1, ErrorLineMarker, WarningMarker };
    enum Margins { LineNumberMargin = 0, SymbolMargin = 1, FoldMargin = 2 };

    void updateLineNumberMargin();

    QVector<EditorDiagnostic> m_diagnostics;
    int m_squiggle = -1;
    QsciStyle m_errorStyle;
    QsciStyle m_warningStyle;
};
