"""What each asc2 builtin and operator emits.

Adding an element-wise op is one line in ``BINARY_OPS``/``UNARY_OPS`` (plus a
stub in ``language/core.py``); anything else is a function registered with
``@emitter("name")`` whose parameters are bound like the stub's.  Emitters
raise plain ``TypeError``/``ValueError``/``RuntimeError`` through ``fail``; the
visitor turns them into ``CompilationError``s at the calling line.
"""

import builtins
import inspect
import itertools
import math
import operator

from .. import errors
from ..language import core
from .ir import (INDEX, I1, GlobalTensor, Pointer, Scalar, Tile, Value, constant_literal, float_literal,
                 is_float_type, scalar_type_of_python, tensor_type, tile_type)

UB_BLOCK_BYTES = 32


def fail(kind, message):
    """Raise the builtin exception upstream PyAsc2 uses, tagged with the asc2 error class."""
    base = next((b for b in kind.__mro__ if b in (TypeError, ValueError, IndexError, RuntimeError)), RuntimeError)
    exc = base(message)
    exc.asc2_error_class = kind
    raise exc


def is_value(x):
    return isinstance(x, Value)


def is_number(x):
    return isinstance(x, (bool, int, float)) and not isinstance(x, Value)


def describe(x):
    if isinstance(x, Tile):
        return f"tile {x.type}"
    if isinstance(x, GlobalTensor):
        return f"global tensor {x.type}"
    if isinstance(x, Pointer):
        return f"GlobalAddress {x.type}"
    if isinstance(x, Scalar):
        return f"runtime scalar of type {x.type}"
    return f"{type(x).__name__} {x!r}"


# ---------------------------------------------------------------------------
# Scalars

_SCALAR_DTYPES = {"f32": core.float32, "f16": core.float16, "bf16": core.bfloat16, "i64": core.int64,
                  "i32": core.int32, "i16": core.int16, "i8": core.int8, "ui8": core.uint8, "i1": core.bool_,
                  INDEX: core.int32}
_INT_WIDTH = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, INDEX: 64}
_FLOAT_WIDTH = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}


def scalar_type(x):
    return x.type if isinstance(x, Scalar) else scalar_type_of_python(x)


def scalar_dtype(x):
    """The dtype a scalar operand asks for: int32/float32/bool for Python numbers and ``index``."""
    if isinstance(x, Scalar) and x.dtype is not None:
        return x.dtype
    return _SCALAR_DTYPES.get(scalar_type(x))


# arith has no unsigned integers: a uint8 scalar is this signless type holding the value zero-extended, so signed
# arith on it is exact; results wrap modulo 256 (``wrap_uint8``) where numpy's uint8 would.
UINT8_CARRIER = "i32"
_UINT8_WRAPPING = ("add", "sub", "mul", "left_shift")


def scalar_type_of(dt):
    """The scalar type of one element of a ``dt`` tile."""
    return UINT8_CARRIER if dt == core.uint8 else dt.mlir


def element_scalar(ssa, dt):
    """The Scalar holding one element of a ``dt`` tile or tensor produced as ``ssa``."""
    return Scalar(ssa, scalar_type_of(dt), dt if dt == core.uint8 else None)


def is_uint8_scalar(x):
    return isinstance(x, Scalar) and x.dtype == core.uint8


def plain_scalar(x):
    """``x`` without its uint8 meaning: the carrier as an ordinary signless integer."""
    return Scalar(x.ssa, x.type) if is_uint8_scalar(x) else x


def wrap_uint8(gen, s):
    """The uint8 scalar of the low 8 bits of integer scalar ``s`` (numpy's astype(uint8))."""
    wide = cast_scalar(gen, plain_scalar(s), UINT8_CARRIER)
    low = gen.b.op(f"arith.andi {wide.ssa}, {gen.b.constant(255, UINT8_CARRIER)} : {UINT8_CARRIER}")
    return Scalar(low, UINT8_CARRIER, core.uint8)


def uint8_scalar(gen, x, what="asc2.number"):
    """``x`` as a uint8 scalar: Python numbers must lie in 0..255 (numpy raises OverflowError otherwise), runtime
    values wrap modulo 256 (floats truncate first)."""
    if is_uint8_scalar(x):
        return x
    if is_number(x):
        value = int(x)
        if not 0 <= value <= 255:
            fail(errors.CompilationValueError, f"{what}: {x!r} is outside the uint8 range 0..255")
        return Scalar(gen.b.constant(value, UINT8_CARRIER), UINT8_CARRIER, core.uint8)
    if not isinstance(x, Scalar):
        fail(errors.CompilationTypeError, f"{what}: expected a scalar, got {describe(x)}")
    return wrap_uint8(gen, cast_scalar(gen, x, UINT8_CARRIER))


def uint8_scalar_operands(gen, name, a, b):
    """Scalar operands ``a``, ``b`` of which one is a uint8 scalar, as numpy combines them. With another uint8, a
    bool or a Python int (which must fit uint8) the result is uint8: returns both as carriers and True. Otherwise
    returns plain operands in the type numpy computes in (a float; int8/int16 -> int16, wider ints as they are)
    and False."""
    other = b if is_uint8_scalar(a) else a
    if is_number(other) and isinstance(other, float) or isinstance(other, Scalar) and other.is_float:
        return plain_scalar(a), plain_scalar(b), False
    if is_number(other) or is_uint8_scalar(other) or scalar_type(other) == I1:
        if is_number(other) and not isinstance(other, bool) and not 0 <= other <= 255:
            fail(errors.CompilationValueError, f"'{name}': scalar {other} is outside the uint8 range 0..255")
        sa, sb = (plain_scalar(cast_scalar(gen, x, UINT8_CARRIER)) if isinstance(x, Scalar)
                  else as_scalar(gen, int(x), UINT8_CARRIER) for x in (a, b))
        return sa, sb, True
    ty = other.type if other.type == INDEX else promote(core.uint8, scalar_dtype(other)).mlir
    return plain_scalar(cast_scalar(gen, a, ty)), plain_scalar(cast_scalar(gen, b, ty)), False


def cast_scalar(gen, s, ty):
    """Convert a runtime scalar to scalar type ``ty`` (C-like: float -> int truncates)."""
    b = gen.b
    src = s.type
    if src == ty:
        return s
    if ty == I1:
        return to_condition(gen, s)
    if src == I1:
        if is_float_type(ty):
            return Scalar(b.op(f"arith.uitofp {s.ssa} : i1 to {ty}"), ty)
        wide = b.op(f"arith.extui {s.ssa} : i1 to i64")
        s, src = Scalar(wide, "i64"), "i64"
        if src == ty:
            return s
    if is_float_type(src) and is_float_type(ty):
        if _FLOAT_WIDTH[src] == _FLOAT_WIDTH[ty]:  # f16 <-> bf16 goes through f32
            s, src = Scalar(b.op(f"arith.extf {s.ssa} : {src} to f32"), "f32"), "f32"
        op = "arith.extf" if _FLOAT_WIDTH[ty] > _FLOAT_WIDTH[src] else "arith.truncf"
        return Scalar(b.op(f"{op} {s.ssa} : {src} to {ty}"), ty)
    if is_float_type(ty):
        if src == INDEX:
            s, src = Scalar(b.op(f"arith.index_cast {s.ssa} : index to i64"), "i64"), "i64"
        return Scalar(b.op(f"arith.sitofp {s.ssa} : {src} to {ty}"), ty)
    if is_float_type(src):
        int_ty = "i64" if ty == INDEX else ty
        s = Scalar(b.op(f"arith.fptosi {s.ssa} : {src} to {int_ty}"), int_ty)
        return cast_scalar(gen, s, ty)
    if src in _INT_WIDTH and ty in _INT_WIDTH:
        if INDEX in (src, ty):
            return Scalar(b.op(f"arith.index_cast {s.ssa} : {src} to {ty}"), ty)
        op = "arith.extsi" if _INT_WIDTH[ty] > _INT_WIDTH[src] else "arith.trunci"
        return Scalar(b.op(f"{op} {s.ssa} : {src} to {ty}"), ty)
    fail(errors.CompilationTypeError, f"cannot convert a {src} scalar to {ty}")


