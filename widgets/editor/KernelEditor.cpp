#include "KernelEditor.h"

#include <algorithm>
#include <cmath>

#include <Qsci/qsciapis.h>
#include <Qsci/qscicommand.h>
#include <Qsci/qscicommandset.h>
#include <Qsci/qscilexerpython.h>

#include <QFile>
#include <QFontDatabase>
#include <QHelpEvent>
#include <QLocale>
#include <QToolTip>

// The resources live in this static library; make sure they are linked and registered.
static void initWorkbenchResources()
{
    Q_INIT_RESOURCE(workbench);
}

KernelEditor::KernelEditor(QWidget *parent)
    : QsciScintilla(parent)
    , m_theme(Theme::light())
    , m_errorStyle(-1, QStringLiteral("Error annotation"), m_theme.errorAnnotationText,
                   m_theme.errorAnnotationBack, QFontDatabase::systemFont(QFontDatabase::FixedFont))
    , m_warningStyle(-1, QStringLiteral("Warning annotation"), m_theme.warningAnnotationText,
                     m_theme.warningAnnotationBack, QFontDatabase::systemFont(QFontDatabase::FixedFont))
{
    // Redo is Ctrl+Y in QScintilla but Ctrl+Shift+Z on this desktop (the
    // Edit menu says so): without this, Ctrl+Shift+Z typed a 'z'.
    if (QsciCommand *redo = standardCommands()->find(QsciCommand::Redo); redo && redo->alternateKey() == 0)
        redo->setAlternateKey(QKeyCombination(Qt::CTRL | Qt::SHIFT, Qt::Key_Z).toCombined());
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
    setEdgeMode(QsciScintilla::EdgeLine);
    setEdgeColumn(100);

    setMarginType(LineNumberMargin, QsciScintilla::NumberMargin);
    setMarginLineNumbers(LineNumberMargin, true);
    setMarginType(SymbolMargin, QsciScintilla::SymbolMargin);
    setMarginWidth(SymbolMargin, 14);
    setMarginMarkerMask(SymbolMargin, (1 << ErrorMarker) | (1 << WarningMarker));
    setMarginSensitivity(SymbolMargin, false);
    setFolding(QsciScintilla::BoxedTreeFoldStyle, FoldMargin);

    markerDefine(QsciScintilla::Circle, ErrorMarker);
    markerDefine(QsciScintilla::Background, ErrorLineMarker);
    markerDefine(QsciScintilla::Circle, WarningMarker);
    markerDefine(QsciScintilla::Background, LinkedLineMarker);
    for (int band = 0; band < Theme::kBandCount; ++band)
        markerDefine(QsciScintilla::Background, BandMarker0 + band);
    // Profile heat: a strip left of the line numbers, five shades of red.
    setMargins(4);
    setMarginType(HeatMargin, QsciScintilla::SymbolMargin);
    setMarginWidth(HeatMargin, 0);
    int heatMask = 0;
    for (int level = 0; level < kHeatLevels; ++level) {
        markerDefine(QsciScintilla::FullRectangle, HeatMarker0 + level);
        const QColor c = QColor::fromHslF(0.0, 0.85, 0.9 - 0.12 * level);
        setMarkerBackgroundColor(c, HeatMarker0 + level);
        setMarkerForegroundColor(c, HeatMarker0 + level);
        heatMask |= 1 << (HeatMarker0 + level);
    }
    setMarginMarkerMask(HeatMargin, heatMask);

    m_squiggle = indicatorDefine(QsciScintilla::SquiggleIndicator);
    setAnnotationDisplay(QsciScintilla::AnnotationBoxed);

    // Completion of the asc2 API from a word's first letters, and call tips at "(".
    loadApis();
    setAutoCompletionSource(QsciScintilla::AcsAll);
    setAutoCompletionThreshold(2);
    setAutoCompletionCaseSensitivity(true);
    setAutoCompletionReplaceWord(false);
    setAutoCompletionUseSingle(QsciScintilla::AcusNever);
    setCallTipsStyle(QsciScintilla::CallTipsContext);
    setCallTipsVisible(0);
    setCallTipsPosition(QsciScintilla::CallTipsBelowText);

    connect(this, &QsciScintilla::linesChanged, this, &KernelEditor::updateLineNumberMargin);
    // Diagnostics describe the text that ran; once it is edited they mislead.
    connect(this, &QsciScintilla::textChanged, this, [this] {
        if (!m_diagnostics.isEmpty())
            clearDiagnostics();
    });
    connect(this, &QsciScintilla::cursorPositionChanged, this, [this](int line, int) {
        if (line + 1 == m_lastCursorLine)
            return;
        m_lastCursorLine = line + 1;
        emit cursorLineChanged(line + 1);
    });
    setTheme(m_theme);
    updateLineNumberMargin();
}

