"""asc2.inline and asc2.inline_vf: the kernel author's Ascend C compiles into the emitted kernel, `$N` replaced by the
C++ names of the arguments; the passes treat it conservatively (PIPE_ALL barriers around asc2.inline, inline_vf a
vector op whose UB result the planner allocates); a launch on the simulator is refused at the call's line, the CPU
twin runs asc2.inline code and refuses inline_vf's, and export_project writes the kernel for an NPU.

The kernels are ours, in the forms of upstream PyAsc2's unit tests (test_debug_ops.py: a jit kernel calling
asc2.inline / inline_vf, compiled and launched).
"""

import json
import os
import re

import numpy as np
import pytest

import asc2
from conftest import line_of, requires_native

pytestmark = requires_native

JIT = dict(always_compile=True, capture_exceptions=False)


@asc2.jit(**JIT)
def constant_decl():
    asc2.inline("constexpr int32_t x = 42;")  # INLINE


@asc2.jit(**JIT)
def with_args(x_ptr: asc2.GlobalAddress, n: int):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [n]), [0], [64])
    asc2.inline("""
        auto ptr = $0;
        int64_t length = $1;
        auto tile = $2;
        auto scaled = $1 * $3;
        bool flag = $4;
    """, [x_ptr, n, x, 2, True])
    asc2.copy_out(x, asc2.global_tensor(x_ptr, [n]), [0])


@asc2.jit(**JIT)
def before_function():
    asc2.inline("constexpr int32_t K = $0;", [42], before_function=True)
    asc2.inline("constexpr int32_t x = K;")


@asc2.jit(**JIT)
def vector_function(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [32, 64]), [0, 0], [32, 64])
    y = asc2.copy_in(asc2.global_tensor(y_ptr, [32, 64]), [0, 0], [32, 64])
    z = asc2.inline_vf("AscendC::Add($0, $1, $2, 2048);", [32, 64], asc2.float32, [x, y])  # VF
    asc2.copy_out(z, asc2.global_tensor(out_ptr, [32, 64]), [0, 0])


def source_of(kernel, *args, **kwargs):
    return kernel.compile(*args, **kwargs).ascendc


def kernel_body(src):
    return src[src.index('extern "C"'):]


def test_inline_code_is_in_the_kernel_where_the_call_is():
    body = kernel_body(source_of(constant_decl))
    assert re.search(r"// asc2\.inline  // line \d+\n\s+constexpr int32_t x = 42;\n", body)
    # The code runs between PIPE_ALL barriers: it may use any pipe and buffer.
    assert re.search(r"PipeBarrier<PIPE_ALL>\(\);\n\s+// asc2\.inline.*\n\s+constexpr int32_t x = 42;\n"
                     r"\s+AscendC::PipeBarrier<PIPE_ALL>\(\);", body)


def test_placeholders_become_the_cxx_names_of_the_arguments():
    src = source_of(with_args, np.zeros(64, np.float32), 64)
    n = re.search(r"void \w+\(GM_ADDR a0, int64_t (\w+)\)", src).group(1)
    tile = re.search(r"auto tile = (\w+);", src).group(1)
    assert "auto ptr = ((__gm__ float *)a0);" in src
    assert f"int64_t length = {n};" in src and f"auto scaled = {n} * 2;" in src and "bool flag = true;" in src
    assert re.search(rf"AscendC::LocalTensor<float> {tile}\b", src)
    assert "$" not in kernel_body(src)
    # The code's own indentation is replaced by the kernel's.
    assert re.search(r"\n  auto ptr = .*\n  int64_t length = ", src)


def test_before_function_code_precedes_the_kernel_function():
    src = source_of(before_function)
    head, body = src[:src.index('extern "C"')], kernel_body(src)
    assert "constexpr int32_t K = 42;" in head and "constexpr int32_t K" not in body
    assert head.index('#include "kernel_operator.h"') < head.index("constexpr int32_t K = 42;")
    assert "constexpr int32_t x = K;" in body


def test_inline_vf_result_is_a_ub_tile_the_planner_allocates():
    arrays = [np.zeros((32, 64), np.float32) for _ in range(3)]
    compiled = vector_function.compile(*arrays)
    src = compiled.ascendc
    dst, a, b = re.search(r"__VEC_SCOPE__ \{  // asc2\.inline_vf  // line \d+\n\s+AscendC::Add\((\w+), (\w+), (\w+), "
                          r"2048\);\n\s+\}", src).groups()
    assert len({dst, a, b}) == 3
    # A vector op: the loads are waited for before it, the store waits for it.
    before, after = src.split("__VEC_SCOPE__")
    assert "AscendC::HardEvent::MTE2_V" in before.split("AscendC::DataCopyPad")[-1]
    assert "AscendC::HardEvent::V_MTE3" in after.split("DataCopyPad")[0]
    lines = src.splitlines()
    at = next(i for i, line in enumerate(lines) if "__VEC_SCOPE__" in line)
    assert "PIPE_ALL" not in lines[at - 1] and "PIPE_ALL" not in lines[at + 3]  # no fence: a vector op
    report = compiled.report(include_ir=False)
    buffers = {b["name"]: b for b in report["memory"]["buffers"]}
    vf = next(b for name, b in buffers.items() if name.startswith("inline_vf"))
    loads = [b for b in buffers.values() if b is not vf]
    vf_point = vf["live"][0]
    assert vf["size"] == 32 * 64 * 4 and vf["space"] == "UB"
    for load in loads:
        assert load["live"][1] == vf_point  # the inputs die at the inline_vf, the result is born there
        assert load["offset"] + load["size"] <= vf["offset"] or vf["offset"] + vf["size"] <= load["offset"]
    assert vf["live"][1] > vf_point


