#include "KernelEditor.h"

#include <Qsci/qscilexerpython.h>

#include <QFontDatabase>

KernelEditor::KernelEditor(QWidget *parent)
    : QsciScintilla(parent)
    , m_errorStyle(-1, QStringLiteral("Error annotation"), QColor(0xa0, 0x00, 0x00),
                   QColor(0xff, 0xf0, 0xf0), QFontDatabase::systemFont(QFontDatabase::FixedFont))
    , m_warningStyle(-1, QStringLiteral("Warning annotation"), QColor(0x80, 0x50, 0x00),
                     QColor(0xff, 0xf8, 0xe0), QFontDatabase::systemFont(QFontDatabase::FixedFont))
{
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    auto *lexer = new QsciLexerPython(this);
    lexer->setDefaultFont(mono);
    lexer->setFont(mono, -1);
    lexer->setIndentationWarning(QsciLexerPython::Inconsistent);
    setLexer(lexer);
    setFont(mono);
    setMarginsFont(mono);
    setUtf8(true);
    // Size the horizontal scroll bar to the text, not to Scintilla's 2000 px default.
    SendScintilla(SCI_SETSCROLLWIDTH, 1);
    SendScintilla(SCI_SETSCROLLWIDTHTRACKING, true);

    setIndentationsUseTabs(false);
    setIndentationWidth(4);
    setTabWidth(4);
    setAutoIndent(true);
    setIndentationGuides(true);
    setBackspaceUnindents(true);
    setBraceMatching(QsciScintilla::SloppyBraceMatch);
    setCaretLineVisible(true);
    setCaretLineBackgroundColor(QColor(0xf4, 0xf4, 0xf8));
    setEdgeMode(QsciScintilla::EdgeLine);
    setEdgeColumn(100);
    setEdgeColor(QColor(0xe0, 0xe0, 0xe0));

    setMarginType(LineNumberMargin, QsciScintilla::NumberMargin);
    setMarginLineNumbers(LineNumberMargin, true);
    setMarginType(SymbolMargin, QsciScintilla::SymbolMargin);
    setMarginWidth(SymbolMargin, 14);
    setMarginMarkerMask(SymbolMargin, (1 << ErrorMarker) | (1 << WarningMarker));
    setMarginSensitivity(SymbolMargin, false);
    setFolding(QsciScintilla::BoxedTreeFoldStyle, FoldMargin);

    markerDefine(QsciScintilla::Circle, ErrorMarker);
    setMarkerBackgroundColor(QColor(0xd0, 0x20, 0x20), ErrorMarker);
    setMarkerForegroundColor(QColor(0x90, 0x00, 0x00), ErrorMarker);
    markerDefine(QsciScintilla::Background, ErrorLineMarker);
    setMarkerBackgroundColor(QColor(0xff, 0xe4, 0xe4), ErrorLineMarker);
    markerDefine(QsciScintilla::Circle, WarningMarker);
    setMarkerBackgroundColor(QColor(0xe0, 0xa0, 0x00), WarningMarker);

    m_squiggle = indicatorDefine(QsciScintilla::SquiggleIndicator);
    setIndicatorForegroundColor(QColor(0xd0, 0x20, 0x20), m_squiggle);

    setAnnotationDisplay(QsciScintilla::AnnotationBoxed);

    connect(this, &QsciScintilla::linesChanged, this, &KernelEditor::updateLineNumberMargin);
    // Diagnostics describe the text that ran; once it is edited they mislead.
    connect(this, &QsciScintilla::textChanged, this, [this] {
        if (!m_diagnostics.isEmpty())
            clearDiagnostics();
    });
    updateLineNumberMargin();
}

void KernelEditor::setDiagnostics(const QVector<EditorDiagnostic> &diagnostics)
{
    clearDiagnostics();
    m_diagnostics = diagnostics;
    for (const EditorDiagnostic &d : diagnostics) {
        const int line = d.line - 1;
        if (line < 0 || line >= lines())
            continue;
        const bool isError = d.severity == EditorDiagnostic::Severity::Error;
        markerAdd(line, isError ? ErrorMarker : WarningMarker);
        if (isError)
            markerAdd(line, ErrorLineMarker);

        const int lineLength = text(line).trimmed().isEmpty() ? 0 : int(text(line).length());
        // Without a column, underline the statement, not its indentation.
        const int from = qMin(d.column > 0 ? d.column - 1 : indentation(line), lineLength);
        fillIndicatorRange(line, from, line, lineLength, m_squiggle);

        const QString existing = annotation(line);
        const QString message = existing.isEmpty() ? d.message : existing + QLatin1Char('\n') + d.message;
        annotate(line, message, isError ? m_errorStyle : m_warningStyle);
    }
}

void KernelEditor::clearDiagnostics()
{
    m_diagnostics.clear();
    markerDeleteAll(ErrorMarker);
    markerDeleteAll(ErrorLineMarker);
    markerDeleteAll(WarningMarker);
    clearIndicatorRange(0, 0, qMax(lines() - 1, 0), int(text(qMax(lines() - 1, 0)).length()), m_squiggle);
    clearAnnotations();
}

QVector<int> KernelEditor::markedErrorLines() const
{
    QVector<int> result;
    int line = markerFindNext(0, 1 << ErrorMarker);
    while (line >= 0) {
        result.push_back(line + 1);
        line = markerFindNext(line + 1, 1 << ErrorMarker);
    }
    return result;
}

void KernelEditor::goToLine(int line, int column)
{
    const int l = qBound(0, line - 1, qMax(lines() - 1, 0));
    setCursorPosition(l, qMax(column - 1, 0));
    ensureLineVisible(l);
    SendScintilla(SCI_SCROLLCARET);
}

void KernelEditor::updateLineNumberMargin()
{
    setMarginWidth(LineNumberMargin, QStringLiteral("00%1").arg(lines()));
}
