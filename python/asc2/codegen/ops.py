"""What each asc2 builtin and operator emits.

Adding an element-wise op is one line in ``BINARY_OPS``/``UNARY_OPS`` (plus a
stub in ``language/core.py``); anything else is a function registered with
``@emitter("name")`` whose parameters are bound like the stub's.  Emitters
raise plain ``TypeError``/``ValueError``/``RuntimeError`` through ``fail``; the
visitor turns them into ``CompilationError``s at the calling line.
"""

import builtins
import inspect
import math
import operator

from .. import errors
from ..language import core
from .ir import (INDEX, I1, GlobalTensor, Pointer, Scalar, Tile, Value, is_float_type, scalar_type_of_python,
                 tensor_type, tile_type, constant_literal)

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


def scalar_type(x):
    return x.type if isinstance(x, Scalar) else scalar_type_of_python(x)


def cast_scalar(gen, s, ty):
    """Convert a runtime scalar to scalar type ``ty``."""
    b = gen.b
    if s.type == ty:
        return s
    src = s.type
    if src == I1 and ty != I1:
        s = Scalar(b.op(f"arith.extui {s.ssa} : i1 to i64"), "i64")
        src = "i64"
    if src == INDEX and is_float_type(ty):
        wide = b.op(f"arith.index_cast {s.ssa} : index to i64")
        return Scalar(b.op(f"arith.sitofp {wide} : i64 to {ty}"), ty)
    if is_float_type(src) and ty == INDEX:
        wide = b.op(f"arith.fptosi {s.ssa} : {src} to i64")
        return Scalar(b.op(f"arith.index_cast {wide} : i64 to index"), INDEX)
    if is_float_type(src) and is_float_type(ty):
        width = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
        op = "arith.extf" if width[ty] > width[src] else "arith.truncf"
        return Scalar(b.op(f"{op} {s.ssa} : {src} to {ty}"), ty)
    if src in (INDEX, "i64") and ty in ("index", "i64", "i32", "i16", "i8"):
        return Scalar(b.op(f"arith.index_cast {s.ssa} : {src} to {ty}"), ty)
    if ty == I1:
        return to_condition(gen, s)
    fail(errors.CompilationTypeError, f"cannot convert a {s.type} scalar to {ty}")


def as_scalar(gen, x, ty=None):
    """A runtime Scalar for a Python number or Scalar, converted to ``ty`` if given."""
    if isinstance(x, Scalar):
        return cast_scalar(gen, x, ty) if ty else x
    if is_number(x):
        ty = ty or scalar_type_of_python(x)
        if ty == INDEX and isinstance(x, float):
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
    fail(errors.CompilationTypeError, f"a {describe(x)} cannot be used as a condition")


def common_scalar_type(a, b):
    ta, tb = scalar_type(a), scalar_type(b)
    if ta is None or tb is None:
        return None
    runtime = [x.type for x in (a, b) if isinstance(x, Scalar)]
    if is_float_type(ta) or is_float_type(tb):
        floats = [t for t in runtime if is_float_type(t)]
        return floats[0] if floats else "f32"
    if ta == I1 and tb == I1:
        return I1
    return INDEX


# ---------------------------------------------------------------------------
# Tiles


def as_tile(gen, x, like):
    """``x`` as a tile of ``like``'s type: tiles are checked, scalars are splatted."""
    if isinstance(x, Tile):
        if x.dtype != like.dtype:
            fail(errors.CompilationTypeError,
                 f"mismatched tile dtypes {like.dtype.name} and {x.dtype.name} "
                 "(automatic promotion is not supported yet; convert one side with .to())")
        if x.shape != like.shape:
            fail(errors.ShapeError, f"mismatched tile shapes {list(like.shape)} and {list(x.shape)}")
        if x.location != like.location:
            fail(errors.ShapeError, f"tiles in different locations: {x.location.value} and {like.location.value}")
        return x
    elt = like.dtype.mlir
    if is_number(x):
        if like.dtype.is_int and isinstance(x, float):
            fail(errors.CompilationTypeError,
                 f"cannot combine float {x!r} with an {like.dtype.name} tile (promotion is not supported yet)")
        s = as_scalar(gen, x, elt)
    elif isinstance(x, Scalar):
        if like.dtype.is_int and x.is_float:
            fail(errors.CompilationTypeError,
                 f"cannot combine a {x.type} scalar with an {like.dtype.name} tile (promotion is not supported yet)")
        s = cast_scalar(gen, x, elt)
    else:
        fail(errors.CompilationTypeError, f"expected a tile or a scalar, got {describe(x)}")
    return like.like(gen.b.op(f"asctile.splat {s.ssa} : {s.type} -> {like.type}"))


