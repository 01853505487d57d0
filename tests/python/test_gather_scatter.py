"""asc2.gather / asc2.scatter: rows of a global tensor chosen by an index tile, checked against torch indexing.

gather(src, offsets, dim, index, check_bounds=True, num_indices=None, pad_value=None) gives a UB tile whose row i
is src[offsets[:dim], offsets[dim] + index[i]] (last dimension rounded up to 32 bytes, padded with pad_value);
scatter(src, dim, index, dst, offsets, check_bounds=True, num_indices=None) writes row i of src there. Both run on
Ascend950 (upstream's target) and on Atlas A2 (Ascend910B1: the same scalar loop and DataCopyPad calls exist
there). Upstream's earlier argument orders and its earlier name of num_indices (real_shape) are accepted.
Out-of-range rows: pad_value (gather) or skipped (scatter) with check_bounds; without it the simulator stops at the
row with the line and a hint. Every launch here is race-free (a race fails the launch).
"""

import numpy as np
import pytest

import asc2
from conftest import line_of, requires_native
from kernel_project import HAS_TWIN, NO_TWIN

torch = pytest.importorskip("torch", reason="python3-torch is not installed (packaging/install-deps.sh installs it)")

pytestmark = requires_native

PLATFORMS = ("Ascend950", "Ascend910B1")
DATA_DTYPES = (torch.int8, torch.int16, torch.int32, torch.float16, torch.bfloat16, torch.float32)
INDEX_DTYPES = (torch.int8, torch.int16, torch.int32, torch.int64)


