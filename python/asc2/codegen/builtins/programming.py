"""The programming model: which block runs (block_idx, block_num), and inline register code (not supported)."""

from ... import errors
from ...language import core
from ..ir import INDEX, PositiveIndex, Scalar, Tile
from .checks import describe, fail
from .registry import emitter


@emitter("block_idx")
def _block_idx(gen):
    return Scalar(gen.b.op("asctile.block_idx"), INDEX)


@emitter("block_num")
def _block_num(gen):
    return PositiveIndex(gen.b.op("asctile.block_num"), INDEX)


@emitter("inline_vf")
def _inline_vf(gen, source, shape, dtype, inputs=()):
    # The arguments are checked as upstream checks them, so a wrong call says what is wrong before it
    # says that the call cannot run here.
    if not isinstance(source, str):
        fail(errors.CompilationTypeError, f"asc2.inline_vf: code must be a string of Ascend C, got {describe(source)}")
    if not isinstance(dtype, core.dtype):
        fail(errors.CompilationTypeError, f"asc2.inline_vf: dtype must be an asc2 dtype, got {describe(dtype)}")
    if not isinstance(inputs, (list, tuple)) or not all(isinstance(t, Tile) for t in inputs):
        fail(errors.CompilationTypeError, f"asc2.inline_vf: inputs must be a list of tiles, got {describe(inputs)}")
    for t in inputs:
        if t.location != core.TensorLocation.UB:
            fail(errors.UnsupportedError, f"asc2.inline_vf: inputs must be UB tiles; one has location "
                                          f"{t.location.name}")
    fail(errors.UnsupportedError, "asc2.inline_vf: inline Ascend C register code cannot be compiled or simulated "
                                  "here; write the computation with asc2 tile operations (x * y + z, ...)")
