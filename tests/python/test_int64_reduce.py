"""int64 reductions: sum, max and min over rows, columns or the whole tile on Ascend950, vs numpy; A2/A3 refuse.

Ascend950's int64 Add/Max/Min exist only in the count form (mirror-cann/asc-devkit@82b89a15f:impl/basic_api/
dav_3510/kernel_operator_vec_binary_continuous_impl.h; the level-0 forms of kernel_operator_vec_binary_impl.h
take 16- and 32-bit types), so the fold by halves gathers its operands into contiguous runs (DataCopy within UB)
and the scalar unit combines the last block of each row (8-byte GetValue). Atlas A2/A3 have no 64-bit integer
vector arithmetic: an int64 reduction is a compile error at its line, like int64 + (test_int64_on_a2.py). The
first kernel is upstream's skillstack reduce_sum_rows (reduce_sum_test_12: [15, 2048] int64, tile [4, 2048]).
"""

import numpy as np
import pytest

import asc2
from conftest import assert_user_terms, line_of, requires_native


@asc2.jit(reuse_alloc=1)
def reduce_sum_rows(input_ptr: asc2.GlobalAddress, output_ptr: asc2.GlobalAddress, input_num_rows, input_num_cols,
                    output_length, tile_shape: asc2.ConstExpr, unroll_factor: asc2.ConstExpr):
    in_gm = asc2.global_tensor(input_ptr, [input_num_rows, input_num_cols])
    out_gm = asc2.global_tensor(output_ptr, [output_length])
    max_blocks = asc2.ceildiv(input_num_rows, tile_shape[0])
    iters = asc2.ceildiv(input_num_cols, tile_shape[1])
    for i in asc2.range(asc2.block_idx(), max_blocks, asc2.block_num(), unroll_factor=unroll_factor):
        cache = asc2.zeros([tile_shape[0]], dtype=in_gm.dtype)
        for j in asc2.range(iters, gm_barrier=True):
            block = asc2.copy_in(in_gm, [i * tile_shape[0], j * tile_shape[1]], tile_shape, pad_value=0)
            block = asc2.reduce_sum(block, 1)  # the reduction
            cache = cache + block
        asc2.copy_out(cache, out_gm, [i * tile_shape[0]])


def sizes(static, *values):
    return [asc2.ConstExpr(v) for v in values] if static else list(values)


def wide_values(shape, bound=1 << 40):
    """Values whose sums carry between the 32-bit halves (a 32-bit fold would be wrong)."""
    return np.random.default_rng(12).integers(-bound, bound, shape, dtype=np.int64)


@requires_native
@pytest.mark.parametrize("static", [True, False], ids=["static", "dynamic"])
@pytest.mark.parametrize("shape,tile,blocks", [
    ((15, 2048), [4, 2048], 5),  # upstream's reduce_sum_test_12
    ((9, 96), [4, 48], 2),       # 12 blocks a row: an odd fold level; two column tiles
    ((8, 20), [8, 20], 1),       # 5 blocks a row
])
def test_row_sums_on_ascend950(shape, tile, blocks, static):
    asc2.set_platform("Model", "Ascend950")
    x = wide_values(shape)
    out = np.zeros(shape[0], np.int64)
    reduce_sum_rows[blocks](x, out, *sizes(static, shape[0], shape[1], shape[0]), tile, 1)
    np.testing.assert_array_equal(out, x.sum(1))
    assert not reduce_sum_rows.last_report["launch"]["races"]
    src = reduce_sum_rows.compile(x, out, *sizes(static, shape[0], shape[1], shape[0]), tile, 1).ascendc
    assert "AscendC::Add(" in src and "GetValue(" in src


@asc2.jit
def reduce_tile(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, R: asc2.ConstExpr, C: asc2.ConstExpr,
                KIND: asc2.ConstExpr, DIM: asc2.ConstExpr):
    if R == 1:  # one row of any length (a 1-D tile; UB rows of 2-D tiles are 32-byte aligned)
        x = asc2.copy_in(asc2.global_tensor(x_ptr, [C]), [0], [C])
    else:
        x = asc2.copy_in(asc2.global_tensor(x_ptr, [R, C]), [0, 0], [R, C])
    if DIM is None:
        r = KIND(x)  # a scalar
        asc2.copy_out(asc2.full([4], r, dtype=asc2.int64), asc2.global_tensor(out_ptr, [4]), [0])
    else:
        n = C if DIM == 0 else R
        asc2.copy_out(KIND(x, DIM), asc2.global_tensor(out_ptr, [n]), [0])


KINDS = {"sum": (asc2.reduce_sum, np.sum), "max": (asc2.reduce_max, np.max), "min": (asc2.reduce_min, np.min)}


SHAPES_AND_DIMS = [((8, 64), 1), ((8, 64), 0), ((8, 64), None), ((7, 36), 1), ((7, 36), 0), ((7, 36), None),
                   ((1, 30), None)]  # 7 rows, 9 blocks a row: odd fold levels; 30: a part block


@requires_native
@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("shape,dim", SHAPES_AND_DIMS)
def test_sum_max_min_of_rows_columns_and_tiles_on_ascend950(kind, shape, dim):
    asc2.set_platform("Model", "Ascend950")
    ours, ref = KINDS[kind]
    x = wide_values(shape, bound=1 << 62) if kind != "sum" else wide_values(shape)
    expected = ref(x, axis=dim)
    out = np.zeros(4 if dim is None else expected.shape[0], np.int64)
    reduce_tile[1](x, out, shape[0], shape[1], ours, dim)
    np.testing.assert_array_equal(out, np.broadcast_to(expected, out.shape))
    assert not reduce_tile.last_report["launch"]["races"]


@requires_native
@pytest.mark.parametrize("platform", ["Ascend910B1", "Ascend910_93"])
def test_int64_reduction_on_a2_a3_is_an_error_at_its_line(platform):
    asc2.set_platform("Model", platform)
    x = wide_values((15, 2048))
    out = np.zeros(15, np.int64)
    with pytest.raises(asc2.CompilationError) as e:
        reduce_sum_rows[5](x, out, 15, 2048, 15, [4, 2048], 1)
    message = str(e.value)
    assert f"test_int64_reduce.py:{line_of(reduce_sum_rows, '# the reduction')}:" in message
    assert "int64 tile reduction" in message and "Atlas A2/A3" in message and "Ascend950" in message
    assert "asc2.int32" in message
    assert_user_terms(message)
