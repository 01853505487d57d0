"""asc2.transpose with any permutation (numpy.transpose semantics) and asc2.concat along any dimension, vs numpy.

Tiles of rank > 2 are made by reshaping 2-D loads (loads and stores move rows x columns).
"""

import itertools

import numpy as np
import pytest

import asc2
from conftest import line_of, requires_native


@asc2.jit
def transpose3(x_ptr, out_ptr, SHAPE: asc2.ConstExpr, AXES: asc2.ConstExpr):
    a, b, c = SHAPE
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [a * b, c]), [0, 0], [a * b, c]).reshape(a, b, c)
    y = asc2.transpose(x, AXES) if AXES is not None else x.T
    s = y.shape
    asc2.copy_out(y.reshape(s[0] * s[1], s[2]), asc2.global_tensor(out_ptr, [s[0] * s[1], s[2]]), [0, 0])


@asc2.jit
def transpose4(x_ptr, out_ptr, SHAPE: asc2.ConstExpr, AXES: asc2.ConstExpr):
    a, b, c, d = SHAPE
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [a * b * c, d]), [0, 0], [a * b * c, d]).reshape(a, b, c, d)
    y = asc2.transpose(x, *AXES)
    s = y.shape
    flat = y.reshape(s[0] * s[1] * s[2], s[3])
    asc2.copy_out(flat, asc2.global_tensor(out_ptr, [s[0] * s[1] * s[2], s[3]]), [0, 0])


def aligned(shape, dtype):
    return shape[-1] * np.dtype(dtype).itemsize % 32 == 0


def run3(x, axes):
    expected = np.transpose(x, axes) if axes is not None else x.T
    out = np.zeros(expected.shape, x.dtype)
    transpose3[1](x.reshape(-1, x.shape[-1]), out.reshape(-1, expected.shape[-1]), SHAPE=x.shape, AXES=axes)
    return out, expected


@requires_native
@pytest.mark.parametrize("axes", list(itertools.permutations(range(3))))
@pytest.mark.parametrize("dtype", ["float32", "float16", "int32"])
def test_rank3_every_permutation(axes, dtype):
    shape = (8, 16, 32) if np.dtype(dtype).itemsize == 4 else (16, 32, 16)
    x = (np.random.default_rng(1).standard_normal(shape) * 50).astype(dtype)
    if not aligned(np.transpose(x, axes).shape, dtype):
        pytest.skip("result not 32-byte aligned")
    out, expected = run3(x, axes)
    np.testing.assert_array_equal(out, expected)
    assert not transpose3.last_report["launch"]["races"]


@requires_native
@pytest.mark.parametrize("shape,axes", [
    ((8, 8, 16), None),         # x.T reverses the dimensions
    ((1, 16, 8), (0, 2, 1)),    # a unit dimension: a plain 2-D transpose
    ((4, 1, 64), (1, 0, 2)),    # only unit axes move: the same bytes
    ((3, 5, 8), (1, -3, -1)),   # negative axes
    ((2, 3, 64), (1, 0, 2)),    # leading axes only: row copies, no element transpose
])
def test_rank3_special_cases(shape, axes):
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    out, expected = run3(x, axes)
    np.testing.assert_array_equal(out, expected)


@requires_native
@pytest.mark.parametrize("axes", [(0, 2, 1, 3), (2, 0, 3, 1), (3, 2, 1, 0), (1, 3, 0, 2), (0, 1, 3, 2), (2, 1, 0, 3)])
def test_rank4_permutations(axes):
    shape = (8, 16, 8, 8)
    x = np.random.default_rng(2).standard_normal(shape).astype(np.float32)
    expected = np.transpose(x, axes)
    out = np.zeros(expected.shape, np.float32)
    transpose4[1](x.reshape(-1, 8), out.reshape(-1, expected.shape[-1]), SHAPE=shape, AXES=axes)
    np.testing.assert_array_equal(out, expected)


@asc2.jit
def transpose_ir(x_ptr, AXES: asc2.ConstExpr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [128, 8]), [0, 0], [128, 8]).reshape(4, 32, 8)
    y = asc2.transpose(x, AXES)  # ERR


def test_identity_permutation_is_a_no_op():
    assert "asctile.transpose" not in transpose_ir.ir(np.zeros((128, 8), np.float32), AXES=(0, 1, 2))


