"""The programming model: which block runs (block_idx, block_num), and inline Ascend C (not supported)."""

from ... import errors
from ...language import core
from ..ir import INDEX, PositiveIndex, Scalar, Tile, Value
from .checks import describe, fail, is_number
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


@emitter("inline")
def _inline(gen, code, args=None, before_function=False):
    # Checked as upstream checks them, then refused: the code would be pasted into the generated Ascend C, which
    # the simulator does not run (it runs the tile program), so its effects would be silently missing there.
    if not isinstance(code, str):
        fail(errors.CompilationTypeError, f"asc2.inline: 'code' must be a string of Ascend C, got {describe(code)}")
    if args is not None and (not isinstance(args, (list, tuple)) or
                             not all(isinstance(a, Value) or is_number(a) for a in args)):
        fail(errors.CompilationTypeError, f"asc2.inline: 'args' must be a list of values (kernel arguments, scalars, "
                                          f"tiles) for $0, $1, ..., got {describe(args)}")
    if not isinstance(before_function, bool):
        fail(errors.CompilationTypeError, f"asc2.inline: 'before_function' must be True or False, got "
                                          f"{describe(before_function)}")
    fail(errors.UnsupportedError, "asc2.inline: raw Ascend C source cannot be compiled or simulated here (the "
                                  "simulator runs the tile program, not C++); write the computation with asc2 "
                                  "operations, or add the code to the Ascend C that export_project writes")
