//===- AscendCCubeOps.td - cube unit ops -------------------*- tablegen -*-===//
//
// Included by AscendCOps.td (one dialect, one op list; split by unit so no
// file is a god-file). Base classes and traits are in AscendCOps.td.
//
//===----------------------------------------------------------------------===//
#ifndef ASCENDC_CUBE_OPS
#define ASCENDC_CUBE_OPS

//===----------------------------------------------------------------------===//
// Cube unit: L1 -> L0A/L0B (MTE1), mmad (M), L0C -> GM (FIX)
//===----------------------------------------------------------------------===//

def AscendC_LoadDataOp : AscendC_Op<"load_data",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface, AscendC_SameElementType]> {
  let summary = "LoadData L1 (NZ) -> L0A (ZZ on c220, NZ on c310) / L0B (ZN) (MTE1)";
  let description = [{
    Moves the `dst`-shaped sub-tile of the L1 tile `src` whose first element
    is at (`row`, `col`) (multiples of 16) into `dst`, converting between the
    fractal layouts of L1 and L0A/L0B. `at [%r, %c]` adds runtime offsets
    (multiples of 16, checked when it runs). With `transpose` the source
    sub-tile is `dst` transposed (LoadData2DParams::ifTranspose).
    Emitted as LoadData2DParams bands on c220 and as one LoadData2DParamsV2
    on c310 (docs/ascendc-api.md); the simulator follows the target's L0A
    layout.

    ```mlir
    ascendc.load_data %a0, %a1 {row = 0 : i64, col = 64 : i64} : !ascendc.local<128x64xf16, A2>, !ascendc.local<128x256xf16, A1>
    ascendc.load_data %b0, %b1 at [%c0, %k] {transpose} : !ascendc.local<32x64xf16, B2>, !ascendc.local<64x256xf16, B1>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src,
                       Variadic<Index>:$origin,
                       DefaultValuedAttr<I64Attr, "0">:$row,
                       DefaultValuedAttr<I64Attr, "0">:$col, UnitAttr:$transpose);
  let assemblyFormat = [{
    $dst `,` $src (`at` `[` $origin^ `]`)? attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::MTE1; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
  }];
}

def AscendC_LoadDataWithTransposeOp : AscendC_Op<"load_data_with_transpose",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface, AscendC_SameElementType]> {
  let summary = "LoadDataWithTranspose(dst, src, LoadData2dTransposeParams) L1 -> L0A/L0B, b32 (MTE1, c220)";
  let description = [{
    One LoadDataWithTranspose call per trip of a `loops`-trip loop (trip i
    reads `src` from element `srcOffset` (+ the runtime `at [%off]`) + i *
    `srcLoopStride` and writes `dst` from element `dstOffset` + i *
    `dstLoopStride`), with LoadData2dTransposeParams{startIndex,
    repeatTimes, srcStride, dstGap, dstFracGap} (addrMode 0). The documented
    semantics (asc-devkit LoadDataWithTranspose.md and its pseudocode
    load_data_with_transpose.py, b32): repeat r takes the two consecutive
    16x8 fractals of the 16x16 square startIndex + r * srcStride (1 KiB
    squares), side by side, transposes the square and writes its left 8
    columns' transpose as one 16x8 fractal at r * (dstGap + 1) fractals and
    the right one dstFracGap + 1 fractals after it.

    The lowering uses it for the float32 moves that need a transpose on
    Atlas A2/A3, where LoadData2DParams transposes only b16: B (K x N) to
    L0B as stored, A to L0A from its transpose (K x M). The source is a ZZ
    L1 tile (one ND2NZ matrix per 16-row band, `ascendc.data_copy_in {zz}`);
    for B trip i turns band i into the L0B ZN fractals of K rows
    16i..16i+16, for A trip i makes the L0A ZZ band of M rows 16i..16i+16.

    ```mlir
    ascendc.load_data_with_transpose %b0, %b1 {loops = 4, srcLoopStride = 1024, dstLoopStride = 1024, repeatTimes = 4, srcStride = 1, dstFracGap = 3} : !ascendc.local<64x64xf32, B2>, !ascendc.local<64x64xf32, B1>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src,
                       Optional<Index>:$dynamicSrcOffset,
                       DefaultValuedAttr<I64Attr, "0">:$srcOffset,
                       DefaultValuedAttr<I64Attr, "0">:$dstOffset,
                       DefaultValuedAttr<I64Attr, "1">:$loops,
                       DefaultValuedAttr<I64Attr, "0">:$srcLoopStride,
                       DefaultValuedAttr<I64Attr, "0">:$dstLoopStride,
                       DefaultValuedAttr<I64Attr, "0">:$startIndex,
                       DefaultValuedAttr<I64Attr, "0">:$repeatTimes,
                       DefaultValuedAttr<I64Attr, "0">:$srcStride,
                       DefaultValuedAttr<I64Attr, "0">:$dstGap,
                       DefaultValuedAttr<I64Attr, "0">:$dstFracGap);
  let assemblyFormat = [{
    $dst `,` $src (`at` `[` $dynamicSrcOffset^ `]`)? attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::MTE1; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
  }];
}

def AscendC_MmadOp : AscendC_Op<"mmad",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface]> {
  let summary = "Mmad: C (L0C) = [C +] A (L0A) x B (L0B) (cube pipe M)";
  let description = [{
    m x k times k x n from the operand shapes. `init` (i1) true overwrites C
    (cmatrixInitVal), false accumulates into it. `hf32`: f32 operands are
    rounded to HF32 first (SetHF32Mode(HF32Mode::ENABLE/DISABLE) around the
    Mmad).

    ```mlir
    ascendc.mmad %c, %a, %b, %init : !ascendc.local<64x48xf32, CO1>, !ascendc.local<64x32xf16, A2>, !ascendc.local<32x48xf16, B2>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$lhs,
                       AscendC_LocalType:$rhs, I1:$init,
                       Optional<AscendC_LocalType>:$bias, UnitAttr:$hf32);
  let assemblyFormat = [{
    $dst `,` $lhs `,` $rhs `,` $init (`bias` $bias^)? attr-dict `:` qualified(type($dst)) `,` qualified(type($lhs)) `,` qualified(type($rhs)) (`,` qualified(type($bias))^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::M; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getLhs(), false});
      a.push_back({getRhs(), false});
      a.push_back({getDst(), false}); // accumulates (read) unless init
      if (getBias())
        a.push_back({getBias(), false});
      a.push_back({getDst(), true});
    }
  }];
}

def AscendC_FixpipeL1Op : AscendC_Op<"fixpipe_l1",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface]> {
  let summary = "Fixpipe L0C (NZ) -> L1 (NZ) with conversion and ReLU (FIX): FixpipeParamsV220 / FixpipeParamsArch3510<NZ>";
  let description = [{
    Stages a matmul result in L1 (converted to the element type of `dst`)
    for the next matmul.

    ```mlir
    ascendc.fixpipe_l1 %l1, %c {relu} : !ascendc.local<32x32xf16, A1>, !ascendc.local<32x32xf32, CO1>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src, UnitAttr:$relu);
  let assemblyFormat = [{
    $dst `,` $src attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::FIX; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
  }];
}

def AscendC_CopyBiasOp : AscendC_Op<"copy_bias",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface]> {
  let summary = "DataCopy of a bias row L1 -> bias table (MTE1), f16/bf16 widened to f32";
  let description = [{
    Copies the `dst`-long part of the L1 row `src` that starts at element
    `offset` (0 when absent; a runtime offset is checked when it runs).

    ```mlir
    ascendc.copy_bias %bt, %l1 : !ascendc.local<64xf32, C2>, !ascendc.local<64xf32, A1>
    ascendc.copy_bias %bt, %l1[%off] : !ascendc.local<32xf32, C2>, !ascendc.local<128xf16, A1>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src, Optional<Index>:$offset);
  let assemblyFormat = [{
    $dst `,` $src (`[` $offset^ `]`)? attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::MTE1; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
  }];
}

def AscendC_FixpipeOp : AscendC_Op<"fixpipe",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface]> {
  let summary = "Fixpipe L0C (NZ) -> GM (ND) with conversion and ReLU (FIX): FixpipeParamsV220 / FixpipeParamsArch3510<ROW_MAJOR>";
  let description = [{
    Writes `rows` x `count` elements of the L0C tile `src` to `dst` at element
    `offset`, rows `rowStride` elements apart, converting to the element type
    of `dst` (f32 -> f16/bf16 quantisation) and applying ReLU when `relu`.

    ```mlir
    ascendc.fixpipe %c_gm[%off], %c, %n rows %r stride %s {relu} : !ascendc.gm<f16>, !ascendc.local<64x48xf32, CO1>
    ```
  }];
  let arguments = (ins AscendC_GlobalType:$dst, Index:$offset,
                       AscendC_LocalType:$src, Index:$count,
                       Index:$rows, Index:$rowStride, UnitAttr:$relu,
                       DefaultValuedAttr<AscendC_AtomicKind, "::asc2::ascendc::AtomicKind::NONE">:$atomic);
  let assemblyFormat = [{
    $dst `[` $offset `]` `,` $src `,` $count `rows` $rows `stride` $rowStride (`atomic` $atomic^)? attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::FIX; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
  }];
}

#endif
