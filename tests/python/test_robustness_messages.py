"""issue 17: errors speak the kernel author's terms (tile [64] float32 in UB, file:line, the Python operator), options
that make no sense are refused instead of silently accepted, and compile-time unrolling is bounded.

conftest's ``scanned_error_messages`` checks every message a robustness test catches with pytest.raises for MLIR
types, locations, SSA names and pybind11 dumps; the first test shows that the scan bites."""

import _pytest.python_api
import numpy as np
import pytest

import asc2
from conftest import assert_user_terms, compiler_terms_in, line_of, requires_native

X = np.zeros(64, np.float32)


def test_the_scan_catches_compiler_terms():
    for text, what in [("tile !asctile.tile<64xf32, UB> has no attribute 'upper'", "an MLIR type"),
                       ('"x_ptr" (160000 bytes) from loc("k.py":5:9)', "an MLIR location"),
                       ("asctile-input:1:1: custom op 'this' is unknown", "an MLIR location"),
                       ("use of %arg3 before its definition", "an SSA value name"),
                       ("'arith.remf' op on tiles is not supported", "an MLIR op name"),
                       ("incompatible function arguments. Invoked with: 1", "a pybind11 dump")]:
        assert what in compiler_terms_in(text), text
    assert compiler_terms_in("tile [64] float32 in UB: 25% of UB at k.py:5:9") == []
    with _pytest.python_api.raises(AssertionError, match="an MLIR type"):
        with pytest.raises(ValueError):
            raise ValueError("'z' changes type from !asctile.tile<128xf32, UB>")


@asc2.jit
def method_on_tile(x_ptr):
    x_gm = asc2.global_tensor(x_ptr, [64])
    t = asc2.copy_in(x_gm, [0], [64])
    asc2.copy_out(t.upper(), x_gm, [0])  # upper


def test_an_unknown_tile_attribute_names_the_tile_as_the_kernel_does():
    with pytest.raises(asc2.CompilationError, match=r"tile \[64\] float32 in UB has no attribute 'upper'") as e:
        method_on_tile.ir(X)
    assert e.value.line == line_of(method_on_tile, "# upper")


@asc2.jit
def tile_changes_shape_in_a_loop(x_ptr):
    x_gm = asc2.global_tensor(x_ptr, [256])
    z = asc2.copy_in(x_gm, [0], [64])
    for i in asc2.range(2):
        z = asc2.copy_in(x_gm, [0], [128])
    asc2.copy_out(z, x_gm, [0])


def test_a_loop_carried_tile_that_changes_shape_is_described_in_user_terms():
    with pytest.raises(asc2.CompilationError,
                       match=r"'z' changes type from tile \[128\] float32 in UB to tile \[64\] float32 in UB"):
        tile_changes_shape_in_a_loop.ir(np.zeros(256, np.float32))


@asc2.jit
def zeros_of(x_ptr, DT: asc2.ConstExpr):
    x_gm = asc2.global_tensor(x_ptr, [64])
    asc2.copy_out(asc2.zeros([64], dtype=DT), x_gm, [0])


def test_an_error_in_zeros_names_zeros():
    with pytest.raises(asc2.CompilationError, match=r"asc2\.zeros: dtype must be an asc2 dtype, got str 'nope'"):
        zeros_of.ir(X, DT="nope")


@asc2.jit
def loop_with(x_ptr, PARALLEL: asc2.ConstExpr, UNROLL: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [64])
    for i in asc2.range(4, parallel=PARALLEL, unroll_factor=UNROLL):  # loop
        asc2.copy_out(asc2.copy_in(x_gm, [0], [64]), x_gm, [0])


@pytest.mark.parametrize("parallel", ["no", 1, None, 0.0])
def test_parallel_must_be_a_bool(parallel):
    with pytest.raises(asc2.CompilationError, match="parallel must be True or False") as e:
        loop_with.ir(X, PARALLEL=parallel, UNROLL=1)
    assert e.value.line == line_of(loop_with, "# loop")


def test_parallel_true_and_false_still_compile():
    for parallel in (True, False):
        assert "asctile.parallel = " + ("true" if parallel else "false") in loop_with.ir(X, PARALLEL=parallel,
                                                                                            UNROLL=2)


@pytest.mark.parametrize("factor", [2**40, 1025])
def test_an_unroll_factor_past_the_bound_is_an_error_not_a_hang(factor):
    with pytest.raises(asc2.CompilationError, match=rf"unroll_factor={factor} .* \(at most 1024\)"):
        loop_with.ir(X, PARALLEL=False, UNROLL=factor)


