"""Shape operations on tiles: reshape, transpose, concat, broadcast, expand_dims, squeeze."""

import builtins
import math

from ... import errors
from ...language import core
from ..ir import Tile
from . import cube
from .checks import (BEYOND_UPSTREAM, check_dtype, check_supported_location, describe, expect_tile, fail, flatten_dims,
                     normalize_axis, static_shape)
from .masks import forbid_in_mask
from .registry import emitter
from .tiles import broadcast_tile, check_ub_alignment, new_tile, reshape_tile


@emitter("reshape")
def _reshape(gen, x, shape):
    x = expect_tile(x, "asc2.reshape")
    shape = list(shape[0]) if len(shape) == 1 and isinstance(shape[0], (list, tuple)) else list(shape)
    count = math.prod(x.shape)
    if shape.count(-1) > 1:
        fail(errors.CompilationValueError, "asc2.reshape: only one dimension can be -1")
    if -1 in shape:
        known = math.prod(d for d in shape if d != -1)
        if not isinstance(known, int) or known <= 0 or count % known:
            fail(errors.CompilationValueError, f"asc2.reshape: cannot reshape {list(x.shape)} into {shape}")
        shape[shape.index(-1)] = count // known
    shape = static_shape(shape, "asc2.reshape: shape")
    if math.prod(shape) != count:
        fail(errors.ShapeError, f"asc2.reshape: cannot reshape a tile of {count} elements {list(x.shape)} into "
                                f"{shape} (the element counts do not match)")
    return reshape_tile(gen, x, shape, packed_rows=True)


TRANSPOSE_DTYPES = (core.int8, core.int16, core.int32, core.float16, core.bfloat16, core.float32)  # upstream's set


@emitter("transpose")
def _transpose(gen, x, axes=()):
    """numpy.transpose: ``asc2.transpose(x)`` / ``x.T`` reverse the dimensions; ``axes`` is a permutation
    (``transpose(x, (0, 2, 1))`` or ``transpose(x, 0, 2, 1)``; negative axes count from the end)."""
    forbid_in_mask(gen, "asc2.transpose")
    x = expect_tile(x, "asc2.transpose")
    check_dtype("asc2.transpose", x, TRANSPOSE_DTYPES, BEYOND_UPSTREAM)
    axes = tuple(axes)
    if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (list, tuple))):
        axes = tuple(axes[0] or ())
    rank = len(x.shape)
    if not axes:
        axes = tuple(builtins.range(rank - 1, -1, -1))
    if len(axes) != rank:
        fail(errors.ShapeError, f"asc2.transpose: axes {list(axes)} do not match a rank-{rank} tile (the axis count "
                                f"must be {rank})")
    perm = [normalize_axis(a, rank, "asc2.transpose") for a in axes]
    if sorted(perm) != list(builtins.range(rank)):
        fail(errors.ShapeError, f"asc2.transpose: axes {list(axes)} are not a permutation of "
                                f"{list(builtins.range(rank))} (a rearrangement with each axis once)")
    if perm == list(builtins.range(rank)):
        return x
    if rank == 2 and x.location in (core.TensorLocation.L1, core.TensorLocation.L0A, core.TensorLocation.L0B):
        return cube.transpose(gen, x)
    check_supported_location(x.location, "asc2.transpose")
    shape = tuple(x.shape[p] for p in perm)
    check_ub_alignment(shape, x.dtype, x.location, rows=True)
    attrs = "" if rank == 2 else f" {{permutation = array<i64: {', '.join(map(str, perm))}>}}"
    return new_tile(gen, f"asctile.transpose {x.ssa}{attrs} : {x.type} -> ", shape, x.dtype, x.location)


