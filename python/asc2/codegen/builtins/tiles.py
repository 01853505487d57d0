"""Tiles: making them, converting between dtypes, broadcasting, and combining operands of mixed kinds.

``convert_tile`` and ``where`` build on each other (a bool tile converts through a select, a select converts its
operands), so both live here with the comparison that makes bool tiles.
"""

from ... import errors
from ...language import core
from ..ir import Scalar, Tile, tile_type, user_type
from .checks import describe, fail, is_number
from .masks import apply_mask
from .scalars import as_scalar, fill_scalar, is_uint8_scalar, promote, scalar_dtype, uint8_scalar, weak_promote

UB_BLOCK_BYTES = 32


def check_ub_alignment(shape, dt, location, rows=False):
    """UB tiles of rank 2 and more keep every row 32-byte aligned. A rank-1 tile may have any length (its buffer is
    rounded up to whole 32-byte blocks and loads/stores move the exact bytes, as upstream PyAsc2 allows), and so may
    a column (last dimension 1, like a keep_dims reduction): its elements are dense, so element-wise work and
    broadcasting treat it like a rank-1 tile. ``rows``: the operation moves rows (DMA, transpose, concat), which a
    column cannot give."""
    if location != core.TensorLocation.UB or len(shape) == 1 or (shape[-1] == 1 and not rows):
        return
    last = shape[-1] * dt.bits // 8 if dt.bits >= 8 else shape[-1]
    if last % UB_BLOCK_BYTES:
        fail(errors.AlignmentError,
             f"UB tile {list(shape)} of {dt.name}: the last dimension is {last} bytes, which is not "
             f"{UB_BLOCK_BYTES}-byte aligned (use a multiple of {max(1, UB_BLOCK_BYTES * 8 // dt.bits)} elements)")


def new_tile(gen, text, shape, dt, location, hint=None):
    """Emit ``text -> tile type`` and wrap the result."""
    ty = tile_type(shape, dt, location)
    return Tile(gen.b.op(f"{text}{ty}", hint), shape, dt, location)


class FilledTile(Tile):
    """A tile every element of which is the scalar ``fill`` (an asctile.splat): the same fill in another shape
    (a transpose) is another splat, wherever the tile is."""

    __slots__ = ("fill",)

    def __init__(self, tile, fill):
        super().__init__(tile.ssa, tile.shape, tile.dtype, tile.location)
        self.fill = fill


def splat(gen, x, shape, dt, location, check_alignment=True):
    """A tile of ``shape`` filled with scalar ``x`` converted to ``dt``. ``check_alignment=False``: the caller
    checks the UB alignment of ``shape`` itself (later)."""
    if dt.is_int() and (isinstance(x, float) or (isinstance(x, Scalar) and x.is_float)):
        fail(errors.CompilationTypeError, f"cannot fill an {dt.name} tile with a float ({describe(x)}); "
                                          "cast it or use a float dtype")
    if check_alignment:
        check_ub_alignment(shape, dt, location)
    s = fill_scalar(gen, x, dt)
    return refill(gen, s, shape, dt, location)


def refill(gen, s, shape, dt, location):
    """A FilledTile of ``shape`` whose every element is the ``dt`` Scalar ``s``."""
    return FilledTile(new_tile(gen, f"asctile.splat {s.ssa} : {s.type} -> ", shape, dt, location), s)


def default_round_mode(src, dst):
    return core.RoundMode.TRUNC if src.is_float() and not dst.is_float() else core.RoundMode.NONE


def convert_tile(gen, t, dt, round_mode=None):
    """``t`` as a ``dt`` tile (asctile.cast; bool tiles go through where/cmp)."""
    if t.dtype == dt:
        return t
    if t.dtype == core.bool_:
        one, zero = (1.0, 0.0) if dt.is_float() else (1, 0)
        return where(gen, t, splat(gen, one, t.shape, dt, t.location), splat(gen, zero, t.shape, dt, t.location))
    if dt == core.bool_:
        return compare_tiles(gen, "ne", t, splat(gen, 0, t.shape, t.dtype, t.location))
    mode = core.RoundMode.parse(round_mode) if round_mode is not None else default_round_mode(t.dtype, dt)
    check_ub_alignment(t.shape, dt, t.location)
    result = new_tile(gen, f"asctile.cast {t.ssa} round {mode.value} : {t.type} -> ", t.shape, dt, t.location)
    return apply_mask(gen, result, t.dtype if t.dtype.bits > dt.bits else dt)


