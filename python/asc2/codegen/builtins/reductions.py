"""Reductions of a tile over some of its dimensions (``asc2.reduce_sum`` ..., ``x.sum()``)."""

import builtins

from ... import errors
from ...language import core
from ..ir import Scalar, Value
from .checks import check_dtype, check_supported_location, describe, expect_tile, fail, flatten_dims, normalize_axis
from .masks import forbid_in_mask
from .registry import emitter
from .scalars import UINT8_CARRIER, cast_scalar
from .tiles import convert_tile, kind_op, new_tile


def reduce(gen, kind, x, dims, keep_dims, axis):
    what = f"asc2.reduce_{kind}"
    forbid_in_mask(gen, what)
    x = expect_tile(x, what)
    check_supported_location(x.location, what)
    if x.dtype.kind == "uint" and kind in ("sum", "max", "min"):
        return _reduce_uint8(gen, kind, x, dims, keep_dims, axis)
    kind_op(f"reduce_{kind}", x.dtype, True, True)
    if axis is not None and dims:
        fail(errors.CompilationTypeError, f"{what}: give the dimensions either as arguments or as axis=, not both")
    dims = flatten_dims(dims if axis is None else [axis])
    rank = len(x.shape)
    dims = [normalize_axis(d, rank, what) for d in dims] if dims else list(builtins.range(rank))
    if len(set(dims)) != len(dims):
        fail(errors.CompilationValueError, f"{what}: repeated dimension in {dims}")
    dims = sorted(dims)
    if not isinstance(keep_dims, bool):
        fail(errors.CompilationTypeError, f"{what}: keep_dims must be True or False")
    shape = [1 if i in dims else d for i, d in enumerate(x.shape) if keep_dims or i not in dims]
    attrs = f"{kind} {x.ssa} dims [{', '.join(map(str, dims))}]{' keep_dims' if keep_dims else ''}"
    if not shape:
        ty = x.dtype.mlir  # uint8 reductions went through _reduce_uint8
        return Scalar(gen.b.op(f"asctile.reduce {attrs} : {x.type} -> {ty}"), ty)
    return new_tile(gen, f"asctile.reduce {attrs} : {x.type} -> ", shape, x.dtype, x.location)


# The dtypes each reduction takes (upstream PyAsc2's sets): over some dimensions, and over all of them (no
# dimensions given, a scalar result). reduce_prod has no scalar form.
_MAX_MIN_DTYPES = (core.int8, core.int16, core.int32, core.int64, core.float16, core.bfloat16, core.float32)
REDUCE_DTYPES = {
    "sum": ((core.int32, core.int64, core.float32), (core.int64, core.float16, core.float32)),
    "max": (_MAX_MIN_DTYPES, (core.int16, core.int32, core.int64, core.float16, core.float32)),
    "min": (_MAX_MIN_DTYPES, (core.int16, core.int32, core.int64, core.float16, core.float32)),
    "prod": ((core.float32,), None),
}


def _reduce_builtin(gen, kind, x, dims, keep_dims, axis):
    """``asc2.reduce_<kind>`` / ``x.<kind>()``: upstream's argument rules and dtype sets, then ``reduce``.

    Dimensions are compile-time ints, each once, in range (negative ones count from the end); listing every
    dimension without keep_dims is an error (no dimensions gives the scalar); a dimension of size 1 reduces to
    itself, so the dtype set applies only when a dimension of size > 1 is reduced."""
    what = f"asc2.reduce_{kind}"
    x = expect_tile(x, what)
    check_supported_location(x.location, what)
    if axis is not None and dims:
        fail(errors.CompilationTypeError, f"{what}: give the dimensions either as arguments or as axis=, not both")
    dims = flatten_dims(dims if axis is None else [axis])
    tile_dtypes, scalar_dtypes = REDUCE_DTYPES[kind]
    extra = (core.uint8,) if kind != "prod" else ()  # uint8 sums, maxima and minima: _reduce_uint8
    if not dims:
        if scalar_dtypes is None:
            fail(errors.UnsupportedError, f"{what} to a scalar is not supported (as in upstream PyAsc2): give the "
                                          f"dimensions to reduce, e.g. {what}(x, 0, keep_dims=True)")
        check_dtype(what, x, scalar_dtypes, extra)
        return reduce(gen, kind, x, dims, keep_dims, None)
    for d in dims:
        if isinstance(d, Value) or not isinstance(d, int) or isinstance(d, bool):
            fail(errors.CompilationTypeError, f"{what}: reduction dimensions must be ints (compile-time integers), "
                                              f"got {describe(d)}")
    rank = len(x.shape)
    for d in dims:
        if not -rank <= d < rank:
            fail(errors.ShapeError, f"{what}: dimension {d} is out of range: reduction dimensions must be between "
                                    f"0 and {rank - 1} for a rank-{rank} tile (or -{rank}..-1 from the end)")
    if len({d % rank for d in dims}) != len(dims):
        fail(errors.ShapeError, f"{what}: Repeating dimensions are not allowed: {list(dims)} names a dimension "
                                "twice")
    dims = [d % rank for d in dims]
    reduced = [d for d in dims if x.shape[d] > 1]  # a dimension of size 1 reduces to itself
    if reduced:
        check_dtype(what, x, tile_dtypes, extra)
    if len(reduced) == rank and not keep_dims:
        fail(errors.UnsupportedError, f"{what}: reduction along all dimensions is not supported (dimensions "
                                      f"{sorted(dims)} of a rank-{rank} tile): call {what}(x) without dimensions for "
                                      "a scalar, or pass keep_dims=True")
    return reduce(gen, kind, x, dims, keep_dims, None)


def _reduce_uint8(gen, kind, x, dims, keep_dims, axis):
    """uint8 reductions run on the zero-extended values: a sum in int32 (as numpy sums small integers in a wider
    type, so it does not wrap), max/min in int16 and back to uint8 (a scalar max/min is a uint8 scalar)."""
    wide = convert_tile(gen, convert_tile(gen, x, core.int16), core.int32 if kind == "sum" else core.int16)
    result = reduce(gen, kind, wide, dims, keep_dims, axis)
    if isinstance(result, Scalar):
        wide = cast_scalar(gen, result, UINT8_CARRIER)
        return wide if kind == "sum" else Scalar(wide.ssa, wide.type, core.uint8)
    return result if kind == "sum" else convert_tile(gen, result, x.dtype)


for _kind in ("sum", "max", "min", "prod"):
    emitter(f"reduce_{_kind}")(lambda gen, x, dims, keep_dims, axis, _k=_kind: _reduce_builtin(gen, _k, x, dims,
                                                                                                  keep_dims, axis))