def padded_row(row_len, dtype):
    per_block = 32 // torch.tensor([], dtype=dtype).element_size()
    return -(-row_len // per_block) * per_block


def reference_gather(table, index, offset, count, pad, row_pad):
    """Rows table[offset + index[i]] for i < count (pad_value when outside), rows past count pad_value too."""
    n, row_len = table.shape
    out = torch.full((index.shape[0], row_pad), pad, dtype=table.dtype)
    for i in range(count):
        p = offset + int(index[i])
        if 0 <= p < n:
            out[i, :row_len] = table[p]
    return out


# -- gather: a [rows, row_len] table, dim 0


@asc2.jit
def gather_rows(table_ptr, index_ptr, out_ptr, n: int, m: int, offset: int, N: asc2.ConstExpr, ROW: asc2.ConstExpr,
                CHECK: asc2.ConstExpr, PAD: asc2.ConstExpr):
    table = asc2.global_tensor(table_ptr, [n, ROW])
    index = asc2.copy_in(asc2.global_tensor(index_ptr, [m]), [0], [N])
    rows = asc2.gather(table, [offset], 0, index, check_bounds=CHECK, pad_value=PAD)
    asc2.copy_out(rows, asc2.global_tensor(out_ptr, [N, rows.shape[1]]), [0, 0])


@asc2.jit
def gather_some_rows(table_ptr, index_ptr, out_ptr, n: int, m: int, count: int, N: asc2.ConstExpr,
                     ROW: asc2.ConstExpr, PAD: asc2.ConstExpr):
    table = asc2.global_tensor(table_ptr, [n, ROW])
    index = asc2.copy_in(asc2.global_tensor(index_ptr, [m]), [0], [N])
    rows = asc2.gather(table, [0], 0, index, check_bounds=False, num_indices=count, pad_value=PAD)
    asc2.copy_out(rows, asc2.global_tensor(out_ptr, [N, rows.shape[1]]), [0, 0])


def run_gather(platform, dtype, index_dtype, n=32, row_len=32, index_range=32, offset=0, check=False, pad=None,
               count=None, seed=0):
    asc2.set_platform("Model", platform)
    table = torch.arange(n * row_len).to(dtype).reshape(n, row_len)
    index = torch.randint(0, index_range, (32,), dtype=index_dtype, generator=torch.Generator().manual_seed(seed))
    row_pad = padded_row(row_len, dtype)
    out = torch.zeros(32, row_pad, dtype=dtype)
    if count is None:
        kernel, count = gather_rows, 32
        gather_rows[1](table, index, out, n, 32, offset, 32, row_len, check, pad)
    else:
        kernel = gather_some_rows
        gather_some_rows[1](table, index, out, n, 32, count, 32, row_len, pad)
    assert kernel.last_report["launch"]["races"] == []
    expected = reference_gather(table, index, offset, max(0, min(count, 32)), 0 if pad is None else pad, row_pad)
    torch.testing.assert_close(out, expected, rtol=0, atol=0)


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("index_dtype", INDEX_DTYPES)
@pytest.mark.parametrize("dtype", DATA_DTYPES)
def test_gather_every_dtype(platform, dtype, index_dtype):
    run_gather(platform, dtype, index_dtype)


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("dtype", (torch.int8, torch.float16, torch.float32))
@pytest.mark.parametrize("case", ["unaligned_row", "out_of_range", "offset", "negative", "num_indices",
                                  "num_indices_past_end", "num_indices_negative"])
def test_gather_cases(platform, dtype, case):
    kw = {
        # a 31-element row: its tail up to 32 bytes is pad_value
        "unaligned_row": dict(row_len=31, pad=17),
        # indices 32..63 of a 32-row table: pad_value rows
        "out_of_range": dict(index_range=64, check=True, pad=17),
        # offset 16: positions 16..47, the upper half outside
        "offset": dict(offset=16, check=True, pad=17),
        # offset -8: positions -8..23, the negative ones outside
        "negative": dict(offset=-8, check=True, pad=-3),
        # run-time count: rows 16.. are pad_value
        "num_indices": dict(count=16, pad=5),
        "num_indices_past_end": dict(count=40, pad=5),  # clamped to the 32 indices
        "num_indices_negative": dict(count=-4, pad=5),  # no index used
    }[case]
    run_gather(platform, dtype, torch.int32, **kw)


def test_gather_upstream_earlier_order_and_real_shape():
    """gather(src, offsets, index, dim, ..., real_shape=n) (upstream's earlier order and name)."""

    @asc2.jit
    def earlier(table_ptr, index_ptr, out_ptr, n: int, count: int):
        table = asc2.global_tensor(table_ptr, [n, 16])
        index = asc2.copy_in(asc2.global_tensor(index_ptr, [32]), [0], [32])
        rows = asc2.gather(table, [0], index, 0, False, count, 0.5)
        asc2.copy_out(rows, asc2.global_tensor(out_ptr, [32, 16]), [0, 0])

    asc2.set_platform("Model", "Ascend950")
    table = torch.randn(20, 16)
    index = torch.randint(0, 20, (32,), dtype=torch.int32, generator=torch.Generator().manual_seed(3))
    out = torch.zeros(32, 16)
    earlier[1](table, index, out, 20, 12)
    torch.testing.assert_close(out, reference_gather(table, index, 0, 12, 0.5, 16), rtol=0, atol=0)


def test_gather_dim_1_of_a_rank_3_tensor_and_sub_tensor_rows():
    """dim=1 of [B, N, C] (rows of one batch), and dim=0 of [N, 4, C] (each index a [4, C] sub-tensor)."""

    @asc2.jit
    def by_dim1(x_ptr, index_ptr, out_ptr, b: int):
        x = asc2.global_tensor(x_ptr, [3, 10, 24])
        index = asc2.copy_in(asc2.global_tensor(index_ptr, [16]), [0], [16])
        rows = asc2.gather(x, [b, 1], 1, index)
        asc2.copy_out(rows, asc2.global_tensor(out_ptr, [16, 24]), [0, 0])

    @asc2.jit
    def blocks(x_ptr, index_ptr, out_ptr):
        x = asc2.global_tensor(x_ptr, [10, 4, 16])
        index = asc2.copy_in(asc2.global_tensor(index_ptr, [8]), [0], [8])
        rows = asc2.gather(x, [0], 0, index)  # [8, 4, 16]
        asc2.copy_out(rows, asc2.global_tensor(out_ptr, [8, 4, 16]), [0, 0, 0])

    asc2.set_platform("Model", "Ascend950")
    x = torch.randn(3, 10, 24)
    index = torch.tensor([0, 3, 8, 9, -1, 2, 2, 5, 10, 4, 6, 7, 1, 0, 8, 3], dtype=torch.int16)
    out = torch.zeros(16, 24)
    by_dim1[1](x, index, out, 2)
    expected = torch.stack([x[2, 1 + int(i)] if 0 <= 1 + int(i) < 10 else torch.zeros(24) for i in index])
    torch.testing.assert_close(out, expected, rtol=0, atol=0)

    y = torch.randn(10, 4, 16).to(torch.float16)
    index = torch.tensor([9, 0, 4, 4, 1, 7, 3, 2], dtype=torch.int64)
    out = torch.zeros(8, 4, 16, dtype=torch.float16)
    blocks[1](y, index, out)
    torch.testing.assert_close(out, y[index.long()], rtol=0, atol=0)


@asc2.jit(reuse_alloc=1, verify_sync=True)
def gather_loop(table_ptr, index_ptr, out_ptr, n: int, m: int, ROW: asc2.ConstExpr, STEP: asc2.ConstExpr):
    table = asc2.global_tensor(table_ptr, [n, ROW])
    indices = asc2.global_tensor(index_ptr, [m])
    out = asc2.global_tensor(out_ptr, [m, ROW])
    for t in range(asc2.block_idx(), asc2.ceildiv(m, STEP), asc2.block_num(), unroll_factor=2):
        index = asc2.copy_in(indices, [t * STEP], [STEP])
        rows = asc2.gather(table, [0], 0, index, check_bounds=False, num_indices=min(STEP, m - t * STEP))
        asc2.copy_out(rows, out, [t * STEP, 0])


@pytest.mark.parametrize("platform", PLATFORMS)
def test_gather_in_a_multi_core_unrolled_loop_is_race_free(platform):
    """Upstream's target kernel form: a grid-stride loop, unrolled, gathering STEP rows per trip (last trip
    partial); the statically verified sync leaves the simulator's race detector nothing to report."""
    asc2.set_platform("Model", platform)
    table = torch.randn(300, 96)
    index = torch.randint(0, 300, (1000,), dtype=torch.int32, generator=torch.Generator().manual_seed(1))
    out = torch.zeros(1000, 96)
    gather_loop[8](table, index, out, 300, 1000, 96, 24)
    assert gather_loop.last_report["launch"]["races"] == []
    torch.testing.assert_close(out, table[index.long()], rtol=0, atol=0)


# -- scatter


@asc2.jit
def scatter_rows(dst_ptr, src_ptr, index_ptr, n: int, offset: int, ROW: asc2.ConstExpr, CHECK: asc2.ConstExpr):
    dst = asc2.global_tensor(dst_ptr, [n, ROW])
    index = asc2.copy_in(asc2.global_tensor(index_ptr, [32]), [0], [32])
    rows = asc2.copy_in(asc2.global_tensor(src_ptr, [32, ROW]), [0, 0], [32, ROW])
    asc2.scatter(rows, 0, index, dst, [offset], check_bounds=CHECK)


@asc2.jit
def scatter_some(dst_ptr, src_ptr, index_ptr, n: int, count: int, ROW: asc2.ConstExpr):
    dst = asc2.global_tensor(dst_ptr, [n, ROW])
    index = asc2.copy_in(asc2.global_tensor(index_ptr, [32]), [0], [32])
    rows = asc2.copy_in(asc2.global_tensor(src_ptr, [32, ROW]), [0, 0], [32, ROW])
    asc2.scatter(rows, 0, index, dst, [0], num_indices=count, check_bounds=False)


def reference_scatter(dst, src, index, offset, count):
    out = dst.clone()
    for i in range(count):
        p = offset + int(index[i])
        if 0 <= p < dst.shape[0]:
            out[p] = src[i, :dst.shape[1]]
    return out


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("index_dtype", INDEX_DTYPES)
@pytest.mark.parametrize("dtype", DATA_DTYPES)
def test_scatter_every_dtype(platform, dtype, index_dtype):
    asc2.set_platform("Model", platform)
    dst = torch.arange(40 * 32).to(dtype).reshape(40, 32)
    src = (-torch.arange(32 * 32)).to(dtype).reshape(32, 32)
    index = torch.randperm(40, generator=torch.Generator().manual_seed(2))[:32].to(index_dtype)
    expected = reference_scatter(dst, src, index, 0, 32)
    scatter_some[1](dst, src, index, 40, 32, 32)
    assert scatter_some.last_report["launch"]["races"] == []
    torch.testing.assert_close(dst, expected, rtol=0, atol=0)


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("case", ["out_of_range", "offset", "negative", "repeated", "num_indices"])
def test_scatter_cases(platform, case):
    asc2.set_platform("Model", platform)
    g = torch.Generator().manual_seed(4)
    dst = torch.randn(32, 32, generator=g)
    src = torch.randn(32, 32, generator=g)
    if case == "repeated":  # the last row written to a position stays
        index = torch.randint(0, 8, (32,), dtype=torch.int32, generator=g)
        expected = reference_scatter(dst, src, index, 0, 32)
        scatter_some[1](dst, src, index, 32, 32, 32)
    elif case == "num_indices":
        index = torch.randperm(32, generator=g).to(torch.int16)
        expected = reference_scatter(dst, src, index, 0, 11)
        scatter_some[1](dst, src, index, 32, 11, 32)
    else:
        offset = {"out_of_range": 0, "offset": 16, "negative": -5}[case]
        index = torch.randint(0, 64 if case == "out_of_range" else 32, (32,), dtype=torch.int32, generator=g)
        expected = reference_scatter(dst, src, index, offset, 32)
        scatter_rows[1](dst, src, index, 32, offset, 32, True)
    torch.testing.assert_close(dst, expected, rtol=0, atol=0)


def test_scatter_of_gathered_rows_with_unaligned_rows_and_the_earlier_order():
    """A gathered [n, 32] tile (rows of 30 floats, padded) scattered back to a [., 30] tensor: the padding is not
    written. scatter(index, src, dst, offsets, dim) is upstream's earlier order."""

    @asc2.jit
    def permute(x_ptr, index_ptr, out_ptr, n: int):
        x = asc2.global_tensor(x_ptr, [n, 30])
        index = asc2.copy_in(asc2.global_tensor(index_ptr, [16]), [0], [16])
        rows = asc2.gather(x, [0], 0, index, pad_value=99.0)
        asc2.scatter(index, rows, asc2.global_tensor(out_ptr, [n, 30]), [0], 0)

    asc2.set_platform("Model", "Ascend910B1")
    x = torch.randn(16, 30)
    index = torch.randperm(16, generator=torch.Generator().manual_seed(5)).to(torch.int8)
    out = torch.zeros(16, 30)
    permute[1](x, index, out, 16)
    torch.testing.assert_close(out, x, rtol=0, atol=0)


# -- out-of-range indices without check_bounds: the simulator stops at the row


@asc2.jit
def unchecked_gather(table_ptr, index_ptr, out_ptr, n: int):
    table = asc2.global_tensor(table_ptr, [n, 32])
    index = asc2.copy_in(asc2.global_tensor(index_ptr, [16]), [0], [16])
    rows = asc2.gather(table, [0], 0, index, check_bounds=False)  # the unchecked gather
    asc2.copy_out(rows, asc2.global_tensor(out_ptr, [16, 32]), [0, 0])


@asc2.jit
def unchecked_scatter(dst_ptr, src_ptr, index_ptr, n: int):
    dst = asc2.global_tensor(dst_ptr, [n, 32])
    index = asc2.copy_in(asc2.global_tensor(index_ptr, [16]), [0], [16])
    rows = asc2.copy_in(asc2.global_tensor(src_ptr, [16, 32]), [0, 0], [16, 32])
    asc2.scatter(rows, 0, index, dst, [0], check_bounds=False)  # the unchecked scatter


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("bad", [20, -1])
def test_out_of_range_index_without_check_bounds_stops_the_run_at_its_line(platform, bad):
    asc2.set_platform("Model", platform)
    index = torch.arange(16, dtype=torch.int32)
    index[5] = bad
    table = torch.zeros(20, 32)
    with pytest.raises(asc2.SimulationError) as info:
        unchecked_gather[1](table, index, torch.zeros(16, 32), 20)
    message = str(info.value)
    assert f"test_gather_scatter.py:{line_of(unchecked_gather, '# the unchecked gather')}:" in message
    assert "GM out-of-bounds" in message and "check_bounds=True" in message and "asc2.gather" in message

    dst = torch.zeros(20, 32)
    with pytest.raises(asc2.SimulationError) as info:
        unchecked_scatter[1](dst, torch.ones(16, 32), index, 20)
    message = str(info.value)
    assert f"test_gather_scatter.py:{line_of(unchecked_scatter, '# the unchecked scatter')}:" in message
    assert "asc2.scatter" in message and "check_bounds=True" in message


# -- argument errors: at the call's line, in the user's terms


def check_compile_error(kernel, args, kind, words, op, line):
    """Compiling `kernel` with `args` fails with a `kind` error saying `words` about `op`, at kernel line `line`."""
    asc2.set_platform("Model", "Ascend950")
    with pytest.raises(asc2.CompilationError) as info:
        kernel[1](*args)
    message = str(info.value)
    assert isinstance(info.value, kind), message
    assert words in message and op in message, message
    assert f"test_gather_scatter.py:{line}:" in message, message


@asc2.jit
def bad_gather(table_ptr, index_ptr, out_ptr, n: int, WHAT: asc2.ConstExpr):
    table = asc2.global_tensor(table_ptr, [n, 32])
    index = asc2.copy_in(asc2.global_tensor(index_ptr, [32]), [0], [32])
    if WHAT == "float_index":
        rows = asc2.gather(table, [0], 0, index.to(asc2.float32))  # the bad call
    elif WHAT == "rank2_index":
        rows = asc2.gather(table, [0], 0, asc2.reshape(index, [2, 16]))  # the bad call
    elif WHAT == "last_dim":
        rows = asc2.gather(table, [0, 0], 1, index)  # the bad call
    elif WHAT == "dim_range":
        rows = asc2.gather(table, [0, 0, 0], 2, index)  # the bad call
    elif WHAT == "offsets":
        rows = asc2.gather(table, [0, 0], 0, index)  # the bad call
    elif WHAT == "too_many":
        rows = asc2.gather(table, [0], 0, index, num_indices=33)  # the bad call
    elif WHAT == "both_counts":
        rows = asc2.gather(table, [0], 0, index, num_indices=3, real_shape=3)  # the bad call
    elif WHAT == "runtime_pad":
        rows = asc2.gather(table, [0], 0, index, pad_value=asc2.copy_in(table, [0, 0]))  # the bad call
    elif WHAT == "runtime_check":
        rows = asc2.gather(table, [0], 0, index, check_bounds=n > 3)  # the bad call
    elif WHAT == "not_a_tensor":
        rows = asc2.gather(index, [0], 0, index)  # the bad call
    elif WHAT == "runtime_dim":
        rows = asc2.gather(table, [0], n - n, index)  # the bad call
    else:
        rows = asc2.gather(table, [0], 0, [1, 2, 3])  # the bad call
    asc2.copy_out(rows, asc2.global_tensor(out_ptr, [32, 32]), [0, 0])


@pytest.mark.parametrize("what, kind, words", [
    ("float_index", TypeError, "int8, int16, int32 or int64"),
    ("rank2_index", ValueError, "rank-1"),
    ("last_dim", RuntimeError, "last dimension"),
    ("dim_range", ValueError, "not a dimension"),
    ("offsets", ValueError, "offset(s) given"),
    ("too_many", ValueError, "num_indices 33"),
    ("both_counts", ValueError, "not both"),
    ("runtime_pad", TypeError, "pad_value must be a compile-time number"),
    ("runtime_check", TypeError, "check_bounds must be a compile-time bool"),
    ("not_a_tensor", TypeError, "'src' must be a global tensor"),
    ("runtime_dim", TypeError, "'dim' must be a compile-time integer"),
    ("list_index", TypeError, "'index' must be a tile"),
])
def test_gather_argument_errors(what, kind, words):
    line = line_of(bad_gather, "[1, 2, 3]") if what == "list_index" else line_of(bad_gather, f'"{what}"') + 1
    check_compile_error(bad_gather, (torch.zeros(4, 32), torch.zeros(32, dtype=torch.int32), torch.zeros(32, 32), 4,
                                     what), kind, words, "asc2.gather", line)


@asc2.jit
def bad_scatter(dst_ptr, index_ptr, WHAT: asc2.ConstExpr):
    dst = asc2.global_tensor(dst_ptr, [8, 30])
    index = asc2.copy_in(asc2.global_tensor(index_ptr, [16]), [0], [16])
    rows = asc2.zeros([16, 32], asc2.float32)
    if WHAT == "dtype":
        asc2.scatter(rows.to(asc2.float16), 0, index, dst, [0])  # the bad call
    elif WHAT == "row_shape":
        asc2.scatter(asc2.zeros([16, 64], asc2.float32), 0, index, dst, [0])  # the bad call
    elif WHAT == "few_rows":
        asc2.scatter(asc2.zeros([8, 32], asc2.float32), 0, index, dst, [0])  # the bad call
    elif WHAT == "rank":
        asc2.scatter(asc2.zeros([512], asc2.float32), 0, index, dst, [0])  # the bad call
    else:
        asc2.scatter(rows, 0, index.to(asc2.float16), dst, [0])  # the bad call


@pytest.mark.parametrize("what, kind, words", [
    ("dtype", TypeError, "different dtypes"),
    ("row_shape", ValueError, "rounded up to 32 bytes from 30"),
    ("few_rows", ValueError, "at least 16 rows"),
    ("rank", ValueError, "must have rank 2"),
    ("index_dtype", RuntimeError, "int8, int16, int32 or int64"),
])
def test_scatter_argument_errors(what, kind, words):
    line = line_of(bad_scatter, "index.to(asc2.float16)") if what == "index_dtype" else \
        line_of(bad_scatter, f'"{what}"') + 1
    check_compile_error(bad_scatter, (torch.zeros(8, 30), torch.zeros(16, dtype=torch.int32), what), kind, words,
                        "asc2.scatter", line)


def test_dynamic_row_dimension_is_an_error():
    @asc2.jit
    def dynamic_rows(table_ptr, index_ptr, out_ptr, n: int, row: int):
        table = asc2.global_tensor(table_ptr, [n, row])
        index = asc2.copy_in(asc2.global_tensor(index_ptr, [8]), [0], [8])
        rows = asc2.gather(table, [0], 0, index)  # the bad call
        asc2.copy_out(rows, asc2.global_tensor(out_ptr, [8, 32]), [0, 0])

    check_compile_error(dynamic_rows, (torch.zeros(4, 32), torch.zeros(8, dtype=torch.int32), torch.zeros(8, 32), 4,
                                       32), ValueError, "must be static", "asc2.gather",
                        line_of(dynamic_rows, "# the bad call"))


# -- the emitted Ascend C runs on the CPU twin with the simulator's results


@pytest.mark.skipif(not HAS_TWIN, reason=NO_TWIN)
def test_gather_and_scatter_on_the_twin(twin_cache, monkeypatch):
    monkeypatch.setenv("ASC2_TWIN_COMPARE", "1")
    asc2.set_platform(backend="Twin", platform="Ascend950")
    table = torch.arange(32 * 31).to(torch.float16).reshape(32, 31)
    index = torch.randint(0, 48, (32,), dtype=torch.int8, generator=torch.Generator().manual_seed(6))
    out = torch.zeros(32, 32, dtype=torch.float16)
    gather_rows[1](table, index, out, 32, 32, 0, 32, 31, True, -2)
    assert gather_rows.last_report["launch"]["compared_with_model"]
    torch.testing.assert_close(out, reference_gather(table, index, 0, 32, -2, 32), rtol=0, atol=0)
    dst = torch.zeros(40, 32, dtype=torch.int16)
    src = torch.arange(32 * 32).to(torch.int16).reshape(32, 32)
    index = torch.randperm(40, generator=torch.Generator().manual_seed(7))[:32].to(torch.int64)
    expected = reference_scatter(dst, src, index, 0, 32)
    scatter_some[1](dst, src, index, 40, 32, 32)
    torch.testing.assert_close(dst, expected, rtol=0, atol=0)
