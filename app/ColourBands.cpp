#include "ColourBands.h"

#include "AscendCView.h"
#include "KernelEditor.h"
#include "PassListModel.h"
#include "PassesPanel.h"

#include <algorithm>

ColourBands::ColourBands(KernelEditor *editor, PassesPanel *passes, AscendCView *ascendc, QObject *parent)
    : QObject(parent)
    , m_editor(editor)
    , m_passes(passes)
    , m_ascendc(ascendc)
{
    connect(m_passes, &PassesPanel::passShown, this, &ColourBands::refresh);
}

void ColourBands::setShown(bool shown)
{
    if (shown == m_shown)
        return;
    m_shown = shown;
    refresh();
}

void ColourBands::refresh()
{
    m_ascendc->setBandsShown(m_shown);
    m_passes->setBandsShown(m_shown);
    if (!m_shown) {
        m_editor->setBandLines({});
        return;
    }
    // The editor's bands: the lines the Ascend C or the IR on show came from.
    QVector<int> lines = m_ascendc->sourceLines();
    if (const asc2::PassRecord *pass = m_passes->model()->passAt(m_passes->selectedPass()))
        for (int line : pass->irLines)
            if (line > 0)
                lines.push_back(line);
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    m_editor->setBandLines(lines);
}
