//===- asc2-tblgen.cpp - Tables generated from the ascendc op records -----===//
//
// The ascendc dialect's .td records are the one place an elementwise vector
// op is declared: besides what mlir-tblgen reads (operands, format, API
// name), each record names the simulator operation it executes as, its cost
// key and the arith/math ops that lower to it (AscendC_VecElementwise in
// AscendCVectorOps.td). This backend turns those fields into X-macro lists,
// so the simulator's VecOp enum, the cost-key table, the lowering, the
// simulator program builder and the emitter have no hand-written list of
// these ops.
//
//   -gen-sim-vec-ops       ASC2_VEC_OP(Name, "costkey", arity) per distinct
//                          simulator op (plain C++: the Sim library uses it)
//   -gen-vec-op-dispatch   ASC2_VEC_BINARY(Op, ScalarForm, SimOp),
//                          ASC2_VEC_SCALAR(Op, SimOp), ASC2_VEC_UNARY(Op,
//                          SimOp), ASC2_LOWER_BINARY(SourceOp, Op,
//                          ScalarForm), ASC2_LOWER_UNARY(SourceOp, Op)
//
//===----------------------------------------------------------------------===//
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/TableGen/Error.h"
#include "llvm/TableGen/Main.h"
#include "llvm/TableGen/Record.h"
#include "llvm/TableGen/TableGenBackend.h"

#include <algorithm>
#include <vector>

using namespace llvm;

namespace {

enum class Action { SimVecOps, VecOpDispatch };

cl::opt<Action> action(
    cl::desc("What to generate:"),
    cl::values(clEnumValN(Action::SimVecOps, "gen-sim-vec-ops",
                          "the simulator's vector operations (VecOp)"),
               clEnumValN(Action::VecOpDispatch, "gen-vec-op-dispatch",
                          "lowering / builder / emitter dispatch lists")));

/// C++ class of an op record, as mlir-tblgen names it: the def name without
/// the dialect prefix ("AscendC_AddOp" -> "AddOp").
StringRef cppClassName(const Record *r) {
  StringRef name = r->getName();
  size_t underscore = name.find('_');
  return underscore == StringRef::npos ? name : name.drop_front(underscore + 1);
}

/// The elementwise op records in the order the .td declares them.
std::vector<Record *> elementwiseOps(RecordKeeper &records) {
  std::vector<Record *> ops =
      records.getAllDerivedDefinitions("AscendC_VecElementwise");
  std::sort(ops.begin(), ops.end(), [](const Record *a, const Record *b) {
    return a->getID() < b->getID();
  });
  return ops;
}

unsigned arityOf(const Record *r) {
  return r->getValueAsString("vecFamily") == "unary" ? 1 : 2;
}

bool emitSimVecOps(raw_ostream &os, RecordKeeper &records) {
  emitSourceFileHeader(
      "Simulator vector operations (from the ascendc op records)", os);
  os << "// ASC2_VEC_OP(Name, \"cost key\", arity)\n";
  StringMap<const Record *> seen;
  for (const Record *r : elementwiseOps(records)) {
    StringRef simOp = r->getValueAsString("simOp");
    StringRef costKey = r->getValueAsString("costKey");
    auto [it, inserted] = seen.try_emplace(simOp, r);
    if (!inserted) {
      const Record *first = it->second;
      if (arityOf(first) != arityOf(r) ||
          first->getValueAsString("costKey") != costKey)
        PrintFatalError(r->getLoc(), "simOp '" + simOp +
                                         "' is also declared by " +
                                         first->getName() +
                                         " with another arity or cost key");
      continue;
    }
    os << formatv("ASC2_VEC_OP({0}, \"{1}\", {2})\n", simOp, costKey,
                  arityOf(r));
  }
  os << "#undef ASC2_VEC_OP\n";
  return false;
}

bool emitDispatch(raw_ostream &os, RecordKeeper &records) {
  emitSourceFileHeader(
      "ascendc elementwise op dispatch (from the ascendc op records)", os);
  const char *defaults[] = {"ASC2_VEC_BINARY(Op, ScalarForm, SimOp)",
                            "ASC2_VEC_SCALAR(Op, SimOp)",
                            "ASC2_VEC_UNARY(Op, SimOp)",
                            "ASC2_LOWER_BINARY(SourceOp, Op, ScalarForm)",
                            "ASC2_LOWER_UNARY(SourceOp, Op)"};
  // Each list is optional for its user: undefined macros expand to nothing.
  for (StringRef d : defaults) {
    StringRef macro = d.take_until([](char c) { return c == '('; });
    os << "#ifndef " << macro << "\n#define " << d << "\n#endif\n";
  }
  for (const Record *r : elementwiseOps(records)) {
    StringRef family = r->getValueAsString("vecFamily");
    StringRef op = cppClassName(r);
    StringRef simOp = r->getValueAsString("simOp");
    StringRef scalarForm;
    if (family == "binary") {
      // A binary op without a vector-scalar form (AddRelu) is only built by
      // hand or by patterns: the lowering needs the scalar form for splats.
      std::vector<Record *> forms = r->getValueAsListOfDefs("scalarForm");
      if (forms.size() > 1)
        PrintFatalError(r->getLoc(),
                        r->getName() + " has more than one scalarForm");
      const Record *s = forms.empty() ? nullptr : forms.front();
      if (s && (!s->isSubClassOf("AscendC_VecElementwise") ||
                s->getValueAsString("vecFamily") != "scalar"))
        PrintFatalError(r->getLoc(), "scalarForm of " + r->getName() +
                                         " must be a vector-scalar op");
      scalarForm = s ? cppClassName(s) : StringRef();
      os << formatv("ASC2_VEC_BINARY({0}, {1}, {2})\n", op, scalarForm, simOp);
    } else if (family == "scalar") {
      os << formatv("ASC2_VEC_SCALAR({0}, {1})\n", op, simOp);
    } else if (family == "unary") {
      os << formatv("ASC2_VEC_UNARY({0}, {1})\n", op, simOp);
    } else {
      PrintFatalError(r->getLoc(), "unknown vecFamily '" + family + "'");
    }
    for (StringRef source : r->getValueAsListOfStrings("lowersFrom")) {
      // Without a vector-scalar call (Xor; And/Or on A2/A3) the scalar form
      // is the op itself: the lowering Duplicates the scalar into a buffer.
      if (family == "binary")
        os << formatv("ASC2_LOWER_BINARY({0}, {1}, {2})\n", source, op,
                      scalarForm.empty() ? op : scalarForm);
      else if (family == "unary")
        os << formatv("ASC2_LOWER_UNARY({0}, {1})\n", source, op);
      else
        PrintFatalError(r->getLoc(),
                        "a vector-scalar op is lowered through its tensor "
                        "form's scalarForm; lowersFrom belongs there");
    }
  }
  for (StringRef d : defaults)
    os << "#undef " << d.take_until([](char c) { return c == '('; }) << "\n";
  return false;
}

bool generate(raw_ostream &os, RecordKeeper &records) {
  switch (action) {
  case Action::SimVecOps:
    return emitSimVecOps(os, records);
  case Action::VecOpDispatch:
    return emitDispatch(os, records);
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv);
  return TableGenMain(argv[0], &generate);
}
