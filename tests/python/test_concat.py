"""asc2.concat along the last and the first dimension, and 2-D transpose, vs numpy."""

import numpy as np
import pytest

import asc2
from conftest import requires_native


@asc2.jit
def concat_cols(a_ptr, b_ptr, out_ptr, rows: int, CA: asc2.ConstExpr[int], CB: asc2.ConstExpr[int],
                R: asc2.ConstExpr[int]):
    a_gm = asc2.global_tensor(a_ptr, [rows, CA])
    b_gm = asc2.global_tensor(b_ptr, [rows, CB])
    out_gm = asc2.global_tensor(out_ptr, [rows, CA + CB])
    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(rows, R), asc2.block_num()):
        a = asc2.copy_in(a_gm, [t * R, 0], [R, CA])
        b = asc2.copy_in(b_gm, [t * R, 0], [R, CB])
        asc2.copy_out(asc2.concat([a, b * 2.0], axis=1), out_gm, [t * R, 0])


@asc2.jit
def concat_rows(a_ptr, out_ptr, n: int, C: asc2.ConstExpr[int]):
    a_gm = asc2.global_tensor(a_ptr, [n, C])
    out_gm = asc2.global_tensor(out_ptr, [2 * n, C])
    for t in asc2.range(asc2.block_idx(), n, asc2.block_num()):
        a = asc2.copy_in(a_gm, [t, 0], [1, C])
        asc2.copy_out(asc2.concat(a, a + 1.0, axis=0), out_gm, [2 * t, 0])


@requires_native
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_concat_along_columns(dtype):
    rows, ca, cb, r = 37, 64, 32 if dtype == np.float32 else 48, 4
    rng = np.random.default_rng(0)
    a = rng.standard_normal((rows, ca)).astype(dtype)
    b = rng.standard_normal((rows, cb)).astype(dtype)
    out = np.zeros((rows, ca + cb), dtype)
    concat_cols[4](a, b, out, rows, CA=ca, CB=cb, R=r)
    np.testing.assert_array_equal(out, np.concatenate([a, (b * 2).astype(dtype)], axis=1))
    assert not concat_cols.last_report["launch"]["races"]


@requires_native
def test_concat_along_rows():
    n, c = 10, 64
    a = np.random.default_rng(1).standard_normal((n, c)).astype(np.float32)
    out = np.zeros((2 * n, c), np.float32)
    concat_rows[3](a, out, n, C=c)
    expected = np.empty_like(out)
    expected[0::2], expected[1::2] = a, a + 1
    np.testing.assert_array_equal(out, expected)


@asc2.jit
def transpose_tiles(x_ptr, out_ptr, R: asc2.ConstExpr[int], C: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [R, C])
    out_gm = asc2.global_tensor(out_ptr, [C, R])
    x = asc2.copy_in(x_gm, [0, 0], [R, C])
    asc2.copy_out(x.T * 2.0, out_gm, [0, 0])


@requires_native
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_transpose(dtype):
    r, c = 16, 64
    x = np.random.default_rng(2).standard_normal((r, c)).astype(dtype)
    out = np.zeros((c, r), dtype)
    transpose_tiles[1](x, out, R=r, C=c)
    np.testing.assert_array_equal(out, (x.T * 2).astype(dtype))