def test_launch_on_the_simulator_names_the_call_and_what_to_do():
    with pytest.raises(asc2.BackendUnsupportedError) as info:
        constant_decl[1]()
    e = info.value
    assert isinstance(e, asc2.SimulationError) and isinstance(e, asc2.UnsupportedError)
    assert e.file == constant_decl.source.file and e.line == line_of(constant_decl, "# INLINE")
    assert str(e).startswith(f"{e.file}:{e.line}:")
    assert "asc2.inline" in e.message and "simulator cannot run" in e.message
    assert "export_project" in e.message and "NPU" in e.message
    launch = constant_decl.last_report["launch"]
    assert launch["ok"] is False and "asc2.inline" in launch["error"]


def test_inline_vf_launch_is_refused_at_its_line():
    arrays = [np.zeros((32, 64), np.float32) for _ in range(3)]
    out = arrays[2].copy()
    with pytest.raises(asc2.BackendUnsupportedError, match="asc2.inline_vf: the kernel holds register-level") as info:
        vector_function[1](*arrays)
    assert info.value.line == line_of(vector_function, "# VF")
    np.testing.assert_array_equal(arrays[2], out)  # nothing ran


@pytest.mark.parametrize("variable", ["ASC2_DUMP_PATH", "ASC2_EXPORT_PROJECT"])
def test_a_refused_launch_is_still_dumped_and_exported(tmp_path, monkeypatch, variable):
    monkeypatch.setenv(variable, str(tmp_path))
    with pytest.raises(asc2.BackendUnsupportedError):
        constant_decl[1]()
    with open(tmp_path / "constant_decl" / "ascendc.cpp") as f:
        assert "constexpr int32_t x = 42;" in f.read()


def test_export_project_writes_the_kernel_without_golden_data(tmp_path):
    arrays = [np.ones((32, 64), np.float32) for _ in range(3)]
    path = vector_function[1].export_project(str(tmp_path / "vf"), *arrays)
    with open(os.path.join(path, "ascendc.cpp")) as f:
        assert "__VEC_SCOPE__" in f.read()
    with open(os.path.join(path, "kernel.json")) as f:
        assert json.load(f)["golden"] is False
    assert not os.path.exists(os.path.join(path, "golden"))
    with open(os.path.join(path, "README.md")) as f:
        assert "cannot run the kernel's asc2.inline / inline_vf code" in f.read()


@asc2.jit
def inline_writes_gm(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [64]), [0], [64])
    asc2.copy_out(x, asc2.global_tensor(out_ptr, [64]), [0])
    asc2.inline("$0[3] = $1;", [out_ptr, 42.0])


def test_the_twin_runs_inline_code_in_order_with_the_kernel(twin_cache):
    asc2.set_platform(backend="Twin", platform="Ascend910B1")
    x = np.arange(64, dtype=np.float32)
    out = np.zeros_like(x)
    inline_writes_gm[1](x, out)
    expected = x.copy()
    expected[3] = 42.0  # written by the inline code after the copy-out finished (the barrier before it)
    np.testing.assert_array_equal(out, expected)


def test_the_twin_cannot_compare_inline_code_with_the_simulator(twin_cache, monkeypatch):
    monkeypatch.setenv("ASC2_TWIN_COMPARE", "1")
    asc2.set_platform(backend="Twin", platform="Ascend910B1")
    out = np.zeros(64, np.float32)
    with pytest.raises(asc2.BackendUnsupportedError, match="cannot be compared"):
        inline_writes_gm[1](np.arange(64, dtype=np.float32), out)
    assert not out.any()  # refused before either ran


def test_the_twin_refuses_register_level_code(twin_cache):
    asc2.set_platform(backend="Twin", platform="Ascend910B1")
    arrays = [np.zeros((32, 64), np.float32) for _ in range(3)]
    with pytest.raises(asc2.BackendUnsupportedError, match="CPU twin cannot run") as info:
        vector_function[1](*arrays)
    assert info.value.line == line_of(vector_function, "# VF")


@asc2.jit(**JIT)
def placeholder_past_args(x_ptr: asc2.GlobalAddress):
    asc2.inline("auto p = $1;", [x_ptr])


@asc2.jit(**JIT)
def before_function_with_a_runtime_value(n: int):
    asc2.inline("constexpr int64_t N = $0;", [n], before_function=True)


@asc2.jit(**JIT)
def vf_placeholder_past_inputs():
    asc2.inline_vf("$0 = $1;", [64], asc2.float32)


def test_placeholders_and_arguments_are_checked_at_the_call():
    with pytest.raises(ValueError, match=r"asc2.inline: the code uses \$1, but the args are only \$0"):
        placeholder_past_args.compile(np.zeros(8, np.float32))
    with pytest.raises(TypeError, match="before_function=True .* must be Python numbers"):
        before_function_with_a_runtime_value.compile(3)
    with pytest.raises(ValueError, match=r"uses \$1, but the tiles \(\$0 the result, then the inputs\) are only \$0"):
        vf_placeholder_past_inputs.compile()
