"""Bool masks are Ascend C bit masks (LocalTensor<uint8_t>, one bit per element) in the emitted code,
through compare, select, bit ops, casts and GM copies; and the numbers still match numpy. The
docs: docs/ascendc-api.md, "Masks, literals, symbols, elementwise"."""

import re

import numpy as np

import asc2
from conftest import requires_native

N = 256


@asc2.jit
def masks(x_ptr, y_ptr, m_ptr, o_ptr, b_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [N]), [0], [N])
    y = asc2.copy_in(asc2.global_tensor(y_ptr, [N]), [0], [N])
    m = asc2.copy_in(asc2.global_tensor(m_ptr, [N]), [0], [N])  # a bool tensor from GM
    keep = (x > y) & ~m
    asc2.copy_out(asc2.where(keep, x, 0.0) + (x < 1.0).to(asc2.float32), asc2.global_tensor(o_ptr, [N]), [0])
    asc2.copy_out(keep | (y > 2.0), asc2.global_tensor(b_ptr, [N]), [0])


def args():
    rng = np.random.default_rng(3)
    x = rng.uniform(-4, 4, N).astype(np.float32)
    y = rng.uniform(-4, 4, N).astype(np.float32)
    m = rng.uniform(0, 1, N) < 0.3
    return x, y, m, np.zeros(N, np.float32), np.zeros(N, bool)


@requires_native
def test_bool_masks_through_gm_bit_ops_and_casts():
    x, y, m, o, b = args()
    masks[1](x, y, m, o, b)
    keep = (x > y) & ~m
    np.testing.assert_array_equal(o, np.where(keep, x, 0.0).astype(np.float32) + (x < 1.0))
    np.testing.assert_array_equal(b, keep | (y > 2.0))


def test_emitted_masks_are_uint8_bit_masks():
    src = masks.compile(*args()).ascendc
    assert "LocalTensor<bool>" not in src and "GlobalTensor<bool>" not in src
    assert "CompareScalar" not in src and "Xors" not in src
    # N bools are N / 8 bytes.
    masks_decl = re.findall(r"LocalTensor<uint8_t> (mask\w*)\(AscendC::TPosition::VECCALC, \d+, (\d+)\)", src)
    masks_decl += re.findall(r"LocalTensor<uint8_t> (mask\w*) = spaceUB\.GetWithOffset<uint8_t>\((\d+), \d+\)", src)
    assert masks_decl and all(int(size) == N // 8 for _, size in masks_decl), masks_decl
    # The real operand forms: Compare / Compares with a CMPMODE and a count of whole repeats.
    assert re.search(r"AscendC::Compare\(mask\w*, \w+, \w+, AscendC::CMPMODE::GT, 256\);", src)
    assert re.search(r"AscendC::Compares\(\w+, \w+, static_cast<float>\(1\.0f\), AscendC::CMPMODE::LT, 256\);", src)
    assert re.search(r"AscendC::Select\(\w+, \w+, \w+, static_cast<float>\(0\.0f\), "
                     r"AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, 256\);", src)
    # Bit ops on the mask's bytes, as uint16_t words: 256 bits = 16 words.
    assert re.search(r"AscendC::And\(\w+\.ReinterpretCast<uint16_t>\(\), \w+\.ReinterpretCast<uint16_t>\(\), "
                     r"\w+\.ReinterpretCast<uint16_t>\(\), 16\);", src)
    assert "AscendC::Not(" in src and "AscendC::Or(" in src
    # GM bools are bytes: uint8 in, Cast to half, Compares != 0; and back with Select and Cast.
    assert "GlobalTensor<uint8_t>" in src
    assert "AscendC::CMPMODE::NE" in src and "AscendC::RoundMode::CAST_RINT" in src


@asc2.jit
def pad_with_inf(x_ptr, o_ptr, n: int):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [n]), [0], [N], pad_value=-float("inf"))
    asc2.copy_out(asc2.maximum(x, float("inf")) + float("nan"), asc2.global_tensor(o_ptr, [n]), [0])


def test_special_float_literals_are_cxx():
    src = pad_with_inf.compile(np.zeros(100, np.float32), np.zeros(100, np.float32), 100).ascendc
    assert not re.search(r"\binff\b|\bnanf\b", src), "inf/nan printed as inff/nanf"
    assert "-__builtin_inff()" in src
    assert "__builtin_nanf(" in src


@asc2.jit
def select(x_ptr, o_ptr):  # a kernel named like libc's select(2)
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [N]), [0], [N])
    asc2.copy_out(asc2.where(x > 0.0, x, 1.0), asc2.global_tensor(o_ptr, [N]), [0])


def test_kernel_symbol_is_prefixed_and_reported():
    compiled = select.compile(np.zeros(N, np.float32), np.zeros(N, np.float32))
    report = compiled.report()
    assert report["kernel"] == "select"
    assert report["kernel_symbol"] == "asc2_select"
    assert re.search(r'extern "C" __global__ __aicore__ void asc2_select\(', compiled.ascendc)
    assert not re.search(r"void select\(", compiled.ascendc)
