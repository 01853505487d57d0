// The light and dark colour sets every view draws with. Views take a Theme
// and keep no colours of their own, so a switch repaints everything alike.
#pragma once

#include <QColor>
#include <QPalette>
#include <QString>

struct Theme {
    enum class Kind { Light, Dark };

    Kind kind = Kind::Light;
    QPalette palette; // for the application: widgets, docks, lists

    // Text views (editor, IR, Ascend C, console).
    QColor background, text, caretLine, margin, marginText, edge, selection;
    // A line linked to the selection in another view (IR <-> Python).
    QColor linkedLine;
    // Diff.
    QColor addedLine, removedLine, changedLine, filler;
    // Diagnostics.
    QColor error, errorLine, errorAnnotationText, errorAnnotationBack;
    QColor warning, warningAnnotationText, warningAnnotationBack;
    // Console.
    QColor consoleOutput, consoleError, consoleInfo, link;
    // Syntax: shared by the Python, C++ and MLIR highlighters.
    QColor keyword, operation, value, block, symbol, type, attribute, number, string, comment, location,
        decorator, function;

    /// A colour band (as Compiler Explorer draws them): the background of
    /// Python line @p sourceLine and of every IR and Ascend C line made from
    /// it. kBandCount colours in turn, so neighbouring lines differ.
    QColor band(int sourceLine) const;
    static constexpr int kBandCount = 8;

    static Theme light();
    static Theme dark();
    static Theme of(Kind kind) { return kind == Kind::Dark ? dark() : light(); }
    static QString name(Kind kind) { return kind == Kind::Dark ? QStringLiteral("dark") : QStringLiteral("light"); }
    static Kind kindFromName(const QString &name)
    {
        return name.compare(QLatin1String("dark"), Qt::CaseInsensitive) == 0 ? Kind::Dark : Kind::Light;
    }
};

class QsciLexer;
class QsciScintilla;
/// Colours a QScintilla view and its lexer (Python or C++) with @p theme.
void applyThemeToScintilla(QsciScintilla *view, const Theme &theme);