KernelEditor::~KernelEditor()
{
    // The API preparation thread reads the lexer, which dies with our children.
    m_apis->cancelPreparation();
}

void KernelEditor::loadApis()
{
    initWorkbenchResources();
    m_apis = new QsciAPIs(lexer());
    QFile file(QStringLiteral(":/asc2/asc2.api"));
    if (file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
        for (const QString &line : lines) {
            if (!line.isEmpty() && !line.startsWith(QLatin1Char('#')))
                m_apis->add(line);
        }
    }
    connect(m_apis, &QsciAPIs::apiPreparationFinished, this, [this] { m_apisReady = true; });
    m_apis->prepare();
}

void KernelEditor::setTheme(const Theme &theme)
{
    m_theme = theme;
    applyThemeToScintilla(this, theme);
    setMarkerBackgroundColor(theme.error, ErrorMarker);
    setMarkerForegroundColor(theme.error.darker(140), ErrorMarker);
    setMarkerBackgroundColor(theme.errorLine, ErrorLineMarker);
    setMarkerBackgroundColor(theme.warning, WarningMarker);
    setMarkerBackgroundColor(theme.linkedLine, LinkedLineMarker);
    for (int band = 0; band < Theme::kBandCount; ++band)
        setMarkerBackgroundColor(theme.band(band), BandMarker0 + band);
    setIndicatorForegroundColor(theme.error, m_squiggle);
    setCallTipsBackgroundColor(theme.palette.color(QPalette::ToolTipBase));
    setCallTipsForegroundColor(theme.palette.color(QPalette::ToolTipText));
    setCallTipsHighlightColor(theme.link);
    m_errorStyle.setColor(theme.errorAnnotationText);
    m_errorStyle.setPaper(theme.errorAnnotationBack);
    m_warningStyle.setColor(theme.warningAnnotationText);
    m_warningStyle.setPaper(theme.warningAnnotationBack);
    // Annotations copy their style when made: make them again in the new colours.
    if (!m_diagnostics.isEmpty())
        setDiagnostics(QVector<EditorDiagnostic>(m_diagnostics));
}

void KernelEditor::setText(const QString &text)
{
    QsciScintilla::setText(text);
    m_lastCursorLine = 1;
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

QString KernelEditor::diagnosticsTextAt(int line) const
{
    QStringList messages;
    for (const EditorDiagnostic &d : m_diagnostics) {
        if (d.line == line)
            messages << (d.severity == EditorDiagnostic::Severity::Error ? tr("error: %1") : tr("warning: %1"))
                            .arg(d.message);
    }
    return messages.join(QLatin1Char('\n'));
}

bool KernelEditor::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        // Over the marker margin or the squiggled text: the line's messages.
        const auto *help = static_cast<QHelpEvent *>(event);
        if (const int heatLine = heatLineAt(help->pos())) {
            const QString tip = heatToolTip(heatLine);
            if (tip.isEmpty())
                QToolTip::hideText();
            else
                QToolTip::showText(help->globalPos(), tip, viewport());
            return true;
        }
        const long position = SendScintilla(SCI_POSITIONFROMPOINT, help->pos().x(), help->pos().y());
        const int line = int(SendScintilla(SCI_LINEFROMPOSITION, position)) + 1;
        const QString text = diagnosticsTextAt(line);
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, viewport());
        return true;
    }
    return QsciScintilla::viewportEvent(event);
}

void KernelEditor::goToLine(int line, int column)
{
    const int l = qBound(0, line - 1, qMax(lines() - 1, 0));
    setCursorPosition(l, qMax(column - 1, 0));
    ensureLineVisible(l);
    SendScintilla(SCI_SCROLLCARET);
}

void KernelEditor::dismissPopups()
{
    SendScintilla(SCI_CALLTIPCANCEL);
    if (isListActive())
        cancelList();
}

int KernelEditor::cursorLine() const
{
    int line = 0;
    int column = 0;
    getCursorPosition(&line, &column);
    return line + 1;
}

void KernelEditor::releaseKeys(const QList<QKeySequence> &keys)
{
    for (const QKeySequence &sequence : keys) {
        if (sequence.isEmpty())
            continue;
        const int key = sequence[0].toCombined();
        while (QsciCommand *command = standardCommands()->boundTo(key)) {
            if (command->key() == key)
                command->setKey(0);
            if (command->alternateKey() == key)
                command->setAlternateKey(0);
        }
    }
}

