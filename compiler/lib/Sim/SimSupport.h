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

/// Calls fn(lo, hi) for the byte ranges of `rows` rows of `rowBytes` bytes,
/// `strideBytes` apart from `addr`: one range when the rows are contiguous.
template <typename Fn>
void forEachRow(int64_t addr, int64_t rows, int64_t rowBytes,
                int64_t strideBytes, Fn fn) {
  if (rows <= 0 || rowBytes <= 0)
    return;
  if (strideBytes == rowBytes || rows == 1) {
    fn(addr, addr + (rows - 1) * strideBytes + rowBytes);
    return;
  }
  for (int64_t r = 0; r < rows; ++r)
    fn(addr + r * strideBytes, addr + r * strideBytes + rowBytes);
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
