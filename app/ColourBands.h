// Colour bands, as Compiler Explorer draws them: each Python line that made
// code gets a background colour (Theme::band), and the IR lines of the pass
// on show and the Ascend C lines made from it get the same one, so the eye
// finds a line's code in the other views without clicking.
#pragma once

#include <QObject>

class AscendCView;
class KernelEditor;
class PassesPanel;

class ColourBands : public QObject
{
    Q_OBJECT
public:
    ColourBands(KernelEditor *editor, PassesPanel *passes, AscendCView *ascendc, QObject *parent = nullptr);

    void setShown(bool shown);
    bool isShown() const { return m_shown; }
    /// Lays the bands over what the views show now (after a report or a pass
    /// is shown, or the file changed).
    void refresh();

private:
    KernelEditor *m_editor;
    PassesPanel *m_passes;
    AscendCView *m_ascendc;
    bool m_shown = false;
};
