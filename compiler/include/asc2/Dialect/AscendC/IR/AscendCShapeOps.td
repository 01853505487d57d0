//===- AscendCShapeOps.td - broadcast, transpose, local copy --*- tablegen -*-===//
//
// Included by AscendCOps.td. The vector-pipe calls that move elements between
// local buffers without computing: Brcb, the level-0 Copy, DataCopy between
// UB buffers and the NCHW->NHWC Transpose. Each op is one Ascend C call with
// the operands the API reference gives it (block and repeat strides in 32-byte
// DataBlocks, repeat counts, the mask as elements per repeat); the lowering
// (Conversion/AscTileToAscendC/Shape.cpp) composes broadcasts, concatenation
// and permutations from them. `dst_offset`/`src_offset` are element offsets
// into the buffers (`dst[off]` in Ascend C); they must keep 32-byte alignment.
//
//===----------------------------------------------------------------------===//
#ifndef ASCENDC_SHAPE_OPS
#define ASCENDC_SHAPE_OPS

class AscendC_ShapeOp<string mnemonic, list<Trait> traits = []>
    : AscendC_Op<mnemonic, !listconcat([AscendC_PipeOpInterface,
                                        AscendC_BufferAccessOpInterface], traits)> {
  let hasVerifier = 1;
  code accesses = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::V; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
  }];
  let extraClassDeclaration = accesses;
}

def AscendC_BrcbOp : AscendC_ShapeOp<"brcb", [AscendC_SameElementType]> {
  let summary = "Brcb(dst, src, repeatTime, BrcbRepeatParams{dstBlkStride, dstRepStride})";
  let description = [{
    Each repeat i reads 8 consecutive elements of `src` (from element 8 i) and
    fills one 32-byte block of `dst` with each: element 8 i + j fills the
    block at (i * dst_rep_stride + j * dst_blk_stride) blocks. A2/A3 take
    16- and 32-bit types, Ascend950 also 8- and 64-bit ones (the lowering
    emits those for Ascend950 only).
    mirror-cann/asc-devkit@82b89a15f:docs/zh/api/SIMD-API/基础API/Memory矢量计算/数据填充/Brcb.md

    ```mlir
    ascendc.brcb %t, %s {repeat_time = 1 : i64, dst_blk_stride = 1 : i64, dst_rep_stride = 8 : i64} : !ascendc.local<64xf32, VECCALC>, !ascendc.local<8xf32, VECCALC>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src,
                       I64Attr:$repeat_time, I64Attr:$dst_blk_stride,
                       I64Attr:$dst_rep_stride,
                       DefaultValuedAttr<I64Attr, "0">:$dst_offset,
                       DefaultValuedAttr<I64Attr, "0">:$src_offset);
  let assemblyFormat = [{
    $dst `,` $src attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
}

def AscendC_CopyOp : AscendC_ShapeOp<"copy", [AscendC_SameElementType]> {
  let summary = "Copy(dst, src, mask, repeatTime, CopyRepeatParams{dstStride, srcStride, dstRepeatSize, srcRepeatSize})";
  let description = [{
    The level-0 UB -> UB Copy in the continuous mask mode: each of
    `repeat_time` repeats copies its first `mask` elements (at most 256 bytes)
    as 32-byte blocks; block b of repeat i is read at (i * src_repeat_size +
    b * src_stride) blocks of `src` and written at (i * dst_repeat_size +
    b * dst_stride) blocks of `dst`. A zero source stride repeats one block
    (broadcasts). The call takes 16- and 32-bit types on every target; the
    op also moves 64-bit elements (emitted on their `uint32_t` view, the mask
    doubled) and 8-bit ones in pairs (on the `uint16_t` view, the mask
    halved, so it must be even): the bytes moved are the same.
    mirror-cann/asc-devkit@82b89a15f:docs/zh/api/SIMD-API/基础API/Memory矢量计算/数据搬运/Copy（UBToUB掩码式高维数据搬运）.md

    ```mlir
    ascendc.copy %d, %t {mask = 64 : i64, repeat_time = 8 : i64, dst_stride = 1 : i64, src_stride = 0 : i64, dst_repeat_size = 8 : i64, src_repeat_size = 1 : i64} : !ascendc.local<8x64xf32, VECCALC>, !ascendc.local<64xf32, VECCALC>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src,
                       I64Attr:$mask, I64Attr:$repeat_time,
                       I64Attr:$dst_stride, I64Attr:$src_stride,
                       I64Attr:$dst_repeat_size, I64Attr:$src_repeat_size,
                       DefaultValuedAttr<I64Attr, "0">:$dst_offset,
                       DefaultValuedAttr<I64Attr, "0">:$src_offset);
  let assemblyFormat = [{
    $dst `,` $src attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
}

def AscendC_LocalDataCopyOp : AscendC_ShapeOp<"local_data_copy", [AscendC_SameElementType]> {
  let summary = "DataCopy(dst, src, DataCopyParams{blockCount, blockLen, srcGap, dstGap}) within UB";
  let description = [{
    `block_count` runs of `block_len` 32-byte blocks; between two runs the
    source skips `src_gap` blocks and the destination `dst_gap` blocks.
    Concatenation writes each input into its columns of the result this way,
    and permutations of a tile's leading dimensions move whole rows.
    mirror-cann/asc-devkit@82b89a15f:include/basic_api/kernel_operator_data_copy_intf.h

    ```mlir
    ascendc.local_data_copy %d, %s {block_count = 4 : i64, block_len = 8 : i64, src_gap = 0 : i64, dst_gap = 8 : i64, dst_offset = 64 : i64} : !ascendc.local<4x128xf32, VECCALC>, !ascendc.local<4x64xf32, VECIN>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src,
                       I64Attr:$block_count, I64Attr:$block_len,
                       I64Attr:$src_gap, I64Attr:$dst_gap,
                       DefaultValuedAttr<I64Attr, "0">:$dst_offset,
                       DefaultValuedAttr<I64Attr, "0">:$src_offset);
  let assemblyFormat = [{
    $dst `,` $src attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
}

def AscendC_TransposeOp : AscendC_ShapeOp<"transpose"> {
  let summary = "Transpose(dst, src, tmp, TransposeParamsExt{n, c, h, w, TRANSPOSE_NCHW2NHWC})";
  let description = [{
    The enhanced transpose: `src` holds n x c x (h * w) elements, `dst`
    receives n x (h * w) x c (numpy.transpose(src, (0, 2, 3, 1))), so n
    consecutive c x hw matrices are each transposed. `tmp` is the uint8
    scratch buffer the API needs ((c + 2) * 512 bytes; 1024 per row of c for
    8-bit types). h * w * sizeof(T) must be a multiple of 32 bytes.
    mirror-cann/asc-devkit@82b89a15f:docs/zh/api/SIMD-API/基础API/Memory矢量计算/数据排布转换/Transpose.md

    ```mlir
    ascendc.transpose %d, %s, %t {n = 1 : i64, c = 16 : i64, h = 1 : i64, w = 64 : i64} : !ascendc.local<64x16xf32, VECCALC>, !ascendc.local<16x64xf32, VECIN>, !ascendc.local<9216xui8, VECCALC>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src,
                       AscendC_LocalType:$tmp, I64Attr:$n, I64Attr:$c,
                       I64Attr:$h, I64Attr:$w);
  let assemblyFormat = [{
    $dst `,` $src `,` $tmp attr-dict `:` qualified(type($dst)) `,` qualified(type($src)) `,` qualified(type($tmp))
  }];
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::V; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getTmp(), true});
      a.push_back({getDst(), true});
    }
    /// Bytes of scratch the API needs (the Transpose.md table, A2/A3/950).
    static int64_t tmpBytes(int64_t c, unsigned elemBytes) {
      int64_t h0 = elemBytes == 1 ? 32 : 16, w0 = 32 / elemBytes;
      return (c + 2) * h0 * w0 * elemBytes;
    }
  }];
}

