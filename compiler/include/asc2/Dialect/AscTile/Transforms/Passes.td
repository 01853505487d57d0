//===- Passes.td - asctile passes ----------------------------*- tablegen -*-===//
#ifndef ASCTILE_PASSES
#define ASCTILE_PASSES

include "mlir/Pass/PassBase.td"

def AscTileExpandFusedOps : Pass<"asctile-expand-fused-ops", "::mlir::func::FuncOp"> {
  let summary = "Expand softmax, rms_norm and layer_norm into tile ops";
  let description = [{
    Each fused op becomes reductions along the last dimension, broadcasts and
    elementwise arith/math on tiles, so later passes see only primitives.
  }];
  let dependentDialects = ["::mlir::math::MathDialect"];
}

def AscTileTransformMathOps : Pass<"asctile-transform-math-ops", "::mlir::func::FuncOp"> {
  let summary = "Rewrite math ops without a vector instruction";
  let description = [{
    tanh, sinh, cosh, erf, exp2, log2, floor, ceil, sin, cos and tan on
    tiles become exp/log/div/cast sequences the vector unit has instructions
    for. erf uses Abramowitz & Stegun 7.1.26 (absolute error below 1.5e-7);
    sin reduces by multiples of pi (split in two parts) and sums the Taylor
    series to r^11; cos(x) = sin(x + pi/2); tan = sin / cos.

    With `keep-erf` (Ascend950) erf stays: the lowering emits Huawei's
    advanced-API Erf, one vector function there instead of ~20 calls.
  }];
  let options = [
    Option<"keepErf", "keep-erf", "bool", "false",
           "Leave erf to the target's one-call Erf (Ascend950)">
  ];
  let dependentDialects = ["::mlir::math::MathDialect"];
}

def AscTileLowerScalarMath : Pass<"asctile-lower-scalar-math", "::mlir::func::FuncOp"> {
  let summary = "Math on scalars in the forms the AI core's scalar unit runs";
  let description = [{
    sqrt and abs of a scalar stay (AscendC::Std::sqrt / Std::abs); rsqrt is
    1 / sqrt; floor and ceil go through a truncating int64 cast (exact;
    |x| >= 2^mantissa, NaN and +-Inf unchanged); every other math op on a
    scalar (exp, log, erf, tanh, sin, ...) runs on one vector block: the
    scalar duplicated into a 32-byte tile, the tile op, the block's max read
    back.
  }];
  let dependentDialects = ["::mlir::math::MathDialect"];
}

def AscTileComputeBF16InF32 : Pass<"asctile-compute-bf16-in-f32", "::mlir::func::FuncOp"> {
  let summary = "bfloat16 tile arithmetic computed in float32, rounded once per op";
  let description = [{
    Each arith/math op and reduction on bfloat16 UB tiles takes float32
    copies of its operands (asctile.cast, exact), computes in float32 and
    rounds its result back to bfloat16 (round to nearest even). Atlas A2/A3's
    vector calls take no bfloat16 at all and Ascend950's only some: a
    bfloat16 Add, Exp or ReduceSum compiles against the headers and computes
    garbage (asc-devkit@82b89a15f impl/basic_api/dav_c220 and dav_3510 dtype
    checks). Data movement, select, broadcast and compares keep bfloat16.
  }];
}

def AscTileRecomputeCasts : Pass<"asctile-recompute-casts", "::mlir::func::FuncOp"> {
  let summary = "A widening cast used in several places is computed again at each";
  let description = [{
    `x32 = cast(x16)` used by two distant computations (CSE merges the two
    casts a kernel wrote) keeps the wide tile live between them, where the
    narrow source would do: each later user (an op of the cast's block, or
    the op of that block holding it) gets a copy of the cast just before it,
    so the wide tile of each dies at its own users and an elementwise result
    can take its bytes. One more vector pass per copy, for half or less of
    the bytes held; the driver runs it only when the UB overflows without.
  }];
}

def AscTilePropagateNaN : Pass<"asctile-propagate-nan", "::mlir::func::FuncOp"> {
  let summary = "numpy's NaN rule for tile maximum/minimum on the vector unit";
  let description = [{
    Each UB tile arith.maximumf/minimumf becomes arith.maxnumf/minnumf (the
    vector Max/Min) followed, for each operand that is not a splat of a
    non-NaN constant, by asctile.cmp ne (x, x) and asctile.select x: NaN in,
    NaN out, as np.maximum, whatever the instruction does with NaN.
  }];
}

def AscTileSimplifyArith : Pass<"asctile-simplify-arith", "::mlir::func::FuncOp"> {
  let summary = "Fewer vector ops for float tile arithmetic with constants";
  let description = [{
    Each tile op is one pass of the vector unit over the tile. A polynomial
    in one tile x (adds, subs, muls of x and splat constants, intermediates
    used once) with only odd or only even powers is rebuilt in Horner form
    over x*x when that takes fewer ops: `s * (x + c*x*x*x)` becomes
    `(x*x * (s*c) + s) * x`. `(x * a) * (b / d)` becomes `(x / d) * (a*b)`,
    or `x / d` when a*b = 1 (GELU's `0.5 * x * (1 + tanh(y))` after
    asctile-transform-math-ops). An elementwise op whose tile operands are
    broadcasts of one shape (the rest splats) acts on the sources and is
    broadcast after: `rsqrt(broadcast(s) / n + eps)` runs on the [rows, 1]
    sums.
  }];
}