@asc2.jit
def static_trips(x_ptr, N: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [64])
    for i in asc2.static_range(N):  # static
        asc2.copy_out(asc2.copy_in(x_gm, [0], [64]), x_gm, [0])


def test_a_static_range_too_long_to_unroll_is_an_error_at_the_loop():
    with pytest.raises(asc2.CompilationError, match=r"asc2.static_range of 1000000 trips .* use asc2.range") as e:
        static_trips.ir(X, N=10**6)
    assert e.value.line == line_of(static_trips, "# static")


@asc2.jit
def nested_unrolled(x_ptr, n: int, UNROLL: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [64])
    for i in asc2.range(n, unroll_factor=UNROLL):  # outer
        for j in asc2.range(n, unroll_factor=UNROLL):
            asc2.copy_out(asc2.copy_in(x_gm, [0], [64]) + 1.0, x_gm, [0])


@requires_native
def test_unrolled_loops_that_multiply_past_the_op_budget_are_an_error_at_the_outer_loop():
    # Each factor is allowed; unrolled inside one another they would make ~10^7 operations (the fuzzer's hang).
    with pytest.raises(asc2.CompilationError, match=r"unrolling this loop 1024 times grows the kernel to \d+ "
                                                    r"operations .* more than the 400000 a kernel may have") as e:
        nested_unrolled.compile(X, 4, UNROLL=1024)
    assert e.value.line == line_of(nested_unrolled, "# outer")
    nested_unrolled.compile(X, 4, UNROLL=2)  # modest factors still compile


@asc2.jit
def python_unrolled(x_ptr, N: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [64])
    t = asc2.copy_in(x_gm, [0], [64])
    for i in asc2.static_range(N):
        for j in asc2.static_range(N):
            t = t + 1.0  # grows
    asc2.copy_out(t, x_gm, [0])


def test_a_kernel_that_unrolls_past_the_op_budget_is_an_error_at_the_line(monkeypatch):
    from asc2.codegen import ir

    monkeypatch.setattr(ir, "MAX_KERNEL_OPS", 5_000)  # the real budget (400,000) takes ~a minute to reach
    with pytest.raises(asc2.CompilationError, match="the kernel grows past 5000 operations here") as e:
        python_unrolled.ir(X, N=100)
    assert e.value.line == line_of(python_unrolled, "# grows")
    assert python_unrolled.ir(X, N=3).count("arith.addf") == 9  # a kernel under the budget unrolls as before


@asc2.jit
def forever(t, D: asc2.ConstExpr[int]):
    return forever(t, D)  # recurse


@asc2.jit
def countdown(t, D: asc2.ConstExpr[int]):
    if D == 0:
        return t
    return countdown(t + 1.0, D - 1)


@asc2.jit
def calls(x_ptr, HELPER: asc2.ConstExpr):
    x_gm = asc2.global_tensor(x_ptr, [64])
    asc2.copy_out(HELPER(asc2.copy_in(x_gm, [0], [64]), 3), x_gm, [0])


def test_a_recursive_helper_that_never_stops_says_recursion_must_end_at_compile_time():
    with pytest.raises(asc2.UnsupportedError, match=r"forever\(\) is inlined 64 calls deep: .* compile-time "
                                                    r"condition") as e:
        calls.ir(X, HELPER=forever)
    assert e.value.line == line_of(forever, "# recurse")
    assert "RecursionError" not in str(e.value)


@requires_native
def test_a_recursive_helper_that_stops_at_a_compile_time_condition_runs():
    x = np.arange(64, dtype=np.float32)
    calls[1](x, HELPER=countdown)
    np.testing.assert_array_equal(x, np.arange(64, dtype=np.float32) + 3)


def test_an_async_kernel_is_refused_at_the_decorator():
    async def kernel(x_ptr):
        pass

    with pytest.raises(TypeError, match=r"test_robustness_messages.py:\d+: kernel 'kernel' is an 'async def'"):
        asc2.jit(kernel)


@asc2.jit
def load_at(x_ptr, OFF: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [64])
    asc2.copy_out(asc2.copy_in(x_gm, [OFF], [64]), x_gm, [0])  # load


@requires_native
@pytest.mark.parametrize("offset", [10**20, -(10**30), 2**63])  # 2**63: frontend_fuzz seed 20261204, mutant 545
def test_an_integer_constant_out_of_64_bits_is_an_error_at_its_line(offset):
    with pytest.raises(asc2.CompilationError, match=rf"the integer {offset} does not fit in 64 bits") as e:
        load_at[1](X, OFF=offset)
    assert e.value.line == line_of(load_at, "# load")