@pytest.mark.parametrize("axes,cls,message", [
    ((0, 1), asc2.ShapeError, "asc2.transpose: axes [0, 1] do not match a rank-3 tile (the axis count must be 3)"),
    ((0, 0, 1), asc2.ShapeError, "asc2.transpose: axes [0, 0, 1] are not a permutation of [0, 1, 2]"),
    ((0, 1, 3), asc2.CompilationIndexError, "asc2.transpose: dimension 3 is out of range for a rank-3 tile"),
    ((2, 0, 1), asc2.AlignmentError, "UB tile [8, 4, 32] of float32"),
])
def test_transpose_errors(axes, cls, message):
    if cls is asc2.AlignmentError:  # (4, 32, 8) -> (8, 4, 32) is aligned; (0, 2, 1) -> (4, 8, 32) too; use .T
        axes = (1, 2, 0)
        message = "UB tile [32, 8, 4] of float32: the last dimension is 16 bytes"
    with pytest.raises(cls) as info:
        transpose_ir.ir(np.zeros((128, 8), np.float32), AXES=axes)
    assert message in info.value.message
    assert info.value.line == line_of(transpose_ir, "# ERR")


# -- concat along any dimension


@asc2.jit
def concat3(a_ptr, b_ptr, out_ptr, SA: asc2.ConstExpr, SB: asc2.ConstExpr, AXIS: asc2.ConstExpr[int]):
    a = asc2.copy_in(asc2.global_tensor(a_ptr, [SA[0] * SA[1], SA[2]]), [0, 0], [SA[0] * SA[1], SA[2]])
    b = asc2.copy_in(asc2.global_tensor(b_ptr, [SB[0] * SB[1], SB[2]]), [0, 0], [SB[0] * SB[1], SB[2]])
    c = asc2.concat([a.reshape(SA), b.reshape(SB) * 2.0, a.reshape(SA)], axis=AXIS)
    s = c.shape
    asc2.copy_out(c.reshape(s[0] * s[1], s[2]), asc2.global_tensor(out_ptr, [s[0] * s[1], s[2]]), [0, 0])


@requires_native
@pytest.mark.parametrize("sa,sb,axis", [
    ((4, 3, 32), (4, 5, 32), 1),     # a middle dimension
    ((4, 3, 32), (4, 5, 32), -2),
    ((2, 4, 16), (3, 4, 16), 0),
    ((3, 2, 16), (3, 2, 32), 2),
    ((1, 3, 32), (1, 2, 32), 1),
])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_concat_rank3(sa, sb, axis, dtype):
    rng = np.random.default_rng(3)
    a = rng.standard_normal(sa).astype(dtype)
    b = rng.standard_normal(sb).astype(dtype)
    expected = np.concatenate([a, (b * 2).astype(dtype), a], axis=axis)
    out = np.zeros(expected.shape, dtype)
    concat3[1](a.reshape(-1, sa[2]), b.reshape(-1, sb[2]), out.reshape(-1, expected.shape[-1]), SA=sa, SB=sb,
               AXIS=axis)
    np.testing.assert_array_equal(out, expected)
    assert not concat3.last_report["launch"]["races"]


@asc2.jit
def concat_then_transpose(a_ptr, out_ptr):
    """A middle-dimension concat feeding a rank-3 transpose: (2, 4, 16) + (2, 4, 16) -> (2, 8, 16) -> (8, 2, 16)."""
    a = asc2.copy_in(asc2.global_tensor(a_ptr, [8, 16]), [0, 0], [8, 16]).reshape(2, 4, 16)
    c = asc2.transpose(asc2.concat(a, a + 1.0, axis=1), (1, 0, 2))
    asc2.copy_out(c.reshape(16, 16), asc2.global_tensor(out_ptr, [16, 16]), [0, 0])


@requires_native
def test_concat_then_transpose():
    a = np.arange(128, dtype=np.float32).reshape(2, 4, 16)
    out = np.zeros((8, 2, 16), np.float32)
    concat_then_transpose[1](a.reshape(8, 16), out.reshape(16, 16))
    np.testing.assert_array_equal(out, np.transpose(np.concatenate([a, a + 1], axis=1), (1, 0, 2)))


@asc2.jit
def k_sub_tile(x_ptr, out_ptr, R: asc2.ConstExpr[int], C: asc2.ConstExpr[int], OFF: asc2.ConstExpr,
               SHAPE: asc2.ConstExpr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [R, C]), [0, 0], [R, C])
    sub = asc2.copy(x, OFF, SHAPE)
    asc2.copy_out(sub * 2.0, asc2.global_tensor(out_ptr, list(SHAPE)), [0, 0])