def broadcast_shape(a, b):
    rank = max(len(a), len(b))
    pa, pb = (1,) * (rank - len(a)) + tuple(a), (1,) * (rank - len(b)) + tuple(b)
    out = []
    for i, (x, y) in enumerate(zip(pa, pb)):
        if x != y and 1 not in (x, y):
            fail(errors.ShapeError, f"mismatched tile shapes {list(a)} and {list(b)}: they do not broadcast "
                                    f"(dimension {i}: {x} vs {y})")
        out.append(max(x, y))
    return tuple(out)


def reshape_tile(gen, t, shape, packed_rows=False):
    """``t`` as ``shape``. ``packed_rows`` (``asc2.reshape``): a UB tile's buffer is dense, so the new rows may be
    narrower than a 32-byte block (``[1280, 4]`` float32); the compiler accepts such a tile only as the source of a
    reduction along its last dimension and reports any other use at that use (asctile.reshape's verifier)."""
    shape = tuple(shape)
    if shape == t.shape:
        return t
    if not packed_rows:
        check_ub_alignment(shape, t.dtype, t.location)
    return new_tile(gen, f"asctile.reshape {t.ssa} : {t.type} -> ", shape, t.dtype, t.location)


def broadcast_tile(gen, t, shape):
    shape = tuple(shape)
    if t.shape == shape:
        return t
    if broadcast_shape(t.shape, shape) != shape:
        fail(errors.ShapeError, f"cannot broadcast a tile of shape {list(t.shape)} to {list(shape)}")
    t = reshape_tile(gen, t, (1,) * (len(shape) - len(t.shape)) + t.shape)
    if t.shape == shape:
        return t
    check_ub_alignment(shape, t.dtype, t.location)
    return new_tile(gen, f"asctile.broadcast {t.ssa} : {t.type} -> ", shape, t.dtype, t.location)


def operand_dtype(name, *xs):
    """The dtype, shape and location tile operands ``xs`` combine in (promotion and broadcasting)."""
    tiles = [x for x in xs if isinstance(x, Tile)]
    for x in xs:
        if not (isinstance(x, (Tile, Scalar)) or is_number(x)):
            fail(errors.CompilationTypeError, f"unsupported operand for '{name}': {describe(x)}")
    locations = {t.location for t in tiles}
    if len(locations) > 1:
        fail(errors.ShapeError, f"'{name}': tiles in different locations: "
                                + " and ".join(sorted(loc.value for loc in locations)))
    dt, shape = tiles[0].dtype, tiles[0].shape
    for t in tiles[1:]:
        dt, shape = promote(dt, t.dtype), broadcast_shape(shape, t.shape)
    for x in xs:
        if not isinstance(x, Tile):
            dt = weak_promote(dt, x)
    return dt, shape, tiles[0].location


def tile_operands(gen, name, *xs, dtype=None):
    """Tiles and scalars -> tiles of one dtype and shape (promotion, broadcasting, splats); ``dtype`` overrides
    the promoted dtype."""
    dt, shape, location = operand_dtype(name, *xs)
    dt = dtype or dt
    return [broadcast_tile(gen, convert_tile(gen, x, dt), shape) if isinstance(x, Tile)
            else splat(gen, x, shape, dt, location) for x in xs]


def widened_operands(gen, name, *xs):
    """uint8 operands as int16 tiles (zero-extended), scalars checked against the uint8 range: uint8 arithmetic,
    comparisons and shifts run in int16, where unsigned values compare and shift as they should."""
    for x in xs:
        if is_number(x) and not isinstance(x, bool):
            if isinstance(x, float):
                fail(errors.CompilationTypeError, f"'{name}': a float scalar with a uint8 tile; cast the tile first")
            if not 0 <= x <= 255:
                fail(errors.CompilationValueError, f"'{name}': scalar {x} is outside the uint8 range 0..255")
    return tile_operands(gen, name, *xs, dtype=core.int16)