def as_scalar(gen, x, ty=None):
    """A runtime Scalar for a Python number or Scalar, converted to ``ty`` if given."""
    if isinstance(x, Scalar):
        return cast_scalar(gen, x, ty) if ty else x
    if is_number(x):
        ty = ty or scalar_type_of_python(x)
        if isinstance(x, float) and not is_float_type(ty):
            fail(errors.CompilationTypeError, f"expected an integer, got float {x!r}")
        return Scalar(gen.b.constant(x, ty), ty)
    fail(errors.CompilationTypeError, f"expected a scalar, got {describe(x)}")


def as_index(gen, x, what="index"):
    if isinstance(x, Scalar) and x.is_float:
        fail(errors.CompilationTypeError, f"{what} must be an integer, got a {x.type} scalar")
    if isinstance(x, float):
        fail(errors.CompilationTypeError, f"{what} must be an integer, got float {x!r}")
    if not (isinstance(x, Scalar) or is_number(x)):
        fail(errors.CompilationTypeError, f"{what} must be an integer, got {describe(x)}")
    return as_scalar(gen, x, INDEX)


def to_condition(gen, x):
    """An i1 Scalar for a runtime truth value."""
    if isinstance(x, Scalar):
        if x.type == I1:
            return x
        zero = as_scalar(gen, 0.0 if x.is_float else 0, x.type)
        if x.is_float:
            return Scalar(gen.b.op(f"arith.cmpf une, {x.ssa}, {zero.ssa} : {x.type}"), I1)
        return Scalar(gen.b.op(f"arith.cmpi ne, {x.ssa}, {zero.ssa} : {x.type}"), I1)
    if isinstance(x, Tile):
        fail(errors.CompilationTypeError, "a tile cannot be used as a condition; choose elements with "
                                          "asc2.where(mask, a, b)")
    fail(errors.CompilationTypeError, f"a {describe(x)} cannot be used as a condition")


def common_scalar_type(a, b):
    """The type two scalar operands are computed in: the widest float, else a shared int type, else index."""
    ta, tb = scalar_type(a), scalar_type(b)
    if ta is None or tb is None:
        return None
    runtime = [x.type for x in (a, b) if isinstance(x, Scalar)]
    if is_float_type(ta) or is_float_type(tb):
        floats = [t for t in runtime if is_float_type(t)]
        return max(floats, key=lambda t: _FLOAT_WIDTH[t]) if floats else "f32"
    if ta == I1 and tb == I1:
        return I1
    ints = {t for t in runtime if t != I1}
    return ints.pop() if len(ints) == 1 else INDEX


# ---------------------------------------------------------------------------
# Tiles: promotion, conversion, broadcasting


def promote(a, b):
    """The dtype ``a ⊕ b`` is computed in (bool < int < float; the wider type of a kind)."""
    if a == b:
        return a
    if a == core.bool_ or b == core.bool_:
        return b if a == core.bool_ else a
    if a.is_float != b.is_float:
        return a if a.is_float else b
    if a.is_float:
        return a if a.bits > b.bits else b if b.bits > a.bits else core.float32  # f16 ⊕ bf16 -> f32
    if a.kind != b.kind and a.bits == b.bits:  # int8 ⊕ uint8
        return {8: core.int16, 16: core.int32}.get(a.bits, core.int64)
    return a if a.bits > b.bits else b


def weak_promote(dt, scalar):
    """A tile's dtype combined with a scalar: scalars do not widen a tile within its kind."""
    sdt = scalar_dtype(scalar)
    if sdt is None:
        fail(errors.CompilationTypeError, f"expected a tile or a scalar, got {describe(scalar)}")
    if dt == core.bool_:
        return sdt if sdt != core.bool_ else dt
    if sdt.is_float and not dt.is_float:
        return core.float32
    if isinstance(scalar, Scalar) and {dt, sdt} == {core.int8, core.uint8}:
        return core.int16  # neither holds the other's values
    return dt


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


def splat(gen, x, shape, dt, location):
    """A tile of ``shape`` filled with scalar ``x`` converted to ``dt``."""
    if dt.is_int and (isinstance(x, float) or (isinstance(x, Scalar) and x.is_float)):
        fail(errors.CompilationTypeError, f"cannot fill an {dt.name} tile with a float ({describe(x)}); "
                                          "cast it or use a float dtype")
    check_ub_alignment(shape, dt, location)
    s = fill_scalar(gen, x, dt)
    return new_tile(gen, f"asctile.splat {s.ssa} : {s.type} -> ", shape, dt, location)


def fill_scalar(gen, x, dt):
    """The scalar that fills a ``dt`` tile with ``x``: of type ``dt``, or for uint8 the signless i8 that holds the
    same bits (arith has no unsigned scalars)."""
    if dt.kind != "uint":
        return as_scalar(gen, x, dt.mlir)
    signless = f"i{dt.bits}"
    if is_number(x):
        value = int(x)
        if not 0 <= value < 1 << dt.bits:
            fail(errors.CompilationValueError, f"{value} is outside the {dt.name} range 0..{(1 << dt.bits) - 1}")
        return as_scalar(gen, value - (1 << dt.bits) if value >= 1 << (dt.bits - 1) else value, signless)
    return as_scalar(gen, x, signless)


def default_round_mode(src, dst):
    return core.RoundMode.TRUNC if src.is_float and not dst.is_float else core.RoundMode.NONE


def convert_tile(gen, t, dt, round_mode=None):
    """``t`` as a ``dt`` tile (asctile.cast; bool tiles go through where/cmp)."""
    if t.dtype == dt:
        return t
    if t.dtype == core.bool_:
        one, zero = (1.0, 0.0) if dt.is_float else (1, 0)
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


def reshape_tile(gen, t, shape):
    shape = tuple(shape)
    if shape == t.shape:
        return t
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
            fail(errors.CompilationTypeError, f"expected a {like.type}, got a {x.type}")
        return x
    if not (isinstance(x, Scalar) or is_number(x)):
        fail(errors.CompilationTypeError, f"expected a tile or a scalar, got {describe(x)}")
    return splat(gen, x, like.shape, like.dtype, like.location)
# ---------------------------------------------------------------------------
# Element-wise operations

_FLOOR_DIV = "floordiv"  # floats: arith.divf then math.floor

# name -> (float op, integer op, bool op, Python fold); None: not defined for that kind.
BINARY_OPS = {
    "add": ("arith.addf", "arith.addi", None, operator.add),
    "sub": ("arith.subf", "arith.subi", None, operator.sub),
    "mul": ("arith.mulf", "arith.muli", None, operator.mul),
    "div": ("arith.divf", "arith.divsi", None, operator.truediv),
    "floordiv": (_FLOOR_DIV, "arith.floordivsi", None, operator.floordiv),
    "mod": ("arith.remf", "arith.remsi", None, operator.mod),
    "maximum": ("arith.maximumf", "arith.maxsi", None, builtins.max),
    "minimum": ("arith.minimumf", "arith.minsi", None, builtins.min),
    "bitwise_and": (None, "arith.andi", "arith.andi", operator.and_),
    "bitwise_or": (None, "arith.ori", "arith.ori", operator.or_),
    "bitwise_xor": (None, "arith.xori", "arith.xori", operator.xor),
    "left_shift": (None, "arith.shli", None, operator.lshift),
    "right_shift": (None, "arith.shrsi", None, operator.rshift),
    "ceildiv": (None, "arith.ceildivsi", None, core.ceildiv),
}

# Index scalars: the scalar unit divides truncating, and offsets are non-negative.
_SCALAR_INT_OVERRIDES = {"floordiv": "arith.divsi"}

# name -> (float op, integer op, Python fold)
UNARY_OPS = {
    "exp": ("math.exp", None, math.exp),
    "exp2": ("math.exp2", None, lambda v: 2.0 ** v),
    "log": ("math.log", None, math.log),
    "log2": ("math.log2", None, math.log2),
    "sqrt": ("math.sqrt", None, math.sqrt),
    "rsqrt": ("math.rsqrt", None, lambda v: 1.0 / math.sqrt(v)),
    "sin": ("math.sin", None, math.sin),
    "cos": ("math.cos", None, math.cos),
    "tan": ("math.tan", None, math.tan),
    "sinh": ("math.sinh", None, math.sinh),
    "cosh": ("math.cosh", None, math.cosh),
    "tanh": ("math.tanh", None, math.tanh),
    "erf": ("math.erf", None, math.erf),
    "ceil": ("math.ceil", None, math.ceil),
    "floor": ("math.floor", None, math.floor),
    "abs": ("math.absf", "math.absi", builtins.abs),
}

