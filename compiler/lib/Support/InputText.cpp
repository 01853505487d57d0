//===- InputText.cpp - MLIR text the asc2 tools accept --------------------===//
#include "asc2/Support/InputText.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

namespace asc2 {

/// Steps over a newline (counting it), a string literal or a // comment
/// starting at text[i]; false when text[i] starts none of them. A string
/// literal ends at the end of its line, as MLIR's lexer ends it (with an
/// error: see unclosedString).
static bool skipsText(llvm::StringRef text, size_t &i, int64_t &line) {
  size_t e = text.size();
  char c = text[i];
  if (c == '\n') {
    ++line;
    return true;
  }
  if (c == '"') {
    for (++i; i < e && text[i] != '"'; ++i) {
      if (text[i] == '\n') {
        --i; // the newline is the next character
        break;
      }
      if (text[i] == '\\' && i + 1 < e && text[i + 1] != '\n')
        ++i;
    }
    return true;
  }
  if (c == '/' && i + 1 < e && text[i + 1] == '/') {
    while (i + 1 < e && text[i + 1] != '\n')
      ++i;
    return true;
  }
  return false;
}

/// The deepest bracket nesting ({[(<) of MLIR text outside string literals
/// and comments, and the 1-based line where it is first reached.
static std::pair<int64_t, int64_t> nestingDepth(llvm::StringRef text) {
  int64_t depth = 0, deepest = 0, line = 1, deepestLine = 1;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (skipsText(text, i, line)) {
      continue;
    } else if (c == '{' || c == '[' || c == '(' || c == '<') {
      if (++depth > deepest) {
        deepest = depth;
        deepestLine = line;
      }
    } else if ((c == '}' || c == ']' || c == ')' || (c == '>' && (i == 0 || text[i - 1] != '-'))) &&
               depth > 0) {
      --depth;
    }
  }
  return {deepest, deepestLine};
}

/// The first SSA value used outside the region that defines it: used before
/// any definition when that definition sits in a deeper region ("%m = f(%a)
/// ... { %a = ... }"), or never defined in the region that uses it. Such
/// input is invalid anyway, and MLIR 19's parser resolves the forward
/// reference to the other region's value, then frees that region while the
/// use still points into it when a later op fails to parse (a heap
/// use-after-free; mlir-opt 19 crashes the same way). nullopt if none.
static std::optional<InputTextProblem> outerUseOfInnerValue(llvm::StringRef text) {
  // Names defined in each open brace scope (a function's arguments count in
  // the scope around it: visible a little wider than MLIR sees them, so the
  // check only ever errs towards accepting), and uses not yet defined.
  std::vector<llvm::StringSet<>> scopes(1);
  struct Use {
    int64_t depth, line;
  };
  llvm::StringMap<Use> pending;
  int64_t line = 1;
  auto isNameChar = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' || c == '-';
  };
  auto visible = [&](llvm::StringRef name) {
    return llvm::any_of(scopes, [&](const llvm::StringSet<> &scope) { return scope.contains(name); });
  };
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (skipsText(text, i, line)) {
      continue;
    } else if (c == '{') {
      scopes.emplace_back();
    } else if (c == '}') {
      if (scopes.size() > 1)
        scopes.pop_back();
      // A use still undefined when its region ends is invalid, and MLIR 19
      // keeps it as a forward reference: a later function's definition of
      // the name resolves it across the isolated boundary (the same crash).
      int64_t depth = int64_t(scopes.size()) - 1;
      for (auto &use : pending)
        if (use.second.depth > depth)
          return InputTextProblem{use.second.line, "%" + use.first().str() +
                                  " is used but never defined in the region that uses it"};
    } else if (c == '%') {
      size_t end = i + 1;
      while (end < e && isNameChar(text[end]))
        ++end;
      if (end == i + 1)
        continue;
      llvm::StringRef name = text.slice(i + 1, end);
      // A definition: "%x =", "%x, %y =", "%x:2 =", or an argument "%x: type".
      size_t next = end;
      bool argument = next < e && text[next] == ':' && !(next + 1 < e && std::isdigit(static_cast<unsigned char>(text[next + 1])));
      if (next < e && text[next] == ':')
        for (++next; next < e && std::isdigit(static_cast<unsigned char>(text[next]));)
          ++next;
      while (next < e && (text[next] == ' ' || text[next] == '\t'))
        ++next;
      // "%x, %y = ..." defines both; "f(%x, %y)" and "iter_args(%a = %x, %b
      // = %y)" use %x and %y: a result list starts its line.
      size_t lineStart = text.rfind('\n', i);
      lineStart = lineStart == llvm::StringRef::npos ? 0 : lineStart + 1;
      bool startsLine = text.slice(lineStart, i).find_first_not_of(" \t") == llvm::StringRef::npos;
      while (startsLine && next < e && text[next] == ',') {
        size_t k = next + 1;
        while (k < e && (text[k] == ' ' || text[k] == '\t'))
          ++k;
        if (k >= e || text[k] != '%')
          break;
        for (++k; k < e && isNameChar(text[k]);)
          ++k;
        if (k < e && text[k] == ':')
          for (++k; k < e && std::isdigit(static_cast<unsigned char>(text[k]));)
            ++k;
        while (k < e && (text[k] == ' ' || text[k] == '\t'))
          ++k;
        next = k;
      }
      bool definition = argument || (next < e && text[next] == '=' && !(next + 1 < e && text[next + 1] == '='));
      int64_t depth = int64_t(scopes.size()) - 1;
      if (definition) {
        auto use = pending.find(name);
        if (use != pending.end() && use->second.depth < depth)
          return InputTextProblem{use->second.line, "%" + name.str() + " is used before it is defined (its "
                                  "definition, at line " + std::to_string(line) +
                                  ", is inside a region the use is not in)"};
        if (use != pending.end())
          pending.erase(use);
        scopes.back().insert(name);
      } else if (!visible(name) && !pending.count(name)) {
        pending[name] = Use{depth, line};
      }
      i = end - 1;
    }
  }
  return std::nullopt;
}

/// The line of the first string literal not closed on its line. MLIR's
/// lexer reports it, but its parser goes on and MLIR 19 then builds an op
/// from operands it has already freed (a heap use-after-free).
static std::optional<int64_t> unclosedString(llvm::StringRef text) {
  int64_t line = 1;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    if (text[i] == '"') {
      int64_t at = line;
      size_t start = i;
      skipsText(text, i, line);
      if (i >= e || i == start || text[i] != '"')
        return at;
    } else {
      skipsText(text, i, line);
    }
  }
  return std::nullopt;
}

std::optional<InputTextProblem> checkInputText(llvm::StringRef text, int64_t maxNesting) {
  if (size_t nul = text.find('\0'); nul != llvm::StringRef::npos)
    return InputTextProblem{int64_t(text.take_front(nul).count('\n')) + 1,
                            "the input holds a NUL byte (at byte " + std::to_string(nul) +
                                "); MLIR input is text"};
  if (auto line = unclosedString(text))
    return InputTextProblem{*line, "a string literal is not closed on its line"};
  auto [depth, line] = nestingDepth(text);
  if (depth > maxNesting)
    return InputTextProblem{line, "the input nests " + std::to_string(depth) +
                                      " levels deep; asc2-opt accepts at most " +
                                      std::to_string(maxNesting)};
  return outerUseOfInnerValue(text);
}

} // namespace asc2
