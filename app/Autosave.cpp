#include "Autosave.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>

#include <algorithm>

namespace {
std::optional<Autosave::Entry> readEntry(const QString &file)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    if (!o.contains(QStringLiteral("text")))
        return std::nullopt;
    Autosave::Entry entry;
    entry.documentPath = o.value(QStringLiteral("path")).toString();
    entry.text = o.value(QStringLiteral("text")).toString();
    entry.savedAt = QDateTime::fromString(o.value(QStringLiteral("savedAt")).toString(), Qt::ISODateWithMs);
    return entry;
}
} // namespace

Autosave::Autosave(QString directory)
    : m_directory(std::move(directory))
{
}

QString Autosave::defaultDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/autosave");
}

QString Autosave::fileFor(const QString &documentPath) const
{
    const QByteArray key = documentPath.isEmpty() ? QByteArrayLiteral("untitled") : documentPath.toUtf8();
    const QByteArray hash = QCryptographicHash::hash(key, QCryptographicHash::Sha1).toHex().left(16);
    return m_directory + QLatin1Char('/') + QString::fromLatin1(hash) + QStringLiteral(".json");
}

bool Autosave::store(const QString &documentPath, const QString &text)
{
    if (!QDir().mkpath(m_directory))
        return false;
    QJsonObject o;
    o.insert(QStringLiteral("path"), documentPath);
    o.insert(QStringLiteral("text"), text);
    o.insert(QStringLiteral("savedAt"), QDateTime::currentDateTime().toString(Qt::ISODateWithMs));
    // Written aside and renamed: a kill mid-write leaves the previous copy.
    QSaveFile file(fileFor(documentPath));
    if (!file.open(QIODevice::WriteOnly))
        return false;
    file.write(QJsonDocument(o).toJson(QJsonDocument::Compact));
    return file.commit();
}

std::optional<Autosave::Entry> Autosave::find(const QString &documentPath) const
{
    return readEntry(fileFor(documentPath));
}

QVector<Autosave::Entry> Autosave::entries() const
{
    QVector<Entry> out;
    const QStringList files = QDir(m_directory).entryList({QStringLiteral("*.json")}, QDir::Files);
    for (const QString &name : files) {
        if (auto entry = readEntry(m_directory + QLatin1Char('/') + name))
            out.push_back(*entry);
    }
    std::sort(out.begin(), out.end(), [](const Entry &a, const Entry &b) { return a.savedAt > b.savedAt; });
    return out;
}

void Autosave::discard(const QString &documentPath)
{
    QFile::remove(fileFor(documentPath));
}
