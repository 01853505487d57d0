"""Broadcasts of 64-bit and 8-bit tiles: a column ([R, 1] -> [R, C]) and a row ([1, C] -> [R, C]), vs numpy.

A column broadcast spreads each value over a 32-byte block with Brcb, then the level-0 Copy repeats that block
along the row. Brcb takes 16- and 32-bit types on Atlas A2/A3 and also 8- and 64-bit ones on Ascend950
(mirror-cann/asc-devkit@82b89a15f:impl/basic_api/dav_c220/kernel_operator_vec_brcb_impl.h and
dav_3510/kernel_operator_vec_brcb_impl.h); Copy takes 16- and 32-bit types on both (dav_3510/
kernel_operator_data_copy_impl.h), so 64-bit elements move as their uint32_t halves and 8-bit ones as uint16_t
pairs: the same bytes. A row broadcast is Copy alone and runs everywhere; a column broadcast of 64- or 8-bit values
on A2/A3 is a compile error at its line. The kernels are upstream's skillstack broadcast kernels (static and
dynamic shapes) at smaller sizes.
"""

import re

import numpy as np
import pytest

import asc2
from conftest import assert_user_terms, line_of, requires_native


@asc2.jit(reuse_alloc=1)
def broadcast_last_dim(input_ptr: asc2.GlobalAddress, output_ptr: asc2.GlobalAddress, input_length, output_num_rows,
                       output_num_cols, tile_shape: asc2.ConstExpr, unroll_factor: asc2.ConstExpr):
    in_gm = asc2.global_tensor(input_ptr, [input_length])
    out_gm = asc2.global_tensor(output_ptr, [output_num_rows, output_num_cols])
    rows_per_block = asc2.ceildiv(output_num_rows, asc2.block_num())
    start_offset = asc2.block_idx() * rows_per_block
    row_iters = asc2.ceildiv(rows_per_block, tile_shape[0])
    column_iters = asc2.ceildiv(output_num_cols, tile_shape[1])
    for i in asc2.range(row_iters, unroll_factor=unroll_factor):
        row_start_offset = start_offset + i * tile_shape[0]
        tensor_part = asc2.copy_in(in_gm, [row_start_offset], [tile_shape[0]]).reshape(tile_shape[0], 1)
        res = tensor_part.broadcast_to(tile_shape[0], tile_shape[1])  # the column broadcast
        for j in asc2.range(column_iters, gm_barrier=True):
            asc2.copy_out(res, out_gm, [row_start_offset, j * tile_shape[1]])


@asc2.jit(reuse_alloc=1)
def broadcast_first_dim(input_ptr: asc2.GlobalAddress, output_ptr: asc2.GlobalAddress, input_length, output_num_rows,
                        output_num_cols, tile_shape: asc2.ConstExpr, unroll_factor: asc2.ConstExpr):
    in_gm = asc2.global_tensor(input_ptr, [input_length])
    out_gm = asc2.global_tensor(output_ptr, [output_num_rows, output_num_cols])
    rows_per_block = asc2.ceildiv(output_num_rows, asc2.block_num())
    start_offset = asc2.block_idx() * rows_per_block
    row_iters = asc2.ceildiv(rows_per_block, tile_shape[0])
    column_iters = asc2.ceildiv(output_num_cols, tile_shape[1])
    for j in asc2.range(column_iters, unroll_factor=unroll_factor):
        col_start_offset = j * tile_shape[1]
        tensor_part = asc2.copy_in(in_gm, [col_start_offset], [tile_shape[1]])
        res = tensor_part.broadcast_to(tile_shape[0], tile_shape[1])
        for i in asc2.range(row_iters):
            asc2.copy_out(res, out_gm, [start_offset + i * tile_shape[0], col_start_offset])


def values(n, dtype):
    """Values that use every byte: int64 ones differ in both 32-bit halves (a lo/hi mix-up shows)."""
    rng = np.random.default_rng(8)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)


