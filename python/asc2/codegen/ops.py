"""Tile constructors as plain functions of a code generator, for test harnesses that build tiles
outside the language (the peer suite's ``constant_tile`` shim, upstream's
``asc2.language.utils.constant_tile``): ``splat(gen, value, shape, dtype, location)``.

The emitters themselves live in ``asc2.codegen.builtins``; this module only names the ones that
code outside the package may call, so moving the builtins around does not break those callers.
"""

from .builtins import tiles

__all__ = ["splat"]


def splat(gen, x, shape, dt, location):
    """``tiles.splat``: a tile of ``shape`` filled with ``x``. Upstream's ``constant_tile`` builds any shape, and
    its tests build operands only to have the operation reject them (softmax of a [2, 3, 4] tile:
    "dimensionality"), so a UB shape whose rows are not 32-byte aligned is an error here only when the rest of
    the kernel compiles."""
    gen.defer(lambda: tiles.check_ub_alignment(shape, dt, location))
    return tiles.splat(gen, x, shape, dt, location, check_alignment=False)
