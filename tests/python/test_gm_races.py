"""The race detector on GM: between the blocks of a launch, and between the two cores of a MIX group.

Nothing orders the blocks of a launch: a block reading GM bytes another block stores computes with
whatever the hardware's timing gives (a silent wrong answer on an NPU), a race; two blocks storing
to the same bytes leave whichever lands last, a warning (benign only when the values are equal).
Atomic stores of different blocks to the same bytes are the way to combine them and stay silent. Within a
MIX group the workspace the cube core writes and the vector core reads is ordered by cross-core
flags; dropping one of those is caught as a GM race (test_sync_mutation.py, MIX cases).
"""

import numpy as np
import pytest

import asc2
from conftest import in_child_process, line_of, requires_native


@asc2.jit
def every_block_stores_tile_zero(x_ptr, y_ptr, N: asc2.ConstExpr[int], TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [N])
    y_gm = asc2.global_tensor(y_ptr, [TILE])
    for t in asc2.range(asc2.block_idx(), N // TILE, asc2.block_num()):
        x = asc2.copy_in(x_gm, [t * TILE], [TILE])
        asc2.copy_out(x * 2.0, y_gm, [0])  # forgot the tile offset


@asc2.jit
def every_block_adds_into_tile_zero(x_ptr, y_ptr, N: asc2.ConstExpr[int], TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [1, N])
    y_gm = asc2.global_tensor(y_ptr, [1, TILE])
    for t in asc2.range(asc2.block_idx(), N // TILE, asc2.block_num()):
        x = asc2.copy_in(x_gm, [0, t * TILE], [1, TILE])
        asc2.atomic_add(x, y_gm, [0, 0])


@asc2.jit
def block_reads_what_its_neighbour_writes(x_ptr, N: asc2.ConstExpr[int], TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [N])
    for t in asc2.range(asc2.block_idx(), N // TILE - 1, asc2.block_num()):
        nxt = asc2.copy_in(x_gm, [(t + 1) * TILE], [TILE])
        asc2.copy_out(nxt + 1.0, x_gm, [t * TILE])  # shifts the tensor left by a tile, in place


def _warnings(kernel, *args, blocks=2):
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        kernel[blocks](*args)
    return [str(w.message) for w in caught if issubclass(w.category, asc2.SimulationWarning)]


def _races(kernel, *args, blocks=2):
    try:
        kernel[blocks](*args)
    except asc2.errors.SimulationError as e:
        return str(e)
    return ""


def _store_race():
    x = np.arange(1024, dtype=np.float32)
    return "\n".join(_warnings(every_block_stores_tile_zero, x, np.zeros(256, np.float32), 1024, 256))


def _atomic_adds():
    x = np.arange(1024, dtype=np.float32)
    y = np.zeros((1, 256), np.float32)
    every_block_adds_into_tile_zero[2](x.reshape(1, -1), y, 1024, 256)
    np.testing.assert_array_equal(y[0], x.reshape(4, 256).sum(0))
    return every_block_adds_into_tile_zero.last_report["launch"]["races"]


def _neighbour_race():
    return _races(block_reads_what_its_neighbour_writes, np.arange(1024, dtype=np.float32), 1024, 256)


@requires_native
def test_blocks_storing_the_same_tile_warn():
    """Two stores to the same bytes: whichever lands last wins. Benign when both blocks store the
    same values (an upstream kernel whose last tile per block is rounded up into the next block's
    rows), so a warning naming both lines rather than an error."""
    message = in_child_process(_store_race)
    assert "two blocks store to GM bytes [0, 1024) of y_ptr between blocks 0 and 1" in message
    assert "unless they store the same values" in message
    assert f"test_gm_races.py:{line_of(every_block_stores_tile_zero, 'copy_out')}" in message
    assert "nothing orders the blocks of a launch" in message


@requires_native
def test_atomic_adds_of_blocks_into_the_same_tile_do_not_race():
    assert in_child_process(_atomic_adds) == []


@requires_native
def test_a_block_reading_a_tile_another_block_writes_races():
    message = in_child_process(_neighbour_race)
    assert "data race on GM bytes" in message and "of x_ptr between blocks" in message
    assert "(MTE3, write)" in message and "(MTE2, read)" in message


@requires_native
@pytest.mark.parametrize("sample", ["vadd", "matmul_leaky_relu", "softmax"])
def test_samples_with_disjoint_tiles_stay_silent(sample):
    """Real kernels give each block its own part of the outputs: no GM race reported."""
    import importlib
    import sys

    from conftest import ROOT
    sys.path.insert(0, f"{ROOT}/samples")
    module = importlib.import_module(sample)
    assert in_child_process(_run_sample, module) == 0


def _run_sample(module):
    return module.main([])
