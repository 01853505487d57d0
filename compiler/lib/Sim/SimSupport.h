//===- SimSupport.h - Helpers shared by the simulator's parts -----*- C++ -*-===//
#ifndef ASC2_LIB_SIM_SIMSUPPORT_H
#define ASC2_LIB_SIM_SIMSUPPORT_H

#include "asc2/Sim/Program.h"

#include <string>

namespace asc2::sim {

/// Mnemonic of the op an instruction came from ("ascendc.data_copy").
inline std::string opName(const Program &program, const Instr &instr) {
  if (instr.point >= 0 && size_t(instr.point) < program.pointNames.size())
    return program.pointNames[instr.point];
  return "<op at point " + std::to_string(instr.point) + ">";
}

/// "file:line:col" of an instruction, or "unknown location".
inline std::string locText(const Program &program, int32_t loc) {
  if (loc < 0 || size_t(loc) >= program.locs.size())
    return "unknown location";
  const SourceLoc &l = program.locs[loc];
  return l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.col);
}

} // namespace asc2::sim

#endif