def as_tile(gen, x, like):
    """``x`` as a tile of exactly ``like``'s type: tiles are checked, scalars are splatted."""
    if isinstance(x, Tile):
        if x.type != like.type:
            fail(errors.CompilationTypeError, f"expected a {user_type(like)}, got a {user_type(x)}")
        return x
    if not (isinstance(x, Scalar) or is_number(x)):
        fail(errors.CompilationTypeError, f"expected a tile or a scalar, got {describe(x)}")
    return splat(gen, x, like.shape, like.dtype, like.location)


def kind_op(name, dt, float_op, int_op, bool_op=None):
    """The op for a ``dt`` tile, or a clear error naming the dtype (uint8 tiles reach here only for ops that have
    no uint8 form)."""
    if dt.kind == "uint":
        fail(errors.UnsupportedError, f"asc2.{name} on {dt.name} tiles is not supported; cast to int16 first")
    op = {"float": float_op, "int": int_op, "bool": bool_op}[dt.kind]
    if op is None:
        kinds = [k for k, o in (("float", float_op), ("integer", int_op), ("bool", bool_op)) if o]
        fail(errors.UnsupportedDtypeError, f"asc2.{name} does not support the {dt.name} dtype "
                                           f"(only {' and '.join(kinds)} tiles)")
    return op


def compare_tiles(gen, predicate, a, b):
    if operand_dtype(predicate, a, b)[0].kind == "uint":
        ta, tb = widened_operands(gen, predicate, a, b)  # unsigned order, in int16
    else:
        ta, tb = tile_operands(gen, predicate, a, b)
    result = new_tile(gen, f"asctile.cmp {predicate}, {ta.ssa}, {tb.ssa} : {ta.type} -> ", ta.shape, core.bool_,
                      ta.location)
    return apply_mask(gen, result, ta.dtype)


def where(gen, mask, a, b):
    """Element-wise ``a if mask else b``."""
    if not isinstance(mask, Tile):
        fail(errors.CompilationTypeError, f"asc2.where: the mask must be a bool tile (from a comparison), got "
                                          f"{describe(mask)}")
    if mask.dtype != core.bool_:
        fail(errors.UnsupportedDtypeError, f"asc2.where: the mask must be a bool tile (from a comparison), got "
                                           f"{describe(mask)} (its dtype is {mask.dtype.name}, not bool)")
    if isinstance(a, Tile) or isinstance(b, Tile):
        ta, tb = tile_operands(gen, "where", a, b)
    else:
        for x in (a, b):
            if not (isinstance(x, Scalar) or is_number(x)):
                fail(errors.CompilationTypeError, f"asc2.where: expected a tile or a scalar, got {describe(x)}")
        dt = promote(scalar_dtype(a), scalar_dtype(b))
        ta, tb = splat(gen, a, mask.shape, dt, mask.location), splat(gen, b, mask.shape, dt, mask.location)
    shape = broadcast_shape(mask.shape, ta.shape)
    mask, ta, tb = (broadcast_tile(gen, t, shape) for t in (mask, ta, tb))
    result = ta.like(gen.b.op(f"asctile.select {mask.ssa}, {ta.ssa}, {tb.ssa} : {mask.type}, {ta.type}"))
    return apply_mask(gen, result, ta.dtype)


def coerce_like(gen, x, like, name):
    """``x`` converted to ``like``'s type (loop-carried and if-yielded values)."""
    if isinstance(like, Tile):
        if isinstance(x, Tile) and x.type != like.type:
            fail(errors.CompilationTypeError, f"'{name}' changes type from {user_type(like)} to {user_type(x)}")
        return as_tile(gen, x, like)
    if isinstance(like, Scalar):
        if isinstance(x, Scalar) and x.type != like.type and x.is_float != like.is_float:
            fail(errors.CompilationTypeError, f"'{name}' changes type from {user_type(like)} to {user_type(x)}")
        if isinstance(x, Tile):
            fail(errors.CompilationTypeError, f"'{name}' changes from a scalar to a tile")
        if is_uint8_scalar(like):
            return uint8_scalar(gen, x, f"'{name}'")
        return as_scalar(gen, x, like.type)
    fail(errors.CompilationTypeError, f"'{name}' ({describe(like)}) cannot change inside a loop or runtime if")
