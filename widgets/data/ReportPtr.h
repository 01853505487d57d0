// The compile report as the GUI passes it around: immutable and shared, so a
// report published on the Python thread can be handed to any view unchanged.
#pragma once

#include "asc2/Report/CompileReport.h"
#include "asc2/Report/ReportHub.h"

#include <QMetaType>

#include <memory>

using ReportPtr = std::shared_ptr<const asc2::CompileReport>;

Q_DECLARE_METATYPE(ReportPtr)
Q_DECLARE_METATYPE(asc2::ReportEvent)
