"""ascendc.add_relu (AscendC::AddRelu), the op added through the "add an ascendc op" recipe of
docs/architecture.md: one AscendCVectorOps.td record and its semantics in Sim/VectorKernels.cpp. A
hand-written ascendc program runs on the simulator and is checked against numpy, and the emitted
Ascend C calls AddRelu."""

import numpy as np
import pytest

from asc2 import _C

PROGRAM = """
module {
  func.func @add_relu(%x: !ascendc.gm<@T@>, %y: !ascendc.gm<@T@>, %out: !ascendc.gm<@T@>)
      attributes {asctile.arg_names = ["x", "y", "out"], asctile.kernel} {
    %a = ascendc.alloc_local {name = "a", offset = 0 : i64} : !ascendc.local<@N@x@T@, VECIN>
    %b = ascendc.alloc_local {name = "b", offset = 8192 : i64} : !ascendc.local<@N@x@T@, VECIN>
    %r = ascendc.alloc_local {name = "r", offset = 16384 : i64} : !ascendc.local<@N@x@T@, VECOUT>
    %c0 = arith.constant 0 : index
    %n = arith.constant @N@ : index
    ascendc.data_copy_in %a, %x[%c0], %n : !ascendc.local<@N@x@T@, VECIN>, !ascendc.gm<@T@>
    ascendc.data_copy_in %b, %y[%c0], %n : !ascendc.local<@N@x@T@, VECIN>, !ascendc.gm<@T@>
    ascendc.set_flag MTE2 -> V, 0
    ascendc.wait_flag MTE2 -> V, 0
    ascendc.add_relu %r, %a, %b, %n : !ascendc.local<@N@x@T@, VECOUT>, !ascendc.local<@N@x@T@, VECIN>, !ascendc.local<@N@x@T@, VECIN>
    ascendc.set_flag V -> MTE3, 0
    ascendc.wait_flag V -> MTE3, 0
    ascendc.data_copy_out %out[%c0], %r, %n : !ascendc.gm<@T@>, !ascendc.local<@N@x@T@, VECOUT>
    return
  }
}
"""


def compile_add_relu(dtype, n):
    mlir_type = {np.float32: "f32", np.float16: "f16", np.int16: "i16"}[dtype]
    program = PROGRAM.replace("@N@", str(n)).replace("@T@", mlir_type)
    return _C.compile_baseline(program, platform="Ascend910B1", source_file="add_relu.mlir")


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int16])
def test_add_relu_matches_numpy(dtype):
    n = 1024
    rng = np.random.default_rng(7)
    if dtype == np.int16:
        # Sums past int16 wrap as Add's do, then relu sees the wrapped value.
        x = rng.integers(-32768, 32767, n, dtype=np.int16)
        y = rng.integers(-32768, 32767, n, dtype=np.int16)
    else:
        x = rng.standard_normal(n).astype(dtype)
        y = rng.standard_normal(n).astype(dtype)
    out = np.full(n, 99, dtype=dtype)
    kernel = compile_add_relu(dtype, n)
    result = dict(kernel.launch(1, [x, y, out]))
    assert result["ok"], result["error"]
    assert not result["races"]
    with np.errstate(over="ignore"):
        expected = np.maximum(x + y, dtype(0))
    np.testing.assert_array_equal(out, expected)
    assert (out == 0).any() and (out > 0).any()


def test_add_relu_emits_the_api_call():
    source = compile_add_relu(np.float32, 256).ascendc
    assert "AscendC::AddRelu(r_2, a_0, b_1, 256);" in source
