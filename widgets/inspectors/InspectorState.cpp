#include "InspectorState.h"

void InspectorState::selectPoint(int point, int sourceLine)
{
    if (point != m_point) {
        m_point = point;
        emit pointChanged(point);
        emit changed();
    }
    if (sourceLine > 0)
        selectSourceLine(sourceLine);
}

void InspectorState::selectSourceLine(int line)
{
    if (line == m_line)
        return;
    m_line = line;
    emit sourceLineChanged(line);
    emit changed();
}

void InspectorState::selectBuffer(const QString &name, int point, int sourceLine)
{
    if (name != m_buffer) {
        m_buffer = name;
        emit bufferChanged(name);
        emit changed();
    }
    if (point >= 0)
        selectPoint(point, sourceLine);
    else if (sourceLine > 0)
        selectSourceLine(sourceLine);
}

void InspectorState::selectPipe(int pipe)
{
    if (pipe == m_pipe)
        return;
    m_pipe = pipe;
    emit pipeChanged(pipe);
    emit changed();
}

void InspectorState::setPointWindow(double first, double last)
{
    if (first == m_first && last == m_last)
        return;
    m_first = first;
    m_last = last;
    emit pointWindowChanged(first, last);
    emit changed();
}

void InspectorState::clear()
{
    m_buffer.clear();
    m_point = -1;
    m_pipe = -1;
    m_line = 0;
    m_first = m_last = 0;
    emit changed();
}

void InspectorState::setStaleNote(const QString &note)
{
    if (note == m_staleNote)
        return;
    m_staleNote = note;
    emit staleNoteChanged(note);
}
