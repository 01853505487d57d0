"""``with asc2.mask(count=n | bits=(hi, lo), other=v):``: the lanes the element-wise ops of the block compute.

The visitor evaluates the mask where the ``with`` starts (``make_mask``) and keeps it on the generator; every
element-wise result passes through ``apply_mask``, which wraps it in ``asctile.mask``.
"""

from ... import errors
from ...language import core
from ..ir import I1, Scalar, Tile, Value, scalar_type_name
from .checks import describe, fail, is_number
from .registry import bind, emitter
from .scalars import as_index, as_scalar, cast_scalar, fill_scalar, to_condition


@emitter("mask")
def _mask_call(gen, count, bits, other):
    fail(errors.UnsupportedError, "asc2.mask(...) is a context manager: write 'with asc2.mask(count=n):' around the "
                                  "element-wise ops it limits")


class LaneMask:
    """The mask of a ``with asc2.mask(...)`` block: a count (index Scalar) or two i64 Scalars, and ``other``."""

    def __init__(self, count=None, high=None, low=None, high_value=None, other=None):
        self.count, self.high, self.low, self.high_value, self.other = count, high, low, high_value, other


_MASK_BITS = 64


def _mask_bits_half(gen, v, which):
    """One 64-bit half of ``bits`` as an i64 Scalar (Python ints may be given unsigned, 0 .. 2**64-1)."""
    if isinstance(v, Scalar):
        if v.is_float or v.type == I1:
            fail(errors.CompilationTypeError,
                 f"asc2.mask: bits must be integers, got a {scalar_type_name(v)} scalar as {which}")
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
    arguments = bind("mask", args, kwargs)
    count, bits, other = arguments["count"], arguments["bits"], arguments["other"]
    if count is None and bits is None:
        fail(errors.CompilationValueError, "asc2.mask: one of count= or bits= must be provided (count=n: the first n "
                                           "elements; bits=(high, low): a 128-bit lane mask)")
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
        fail(errors.CompilationValueError, f"asc2.mask: bits must have 2 values, a pair (high, low) of 64-bit lane "
                                           f"masks; got {len(bits)} value(s)")
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
    elif t.dtype.is_int() and (isinstance(other, float) or (isinstance(other, Scalar) and other.is_float)):
        fail(errors.CompilationTypeError, f"asc2.mask: other={describe(other)} for an {t.dtype.name} result; "
                                          "use an integer")
    else:
        s = fill_scalar(gen, float(other) if t.dtype.is_float() and is_number(other) else other, t.dtype)
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
