//===- AscendCOps.td -----------------------------------------*- tablegen -*-===//
#ifndef ASCENDC_OPS
#define ASCENDC_OPS

include "asc2/Dialect/AscendC/IR/AscendCDialect.td"
include "asc2/Dialect/AscendC/IR/AscendCTypes.td"
include "asc2/Dialect/AscendC/IR/AscendCInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

class AscendC_Op<string mnemonic, list<Trait> traits = []>
    : Op<AscendC_Dialect, mnemonic, traits>;

// Buffers of a vector op may sit at different positions (VECIN, VECCALC, ...)
// but hold the same element type.
def AscendC_SameElementType : PredOpTrait<
    "local buffer operands have the same element type",
    CPred<"::asc2::ascendc::haveSameElementType(&$_op)">>;

// Vector ops under `with asc2.mask(bits=(hi, lo))` carry the two 64-bit
// halves of the lane mask as optional trailing `bits` operands.
def AscendC_MaskBits : PredOpTrait<
    "`bits` is either absent or the pair (high, low)",
    CPred<"(getBits().empty() || getBits().size() == 2)">>;

//===----------------------------------------------------------------------===//
// Buffers and the programming model
//===----------------------------------------------------------------------===//

def AscendC_AllocLocalOp : AscendC_Op<"alloc_local",
    [MemoryEffects<[MemAlloc]>]> {
  let summary = "a local buffer (LocalTensor)";
  let description = [{
    Declares a buffer in on-chip memory. Memory planning sets `offset` (bytes
    from the start of the space) and, for multi-buffered loads, `slot`.
    `name` is the Python variable the buffer holds, for reports and views.

    ```mlir
    %b = ascendc.alloc_local {name = "x", offset = 0 : i64} : !ascendc.local<256xf32, VECIN>
    ```
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$offset, OptionalAttr<StrAttr>:$name,
                       OptionalAttr<I64Attr>:$slot);
  let results = (outs AscendC_LocalType:$buffer);
  let assemblyFormat = "attr-dict `:` qualified(type($buffer))";
  let hasVerifier = 1;
}

def AscendC_GetBlockIdxOp : AscendC_Op<"get_block_idx",
    [Pure, AscendC_PipeOpInterface]> {
  let summary = "GetBlockIdx()";
  let description = "`%i = ascendc.get_block_idx`";
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::S; }
  }];
}

def AscendC_GetSubBlockIdxOp : AscendC_Op<"get_sub_block_idx",
    [Pure, AscendC_PipeOpInterface]> {
  let summary = "GetSubBlockIdx()";
  let description = [{
    `%s = ascendc.get_sub_block_idx`: the vector core's index in its MIX
    group (0 or 1 in KERNEL_TYPE_MIX_AIC_1_2), 0 on the cube core.
  }];
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::S; }
  }];
}

