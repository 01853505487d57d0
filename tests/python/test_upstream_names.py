"""Upstream PyAsc2 kernels that spell annotations and dtypes with the pyasc `asc` module."""

import numpy as np
import pytest

import asc
import asc2
from conftest import requires_native


@asc2.jit
def vadd(x_ptr, y_ptr, out_ptr, size: int, tiles_per_block: int, TILE: asc.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    y_gm = asc2.global_tensor(y_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    base = asc2.block_idx() * tiles_per_block * TILE
    for i in asc2.range(tiles_per_block):
        off = base + i * TILE
        x = asc2.copy_in(x_gm, [off], [TILE])
        y = asc2.copy_in(y_gm, [off], [TILE])
        asc2.copy_out(x + y, out_gm, [off])


def test_asc_names_are_the_asc2_objects():
    assert asc.ConstExpr is asc2.ConstExpr
    assert asc.float32 is asc2.float32


@requires_native
def test_seed_vadd_runs_unmodified():
    n = 256 * 8 * 3 + 5
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    y = np.random.default_rng(1).standard_normal(n).astype(np.float32)
    out = np.zeros(n, np.float32)
    vadd[8](x, y, out, n, asc2.ceildiv(asc2.ceildiv(n, 256), 8), TILE=256)
    np.testing.assert_array_equal(out, x + y)


def test_codegen_ops_names_the_tile_constructors_harnesses_call():
    """The peer suite's constant_tile shim (../shared/peer/conftest.py) builds its zero tiles with
    asc2.codegen.ops.splat(gen, value, shape, dtype, location); without it 1,032 upstream unit tests
    fail on an ImportError before they test anything."""
    import inspect

    from asc2.codegen import ops
    from asc2.codegen.builtins import tiles
    assert list(inspect.signature(ops.splat).parameters) == list(inspect.signature(tiles.splat).parameters)[:5] == \
        ["gen", "x", "shape", "dt", "location"]


@asc2.jit
def inline_vf_code_not_a_string():
    asc2.inline_vf(123, [32], asc2.float32)


@asc2.jit
def inline_vf_without_inputs():
    asc2.inline_vf("// noop", [32, 64], asc2.float32)


def test_inline_vf_checks_its_arguments_then_compiles():
    """Upstream's unit tests call inline_vf without inputs and with wrong argument types: the types are
    checked first (TypeError naming the argument); a right call compiles, and its launch on the simulator
    is refused at the call (register-level code is not simulated; test_inline_code.py)."""
    with pytest.raises(TypeError, match="code must be a string"):
        inline_vf_code_not_a_string[1]()
    with pytest.raises(asc2.BackendUnsupportedError, match="simulator cannot run"):
        inline_vf_without_inputs[1]()