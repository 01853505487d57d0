#include "AscendCView.h"

#include "Theme.h"

#include <Qsci/qscilexercpp.h>

#include <QFontDatabase>

#include <algorithm>

AscendCView::AscendCView(QWidget *parent)
    : QsciScintilla(parent)
{
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    auto *lexer = new QsciLexerCPP(this);
    lexer->setDefaultFont(mono);
    lexer->setFont(mono, -1);
    setLexer(lexer);
    setFont(mono);
    setMarginsFont(mono);

    setReadOnly(true);
    setUtf8(true);
    // Size the horizontal scroll bar to the text, not to Scintilla's 2000 px default.
    SendScintilla(SCI_SETSCROLLWIDTH, 1);
    SendScintilla(SCI_SETSCROLLWIDTHTRACKING, true);
    setMarginType(0, QsciScintilla::NumberMargin);
    setMarginLineNumbers(0, true);
    setFolding(QsciScintilla::BoxedTreeFoldStyle, 2);
    setCaretLineVisible(true);
    setWrapMode(QsciScintilla::WrapNone);
    markerDefine(QsciScintilla::Background, LinkedLineMarker);
    static_assert(LinkedLineMarker == BandMarker0 + Theme::kBandCount);
    for (int band = 0; band < Theme::kBandCount; ++band)
        markerDefine(QsciScintilla::Background, BandMarker0 + band);
    setTheme(Theme::light());
    updateMarginWidth();
    connect(this, &QsciScintilla::cursorPositionChanged, this, [this](int line, int) {
        if (m_settingText || line == m_lastCursorLine)
            return;
        m_lastCursorLine = line;
        if (const int source = sourceLineOf(line + 1); source > 0)
            emit sourceLineActivated(source);
    });
}

void AscendCView::setTheme(const Theme &theme)
{
    applyThemeToScintilla(this, theme);
    setMarkerBackgroundColor(theme.linkedLine, LinkedLineMarker);
    for (int band = 0; band < Theme::kBandCount; ++band)
        setMarkerBackgroundColor(theme.band(band), BandMarker0 + band);
}

QVector<int> AscendCView::sourceLines() const
{
    QVector<int> lines;
    for (int line : m_sourceLines)
        if (line > 0)
            lines.push_back(line);
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    return lines;
}

void AscendCView::setBandsShown(bool shown)
{
    if (shown == m_bandsShown)
        return;
    m_bandsShown = shown;
    markBands();
}

void AscendCView::markBands()
{
    for (int band = 0; band < Theme::kBandCount; ++band)
        markerDeleteAll(BandMarker0 + band);
    if (!m_bandsShown)
        return;
    for (int i = 0; i < m_sourceLines.size() && i < lines(); ++i)
        if (m_sourceLines[i] > 0)
            markerAdd(i, BandMarker0 + m_sourceLines[i] % Theme::kBandCount);
}

int AscendCView::bandAt(int line) const
{
    const unsigned mask = markersAtLine(line - 1);
    for (int band = 0; band < Theme::kBandCount; ++band)
        if (mask & (1u << (BandMarker0 + band)))
            return band;
    return -1;
}

void AscendCView::setSource(const QString &source, const QVector<int> &sourceLines)
{
    m_sourceLines = sourceLines;
    if (source != text()) {
        const int firstLine = firstVisibleLine();
        m_settingText = true;
        setReadOnly(false);
        setText(source);
        setReadOnly(true);
        m_settingText = false;
        m_lastCursorLine = -1;
        updateMarginWidth();
        // Re-running the same kernel should not throw the reader back to the top.
        setFirstVisibleLine(firstLine);
    }
    markBands();
    markLinkedLines();
}

int AscendCView::sourceLineOf(int line) const
{
    return line >= 1 && line <= m_sourceLines.size() ? m_sourceLines[line - 1] : 0;
}

void AscendCView::setLinkedSourceLine(int line)
{
    if (line == m_linkedSourceLine)
        return;
    m_linkedSourceLine = line;
    markLinkedLines();
    if (m_linkedLines.isEmpty())
        return;
    // Scroll only when none is in view (the reader may have clicked the second).
    const int top = firstVisibleLine();
    const int bottom = top + int(SendScintilla(SCI_LINESONSCREEN));
    const bool inView = std::any_of(m_linkedLines.begin(), m_linkedLines.end(),
                                    [&](int l) { return l >= top && l < bottom; });
    if (!inView)
        setFirstVisibleLine(qMax(0, m_linkedLines.first() - 3));
}

void AscendCView::markLinkedLines()
{
    markerDeleteAll(LinkedLineMarker);
    m_linkedLines.clear();
    if (m_linkedSourceLine <= 0)
        return;
    for (int i = 0; i < m_sourceLines.size() && i < lines(); ++i) {
        if (m_sourceLines[i] == m_linkedSourceLine) {
            m_linkedLines.push_back(i);
            markerAdd(i, LinkedLineMarker);
        }
    }
}

void AscendCView::updateMarginWidth()
{
    setMarginWidth(0, QStringLiteral("0%1").arg(qMax(lines(), 100)));
}
