"""Tiles and scalars made from values: full, zeros (and their _like forms), cast, number."""

from ... import errors
from ...language import core
from ..ir import Scalar, Tile
from .checks import check_supported_location, describe, expect_tile, fail, is_number, static_shape
from .registry import emitter
from .scalars import as_scalar, plain_scalar, scalar_dtype, uint8_scalar
from .tiles import convert_tile, splat


def _fill_dtype(value, dt, what):
    if not (isinstance(value, Scalar) or is_number(value)):
        fail(errors.CompilationTypeError, f"{what}: the fill value must be a scalar, got {describe(value)}")
    if dt is not None:
        if not isinstance(dt, core.dtype):
            fail(errors.CompilationTypeError, f"{what}: dtype must be an asc2 dtype, got {describe(dt)}")
        return dt
    found = scalar_dtype(value)
    if found is None:
        fail(errors.CompilationTypeError, f"{what}: the fill value must be a scalar, got {describe(value)}")
    return found


def _filled(gen, shape, value, dtype, location, what):
    shape = static_shape(shape, f"{what}: shape")
    location = check_supported_location(location, what)
    return splat(gen, value, shape, _fill_dtype(value, dtype, what), location)


def _filled_like(gen, x, value, dtype, what):
    x = expect_tile(x, what)
    return splat(gen, value, x.shape, _fill_dtype(value, dtype or x.dtype, what), x.location)


@emitter("full")
def _full(gen, shape, value, dtype, location):
    return _filled(gen, shape, value, dtype, location, "asc2.full")


@emitter("full_like")
def _full_like(gen, x, value, dtype):
    return _filled_like(gen, x, value, dtype, "asc2.full_like")


@emitter("zeros")
def _zeros(gen, shape, dtype, location):
    return _filled(gen, shape, 0, dtype, location, "asc2.zeros")


@emitter("zeros_like")
def _zeros_like(gen, x, dtype):
    return _filled_like(gen, x, 0, dtype, "asc2.zeros_like")


@emitter("cast")
def _cast(gen, x, dtype, round_mode):
    if not (isinstance(x, (Tile, Scalar)) or is_number(x)):
        fail(errors.CompilationTypeError, f"asc2.cast: the input must be a tile or a scalar, got {describe(x)}")
    if not isinstance(dtype, core.dtype):
        fail(errors.CompilationTypeError, f"asc2.cast: dtype must be an asc2 dtype, got {describe(dtype)}")
    if round_mode is not None:
        core.RoundMode.parse(round_mode)
    if isinstance(x, Tile):
        return convert_tile(gen, x, dtype, round_mode)
    if round_mode is not None:
        fail(errors.UnsupportedError, f"asc2.cast: round_mode applies to tiles; a scalar cast converts like C "
                                      f"(floats to integers truncate), got {describe(x)} with a round_mode")
    return number(gen, x, dtype)


@emitter("number")
def number(gen, value, dtype):
    if not (isinstance(value, Scalar) or is_number(value)):
        fail(errors.CompilationTypeError, f"asc2.number: expected a scalar, got {describe(value)}")
    if dtype is None:
        return as_scalar(gen, value)
    if not isinstance(dtype, core.dtype):
        fail(errors.CompilationTypeError, f"asc2.number: dtype must be an asc2 dtype, got {describe(dtype)}")
    if dtype == core.uint8:
        return uint8_scalar(gen, value)
    if is_number(value):
        value = int(value) if dtype.is_int() else bool(value) if dtype == core.bool_ else float(value)
    return as_scalar(gen, plain_scalar(value), dtype.mlir)
