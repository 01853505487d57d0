// The one selection every inspector follows: a program point, a source line,
// a buffer, a pipe, plus the shared program-point window of the static views
// (UB map and static sync timeline zoom together). Setting a value that is
// already set emits nothing, so views can echo without loops.
#pragma once

#include "InspectorGeometry.h"

#include <QObject>
#include <QString>

class InspectorState : public QObject
{
    Q_OBJECT
public:
    explicit InspectorState(QObject *parent = nullptr) : QObject(parent) {}

    int point() const { return m_point; }
    int sourceLine() const { return m_line; }
    QString buffer() const { return m_buffer; }
    int pipe() const { return m_pipe; }
    /// Visible program-point window [first, last]; empty (first >= last): all.
    double pointFirst() const { return m_first; }
    double pointLast() const { return m_last; }

    /// A point selected in a view also selects its source line (0: keep).
    void selectPoint(int point, int sourceLine = 0);
    void selectSourceLine(int line);
    void selectBuffer(const QString &name, int point = -1, int sourceLine = 0);
    void selectPipe(int pipe);
    void setPointWindow(double first, double last);
    void clear();

    /// Why the results the views show are not those of the code in the editor
    /// ("": they are); the views say it in a strip at their foot.
    QString staleNote() const { return m_staleNote; }
    void setStaleNote(const QString &note);

signals:
    void pointChanged(int point);
    void sourceLineChanged(int line);
    void bufferChanged(const QString &name);
    void pipeChanged(int pipe);
    void pointWindowChanged(double first, double last);
    void staleNoteChanged(const QString &note);
    /// Any of the above.
    void changed();

private:
    int m_point = -1;
    int m_line = 0;
    QString m_buffer;
    int m_pipe = -1;
    double m_first = 0, m_last = 0;
    QString m_staleNote;
};