def AscendC_GatherMaskOp : AscendC_Op<"gather_mask",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface]> {
  let summary = "GatherMask(dst, src0, src1Pattern, reduceMode, mask, GatherMaskParams{src0BlockStride, repeatTimes, src0RepeatStride, src1RepeatStride}, rsvdCnt)";
  let description = [{
    Packs the elements of `src` its pattern selects into consecutive elements
    of `dst` (from `dst_offset`), repeat after repeat. Repeat i reads the
    elements starting `src_offset` elements plus i * `src_repeat_stride`
    32-byte blocks into `src`, its block b `src_block_stride` blocks after
    block b - 1: all 256 bytes of it in normal mode (`reduce_mode` false,
    `mask` 0), its first `mask` elements in counter mode. Element j of a
    repeat is kept when bit j of the pattern is set: a built-in pattern
    (`builtin_pattern` 1..7: 1 even elements, 2 odd ones, 3..6 element
    0..3 of every four, 7 all) or, with `builtin_pattern` = 0, the bits of
    `pattern` (as uint16/uint32 words of the element's width, bit j of the
    repeat i one starting i * `src1_repeat_stride` blocks in). The API's
    rsvdCnt (the number kept) is not used: the lowering knows it.
    mirror-cann/asc-devkit@82b89a15f:docs/zh/api/SIMD-API/基础API/Memory矢量计算/比较与选择/GatherMask.md,
    include/basic_api/kernel_struct_gather.h (GatherMaskParams).

    ```mlir
    ascendc.gather_mask %d, %s {builtin_pattern = 3 : i64, reduce_mode = false, mask = 0 : i64, repeat_times = 80 : i64, src_block_stride = 1 : i64, src_repeat_stride = 8 : i64} : !ascendc.local<1280xf32, VECCALC>, !ascendc.local<5120xf32, VECIN>
    ascendc.gather_mask %d, %s, %p {builtin_pattern = 0 : i64, reduce_mode = true, mask = 48 : i64, repeat_times = 2 : i64, src_block_stride = 1 : i64, src_repeat_stride = 6 : i64} : !ascendc.local<32xf32, VECCALC>, !ascendc.local<96xf32, VECIN>, !ascendc.local<8xi32, VECCALC>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src,
                       Optional<AscendC_LocalType>:$pattern,
                       I64Attr:$builtin_pattern, BoolAttr:$reduce_mode,
                       I64Attr:$mask, I64Attr:$repeat_times,
                       I64Attr:$src_block_stride, I64Attr:$src_repeat_stride,
                       DefaultValuedAttr<I64Attr, "0">:$src1_repeat_stride,
                       DefaultValuedAttr<I64Attr, "0">:$dst_offset,
                       DefaultValuedAttr<I64Attr, "0">:$src_offset,
                       DefaultValuedAttr<I64Attr, "0">:$pattern_offset);
  let assemblyFormat = [{
    $dst `,` $src (`,` $pattern^)? attr-dict `:` qualified(type($dst)) `,` qualified(type($src)) (`,` qualified(type($pattern))^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::V; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      if (getPattern())
        a.push_back({getPattern(), false});
      a.push_back({getDst(), true});
    }
    /// Elements one repeat reads: 256 bytes' worth, or `mask` in counter mode.
    int64_t repeatElements();
    /// Elements a built-in pattern keeps of `n` read in a repeat.
    static int64_t builtinKept(int64_t pattern, int64_t n);
  }];
}

#endif
