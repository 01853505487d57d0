"""Element-wise arithmetic, comparisons and logic on tiles and scalars, and the Python operators that map to them.

Adding an element-wise op is one line in ``BINARY_OPS``/``UNARY_OPS`` (plus a stub in ``language/core.py``).
"""

import builtins
import math
import operator

from ... import errors
from ...language import core
from ..ir import I1, Scalar, Tile, is_float_type
from . import cube
from .checks import BEYOND_UPSTREAM, check_dtype, describe, expect_operands, fail, is_number, is_value
from .masks import apply_mask
from .registry import emitter
from .scalars import (INT_WIDTH, as_index, as_scalar, cast_scalar, common_scalar_type, is_uint8_scalar, scalar_type,
                      to_condition, uint8_scalar_operands, wrap_uint8)
from .tiles import compare_tiles, convert_tile, kind_op, operand_dtype, tile_operands, widened_operands, where

_UINT8_WRAPPING = ("add", "sub", "mul", "left_shift")  # uint8 scalar results that wrap modulo 256
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

# The tile dtypes each element-wise op takes: upstream PyAsc2's sets, so a kernel written here also compiles
# there (docs/language.md, "Dtypes"). The builtins and the Python operators check them; what the frontend itself
# builds from these ops (norms, remainders, uint8 through int16) does not go through the check.
INTS = (core.int8, core.int16, core.int32, core.int64)
HALF_AND_SINGLE = (core.float16, core.float32)
ARITHMETIC_DTYPES = (core.int16, core.int32, core.int64, core.float16, core.bfloat16, core.float32)
COMPARE_DTYPES = (core.int8, core.int16, core.int32, core.float16, core.bfloat16, core.float32)
TILE_DTYPES = {
    **dict.fromkeys(("add", "sub", "mul", "maximum", "minimum", "negative"), ARITHMETIC_DTYPES),
    "div": (core.int16, core.int32, core.int64, core.float16, core.float32),
    **dict.fromkeys(("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not"), INTS),
    **dict.fromkeys(("left_shift", "right_shift"), (core.int16, core.int32, core.int64)),
    **dict.fromkeys(CMP_BUILTINS.values(), COMPARE_DTYPES),
    **dict.fromkeys((*UNARY_OPS, "relu"), HALF_AND_SINGLE),
    "abs": INTS + HALF_AND_SINGLE,
}
_CMP_NAMES = {pred: name for name, pred in CMP_BUILTINS.items()}


def check_tile_dtypes(name, *operands):
    """The tile operands of the element-wise op ``name`` have dtypes its set (TILE_DTYPES) takes."""
    dtypes = TILE_DTYPES.get(name)
    if dtypes is not None:
        for x in operands:
            check_dtype(f"asc2.{_CMP_NAMES.get(name, name)}", x, dtypes, BEYOND_UPSTREAM)


def binary_op(gen, name, a, b):
    """``asc2.<name>(a, b)`` and its Python operator: the dtype check, then ``binary``."""
    check_tile_dtypes(name, a, b)
    return binary(gen, name, a, b)


def compare_op(gen, pred, a, b):
    check_tile_dtypes(pred, a, b)
    return compare(gen, pred, a, b)


def unary_op(gen, name, x):
    check_tile_dtypes(name, x)
    return unary(gen, name, x)


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
        if name == "mod" and ta.dtype.kind in ("float", "int"):
            return _python_mod(gen, ta, tb)
        op = kind_op(name, ta.dtype, float_op, int_op, bool_op)
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
        op = int_op if ty != I1 else bool_op
    if op is None:
        fail(errors.CompilationTypeError, f"'{name}' is not supported on {ty} scalars")
    if name in ("floordiv", "mod") and not is_float_type(ty):
        return _python_int_division(gen, name, sa, sb, ty, b if is_number(b) else None)
    if name == "mod":
        return _python_mod(gen, sa, sb)
    if op == _FLOOR_DIV:
        quotient = gen.b.op(f"arith.divf {sa.ssa}, {sb.ssa} : {ty}")
        return Scalar(gen.b.op(f"math.floor {quotient} : {ty}"), ty)
    return Scalar(gen.b.op(f"{op} {sa.ssa}, {sb.ssa} : {ty}"), ty)