@requires_native
@pytest.mark.parametrize("off,shape", [((0, 0), (4, 64)), ((2, 8), (3, 32)), ((5, 56), (1, 8)), ((0, 64), (8, 64))])
def test_ub_sub_tile_copy(off, shape):
    x = np.random.default_rng(0).standard_normal((8, 128)).astype(np.float32)
    out = np.zeros(shape, np.float32)
    k_sub_tile[1](x, out, 8, 128, OFF=off, SHAPE=shape)
    np.testing.assert_array_equal(out, x[off[0]:off[0] + shape[0], off[1]:off[1] + shape[1]] * 2)
    assert k_sub_tile.last_report["launch"]["races"] == []


@asc2.jit
def k_sub_tile_1d(x_ptr, out_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [256])
    asc2.copy_out(asc2.copy(x, [64], [64]), asc2.global_tensor(out_ptr, [64]), [0])  # the seed's sub = copy(tile, [0], [64])


@asc2.jit
def k_sub_tile_misaligned(x_ptr, out_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [256]), [0], [256])
    sub = asc2.copy(x, [4], [64])  # ERR
    asc2.copy_out(sub, asc2.global_tensor(out_ptr, [64]), [0])


@requires_native
def test_ub_sub_tile_copy_1d_and_alignment_error():
    x = np.arange(256, dtype=np.float32)
    out = np.zeros(64, np.float32)
    k_sub_tile_1d[1](x, out)
    np.testing.assert_array_equal(out, x[64:128])
    with pytest.raises(asc2.AlignmentError) as info:
        k_sub_tile_misaligned.ir(x, out)
    assert "must start on a 32-byte boundary" in info.value.message
    assert info.value.line == line_of(k_sub_tile_misaligned, "# ERR")


# -- the Ascend C the shape ops become (docs/ascendc-api.md, "Broadcast, transpose, copy")


@asc2.jit
def broadcast_rows_cols(x_ptr, g_ptr, out_ptr, R: asc2.ConstExpr[int], C: asc2.ConstExpr[int]):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [R, C]), [0, 0], [R, C])
    g = asc2.copy_in(asc2.global_tensor(g_ptr, [1, C]), [0, 0], [1, C])
    m = asc2.broadcast_to(x.max(axis=1, keep_dims=True), [R, C])
    asc2.copy_out(x - m + asc2.broadcast_to(g, [R, C]) + x.sum(), asc2.global_tensor(out_ptr, [R, C]), [0, 0])


@requires_native
@pytest.mark.parametrize("dtype,rows,cols", [("float32", 12, 128), ("float16", 3, 272)])
def test_broadcasts_are_brcb_and_copy(dtype, rows, cols):
    rng = np.random.default_rng(5)
    x = rng.integers(-1, 2, (rows, cols)).astype(dtype)  # every sum exact in float16
    g = rng.integers(-8, 8, (1, cols)).astype(dtype)
    out = np.zeros((rows, cols), dtype)
    broadcast_rows_cols[1](x, g, out, R=rows, C=cols)
    expected = x - x.max(axis=1, keepdims=True) + g + x.sum(dtype=np.float32).astype(dtype)
    np.testing.assert_array_equal(out, expected)
    report = broadcast_rows_cols.last_report
    assert not report["launch"]["races"]
    source = report["ascendc"]
    assert "AscendC::Brcb(" in source and "AscendC::BrcbRepeatParams(1, 8)" in source
    # The column broadcast reads block r for every block of row r (source block stride 0).
    assert "AscendC::CopyRepeatParams(1, 0, " in source
    assert "AscendC::Broadcast(" not in source


@requires_native
def test_transpose_and_row_moves_are_real_calls():
    x = np.arange(8 * 8 * 16, dtype=np.float32).reshape(8, 8, 16)
    out, expected = run3(x, None)
    np.testing.assert_array_equal(out, expected)
    source = transpose3.last_report["ascendc"]
    assert ("AscendC::TransposeParamsExt(1, 8, 1, 128, AscendC::TransposeType::TRANSPOSE_NCHW2NHWC)"
            in source), source
    out, expected = run3(np.arange(2 * 3 * 64, dtype=np.float32).reshape(2, 3, 64), (1, 0, 2))
    np.testing.assert_array_equal(out, expected)
    assert "AscendC::DataCopyParams(" in transpose3.last_report["ascendc"]
