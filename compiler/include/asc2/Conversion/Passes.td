//===- Passes.td - conversions -------------------------------*- tablegen -*-===//
#ifndef ASC2_CONVERSION_PASSES
#define ASC2_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertAscTileToAscendC : Pass<"convert-asctile-to-ascendc", "::mlir::ModuleOp"> {
  let summary = "Lower tile-level kernels to Ascend C basic-API ops";
  let description = [{
    Every tile value becomes a local buffer (`ascendc.alloc_local`): loads
    become `data_copy_in` of the in-bounds count with padding, stores become
    `data_copy_out` clamped to the tensor extent, tile arithmetic becomes
    vector ops on buffers. GM pointers become `!ascendc.gm` arguments.
  }];
  let options = [
    Option<"socVersion", "soc-version", "std::string", "\"c220\"",
           "Target core generation (c220: Atlas A2/A3, c310: Ascend 950): which Cast and Compare calls exist">
  ];
  let dependentDialects = ["::asc2::ascendc::AscendCDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif
