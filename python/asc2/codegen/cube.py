"""The cube unit in the frontend: tiles in L1/L0A/L0B/L0C, matmul, accumulators, moves.

The cube multiplies an L0A tile (M x K) by an L0B tile (K x N) into an L0C tile
(M x N, float32).  Global memory only reaches L1, so ``copy_in(..., location=L0A)``
stages through L1 (the lowering emits both copies).  Cube tiles are whole 16 x 16
fractals.  ``copy_out`` of an L0C tile goes through the fixpipe, which also
applies ``relu`` and the float32 -> float16/bfloat16 conversion.
"""

from .. import errors
from ..language import core
from . import ops
from .ir import Tile

L = core.TensorLocation
LOAD_LOCATIONS = (L.UB, L.L1, L.L0A, L.L0B, L.BT)
CUBE_INPUT_DTYPES = (core.float16, core.bfloat16, core.float32, core.int8)
FRACTAL = 16


def check_cube_shape(shape, location, what):
    if location == L.UB:
        return
    if location == L.BT:
        n = shape[-1]
        if any(d != 1 for d in shape[:-1]) or n % FRACTAL:
            ops.fail(errors.ShapeError, f"{what}: a bias (BT) tile is one row of N float32 values, N a multiple "
                                        f"of {FRACTAL}; got shape {list(shape)}")
        return
    if len(shape) != 2:
        ops.fail(errors.ShapeError, f"{what}: {location.value} tiles are 2-D (rows x columns), got shape "
                                    f"{list(shape)}")
    if any(d % FRACTAL for d in shape):
        ops.fail(errors.AlignmentError, f"{what}: {location.value} tile {list(shape)} is not made of whole "
                                        f"16 x 16 fractals (use multiples of {FRACTAL} in both dimensions; "
                                        "pad partial tiles, loads pad with zeros)")


def _operand(gen, x, want, what):
    """``x`` as a tile in ``want`` (L0A or L0B): L1 tiles move there, other locations are errors."""
    x = ops.expect_tile(x, what)
    if x.dtype not in CUBE_INPUT_DTYPES:
        ops.fail(errors.CompilationTypeError, f"{what}: the cube unit multiplies float16, bfloat16, float32 or "
                                              f"int8 tiles, not {x.dtype.name}")
    if x.location == want:
        return x
    if x.location == L.L1:
        return move(gen, x, None, None, want, what)
    ops.fail(errors.UnsupportedError,
             f"{what}: operand is a {x.location.value} tile; matmul operands come from "
             f"copy_in(..., location=asc2.TensorLocation.{want.value}) (or L1, moved to {want.value})")


def _check_chain(a, b, what):
    if a.dtype != b.dtype:
        ops.fail(errors.CompilationTypeError, f"{what}: operand dtypes differ ({a.dtype.name} and {b.dtype.name})")
    if a.shape[1] != b.shape[0]:
        ops.fail(errors.ShapeError, f"{what}: shapes {list(a.shape)} and {list(b.shape)} do not chain "
                                    f"(K = {a.shape[1]} vs {b.shape[0]})")


def _acc_dtype(dt):
    return core.int32 if dt == core.int8 else core.float32


@ops.emitter("matmul")
def _matmul(gen, a, b):
    a = _operand(gen, a, L.L0A, "asc2.matmul (left operand)")
    b = _operand(gen, b, L.L0B, "asc2.matmul (right operand)")
    _check_chain(a, b, "asc2.matmul")
    shape = (a.shape[0], b.shape[1])
    dt = _acc_dtype(a.dtype)
    out = ops.new_tile(gen, f"asctile.matmul {a.ssa}, {b.ssa} : {a.type}, {b.type} -> ", shape, dt, L.L0C)
    out.matmul_of = (a, b)
    return out


def matmul_acc(gen, acc, a, b, what="asc2.matmul_acc"):
    acc = ops.expect_tile(acc, what)
    if acc.location != L.L0C:
        ops.fail(errors.UnsupportedError, f"{what}: the accumulator must be an L0C tile (asc2.zeros_acc or a "
                                          f"matmul result), got a {acc.location.value} tile")
    a = _operand(gen, a, L.L0A, f"{what} (left operand)")
    b = _operand(gen, b, L.L0B, f"{what} (right operand)")
    _check_chain(a, b, what)
    if acc.shape != (a.shape[0], b.shape[1]) or acc.dtype != _acc_dtype(a.dtype):
        ops.fail(errors.ShapeError, f"{what}: accumulator {list(acc.shape)} {acc.dtype.name} does not match "
                                    f"{list(a.shape)} x {list(b.shape)} -> [{a.shape[0]}, {b.shape[1]}] "
                                    f"{_acc_dtype(a.dtype).name}")
    return acc.like(gen.b.op(f"asctile.matmul_acc {acc.ssa}, {a.ssa}, {b.ssa} : {acc.type}, {a.type}, {b.type}"))


ops.emitter("matmul_acc")(lambda gen, acc, a, b: matmul_acc(gen, acc, a, b))


def _with_bias(gen, product, bias):
    """``a @ b + bias`` with a BT bias row: one mmad that starts from the bias."""
    a, b = product.matmul_of
    n = product.shape[1]
    if bias.dtype != core.float32 or bias.shape[-1] != n or any(d != 1 for d in bias.shape[:-1]):
        ops.fail(errors.ShapeError, f"a @ b + bias: the bias must be one float32 row of {n} values in BT, got "
                                    f"{list(bias.shape)} {bias.dtype.name}")
    out = ops.new_tile(gen, f"asctile.matmul {a.ssa}, {b.ssa} bias {bias.ssa} : {a.type}, {b.type}, {bias.type} -> ",
                       product.shape, product.dtype, L.L0C)
    return out


def fuse_accumulate(gen, name, a, b):
    """``acc + a @ b`` (or ``a @ b + acc``) on L0C tiles as one matmul_acc, and ``a @ b + bias`` with a
    BT bias as a biased matmul; None when not that pattern."""
    if name != "add" or not (isinstance(a, Tile) and isinstance(b, Tile)):
        return None
    for product, bias in ((a, b), (b, a)):
        if product.location == L.L0C and product.matmul_of and bias.location == L.BT:
            return _with_bias(gen, product, bias)
    if a.location != L.L0C or b.location != L.L0C:
        return None
    acc, product = (a, b) if b.matmul_of else (b, a)
    if not product.matmul_of:
        ops.fail(errors.UnsupportedError, "adding two L0C tiles: the cube accumulates only matmul results "
                                          "(acc + a @ b, or asc2.matmul_acc(acc, a, b))")
    return matmul_acc(gen, acc, *product.matmul_of, what="acc + a @ b")


@ops.emitter("zeros_acc")
def _zeros_acc(gen, shape, dtype):
    shape = ops.static_shape(shape, "asc2.zeros_acc: shape")
    if not isinstance(dtype, core.dtype):
        ops.fail(errors.CompilationTypeError, f"asc2.zeros_acc: dtype must be an asc2 dtype, got "
                                              f"{ops.describe(dtype)}")
    if dtype not in (core.float32, core.int32):
        ops.fail(errors.CompilationTypeError, f"asc2.zeros_acc: accumulators are float32 (or int32 for int8 "
                                              f"inputs), not {dtype.name}")
    check_cube_shape(shape, L.L0C, "asc2.zeros_acc")
    return ops.new_tile(gen, "asctile.accumulator : ", shape, dtype, L.L0C)


def move(gen, src, offsets, shape, location, what):
    """``src`` (or its sub-tile at ``offsets`` of ``shape``) as a tile in ``location``."""
    src = ops.expect_tile(src, what)
    location = src.location if location is None else core.TensorLocation.parse(location)
    shape = tuple(src.shape) if shape is None else tuple(ops.static_shape(shape, f"{what}: shape"))
    if offsets is None:
        offsets = [0] * len(src.shape)
    if isinstance(offsets, int):
        offsets = [offsets]
    if len(offsets) != len(src.shape) or len(shape) != len(src.shape):
        ops.fail(errors.CompilationValueError, f"{what}: offsets and shape need one entry per dimension of the "
                                               f"rank-{len(src.shape)} tile")
    for o in offsets:
        if not isinstance(o, int) or isinstance(o, bool):
            ops.fail(errors.CompilationTypeError, f"{what}: sub-tile offsets must be compile-time integers, got "
                                                  f"{ops.describe(o)}")
    for d, (o, s, full) in enumerate(zip(offsets, shape, src.shape)):
        if o < 0 or o + s > full:
            ops.fail(errors.ShapeError, f"{what}: sub-tile {list(shape)} at {list(offsets)} is outside the "
                                        f"{list(src.shape)} tile (dimension {d})")
    if location == src.location and tuple(offsets) == (0,) * len(shape) and shape == tuple(src.shape):
        return src  # tiles are values: a copy in the same place is the same value
    if src.location == L.L1 and location in (L.L0A, L.L0B):
        check_cube_shape(shape, location, what)
        if any(o % FRACTAL for o in offsets):
            ops.fail(errors.AlignmentError, f"{what}: L1 -> {location.value} sub-tile offsets {list(offsets)} "
                                            f"must be multiples of {FRACTAL} (whole fractals)")
        dense = ", ".join(str(o) for o in offsets)
        return ops.new_tile(gen, f"asctile.move {src.ssa} offsets [{dense}] : {src.type} -> ", shape, src.dtype,
                            location)
    if src.location == L.UB and location == L.UB:
        # A UB sub-tile (vector-pipe copy of its rows): 32-byte aligned like every UB tile.
        ops.check_ub_alignment(shape, src.dtype, location)
        elem_bytes = max(1, src.dtype.bits // 8)
        if (offsets[-1] * elem_bytes) % ops.UB_BLOCK_BYTES:
            ops.fail(errors.AlignmentError, f"{what}: a UB sub-tile must start on a 32-byte boundary; column "
                                            f"offset {offsets[-1]} of {src.dtype.name} is {offsets[-1] * elem_bytes} "
                                            "bytes")
        if len(shape) > 2 and any(d != 1 for d in shape[:-2]):
            ops.fail(errors.UnsupportedError, f"{what}: UB sub-tiles keep at most two non-unit dimensions")
        dense = ", ".join(str(o) for o in offsets)
        return ops.new_tile(gen, f"asctile.move {src.ssa} offsets [{dense}] : {src.type} -> ", shape, src.dtype,
                            location)
    if src.location == L.L0C and location == L.L1:
        if tuple(offsets) != (0,) * len(shape) or shape != tuple(src.shape):
            ops.fail(errors.UnsupportedError, f"{what}: L0C -> L1 moves the whole tile")
        if src.dtype not in (core.float32, core.float16, core.bfloat16):
            ops.fail(errors.CompilationTypeError, f"{what}: L0C -> L1 stages float32 results (or their "
                                                  f"float16/bfloat16 casts), not {src.dtype.name}")
        return ops.new_tile(gen, f"asctile.move {src.ssa} offsets [{', '.join('0' for _ in shape)}] : {src.type} -> ",
                            shape, src.dtype, location)
    if src.location == L.L0C:
        ops.fail(errors.UnsupportedError,
                 f"{what}: L0C -> {location.value} has no data path on this target: copy_out the matmul result "
                 "(fixpipe) and copy_in it where you need it, or stage it in L1 for another matmul")
    ops.fail(errors.UnsupportedError, f"{what}: copying a tile from {src.location.value} to {location.value} "
                                      "is not supported (supported: UB sub-tiles, L1 -> L0A/L0B, L0C -> L1)")


@ops.emitter("copy")
def _copy(gen, src, offsets, shape, location):
    return move(gen, src, offsets, shape, location, "asc2.copy")


def storable(gen, src, dst, what):
    """An L0C tile stored into a float16/bfloat16 tensor converts in the fixpipe."""
    if isinstance(src, Tile) and src.location == L.L0C and src.dtype != dst.dtype:
        if src.dtype == core.float32 and dst.dtype in (core.float16, core.bfloat16):
            return ops.convert_tile(gen, src, dst.dtype, core.RoundMode.RINT)
    return src
