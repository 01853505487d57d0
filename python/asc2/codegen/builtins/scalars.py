"""Runtime scalars (types, conversions, the uint8 carrier) and dtype promotion.

Integers are ``index`` scalars, floats their MLIR type, bools ``i1``; arith has no unsigned integers, so a uint8
scalar is carried in a wider signless integer (``UINT8_CARRIER``).
"""

from ... import errors
from ...language import core
from ..ir import INDEX, I1, Scalar, Tile, is_float_type, scalar_type_name, scalar_type_of_python
from .checks import describe, fail, is_number

_SCALAR_DTYPES = {"f32": core.float32, "f16": core.float16, "bf16": core.bfloat16, "i64": core.int64,
                  "i32": core.int32, "i16": core.int16, "i8": core.int8, "ui8": core.uint8, "i1": core.bool_,
                  INDEX: core.int32}
INT_WIDTH = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, INDEX: 64}
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
    if src in INT_WIDTH and ty in INT_WIDTH:
        if INDEX in (src, ty):
            return Scalar(b.op(f"arith.index_cast {s.ssa} : {src} to {ty}"), ty)
        op = "arith.extsi" if INT_WIDTH[ty] > INT_WIDTH[src] else "arith.trunci"
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
        fail(errors.CompilationTypeError, f"{what} must be an integer, got a {scalar_type_name(x)} scalar")
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
# dtype promotion


def promote(a, b):
    """The dtype ``a ⊕ b`` is computed in (bool < int < float; the wider type of a kind)."""
    if a == b:
        return a
    if a == core.bool_ or b == core.bool_:
        return b if a == core.bool_ else a
    if a.is_float() != b.is_float():
        return a if a.is_float() else b
    if a.is_float():
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
    if sdt.is_float() and not dt.is_float():
        return core.float32
    if isinstance(scalar, Scalar) and {dt, sdt} == {core.int8, core.uint8}:
        return core.int16  # neither holds the other's values
    return dt


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
