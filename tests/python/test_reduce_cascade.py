"""Reductions through the level-0 cascade (folds + WholeReduce) vs numpy.

Shapes pick the cascade's cases: rows wider than one repeat (chunks, a
count-masked rest, a single chunk plus a rest), more than 255 rows (split
repeats), one long row, integer tiles (block halving, then the scalar unit)
and columns. Each kernel also writes its emitted Ascend C; the calls must be
the real ones.
"""

import numpy as np
import pytest

import asc2
from conftest import requires_native
from test_bf16 import reduce_kernel  # x along rows, columns and everything

pytestmark = requires_native


KINDS = {"sum": (asc2.reduce_sum, np.sum), "max": (asc2.reduce_max, np.max), "min": (asc2.reduce_min, np.min),
         "prod": (asc2.reduce_prod, np.prod)}


def data(kind, shape, dtype, seed):
    rng = np.random.default_rng(seed)
    if kind == "prod":
        if np.dtype(dtype).kind == "f":
            return rng.uniform(0.995, 1.005, shape).astype(dtype)
        return rng.choice([1] * 40 + [-1, 2], shape).astype(dtype)
    if np.dtype(dtype).kind == "f":
        return rng.uniform(-4, 4, shape).astype(dtype)
    return rng.integers(-50, 50, shape).astype(dtype)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype,shape", [
    ("float32", (4, 256)),   # 4 whole chunks per row
    ("float32", (3, 208)),   # 3 chunks and a 16-lane rest
    ("float32", (2, 104)),   # one chunk and a rest
    ("float32", (260, 16)),  # 260 rows: 255 + 5 repeats
    ("float32", (1, 1000)),  # one long row
    ("float16", (3, 416)),   # 128-lane chunks and a rest
    ("int32", (4, 80)),      # fold, then block halving, then scalars
    ("int16", (2, 48)),
])
def test_reductions_match_numpy(kind, dtype, shape):
    op, ref = KINDS[kind]
    r, c = shape
    x = data(kind, shape, dtype, r * 1000 + c)
    rows, cols, total = np.zeros(r, dtype), np.zeros(c, dtype), np.zeros(1, dtype)
    reduce_kernel[1](x, rows, cols, total, KIND=op, R=r, C=c)
    wide = x.astype(np.float64)
    if np.dtype(dtype).kind == "f":
        tol = {"float32": 2e-5, "float16": 1e-3}[dtype]
        for got, axis in ((rows, 1), (cols, 0), (total[:1], None)):
            want = ref(wide, axis=axis)
            if kind in ("max", "min"):  # exact: a value of the tile
                np.testing.assert_array_equal(got, np.asarray(want).astype(dtype), err_msg=f"axis {axis}")
                continue
            # sums: within tol of the sum of magnitudes; products: of the product
            bound = tol * (np.abs(wide).sum(axis=axis) if kind == "sum" else np.abs(want)) + tol
            err = np.abs(got.astype(np.float64) - want)
            assert np.all(err <= bound), f"axis {axis}: max error {err.max():.3g}, bound {np.min(bound):.3g}"
    else:  # integers are exact (and wrap like the hardware)
        np.testing.assert_array_equal(rows, ref(x, axis=1).astype(dtype))
        np.testing.assert_array_equal(cols, ref(x, axis=0).astype(dtype))
        assert total[0] == ref(ref(x, axis=1).astype(dtype)).astype(dtype)
    src = reduce_kernel.last_report["ascendc"]
    assert "Columns(" not in src and "WholeReduce" + kind.capitalize() + "(" not in src
    whole = "AscendC::WholeReduce" + kind.capitalize() + "<"
    if np.dtype(dtype).kind == "f" and kind != "prod":
        assert whole in src
    else:  # no WholeReduce for integers and products: the scalar unit ends it
        assert "AscendC::WholeReduce" not in src and "GetValue(" in src
