"""The programming model: which block runs (block_idx, block_num), and inline register code (not supported)."""

from ... import errors
from ..ir import INDEX, PositiveIndex, Scalar
from .checks import fail
from .registry import emitter


@emitter("block_idx")
def _block_idx(gen):
    return Scalar(gen.b.op("asctile.block_idx"), INDEX)


@emitter("block_num")
def _block_num(gen):
    return PositiveIndex(gen.b.op("asctile.block_num"), INDEX)


@emitter("inline_vf")
def _inline_vf(gen, source, shape, dtype, inputs):
    fail(errors.UnsupportedError, "asc2.inline_vf: inline Ascend C register code cannot be compiled or simulated "
                                  "here; write the computation with asc2 tile operations (x * y + z, ...)")
