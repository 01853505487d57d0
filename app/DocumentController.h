// The file in the editor: its path, Open/Save/Save As with the question about
// unsaved changes, the Open Recent and Samples menus, and the autosaved copy
// of a buffer that was never saved.
#pragma once

#include "Autosave.h"

#include <QObject>
#include <QTimer>

#include <memory>

class KernelEditor;
class QMenu;
class QWidget;

class DocumentController : public QObject
{
    Q_OBJECT
public:
    /// @p persist: remember recent files in QSettings and autosave unsaved
    /// buffers. @p window parents the dialogs.
    DocumentController(KernelEditor *editor, bool persist, QWidget *window);
    ~DocumentController() override;

    /// Fills @p recent and @p samples now and whenever they change.
    void setMenus(QMenu *recent, QMenu *samples);

    QString filePath() const { return m_filePath; }
    /// Whether @p path names the file in the editor; an untitled buffer runs
    /// as untitled.py, so any untitled.py is it.
    bool isInEditor(const QString &path) const;
    /// Whether @p a and @p b are the same file on disk.
    static bool sameFile(const QString &a, const QString &b);

    bool openFile(const QString &path, QString *error = nullptr);
    /// File > New: after offering to save the current buffer, an untitled
    /// one holding a small kernel that runs as it is (resources/new_kernel.py).
    /// False: the user cancelled.
    bool newFile();
    /// The text of a new buffer.
    static QString newKernelText();
    /// The Open dialog, after offering to save the current buffer.
    void open();
    bool save();
    bool saveAs();
    /// Offers to save unsaved changes; false: the user cancelled.
    bool maybeSave();

    QStringList recentFiles() const;
    /// A sample's description: the first paragraph of its docstring.
    static QString sampleDescription(const QString &path);
    /// Its Samples menu entry: the description, cut at a word with an
    /// ellipsis when longer than @p maxLength.
    static QString sampleSummary(const QString &path, int maxLength = 120);
    static QString samplesDirectory();

    /// Puts back an autosaved copy of the buffer for the open file (or, with
    /// none open, the newest copy). Returns whether one was restored.
    bool restoreAutosave();
    void setAutosaveInterval(int ms);
    Autosave *autosave() const { return m_autosave.get(); }

signals:
    void filePathChanged(const QString &path);
    /// A file replaced the editor's text: what showed the old one is stale.
    void opened(const QString &path);
    void statusMessage(const QString &text, int timeoutMs);
    /// For the console: something the user should know happened to the buffer.
    void notice(const QString &text);

private:
    bool saveTo(const QString &path);
    /// The editor shows @p text as the (unmodified) buffer of @p path ("": untitled).
    void replaceBuffer(const QString &text, const QString &path);
    void setFilePath(const QString &path);
    void openFromMenu(const QString &path, const QString &title);
    void addRecentFile(const QString &path);
    void rebuildRecentMenu();
    void rebuildSamplesMenu();
    void autosaveTick();

    KernelEditor *m_editor;
    bool m_persist;
    QWidget *m_window;
    QString m_filePath;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_samplesMenu = nullptr;

    std::unique_ptr<Autosave> m_autosave;
    QTimer m_autosaveTimer;
    QString m_lastAutosavedText;
};
