//===- AscTileOps.td -----------------------------------------*- tablegen -*-===//
#ifndef ASCTILE_OPS
#define ASCTILE_OPS

include "asc2/Dialect/AscTile/IR/AscTileDialect.td"
include "asc2/Dialect/AscTile/IR/AscTileTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

class AscTile_Op<string mnemonic, list<Trait> traits = []>
    : Op<AscTile_Dialect, mnemonic, traits>;

def AscTile_TensorOp : AscTile_Op<"tensor", [Pure]> {
  let summary = "global tensor view over a kernel pointer";
  let description = [{
    Gives a pointer a shape. One index operand per dynamic dimension.

    ```mlir
    %t = asctile.tensor %x[%n] : !asctile.ptr<f32> -> !asctile.tensor<?xf32>
    ```
  }];
  let arguments = (ins AscTile_PtrType:$ptr, Variadic<Index>:$dynamicDims);
  let results = (outs AscTile_TensorType:$result);
  let assemblyFormat = [{
    $ptr `[` $dynamicDims `]` attr-dict `:` qualified(type($ptr)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def AscTile_DimOp : AscTile_Op<"dim", [Pure]> {
  let summary = "size of one dimension of a global tensor";
  let description = [{
    ```mlir
    %n = asctile.dim %t, 0 : !asctile.tensor<?xf32>
    ```
  }];
  let arguments = (ins AscTile_TensorType:$tensor, I64Attr:$index);
  let results = (outs Index:$result);
  let assemblyFormat = "$tensor `,` $index attr-dict `:` qualified(type($tensor))";
  let hasVerifier = 1;
}

def AscTile_LoadOp : AscTile_Op<"load", [MemoryEffects<[MemRead]>]> {
  let summary = "load a tile from a global tensor (copy_in)";
  let description = [{
    Reads the tile whose first element is at `offsets` (element offsets, one
    per tensor dimension). Elements past the tensor's extent are filled with
    `pad_value` (zero when absent), so partial tiles never read out of bounds.

    ```mlir
    %a = asctile.load %t[%off] : !asctile.tensor<?xf32> -> !asctile.tile<256xf32, UB>
    ```
  }];
  let arguments = (ins AscTile_TensorType:$tensor, Variadic<Index>:$offsets,
                       OptionalAttr<TypedAttrInterface>:$pad_value);
  let results = (outs AscTile_TileType:$result);
  let assemblyFormat = [{
    $tensor `[` $offsets `]` attr-dict `:` qualified(type($tensor)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def AscTile_StoreOp : AscTile_Op<"store", [MemoryEffects<[MemWrite]>]> {
  let summary = "store a tile into a global tensor (copy_out)";
  let description = [{
    Writes `value` at `offsets`; the write is clamped to the tensor's extent.

    ```mlir
    asctile.store %c, %t[%off] : !asctile.tile<256xf32, UB>, !asctile.tensor<?xf32>
    ```
  }];
  let arguments = (ins AscTile_TileType:$value, AscTile_TensorType:$tensor,
                       Variadic<Index>:$offsets);
  let assemblyFormat = [{
    $value `,` $tensor `[` $offsets `]` attr-dict `:` qualified(type($value)) `,` qualified(type($tensor))
  }];
  let hasVerifier = 1;
}

def AscTile_BlockIdxOp : AscTile_Op<"block_idx", [Pure]> {
  let summary = "index of the core running this block";
  let description = "`%i = asctile.block_idx`";
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
}

def AscTile_BlockNumOp : AscTile_Op<"block_num", [Pure]> {
  let summary = "number of blocks in the launch";
  let description = "`%n = asctile.block_num`";
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
}

def AscTile_SplatOp : AscTile_Op<"splat", [Pure]> {
  let summary = "tile with every element equal to a scalar";
  let description = [{
    ```mlir
    %s = asctile.splat %v : f32 -> !asctile.tile<256xf32, UB>
    ```
  }];
  let arguments = (ins AnyType:$value);
  let results = (outs AscTile_TileType:$result);
  let assemblyFormat = "$value attr-dict `:` type($value) `->` qualified(type($result))";
  let hasVerifier = 1;
}

#endif
