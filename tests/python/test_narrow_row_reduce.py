"""Reductions over packed rows narrower than a 32-byte block, the way upstream PyAsc2's reduce kernels read a
narrow last axis: one contiguous 1-D copy_in of tile_rows x C elements, ``reshape([tile_rows, C])`` in UB, then a
reduction along the last axis. The lowering gathers each column with GatherMask (built-in patterns for 2 and 4
columns, a pattern buffer of its own for the other widths) and folds the columns; the numbers must match numpy on
both families (A2/A3 c220, Ascend950 c310), with the row count compile-time or read at run time, and the emitted
Ascend C must be the GatherMask calls. Any other use of such a tile, and widths GatherMask cannot gather, are
errors at the user's line.
"""

import numpy as np
import pytest

import asc2
from conftest import requires_native
from kernel_project import HAS_TWIN, NO_TWIN

pytestmark = requires_native

PLATFORMS = ("Ascend910B1", "Ascend950")
KINDS = {"max": (asc2.reduce_max, np.max), "min": (asc2.reduce_min, np.min), "sum": (asc2.reduce_sum, np.sum),
         "prod": (asc2.reduce_prod, np.prod)}


@asc2.jit
def narrow_rows(x_ptr, out_ptr, n_rows, KIND: asc2.ConstExpr, TILE_ROWS: asc2.ConstExpr[int],
                C: asc2.ConstExpr[int]):
    flat_gm = asc2.global_tensor(x_ptr, [n_rows * C])
    out_gm = asc2.global_tensor(out_ptr, [n_rows])
    tile_elems = TILE_ROWS * C
    for i in asc2.range(asc2.block_idx(), asc2.ceildiv(n_rows, TILE_ROWS), asc2.block_num()):
        flat = asc2.copy_in(flat_gm, [i * tile_elems], [tile_elems], pad_value=0)
        block = flat.reshape([TILE_ROWS, C])
        asc2.copy_out(KIND(block, 1), out_gm, [i * TILE_ROWS])


def data(kind, shape, dtype, seed):
    rng = np.random.default_rng(seed)
    if kind == "prod":
        return rng.uniform(0.9, 1.1, shape).astype(dtype)
    if np.dtype(dtype).kind == "f":
        return rng.uniform(-8, 8, shape).astype(dtype)
    return rng.integers(-1000, 1000, shape).astype(dtype)


def run(kind, dtype, c, n_rows, tile_rows, platform, dynamic, blocks=2):
    asc2.set_platform(backend="Model", platform=platform)
    op, ref = KINDS[kind]
    x = data(kind, (n_rows, c), dtype, n_rows * 10 + c)
    out = np.zeros(n_rows, dtype)
    rows = n_rows if dynamic else asc2.ConstExpr(n_rows)
    narrow_rows[blocks](x, out, rows, KIND=op, TILE_ROWS=tile_rows, C=c)
    want = ref(x.astype(np.float64) if np.dtype(dtype).kind == "f" else x, axis=1)
    if kind in ("max", "min") or np.dtype(dtype).kind != "f":
        np.testing.assert_array_equal(out, np.asarray(want).astype(dtype))  # exact: one of the row's values
    else:
        tol = {"float32": 2e-6, "float16": 2e-3}[dtype]
        bound = tol * (np.abs(x.astype(np.float64)).sum(axis=1) if kind == "sum" else np.abs(want)) + tol
        err = np.abs(out.astype(np.float64) - want)
        assert np.all(err <= bound), f"max error {err.max():.3g}"
    return narrow_rows.last_report["ascendc"]


# (dtype, C, rows, tile rows): built-in patterns (2, 4), pattern buffers (3, 5, 6, 7, 8), one column; tiles
# whose elements are not whole 256-byte repeats (a counter-mode tail), a last tile of fewer rows than the tile.
CASES = [
    ("float32", 4, 2600, 1280),  # upstream's [.., 4]: 80 whole repeats
    ("float32", 2, 3000, 1424),  # upstream's [.., 2]: 44 repeats and a half
    ("float32", 3, 700, 256),    # 16 rows a repeat
    ("float32", 5, 333, 64),
    ("float32", 7, 100, 40),     # 5 rows of 8 rows a repeat: a tail only
    ("float32", 1, 300, 256),    # a column: the tile is its one row
    ("float16", 2, 1000, 512),
    ("float16", 4, 700, 320),
    ("float16", 8, 500, 256),    # 16 rows, one 128-lane repeat
    ("float16", 3, 400, 96),
    ("int32", 4, 600, 256),
    ("int32", 6, 300, 64),
    ("int16", 2, 900, 448),
]


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("dtype,c,n_rows,tile_rows", CASES)
def test_max_and_min_of_narrow_rows_match_numpy(dtype, c, n_rows, tile_rows, platform):
    for kind in ("max", "min"):
        src = run(kind, dtype, c, n_rows, tile_rows, platform, dynamic=False)
    if c == 1:
        assert "GatherMask" not in src
    elif c in (2, 4):  # the built-in patterns: every 2nd / 4th element from column k
        first = 1 if c == 2 else 3
        for k in range(c):
            assert f"static_cast<uint8_t>({first + k}), " in src
        assert ".ReinterpretCast<uint" not in src
    else:  # a pattern buffer of uint16/uint32 words, in counter mode
        bits = np.dtype(dtype).itemsize * 8
        assert f".ReinterpretCast<uint{bits}_t>(), true, " in src


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("kind,dtype,c", [("sum", "float32", 4), ("sum", "float32", 2), ("sum", "float32", 3),
                                          ("sum", "int32", 2), ("sum", "int32", 5), ("prod", "float32", 4)])
