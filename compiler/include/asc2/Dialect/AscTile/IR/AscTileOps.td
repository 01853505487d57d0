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

def AscTile_LoadOp : AscTile_Op<"load", [MemoryEffects<[MemRead]>, AttrSizedOperandSegments]> {
  let summary = "load a tile from a global tensor (copy_in)";
  let description = [{
    Reads the tile whose first element is at `offsets` (element offsets, one
    per tensor dimension). Elements past the tensor's extent are filled with
    `pad_value` (zero when absent), so partial tiles never read out of bounds.
    The optional `real_shape` (one extent per dimension, runtime values
    allowed) limits the read further: only the leading `real_shape` part of
    the tile is read, the rest is padded too.

    ```mlir
    %a = asctile.load %t[%off] : !asctile.tensor<?xf32> -> !asctile.tile<256xf32, UB>
    %b = asctile.load %t[%off] real_shape [%n] {pad_value = 0.0 : f32}
        : !asctile.tensor<?xf32> -> !asctile.tile<256xf32, UB>
    ```
  }];
  let arguments = (ins AscTile_TensorType:$tensor, Variadic<Index>:$offsets,
                       Variadic<Index>:$real_shape,
                       OptionalAttr<TypedAttrInterface>:$pad_value);
  let results = (outs AscTile_TileType:$result);
  let assemblyFormat = [{
    $tensor `[` $offsets `]` (`real_shape` `[` $real_shape^ `]`)? attr-dict `:` qualified(type($tensor))
    `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def AscTile_LoadTransposedOp : AscTile_Op<"load_transposed",
    [MemoryEffects<[MemRead]>, AttrSizedOperandSegments]> {
  let summary = "load a tile and permute its dimensions in one DMA";
  let description = [{
    The tile `asctile.load` would read at `offsets` (with the same
    `real_shape` and `pad_value`; both in the tensor's dimension order),
    transposed by `permutation` (numpy's `axes`: result dimension i is the
    loaded box's dimension permutation[i]). One N-dimensional DMA with
    element strides on targets that have it (Ascend950); made by
    `asctile-fold-transpose-into-load` from a load whose only use is a
    transpose, so no second UB tile holds the untransposed data.

    ```mlir
    %t = asctile.load_transposed %x[%i, %c0, %c0] {permutation = array<i64: 0, 2, 1>}
        : !asctile.tensor<4096x39x1500xf32> -> !asctile.tile<1x1504x40xf32, UB>
    ```
  }];
  let arguments = (ins AscTile_TensorType:$tensor, Variadic<Index>:$offsets,
                       Variadic<Index>:$real_shape,
                       DenseI64ArrayAttr:$permutation,
                       OptionalAttr<TypedAttrInterface>:$pad_value);
  let results = (outs AscTile_TileType:$result);
  let extraClassDeclaration = [{
    /// The box read from the tensor, in the tensor's dimension order (the
    /// result's shape permuted back).
    ::llvm::SmallVector<int64_t> getSourceShape();
  }];
  let assemblyFormat = [{
    $tensor `[` $offsets `]` (`real_shape` `[` $real_shape^ `]`)? attr-dict `:` qualified(type($tensor))
    `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def AscTile_StoreOp : AscTile_Op<"store", [MemoryEffects<[MemWrite]>, AttrSizedOperandSegments]> {
  let summary = "store a tile into a global tensor (copy_out)";
  let description = [{
    Writes `value` at `offsets`; the write is clamped to the tensor's extent
    and, when `real_shape` is given (one extent per dimension, runtime values
    allowed), to the leading `real_shape` part of the tile.

    ```mlir
    asctile.store %c, %t[%off] : !asctile.tile<256xf32, UB>, !asctile.tensor<?xf32>
    asctile.store %c, %t[%off] real_shape [%n] : !asctile.tile<256xf32, UB>, !asctile.tensor<?xf32>
    ```
  }];
  let arguments = (ins AscTile_TileType:$value, AscTile_TensorType:$tensor,
                       Variadic<Index>:$offsets, Variadic<Index>:$real_shape);
  let assemblyFormat = [{
    $value `,` $tensor `[` $offsets `]` (`real_shape` `[` $real_shape^ `]`)? attr-dict `:` qualified(type($value))
    `,` qualified(type($tensor))
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

def AscTile_SubBlockIdxOp : AscTile_Op<"sub_block_idx", [Pure]> {
  let summary = "which vector core of its cube core's group runs this code";
  let description = [{
    0 or 1 on the two vector cores of a MIX_AIC_1_2 group (Ascend C's
    GetSubBlockIdx), 0 on the cube core. Made by `asctile-split-vector-work`.

    `%s = asctile.sub_block_idx`
  }];
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

def AscTile_CmpOp : AscTile_Op<"cmp", [Pure, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "elementwise comparison of two tiles into a bool tile";
  let description = [{
    ```mlir
    %m = asctile.cmp lt, %a, %b : !asctile.tile<256xf32, UB> -> !asctile.tile<256xi1, UB>
    ```
  }];
  let arguments = (ins AscTile_CmpPredicate:$predicate, AscTile_TileType:$lhs,
                       AscTile_TileType:$rhs);
  let results = (outs AscTile_TileType:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def AscTile_SelectOp : AscTile_Op<"select", [Pure, AllTypesMatch<["trueValue", "falseValue", "result"]>]> {
  let summary = "elementwise choice between two tiles by a bool tile";
  let description = [{
    ```mlir
    %r = asctile.select %m, %a, %b : !asctile.tile<256xi1, UB>, !asctile.tile<256xf32, UB>
    ```
  }];
  let arguments = (ins AscTile_TileType:$mask, AscTile_TileType:$trueValue,
                       AscTile_TileType:$falseValue);
  let results = (outs AscTile_TileType:$result);
  let assemblyFormat = [{
    $mask `,` $trueValue `,` $falseValue attr-dict `:` qualified(type($mask)) `,` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def AscTile_CastOp : AscTile_Op<"cast", [Pure]> {
  let summary = "elementwise conversion to another element type";
  let description = [{
    `round_mode` as Ascend C's RoundMode (`none` = round to nearest even
    when the cast loses precision).

    ```mlir
    %h = asctile.cast %x round rint : !asctile.tile<256xf32, UB> -> !asctile.tile<256xf16, UB>
    ```
  }];
  let arguments = (ins AscTile_TileType:$source, AscTile_RoundMode:$round_mode);
  let results = (outs AscTile_TileType:$result);
  let assemblyFormat = [{
    $source `round` $round_mode attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def AscTile_ReduceOp : AscTile_Op<"reduce", [Pure]> {
  let summary = "reduction over dimensions of a tile";
  let description = [{
    Reduces `dims`. With `keep_dims` the reduced dimensions stay with size 1;
    reducing every dimension without `keep_dims` gives a scalar.

    ```mlir
    %s = asctile.reduce sum %x dims [1] keep_dims : !asctile.tile<4x64xf32, UB> -> !asctile.tile<4x1xf32, UB>
    %t = asctile.reduce max %x dims [0, 1] : !asctile.tile<4x64xf32, UB> -> f32
    ```
  }];
  let arguments = (ins AscTile_ReduceKind:$kind, AscTile_TileType:$source,
                       DenseI64ArrayAttr:$dims, UnitAttr:$keep_dims);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $kind $source `dims` $dims (`keep_dims` $keep_dims^)? attr-dict `:` qualified(type($source)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def AscTile_BroadcastOp : AscTile_Op<"broadcast", [Pure]> {
  let summary = "numpy broadcast of size-1 dimensions";
  let description = [{
    ```mlir
    %b = asctile.broadcast %s : !asctile.tile<4x1xf32, UB> -> !asctile.tile<4x64xf32, UB>
    ```
  }];
  let arguments = (ins AscTile_TileType:$source);
  let results = (outs AscTile_TileType:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def AscTile_ReshapeOp : AscTile_Op<"reshape", [Pure]> {
  let summary = "same elements, another shape";
  let description = [{
    ```mlir
    %r = asctile.reshape %x : !asctile.tile<4x64xf32, UB> -> !asctile.tile<256xf32, UB>
    ```
  }];
  let arguments = (ins AscTile_TileType:$source);
  let results = (outs AscTile_TileType:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def AscTile_GetValueOp : AscTile_Op<"get_value", [MemoryEffects<[MemRead]>]> {
  let summary = "scalar load from a global tensor (copy_in without shape)";
  let description = [{
    ```mlir
    %v = asctile.get_value %t[%i] : !asctile.tensor<?xf32> -> f32
    ```
  }];
  let arguments = (ins AscTile_TensorType:$tensor, Variadic<Index>:$offsets);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $tensor `[` $offsets `]` attr-dict `:` qualified(type($tensor)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def AscTile_SetValueOp : AscTile_Op<"set_value", [MemoryEffects<[MemWrite]>]> {
  let summary = "scalar store into a global tensor (copy_out of a scalar)";
  let description = [{
    ```mlir
    asctile.set_value %v, %t[%i] : f32, !asctile.tensor<?xf32>
    ```
  }];
  let arguments = (ins AnyType:$value, AscTile_TensorType:$tensor,
                       Variadic<Index>:$offsets);
  let assemblyFormat = [{
    $value `,` $tensor `[` $offsets `]` attr-dict `:` type($value) `,` qualified(type($tensor))
  }];
  let hasVerifier = 1;
}

def AscTile_GatherOp : AscTile_Op<"gather", [MemoryEffects<[MemRead]>, AttrSizedOperandSegments]> {
  let summary = "rows of a global tensor chosen by an index tile (asc2.gather)";
  let description = [{
    With d + 1 `offsets` (d = the dimension indexed, below the tensor's last),
    row i of the result is the sub-tensor `tensor[o_0, ..., o_{d-1}, o_d +
    index[i]]` (dimensions d + 1 .. rank - 1, which must be static). The
    result is `[N, dims d+1 .. rank-2, last]` with N the index tile's length
    and `last` the tensor's last dimension rounded up to 32 bytes; a row's
    tail past the tensor's last dimension is `pad_value` (0 when absent).
    `num_indices` (runtime; clamped to 0..N) limits the rows gathered. With
    `check_bounds`, a row whose position o_d + index[i] is outside
    0 .. dim(d) - 1 is `pad_value`; without it an index must be in range.
    Rows not gathered (out of range, or at or past `num_indices`) are
    `pad_value` when `check_bounds` or `num_indices` is given.

    ```mlir
    %r = asctile.gather %t[%o] by %idx count %n {check_bounds, pad_value = 0.0 : f32}
        : !asctile.tensor<?x31xf32>, !asctile.tile<32xi32, UB> -> !asctile.tile<32x32xf32, UB>
    ```
  }];
  let arguments = (ins AscTile_TensorType:$tensor, Variadic<Index>:$offsets,
                       AscTile_TileType:$index, Optional<Index>:$num_indices,
                       UnitAttr:$check_bounds,
                       OptionalAttr<TypedAttrInterface>:$pad_value);
  let results = (outs AscTile_TileType:$result);
  let assemblyFormat = [{
    $tensor `[` $offsets `]` `by` $index (`count` $num_indices^)? attr-dict `:` qualified(type($tensor))
    `,` qualified(type($index)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def AscTile_ScatterOp : AscTile_Op<"scatter", [MemoryEffects<[MemWrite]>, AttrSizedOperandSegments]> {
  let summary = "rows of a tile written to a global tensor at indexed positions (asc2.scatter)";
  let description = [{
    The inverse of `gather`: with d + 1 `offsets`, row i of `value` (its
    first dimension) is written to `tensor[o_0, ..., o_{d-1}, o_d +
    index[i]]` for i < N (the index tile's length, or `num_indices` clamped
    to 0..N), in order (a repeated position keeps the last row written).
    `value` is `[rows >= N, dims d+1 .. rank-2, last]` with `last` the
    tensor's last dimension rounded up to 32 bytes (the padding is not
    written). With `check_bounds` an out-of-range position is skipped;
    without it an index must be in range.

    ```mlir
    asctile.scatter %v, %t[%o] by %idx {check_bounds}
        : !asctile.tile<32x32xf32, UB>, !asctile.tensor<?x32xf32>, !asctile.tile<32xi32, UB>
    ```
  }];
  let arguments = (ins AscTile_TileType:$value, AscTile_TensorType:$tensor,
                       Variadic<Index>:$offsets, AscTile_TileType:$index,
                       Optional<Index>:$num_indices, UnitAttr:$check_bounds);
  let assemblyFormat = [{
    $value `,` $tensor `[` $offsets `]` `by` $index (`count` $num_indices^)? attr-dict `:` qualified(type($value))
    `,` qualified(type($tensor)) `,` qualified(type($index))
  }];
  let hasVerifier = 1;
}

def AscTile_AtomicRMWOp : AscTile_Op<"atomic_rmw", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "atomic add/max/min of a tile into a global tensor";
  let description = [{
    Combines the tile with the tensor's elements atomically across cores; the
    write is clamped to the tensor's extent like `store`.

    ```mlir
    asctile.atomic_rmw add, %v, %t[%o] : !asctile.tile<256xf32, UB>, !asctile.tensor<?xf32>
    ```
  }];
  let arguments = (ins AscTile_AtomicKind:$kind, AscTile_TileType:$value,
                       AscTile_TensorType:$tensor, Variadic<Index>:$offsets);
  let assemblyFormat = [{
    $kind `,` $value `,` $tensor `[` $offsets `]` attr-dict `:` qualified(type($value)) `,` qualified(type($tensor))
  }];
  let hasVerifier = 1;
}

def AscTile_ConcatOp : AscTile_Op<"concat", [Pure]> {
  let summary = "tiles joined along one dimension";
  let description = [{
    ```mlir
    %c = asctile.concat %a, %b dim 1 : !asctile.tile<4x64xf32, UB>, !asctile.tile<4x32xf32, UB> -> !asctile.tile<4x96xf32, UB>
    ```
  }];
  let arguments = (ins Variadic<AscTile_TileType>:$inputs, I64Attr:$dim);
  let results = (outs AscTile_TileType:$result);
  let assemblyFormat = [{
    $inputs `dim` $dim attr-dict `:` qualified(type($inputs)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def AscTile_TransposeOp : AscTile_Op<"transpose", [Pure]> {
  let summary = "permute the dimensions of a tile (numpy.transpose)";
  let description = [{
    Without `permutation`, swaps the two dimensions of a 2-D tile. With it,
    result dimension i is source dimension permutation[i] (numpy's `axes`).

    ```mlir
    %t = asctile.transpose %x : !asctile.tile<16x64xf32, UB> -> !asctile.tile<64x16xf32, UB>
    %u = asctile.transpose %y {permutation = array<i64: 1, 0, 2>} : !asctile.tile<4x8x64xf32, UB> -> !asctile.tile<8x4x64xf32, UB>
    ```
  }];
  let arguments = (ins AscTile_TileType:$source,
                       OptionalAttr<DenseI64ArrayAttr>:$permutation);
  let extraClassDeclaration = [{
    /// The permutation, also when the attribute is absent (2-D: [1, 0]).
    ::llvm::SmallVector<int64_t> getPermutationOrDefault();
  }];
  let results = (outs AscTile_TileType:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def AscTile_SoftmaxOp : AscTile_Op<"softmax", [Pure, AllTypesMatch<["source", "result"]>]> {
  let summary = "softmax along the last dimension";
  let description = [{
    Expanded by `asctile-expand-fused-ops` into max, subtract, exp, sum and
    divide along the last dimension.

    ```mlir
    %y = asctile.softmax %x : !asctile.tile<4x64xf32, UB>
    ```
  }];
  let arguments = (ins AscTile_TileType:$source);
  let results = (outs AscTile_TileType:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source))";
}

def AscTile_RmsNormOp : AscTile_Op<"rms_norm", [Pure, AllTypesMatch<["source", "result"]>]> {
  let summary = "x * rsqrt(mean(x^2) + eps) * gamma along the last dimension";
  let description = [{
    `gamma` has the shape of one row (1 x N) or of the source.

    ```mlir
    %y = asctile.rms_norm %x, %g eps 1.0e-6 : !asctile.tile<4x64xf32, UB>, !asctile.tile<1x64xf32, UB>
    ```
  }];
  let arguments = (ins AscTile_TileType:$source, AscTile_TileType:$gamma, F64Attr:$eps);
  let results = (outs AscTile_TileType:$result);
  let assemblyFormat = [{
    $source `,` $gamma `eps` $eps attr-dict `:` qualified(type($source)) `,` qualified(type($gamma))
  }];
}

def AscTile_LayerNormOp : AscTile_Op<"layer_norm", [Pure, AllTypesMatch<["source", "result"]>]> {
  let summary = "(x - mean) * rsqrt(var + eps) * gamma + beta along the last dimension";
  let description = [{
    ```mlir
    %y = asctile.layer_norm %x, %g, %b eps 1.0e-5 : !asctile.tile<4x64xf32, UB>, !asctile.tile<1x64xf32, UB>, !asctile.tile<1x64xf32, UB>
    ```
  }];
  let arguments = (ins AscTile_TileType:$source, AscTile_TileType:$gamma,
                       AscTile_TileType:$beta, F64Attr:$eps);
  let results = (outs AscTile_TileType:$result);
  let assemblyFormat = [{
    $source `,` $gamma `,` $beta `eps` $eps attr-dict `:` qualified(type($source)) `,` qualified(type($gamma)) `,` qualified(type($beta))
  }];
}

//===----------------------------------------------------------------------===//
// Masks (with asc2.mask(...))
//===----------------------------------------------------------------------===//

def AscTile_MaskOp : AscTile_Op<"mask",
    [Pure, AllTypesMatch<["value", "result"]>, AttrSizedOperandSegments]> {
  let summary = "the lanes of an element-wise result that a mask selects";
  let description = [{
    The value of an element-wise op computed under `with asc2.mask(...)`:
    element i (row-major) is `value[i]` where the mask selects it and
    `other` elsewhere.

    * `count %n`: the first n elements (Ascend C counter mode; n is clamped
      to 0..size).
    * `bits %high, %low` with `lanes` L (128 for 16-bit, 64 for 32-bit
      element types: one 256-byte repeat): element i is selected when bit
      (i mod L) of the 128-bit mask high:low is set (bits 0..63 are `low`).

    The lowering computes the producing op only on the selected lanes (its
    ascendc op gets the count or the bits) into a buffer filled with `other`.

    ```mlir
    %r = asctile.mask %sum, %zero count %n : !asctile.tile<256xf32, UB>, f32
    %s = asctile.mask %e, %m1 bits %hi, %lo {lanes = 64 : i64} : !asctile.tile<256xf32, UB>, f32
    ```
  }];
  let arguments = (ins AscTile_TileType:$value, AnyType:$other,
                       Optional<Index>:$count, Optional<I64>:$high,
                       Optional<I64>:$low, OptionalAttr<I64Attr>:$lanes);
  let results = (outs AscTile_TileType:$result);
  let assemblyFormat = [{
    $value `,` $other (`count` $count^)? (`bits` $high^ `,` $low)? attr-dict `:` qualified(type($value)) `,` type($other)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Cube unit
//===----------------------------------------------------------------------===//

def AscTile_MoveOp : AscTile_Op<"move", [Pure]> {
  let summary = "copy a tile to another on-chip location (L1 -> L0A/L0B/BT, L0C -> L1/UB, UB -> UB/L1)";
  let description = [{
    `asc2.copy(t, location=...)` / `t.to(location)`. With `offsets`, moves
    the sub-tile of the result's shape whose first element is at `offsets`
    (static, multiples of 16 for L1 -> L0A/L0B) of the source, plus the
    runtime `dynamic` offsets when given (one per dimension, added to the
    static ones; L1 -> L0A/L0B/BT and UB -> L1 only, checked when the move
    runs). L0C -> UB and UB -> L1 are Ascend950's paths between the cube and
    the vector core (the lowering refuses them on Atlas A2/A3). `split`
    (asctile-split-vector-work): the UB side is this vector core's half of
    the rows of the whole cube-side tile (L0C -> UB: the result has half the
    source's rows; UB -> L1: the source has half the result's, and lands
    from row sub_block_idx * half). With `transpose` (L1 ->
    L0A/L0B), the source sub-tile is the result transposed (LoadData's
    transpose): the result is `[R, C]`, the sub-tile `[C, R]`.

    ```mlir
    %a0 = asctile.move %a offsets [0, 64] : !asctile.tile<128x256xf16, L1> -> !asctile.tile<128x64xf16, L0A>
    %a1 = asctile.move %a offsets [0, 0] dynamic [%c0, %k] : !asctile.tile<128x256xf16, L1> -> !asctile.tile<128x64xf16, L0A>
    %b0 = asctile.move %b offsets [0, 0] {transpose} : !asctile.tile<64x32xf16, L1> -> !asctile.tile<32x64xf16, L0B>
    %u = asctile.move %c offsets [0, 0] : !asctile.tile<32x64xf32, L0C> -> !asctile.tile<32x64xf32, UB>
    %l = asctile.move %x offsets [0, 0] dynamic [%c0, %k] : !asctile.tile<32x128xf16, UB> -> !asctile.tile<32x32xf16, L1>
    ```
  }];
  let arguments = (ins AscTile_TileType:$source, DenseI64ArrayAttr:$offsets,
                       Variadic<Index>:$dynamic, UnitAttr:$transpose, UnitAttr:$split);
  let results = (outs AscTile_TileType:$result);
  let assemblyFormat = [{
    $source `offsets` $offsets (`dynamic` `[` $dynamic^ `]`)? attr-dict `:` qualified(type($source)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def AscTile_AccumulatorOp : AscTile_Op<"accumulator", [Pure]> {
  let summary = "a zero matmul accumulator in L0C (zeros_acc)";
  let description = [{
    Never materialised: the first matmul_acc into it overwrites instead of
    accumulating (mmad with its init flag). With `bias` (a BT row of N
    values), that first mmad starts from the bias instead of zero.

    ```mlir
    %acc = asctile.accumulator : !asctile.tile<128x128xf32, L0C>
    %acc1 = asctile.accumulator bias(%b : !asctile.tile<128xf32, BT>) : !asctile.tile<64x128xf32, L0C>
    ```
  }];
  let arguments = (ins Optional<AscTile_TileType>:$bias);
  let results = (outs AscTile_TileType:$result);
  let assemblyFormat = [{
    (`bias` `(` $bias^ `:` qualified(type($bias)) `)`)? attr-dict `:` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def AscTile_MatmulOp : AscTile_Op<"matmul", [Pure]> {
  let summary = "C = A x B on the cube unit (L0A x L0B -> f32 L0C)";
  let description = [{
    ```mlir
    %c = asctile.matmul %a, %b : !asctile.tile<64x32xf16, L0A>, !asctile.tile<32x48xf16, L0B> -> !asctile.tile<64x48xf32, L0C>
    ```
    With `bias` (a row of N values in the bias table, BT; f16/bf16 rows are
    widened to f32 on the way in), C = bias + A x B. With `hf32`, f32
    operands are rounded to HF32 before the product (SetHF32Mode).
  }];
  let arguments = (ins AscTile_TileType:$lhs, AscTile_TileType:$rhs,
                       Optional<AscTile_TileType>:$bias, UnitAttr:$hf32);
  let results = (outs AscTile_TileType:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs (`bias` $bias^)? attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs)) (`,` qualified(type($bias))^)? `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def AscTile_MatmulAccOp : AscTile_Op<"matmul_acc", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "C = acc + A x B on the cube unit, in place in L0C";
  let description = [{
    ```mlir
    %c = asctile.matmul_acc %acc, %a, %b : !asctile.tile<64x48xf32, L0C>, !asctile.tile<64x32xf16, L0A>, !asctile.tile<32x48xf16, L0B>
    ```
  }];
  let arguments = (ins AscTile_TileType:$acc, AscTile_TileType:$lhs, AscTile_TileType:$rhs,
                       UnitAttr:$hf32);
  let results = (outs AscTile_TileType:$result);
  let assemblyFormat = [{
    $acc `,` $lhs `,` $rhs attr-dict `:` qualified(type($acc)) `,` qualified(type($lhs)) `,` qualified(type($rhs))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Raw Ascend C (asc2.inline, asc2.inline_vf)
//===----------------------------------------------------------------------===//

// Nothing is known about what the code does: it reads and writes memory, so
// it is never removed, merged or moved; the lowering keeps it in place.

def AscTile_InlineOp : AscTile_Op<"inline", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "raw Ascend C pasted into the kernel (asc2.inline)";
  let description = [{
    The emitted Ascend C holds `code` where the op is, each `$N` replaced
    by the C++ name of `args[N]`: the LocalTensor of a tile, a `__gm__`
    pointer for a global tensor or a GlobalAddress, the variable (or the
    literal) of a scalar. With `before_function` the code goes before the
    kernel function instead, once however often the op appears; its args
    must then be constants.

    ```mlir
    asctile.inline "auto ptr = $0;"(%x : !asctile.ptr<f32>)
    asctile.inline "constexpr int32_t K = 42;" {before_function}
    ```
  }];
  let arguments = (ins StrAttr:$code, Variadic<AnyType>:$args, UnitAttr:$before_function);
  let assemblyFormat = "$code (`(` $args^ `:` qualified(type($args)) `)`)? attr-dict";
  let hasVerifier = 1;
}

def AscTile_InlineVFOp : AscTile_Op<"inline_vf", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "a UB tile made by raw Ascend C vector-function code (asc2.inline_vf)";
  let description = [{
    `code` is the body of a `__VEC_SCOPE__` block of the emitted Ascend C;
    `$0` stands for the LocalTensor of the result, `$1`, `$2`, ... for
    those of `inputs`. The result and the inputs are UB tiles. Kept even
    when the result is unused (the code may do more than write it).

    ```mlir
    %r = asctile.inline_vf "..."(%x, %y : !asctile.tile<32x64xf32, UB>, !asctile.tile<32x64xf32, UB>)
        -> !asctile.tile<32x64xf32, UB>
    ```
  }];
  let arguments = (ins StrAttr:$code, Variadic<AscTile_TileType>:$inputs);
  let results = (outs AscTile_TileType:$result);
  let assemblyFormat = [{
    $code (`(` $inputs^ `:` qualified(type($inputs)) `)`)? attr-dict `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

#endif
