"""Reductions of a tile over some of its dimensions (``asc2.reduce_sum`` ..., ``x.sum()``)."""

import builtins

from ... import errors
from ...language import core
from ..ir import Scalar
from .checks import check_supported_location, expect_tile, fail, flatten_dims, normalize_axis
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
    emitter(f"reduce_{_kind}")(lambda gen, x, dims, keep_dims, axis, _k=_kind: reduce(gen, _k, x, dims, keep_dims,
                                                                                         axis))