def AscendC_GetBlockNumOp : AscendC_Op<"get_block_num",
    [Pure, AscendC_PipeOpInterface]> {
  let summary = "GetBlockNum()";
  let description = "`%n = ascendc.get_block_num`";
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::S; }
  }];
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def AscendC_DataCopyInOp : AscendC_Op<"data_copy_in",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface, AttrSizedOperandSegments]> {
  let summary = "DataCopyPad GM -> local (MTE2)";
  let description = [{
    Copies `count` elements starting at element `offset` of `src` into `dst`.
    When `count` is less than the buffer, the rest is filled with
    `pad_value` (DataCopyPad with padding), so partial tiles are defined.
    With `rows`, copies `rows` rows of `count` elements whose starts are
    `rowStride` elements apart in GM into consecutive rows of the buffer
    (row length = the buffer's last dimension); row tails and missing rows
    are padded.

    With `at %o` (a runtime element offset into `dst`, a multiple of the
    buffer's last dimension) the copy writes one region of `dst` only: the
    `rows` rows (one without `rows`; a constant) of the buffer's row length
    that start at element `o`, each row's tail padded; the rest of the buffer
    is left alone (how asctile.gather fills one row per index).

    ```mlir
    ascendc.data_copy_in %b, %x[%off], %n : !ascendc.local<256xf32, VECIN>, !ascendc.gm<f32>
    ascendc.data_copy_in %b at %o, %x[%off], %n : !ascendc.local<32x32xf32, VECIN>, !ascendc.gm<f32>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, Optional<Index>:$localOffset,
                       AscendC_GlobalType:$src,
                       Index:$offset, Index:$count,
                       Optional<Index>:$rows, Optional<Index>:$rowStride,
                       OptionalAttr<TypedAttrInterface>:$pad_value);
  let assemblyFormat = [{
    $dst (`at` $localOffset^)? `,` $src `[` $offset `]` `,` $count (`rows` $rows^ `stride` $rowStride)? attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::MTE2; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getDst(), true});
      a.push_back({getSrc(), false});
    }
  }];
}

def AscendC_DataCopyOutOp : AscendC_Op<"data_copy_out",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface, AttrSizedOperandSegments]> {
  let summary = "DataCopyPad local -> GM (MTE3)";
  let description = [{
    Copies `count` elements of `src` to element `offset` of `dst` (with
    `rows`: `rows` rows, see data_copy_in). `atomic` combines with the GM
    contents (SetAtomicAdd/Max/Min around the copy). With `at %o` the copy
    reads `src` from element `o` (a runtime offset, a multiple of the
    buffer's last dimension; how asctile.scatter writes one row per index).

    ```mlir
    ascendc.data_copy_out %out[%off], %b, %n : !ascendc.gm<f32>, !ascendc.local<256xf32, VECOUT>
    ascendc.data_copy_out %out[%off], %b at %o, %n : !ascendc.gm<f32>, !ascendc.local<32x32xf32, VECOUT>
    ```
  }];
  let arguments = (ins AscendC_GlobalType:$dst, Index:$offset,
                       AscendC_LocalType:$src, Optional<Index>:$localOffset, Index:$count,
                       Optional<Index>:$rows, Optional<Index>:$rowStride,
                       DefaultValuedAttr<AscendC_AtomicKind, "::asc2::ascendc::AtomicKind::NONE">:$atomic);
  let assemblyFormat = [{
    $dst `[` $offset `]` `,` $src (`at` $localOffset^)? `,` $count (`rows` $rows^ `stride` $rowStride)? (`atomic` $atomic^)? attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::MTE3; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
  }];
}

def AscendC_DataCopyNdOp : AscendC_Op<"data_copy_nd",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface]> {
  let summary = "DataCopy with NdDmaParams: N-dimensional GM -> UB (MTE2, Ascend950)";
  let description = [{
    One DMA of up to five nested loops with element strides (Ascend C
    `DataCopy(LocalTensor, GlobalTensor, NdDmaParams<T, dim>)`, preceded by
    `NdDmaDci()`; `__NPU_ARCH__` 3510). Loops are listed outermost first:
    loop k runs `extents[k]` times, steps `src_strides[k]` elements in GM and
    `dst_strides[k]` elements in `dst`. Element (i_0, .., i_n-1) of the box is
    `src[offset + sum i_k * src_strides[k]]` when every i_k < `sizes[k]` (run
    time values), else `pad_value` (0 when absent): the DMA's right padding
    of each loop. A transposing load is this copy with the destination's
    strides permuted.

    ```mlir
    ascendc.data_copy_nd %b, %x[%off] sizes [%n, %c39] {extents = array<i64: 1504, 40>,
        src_strides = array<i64: 1, 1500>, dst_strides = array<i64: 40, 1>}
        : !ascendc.local<1x1504x40xf32, VECIN>, !ascendc.gm<f32>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_GlobalType:$src,
                       Index:$offset, Variadic<Index>:$sizes,
                       DenseI64ArrayAttr:$extents, DenseI64ArrayAttr:$src_strides,
                       DenseI64ArrayAttr:$dst_strides,
                       OptionalAttr<TypedAttrInterface>:$pad_value);
  let assemblyFormat = [{
    $dst `,` $src `[` $offset `]` `sizes` `[` $sizes `]` attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::MTE2; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getDst(), true});
      a.push_back({getSrc(), false});
    }
  }];
}

include "asc2/Dialect/AscendC/IR/AscendCVectorOps.td"
include "asc2/Dialect/AscendC/IR/AscendCShapeOps.td"
include "asc2/Dialect/AscendC/IR/AscendCReduceOps.td"
include "asc2/Dialect/AscendC/IR/AscendCCubeOps.td"
include "asc2/Dialect/AscendC/IR/AscendCSyncOps.td"
include "asc2/Dialect/AscendC/IR/AscendCInlineOps.td"

#endif
