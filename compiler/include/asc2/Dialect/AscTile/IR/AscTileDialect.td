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
  // asctile.unroll_factor, asctile.parallel, ... on scf.for: checked where
  // they are read would let a bad value ("two", 0, 2^40) pass silently.
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// The largest asctile.unroll_factor (the frontend's bound too).
    static constexpr int64_t kMaxUnrollFactor = 1024;
    /// The most operations a kernel may grow to (the frontend's
    /// MAX_KERNEL_OPS too): unrolling past it is a compile error at the loop.
    static constexpr int64_t kMaxKernelOps = 400000;
  }];
}

def AscTile_Location : I32EnumAttr<"TileLocation", "on-chip location of a tile", [
    I32EnumAttrCase<"UB", 0>, I32EnumAttrCase<"L1", 1>,
    I32EnumAttrCase<"L0A", 2>, I32EnumAttrCase<"L0B", 3>,
    I32EnumAttrCase<"L0C", 4>, I32EnumAttrCase<"BT", 5>,
    I32EnumAttrCase<"FIX", 6>]> {
  let cppNamespace = "::asc2::asctile";
}

def AscTile_CmpPredicate : I32EnumAttr<"CmpPredicate", "elementwise comparison", [
    I32EnumAttrCase<"lt", 0>, I32EnumAttrCase<"le", 1>, I32EnumAttrCase<"gt", 2>,
    I32EnumAttrCase<"ge", 3>, I32EnumAttrCase<"eq", 4>, I32EnumAttrCase<"ne", 5>]> {
  let cppNamespace = "::asc2::asctile";
}

def AscTile_RoundMode : I32EnumAttr<"RoundMode", "rounding of a cast", [
    I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"rint", 1>,
    I32EnumAttrCase<"floor", 2>, I32EnumAttrCase<"ceil", 3>,
    I32EnumAttrCase<"round", 4>, I32EnumAttrCase<"trunc", 5>,
    I32EnumAttrCase<"odd", 6>]> {
  let cppNamespace = "::asc2::asctile";
}

def AscTile_ReduceKind : I32EnumAttr<"ReduceKind", "reduction", [
    I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"max", 1>,
    I32EnumAttrCase<"min", 2>, I32EnumAttrCase<"prod", 3>]> {
  let cppNamespace = "::asc2::asctile";
}

def AscTile_AtomicKind : I32EnumAttr<"AtomicKind", "atomic read-modify-write", [
    I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"max", 1>,
    I32EnumAttrCase<"min", 2>]> {
  let cppNamespace = "::asc2::asctile";
}

#endif