@asc2.jit
def two_big_tiles(x_ptr, out_ptr):
    x_gm = asc2.global_tensor(x_ptr, [40000])
    out_gm = asc2.global_tensor(out_ptr, [40000])
    a = asc2.copy_in(x_gm, [0], [40000])  # load
    asc2.copy_out(a * a + a, out_gm, [0])  # compute


@requires_native
def test_a_ub_overflow_lists_the_tiles_as_the_kernel_wrote_them():
    x = np.zeros(40000, np.float32)
    with pytest.raises(asc2.MemoryError, match="UB overflow") as e:
        two_big_tiles[1](x, x.copy())
    message = str(e.value)
    assert f"tile [40000] float32 (160000 bytes) from {__file__}:{line_of(two_big_tiles, '# load')}:" in message
    assert f"from {__file__}:{line_of(two_big_tiles, '# compute')}:" in message
    assert_user_terms(message)


@asc2.jit
def big_l1_operand(a_ptr, b_ptr, c_ptr):
    a_gm = asc2.global_tensor(a_ptr, [1024, 1024])
    b_gm = asc2.global_tensor(b_ptr, [1024, 16])
    c_gm = asc2.global_tensor(c_ptr, [1024, 16])
    a = asc2.copy_in(a_gm, [0, 0], [1024, 1024], location=asc2.TileLocation.L1)  # big
    b = asc2.copy_in(b_gm, [0, 0], [1024, 16], location=asc2.TileLocation.L1)
    asc2.copy_out(asc2.matmul(a.to(asc2.TileLocation.L0A), b.to(asc2.TileLocation.L0B)), c_gm, [0, 0])


@requires_native
def test_an_l1_tile_too_big_for_l1_is_an_l1_overflow_not_the_l0a_it_feeds():
    a = np.zeros((1024, 1024), np.float16)
    b = np.zeros((1024, 16), np.float16)
    c = np.zeros((1024, 16), np.float32)
    with pytest.raises(asc2.MemoryError, match=r"^.*L1 overflow: kernel needs \d+ bytes but L1 has 524160") as e:
        big_l1_operand[1](a, b, c)
    assert f"tile [1024, 1024] float16 (2097152 bytes) from {__file__}:{line_of(big_l1_operand, '# big')}" \
        in str(e.value)


@asc2.jit
def modulo(x_ptr, out_ptr, D: asc2.ConstExpr):
    x_gm = asc2.global_tensor(x_ptr, [64])
    out_gm = asc2.global_tensor(out_ptr, [64])
    asc2.copy_out(asc2.copy_in(x_gm, [0], [64]) % D, out_gm, [0])  # mod


@requires_native
@pytest.mark.parametrize("divisor", [3.0, -2.5])
def test_float_tile_modulo_follows_numpy(divisor):
    x = np.linspace(-10, 10, 64).astype(np.float32)
    out = np.zeros(64, np.float32)
    modulo[1](x, out, D=divisor)
    np.testing.assert_allclose(out, np.mod(x, np.float32(divisor)), atol=2e-6)


@requires_native
def test_int_tile_modulo_follows_numpy_where_the_hardware_divides_integers():
    x = np.arange(-32, 32, dtype=np.int32)
    out = np.zeros(64, np.int32)
    asc2.set_platform("Model", "Ascend950")
    modulo[1](x, out, D=3)
    np.testing.assert_array_equal(out, np.mod(x, 3))
    asc2.set_platform("Model", "Ascend910B1")
    with pytest.raises(asc2.CompilationError, match=r"integer division \(/, // or %\) of int32 tiles: Atlas A2/A3 "
                                                    r"have no integer division") as e:
        modulo[1](x, out, D=3)
    assert e.value.line == line_of(modulo, "# mod")


@asc2.jit
def arguments_swapped(x_ptr, n: int):
    x_gm = asc2.global_tensor([n], x_ptr)  # swapped
    asc2.copy_out(asc2.copy_in(x_gm, [0], [64]), x_gm, [0])


def test_runtime_values_inside_a_described_list_are_in_user_terms():
    # Found by tests/fuzz/frontend_fuzz.py (seed 11): the list was shown as [Scalar(%arg1: index)].
    with pytest.raises(asc2.CompilationError, match=r"got list \[runtime int scalar\]"):
        arguments_swapped.ir(X, 64)
