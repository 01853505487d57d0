#include "SelectionLinker.h"

#include "AscendCView.h"
#include "ConsoleView.h"
#include "DocumentController.h"
#include "InspectorState.h"
#include "IrView.h"
#include "KernelEditor.h"
#include "PassesPanel.h"
#include "ProfileView.h"

SelectionLinker::SelectionLinker(DocumentController *document, KernelEditor *editor, PassesPanel *passes,
                                 AscendCView *ascendc, ConsoleView *console, InspectorState *state,
                                 ProfileView *profile, QObject *parent)
    : QObject(parent)
    , m_document(document)
    , m_editor(editor)
    , m_passes(passes)
{
    // A point, line, buffer or pipe chosen anywhere moves the rest.
    connect(state, &InspectorState::sourceLineChanged, this, [this, ascendc](int line) {
        if (line <= 0 || line == m_editor->cursorLine())
            return;
        m_editor->setLinkedLine(line);
        m_editor->goToLine(line);
        m_passes->highlightSourceLine(line);
        ascendc->setLinkedSourceLine(line);
    });
    connect(m_editor, &KernelEditor::cursorLineChanged, state, &InspectorState::selectSourceLine);
    connect(m_passes, &PassesPanel::sourceLineActivated, state, &InspectorState::selectSourceLine);
    connect(profile, &ProfileView::sourceLineActivated, state, &InspectorState::selectSourceLine);
    connect(profile, &ProfileView::lineCostsChanged, m_editor, &KernelEditor::setLineCosts);

    connect(ascendc, &AscendCView::sourceLineActivated, state, &InspectorState::selectSourceLine);

    // IR or Ascend C line -> its Python line; Python line -> its IR and Ascend C lines.
    const auto followCode = [this](int line) {
        m_editor->setLinkedLine(line);
        m_editor->goToLine(line);
    };
    connect(m_passes, &PassesPanel::sourceLineActivated, this, followCode);
    connect(ascendc, &AscendCView::sourceLineActivated, this, [this, ascendc, followCode](int line) {
        followCode(line);
        ascendc->setLinkedSourceLine(line);
    });
    connect(m_editor, &KernelEditor::cursorLineChanged, this, [this, ascendc](int line) {
        m_passes->highlightSourceLine(line);
        ascendc->setLinkedSourceLine(line);
        if (line != m_editor->linkedLine())
            m_editor->setLinkedLine(0);
    });
    connect(console, &ConsoleView::locationActivated, this, &SelectionLinker::onConsoleLocation);
}

bool SelectionLinker::selectFirstPassChangingLine()
{
    const int row = m_passes->irView()->hasFocus() && m_passes->sourceLineAtIrCursor() > 0
                        ? m_passes->selectFirstPassChangingLine()
                        : m_passes->selectFirstPassChangingSourceLine(m_editor->cursorLine());
    return row >= 0;
}

void SelectionLinker::onConsoleLocation(const QString &file, int line, int column)
{
    if (!m_document->isInEditor(file)) {
        emit statusMessage(tr("%1 is not the file in the editor").arg(file), 4000);
        return;
    }
    m_editor->goToLine(line, column);
    m_editor->setFocus();
}
