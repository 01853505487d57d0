"""The tail of a partial int64 tile is filled without an int64 Duplicate, which A2/A3 do not have
(dav_c220's Duplicate takes 16- and 32-bit types: mirror-cann/asc-devkit@82b89a15f:
impl/basic_api/dav_c220/kernel_operator_vec_duplicate_impl.h). A pad whose 32-bit halves are equal
fills the uint32_t view; any other pad is written element by element. The numbers stay numpy's."""

import re

import numpy as np
import pytest

import asc2

TILE = 64


@asc2.jit
def shifted(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, n: int, PAD: asc2.ConstExpr[int]):
    """out = the tile of x padded with PAD past n (a tile of TILE int64 values)."""
    x_gm = asc2.global_tensor(x_ptr, [n])
    out_gm = asc2.global_tensor(out_ptr, [TILE])
    x = asc2.copy_in(x_gm, [0], [TILE], pad_value=PAD)
    asc2.copy_out(x, out_gm, [0])


def run(n, pad):
    x = np.arange(100, 100 + n, dtype=np.int64) * (1 << 33)
    out = np.zeros(TILE, dtype=np.int64)
    shifted[1](x, out, n, pad)
    want = np.full(TILE, pad, dtype=np.int64)
    want[:n] = x
    np.testing.assert_array_equal(out, want)
    return shifted.compile(x, out, n, pad).ascendc


@pytest.fixture(params=["Ascend910B1", "Ascend950"])
def platform(request):
    asc2.set_platform(asc2.Backend.Model, request.param, 0)
    yield request.param


def int64_duplicates(src):
    return re.findall(r"AscendC::Duplicate\((?:(?!\);).)*int64_t", src)


@pytest.mark.parametrize("pad", [0, -1])
def test_equal_halves_fill_the_uint32_view(platform, pad):
    src = run(37, pad)
    assert not int64_duplicates(src), int64_duplicates(src)
    assert re.search(r"AscendC::Duplicate\(\w+\[[^\]]*\]\.ReinterpretCast<uint32_t>\(\), "
                     rf"static_cast<uint32_t>\({pad & 0xFFFFFFFF}u\), \(64 - padded\) \* 2\);", src), src


def test_other_pads_are_written_by_the_scalar_unit(platform):
    pad = (5 << 32) + 7
    src = run(37, pad)
    assert not int64_duplicates(src)
    assert re.search(rf"for \(uint32_t k = 0; k < \(64 - padded\); \+\+k\) \w+\[[^\]]*\]\.SetValue\(k, "
                     rf"static_cast<int64_t>\({pad}\)\);", src), src


def test_a_whole_tile_needs_no_fill(platform):
    run(TILE, 0)
