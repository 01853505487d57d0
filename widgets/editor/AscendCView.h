// The Ascend C source the compiler emitted, read-only with C++ highlighting.
#pragma once

#include <Qsci/qsciscintilla.h>

struct Theme;

class AscendCView : public QsciScintilla
{
    Q_OBJECT
public:
    explicit AscendCView(QWidget *parent = nullptr);

    void setSource(const QString &source);
    QString source() const { return text(); }
    void setTheme(const Theme &theme);

private:
    void updateMarginWidth();
};