def check_ub_alignment(shape, dt, location):
    if location != core.TensorLocation.UB:
        return
    last = shape[-1] * dt.bits // 8 if dt.bits >= 8 else shape[-1]
    if last % UB_BLOCK_BYTES:
        fail(errors.AlignmentError,
             f"UB tile {list(shape)} of {dt.name}: the last dimension is {last} bytes, which is not "
             f"{UB_BLOCK_BYTES}-byte aligned (use a multiple of {max(1, UB_BLOCK_BYTES * 8 // dt.bits)} elements)")


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


# ---------------------------------------------------------------------------
# Element-wise operations: name -> (float op, integer op, Python fold)

BINARY_OPS = {
    "add": ("arith.addf", "arith.addi", operator.add),
    "sub": ("arith.subf", "arith.subi", operator.sub),
    "mul": ("arith.mulf", "arith.muli", operator.mul),
    "div": ("arith.divf", "arith.divsi", operator.truediv),
    "floordiv": (None, "arith.divsi", operator.floordiv),
    "mod": ("arith.remf", "arith.remsi", operator.mod),
    "maximum": ("arith.maximumf", "arith.maxsi", builtins.max),
    "minimum": ("arith.minimumf", "arith.minsi", builtins.min),
    "ceildiv": (None, "arith.ceildivsi", core.ceildiv),
}

UNARY_OPS = {
    "exp": ("math.exp", None, math.exp),
    "log": ("math.log", None, math.log),
    "sqrt": ("math.sqrt", None, math.sqrt),
    "abs": ("math.absf", "math.absi", builtins.abs),
}

# Python operators -> BINARY_OPS names (the rest are compile-time only).
PY_BINOPS = {
    "Add": "add", "Sub": "sub", "Mult": "mul", "Div": "div", "FloorDiv": "floordiv", "Mod": "mod",
}
PY_FOLD = {
    "Pow": operator.pow, "LShift": operator.lshift, "RShift": operator.rshift, "BitAnd": operator.and_,
    "BitOr": operator.or_, "BitXor": operator.xor, "MatMult": operator.matmul,
}

CMP_PREDICATES = {  # ast name -> (cmpi, cmpf, Python)
    "Lt": ("slt", "olt", operator.lt), "LtE": ("sle", "ole", operator.le),
    "Gt": ("sgt", "ogt", operator.gt), "GtE": ("sge", "oge", operator.ge),
    "Eq": ("eq", "oeq", operator.eq), "NotEq": ("ne", "une", operator.ne),
}


def binary(gen, name, a, b):
    float_op, int_op, fold = BINARY_OPS[name]
    if not is_value(a) and not is_value(b):
        return fold(a, b)
    if isinstance(a, Tile) or isinstance(b, Tile):
        like = a if isinstance(a, Tile) else b
        ta, tb = as_tile(gen, a, like), as_tile(gen, b, like)
        op = float_op if like.dtype.is_float else int_op
        if op is None:
            fail(errors.CompilationTypeError, f"'{name}' is not supported on {like.dtype.name} tiles")
        return like.like(gen.b.op(f"{op} {ta.ssa}, {tb.ssa} : {like.type}"))
    ty = common_scalar_type(a, b)
    if ty is None or ty == I1:
        fail(errors.CompilationTypeError, f"unsupported operands for '{name}': {describe(a)} and {describe(b)}")
    sa, sb = as_scalar(gen, a, ty), as_scalar(gen, b, ty)
    op = float_op if is_float_type(ty) else int_op
    if op is None:
        fail(errors.CompilationTypeError, f"'{name}' is not supported on {ty} scalars")
    return Scalar(gen.b.op(f"{op} {sa.ssa}, {sb.ssa} : {ty}"), ty)


def unary(gen, name, x):
    if name == "relu":
        return binary(gen, "maximum", x, 0.0 if not (isinstance(x, Tile) and x.dtype.is_int) else 0)
    if name == "negative":
        if not is_value(x):
            return -x
        if isinstance(x, Tile) and x.dtype.is_float:
            # x * -1 is exact and maps onto the vector unit's Muls.
            return binary(gen, "mul", x, -1.0)
        if isinstance(x, Scalar) and x.is_float:
            return rebuild(x, gen.b.op(f"arith.negf {x.ssa} : {x.type}"))
        return binary(gen, "sub", 0, x)
    float_op, int_op, fold = UNARY_OPS[name]
    if not is_value(x):
        return fold(x)
    if isinstance(x, Tile):
        is_float = x.dtype.is_float
    elif isinstance(x, Scalar):
        is_float = x.is_float
        if not is_float and float_op and not int_op:
            x = cast_scalar(gen, x, "f32")
            is_float = True
    else:
        fail(errors.CompilationTypeError, f"asc2.{name} expects a tile or a scalar, got {describe(x)}")
    op = float_op if is_float else int_op
    if op is None:
        fail(errors.CompilationTypeError, f"asc2.{name} is not supported on {x.type}")
    return rebuild(x, gen.b.op(f"{op} {x.ssa} : {x.type}"))