# Python operators -> BINARY_OPS names.
PY_BINOPS = {
    "Add": "add", "Sub": "sub", "Mult": "mul", "Div": "div", "FloorDiv": "floordiv", "Mod": "mod",
    "BitAnd": "bitwise_and", "BitOr": "bitwise_or", "BitXor": "bitwise_xor", "LShift": "left_shift",
    "RShift": "right_shift",
}
PY_FOLD = {"Pow": operator.pow, "MatMult": operator.matmul}

CMP_PREDICATES = {  # ast name -> (cmpi, cmpf, asctile.cmp, Python)
    "Lt": ("slt", "olt", "lt", operator.lt), "LtE": ("sle", "ole", "le", operator.le),
    "Gt": ("sgt", "ogt", "gt", operator.gt), "GtE": ("sge", "oge", "ge", operator.ge),
    "Eq": ("eq", "oeq", "eq", operator.eq), "NotEq": ("ne", "une", "ne", operator.ne),
}
CMP_BUILTINS = {"less": "Lt", "less_equal": "LtE", "greater": "Gt", "greater_equal": "GtE", "equal": "Eq",
                "not_equal": "NotEq"}


def _kind_op(name, dt, float_op, int_op, bool_op=None):
    """The op for a ``dt`` tile, or a clear error naming the dtype (uint8 tiles reach here only for ops that have
    no uint8 form)."""
    if dt.kind == "uint":
        fail(errors.UnsupportedError, f"asc2.{name} on {dt.name} tiles is not supported; cast to int16 first")
    op = {"float": float_op, "int": int_op, "bool": bool_op}[dt.kind]
    if op is None:
        kinds = [k for k, o in (("float", float_op), ("integer", int_op), ("bool", bool_op)) if o]
        fail(errors.CompilationTypeError, f"asc2.{name} is not supported on {dt.name} tiles "
                                          f"(only {' and '.join(kinds)} tiles)")
    return op


def binary(gen, name, a, b):
    float_op, int_op, bool_op, fold = BINARY_OPS[name]
    if not is_value(a) and not is_value(b):
        return fold(a, b)
    if isinstance(a, Tile) or isinstance(b, Tile):
        fused = cube.fuse_accumulate(gen, name, a, b)
        if fused is not None:
            return fused
        dt = operand_dtype(name, a, b)[0]
        if dt.kind == "uint":
            # No unsigned arith on tiles: compute in int16 and wrap back (uint8 sums, differences and products
            # wrap modulo 256 like numpy's).
            ta, tb = widened_operands(gen, name, a, b)
            wide = binary(gen, name, ta, tb)
            return convert_tile(gen, wide, dt)
        ta, tb = tile_operands(gen, name, a, b)
        op = _kind_op(name, ta.dtype, float_op, int_op, bool_op)
        if op == _FLOOR_DIV:
            quotient = apply_mask(gen, ta.like(gen.b.op(f"arith.divf {ta.ssa}, {tb.ssa} : {ta.type}")), ta.dtype)
            return apply_mask(gen, ta.like(gen.b.op(f"math.floor {quotient.ssa} : {ta.type}")), ta.dtype)
        return apply_mask(gen, ta.like(gen.b.op(f"{op} {ta.ssa}, {tb.ssa} : {ta.type}")), ta.dtype)
    if is_uint8_scalar(a) or is_uint8_scalar(b):
        a, b, is_uint8 = uint8_scalar_operands(gen, name, a, b)
        if is_uint8:
            result = binary(gen, name, a, b)
            return wrap_uint8(gen, result) if name in _UINT8_WRAPPING else Scalar(result.ssa, result.type, core.uint8)
    ty = common_scalar_type(a, b)
    if ty is None or (ty == I1 and bool_op is None):
        fail(errors.CompilationTypeError, f"unsupported operands for '{name}': {describe(a)} and {describe(b)}")
    sa, sb = as_scalar(gen, a, ty), as_scalar(gen, b, ty)
    if is_float_type(ty):
        op = float_op
    else:
        op = _SCALAR_INT_OVERRIDES.get(name, int_op) if ty != I1 else bool_op
    if op is None:
        fail(errors.CompilationTypeError, f"'{name}' is not supported on {ty} scalars")
    if op == _FLOOR_DIV:
        quotient = gen.b.op(f"arith.divf {sa.ssa}, {sb.ssa} : {ty}")
        return Scalar(gen.b.op(f"math.floor {quotient} : {ty}"), ty)
    return Scalar(gen.b.op(f"{op} {sa.ssa}, {sb.ssa} : {ty}"), ty)


def unary(gen, name, x):
    if name == "relu":
        if not is_value(x):
            return builtins.max(x, 0)
        zero = 0 if (isinstance(x, Tile) and not x.dtype.is_float) or scalar_type(x) in _INT_WIDTH else 0.0
        return binary(gen, "maximum", x, zero)
    if name == "negative":
        if not is_value(x):
            return -x
        if isinstance(x, Tile) and x.dtype.is_float:
            # x * -1 is exact and maps onto the vector unit's Muls.
            return binary(gen, "mul", x, -1.0)
        if isinstance(x, Scalar) and x.is_float:
            return rebuild(x, gen.b.op(f"arith.negf {x.ssa} : {x.type}"))
        return binary(gen, "sub", 0, x)
    if name == "bitwise_not":
        if not is_value(x):
            return ~x
        dt = getattr(x, "dtype", None)
        ones = True if scalar_type(x) == I1 or dt == core.bool_ else 255 if dt == core.uint8 else -1
        return binary(gen, "bitwise_xor", x, ones)
    float_op, int_op, fold = UNARY_OPS[name]
    if not is_value(x):
        return fold(x)
    if (isinstance(x, Tile) and x.dtype.kind == "uint" or is_uint8_scalar(x)) and int_op is not None:
        return x  # abs of an unsigned value
    if isinstance(x, Tile) and x.dtype.kind == "uint":
        fail(errors.CompilationTypeError, f"asc2.{name} is not supported on {x.dtype.name} tiles (only float tiles)")
    if isinstance(x, Tile):
        op = _kind_op(name, x.dtype, float_op, int_op)
    elif isinstance(x, Scalar):
        if not x.is_float and not int_op:
            x = cast_scalar(gen, x, "f32")
        op = float_op if x.is_float else int_op
    else:
        fail(errors.CompilationTypeError, f"asc2.{name} expects a tile or a scalar, got {describe(x)}")
    result = rebuild(x, gen.b.op(f"{op} {x.ssa} : {x.type}"))
    return apply_mask(gen, result, x.dtype) if isinstance(x, Tile) else result


def power(gen, a, b):
    """``a ** b`` for a small constant exponent (multiplications, sqrt or rsqrt)."""
    if not is_value(a) and not is_value(b):
        return a ** b
    if is_value(b) or not is_number(b):
        fail(errors.UnsupportedError, "'**' needs a constant exponent (1, 2, 3, 4, 0.5 or -0.5)")
    if b == 0.5:
        return unary(gen, "sqrt", a)
    if b == -0.5:
        return unary(gen, "rsqrt", a)
    if b in (1, 2, 3, 4) and float(b).is_integer():
        result = a
        for _ in builtins.range(int(b) - 1):
            result = binary(gen, "mul", result, a)
        return result
    fail(errors.UnsupportedError, f"'**' with exponent {b!r} is not supported (use 1, 2, 3, 4, 0.5 or -0.5)")


def rebuild(like, ssa):
    if isinstance(like, Tile):
        return like.like(ssa)
    return Scalar(ssa, like.type, like.dtype)


def compare_tiles(gen, predicate, a, b):
    if operand_dtype(predicate, a, b)[0].kind == "uint":
        ta, tb = widened_operands(gen, predicate, a, b)  # unsigned order, in int16
    else:
        ta, tb = tile_operands(gen, predicate, a, b)
    result = new_tile(gen, f"asctile.cmp {predicate}, {ta.ssa}, {tb.ssa} : {ta.type} -> ", ta.shape, core.bool_,
                      ta.location)
    return apply_mask(gen, result, ta.dtype)


