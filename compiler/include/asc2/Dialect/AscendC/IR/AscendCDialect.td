//===- AscendCDialect.td - the Ascend C basic-API dialect ----*- tablegen -*-===//
#ifndef ASCENDC_DIALECT
#define ASCENDC_DIALECT

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def AscendC_Dialect : Dialect {
  let name = "ascendc";
  let cppNamespace = "::asc2::ascendc";
  let summary = "Ascend C basic_api level: buffers, pipes, flags";
  let description = [{
    One op per Ascend C basic API call. Local buffers have a position and,
    after memory planning, a byte offset; every op names the pipe it runs on
    and the buffers it reads and writes (op interfaces), which is all sync
    insertion, memory planning, the simulator and the GUI need.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::func::FuncDialect"
  ];
  let useDefaultTypePrinterParser = 1;
}

// A pipe attribute holds an asc2::Pipe (asc2/Arch/Pipe.h, the one pipe enum
// every layer shares) as an i32; the IR prints and parses its name (MTE2,
// V, ..., ALL) through the custom<PipeName> directive.
def AscendC_PipeBase : SignlessIntegerAttrBase<I32, "hardware pipe"> {
  let returnType = "::asc2::Pipe";
  let convertFromStorage =
      "static_cast<::asc2::Pipe>($_self.getValue().getZExtValue())";
  let constBuilderCall = "$_builder.getIntegerAttr($_builder.getIntegerType(32), "
                         "static_cast<int64_t>($0))";
}
def AscendC_Pipe : ConfinedAttr<AscendC_PipeBase,
    [IntMinValue<0>, IntMaxValue<7>]>;

def AscendC_Position : I32EnumAttr<"Position", "TPosition of a local buffer", [
    I32EnumAttrCase<"VECIN", 0>, I32EnumAttrCase<"VECOUT", 1>,
    I32EnumAttrCase<"VECCALC", 2>, I32EnumAttrCase<"A1", 3>,
    I32EnumAttrCase<"B1", 4>, I32EnumAttrCase<"A2", 5>,
    I32EnumAttrCase<"B2", 6>, I32EnumAttrCase<"CO1", 7>,
    I32EnumAttrCase<"CO2", 8>, I32EnumAttrCase<"C2", 9>]> {
  let cppNamespace = "::asc2::ascendc";
}

def AscendC_CmpMode : I32EnumAttr<"CmpMode", "Compare CMPMODE", [
    I32EnumAttrCase<"LT", 0>, I32EnumAttrCase<"LE", 1>, I32EnumAttrCase<"GT", 2>,
    I32EnumAttrCase<"GE", 3>, I32EnumAttrCase<"EQ", 4>, I32EnumAttrCase<"NE", 5>]> {
  let cppNamespace = "::asc2::ascendc";
}

def AscendC_RoundMode : I32EnumAttr<"RoundMode", "Cast RoundMode", [
    I32EnumAttrCase<"CAST_NONE", 0>, I32EnumAttrCase<"CAST_RINT", 1>,
    I32EnumAttrCase<"CAST_FLOOR", 2>, I32EnumAttrCase<"CAST_CEIL", 3>,
    I32EnumAttrCase<"CAST_ROUND", 4>, I32EnumAttrCase<"CAST_TRUNC", 5>,
    I32EnumAttrCase<"CAST_ODD", 6>]> {
  let cppNamespace = "::asc2::ascendc";
}

def AscendC_ReduceKind : I32EnumAttr<"ReduceKind", "reduction", [
    I32EnumAttrCase<"SUM", 0>, I32EnumAttrCase<"MAX", 1>,
    I32EnumAttrCase<"MIN", 2>, I32EnumAttrCase<"PROD", 3>]> {
  let cppNamespace = "::asc2::ascendc";
}

def AscendC_AtomicKind : I32EnumAttr<"AtomicKind", "SetAtomic* mode of a copy to GM", [
    I32EnumAttrCase<"NONE", 0>, I32EnumAttrCase<"ADD", 1>,
    I32EnumAttrCase<"MAX", 2>, I32EnumAttrCase<"MIN", 3>]> {
  let cppNamespace = "::asc2::ascendc";
}

#endif
