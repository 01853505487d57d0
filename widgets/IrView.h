// Read-only MLIR text with highlighting, for the IR after a pass.
#pragma once

#include <QPlainTextEdit>

class MlirHighlighter;

class IrView : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit IrView(QWidget *parent = nullptr);

    /// Replaces the text; keeps the scroll position when @p keepScroll and the
    /// text is a revision of what is shown (same pass, newer report).
    void setIr(const QString &ir, bool keepScroll = false);
    QString ir() const { return toPlainText(); }
    MlirHighlighter *highlighter() const { return m_highlighter; }

private:
    MlirHighlighter *m_highlighter;
};
