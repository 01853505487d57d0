// The compile reports one run produced: one entry per compiled kernel (a
// kernel compiled again for other shapes or options is a separate entry),
// updated in place as its launches arrive.
#pragma once

#include "ReportPtr.h"

#include <QStringList>
#include <QVector>

class RunReports
{
public:
    /// Adds or updates the entry of @p report; returns its index.
    int add(asc2::ReportEvent event, ReportPtr report);
    void clear();

    bool isEmpty() const { return m_kernels.isEmpty(); }
    int size() const { return int(m_kernels.size()); }
    const QVector<ReportPtr> &kernels() const { return m_kernels; }
    /// Index of the entry that changed last, or -1.
    int latestIndex() const { return m_latest; }
    /// The report of the most recent launch, or null when nothing ran.
    ReportPtr lastLaunched() const { return m_lastLaunched; }

    /// Failed launches, races and error diagnostics, one line each.
    QStringList problems() const;

    /// Identity of a compiled kernel within a run.
    static std::string compileKey(const asc2::CompileReport &report);

private:
    QVector<ReportPtr> m_kernels;
    std::vector<std::string> m_keys;
    int m_latest = -1;
    ReportPtr m_lastLaunched;
};
