//===- SimSupport.h - Helpers shared by the simulator's parts -----*- C++ -*-===//
#ifndef ASC2_LIB_SIM_SIMSUPPORT_H
#define ASC2_LIB_SIM_SIMSUPPORT_H

#include "asc2/Sim/Program.h"

#include <climits>
#include <cstdint>
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

/// The error for a block stopped at the step limit (SimOptions::maxSteps)
/// while at instruction `pc`: it names the innermost loop around `pc` (the
/// backward jump spanning it), which is where an endless run spins.
inline std::string stepLimitMessage(const Program &program, int32_t pc, int block,
                                    uint64_t limit) {
  int32_t loopLoc = -1, span = INT32_MAX;
  for (int32_t j = pc; j < int32_t(program.code.size()); ++j) {
    const Instr &in = program.code[j];
    if (in.op == Opcode::Jump && in.target >= 0 && in.target <= pc &&
        j - in.target < span && in.loc >= 0) {
      span = j - in.target;
      loopLoc = in.loc;
    }
  }
  const int32_t loc = loopLoc >= 0 ? loopLoc : program.code[pc].loc;
  return "block " + std::to_string(block) + " ran past the step limit of " +
         std::to_string(limit) + " instructions without finishing, in the " +
         std::string(loopLoc >= 0 ? "loop" : "code") + " at " + locText(program, loc) +
         " (a trip count that large, or a loop that never ends?); the limit is "
         "ASC2_MAX_STEPS (asc2-workbench --max-steps N), 0 for none";
}

} // namespace asc2::sim

#endif
