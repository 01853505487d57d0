// One selection across the views, by the kernel's source line: a line chosen
// in the editor, the IR, the Ascend C, the profile or an inspector moves the
// others, and a file location clicked in the console moves the editor.
#pragma once

#include <QObject>

class AscendCView;
class ConsoleView;
class DocumentController;
class InspectorState;
class KernelEditor;
class PassesPanel;
class ProfileView;

class SelectionLinker : public QObject
{
    Q_OBJECT
public:
    SelectionLinker(DocumentController *document, KernelEditor *editor, PassesPanel *passes, AscendCView *ascendc,
                    ConsoleView *console, InspectorState *state, ProfileView *profile, QObject *parent = nullptr);

    /// Selects the first pass that changed the IR of the line selected in the
    /// IR view when it has the focus, else of the editor's line. False: none did.
    bool selectFirstPassChangingLine();

signals:
    void statusMessage(const QString &text, int timeoutMs);

private:
    void onConsoleLocation(const QString &file, int line, int column);

    DocumentController *m_document;
    KernelEditor *m_editor;
    PassesPanel *m_passes;
};