void KernelEditor::setLinkedLine(int line)
{
    if (line == m_linkedLine)
        return;
    markerDeleteAll(LinkedLineMarker);
    m_linkedLine = line;
    if (line > 0 && line <= lines())
        markerAdd(line - 1, LinkedLineMarker);
}

void KernelEditor::setBandLines(const QVector<int> &lines)
{
    if (lines == m_bandLines)
        return;
    for (int band = 0; band < Theme::kBandCount; ++band)
        markerDeleteAll(BandMarker0 + band);
    m_bandLines = lines;
    for (int line : lines) {
        if (line > 0 && line <= this->lines())
            markerAdd(line - 1, BandMarker0 + line % Theme::kBandCount);
    }
}

int KernelEditor::bandAt(int line) const
{
    const unsigned mask = markersAtLine(line - 1);
    for (int band = 0; band < Theme::kBandCount; ++band)
        if (mask & (1u << (BandMarker0 + band)))
            return band;
    return -1;
}

void KernelEditor::updateLineNumberMargin()
{
    setMarginWidth(LineNumberMargin, QStringLiteral("00%1").arg(lines()));
}

void KernelEditor::setLineCosts(const QHash<int, inspector::LineCost> &costs, const QString &runLabel)
{
    QHash<int, double> heat;
    for (auto it = costs.cbegin(); it != costs.cend(); ++it)
        heat.insert(it.key(), it.value().heat);
    setLineHeat(heat);
    m_lineCosts = costs;
    m_heatRun = runLabel;
}

int KernelEditor::heatLineAt(const QPoint &pos) const
{
    if (m_heat.isEmpty())
        return 0;
    int left = 0;
    for (int m = 0; m < HeatMargin; ++m)
        left += marginWidth(m);
    if (pos.x() < left || pos.x() >= left + marginWidth(HeatMargin))
        return 0;
    auto *self = const_cast<KernelEditor *>(this);
    const long position = self->SendScintilla(SCI_POSITIONFROMPOINT, left + marginWidth(HeatMargin), pos.y());
    const int line = int(self->SendScintilla(SCI_LINEFROMPOSITION, position)) + 1;
    return line >= 1 && line <= lines() ? line : 0;
}

QString KernelEditor::heatToolTip(int line) const
{
    if (!m_lineCosts.contains(line)) {
        const double heat = m_heat.value(line);
        return heat > 0 ? tr("line %1: %2% of the hottest line").arg(line).arg(100 * heat, 0, 'f', 0) : QString();
    }
    const inspector::LineCost &c = m_lineCosts[line];
    QString text = tr("line %1: %2 \u00b5s").arg(line).arg(c.us, 0, 'f', 4);
    if (c.cycles >= 0)
        text += tr(", %1 cycles").arg(QLocale().toString(qRound64(c.cycles)));
    text += tr("\n%1% of the time of all lines").arg(100 * c.share, 0, 'f', 1);
    QVector<int> order;
    for (asc2::Pipe pipe : asc2::kPipeLaneOrder) // ties keep the lanes' order
        if (int(pipe) < c.pipeUs.size() && c.pipeUs[int(pipe)] > 0)
            order << int(pipe);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return c.pipeUs[a] > c.pipeUs[b]; });
    QStringList pipes;
    for (int p : order)
        pipes << QStringLiteral("%1 %2 \u00b5s").arg(inspector::pipeLabel(inspector::Pipe(p))).arg(c.pipeUs[p], 0, 'f', 4);
    if (!pipes.isEmpty())
        text += QLatin1Char('\n') + pipes.join(QStringLiteral(", "));
    if (!m_heatRun.isEmpty())
        text += tr("\nrun: %1").arg(m_heatRun);
    return text;
}

void KernelEditor::setLineHeat(const QHash<int, double> &heat)
{
    m_heat = heat;
    m_lineCosts.clear();
    m_heatRun.clear();
    for (int level = 0; level < kHeatLevels; ++level)
        markerDeleteAll(HeatMarker0 + level);
    for (auto it = heat.cbegin(); it != heat.cend(); ++it) {
        if (it.key() <= 0 || it.value() <= 0)
            continue;
        const int level = std::clamp(int(std::ceil(it.value() * kHeatLevels)) - 1, 0, kHeatLevels - 1);
        markerAdd(it.key() - 1, HeatMarker0 + level);
    }
    setMarginWidth(HeatMargin, heat.isEmpty() ? 0 : 6);
}

int KernelEditor::lineHeatLevel(int line) const
{
    const unsigned mask = markersAtLine(line - 1);
    for (int level = kHeatLevels - 1; level >= 0; --level)
        if (mask & (1u << (HeatMarker0 + level)))
            return level + 1;
    return 0;
}
