"""Every cast and compare between the vector element types, on Atlas A2 (c220) and Ascend 950 (c310).

Ascend C's Cast and Compare take only some type pairs per target (Cast.md / Compare.md "数据类型"); the lowering
composes the rest from calls that exist (Conversion/AscTileToAscendC/TypeSupport.cpp) and the emitter refuses any
other call. Each test runs the composed calls in the simulator and checks them against numpy, over values that
exercise the hops: full integer ranges (narrowing wraps like numpy's astype), floats past the integer ranges
(float -> integer saturates), int32 values past 2**24 (compares must not go through float).
"""

import re
import zlib

import numpy as np
import pytest

import asc2
from conftest import requires_native
from test_bf16 import from_bf16, to_bf16

N = 512
PLATFORMS = ["Ascend910B1", "Ascend950"]
INTS = {"int8": np.int8, "uint8": np.uint8, "int16": np.int16, "int32": np.int32}
FLOATS = ["float16", "float32", "bfloat16"]
TYPES = list(INTS) + FLOATS


@asc2.jit
def cast_kernel(x_ptr, out_ptr, DST: asc2.ConstExpr, ROUND: asc2.ConstExpr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [N]), [0], [N])
    asc2.copy_out(asc2.cast(x, DST, ROUND), asc2.global_tensor(out_ptr, [N]), [0])


@asc2.jit
def compare_kernel(x_ptr, y_ptr, out_ptr, OP: asc2.ConstExpr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [N]), [0], [N])
    y = asc2.copy_in(asc2.global_tensor(y_ptr, [N]), [0], [N])
    if OP == "lt":
        m = x < y
    elif OP == "le":
        m = x <= y
    elif OP == "gt":
        m = x > y
    elif OP == "ge":
        m = x >= y
    elif OP == "eq":
        m = x == y
    else:
        m = x != y
    asc2.copy_out(asc2.where(m, 1.0, 0.0), asc2.global_tensor(out_ptr, [N]), [0])


def _values(name, rng):
    """Host values of type `name` (bfloat16 as uint16 bits) and their float64 meaning."""
    if name in INTS:
        info = np.iinfo(INTS[name])
        x = rng.integers(info.min, info.max, N, endpoint=True, dtype=np.int64)
        x[:4] = [info.min, info.max, 0, -1 if info.min < 0 else 1]
        return x.astype(INTS[name]), x.astype(np.float64)
    # Past every integer range, fractional, signed; within each float type's range.
    scale = {"float16": 6e4, "float32": 3e9, "bfloat16": 3e9}[name]
    x = rng.uniform(-1, 1, N) * np.geomspace(1, scale, N)
    x[:6] = [0.5, -0.5, 1.5, -2.5, 127.9, -128.9]
    if name == "bfloat16":
        bits = to_bf16(x.astype(np.float32))
        return bits, from_bf16(bits).astype(np.float64)
    host = x.astype(name)
    return host, host.astype(np.float64)


def _device(host, name):
    return asc2.reinterpret(host, asc2.bfloat16) if name == "bfloat16" else host


def _expected(src, dst, host, value):
    if dst in INTS:
        if src in INTS:
            return host.astype(np.int64).astype(INTS[dst])  # wraps
        info = np.iinfo(INTS[dst])
        return np.clip(np.trunc(value), info.min, info.max).astype(INTS[dst])  # truncates, saturates
    if dst == "bfloat16":
        return to_bf16(value.astype(np.float32))  # int32 -> float32 -> bfloat16 (two roundings past 2**24)
    if src == "bfloat16":
        return value.astype(dst)
    return host.astype(dst)


def _platform(platform):
    asc2.set_platform(backend="Model", platform=platform)


@requires_native
@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("src,dst", [(s, d) for s in TYPES for d in TYPES if s != d])
def test_every_cast_matches_numpy(platform, src, dst):
    _platform(platform)
    host, value = _values(src, np.random.default_rng(zlib.crc32(f"{src}>{dst}".encode())))
    out = np.zeros(N, np.uint16 if dst == "bfloat16" else dst)
    cast_kernel[1](_device(host, src), _device(out, dst), DST=getattr(asc2, dst), ROUND=None)
    with np.errstate(over="ignore"):  # numpy warns where float16 overflows to inf, as the casts do
        expected = _expected(src, dst, host, value)
    np.testing.assert_array_equal(out, expected)


CMPS = {"lt": lambda a, b: a < b, "le": lambda a, b: a <= b, "gt": lambda a, b: a > b,
        "ge": lambda a, b: a >= b, "eq": lambda a, b: a == b, "ne": lambda a, b: a != b}


@requires_native
@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("dtype", TYPES)
@pytest.mark.parametrize("op", list(CMPS))
def test_every_compare_matches_numpy(platform, dtype, op):
    _platform(platform)
    rng = np.random.default_rng(5)
    x, xv = _values(dtype, rng)
    y, yv = _values(dtype, rng)
    y[::3], yv[::3] = x[::3], xv[::3]  # equal pairs
    if dtype == "int32":
        # Neighbours past 2**24, which float32 cannot tell apart.
        x[3::7] = 2**24 + 1 + np.arange(len(x[3::7]))
        y[3::7] = x[3::7] + 1
        xv, yv = x.astype(np.float64), y.astype(np.float64)
    out = np.zeros(N, np.float32)
    compare_kernel[1](_device(x, dtype), _device(y, dtype), out, OP=op)
    np.testing.assert_array_equal(out, CMPS[op](xv, yv).astype(np.float32))


def _emitted(kernel, platform, args, consts, tmp_path, monkeypatch):
    _platform(platform)
    monkeypatch.setenv("ASC2_DUMP_PATH", str(tmp_path))
    kernel[1](*args, **consts)
    monkeypatch.delenv("ASC2_DUMP_PATH")
    return "\n".join(p.read_text() for p in tmp_path.rglob("ascendc.cpp"))


@requires_native
def test_a2_int32_compare_is_max_and_eq(tmp_path, monkeypatch):
    x = np.arange(N, dtype=np.int32)
    code = _emitted(compare_kernel, "Ascend910B1", (x, x, np.zeros(N, np.float32)), {"OP": "lt"}, tmp_path, monkeypatch)
    assert "AscendC::Max(" in code and "CMPMODE::EQ" in code and "AscendC::Not(" in code
    assert "CMPMODE::LT" not in code


@requires_native
def test_a2_int16_to_int32_goes_through_float(tmp_path, monkeypatch):
    x = np.arange(N, dtype=np.int16)
    code = _emitted(cast_kernel, "Ascend910B1", (x, np.zeros(N, np.int32)), {"DST": asc2.int32, "ROUND": None},
                    tmp_path, monkeypatch)
    casts = re.findall(r"AscendC::Cast(?:<[^>]*>)?\(", code)
    assert len(casts) == 2, code
    code950 = _emitted(cast_kernel, "Ascend950", (x, np.zeros(N, np.int32)), {"DST": asc2.int32, "ROUND": None},
                       tmp_path / "950", monkeypatch)
    assert len(re.findall(r"AscendC::Cast(?:<[^>]*>)?\(", code950)) == 1, code950