def compare(gen, pred, a, b):
    cmpi, cmpf, tile_pred, fold = CMP_PREDICATES[pred]
    if not is_value(a) and not is_value(b):
        return fold(a, b)
    if isinstance(a, Tile) or isinstance(b, Tile):
        return compare_tiles(gen, tile_pred, a, b)
    ty = common_scalar_type(a, b)
    if ty is None:
        fail(errors.CompilationTypeError, f"cannot compare {describe(a)} and {describe(b)}")
    sa, sb = as_scalar(gen, a, ty), as_scalar(gen, b, ty)
    if is_float_type(ty):
        return Scalar(gen.b.op(f"arith.cmpf {cmpf}, {sa.ssa}, {sb.ssa} : {ty}"), I1)
    return Scalar(gen.b.op(f"arith.cmpi {cmpi}, {sa.ssa}, {sb.ssa} : {ty}"), I1)


def where(gen, mask, a, b):
    """Element-wise ``a if mask else b``."""
    if not isinstance(mask, Tile) or mask.dtype != core.bool_:
        fail(errors.CompilationTypeError, f"asc2.where: the mask must be a bool tile (from a comparison), got "
                                          f"{describe(mask)}")
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


def logical(gen, op, a, b):
    """Runtime ``and``/``or`` of two truth values (masks combine element-wise)."""
    if isinstance(a, Tile) or isinstance(b, Tile):
        return binary(gen, "bitwise_and" if op == "and" else "bitwise_or", a, b)
    ca, cb = to_condition(gen, a) if is_value(a) else as_scalar(gen, bool(a), I1), \
        to_condition(gen, b) if is_value(b) else as_scalar(gen, bool(b), I1)
    name = "arith.andi" if op == "and" else "arith.ori"
    return Scalar(gen.b.op(f"{name} {ca.ssa}, {cb.ssa} : i1"), I1)


def logical_not(gen, x):
    c = to_condition(gen, x)
    true = gen.b.constant(True, I1)
    return Scalar(gen.b.op(f"arith.xori {c.ssa}, {true} : i1"), I1)


def select(gen, cond, a, b):
    """``a if cond else b`` for a runtime scalar condition."""
    c = to_condition(gen, cond)
    if isinstance(a, Tile) or isinstance(b, Tile):
        a, b = tile_operands(gen, "if-else", a, b)
    else:
        is_uint8 = False
        if is_uint8_scalar(a) or is_uint8_scalar(b):
            a, b, is_uint8 = uint8_scalar_operands(gen, "if-else", a, b)
        ty = common_scalar_type(a, b)
        if ty is None:
            fail(errors.CompilationTypeError, f"both branches must be scalars or tiles, got {describe(a)} and "
                                              f"{describe(b)}")
        a, b = as_scalar(gen, a, ty), as_scalar(gen, b, ty)
        if is_uint8:
            return Scalar(gen.b.op(f"arith.select {c.ssa}, {a.ssa}, {b.ssa} : {ty}"), ty, core.uint8)
    return rebuild(a, gen.b.op(f"arith.select {c.ssa}, {a.ssa}, {b.ssa} : {a.type}"))


def coerce_like(gen, x, like, name):
    """``x`` converted to ``like``'s type (loop-carried and if-yielded values)."""
    if isinstance(like, Tile):
        if isinstance(x, Tile) and x.type != like.type:
            fail(errors.CompilationTypeError, f"'{name}' changes type from {like.type} to {x.type}")
        return as_tile(gen, x, like)
    if isinstance(like, Scalar):
        if isinstance(x, Scalar) and x.type != like.type and x.is_float != like.is_float:
            fail(errors.CompilationTypeError, f"'{name}' changes type from {like.type} to {x.type}")
        if isinstance(x, Tile):
            fail(errors.CompilationTypeError, f"'{name}' changes from a scalar to a tile")
        if is_uint8_scalar(like):
            return uint8_scalar(gen, x, f"'{name}'")
        return as_scalar(gen, x, like.type)
    fail(errors.CompilationTypeError, f"'{name}' ({describe(like)}) cannot change inside a loop or runtime if")


def static_shape(shape, what="shape"):
    if isinstance(shape, (int, Scalar)) and not isinstance(shape, bool):
        shape = [shape]
    if not isinstance(shape, (list, tuple)):
        fail(errors.CompilationTypeError, f"{what} must be a list of integers, got {describe(shape)}")
    out = []
    for d in shape:
        if isinstance(d, Value):
            fail(errors.ShapeError, f"{what} must be known at compile time; got a runtime value "
                                    "(use an asc2.ConstExpr parameter or a constant)")
        if not isinstance(d, int) or isinstance(d, bool) or d <= 0:
            fail(errors.ShapeError, f"{what} must contain positive integers, got {d!r}")
        out.append(d)
    if not out:
        fail(errors.ShapeError, f"{what} must have at least one dimension")
    return out


def offsets_of(gen, offsets, rank, what):
    if isinstance(offsets, (int, Scalar)) and not isinstance(offsets, bool):
        offsets = [offsets]
    if not isinstance(offsets, (list, tuple)):
        fail(errors.CompilationTypeError, f"{what}: offsets must be a list, got {describe(offsets)}")
    if len(offsets) != rank:
        fail(errors.CompilationValueError,
             f"{what}: {len(offsets)} offset(s) given for a rank-{rank} tensor")
    return [as_index(gen, o, f"{what} offset").ssa for o in offsets]


def normalize_axis(axis, rank, what, extra=0):
    """``axis`` in ``[0, rank + extra)``; negative axes count from the end (numpy)."""
    if isinstance(axis, Value) or not isinstance(axis, int) or isinstance(axis, bool):
        fail(errors.CompilationTypeError, f"{what}: a dimension must be a compile-time integer, got "
                                          f"{describe(axis)}")
    size = rank + extra
    if not -size <= axis < size:
        fail(errors.CompilationIndexError, f"{what}: dimension {axis} is out of range for a rank-{rank} tile "
                                           f"(valid: {-size}..{size - 1})")
    return axis % size


def flatten_dims(dims):
    out = []
    for d in dims:
        if isinstance(d, (list, tuple)):
            out.extend(d)
        elif d is not None:
            out.append(d)
    return out


def expect_tile(x, what, floats_only=False):
    if not isinstance(x, Tile):
        fail(errors.CompilationTypeError, f"{what} expects a tile, got {describe(x)}")
    if floats_only and not x.dtype.is_float:
        fail(errors.CompilationTypeError, f"{what} is not supported on {x.dtype.name} tiles (only float tiles)")
    return x


# ---------------------------------------------------------------------------
# Builtins: name -> emitter(gen, *args, **kwargs), bound like the language stub.

EMITTERS = {}


def emitter(name):
    def register(fn):
        stub = getattr(core, name)
        sig = inspect.signature(getattr(stub, "__wrapped__", stub))

        def call(gen, args, kwargs):
            try:
                bound = sig.bind(*args, **kwargs)
            except TypeError as e:
                fail(errors.CompilationTypeError, f"asc2.{name}(): {e}")
            bound.apply_defaults()
            return fn(gen, **bound.arguments)

        EMITTERS[name] = call
        return fn

    return register


def emit_builtin(gen, name, args, kwargs):
    call = EMITTERS.get(name)
    if call is None:
        fail(errors.UnsupportedError, f"asc2.{name} is not implemented yet")
    return call(gen, args, kwargs)


for _name in BINARY_OPS:
    if hasattr(core, _name):
        emitter(_name)(lambda gen, a, b, _n=_name: binary(gen, _n, a, b))
for _name, _pred in CMP_BUILTINS.items():
    emitter(_name)(lambda gen, a, b, _p=_pred: compare(gen, _p, a, b))
for _name in (*UNARY_OPS, "relu", "negative", "bitwise_not"):
    emitter(_name)(lambda gen, x, _n=_name: unary(gen, _n, x))


@emitter("mask")
def _mask_call(gen, count, bits, other):
    fail(errors.UnsupportedError, "asc2.mask(...) is a context manager: write 'with asc2.mask(count=n):' around the "
                                  "element-wise ops it limits")


# ---------------------------------------------------------------------------
# with asc2.mask(count=n | bits=(hi, lo), other=v)


class LaneMask:
    """The mask of a ``with asc2.mask(...)`` block: a count (index Scalar) or two i64 Scalars, and ``other``."""

    def __init__(self, count=None, high=None, low=None, high_value=None, other=None):
        self.count, self.high, self.low, self.high_value, self.other = count, high, low, high_value, other


_MASK_BITS = 64


