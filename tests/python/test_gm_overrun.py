"""A last block that runs past its tensor, as upstream kernels with ceildiv tiling do (skill-stack one_hot).

Reads: a scalar read past the end of a global tensor is undefined on an NPU (it returns whatever memory follows); the
simulator reads 0 and warns (asc2.SimulationWarning naming the kernel line), the twin reads 0 too, so a kernel whose
result does not depend on the value runs and matches numpy. Writes: a tile store is clamped to the tensor's extent (an
empty store past the end moves nothing); a scalar store past the end would corrupt memory and stays an error.
"""

import warnings

import numpy as np
import pytest

import asc2
from conftest import line_of, requires_native

DEPTH = 8


@asc2.jit
def spread(x_ptr, out_ptr, total: int, D: asc2.ConstExpr):
    x_gm = asc2.global_tensor(x_ptr, [total])
    out_gm = asc2.global_tensor(out_ptr, [total * D])
    per = asc2.ceildiv(total, asc2.block_num())
    for i in asc2.range(per):
        pos = asc2.block_idx() * per + i
        v = asc2.copy_in(x_gm, [pos])  # the overrunning read
        asc2.copy_out(asc2.full([D], v, dtype=asc2.float32), out_gm, [pos * D])


@asc2.jit
def scalar_store_past_the_end(out_ptr, total: int):
    out_gm = asc2.global_tensor(out_ptr, [total])
    asc2.copy_out(1.0, out_gm, [total])  # the overrunning store


@requires_native
@pytest.mark.parametrize("platform", ["Ascend910B1", "Ascend950"])
def test_overrunning_scalar_read_warns_and_the_result_is_numpys(platform):
    asc2.set_platform("Model", platform)
    x = np.arange(10, dtype=np.float32) + 1
    out = np.zeros(10 * DEPTH, np.float32)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        spread[4](x, out, 10, DEPTH)  # 3 rows per block: block 3 reads rows 9, 10, 11
    np.testing.assert_array_equal(out, np.repeat(x, DEPTH))
    found = [w for w in caught if issubclass(w.category, asc2.SimulationWarning)]
    assert len(found) == 1, [str(w.message) for w in caught]
    message = str(found[0].message)
    assert f"test_gm_overrun.py:{line_of(spread, '# the overrunning read')}:" in message
    assert "element 10 of argument 0 (10 elements)" in message and "read 0" in message
    assert found[0].filename == __file__  # the warning points at the launch


@requires_native
def test_overrunning_scalar_store_is_an_error():
    with pytest.raises(asc2.SimulationError, match="GM out-of-bounds|outside every launch argument"):
        scalar_store_past_the_end[1](np.zeros(8, np.float32), 8)
