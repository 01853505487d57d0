"""Reductions through the level-0 cascade vs numpy: WholeReduce over every repeat then over the
partials (float sum/max/min), level-0 folds by halves (other wide rows, integers, products,
columns).

Shapes pick the cascade's cases: one row of many repeats (a single WholeReduce, and 255 + 1
repeats), several rows whose partials fill blocks (one WholeReduce over all of them), rows folded
by halves first (even and odd chunk counts, a count-masked rest, one chunk plus a rest), more
than 255 rows (split repeats), integer tiles (block halving, then the scalar unit) and columns
(even and odd row counts). Each kernel also writes its emitted Ascend C; the calls must be the
real ones. Only the reductions upstream PyAsc2 takes (TAKES) are compiled: the frontend refuses the others.
"""

import numpy as np
import pytest

import asc2
from conftest import requires_native
from test_bf16 import reduce_kernel  # x along rows, columns and everything

pytestmark = requires_native


KINDS = {"sum": (asc2.reduce_sum, np.sum), "max": (asc2.reduce_max, np.max), "min": (asc2.reduce_min, np.min),
         "prod": (asc2.reduce_prod, np.prod)}
# The dtypes (of this file's) each reduction takes over dimensions, and to a scalar (docs/language.md, "Dtypes").
ALL = ("float32", "float16", "int32", "int16")
TAKES = {"sum": (("float32", "int32"), ("float32", "float16")), "max": (ALL, ALL), "min": (ALL, ALL),
         "prod": (("float32",), ())}


def data(kind, shape, dtype, seed):
    rng = np.random.default_rng(seed)
    if kind == "prod":
        if np.dtype(dtype).kind == "f":
            return rng.uniform(0.995, 1.005, shape).astype(dtype)
        return rng.choice([1] * 40 + [-1, 2], shape).astype(dtype)
    if np.dtype(dtype).kind == "f":
        return rng.uniform(-4, 4, shape).astype(dtype)
    return rng.integers(-50, 50, shape).astype(dtype)


CASES = [
    ("float32", (4, 256)),   # 4 whole chunks per row: folded by halves
    ("float32", (3, 208)),   # 3 chunks (a middle one) and a 16-lane rest
    ("float32", (4, 336)),   # 5 chunks and a rest, four rows' blocks per repeat
    ("float32", (2, 104)),   # one chunk and a rest
    ("float32", (2, 1024)),  # 16 partials a row fill 2 blocks: one WholeReduce over both rows
    ("float32", (260, 16)),  # 260 rows: 255 + 5 repeats
    ("float32", (1, 1000)),  # one long row
    ("float32", (1, 16384)),  # 256 repeats: 255 + 1, then the partials twice
    ("float16", (3, 416)),   # 128-lane chunks and a rest
    ("float16", (2, 2048)),  # 16 half partials a row fill a block
    ("int32", (4, 80)),      # block halving (10 blocks), then scalars
    ("int32", (9, 64)),      # 9 rows (a lone row in the last group of 8), 9 columns (odd)
    ("int16", (2, 48)),      # 3 blocks: the middle one joins last
]


@pytest.mark.parametrize("kind,dtype,shape", [(k, d, s) for k in KINDS for d, s in CASES
                                              if d in TAKES[k][0] or d in TAKES[k][1]])
def test_reductions_match_numpy(kind, dtype, shape):
    op, ref = KINDS[kind]
    r, c = shape
    x = data(kind, shape, dtype, r * 1000 + c)
    rows, cols, total = np.zeros(r, dtype), np.zeros(c, dtype), np.zeros(1, dtype)
    dims, whole_tile = dtype in TAKES[kind][0], dtype in TAKES[kind][1]
    reduce_kernel[1](x, rows, cols, total, KIND=op, R=r, C=c, DIMS=dims, TOTAL=whole_tile)
    results = [(rows, 1), (cols, 0)] * dims + [(total[:1], None)] * whole_tile
    wide = x.astype(np.float64)
    if np.dtype(dtype).kind == "f":
        tol = {"float32": 2e-5, "float16": 1e-3}[dtype]
        for got, axis in results:
            want = ref(wide, axis=axis)
            if kind in ("max", "min"):  # exact: a value of the tile
                np.testing.assert_array_equal(got, np.asarray(want).astype(dtype), err_msg=f"axis {axis}")
                continue
            # sums: within tol of the sum of magnitudes; products: of the product
            bound = tol * (np.abs(wide).sum(axis=axis) if kind == "sum" else np.abs(want)) + tol
            err = np.abs(got.astype(np.float64) - want)
            assert np.all(err <= bound), f"axis {axis}: max error {err.max():.3g}, bound {np.min(bound):.3g}"
    else:  # integers are exact (and wrap like the hardware)
        if dims:
            np.testing.assert_array_equal(rows, ref(x, axis=1).astype(dtype))
            np.testing.assert_array_equal(cols, ref(x, axis=0).astype(dtype))
        if whole_tile:
            assert total[0] == ref(ref(x, axis=1).astype(dtype)).astype(dtype)
    src = reduce_kernel.last_report["ascendc"]
    assert "Columns(" not in src and "WholeReduce" + kind.capitalize() + "(" not in src
    whole = "AscendC::WholeReduce" + kind.capitalize() + "<"
    if np.dtype(dtype).kind == "f" and kind != "prod":
        assert whole in src
    else:  # no WholeReduce for integers and products: the scalar unit ends it
        assert "AscendC::WholeReduce" not in src and "GetValue(" in src


@asc2.jit
def reduce_twice(x_ptr, out_ptr, KIND: asc2.ConstExpr, R: asc2.ConstExpr[int], C: asc2.ConstExpr[int]):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [R, C]), [0, 0], [R, C])
    asc2.copy_out(KIND(KIND(x, 1), 0, keep_dims=True), asc2.global_tensor(out_ptr, [1]), [0])


@pytest.mark.parametrize("kind,dtype", [(k, d) for k in ("sum", "max", "prod") for d in ("int32", "float32")
                                        if d in TAKES[k][0]])
def test_reduction_of_row_results(kind, dtype):
    """The row results (37: four blocks and a 5-element tail) reduced again, to one element: a one-row fold
    with a count-masked tail (integers, products) or WholeReduce with a rest (float sums)."""
    op, ref = KINDS[kind]
    r, c = 37, 64
    x = data(kind, (r, c), dtype, 37)
    out = np.zeros(1, dtype)
    reduce_twice[1](x, out, KIND=op, R=r, C=c)
    rows = ref(x.astype(np.float64) if dtype == "float32" else x, axis=1).astype(dtype)
    want = ref(rows.astype(np.float64) if dtype == "float32" else rows)
    if dtype == "int32":
        assert out[0] == np.asarray(want).astype(dtype)
    elif kind == "max":
        assert out[0] == np.float32(want)
    else:
        bound = 2e-5 * (np.abs(x.astype(np.float64)).sum() if kind == "sum" else abs(want)) + 2e-5
        assert abs(float(out[0]) - float(want)) <= bound