def rebuild(like, ssa):
    if isinstance(like, Tile):
        return like.like(ssa)
    return Scalar(ssa, like.type)


def compare(gen, pred, a, b):
    cmpi, cmpf, fold = CMP_PREDICATES[pred]
    if not is_value(a) and not is_value(b):
        return fold(a, b)
    if isinstance(a, Tile) or isinstance(b, Tile):
        fail(errors.UnsupportedError, "tile comparisons (asc2.equal, asc2.less, ...) are not implemented yet")
    ty = common_scalar_type(a, b)
    if ty is None:
        fail(errors.CompilationTypeError, f"cannot compare {describe(a)} and {describe(b)}")
    sa, sb = as_scalar(gen, a, ty), as_scalar(gen, b, ty)
    if is_float_type(ty):
        return Scalar(gen.b.op(f"arith.cmpf {cmpf}, {sa.ssa}, {sb.ssa} : {ty}"), I1)
    return Scalar(gen.b.op(f"arith.cmpi {cmpi}, {sa.ssa}, {sb.ssa} : {ty}"), I1)


def logical(gen, op, a, b):
    """Runtime ``and``/``or`` of two truth values."""
    ca, cb = to_condition(gen, a) if is_value(a) else as_scalar(gen, bool(a), I1), \
        to_condition(gen, b) if is_value(b) else as_scalar(gen, bool(b), I1)
    name = "arith.andi" if op == "and" else "arith.ori"
    return Scalar(gen.b.op(f"{name} {ca.ssa}, {cb.ssa} : i1"), I1)


def logical_not(gen, x):
    c = to_condition(gen, x)
    true = gen.b.constant(True, I1)
    return Scalar(gen.b.op(f"arith.xori {c.ssa}, {true} : i1"), I1)


def select(gen, cond, a, b):
    """``a if cond else b`` for a runtime condition."""
    c = to_condition(gen, cond)
    if isinstance(a, Tile) or isinstance(b, Tile):
        like = a if isinstance(a, Tile) else b
        a, b = as_tile(gen, a, like), as_tile(gen, b, like)
    else:
        ty = common_scalar_type(a, b)
        if ty is None:
            fail(errors.CompilationTypeError, f"both branches must be scalars or tiles, got {describe(a)} and "
                                              f"{describe(b)}")
        a, b = as_scalar(gen, a, ty), as_scalar(gen, b, ty)
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
        return as_scalar(gen, x, like.type)
    fail(errors.CompilationTypeError, f"'{name}' ({describe(like)}) cannot change inside a loop or runtime if")


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


for _name in ("add", "sub", "mul", "div", "maximum", "minimum"):
    emitter(_name)(lambda gen, a, b, _n=_name: binary(gen, _n, a, b))
for _name in ("exp", "log", "sqrt", "abs", "relu", "negative"):
    emitter(_name)(lambda gen, x, _n=_name: unary(gen, _n, x))


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


def _check_real_shape(real_shape, shape, location, what):
    if real_shape is None:
        return
    if location != core.TensorLocation.UB:
        fail(errors.UnsupportedError, f"{what}: real_shape is only supported for UB tiles")
    if isinstance(real_shape, (int, Scalar)) and not isinstance(real_shape, bool):
        real_shape = [real_shape]
    if len(real_shape) != len(shape):
        fail(errors.CompilationValueError, f"{what}: real_shape has rank {len(real_shape)}, the tile {len(shape)}")
    for r, s in zip(real_shape, shape):
        if isinstance(r, int) and r > s:
            fail(errors.ShapeError, f"{what}: real_shape {list(real_shape)} exceeds the tile shape {list(shape)}")
        if isinstance(r, int) and r != s:
            # The tail of a tensor needs no real_shape (loads pad, stores clamp at the
            # tensor's extent); a partial tile inside the tensor has no IR form yet.
            fail(errors.UnsupportedError,
                 f"{what}: a constant real_shape smaller than the tile is not supported yet")


