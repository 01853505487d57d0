//===- AscendCReduceOps.td - reductions: the repeat-level calls -*- tablegen -*-===//
//
// Included by AscendCOps.td. A reduction of a tile is no single Ascend C call:
// the lowering (lib/Conversion/AscTileToAscendC/Reduce.cpp) builds it from
// the two level-0 ("tensor high-dimension slicing") calls below, as an Ascend
// C programmer does: WholeReduceSum/Max/Min over every 256-byte repeat of the
// tile at once, then over the partials; where that cannot cover several rows
// (and for integers, products and columns) level-0 binary ops (mask +
// repeatTime + BinaryRepeatParams) fold by halves first. Strides are in
// 32-byte blocks (repeat strides of WholeReduce's dst: in results).
// docs/ascendc-api.md "Reductions" says what was verified.
//
// Sources (the API reference of mirror-cann/asc-devkit@82b89a15f):
//   docs/zh/api/SIMD-API/基础API/Memory矢量计算/归约计算/ReduceRepeat.md
//     (WholeReduce* is its former name; same operands),
//   include/basic_api/kernel_operator_vec_reduce_intf.h,
//   include/basic_api/kernel_operator_vec_binary_intf.h (Add level 0),
//   include/basic_api/kernel_struct_binary.h (BinaryRepeatParams: uint8_t).
//
//===----------------------------------------------------------------------===//
#ifndef ASCENDC_REDUCE_OPS
#define ASCENDC_REDUCE_OPS

def AscendC_ReduceOrder : I32EnumAttr<"ReduceOrder",
    "ReduceOrder of WholeReduceMax/Min: what each repeat writes", [
    I32EnumAttrCase<"ORDER_VALUE_INDEX", 0>, I32EnumAttrCase<"ORDER_INDEX_VALUE", 1>,
    I32EnumAttrCase<"ORDER_ONLY_VALUE", 2>, I32EnumAttrCase<"ORDER_ONLY_INDEX", 3>]> {
  let cppNamespace = "::asc2::ascendc";
}

// Sub and Div: an elementwise op on a broadcast operand, which reads the
// broadcast's source in place with zero strides (Elementwise.cpp).
def AscendC_RepeatBinaryKind : I32EnumAttr<"RepeatBinaryKind",
    "the level-0 binary call a fold issues", [
    I32EnumAttrCase<"Add", 0>, I32EnumAttrCase<"Max", 1>,
    I32EnumAttrCase<"Min", 2>, I32EnumAttrCase<"Mul", 3>,
    I32EnumAttrCase<"Sub", 4>, I32EnumAttrCase<"Div", 5>]> {
  let cppNamespace = "::asc2::ascendc";
}

def AscendC_WholeReduceOp : AscendC_Op<"whole_reduce",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface, AscendC_SameElementType]> {
  let summary = "WholeReduceSum/Max/Min(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride[, order])";
  let description = [{
    For each of `repeat` repeats i: the first `mask` elements (count mask) of
    the repeat starting `src_offset` elements plus i * `src_rep_stride`
    32-byte blocks into `src`, its block b `src_blk_stride` blocks after block
    b - 1, are reduced to one result written `dst_offset` elements plus
    i * `dst_rep_stride` results into `dst`. A result of SUM, and of MAX/MIN
    with ORDER_ONLY_VALUE, is one element; with ORDER_VALUE_INDEX it is the
    value followed by its index in the repeat (the bits of a uint16/uint32 in
    an element of `dst`'s type), ORDER_INDEX_VALUE the other way round,
    ORDER_ONLY_INDEX the index alone (always 32-bit). `order` only applies to
    MAX/MIN. Element types: half and float (the types every target has).

    ```mlir
    ascendc.whole_reduce SUM %d, %s mask 64 repeat 4 strides(1, 1, 8) : !ascendc.local<4xf32, VECCALC>, !ascendc.local<4x64xf32, VECCALC>
    ascendc.whole_reduce MAX %d, %s mask 64 repeat 1 strides(1, 1, 8) order ORDER_ONLY_VALUE : !ascendc.local<1xf32, VECCALC>, !ascendc.local<64xf32, VECCALC>
    ```
  }];
  let arguments = (ins AscendC_ReduceKind:$kind, AscendC_LocalType:$dst,
                       AscendC_LocalType:$src, I64Attr:$mask, I64Attr:$repeat,
                       I64Attr:$dst_rep_stride, I64Attr:$src_blk_stride,
                       I64Attr:$src_rep_stride,
                       DefaultValuedAttr<AscendC_ReduceOrder,
                         "::asc2::ascendc::ReduceOrder::ORDER_VALUE_INDEX">:$order,
                       DefaultValuedAttr<I64Attr, "0">:$dst_offset,
                       DefaultValuedAttr<I64Attr, "0">:$src_offset);
  let assemblyFormat = [{
    $kind $dst `,` $src `mask` $mask `repeat` $repeat `strides` `(` $dst_rep_stride `,` $src_blk_stride `,` $src_rep_stride `)` (`order` $order^)? attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::V; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
    /// Elements of `dst` one repeat's result occupies (1 or 2).
    int64_t resultElements();
  }];
}

def AscendC_BinaryRepeatOp : AscendC_Op<"binary_repeat",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface, AscendC_SameElementType]> {
  let summary = "Add/Sub/Mul/Div/Max/Min level 0: (dst, src0, src1, mask, repeatTime, BinaryRepeatParams)";
  let description = [{
    For each of `repeat` repeats i and each of the first `mask` lanes l (count
    mask) of the repeat: dst = kind(src0, src1) on the element l % B of block
    l / B (B = 32 bytes of elements), where block k of operand X of repeat i
    starts at X's offset (elements) + (i * XRepStride + k * XBlkStride) * 32
    bytes. `params` are BinaryRepeatParams{dstBlkStride, src0BlkStride,
    src1BlkStride, dstRepStride, src0RepStride, src1RepStride} (uint8_t
    each). The lowering folds the columns of wide rows with it.

    ```mlir
    ascendc.binary_repeat Add %t, %x, %x mask 64 repeat 4 params [1, 1, 1, 8, 32, 32] {src1_offset = 64} : !ascendc.local<4x64xf32, VECCALC>, !ascendc.local<4x256xf32, VECIN>, !ascendc.local<4x256xf32, VECIN>
    ```
  }];
  let arguments = (ins AscendC_RepeatBinaryKind:$kind, AscendC_LocalType:$dst,
                       AscendC_LocalType:$src0, AscendC_LocalType:$src1,
                       I64Attr:$mask, I64Attr:$repeat,
                       DenseI64ArrayAttr:$params,
                       DefaultValuedAttr<I64Attr, "0">:$dst_offset,
                       DefaultValuedAttr<I64Attr, "0">:$src0_offset,
                       DefaultValuedAttr<I64Attr, "0">:$src1_offset);
  let assemblyFormat = [{
    $kind $dst `,` $src0 `,` $src1 `mask` $mask `repeat` $repeat `params` $params attr-dict `:` qualified(type($dst)) `,` qualified(type($src0)) `,` qualified(type($src1))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::V; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc0(), false});
      a.push_back({getSrc1(), false});
      a.push_back({getDst(), true});
    }
    /// In place when `src` is read exactly where dst is written (same
    /// offset and strides): each lane reads its element before writing it.
    bool canWriteInPlace(::mlir::Value src);
  }];
}

#endif