def test_sums_and_products_of_narrow_rows_match_numpy(kind, dtype, c, platform):
    run(kind, dtype, c, 1000, 256, platform, dynamic=False)


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("dtype,c,tile_rows", [("float32", 4, 1280), ("float32", 2, 1424), ("float16", 3, 96)])
def test_row_count_read_at_run_time(dtype, c, tile_rows, platform):
    """The upstream kernels' dynamic variant: the row count is a runtime scalar, the tile shape static."""
    run("max", dtype, c, 2 * tile_rows + 37, tile_rows, platform, dynamic=True)


def test_counter_mode_tail_and_builtin_pattern_in_the_emitted_calls():
    """[1424, 2] float32 is 44 whole repeats (normal mode, built-in patterns 1 and 2) and 32 elements in counter
    mode; each column lands in its own row of the gathered buffer. (The loop body is there once per ping-pong
    slot.)"""
    src = run("max", "float32", 2, 1424, 1424, "Ascend950", dynamic=False, blocks=1)
    calls = [line.strip() for line in src.splitlines() if "AscendC::GatherMask(" in line]
    assert len(calls) in (4, 8), calls
    calls = calls[:4]
    assert "static_cast<uint8_t>(1), false, 0u, AscendC::GatherMaskParams(1, 44, 8, 0)" in calls[0]
    assert "[1408]" in calls[1] and "[2816]" in calls[1]
    assert "static_cast<uint8_t>(1), true, 32u, AscendC::GatherMaskParams(1, 1, 8, 0)" in calls[1]
    assert "static_cast<uint8_t>(2), false, 0u" in calls[2] and "[1424]" in calls[2]


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("kind,c", [("max", 2), ("min", 3), ("max", 4)])
def test_bfloat16_rows_are_reduced_in_float(kind, c, platform):
    """bfloat16 is reduced in float (asctile-compute-bf16-in-f32 casts the packed tile first): the cast of the
    reshape's packed rows feeds the reduction, and the extreme is exact."""
    from test_bf16 import bf16, from_bf16, to_bf16
    asc2.set_platform(backend="Model", platform=platform)
    bits = to_bf16(data(kind, (500, c), "float32", c))
    out = np.zeros(500, np.uint16)
    narrow_rows[2](bf16(bits), bf16(out), 500, KIND=KINDS[kind][0], TILE_ROWS=256, C=c)
    np.testing.assert_array_equal(from_bf16(out), KINDS[kind][1](from_bf16(bits).reshape(500, c), axis=1))


@pytest.mark.skipif(not HAS_TWIN, reason=NO_TWIN)
@pytest.mark.parametrize("platform,dtype,c", [("Ascend910B1", "float32", 4), ("Ascend950", "float32", 2),
                                              ("Ascend910B1", "float16", 3), ("Ascend950", "int32", 6)])
def test_emitted_gather_mask_runs_on_the_twin(twin_cache, monkeypatch, platform, dtype, c):
    """The printed GatherMask calls (built-in patterns, a pattern tensor, a counter-mode tail) compiled with g++
    against the CPU twin give the simulator's numbers (ASC2_TWIN_COMPARE) and numpy's."""
    monkeypatch.setenv("ASC2_TWIN_COMPARE", "1")
    asc2.set_platform(backend="Twin", platform=platform)
    x = data("max", (300, c), dtype, c)
    out = np.zeros(300, dtype)
    narrow_rows[2](x, out, 300, KIND=asc2.reduce_max, TILE_ROWS=176, C=c)
    assert narrow_rows.last_report["launch"]["compared_with_model"]
    np.testing.assert_array_equal(out, x.max(axis=1))


@asc2.jit
def narrow_misuse(x_ptr, out_ptr, WHICH: asc2.ConstExpr[int], C: asc2.ConstExpr[int]):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [256 * C]), [0], [256 * C])
    block = x.reshape([256, C])
    if WHICH == 0:
        asc2.copy_out(asc2.reduce_max(block + 1.0, 1), asc2.global_tensor(out_ptr, [256]), [0])  # ERR
    elif WHICH == 1:
        asc2.copy_out(asc2.reduce_max(block, 0), asc2.global_tensor(out_ptr, [C]), [0])  # ERR
    else:
        asc2.copy_out(asc2.reduce_max(block, 1), asc2.global_tensor(out_ptr, [256]), [0])  # ERR


@pytest.mark.parametrize("which,c,cls,message", [
    # an element-wise op: the frontend's own check of its result
    (0, 4, asc2.AlignmentError, "UB tile [256, 4] of float32: the last dimension is 16 bytes, which is not 32-byte "
                                "aligned"),
    # any other use: asctile.reshape's verifier, at the use
    (1, 4, asc2.AlignmentError, "uses the UB tile [256, 4] of f32 made by a reshape, whose rows are 16 bytes, not a "
                                "multiple of 32: such packed rows can only be reduced along the last dimension"),
    (2, 12, asc2.CompilationError, "reduces packed rows of 12 x 'f32' (48 bytes, not whole 32-byte blocks) along the "
                                   "last dimension: GatherMask gathers their columns only when 8 rows fit one "
                                   "256-byte repeat"),
])
def test_other_uses_of_narrow_rows_are_errors_at_the_use(which, c, cls, message):
    with pytest.raises(cls) as e:
        narrow_misuse[1](np.zeros(256 * c, np.float32), np.zeros(256, np.float32), WHICH=which, C=c)
    assert message in str(e.value)
    assert "# ERR" in str(e.value)  # the caret excerpt is the user's line