def _mask_bits_half(gen, v, which):
    """One 64-bit half of ``bits`` as an i64 Scalar (Python ints may be given unsigned, 0 .. 2**64-1)."""
    if isinstance(v, Scalar):
        if v.is_float or v.type == I1:
            fail(errors.CompilationTypeError, f"asc2.mask: bits must be integers, got a {v.type} scalar as {which}")
        return cast_scalar(gen, v, "i64"), None
    if isinstance(v, bool) or not isinstance(v, int):
        fail(errors.CompilationTypeError, f"asc2.mask: bits must be a pair of integers (high, low), got "
                                          f"{describe(v)} as {which}")
    if not -(1 << (_MASK_BITS - 1)) <= v < 1 << _MASK_BITS:
        fail(errors.CompilationValueError, f"asc2.mask: the {which} bits {v:#x} do not fit in 64 bits")
    signed = v - (1 << _MASK_BITS) if v >= 1 << (_MASK_BITS - 1) else v
    return as_scalar(gen, signed, "i64"), v & ((1 << _MASK_BITS) - 1)


def make_mask(gen, args, kwargs):
    """The LaneMask of ``asc2.mask(*args, **kwargs)`` (evaluated where the ``with`` starts)."""
    sig = inspect.signature(getattr(core.mask, "__wrapped__", core.mask))
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError as e:
        fail(errors.CompilationTypeError, f"asc2.mask(): {e}")
    bound.apply_defaults()
    count, bits, other = bound.arguments["count"], bound.arguments["bits"], bound.arguments["other"]
    if count is None and bits is None:
        fail(errors.CompilationValueError, "asc2.mask needs one of count= or bits=")
    if count is not None and bits is not None:
        fail(errors.CompilationValueError, "asc2.mask takes one of count= or bits=, not both")
    if other is not None and not (is_number(other) or isinstance(other, Scalar)):
        fail(errors.CompilationTypeError, f"asc2.mask: other must be a scalar (the value of the lanes the mask "
                                          f"leaves out), got {describe(other)}")
    if count is not None:
        if isinstance(count, bool) or isinstance(count, float) or (isinstance(count, Scalar) and
                                                                    (count.is_float or count.type == I1)):
            fail(errors.CompilationTypeError, f"asc2.mask: count must be an integer, got {describe(count)}")
        if not (isinstance(count, (int, Scalar))):
            fail(errors.CompilationTypeError, f"asc2.mask: count must be an integer, got {describe(count)}")
        return LaneMask(count=as_index(gen, count, "asc2.mask count"), other=other)
    if isinstance(bits, Value) or not isinstance(bits, (tuple, list)):
        fail(errors.CompilationTypeError, f"asc2.mask: bits must be a pair (high, low) of 64-bit lane masks, got "
                                          f"{describe(bits)}")
    if len(bits) != 2:
        fail(errors.CompilationValueError, f"asc2.mask: bits must be a pair (high, low) of 64-bit lane masks, got "
                                           f"{len(bits)} value(s)")
    high, high_value = _mask_bits_half(gen, bits[0], "high")
    low, _ = _mask_bits_half(gen, bits[1], "low")
    return LaneMask(high=high, low=low, high_value=high_value, other=other)


def apply_mask(gen, t, compute_dtype):
    """``t`` limited to the lanes of the enclosing ``with asc2.mask(...)`` (asctile.mask), ``other`` elsewhere."""
    m = getattr(gen, "mask", None)
    if m is None or not isinstance(t, Tile):
        return t
    if t.location != core.TensorLocation.UB:
        fail(errors.UnsupportedError, f"asc2.mask limits element-wise ops on UB tiles, not on {t.location.value} "
                                      "tiles")
    other = m.other if m.other is not None else 0
    if t.dtype == core.bool_:
        s = to_condition(gen, other) if isinstance(other, Scalar) else as_scalar(gen, bool(other), I1)
    elif t.dtype.is_int and (isinstance(other, float) or (isinstance(other, Scalar) and other.is_float)):
        fail(errors.CompilationTypeError, f"asc2.mask: other={describe(other)} for an {t.dtype.name} result; "
                                          "use an integer")
    else:
        s = fill_scalar(gen, float(other) if t.dtype.is_float and is_number(other) else other, t.dtype)
    if m.count is not None:
        selector = f"count {m.count.ssa}"
    else:
        if compute_dtype.bits not in (16, 32):
            fail(errors.UnsupportedError, f"asc2.mask(bits=...) selects lanes of 16- or 32-bit elements (128 or 64 "
                                          f"per 256-byte repeat); this op computes on {compute_dtype.name}")
        lanes = 128 if compute_dtype.bits == 16 else 64
        if lanes == 64 and m.high_value:
            fail(errors.CompilationValueError, f"asc2.mask: the high bits {m.high_value:#x} select lanes 64..127, "
                                               f"but a {compute_dtype.name} repeat has 64 lanes; pass 0 as high")
        selector = f"bits {m.high.ssa}, {m.low.ssa} {{lanes = {lanes} : i64}}"
    return t.like(gen.b.op(f"asctile.mask {t.ssa}, {s.ssa} {selector} : {t.type}, {s.type}"))


def forbid_in_mask(gen, what):
    if getattr(gen, "mask", None) is not None:
        fail(errors.UnsupportedError, f"{what} inside 'with asc2.mask(...)' is not supported: the mask limits "
                                      "element-wise ops; compute it outside the block")


def check_supported_location(location, what, allowed=(core.TensorLocation.UB,)):
    location = core.TensorLocation.parse(location)
    if location not in allowed:
        fail(errors.UnsupportedError, f"{what}: {location.value} tiles are not supported here (supported: "
                                      + ", ".join(a.value for a in allowed) + ")")
    return location


@emitter("ceildiv")
def _ceildiv(gen, a, b):
    if is_value(a) or is_value(b):
        return binary(gen, "ceildiv", as_index(gen, a, "ceildiv operand"), as_index(gen, b, "ceildiv operand"))
    return core.ceildiv(a, b)


@emitter("block_idx")
def _block_idx(gen):
    return Scalar(gen.b.op("asctile.block_idx"), INDEX)


@emitter("block_num")
def _block_num(gen):
    return Scalar(gen.b.op("asctile.block_num"), INDEX)


@emitter("where")
def _where(gen, mask, a, b):
    return where(gen, mask, a, b)


# -- fused row operations


def _row_operand(gen, x, operand, what, name):
    """``gamma``/``beta``: a tile like ``x`` or like one row of it (rank-1 rows are reshaped)."""
    if not isinstance(operand, Tile):
        fail(errors.CompilationTypeError, f"asc2.{what}: '{name}' must be a tile, got {describe(operand)}")
    if operand.dtype != x.dtype:
        fail(errors.CompilationTypeError, f"asc2.{what}: '{name}' is {operand.dtype.name} but x is {x.dtype.name}")
    row = (1,) * (len(x.shape) - 1) + x.shape[-1:]
    if operand.shape == x.shape[-1:]:
        return reshape_tile(gen, operand, row)
    if operand.shape not in (row, x.shape):
        fail(errors.ShapeError, f"asc2.{what}: '{name}' has shape {list(operand.shape)}; expected one row "
                                f"{list(row)} or the shape of x {list(x.shape)}")
    return operand


def _eps(eps, what):
    if isinstance(eps, Value) or not is_number(eps) or isinstance(eps, bool) or eps < 0:
        fail(errors.CompilationTypeError, f"asc2.{what}: eps must be a non-negative compile-time number, got "
                                          f"{describe(eps)}")
    return float_literal(eps, "f64")


@emitter("softmax")
def _softmax(gen, x):
    forbid_in_mask(gen, "asc2.softmax")
    x = expect_tile(x, "asc2.softmax", floats_only=True)
    return x.like(gen.b.op(f"asctile.softmax {x.ssa} : {x.type}"))


@emitter("rms_norm")
def _rms_norm(gen, x, gamma, eps):
    forbid_in_mask(gen, "asc2.rms_norm")
    x = expect_tile(x, "asc2.rms_norm", floats_only=True)
    gamma = _row_operand(gen, x, gamma, "rms_norm", "gamma")
    if isinstance(eps, Scalar) and eps.is_float:
        return _rms_norm_runtime_eps(gen, x, gamma, eps)
    eps = _eps(eps, "rms_norm")
    return x.like(gen.b.op(f"asctile.rms_norm {x.ssa}, {gamma.ssa} eps {eps} : {x.type}, {gamma.type}"))


