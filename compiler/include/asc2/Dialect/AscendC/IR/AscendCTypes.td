//===- AscendCTypes.td ---------------------------------------*- tablegen -*-===//
#ifndef ASCENDC_TYPES
#define ASCENDC_TYPES

include "asc2/Dialect/AscendC/IR/AscendCDialect.td"

class AscendC_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<AscendC_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def AscendC_GlobalType : AscendC_Type<"Global", "gm"> {
  let summary = "GlobalTensor over a kernel argument";
  let description = "`!ascendc.gm<f32>`: element type only; offsets are in elements.";
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
}

def AscendC_LocalType : AscendC_Type<"Local", "local"> {
  let summary = "LocalTensor: a buffer in on-chip memory";
  let description = [{
    `!ascendc.local<256xf32, VECIN>`: a statically sized buffer at a
    TPosition. Its byte offset is an attribute of the op that allocates it.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        "::asc2::ascendc::Position":$position);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    int64_t getNumElements() const;
    int64_t getSizeInBytes() const;
    /// Memory space of the position: "UB", "L1", "L0A", "L0B", "L0C".
    ::llvm::StringRef getSpaceName() const;
  }];
}

#endif
