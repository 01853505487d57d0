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

def AscendC_LoadData3DV2Op : AscendC_Op<"load_data_3dv2",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface, AscendC_SameElementType]> {
  let summary = "LoadData(dst, src, LoadData3DParamsV2) L1 (NC1HWC0 / NZ) -> L0A/L0B, img2col with a 1x1 filter (MTE1)";
  let description = [{
    One `LoadData(dst, src, LoadData3DParamsV2<T>)` call (LoadData_3D.md),
    with a 1x1 filter, stride 1, dilation 1 and no padding: the L1 tile is
    a feature map of l1H x l1W positions and channelSize channels in
    NC1HWC0 form, which for a matrix (positions = rows, channels =
    columns) is exactly the NZ layout a GM -> L1 ND2NZ copy makes. The
    instruction takes the mExtension x kExtension window whose first
    element is (mStartPt, kStartPt) (+ the runtime `at [%m, %k]`) and
    writes it to L0B as ZN (the path transposes on its own), or to L0A as
    ZZ, of the window itself or, with `enTranspose`, of its transpose.
    The interface also sets the feature-map and padding registers
    (IS_RESER_LOAD3D_DEFAULT_CONFIG).

    The lowering uses it for the float32 moves Atlas A2/A3 cannot make with
    LoadData2DParams (which transposes only 16-bit fractals), as Huawei's
    Matmul does on c220 (load_to_l0b_loadInstr.h, LOAD3DV2): B (K x N) to
    L0B as stored, A to L0A from its transpose (K x M in L1). The L1 tile
    stays NZ, so one L1 tile serves every move.

    ```mlir
    ascendc.load_data_3dv2 %b0, %b1 {l1W = 128, channelSize = 64, mExtension = 64, kExtension = 64, mStartPt = 64} : !ascendc.local<64x64xf32, B2>, !ascendc.local<128x64xf32, B1>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src,
                       Variadic<Index>:$start,
                       DefaultValuedAttr<I64Attr, "1">:$l1H,
                       I64Attr:$l1W,
                       I64Attr:$channelSize,
                       I64Attr:$mExtension,
                       I64Attr:$kExtension,
                       DefaultValuedAttr<I64Attr, "0">:$mStartPt,
                       DefaultValuedAttr<I64Attr, "0">:$kStartPt,
                       UnitAttr:$enTranspose);
  let assemblyFormat = [{
    $dst `,` $src (`at` `[` $start^ `]`)? attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
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

def AscendC_FixpipeUbOp : AscendC_Op<"fixpipe_ub",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface]> {
  let summary = "Fixpipe L0C (NZ) -> the vector core's UB (ND rows), conversion and ReLU (FIX, Ascend950): FixpipeParamsArch3510<ROW_MAJOR> with isToUB";
  let description = [{
    The cube core's fixpipe writes a matmul result into the UB of a vector
    core of its group (Ascend950 only; Atlas A2/A3 have no such path):
    NZ -> ND rows of `dst`'s last dimension, converted to `dst`'s element
    type (f32 -> f16/bf16 rounds to nearest even) and with ReLU when
    `relu`. With `dual` the rows are divided between the group's two vector
    cores (dualDstCtl = 1, split along M): the first half lands in sub-block
    0's UB, the second in sub-block 1's, both at `dst`'s address, so `dst`
    has half the moved rows; without it they all go to sub-block 0. The
    moved rows are `src`'s from `row` (a multiple of 16: a fractal row
    boundary of the NZ tile) on, as many as `dst` holds (twice that with
    `dual`): the whole tile by default, a band of its rows otherwise
    (mirror-cann/asc-devkit@82b89a15f: docs/zh/api/SIMD-API/基础API/
    矩阵计算（ISASI）/矩阵计算的搬出/Fixpipe（L0C到UB数据搬运）.md;
    impl/basic_api/dav_3510/kernel_operator_fixpipe_impl.h FixpipeL0cToUB).
    Runs on the cube core; the vector core's accesses to `dst` are ordered
    against it by cross-core flags.

    ```mlir
    ascendc.fixpipe_ub %ub, %c : !ascendc.local<32x64xf32, VECCALC>, !ascendc.local<32x64xf32, CO1>
    ascendc.fixpipe_ub %ub, %c {dual, relu} : !ascendc.local<16x64xf16, VECCALC>, !ascendc.local<32x64xf32, CO1>
    ascendc.fixpipe_ub %ub, %c {dual, row = 32 : i64} : !ascendc.local<16x64xf32, VECCALC>, !ascendc.local<64x64xf32, CO1>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src, UnitAttr:$relu,
                       UnitAttr:$dual, DefaultValuedAttr<I64Attr, "0">:$row);
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
    /// The L0C rows moved, from `row` on: the UB tile's rows, twice that with
    /// `dual` (each vector core gets half).
    int64_t getMovedRows() {
      return getDst().getType().getShape()[0] * (getDual() ? 2 : 1);
    }
  }];
}

