// The toolbar's settings of the next run: target platform, backend and the
// asc2.jit overrides, one labelled combo box each. A change the user makes is
// announced so the last run can be repeated with it.
#pragma once

#include <QMap>
#include <QObject>
#include <QString>
#include <QStringList>

class QComboBox;
class QToolBar;

/// Settings of the next run that the toolbar controls; empty: the kernel's own choice.
struct RunSettings {
    QString platform;    // ASC2_PLATFORM
    QString backend;     // ASC2_BACKEND
    QString insertSync;  // ASC2_JIT_INSERT_SYNC: "", "1", "0"
    QString reuseAlloc;  // ASC2_JIT_REUSE_ALLOC: "", "0", "1", "2"
};

class RunSettingsController : public QObject
{
    Q_OBJECT
public:
    /// Adds the boxes, each after its label, to the end of @p toolBar.
    explicit RunSettingsController(QToolBar *toolBar, QObject *parent = nullptr);

    RunSettings settings() const;
    void setSettings(const RunSettings &settings);
    /// Shows the platform and backend @p environment (the command line's)
    /// sets, without announcing a change: it is no reason to run again.
    void adoptEnvironment(const QMap<QString, QString> &environment);

    /// The platforms the compiler knows.
    static QStringList platforms();

signals:
    /// The user picked another value in one of the boxes.
    void changed();

private:
    QComboBox *m_platformBox = nullptr;
    QComboBox *m_backendBox = nullptr;
    QComboBox *m_insertSyncBox = nullptr;
    QComboBox *m_reuseAllocBox = nullptr;
};
