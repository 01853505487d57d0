"""The programming model: which block runs (block_idx, block_num), and Ascend C of the kernel's author
(inline, inline_vf), which the compiler keeps as written and the emitted Ascend C holds where the kernel put it."""

import re

from ... import errors
from ...language import core
from ..ir import INDEX, PositiveIndex, Scalar, Tile, Value, string_literal
from .checks import describe, fail, is_number, static_shape
from .registry import emitter
from .scalars import as_scalar
from .tiles import check_ub_alignment, new_tile


@emitter("block_idx")
def _block_idx(gen):
    return Scalar(gen.b.op("asctile.block_idx"), INDEX)


@emitter("block_num")
def _block_num(gen):
    return PositiveIndex(gen.b.op("asctile.block_num"), INDEX)


_PLACEHOLDER = re.compile(r"\$(\d+)")


def _check_placeholders(what, code, count, values):
    """Every ``$N`` of ``code`` names one of the ``count`` values (the compiler checks it again)."""
    for m in _PLACEHOLDER.finditer(code):
        if int(m.group(1)) >= count:
            known = "there are no " + values if count == 0 else \
                f"the {values} are only $0" + (f" .. ${count - 1}" if count > 1 else "")
            fail(errors.CompilationValueError, f"{what}: the code uses {m.group(0)}, but {known}")


def _operands(values):
    """`` (%a, %b : type, type)`` of an op's operands ("" for none)."""
    if not values:
        return ""
    return f" ({', '.join(v.ssa for v in values)} : {', '.join(v.type for v in values)})"


@emitter("inline_vf")
def _inline_vf(gen, code, shape, dtype, inputs=None):
    # Checked as upstream checks them: TypeError naming the argument, RuntimeError for a tile outside UB.
    if not isinstance(code, str):
        fail(errors.CompilationTypeError, f"asc2.inline_vf: code must be a string of Ascend C, got {describe(code)}")
    if not isinstance(dtype, core.dtype):
        fail(errors.CompilationTypeError, f"asc2.inline_vf: dtype must be an asc2 dtype, got {describe(dtype)}")
    inputs = [] if inputs is None else inputs
    if not isinstance(inputs, (list, tuple)) or not all(isinstance(t, Tile) for t in inputs):
        fail(errors.CompilationTypeError, f"asc2.inline_vf: inputs must be a list of tiles, got {describe(inputs)}")
    for t in inputs:
        if t.location != core.TensorLocation.UB:
            fail(errors.UnsupportedError, f"asc2.inline_vf: inputs must be UB tiles; one has location "
                                          f"{t.location.name}")
    shape = static_shape(shape, "asc2.inline_vf: shape")
    check_ub_alignment(shape, dtype, core.TensorLocation.UB)
    _check_placeholders("asc2.inline_vf", code, len(inputs) + 1, "tiles ($0 the result, then the inputs)")
    return new_tile(gen, f"asctile.inline_vf {string_literal(code)}{_operands(inputs)} -> ", shape, dtype,
                    core.TensorLocation.UB, "inline_vf")


@emitter("inline")
def _inline(gen, code, args=None, before_function=False):
    if not isinstance(code, str):
        fail(errors.CompilationTypeError, f"asc2.inline: 'code' must be a string of Ascend C, got {describe(code)}")
    if args is not None and (not isinstance(args, (list, tuple)) or
                             not all(isinstance(a, Value) or is_number(a) for a in args)):
        fail(errors.CompilationTypeError, f"asc2.inline: 'args' must be a list of values (kernel arguments, scalars, "
                                          f"tiles) for $0, $1, ..., got {describe(args)}")
    if not isinstance(before_function, bool):
        fail(errors.CompilationTypeError, f"asc2.inline: 'before_function' must be True or False, got "
                                          f"{describe(before_function)}")
    args = list(args or [])
    if before_function:
        for a in args:
            if isinstance(a, Value):
                fail(errors.CompilationTypeError, f"asc2.inline: with before_function=True the code sits before the "
                                                  f"kernel function, where the kernel's values do not exist; its "
                                                  f"'args' must be Python numbers, got {describe(a)}")
    _check_placeholders("asc2.inline", code, len(args), "args")
    values = [as_scalar(gen, a) if is_number(a) else a for a in args]
    gen.b.emit(f"asctile.inline {string_literal(code)}{_operands(values)}"
               + (" {before_function}" if before_function else ""))
