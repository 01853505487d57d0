// Copies of unsaved editor buffers, one per document, so a crash or a kill
// loses at most a few seconds of typing. Kept until the document is saved or
// its changes are knowingly discarded.
#pragma once

#include <QDateTime>
#include <QString>
#include <QVector>

#include <optional>

class Autosave
{
public:
    struct Entry {
        QString documentPath; // empty: an untitled buffer
        QString text;
        QDateTime savedAt;
    };

    /// @p directory: where the copies live (created on first store).
    explicit Autosave(QString directory = defaultDirectory());
    /// <AppDataLocation>/autosave
    static QString defaultDirectory();
    QString directory() const { return m_directory; }

    bool store(const QString &documentPath, const QString &text);
    std::optional<Entry> find(const QString &documentPath) const;
    /// Every stored copy, newest first.
    QVector<Entry> entries() const;
    void discard(const QString &documentPath);

private:
    QString fileFor(const QString &documentPath) const;

    QString m_directory;
};