def _python_int_division(gen, name, a, b, ty, known_b):
    """Python's ``a // b`` and ``a % b`` on integer scalars: the quotient rounds toward -inf and the remainder
    takes the divisor's sign. The scalar unit (C's ``/`` and ``%``) truncates; the truncated quotient is one too
    big exactly when the remainder is non-zero and its sign differs from the divisor's."""
    q = gen.b.op(f"arith.divsi {a.ssa}, {b.ssa} : {ty}")
    r = gen.b.op(f"arith.remsi {a.ssa}, {b.ssa} : {ty}")
    zero = gen.b.constant(0, ty)
    r_neg = gen.b.op(f"arith.cmpi slt, {r}, {zero} : {ty}")
    if known_b is not None and known_b > 0:
        fix = r_neg  # the usual case, a positive compile-time divisor: fix negative remainders only
    else:
        r_pos = gen.b.op(f"arith.cmpi sgt, {r}, {zero} : {ty}")
        b_neg = gen.b.op(f"arith.cmpi slt, {b.ssa}, {zero} : {ty}")
        fix = gen.b.op(f"arith.select {b_neg}, {r_pos}, {r_neg} : {I1}")
    if name == "floordiv":
        one = gen.b.constant(1, ty)
        adjusted = gen.b.op(f"arith.subi {q}, {one} : {ty}")
        return Scalar(gen.b.op(f"arith.select {fix}, {adjusted}, {q} : {ty}"), ty)
    adjusted = gen.b.op(f"arith.addi {r}, {b.ssa} : {ty}")
    return Scalar(gen.b.op(f"arith.select {fix}, {adjusted}, {r} : {ty}"), ty)


def _python_mod(gen, a, b):
    """``a % b`` with Python's sign (that of b) on tiles and float scalars: a - (a // b) * b, the definition
    torch.remainder documents; floats round like that formula (one division, one floor, one product, one
    difference; numpy's fmod-based remainder can differ by an ulp of a), b = 0 gives NaN for floats. 16-bit
    float tiles compute in float32 and round once: in float16 the quotient's rounding moves the floor by one
    (an error of |b|) for a few percent of operands."""
    if isinstance(a, Tile) and a.dtype in (core.float16, core.bfloat16):
        wide = _python_mod(gen, convert_tile(gen, a, core.float32), convert_tile(gen, b, core.float32))
        return convert_tile(gen, wide, a.dtype)
    return binary(gen, "sub", a, binary(gen, "mul", binary(gen, "floordiv", a, b), b))


def unary(gen, name, x):
    if name == "relu":
        if not is_value(x):
            return builtins.max(x, 0)
        zero = 0 if (isinstance(x, Tile) and not x.dtype.is_float()) or scalar_type(x) in INT_WIDTH else 0.0
        return binary(gen, "maximum", x, zero)
    if name == "negative":
        if not is_value(x):
            return -x
        if isinstance(x, Tile) and x.dtype.is_float():
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
        fail(errors.UnsupportedDtypeError, f"asc2.{name} does not support the {x.dtype.name} dtype (only float tiles)")
    if isinstance(x, Tile):
        op = kind_op(name, x.dtype, float_op, int_op)
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


def _binary_builtin(gen, name, a, b):
    expect_operands(f"asc2.{name}", a, b)
    return binary_op(gen, name, a, b)


def _compare_builtin(gen, name, a, b):
    expect_operands(f"asc2.{name}", a, b)
    return compare_op(gen, CMP_BUILTINS[name], a, b)


def _unary_builtin(gen, name, x):
    expect_operands(f"asc2.{name}", x, at_least_one_value=False)
    return unary_op(gen, name, x)


# The builtins check their operands as upstream PyAsc2 does (the Python operators reach binary/compare/unary
# directly: `2 + 3` in a kernel stays Python arithmetic). ceildiv has its own emitter below: its runtime operands
# are indices.
for _name in BINARY_OPS:
    if hasattr(core, _name) and _name != "ceildiv":
        emitter(_name)(lambda gen, a, b, _n=_name: _binary_builtin(gen, _n, a, b))
for _name in CMP_BUILTINS:
    emitter(_name)(lambda gen, a, b, _n=_name: _compare_builtin(gen, _n, a, b))
for _name in (*UNARY_OPS, "relu", "negative", "bitwise_not"):
    emitter(_name)(lambda gen, x, _n=_name: _unary_builtin(gen, _n, x))


@emitter("ceildiv")
def _ceildiv(gen, a, b):
    if is_value(a) or is_value(b):
        return binary(gen, "ceildiv", as_index(gen, a, "ceildiv operand"), as_index(gen, b, "ceildiv operand"))
    return core.ceildiv(a, b)


WHERE_DTYPES = (core.int16, core.int32, core.float16, core.bfloat16, core.float32)


@emitter("where")
def _where(gen, mask, a, b):
    for name, x in (("src0, the value where mask is true,", a), ("src1, the value where mask is false,", b)):
        if not (isinstance(x, (Tile, Scalar)) or is_number(x)):
            fail(errors.CompilationTypeError, f"asc2.where: {name} must be a tile or a scalar, got {describe(x)}")
    if isinstance(mask, Tile) and mask.dtype == core.bool_:
        for name, x in (("src0", a), ("src1", b)):
            check_dtype(f"asc2.where ({name})", x, WHERE_DTYPES, BEYOND_UPSTREAM)
    return where(gen, mask, a, b)
