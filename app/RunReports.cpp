#include "RunReports.h"

#include <functional>

std::string RunReports::compileKey(const asc2::CompileReport &report)
{
    // The same kernel specialised differently emits different code; the same
    // compile reported again (with its launches) emits the same.
    std::string key = report.kernel + '\n' + report.target + '\n' + report.sourceFile + '\n';
    for (const auto &[name, value] : report.options)
        key += name + '=' + value + ';';
    key += '\n' + std::to_string(std::hash<std::string>{}(report.ascendc));
    return key;
}

int RunReports::add(asc2::ReportEvent event, ReportPtr report)
{
    if (!report)
        return -1;
    const std::string key = compileKey(*report);
    int index = -1;
    for (size_t i = 0; i < m_keys.size(); ++i) {
        if (m_keys[i] == key) {
            index = int(i);
            break;
        }
    }
    if (index < 0) {
        m_keys.push_back(key);
        m_kernels.push_back(report);
        index = int(m_kernels.size()) - 1;
    } else if (event == asc2::ReportEvent::Compiled && report->launches.empty()
               && !m_kernels[index]->launches.empty()) {
        // Compiled again to the same code: its launches so far still count.
        auto merged = std::make_shared<asc2::CompileReport>(*report);
        merged->launches = m_kernels[index]->launches;
        report = merged;
        m_kernels[index] = report;
    } else {
        m_kernels[index] = report;
    }
    m_latest = index;
    if (event == asc2::ReportEvent::Launched && !report->launches.empty())
        m_lastLaunched = report;
    return index;
}

void RunReports::clear()
{
    m_kernels.clear();
    m_keys.clear();
    m_latest = -1;
    m_lastLaunched.reset();
}

QStringList RunReports::problems() const
{
    QStringList result;
    for (const ReportPtr &report : m_kernels) {
        const QString kernel = QString::fromStdString(report->kernel);
        for (const asc2::DiagnosticRecord &d : report->diagnostics) {
            if (d.severity == asc2::Severity::Error)
                result << QStringLiteral("%1: error: %2").arg(kernel, QString::fromStdString(d.message));
        }
        for (size_t i = 0; i < report->launches.size(); ++i) {
            const asc2::LaunchRecord &launch = report->launches[i];
            if (!launch.ok && launch.error == "cancelled") {
                result << QStringLiteral("%1: launch %2 was stopped before it finished").arg(kernel).arg(i + 1);
            } else if (!launch.ok) {
                result << QStringLiteral("%1: launch %2 failed: %3")
                              .arg(kernel)
                              .arg(i + 1)
                              .arg(QString::fromStdString(launch.error));
            }
            if (launch.races > 0) {
                result << QStringLiteral("%1: launch %2 has %3 data race(s)").arg(kernel).arg(i + 1).arg(launch.races);
                for (const std::string &message : launch.raceMessages)
                    result << QStringLiteral("  ") + QString::fromStdString(message);
            }
        }
    }
    return result;
}