def AscendC_CopyUbToL1Op : AscendC_Op<"copy_ub_to_l1",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface, AscendC_SameElementType,
     AttrSizedOperandSegments]> {
  let summary = "DataCopy UB (ND rows) -> the cube core's L1 (NZ) (MTE3 on the vector core, Ascend950)";
  let description = [{
    The vector core copies the `dst`-shaped sub-tile of its UB tile `src`
    whose first element is element `offset` of `src` (0 when absent) into
    the L1 of its cube core, in the NZ layout the L1 -> L0A/L0B loads read:
    one DataCopy(l1, ub, DataCopyParams) per 32-byte column block, `rows`
    bursts of one block each, the source rows `src`'s last dimension apart
    (Ascend950 only, MTE3: mirror-cann/asc-devkit@82b89a15f:
    impl/basic_api/dav_3510/kernel_operator_data_copy_impl.h CopyUbufToCbuf,
    DataCopyUB2L1ND2NZImplV2; docs/zh/api/SIMD-API/基础API/矩阵计算（ISASI）/
    矩阵计算的搬入/DataCopy（UBToL1高维切分数据搬运）.md). A 1-D `dst` is a
    plain run of elements (a bias row for the bias table). With `at %row`
    (a split vector core's half) it copies as many rows as `src` has,
    landing from row `%row` of the whole L1 tile `dst`.

    ```mlir
    ascendc.copy_ub_to_l1 %l1, %ub[%off] : !ascendc.local<32x16xf16, A1>, !ascendc.local<32x64xf16, VECCALC>
    ascendc.copy_ub_to_l1 %l1, %ub at %row : !ascendc.local<32x32xf16, A1>, !ascendc.local<16x32xf16, VECCALC>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src, Optional<Index>:$offset,
                       Optional<Index>:$row);
  let assemblyFormat = [{
    $dst `,` $src (`[` $offset^ `]`)? (`at` $row^)? attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Rows copied: `src`'s (a split half, `at` a row) or `dst`'s.
    int64_t getCopiedRows() {
      return getRow() ? getSrc().getType().getShape()[0] : getDst().getType().getShape()[0];
    }
    ::asc2::Pipe getPipe() { return ::asc2::Pipe::MTE3; }
    void getBufferAccesses(::llvm::SmallVectorImpl<::asc2::ascendc::BufferAccess> &a) {
      // The UB source first: the op runs on the vector core (coreKindOf).
      a.push_back({getSrc(), false});
      a.push_back({getDst(), true});
    }
  }];
}

def AscendC_CopyBiasOp : AscendC_Op<"copy_bias",
    [AscendC_PipeOpInterface, AscendC_BufferAccessOpInterface]> {
  let summary = "DataCopy of a bias row L1 -> bias table (MTE1), f16/bf16 widened to f32";
  let description = [{
    Copies the `count`-long (default: `dst`-long) part of the L1 row `src`
    that starts at element `offset` (0 when absent; a runtime offset is
    checked when it runs). A 16-bit row is widened in whole bursts of 64
    (c220) / 32 (c310) source bytes, so its `dst` is `count` rounded up to
    the burst: the extra values land in `dst`'s tail, which no mmad reads.

    ```mlir
    ascendc.copy_bias %bt, %l1 : !ascendc.local<64xf32, C2>, !ascendc.local<64xf32, A1>
    ascendc.copy_bias %bt, %l1[%off] : !ascendc.local<32xf32, C2>, !ascendc.local<128xf16, A1>
    ```
  }];
  let arguments = (ins AscendC_LocalType:$dst, AscendC_LocalType:$src, Optional<Index>:$offset,
                       DefaultValuedAttr<I64Attr, "0">:$count);
  let assemblyFormat = [{
    $dst `,` $src (`[` $offset^ `]`)? attr-dict `:` qualified(type($dst)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The bias values copied: `count`, or (0) the whole `dst`.
    int64_t getValueCount() {
      return getCount() ? int64_t(getCount()) : getDst().getType().getNumElements();
    }
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