def AscTileBatchRows : Pass<"asctile-batch-rows", "::mlir::func::FuncOp"> {
  let summary = "k rows per trip for row-parallel loops of [1, N] tiles";
  let description = [{
    A `parallel` loop `for row in range(block_idx, rows, block_num)` whose
    body loads and stores [1, N] tiles at `[row, 0]` of tensors with `rows`
    rows, and computes on them elementwise, with row reductions and scalar
    arithmetic on the reduced values, takes k consecutive rows per trip
    instead: `range(block_idx * k, rows, block_num * k)` on [k, N] tiles,
    per-row [k, 1] reductions and broadcasts; the last block's loads and
    stores clamp at the tensor's extent. Rows are independent, so the
    different assignment of rows to cores gives the same result. Any other
    op in the body leaves the loop alone.
  }];
  let options = [
    Option<"ubCapacity", "ub-capacity", "int64_t", "188416", "UB bytes per core">,
    Option<"maxRows", "max-rows", "int64_t", "8", "Most rows per trip">
  ];
}

def AscTileDisjointTrips : Pass<"asctile-disjoint-trips", "::mlir::func::FuncOp"> {
  let summary = "Prove that a loop's trips touch disjoint GM bytes";
  let description = [{
    For each scf.for (not already `parallel`) with a constant upper bound, a
    lower bound that is a constant or block_idx and a positive step, the byte
    ranges of every GM access to each buffer the body writes are computed for
    every possible trip from the offsets' index arithmetic; when no byte one
    trip writes is touched by another trip, the loop gets
    `asctile.disjoint_trips` and sync insertion plans no loop-carried GM
    order for it, as for `parallel=True`. Offsets it cannot evaluate (run-time
    values, inner loop variables), atomics or scalar accesses of a written
    buffer leave the loop unmarked.
  }];
}

def AscTileSplitVectorWork : Pass<"asctile-split-vector-work", "::mlir::func::FuncOp"> {
  let summary = "Divide a MIX kernel's vector tiles between the two vector cores of each cube core";
  let description = [{
    Each UB tile the vector side stores is split by rows: the vector core
    with sub-block index s (asctile.sub_block_idx) loads, computes and
    stores rows [s * R/2, (s + 1) * R/2) of it, with every tile joined to it
    by a row-local op (elementwise, per-row reductions and broadcasts,
    loop-carried values). The kernel becomes KERNEL_TYPE_MIX_AIC_1_2
    (`asctile.vector_cores = 2` on the function). A kernel whose stored
    tiles need all their rows on one core (a reduction over rows, an odd
    row count, ...) stays MIX_AIC_1_1 with a remark. `vector-cores`: 0
    split when possible, 1 never, 2 required (an error says why not).

    Ascend950's moves between the cube and the vector core (L0C -> UB,
    UB -> L1) connect a cube core with the vector cores of its own AI core:
    a kernel with them is always MIX_AIC_1_2. They divide like loads and
    stores (`split` on the move: the fixpipe halves M between the two UBs,
    each vector core copies its rows of a tile into L1); a UB -> L1 move of
    part of a tile's rows keeps the work whole, and then only the first
    vector core does it (`asctile.first_vector_core_only`), the second
    following the cross-core flags. With them `vector-cores` 1 is an error.
  }];
  let options = [
    Option<"vectorCores", "vector-cores", "int64_t", "0",
           "Vector cores per cube core: 0 two when the work divides, 1, or 2">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def AscTileFoldTransposeIntoLoad : Pass<"asctile-fold-transpose-into-load", "::mlir::func::FuncOp"> {
  let summary = "A UB load whose only use is a transpose becomes one transposing DMA";
  let description = [{
    `asctile.transpose` of an `asctile.load` (through the `asctile.reshape`
    the frontend puts after a load whose dimensions it merged) that has no
    other use becomes `asctile.load_transposed`: the N-dimensional GM -> UB
    DMA of Ascend950 writes the tile in its transposed order, so no second
    UB tile holds the loaded one. Merged load dimensions are split back
    where the split is exact (the tensor extent, offset and real_shape of
    the merged dimension are provably multiples of its inner part). Loads
    whose DMA would need more than `max-dims` loops, fields beyond the API's
    widths, or strides from run-time tensor extents stay as they are. The
    driver runs it on targets whose arch model has `nd_dma_dims`.
  }];
  let options = [
    Option<"maxDims", "max-dims", "int64_t", "5", "Loops of the target's N-dimensional DMA">
  ];
  let statistics = [
    Statistic<"numFolded", "folded", "Transposes folded into their load">
  ];
}

def AscTileMultiBuffer : Pass<"asctile-multi-buffer", "::mlir::func::FuncOp"> {
  let summary = "Pick a multi-buffering depth for loops that load tiles";
  let description = [{
    An innermost loop that loads tiles from GM and has no unroll factor of
    its own gets `asctile.unroll_factor` = depth (2: ping-pong), when depth
    copies of its tiles fit the UB budget. Unrolling then gives each copy
    its own buffers, and sync insertion lets loads of one copy overlap the
    compute of the other. `num-stages` is the user's hint (0: choose).
  }];
  let options = [
    Option<"ubCapacity", "ub-capacity", "int64_t", "188416", "UB bytes per core">,
    Option<"numStages", "num-stages", "int64_t", "0", "Buffers per loaded tile (0: compiler's choice)">
  ];
  let statistics = [
    Statistic<"numBuffered", "multi-buffered", "Loops given a multi-buffering depth">
  ];
}

def AscTileUnrollLoop : Pass<"asctile-unroll-loop", "::mlir::func::FuncOp"> {
  let summary = "Unroll scf.for loops by their asctile.unroll_factor";
  let description = [{
    The body is repeated `unroll_factor` times per iteration of a loop whose
    step is multiplied by the factor; copies after the first run under an
    `scf.if` that checks they are still inside the original bounds, so any
    trip count (remainder iterations included) is handled. Loops carrying
    tiles are left alone.
  }];
  let statistics = [
    Statistic<"numUnrolled", "unrolled", "Loops unrolled">
  ];
}

#endif