def _rms_norm_runtime_eps(gen, x, gamma, eps):
    """rms_norm with an eps known only at run time: the same formula from element-wise ops, reductions and
    broadcasts (in float32 for 16-bit tiles, as the fused op computes)."""
    wide = convert_tile(gen, x, core.float32)
    last = len(x.shape) - 1
    mean_sq = binary(gen, "div", reduce(gen, "sum", binary(gen, "mul", wide, wide), [last], True, None),
                     float(x.shape[-1]))
    scale = broadcast_tile(gen, unary(gen, "rsqrt", binary(gen, "add", mean_sq, eps)), x.shape)
    y = binary(gen, "mul", binary(gen, "mul", wide, scale), convert_tile(gen, broadcast_tile(gen, gamma, x.shape),
                                                                            core.float32))
    return convert_tile(gen, y, x.dtype)


class UnpackableTile(Tile):
    """A tile that also unpacks into several values (``out, mean, rstd = asc2.layer_norm(...)``, as upstream returns
    a tuple). The extra values are pure ops: when only the tile is used, canonicalisation drops them."""

    __slots__ = ("parts",)

    def __init__(self, tile, *extra):
        super().__init__(tile.ssa, tile.shape, tile.dtype, tile.location)
        self.parts = (tile, *extra)


@emitter("layer_norm")
def _layer_norm(gen, x, gamma, beta, eps, output_rstd):
    forbid_in_mask(gen, "asc2.layer_norm")
    x = expect_tile(x, "asc2.layer_norm", floats_only=True)
    gamma = _row_operand(gen, x, gamma, "layer_norm", "gamma")
    beta = _row_operand(gen, x, beta, "layer_norm", "beta")
    # The statistics, computed in float32 and given in x's dtype (upstream's kernels store them into tensors of
    # the input's dtype): mean and rstd (or variance) of each row, as [rows] ([1] for a rank-1 x).
    wide, last, n = convert_tile(gen, x, core.float32), len(x.shape) - 1, float(x.shape[-1])
    mean = binary(gen, "div", reduce(gen, "sum", wide, [last], True, None), n)
    centred = binary(gen, "sub", wide, broadcast_tile(gen, mean, x.shape))
    var = binary(gen, "div", reduce(gen, "sum", binary(gen, "mul", centred, centred), [last], True, None), n)
    stats_shape = x.shape[:-1] or (1,)
    if isinstance(eps, Scalar) and eps.is_float:
        rstd = unary(gen, "rsqrt", binary(gen, "add", var, eps))
        y = binary(gen, "mul", binary(gen, "mul", centred, broadcast_tile(gen, rstd, x.shape)),
                   convert_tile(gen, broadcast_tile(gen, gamma, x.shape), core.float32))
        out = convert_tile(gen, binary(gen, "add", y, convert_tile(gen, broadcast_tile(gen, beta, x.shape),
                                                                        core.float32)), x.dtype)
    else:
        literal = _eps(eps, "layer_norm")
        rstd = unary(gen, "rsqrt", binary(gen, "add", var, float(eps)))
        out = x.like(gen.b.op(f"asctile.layer_norm {x.ssa}, {gamma.ssa}, {beta.ssa} eps {literal} : "
                              f"{x.type}, {gamma.type}, {beta.type}"))
    third = rstd if output_rstd else var
    stats = [convert_tile(gen, reshape_tile(gen, t, stats_shape), x.dtype) for t in (mean, third)]
    return UnpackableTile(out, *stats)


# -- reductions


def reduce(gen, kind, x, dims, keep_dims, axis):
    what = f"asc2.reduce_{kind}"
    forbid_in_mask(gen, what)
    x = expect_tile(x, what)
    if x.dtype.kind == "uint" and kind in ("sum", "max", "min"):
        return _reduce_uint8(gen, kind, x, dims, keep_dims, axis)
    _kind_op(f"reduce_{kind}", x.dtype, True, True)
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


# -- shapes


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
    return reshape_tile(gen, x, shape)


@emitter("transpose")
def _transpose(gen, x, axes=()):
    """numpy.transpose: ``asc2.transpose(x)`` / ``x.T`` reverse the dimensions; ``axes`` is a permutation
    (``transpose(x, (0, 2, 1))`` or ``transpose(x, 0, 2, 1)``; negative axes count from the end)."""
    forbid_in_mask(gen, "asc2.transpose")
    x = expect_tile(x, "asc2.transpose")
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
    if x.location in (core.TensorLocation.L1, core.TensorLocation.L0A, core.TensorLocation.L0B):
        return cube.transpose(gen, x)
    shape = tuple(x.shape[p] for p in perm)
    check_ub_alignment(shape, x.dtype, x.location, rows=True)
    attrs = "" if rank == 2 else f" {{permutation = array<i64: {', '.join(map(str, perm))}>}}"
    return new_tile(gen, f"asctile.transpose {x.ssa}{attrs} : {x.type} -> ", shape, x.dtype, x.location)


