//===- Pipe.h - The hardware pipes of an AI core ----------------*- C++ -*-===//
//
// The one definition of the pipes (Ascend C pipe_t). The ascendc dialect's
// pipe attribute, the simulator, the report and the workbench all use this
// enum and these names; no other layer keeps a pipe enum or a name table.
// Plain C++ (no MLIR, no Qt) so every layer can include it.
//
//===----------------------------------------------------------------------===//
#ifndef ASC2_ARCH_PIPE_H
#define ASC2_ARCH_PIPE_H

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace asc2 {

/// Values are the ascendc dialect's attribute encoding (printed IR uses the
/// names). ALL is PIPE_ALL: only a barrier names it; nothing executes on it.
enum class Pipe : uint8_t { S, V, M, MTE1, MTE2, MTE3, FIX, ALL };

/// The pipes instructions execute on (every Pipe but ALL).
constexpr int kNumPipes = 7;

inline constexpr std::array<const char *, kNumPipes + 1> kPipeNames = {
    "S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX", "ALL"};

/// "S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX", "ALL".
constexpr const char *pipeName(Pipe p) {
  return kPipeNames[static_cast<unsigned>(p)];
}

/// Ascend C's pipe_t spelling: "PIPE_S", "PIPE_V", ..., "PIPE_ALL".
constexpr const char *pipeApiName(Pipe p) {
  constexpr std::array<const char *, kNumPipes + 1> names = {
      "PIPE_S",    "PIPE_V",    "PIPE_M",   "PIPE_MTE1",
      "PIPE_MTE2", "PIPE_MTE3", "PIPE_FIX", "PIPE_ALL"};
  return names[static_cast<unsigned>(p)];
}

/// The pipe's lane (tid name) in msprof's op-simulator trace.json: "SCALAR",
/// "VECTOR", "CUBE", "MTE1", "MTE2", "MTE3", "FIXP" ("ALL" for PIPE_ALL).
constexpr const char *pipeTraceLaneName(Pipe p) {
  constexpr std::array<const char *, kNumPipes + 1> names = {
      "SCALAR", "VECTOR", "CUBE", "MTE1", "MTE2", "MTE3", "FIXP", "ALL"};
  return names[static_cast<unsigned>(p)];
}

/// The pipe named `name`, in any of the spellings pipes go by: "MTE2",
/// Ascend C's "PIPE_MTE2", the trace lane "MTE2"/"VECTOR"/"CUBE"/"FIXP", and
/// the aliases msprof data and hand-written traces use ("VEC", "FIXPIPE").
/// Case-insensitive: imported files are not consistent about it.
constexpr std::optional<Pipe> parsePipe(std::string_view name) {
  auto upper = [](char c) { return c >= 'a' && c <= 'z' ? char(c - 'a' + 'A') : c; };
  auto same = [&](std::string_view a, std::string_view b) {
    if (a.size() != b.size())
      return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (upper(a[i]) != upper(b[i]))
        return false;
    return true;
  };
  if (name.size() > 5 && same(name.substr(0, 5), "PIPE_"))
    name.remove_prefix(5);
  for (unsigned i = 0; i < kPipeNames.size(); ++i) {
    Pipe p = static_cast<Pipe>(i);
    if (same(pipeName(p), name) || same(pipeTraceLaneName(p), name))
      return p;
  }
  if (same(name, "VEC"))
    return Pipe::V;
  if (same(name, "FIXPIPE"))
    return Pipe::FIX;
  return std::nullopt;
}

/// The pipes in the order the workbench's timelines and tables show them: the
/// vector kernel's path first (scalar, GM -> UB, vector, UB -> GM), then the
/// cube's (L1 -> L0, cube, fixpipe).
inline constexpr std::array<Pipe, kNumPipes> kPipeLaneOrder = {
    Pipe::S, Pipe::MTE2, Pipe::V, Pipe::MTE3, Pipe::MTE1, Pipe::M, Pipe::FIX};

/// The lane `p` is shown in: its position in kPipeLaneOrder (-1 for ALL).
constexpr int pipeLaneIndex(Pipe p) {
  for (int i = 0; i < kNumPipes; ++i)
    if (kPipeLaneOrder[i] == p)
      return i;
  return -1;
}

} // namespace asc2

#endif
