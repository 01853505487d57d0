"""Argument checks every builtin family shares, and ``fail``, the one way an emitter reports an error.

Emitters raise plain ``TypeError``/``ValueError``/``IndexError``/``RuntimeError`` through ``fail``, tagged with the
asc2 error class; the visitor turns them into ``CompilationError``s at the calling line.
"""

from ... import errors
from ...language import core
from ..ir import GlobalTensor, Scalar, Tile, Value


def fail(kind, message):
    """Raise the builtin exception upstream PyAsc2 uses, tagged with the asc2 error class."""
    errors.raise_tagged(kind, message)


def is_value(x):
    return isinstance(x, Value)


def is_number(x):
    return isinstance(x, (bool, int, float)) and not isinstance(x, Value)


def describe(x):
    if isinstance(x, Value):
        return repr(x)  # in the user's terms (Value.__repr__)
    return f"{type(x).__name__} {x!r}"


def as_list(x):
    """A shape, offsets or extents of rank 1 may be given bare (an int or a scalar): as a one-element list. Anything
    else is returned as it is, for the caller's checks."""
    if isinstance(x, (int, Scalar)) and not isinstance(x, bool):
        return [x]
    return x


def static_shape(shape, what="shape"):
    shape = as_list(shape)
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
        fail(errors.CompilationTypeError, f"{what}: the input must be a tile, got {describe(x)}")
    if floats_only and not x.dtype.is_float():
        fail(errors.UnsupportedDtypeError, f"{what} does not support the {x.dtype.name} dtype (only float tiles)")
    return x


# Tile dtypes upstream PyAsc2's dtype sets do not speak of: uint8 and bool tiles keep this frontend's own rules
# (docs/language.md, "uint8"; comparisons give bool tiles, which bitwise ops and where combine) in the operations
# that pass them as ``extra``.
BEYOND_UPSTREAM = (core.uint8, core.bool_)


def check_dtype(what, x, dtypes, extra=(), hint=None):
    """``x`` (a tile or a global tensor; anything else passes) has one of ``dtypes``, the dtypes upstream PyAsc2
    takes for the operation, or one of ``extra``: another is an UnsupportedDtypeError naming the dtypes and the
    cast that makes the call portable (or ``hint``)."""
    dt = x.dtype if isinstance(x, (Tile, GlobalTensor)) else None
    if dt is None or dt in dtypes or dt in extra:
        return
    names = ", ".join(d.name for d in dtypes)
    fail(errors.UnsupportedDtypeError, f"{what} does not support the {dt.name} dtype (supported dtypes: {names})"
                                       + (hint if hint is not None else _cast_hint(dt, dtypes)))


def _cast_hint(dt, dtypes):
    """The cast to suggest for a ``dt`` operand: float32 for a float, else the nearest supported integer dtype
    (wider first), else float32 for an integer operand of a float-only operation."""
    kind = "int" if dt.kind == "uint" else dt.kind
    same_kind = [d for d in dtypes if d.kind == kind]
    wider = sorted((d for d in same_kind if d.bits > dt.bits), key=lambda d: d.bits)
    narrower = sorted((d for d in same_kind if d.bits < dt.bits), key=lambda d: -d.bits)
    if kind == "float" and core.float32 in dtypes:
        target, caveat = core.float32, ""
    elif wider:
        target, caveat = wider[0], ""
    elif narrower:
        target, caveat = narrower[0], " (when the values fit)"
    elif kind == "int" and core.float32 in dtypes:
        target, caveat = core.float32, ""
    else:
        return ""  # a float for an integer-only operation: no cast says what the kernel means
    return f"; cast to {target.name} first{caveat}: asc2.cast(x, asc2.{target.name})"


def check_supported_location(location, what, allowed=(core.TensorLocation.UB,)):
    location = core.TensorLocation.parse(location)
    if location not in allowed:
        if len(allowed) == 1:
            fail(errors.UnsupportedError, f"{what}: {location.value} tiles are not supported here (the only "
                                          f"supported location is {allowed[0].value})")
        fail(errors.UnsupportedError, f"{what}: {location.value} tiles are not supported here (supported: "
                                      + ", ".join(a.value for a in allowed) + ")")
    return location


def expect_operands(what, *xs, at_least_one_value=True):
    """Operands of an element-wise builtin: each a tile or a scalar (a runtime scalar or a Python number), and,
    with ``at_least_one_value``, not all of them Python numbers (those are computed with Python's operators)."""
    for x in xs:
        if not (isinstance(x, Value) or is_number(x)):
            fail(errors.CompilationTypeError, f"{what}: operands must be tiles or scalars, got {describe(x)}")
    if at_least_one_value and not any(isinstance(x, Value) for x in xs):
        fail(errors.CompilationTypeError, f"{what}: at least one operand must be a tile or a runtime scalar, got "
                                          + " and ".join(describe(x) for x in xs)
                                          + " (for constants, use Python's operators)")
