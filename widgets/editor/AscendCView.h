// The Ascend C source the compiler emitted, read-only with C++ highlighting.
// Each line knows the Python line it came from (the report's ascendc_lines):
// putting the cursor on one names that line, and the lines of the Python line
// chosen elsewhere are marked.
#pragma once

#include <Qsci/qsciscintilla.h>

#include <QVector>

struct Theme;

class AscendCView : public QsciScintilla
{
    Q_OBJECT
public:
    explicit AscendCView(QWidget *parent = nullptr);

    /// @p sourceLines: the Python line of each line of @p source (0: none).
    void setSource(const QString &source, const QVector<int> &sourceLines = {});
    QString source() const { return text(); }
    void setTheme(const Theme &theme);

    /// Marks the lines emitted for Python line @p line (0: none) and scrolls
    /// the first into view.
    void setLinkedSourceLine(int line);
    /// 0-based lines marked now.
    QVector<int> linkedLines() const { return m_linkedLines; }
    /// The Python line of 1-based Ascend C line @p line (0: none).
    int sourceLineOf(int line) const;
    /// The Python lines the source was made from, ascending, each once.
    QVector<int> sourceLines() const;

    /// Colour bands: each line on the background of its Python line's band
    /// (Theme::band), as the editor and the IR show them.
    void setBandsShown(bool shown);
    bool bandsShown() const { return m_bandsShown; }
    /// The band colour index of 1-based @p line (-1: none).
    int bandAt(int line) const;

signals:
    /// The cursor moved to a line emitted for Python line @p line.
    void sourceLineActivated(int line);

private:
    // The linked line shows over a band (the higher marker wins).
    enum Marker { BandMarker0 = 1, LinkedLineMarker = BandMarker0 + 8 /* Theme::kBandCount */ };

    void updateMarginWidth();
    void markLinkedLines();
    void markBands();

    QVector<int> m_sourceLines;
    QVector<int> m_linkedLines;
    int m_linkedSourceLine = 0;
    int m_lastCursorLine = -1;
    bool m_settingText = false;
    bool m_bandsShown = false;
};