@emitter("concat")
def concat(gen, tiles=(), axis=0):
    """numpy.concatenate: ``asc2.concat([a, b], axis)`` or ``asc2.concat(a, b, axis=...)``."""
    tiles = tuple(tiles)
    if len(tiles) == 1 and isinstance(tiles[0], (list, tuple)):
        tiles = tuple(tiles[0])
    elif len(tiles) >= 2 and isinstance(tiles[0], (list, tuple)):
        tiles, axis = tuple(tiles[0]), tiles[1]
    if not tiles:
        fail(errors.CompilationValueError, "asc2.concat needs at least one tile")
    forbid_in_mask(gen, "asc2.concat")
    for t in tiles:
        if not isinstance(t, Tile):
            fail(errors.CompilationTypeError, f"asc2.concat: the tensors to join must be tiles, got {describe(t)}")
    first = tiles[0]
    rank = len(first.shape)
    if rank == 1:  # each piece starts a new 32-byte block of the result
        for t in tiles[:-1]:
            check_ub_alignment((1, *t.shape), t.dtype, t.location, rows=True)
    axis = normalize_axis(axis, rank, "asc2.concat")
    for t in tiles[1:]:
        if t.dtype != first.dtype:
            fail(errors.UnsupportedDtypeError, f"asc2.concat: tiles of {first.dtype.name} and {t.dtype.name}; "
                                               "cast them to one dtype first")
        if len(t.shape) != rank or any(a != b for d, (a, b) in enumerate(zip(t.shape, first.shape)) if d != axis):
            fail(errors.ShapeError, f"asc2.concat: shapes {list(first.shape)} and {list(t.shape)} differ "
                                    f"outside dimension {axis}")
    shape = list(first.shape)
    shape[axis] = sum(t.shape[axis] for t in tiles)
    check_ub_alignment(tuple(shape), first.dtype, first.location, rows=True)
    if len(tiles) == 1:
        return first
    ssas = ", ".join(t.ssa for t in tiles)
    types = ", ".join(t.type for t in tiles)
    return new_tile(gen, f"asctile.concat {ssas} dim {axis} : {types} -> ", tuple(shape), first.dtype,
                    first.location)


@emitter("ravel")
def _ravel(gen, x):
    x = expect_tile(x, "asc2.ravel")
    return reshape_tile(gen, x, [math.prod(x.shape)])


@emitter("broadcast_to")
def _broadcast_to(gen, x, shape):
    x = expect_tile(x, "asc2.broadcast_to")
    check_supported_location(x.location, "asc2.broadcast_to")
    if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
        shape = shape[0]
    shape = static_shape(list(shape), "asc2.broadcast_to: shape")
    if len(shape) < len(x.shape):
        fail(errors.ShapeError, f"asc2.broadcast_to: cannot broadcast {list(x.shape)} to the lower-rank {shape}")
    padded = (1,) * (len(shape) - len(x.shape)) + tuple(x.shape)
    bad = [i for i, (a, b) in enumerate(zip(padded, shape)) if a not in (1, b)]
    if bad:
        fail(errors.ShapeError, f"asc2.broadcast_to: Cannot broadcast a tile of shape {list(x.shape)} to {shape} "
                                f"(dimension {bad[0]}: {padded[bad[0]]} is neither 1 nor {shape[bad[0]]})")
    return broadcast_tile(gen, x, shape)


@emitter("broadcast_tensors")
def _broadcast_tensors(gen, tiles):
    tiles = [expect_tile(t, "asc2.broadcast_tensors") for t in flatten_tiles(tiles)]
    if not tiles:
        fail(errors.CompilationValueError, "asc2.broadcast_tensors needs at least one tile")
    shape = core.broadcast_shapes(*(t.shape for t in tiles))
    return tuple(broadcast_tile(gen, t, shape) for t in tiles)


def flatten_tiles(tiles):
    """``f(a, b)`` or ``f([a, b])``."""
    return list(tiles[0]) if len(tiles) == 1 and isinstance(tiles[0], (list, tuple)) else list(tiles)


@emitter("expand_dims")
def _expand_dims(gen, x, axes):
    x = expect_tile(x, "asc2.expand_dims")
    axes = flatten_dims(axes)
    if not axes:
        fail(errors.CompilationTypeError, "asc2.expand_dims needs an axis")
    rank = len(x.shape) + len(axes)
    positions = sorted(normalize_axis(a, len(x.shape), "asc2.expand_dims", extra=len(axes)) for a in axes)
    if len(set(positions)) != len(positions):
        fail(errors.CompilationValueError, f"asc2.expand_dims: repeated axis in {list(axes)}")
    dims = iter(x.shape)
    return reshape_tile(gen, x, [1 if i in positions else next(dims) for i in builtins.range(rank)])


@emitter("squeeze")
def _squeeze(gen, x, axis):
    x = expect_tile(x, "asc2.squeeze")
    rank = len(x.shape)
    if axis is None:
        axes = [i for i, d in enumerate(x.shape) if d == 1]
    else:
        axes = [normalize_axis(a, rank, "asc2.squeeze") for a in flatten_dims([axis])]
        for a in axes:
            if x.shape[a] != 1:
                fail(errors.ShapeError, f"asc2.squeeze: dimension {a} of {list(x.shape)} has size {x.shape[a]}; "
                                        "it must be 1")
    shape = [d for i, d in enumerate(x.shape) if i not in axes]
    if not shape:
        fail(errors.ShapeError, f"asc2.squeeze: squeezing every dimension of {list(x.shape)} leaves no tile; "
                                "reduce it to a scalar instead")
    return reshape_tile(gen, x, shape)