@emitter("concat")
def _concat(gen, tiles=(), axis=0):
    """numpy.concatenate: ``asc2.concat([a, b], axis)`` or ``asc2.concat(a, b, axis=...)``."""
    tiles = tuple(tiles)
    if len(tiles) == 1 and isinstance(tiles[0], (list, tuple)):
        tiles = tuple(tiles[0])
    elif len(tiles) >= 2 and isinstance(tiles[0], (list, tuple)):
        tiles, axis = tuple(tiles[0]), tiles[1]
    if not tiles:
        fail(errors.CompilationValueError, "asc2.concat needs at least one tile")
    forbid_in_mask(gen, "asc2.concat")
    tiles = [expect_tile(t, "asc2.concat") for t in tiles]
    first = tiles[0]
    rank = len(first.shape)
    if rank == 1:  # each piece starts a new 32-byte block of the result
        for t in tiles[:-1]:
            check_ub_alignment((1, *t.shape), t.dtype, t.location, rows=True)
    axis = normalize_axis(axis, rank, "asc2.concat")
    for t in tiles[1:]:
        if t.dtype != first.dtype:
            fail(errors.CompilationTypeError, f"asc2.concat: tiles of {first.dtype.name} and {t.dtype.name}; "
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


@emitter("inline_vf")
def _inline_vf(gen, source, shape, dtype, inputs):
    fail(errors.UnsupportedError, "asc2.inline_vf: inline Ascend C register code cannot be compiled or simulated "
                                  "here; write the computation with asc2 tile operations (x * y + z, ...)")


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


# -- creation and conversion


def _fill_dtype(value, dt, what):
    if dt is not None:
        if not isinstance(dt, core.dtype):
            fail(errors.CompilationTypeError, f"{what}: dtype must be an asc2 dtype, got {describe(dt)}")
        return dt
    found = scalar_dtype(value)
    if found is None:
        fail(errors.CompilationTypeError, f"{what}: the fill value must be a scalar, got {describe(value)}")
    return found


@emitter("full")
def _full(gen, shape, value, dtype, location):
    shape = static_shape(shape, "asc2.full: shape")
    location = check_supported_location(location, "asc2.full")
    return splat(gen, value, shape, _fill_dtype(value, dtype, "asc2.full"), location)


@emitter("full_like")
def _full_like(gen, x, value, dtype):
    x = expect_tile(x, "asc2.full_like")
    return splat(gen, value, x.shape, _fill_dtype(value, dtype or x.dtype, "asc2.full_like"), x.location)


@emitter("zeros")
def _zeros(gen, shape, dtype, location):
    return _full(gen, shape, 0, dtype, location)


@emitter("zeros_like")
def _zeros_like(gen, x, dtype):
    return _full_like(gen, x, 0, dtype)


@emitter("cast")
def _cast(gen, x, dtype, round_mode):
    if not isinstance(dtype, core.dtype):
        fail(errors.CompilationTypeError, f"asc2.cast: dtype must be an asc2 dtype, got {describe(dtype)}")
    if round_mode is not None:
        core.RoundMode.parse(round_mode)
    if isinstance(x, Tile):
        return convert_tile(gen, x, dtype, round_mode)
    return _number(gen, x, dtype)


@emitter("number")
def _number(gen, value, dtype):
    if not (isinstance(value, Scalar) or is_number(value)):
        fail(errors.CompilationTypeError, f"asc2.number: expected a scalar, got {describe(value)}")
    if dtype is None:
        return as_scalar(gen, value)
    if not isinstance(dtype, core.dtype):
        fail(errors.CompilationTypeError, f"asc2.number: dtype must be an asc2 dtype, got {describe(dtype)}")
    if dtype == core.uint8:
        return uint8_scalar(gen, value)
    if is_number(value):
        value = int(value) if dtype.is_int else bool(value) if dtype == core.bool_ else float(value)
    return as_scalar(gen, plain_scalar(value), dtype.mlir)


# -- memory


@emitter("global_tensor")
def _global_tensor(gen, ptr, shape):
    if not isinstance(ptr, Pointer):
        fail(errors.CompilationTypeError,
             f"asc2.global_tensor: 'ptr' must be a GlobalAddress parameter, got {describe(ptr)}")
    if isinstance(shape, (int, Scalar)) and not isinstance(shape, bool):
        shape = [shape]
    if not isinstance(shape, (list, tuple)) or not shape:
        fail(errors.CompilationTypeError, f"asc2.global_tensor: 'shape' must be a non-empty list, got {describe(shape)}")
    dims, dynamic = [], []
    for d in shape:
        if isinstance(d, Value) or isinstance(d, float):
            d = as_index(gen, d, "global tensor dimension")
            dims.append(d)
            dynamic.append(d.ssa)
        elif isinstance(d, int) and not isinstance(d, bool) and d > 0:
            dims.append(d)
        else:
            fail(errors.ShapeError, f"asc2.global_tensor: dimensions must be positive integers, got {d!r}")
    ty = tensor_type(dims, ptr.dtype)
    ssa = gen.b.op(f"asctile.tensor {ptr.ssa}[{', '.join(dynamic)}] : {ptr.type} -> {ty}")
    return GlobalTensor(ssa, dims, ptr.dtype)


def real_shape_clause(gen, real_shape, shape, location, what):
    """The ``real_shape [...]`` clause of a load/store: the leading part of the tile that is moved (runtime extents
    allowed; loads pad the rest). Empty when there is no real_shape or it is the whole tile."""
    if real_shape is None:
        return ""
    if location not in (core.TensorLocation.UB, *cube.FRACTAL_LOCATIONS):
        fail(errors.UnsupportedError, f"{what}: real_shape is only supported for UB, L1, L0A and L0B tiles")
    if isinstance(real_shape, (int, Scalar)) and not isinstance(real_shape, bool):
        real_shape = [real_shape]
    if not isinstance(real_shape, (list, tuple)):
        fail(errors.CompilationTypeError, f"{what}: real_shape must be a list, got {describe(real_shape)}")
    if len(real_shape) != len(shape):
        fail(errors.CompilationValueError, f"{what}: real_shape has rank {len(real_shape)}, the tile {len(shape)}")
    for r, s in zip(real_shape, shape):
        if isinstance(r, int) and not isinstance(r, bool) and not 0 <= r <= s:
            fail(errors.ShapeError, f"{what}: real_shape {list(real_shape)} exceeds the tile shape {list(shape)} "
                                    "(or is negative)")
    if all(isinstance(r, int) and r == s for r, s in zip(real_shape, shape)):
        return ""
    extents = [as_index(gen, r, f"{what}: real_shape").ssa for r in real_shape]
    return f" real_shape [{', '.join(extents)}]"


def _expect_tensor(x, what, name):
    if not isinstance(x, GlobalTensor):
        fail(errors.CompilationTypeError, f"{what}: '{name}' must be a global tensor, got {describe(x)}")
    return x


@emitter("copy_in")
def _copy_in(gen, src, offsets, shape, location, real_shape, pad_value):
    _expect_tensor(src, "asc2.copy_in", "src")
    rank = len(src.shape)
    if shape is None:  # scalar load
        if real_shape is not None or pad_value is not None:
            fail(errors.CompilationValueError, "asc2.copy_in: real_shape and pad_value need a tile shape")
        offs = offsets_of(gen, offsets, rank, "asc2.copy_in")
        # A uint8 element loads zero-extended into its carrier (the verifier allows a wider signless result).
        ty = scalar_type_of(src.dtype)
        return element_scalar(gen.b.op(f"asctile.get_value {src.ssa}[{', '.join(offs)}] : {src.type} -> {ty}"),
                              src.dtype)
    shape = static_shape(shape, "asc2.copy_in: shape")
    location = check_supported_location(location, "asc2.copy_in", cube.LOAD_LOCATIONS)
    shape, real_shape = cube.fractal_tile(shape, real_shape, location, "asc2.copy_in")
    if len(shape) != rank:
        fail(errors.CompilationValueError,
             f"asc2.copy_in: a rank-{len(shape)} tile shape for a rank-{rank} tensor")
    # A tile may be larger than the tensor (a cube tile of whole fractals, a [rows, 304] UB tile of a [., 300]
    # tensor as upstream kernels load): the load pads what lies past the tensor.
    check_ub_alignment(shape, src.dtype, location, rows=True)
    if location == core.TensorLocation.UB and stacked_slabs(shape):
        return _copy_in_slabs(gen, src, offsets, shape, real_shape, pad_value)
    offs = offsets_of(gen, offsets, rank, "asc2.copy_in")
    real = real_shape_clause(gen, real_shape, shape, location, "asc2.copy_in")
    attrs = ""
    if pad_value is not None:
        if not is_number(pad_value):
            fail(errors.CompilationTypeError, "asc2.copy_in: pad_value must be a compile-time number")
        if src.dtype.is_int and isinstance(pad_value, float) and not pad_value.is_integer():
            fail(errors.CompilationTypeError, f"asc2.copy_in: float pad_value {pad_value!r} for an "
                                              f"{src.dtype.name} tensor")
        value = pad_value if src.dtype.is_float else int(pad_value)
        attrs = f" {{pad_value = {constant_literal(value, src.dtype.mlir)}}}"
    tile = new_tile(gen, f"asctile.load {src.ssa}[{', '.join(offs)}]{real}{attrs} : {src.type} -> ", shape, src.dtype,
                    location)
    return cube.loaded(gen, tile, src, offsets, real_shape)


@emitter("copy_out")
def _copy_out(gen, src, dst, offsets, real_shape):
    _expect_tensor(dst, "asc2.copy_out", "dst")
    if not isinstance(src, Tile):
        if real_shape is not None:
            fail(errors.CompilationValueError, "asc2.copy_out: real_shape is not allowed for a scalar source")
        if not (is_number(src) or isinstance(src, Scalar)):
            fail(errors.CompilationTypeError, f"asc2.copy_out: 'src' must be a tile or a scalar, got {describe(src)}")
        offs = offsets_of(gen, offsets, len(dst.shape), "asc2.copy_out")
        value = _number(gen, src, dst.dtype)
        gen.b.emit(f"asctile.set_value {value.ssa}, {dst.ssa}[{', '.join(offs)}] : {value.type}, {dst.type}")
        return None
    src = cube.storable(gen, src, dst, "asc2.copy_out")
    _check_tile_into(src, dst, "asc2.copy_out")
    if (src.location == core.TensorLocation.UB and math.prod(src.shape) == 1 and len(src.shape) > 1
            and real_shape is None and src.dtype != core.bool_):
        # One element (say x.sum(keep_dims=True)): a scalar store, as upstream does; a [1, 1] tile has no DMA row.
        return _copy_out(gen, reduce(gen, "sum", src, [], False, None), dst, offsets, None)
    check_ub_alignment(src.shape, src.dtype, src.location, rows=True)
    if src.location == core.TensorLocation.UB and stacked_slabs(src.shape):
        return _copy_out_slabs(gen, src, dst, offsets, real_shape)
    offs = offsets_of(gen, offsets, len(dst.shape), "asc2.copy_out")
    real = real_shape_clause(gen, real_shape, src.shape, src.location, "asc2.copy_out")
    gen.b.emit(f"asctile.store {src.ssa}, {dst.ssa}[{', '.join(offs)}]{real} : {src.type}, {dst.type}")


# Tiles of rank 3 and more whose leading dimensions are not all 1 (say [4, 8, 64]): the DMA moves rows x columns
# slabs, so such a tile moves as one [rows, cols] slab per index of its leading dimensions, joined (loads) or split
# (stores) on the vector pipe.
MAX_SLABS = 64


def stacked_slabs(shape):
    """The index tuples of the leading dimensions of ``shape``, or [] when it moves as one rows x columns slab."""
    lead = shape[:-2]
    if all(d == 1 for d in lead):
        return []
    count = math.prod(lead)
    if count > MAX_SLABS:
        fail(errors.UnsupportedError, f"a UB tile of shape {list(shape)} moves as {count} slabs of "
                                      f"{list(shape[-2:])}, more than {MAX_SLABS}; use fewer leading elements "
                                      "(or a loop over them)")
    return list(itertools.product(*(builtins.range(d) for d in lead)))


def _slab_operands(gen, offsets, real_shape, rank, index, what):
    """Offsets and real_shape of one slab: the slab's leading indices added to the offsets, taken off the real
    extents (the lowering clamps each extent to the tile, so a slab past real_shape moves nothing)."""
    if isinstance(offsets, (int, Scalar)) and not isinstance(offsets, bool):
        offsets = [offsets]
    offsets_of(gen, offsets, rank, what)  # checks the kind and count
    lead = len(index)
    offs = [binary(gen, "add", o, i) if i else o for o, i in zip(offsets[:lead], index)] + list(offsets[lead:])
    if real_shape is None:
        return offs, None
    if isinstance(real_shape, (int, Scalar)) and not isinstance(real_shape, bool):
        real_shape = [real_shape]
    if not isinstance(real_shape, (list, tuple)) or len(real_shape) != rank:
        fail(errors.CompilationValueError, f"{what}: real_shape must give {rank} extents, got {describe(real_shape)}")
    real = [builtins.min(builtins.max(r - i, 0), 1) if isinstance(r, int) else binary(gen, "sub", r, i)
            for r, i in zip(real_shape[:lead], index)]
    return offs, real + list(real_shape[lead:])


def _copy_in_slabs(gen, src, offsets, shape, real_shape, pad_value):
    rows, cols, lead = shape[-2], shape[-1], len(shape) - 2
    pieces = []
    for index in stacked_slabs(shape):
        offs, real = _slab_operands(gen, offsets, real_shape, len(shape), index, "asc2.copy_in")
        piece = _copy_in(gen, src, offs, [1] * lead + [rows, cols], core.TensorLocation.UB, real, pad_value)
        pieces.append(reshape_tile(gen, piece, (rows, cols)))
    return reshape_tile(gen, _concat(gen, pieces, 0), shape)


def _copy_out_slabs(gen, src, dst, offsets, real_shape):
    rows, cols, lead = src.shape[-2], src.shape[-1], len(src.shape) - 2
    flat = reshape_tile(gen, src, (math.prod(src.shape[:-1]), cols))
    for k, index in enumerate(stacked_slabs(src.shape)):
        offs, real = _slab_operands(gen, offsets, real_shape, len(src.shape), index, "asc2.copy_out")
        piece = emit_builtin(gen, "copy", [flat, [k * rows, 0], [rows, cols]], {})
        _copy_out(gen, reshape_tile(gen, piece, [1] * lead + [rows, cols]), dst, offs, real)


# The earlier upstream names of the memory API (language/core.py): the same emitters.
emitter("tensor")(lambda gen, ptr, shape: _global_tensor(gen, ptr, shape))


@emitter("load")
def _load(gen, src, shape, offsets, location, real_shape, pad_value):
    if offsets is None and isinstance(src, GlobalTensor):
        offsets = [0] * len(src.shape)
    elif not _is_static_shape(shape) and _is_static_shape(offsets):
        shape, offsets = offsets, shape  # the earliest form: load(t, offsets, shape)
    return _copy_in(gen, src, offsets, shape, location, real_shape, pad_value)


def _is_static_shape(x):
    return isinstance(x, (list, tuple)) and bool(x) and all(
        isinstance(d, int) and not isinstance(d, bool) and d > 0 for d in x)


emitter("store")(lambda gen, src, dst, offsets, real_shape: _copy_out(
    gen, src, dst, [0] * len(dst.shape) if offsets is None and isinstance(dst, GlobalTensor) else offsets,
    real_shape))


def _check_tile_into(src, dst, what):
    if src.location not in (core.TensorLocation.UB, core.TensorLocation.L0C):
        fail(errors.UnsupportedError, f"{what}: cannot store from location {src.location.value} "
                                      "(UB tiles and L0C matmul results go to global memory)")
    if src.dtype != dst.dtype:
        fail(errors.CompilationTypeError,
             f"{what}: {src.dtype.name} tile into a {dst.dtype.name} tensor (convert with .to())")
    if len(src.shape) != len(dst.shape):
        fail(errors.CompilationValueError,
             f"{what}: a rank-{len(src.shape)} tile into a rank-{len(dst.shape)} tensor")


def atomic(gen, kind, src, dst, offsets):
    what = f"asc2.atomic_{kind}"
    src = expect_tile(src, what)
    _expect_tensor(dst, what, "dst")
    _check_tile_into(src, dst, what)
    offs = offsets_of(gen, offsets, len(dst.shape), what)
    gen.b.emit(f"asctile.atomic_rmw {kind}, {src.ssa}, {dst.ssa}[{', '.join(offs)}] : {src.type}, {dst.type}")


for _kind in ("add", "max", "min"):
    emitter(f"atomic_{_kind}")(lambda gen, src, dst, offsets, _k=_kind: atomic(gen, _k, src, dst, offsets))


# ---------------------------------------------------------------------------
# Methods and attributes of runtime values


class BoundMethod:
    def __init__(self, value, name):
        self.value = value
        self.name = name


# tile method -> builtin it forwards to (receiver first)
TILE_METHODS = {
    "sum": "reduce_sum", "max": "reduce_max", "min": "reduce_min", "prod": "reduce_prod",
    **{name: name for name in ("reshape", "ravel", "broadcast_to", "expand_dims", "squeeze", "transpose", "relu",
                               *UNARY_OPS)},
    "flatten": "ravel",
}


def get_attribute(gen, value, attr):
    if isinstance(value, Tile):
        if attr == "shape":
            return tuple(value.shape)
        if attr == "dtype":
            return value.dtype
        if attr == "location":
            return value.location
        if attr == "ndim":
            return len(value.shape)
        if attr in ("to", "astype") or attr in TILE_METHODS:
            return BoundMethod(value, attr)
        if attr == "T":
            return emit_builtin(gen, "transpose", [value], {})
    elif isinstance(value, GlobalTensor):
        if attr == "shape":
            return list(value.shape)
        if attr == "dtype":
            return value.dtype
    elif isinstance(value, Pointer):
        if attr == "dtype":
            return value.dtype
    elif isinstance(value, Scalar) and attr == "dtype":
        return scalar_dtype(value)
    fail(errors.CompilationTypeError, f"{describe(value)} has no attribute '{attr}'")


def call_method(gen, method, args, kwargs):
    value, name = method.value, method.name
    if name in ("to", "astype"):
        if len(args) != 1 or kwargs:
            fail(errors.CompilationTypeError, f".{name}() takes one argument (a dtype or a TensorLocation)")
        target = args[0]
        if isinstance(target, core.dtype):
            return convert_tile(gen, value, target)
        return cube.move(gen, value, None, None, core.TensorLocation.parse(target), f".{name}()")
    return emit_builtin(gen, TILE_METHODS[name], [value, *args], kwargs)


# Python builtins applied to runtime values inside a kernel.
def python_builtin(gen, fn, args, kwargs):
    if fn in (builtins.min, builtins.max) and len(args) >= 2 and not kwargs:
        name = "minimum" if fn is builtins.min else "maximum"
        result = args[0]
        for a in args[1:]:
            result = binary(gen, name, result, a)
        return result
    if fn is builtins.abs and len(args) == 1:
        return unary(gen, "abs", args[0])
    if fn is builtins.int and len(args) == 1 and isinstance(args[0], Scalar):
        return cast_scalar(gen, args[0], INDEX)
    if fn is builtins.float and len(args) == 1 and isinstance(args[0], Scalar):
        return cast_scalar(gen, args[0], "f32") if not args[0].is_float else args[0]
    if fn is builtins.bool and len(args) == 1 and isinstance(args[0], Scalar):
        return to_condition(gen, args[0])
    if fn is builtins.len and len(args) == 1 and isinstance(args[0], Tile):
        return args[0].shape[0]
    if fn in (builtins.print, builtins.isinstance, builtins.type, builtins.len, builtins.tuple, builtins.list):
        return fn(*args, **kwargs)
    fail(errors.CompilationTypeError, f"{getattr(fn, '__name__', fn)}() cannot take runtime values in a kernel")


# The cube unit's builtins (matmul, zeros_acc, copies between locations) register themselves.
from . import cube  # noqa: E402
