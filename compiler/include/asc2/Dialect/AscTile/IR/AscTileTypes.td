//===- AscTileTypes.td ---------------------------------------*- tablegen -*-===//
#ifndef ASCTILE_TYPES
#define ASCTILE_TYPES

include "asc2/Dialect/AscTile/IR/AscTileDialect.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

// Tiles are values: arith/math accept them as elementwise containers.
def AscTile_ValueSemantics : NativeTypeTrait<"ValueSemantics"> {
  let cppNamespace = "::mlir";
}

class AscTile_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<AscTile_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def AscTile_PtrType : AscTile_Type<"Ptr", "ptr"> {
  let summary = "pointer to global memory (a kernel argument)";
  let description = [{
    A `GlobalAddress` kernel parameter: `!asctile.ptr<f32>`.
  }];
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
}

def AscTile_TensorType : AscTile_Type<"Tensor", "tensor"> {
  let summary = "global-memory tensor descriptor";
  let description = [{
    A view of global memory with a shape; `?` dimensions are read at run
    time: `!asctile.tensor<?x1024xf16>`.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
    unsigned getNumDynamicDims() const;
  }];
}

def AscTile_TileType : AscTile_Type<"Tile", "tile",
    [ShapedTypeInterface, AscTile_ValueSemantics]> {
  let summary = "value-semantics tile in an on-chip location";
  let description = [{
    `!asctile.tile<1x1024xf32, UB>`: a statically shaped tile. It is a
    shaped type with value semantics, so `arith` and `math` ops apply to it
    elementwise (`arith.addf %a, %b : !asctile.tile<256xf32, UB>`).
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        "::asc2::asctile::TileLocation":$location);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool hasRank() const { return true; }
    ::mlir::ShapedType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                                 ::mlir::Type elementType) const;
    int64_t getNumElements() const;
    int64_t getSizeInBytes() const;
  }];
}

#endif
