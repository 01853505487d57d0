"""Tile constructors as plain functions of a code generator, for test harnesses that build tiles
outside the language (the peer suite's ``constant_tile`` shim, upstream's
``asc2.language.utils.constant_tile``): ``splat(gen, value, shape, dtype, location)``.

The emitters themselves live in ``asc2.codegen.builtins``; this module only names the ones that
code outside the package may call, so moving the builtins around does not break those callers.
"""

from .builtins.tiles import splat

__all__ = ["splat"]
