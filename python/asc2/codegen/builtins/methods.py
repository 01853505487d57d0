"""Attributes and methods of runtime values (``x.shape``, ``x.sum()``, ``x.to(...)``), and Python's builtins
(min, max, abs, int, ...) applied to them inside a kernel."""

import ast
import builtins
import operator

from ... import errors
from ...language import core
from ..ir import INDEX, GlobalTensor, Pointer, Scalar, Tile
from . import cube
from .checks import describe, fail
from .elementwise import CMP_PREDICATES, UNARY_OPS, binary_op, compare_op, unary_op
from .registry import emit_builtin
from .scalars import cast_scalar, scalar_dtype, to_condition
from .tiles import convert_tile


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


class TileShape(tuple):
    """A tile's shape: a tuple of ints; ``is_static()`` as upstream's shapes have it (tiles: always)."""

    def is_static(self):
        return True

    def is_dynamic_dim(self, dim):
        if not -len(self) <= dim < len(self):
            raise IndexError(f"dimension {dim} is out of range for a rank-{len(self)} tile")
        return False


class TensorShape(list):
    """A global tensor's shape: ints and run-time Scalars; ``is_static()`` when every extent is a constant."""

    def is_static(self):
        return all(isinstance(d, int) for d in self)

    def is_dynamic_dim(self, dim):
        """Whether extent ``dim`` (negative counts from the end) is known only at run time."""
        if not -len(self) <= dim < len(self):
            raise IndexError(f"dimension {dim} is out of range for a rank-{len(self)} tensor")
        return not isinstance(self[dim], int)


def get_attribute(gen, value, attr):
    if isinstance(value, Tile):
        if attr == "shape":
            return TileShape(value.shape)
        if attr == "rank":
            return len(value.shape)
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
            return TensorShape(value.shape)
        if attr in ("rank", "ndim"):
            return len(value.shape)
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


# operator-module functions on runtime values: the Python operator they name (upstream kernels write
# functools.reduce(operator.add, tiles) and pass operator.matmul around).
_OPERATOR_BINOPS = {operator.add: ast.Add, operator.sub: ast.Sub, operator.mul: ast.Mult, operator.truediv: ast.Div,
                    operator.floordiv: ast.FloorDiv, operator.mod: ast.Mod, operator.pow: ast.Pow,
                    operator.matmul: ast.MatMult, operator.and_: ast.BitAnd, operator.or_: ast.BitOr,
                    operator.xor: ast.BitXor, operator.lshift: ast.LShift, operator.rshift: ast.RShift}
_OPERATOR_UNARY = {operator.neg: "negative", operator.abs: "abs", operator.invert: "bitwise_not"}
_OPERATOR_COMPARE = {entry[3]: name for name, entry in CMP_PREDICATES.items()}  # operator.lt -> "Lt"


# Python builtins applied to runtime values inside a kernel.
def python_builtin(gen, fn, args, kwargs):
    if fn in _OPERATOR_BINOPS and len(args) == 2 and not kwargs:
        return gen.binop(_OPERATOR_BINOPS[fn](), *args)
    if fn in _OPERATOR_COMPARE and len(args) == 2 and not kwargs:
        return compare_op(gen, _OPERATOR_COMPARE[fn], *args)
    if fn in _OPERATOR_UNARY and len(args) == 1 and not kwargs:
        return emit_builtin(gen, _OPERATOR_UNARY[fn], args, {}) if fn is operator.invert else \
            unary_op(gen, _OPERATOR_UNARY[fn], args[0])
    if fn is operator.pos and len(args) == 1 and not kwargs:
        return args[0]
    if fn in (builtins.min, builtins.max) and len(args) >= 2 and not kwargs:
        name = "minimum" if fn is builtins.min else "maximum"
        result = args[0]
        for a in args[1:]:
            result = binary_op(gen, name, result, a)
        return result
    if fn is builtins.abs and len(args) == 1:
        return unary_op(gen, "abs", args[0])
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