@emitter("copy_in")
def _copy_in(gen, src, offsets, shape, location, real_shape, pad_value):
    if not isinstance(src, GlobalTensor):
        fail(errors.CompilationTypeError, f"asc2.copy_in: 'src' must be a global tensor, got {describe(src)}")
    if shape is None:
        fail(errors.UnsupportedError, "asc2.copy_in without a shape (scalar load) is not implemented yet")
    shape = static_shape(shape, "asc2.copy_in: shape")
    location = core.TensorLocation.parse(location)
    rank = len(src.shape)
    if len(shape) != rank:
        fail(errors.CompilationValueError,
             f"asc2.copy_in: a rank-{len(shape)} tile shape for a rank-{rank} tensor")
    for dim, (s, d) in enumerate(zip(shape, src.shape)):
        if isinstance(d, int) and s > d:
            fail(errors.ShapeError, f"asc2.copy_in: tile shape {shape} exceeds the tensor shape in dimension {dim} "
                                    f"({s} > {d})")
    _check_real_shape(real_shape, shape, location, "asc2.copy_in")
    check_ub_alignment(shape, src.dtype, location)
    offs = offsets_of(gen, offsets, rank, "asc2.copy_in")
    attrs = ""
    if pad_value is not None:
        if not is_number(pad_value):
            fail(errors.CompilationTypeError, "asc2.copy_in: pad_value must be a compile-time number")
        if src.dtype.is_int and isinstance(pad_value, float):
            fail(errors.CompilationTypeError, f"asc2.copy_in: float pad_value for an {src.dtype.name} tensor")
        attrs = f" {{pad_value = {constant_literal(pad_value, src.dtype.mlir)}}}"
    ty = tile_type(shape, src.dtype, location)
    ssa = gen.b.op(f"asctile.load {src.ssa}[{', '.join(offs)}]{attrs} : {src.type} -> {ty}")
    return Tile(ssa, shape, src.dtype, location)


@emitter("copy_out")
def _copy_out(gen, src, dst, offsets, real_shape):
    if not isinstance(dst, GlobalTensor):
        fail(errors.CompilationTypeError, f"asc2.copy_out: 'dst' must be a global tensor, got {describe(dst)}")
    if not isinstance(src, Tile):
        if real_shape is not None:
            fail(errors.CompilationValueError, "asc2.copy_out: real_shape is not allowed for a scalar source")
        if is_number(src) or isinstance(src, Scalar):
            fail(errors.UnsupportedError, "asc2.copy_out of a scalar (scalar store) is not implemented yet")
        fail(errors.CompilationTypeError, f"asc2.copy_out: 'src' must be a tile, got {describe(src)}")
    if src.location not in (core.TensorLocation.UB, core.TensorLocation.L0C):
        fail(errors.UnsupportedError, f"asc2.copy_out: cannot store from location {src.location.value} "
                                      "(only UB and L0C tiles go to global memory)")
    if src.dtype != dst.dtype:
        fail(errors.CompilationTypeError,
             f"asc2.copy_out: {src.dtype.name} tile into a {dst.dtype.name} tensor (convert with .to())")
    if len(src.shape) != len(dst.shape):
        fail(errors.CompilationValueError,
             f"asc2.copy_out: a rank-{len(src.shape)} tile into a rank-{len(dst.shape)} tensor")
    _check_real_shape(real_shape, src.shape, src.location, "asc2.copy_out")
    offs = offsets_of(gen, offsets, len(dst.shape), "asc2.copy_out")
    gen.b.emit(f"asctile.store {src.ssa}, {dst.ssa}[{', '.join(offs)}] : {src.type}, {dst.type}")


# ---------------------------------------------------------------------------
# Methods and attributes of runtime values


class BoundMethod:
    def __init__(self, value, name):
        self.value = value
        self.name = name


# tile method -> builtin it forwards to (receiver first)
TILE_METHODS = {
    "sum": "reduce_sum", "max": "reduce_max", "min": "reduce_min", "prod": "reduce_prod",
    "reshape": "reshape", "ravel": "ravel", "broadcast_to": "broadcast_to", "expand_dims": "expand_dims",
    "squeeze": "squeeze", "transpose": "transpose", "exp": "exp", "log": "log", "sqrt": "sqrt", "abs": "abs",
    "relu": "relu",
}


def get_attribute(gen, value, attr):
    if isinstance(value, Tile):
        if attr == "shape":
            return tuple(value.shape)
        if attr == "dtype":
            return value.dtype
        if attr == "location":
            return value.location
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
        return {"index": core.int32, "f32": core.float32, "f16": core.float16, "i1": core.bool_}.get(value.type)
    fail(errors.CompilationTypeError, f"{describe(value)} has no attribute '{attr}'")


def call_method(gen, method, args, kwargs):
    value, name = method.value, method.name
    if name in ("to", "astype"):
        if len(args) != 1 or kwargs:
            fail(errors.CompilationTypeError, f".{name}() takes one argument (a dtype or a TensorLocation)")
        target = args[0]
        if isinstance(target, core.dtype):
            if target == value.dtype:
                return value
            fail(errors.UnsupportedError, f"casting tiles ({value.dtype.name} -> {target.name}) is not implemented yet")
        location = core.TensorLocation.parse(target)
        if location == value.location:
            return value
        fail(errors.UnsupportedError,
             f"moving tiles between locations ({value.location.value} -> {location.value}) is not implemented yet")
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