def run(kernel, dtype, out_shape, tile, blocks, static, axis):
    rows, cols = out_shape
    length = rows if axis == 1 else cols
    x = values(length, dtype)
    out = np.ones(out_shape, dtype)
    sizes = [length, rows, cols]
    if static:
        sizes = [asc2.ConstExpr(s) for s in sizes]
    kernel[blocks](x, out, *sizes, tile, 2)
    expected = np.broadcast_to(x.reshape(-1, 1) if axis == 1 else x.reshape(1, -1), out_shape)
    np.testing.assert_array_equal(out, expected)
    assert not kernel.last_report["launch"]["races"]
    return kernel.compile(x, out, *sizes, tile, 2).ascendc


# int64: upstream's broadcast_test_27 ([4096, 16, 1] -> [.., 16], tile [456, 16]) and _30 ([.., 39, 1] -> [.., 32],
# tile [248, 32]) at fewer rows; a row count that is not a multiple of 8 (Brcb takes 8 values a repeat).
COLUMN_CASES = [
    ("int64", (2 * 456, 16), [456, 16], 2),
    ("int64", (2 * 248, 32), [248, 32], 2),
    ("int64", (60, 8), [30, 8], 2),
    ("int64", (12, 8), [4, 8], 3),  # 4 values end the source's last block: Brcb's 8 (64 bytes) via a scratch
    ("int8", (4 * 40, 64), [40, 64], 4),
    ("uint8", (2 * 24, 32), [24, 32], 2),
]


@requires_native
@pytest.mark.parametrize("static", [True, False], ids=["static", "dynamic"])
@pytest.mark.parametrize("dtype,out_shape,tile,blocks", COLUMN_CASES)
def test_column_broadcast_on_ascend950(dtype, out_shape, tile, blocks, static):
    asc2.set_platform("Model", "Ascend950")
    src = run(broadcast_last_dim, np.dtype(dtype), out_shape, tile, blocks, static, axis=1)
    ctype = {"int64": "int64_t", "int8": "int8_t", "uint8": "uint8_t"}[dtype]
    view = "uint32_t" if dtype == "int64" else "uint16_t"
    assert re.search(rf"AscendC::Brcb\(\w+, \w+(\[\d+\])?, \d+", src)
    assert f"LocalTensor<{ctype}>" in src
    assert re.search(rf"AscendC::Copy\(\w+(\[\d+\])?\.ReinterpretCast<{view}>\(\)", src)


ROW_CASES = [
    ("int64", (64, 16), [16, 16], 2),
    ("int64", (24, 72), [12, 72], 2),  # a row of 2.25 repeats: Copy's count mask takes the tail
    ("int8", (32, 64), [16, 64], 2),
    ("uint8", (16, 96), [8, 96], 2),
]


@requires_native
@pytest.mark.parametrize("platform", ["Ascend910B1", "Ascend950"])
@pytest.mark.parametrize("static", [True, False], ids=["static", "dynamic"])
@pytest.mark.parametrize("dtype,out_shape,tile,blocks", ROW_CASES)
def test_row_broadcast_everywhere(dtype, out_shape, tile, blocks, static, platform):
    asc2.set_platform("Model", platform)
    src = run(broadcast_first_dim, np.dtype(dtype), out_shape, tile, blocks, static, axis=0)
    view = "uint32_t" if dtype == "int64" else "uint16_t"
    assert re.search(rf"AscendC::Copy\(\w+(\[\d+\])?\.ReinterpretCast<{view}>\(\)", src)


@requires_native
@pytest.mark.parametrize("dtype,hint", [("int64", "int32"), ("int8", "float16"), ("uint8", "float16")])
def test_column_broadcast_on_a2_is_an_error_at_its_line(dtype, hint):
    asc2.set_platform("Model", "Ascend910B1")
    x = values(32, np.dtype(dtype))
    out = np.ones((32, 32), dtype)
    with pytest.raises(asc2.CompilationError) as e:
        broadcast_last_dim[1](x, out, 32, 32, 32, [32, 32], 1)
    message = str(e.value)
    assert f"test_wide_broadcast.py:{line_of(broadcast_last_dim, '# the column broadcast')}:" in message
    assert f"{dtype} broadcast of a column" in message and "Atlas A2/A3" in message
    assert "Ascend950" in message and f"asc2.{hint}" in message
    assert_user_terms(message)
