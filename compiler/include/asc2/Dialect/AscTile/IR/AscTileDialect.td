//===- AscTileDialect.td - the tile-level dialect ------------*- tablegen -*-===//
#ifndef ASCTILE_DIALECT
#define ASCTILE_DIALECT

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def AscTile_Dialect : Dialect {
  let name = "asctile";
  let cppNamespace = "::asc2::asctile";
  let summary = "Tile-level kernels as written in the asc2 Python DSL";
  let description = [{
    `asctile` is what the Python frontend produces: global-memory tensors
    (`!asctile.tensor`), value-semantics tiles in an on-chip location
    (`!asctile.tile`), loads/stores between them, and tile arithmetic through
    the `arith`/`math` dialects. Every op carries the Python source location.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::func::FuncDialect"
  ];
  let useDefaultTypePrinterParser = 1;
}

def AscTile_Location : I32EnumAttr<"TileLocation", "on-chip location of a tile", [
    I32EnumAttrCase<"UB", 0>, I32EnumAttrCase<"L1", 1>,
    I32EnumAttrCase<"L0A", 2>, I32EnumAttrCase<"L0B", 3>,
    I32EnumAttrCase<"L0C", 4>, I32EnumAttrCase<"BT", 5>,
    I32EnumAttrCase<"FIX", 6>]> {
  let cppNamespace = "::asc2::asctile";
}

#endif
