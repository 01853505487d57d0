"""The cube unit in the frontend: tiles in L1/L0A/L0B/L0C, matmul, accumulators, moves.

The cube multiplies an L0A tile (M x K) by an L0B tile (K x N) into an L0C tile
(M x N, float32).  Global memory only reaches L1, so ``copy_in(..., location=L0A)``
stages through L1 (the lowering emits both copies).  Cube tiles are whole 16 x 16
fractals.  ``copy_out`` of an L0C tile goes through the fixpipe, which also
applies ``relu`` and the float32 -> float16/bfloat16 conversion.
"""

from ... import errors
from ...language import core
from ..ir import Scalar, Tile, Value
from .checks import check_dtype, describe, expect_tile, fail, static_shape
from .registry import emit_builtin, emitter
from .scalars import as_index
from .tiles import UB_BLOCK_BYTES, FilledTile, check_ub_alignment, convert_tile, new_tile, refill

L = core.TensorLocation
LOAD_LOCATIONS = (L.UB, L.L1, L.L0A, L.L0B, L.BT)
CUBE_INPUT_DTYPES = (core.float16, core.bfloat16, core.float32, core.int8)  # upstream's three, and int8 (docs/cube.md)
FRACTAL = 16


class StagedTile(Tile):
    """An L0A/L0B operand loaded straight from global memory (through L1): remembers where from
    (``origin``: the tensor, the load's offsets, its shape and real_shape), so ``.T`` can load it again
    transposed."""

    def __init__(self, tile, origin):
        super().__init__(tile.ssa, tile.shape, tile.dtype, tile.location)
        self.origin = origin


class MovedTile(Tile):
    """An L0A/L0B tile moved from an L1 tile: ``source`` (L1), ``offsets``, ``transposed`` (its L1 sub-tile was
    transposed on the way), so ``.T`` can re-issue the move with the transpose folded in."""

    def __init__(self, tile, source, offsets, transposed):
        super().__init__(tile.ssa, tile.shape, tile.dtype, tile.location)
        self.source, self.offsets, self.transposed = source, tuple(offsets), transposed


class TransposedL1(Tile):
    """``l1_tile.T``: a view, not a copy. Moving a sub-tile of it to L0A/L0B moves the matching sub-tile of
    ``base`` with a transposing load (LoadData with transpose). It exists only as a source of such moves."""

    def __init__(self, base):
        Tile.__init__(self, base.ssa, tuple(reversed(base.shape)), base.dtype, base.location)
        self.base = base


def loaded(gen, tile, tensor, offsets, real_shape=None):
    """The result of copy_in: L0A/L0B operands remember their origin (see StagedTile)."""
    if tile.location not in (L.L0A, L.L0B):
        return tile
    return StagedTile(tile, (tensor, list(offsets), tuple(tile.shape), real_shape))


FRACTAL_LOCATIONS = (L.L1, L.L0A, L.L0B)


def fractal_tile(shape, real_shape, location, what):
    """A cube tile of any 2-D shape (upstream loads [47, 21] into L0A): stored padded to whole 16 x 16 fractals,
    its load reads only the requested part (real_shape), so the padding is zero and a matmul over it is exact.
    Returns the stored shape and the real_shape of the load."""
    if location not in FRACTAL_LOCATIONS or len(shape) != 2 or not any(d % FRACTAL for d in shape):
        check_cube_shape(shape, location, what)
        return shape, real_shape
    return [-(-d // FRACTAL) * FRACTAL for d in shape], list(shape)


def check_cube_shape(shape, location, what, row=False):
    """``row``: a 1-D shape [N] is accepted as the one-row matrix [1, N] (N a multiple of 16; stored, its fractals
    would pad M to 16 rows), as for filled tiles moved between cube locations (docs/language.md)."""
    if location == L.UB:
        return
    if row and len(shape) == 1 and location in (L.L0A, L.L0B, L.L0C):
        if shape[0] % FRACTAL:
            fail(errors.AlignmentError, f"{what}: a 1-D {location.value} tile is one row [1, N] of whole "
                                        f"16 x 16 fractals, N a multiple of {FRACTAL}; got shape {list(shape)}")
        return
    if location == L.BT:
        n = shape[-1]
        if any(d != 1 for d in shape[:-1]) or n % FRACTAL:
            fail(errors.ShapeError, f"{what}: a bias (BT) tile is one row of N float32 values, N a multiple "
                                    f"of {FRACTAL}; got shape {list(shape)}")
        return
    if location == L.L1 and len(shape) == 1:
        if shape[0] % FRACTAL:
            fail(errors.AlignmentError, f"{what}: a 1-D L1 tile is a bias row for the bias table, a multiple "
                                        f"of {FRACTAL} long; got shape {list(shape)}")
        return
    if len(shape) != 2:
        fail(errors.ShapeError, f"{what}: {location.value} tiles are 2-D (rows x columns), got shape "
                                f"{list(shape)}")
    if any(d % FRACTAL for d in shape):
        fail(errors.AlignmentError, f"{what}: {location.value} tile {list(shape)} is not made of whole "
                                    f"16 x 16 fractals (use multiples of {FRACTAL} in both dimensions; "
                                    "pad partial tiles, loads pad with zeros)")


def _operand(x, want, what):
    """``x`` checked as a matmul operand in ``want`` (L0A or L0B), as upstream checks it: a tile (TypeError), of a
    cube dtype, in ``want`` (an L1 tile is moved there explicitly: ``asc2.copy``/``.to``), with two dims."""
    if not isinstance(x, Tile):
        fail(errors.CompilationTypeError, f"{what} must be a tile, got {describe(x)}")
    check_dtype(what, x, CUBE_INPUT_DTYPES)
    if x.location != want:
        move_hint = (f"move it there first: {x.location.value.lower()}_tile.to(asc2.TensorLocation.{want.value}) or "
                     f"asc2.copy(tile, offsets, shape, location=asc2.TensorLocation.{want.value})"
                     if x.location == L.L1 else
                     f"load it with copy_in(..., location=asc2.TensorLocation.{want.value})")
        fail(errors.UnsupportedError, f"{what}: the tensor location must be {want.value}, got {x.location.value}; "
                                      + move_hint)
    if len(x.shape) != 2:
        fail(errors.ShapeError, f"{what}: matmul operands have two dims (rows x columns), got shape "
                                f"{list(x.shape)}")
    return x


def _check_chain(a, b, what):
    if a.dtype != b.dtype:
        fail(errors.UnsupportedError, f"{what}: operands must have the same types (operand dtypes differ: "
                                      f"{a.dtype.name} and {b.dtype.name})")
    if a.shape[1] != b.shape[0]:
        fail(errors.ShapeError, f"{what}: incompatible shapes: {list(a.shape)} and {list(b.shape)} do not "
                                f"chain (K = {a.shape[1]} vs {b.shape[0]})")


def _acc_dtype(dt):
    """The accumulator dtype: int8 products accumulate in int32, the floating ones in float32."""
    return core.int32 if dt == core.int8 else core.float32


def _hf32_attr(hf32, dt, what):
    """`` {hf32}`` when the product is computed in HF32 (float32 operands rounded before the mmad)."""
    if isinstance(hf32, Value) or not isinstance(hf32, (bool, int)):
        fail(errors.CompilationTypeError, f"{what}: hf32 must be a compile-time bool, got {describe(hf32)}")
    if not hf32:
        return ""
    if dt != core.float32:
        fail(errors.UnsupportedError, f"{what}: HF32 mode rounds float32 operands; the operands are "
                                      f"{dt.name} (use hf32 only with float32 tiles)")
    return " {hf32}"


@emitter("matmul")
def _matmul(gen, a, b, bias=None, hf32=False):
    a = _operand(a, L.L0A, "asc2.matmul (left operand)")
    b = _operand(b, L.L0B, "asc2.matmul (right operand)")
    _check_chain(a, b, "asc2.matmul")
    attr = _hf32_attr(hf32, a.dtype, "asc2.matmul")
    shape = (a.shape[0], b.shape[1])
    dt = _acc_dtype(a.dtype)
    if bias is not None:
        bias = expect_tile(bias, "asc2.matmul (bias)")
        _check_bias(bias, shape[1], "asc2.matmul")
        return _with_bias(gen, a, b, shape, dt, bias, attr)
    out = new_tile(gen, f"asctile.matmul {a.ssa}, {b.ssa}{attr} : {a.type}, {b.type} -> ", shape, dt, L.L0C)
    out.matmul_of = (a, b)
    return out


def _rebind_in_place(gen, old, new):
    """``asc2.matmul_acc(acc, a, b)`` as a statement updates ``acc``: every name holding the old accumulator
    now holds the result (the hardware accumulates in place; a loop then carries the accumulator)."""
    for name, value in list(gen.scope.items()):
        if value is old:
            gen.scope[name] = new


def matmul_acc(gen, acc, a, b, what="asc2.matmul_acc", hf32=False):
    if (isinstance(b, Tile) and b.location == L.L0C and isinstance(acc, Tile) and acc.location != L.L0C):
        acc, a, b = b, acc, a  # the earlier upstream order matmul_acc(a, b, acc)
    acc = expect_tile(acc, what)
    if acc.location != L.L0C:
        fail(errors.UnsupportedError, f"{what}: the accumulator must be an L0C tile (asc2.zeros_acc or a "
                                      f"matmul result), got a {acc.location.value} tile")
    a = _operand(a, L.L0A, f"{what} (left operand)")
    b = _operand(b, L.L0B, f"{what} (right operand)")
    _check_chain(a, b, what)
    attr = _hf32_attr(hf32, a.dtype, what)
    if acc.shape != (a.shape[0], b.shape[1]) or acc.dtype != _acc_dtype(a.dtype):
        fail(errors.ShapeError, f"{what}: accumulator {list(acc.shape)} {acc.dtype.name} does not match "
                                f"{list(a.shape)} x {list(b.shape)} -> [{a.shape[0]}, {b.shape[1]}] "
                                f"{_acc_dtype(a.dtype).name}")
    result = acc.like(gen.b.op(f"asctile.matmul_acc {acc.ssa}, {a.ssa}, {b.ssa}{attr} : {acc.type}, {a.type}, "
                               f"{b.type}"))
    _rebind_in_place(gen, acc, result)
    return result


emitter("matmul_acc")(lambda gen, acc, a, b, hf32: matmul_acc(gen, acc, a, b, hf32=hf32))


def _check_bias(bias, n, what):
    if bias.location != L.BT:
        fail(errors.UnsupportedError, f"{what}: the bias must be a BT tile (copy_in(..., "
                                      f"location=asc2.TensorLocation.BT)), got a {bias.location.value} tile")
    if bias.dtype not in (core.float32, core.float16, core.bfloat16) or bias.shape[-1] != n or \
            any(d != 1 for d in bias.shape[:-1]):
        fail(errors.ShapeError, f"{what}: the bias must be one row of {n} float32/float16/bfloat16 values in "
                                f"BT, got {list(bias.shape)} {bias.dtype.name}")


def _with_bias(gen, a, b, shape, dt, bias, attr=""):
    """``a @ b + bias`` with a BT bias row: one mmad that starts from the bias."""
    _check_bias(bias, shape[1], "a @ b + bias")
    return new_tile(gen, f"asctile.matmul {a.ssa}, {b.ssa} bias {bias.ssa}{attr} : {a.type}, {b.type}, "
                         f"{bias.type} -> ", shape, dt, L.L0C)


def fuse_accumulate(gen, name, a, b):
    """``acc + a @ b`` (or ``a @ b + acc``) on L0C tiles as one matmul_acc, and ``a @ b + bias`` with a
    BT bias as a biased matmul; None when not that pattern."""
    if name != "add" or not (isinstance(a, Tile) and isinstance(b, Tile)):
        return None
    for product, bias in ((a, b), (b, a)):
        if product.location == L.L0C and product.matmul_of and bias.location == L.BT:
            return _with_bias(gen, *product.matmul_of, product.shape, product.dtype, bias)
    if a.location != L.L0C or b.location != L.L0C:
        return None
    acc, product = (a, b) if b.matmul_of else (b, a)
    if not product.matmul_of:
        fail(errors.UnsupportedError, "adding two L0C tiles: the cube accumulates only matmul results "
                                      "(acc + a @ b, or asc2.matmul_acc(acc, a, b))")
    return matmul_acc(gen, acc, *product.matmul_of, what="acc + a @ b")


@emitter("zeros_acc")
def _zeros_acc(gen, shape, dtype, bias):
    shape = static_shape(shape, "asc2.zeros_acc: shape")
    bias_text = ""
    if bias is not None:
        bias = expect_tile(bias, "asc2.zeros_acc (bias)")
        _check_bias(bias, shape[-1] if len(shape) == 2 else 0, "asc2.zeros_acc")
        bias_text = f"bias({bias.ssa} : {bias.type}) "
    if not isinstance(dtype, core.dtype):
        fail(errors.CompilationTypeError, f"asc2.zeros_acc: dtype must be an asc2 dtype, got "
                                          f"{describe(dtype)}")
    if dtype not in (core.float32, core.int32):
        fail(errors.UnsupportedDtypeError, f"asc2.zeros_acc: the accumulator dtype must be float32 (or int32 for "
                                           f"int8 inputs), not {dtype.name}")
    check_cube_shape(shape, L.L0C, "asc2.zeros_acc")
    return new_tile(gen, f"asctile.accumulator {bias_text}: ", shape, dtype, L.L0C)


def move(gen, src, offsets, shape, location, what):
    """``src`` (or its sub-tile at ``offsets`` of ``shape``) as a tile in ``location``."""
    src = expect_tile(src, what)
    location = src.location if location is None else core.TensorLocation.parse(location)
    shape = tuple(src.shape) if shape is None else tuple(static_shape(shape, f"{what}: shape"))
    if offsets is None:
        offsets = [0] * len(src.shape)
    if isinstance(offsets, int):
        offsets = [offsets]
    if len(offsets) != len(src.shape) or len(shape) != len(src.shape):
        fail(errors.CompilationValueError, f"{what}: offsets and shape need one entry per dimension of the "
                                           f"rank-{len(src.shape)} tile")
    for o in offsets:
        if isinstance(o, bool) or not isinstance(o, (int, Scalar)) or (isinstance(o, Scalar) and o.is_float):
            fail(errors.CompilationTypeError, f"{what}: sub-tile offsets must be integers, got "
                                              f"{describe(o)}")
    dynamic = any(isinstance(o, Scalar) for o in offsets)
    for d, (o, s, full) in enumerate(zip(offsets, shape, src.shape)):
        if isinstance(o, int) and (o < 0 or o + s > full) or s > full:
            fail(errors.ShapeError, f"{what}: sub-tile {list(shape)} at {list(offsets)} is outside the "
                                    f"{list(src.shape)} tile (dimension {d})")
    if location == src.location and not dynamic and tuple(offsets) == (0,) * len(shape) and shape == tuple(src.shape):
        return src  # tiles are values: a copy in the same place is the same value
    if isinstance(src, FilledTile) and src.location == L.L1 and location in (L.L0A, L.L0B) and not dynamic:
        # A filled L1 tile (upstream tests' constant_tile) moves as the same fill: no data moves. A 1-D one is the
        # row [1, N], as it was in L1.
        check_cube_shape(shape, location, what, row=True)
        return refill(gen, src.fill, shape, src.dtype, location)
    if src.location == L.L1 and location in (L.L0A, L.L0B):
        check_cube_shape(shape, location, what)
        if isinstance(src, TransposedL1):
            # Sub-tile (r, c) of R x C of the view = the transposed sub-tile (c, r) of C x R of the L1 tile.
            return _load_l0(gen, src.base, offsets[::-1], shape[::-1], location, True, what)
        return _load_l0(gen, src, offsets, shape, location, False, what)
    if src.location == L.L1 and location == L.BT:
        # Part of a bias row staged in L1 -> the bias table (widened to float32 on the way).
        if len(src.shape) != 1:
            fail(errors.ShapeError, f"{what}: the bias table is filled from a 1-D L1 row (copy_in(bias_gm, "
                                    f"[0], [N], location=L1)), not a {list(src.shape)} tile")
        check_cube_shape(shape, L.BT, what)
        if src.dtype not in (core.float32, core.float16, core.bfloat16):
            fail(errors.UnsupportedError, f"{what}: a bias row is float32, float16 or bfloat16, not "
                                          f"{src.dtype.name}")
        (o,) = offsets
        if isinstance(o, Scalar):
            text = f"offsets [0] dynamic [{as_index(gen, o, f'{what} offset').ssa}]"
        else:
            text = f"offsets [{o}]"
        return new_tile(gen, f"asctile.move {src.ssa} {text} : {src.type} -> ", shape, src.dtype, location)
    if src.location == L.UB and location == L.UB:
        # A UB sub-tile (vector-pipe copy of its rows): 32-byte aligned like every UB tile.
        check_ub_alignment(shape, src.dtype, location)
        elem_bytes = max(1, src.dtype.bits // 8)
        if (offsets[-1] * elem_bytes) % UB_BLOCK_BYTES:
            fail(errors.AlignmentError, f"{what}: a UB sub-tile must start on a 32-byte boundary; column "
                                        f"offset {offsets[-1]} of {src.dtype.name} is {offsets[-1] * elem_bytes} "
                                        "bytes")
        if len(shape) > 2 and any(d != 1 for d in shape[:-2]):
            fail(errors.UnsupportedError, f"{what}: UB sub-tiles keep at most two non-unit dimensions")
        dense = ", ".join(str(o) for o in offsets)
        return new_tile(gen, f"asctile.move {src.ssa} offsets [{dense}] : {src.type} -> ", shape, src.dtype,
                        location)
    if src.location == L.L0C and location == L.L1:
        if tuple(offsets) != (0,) * len(shape) or shape != tuple(src.shape):
            fail(errors.UnsupportedError, f"{what}: L0C -> L1 moves the whole tile")
        if src.dtype not in (core.float32, core.float16, core.bfloat16):
            fail(errors.CompilationTypeError, f"{what}: L0C -> L1 stages float32 results (or their "
                                              f"float16/bfloat16 casts), not {src.dtype.name}")
        return new_tile(gen, f"asctile.move {src.ssa} offsets [{', '.join('0' for _ in shape)}] : {src.type} -> ",
                        shape, src.dtype, location)
    if isinstance(src, FilledTile) and src.location == L.L0C and location == L.UB and not dynamic:
        # A filled accumulator (asc2.zeros in L0C) is the same fill in UB: no data moves.
        check_ub_alignment(shape, src.dtype, location)
        return refill(gen, src.fill, shape, src.dtype, location)
    if src.location == L.L0C and location == L.UB:
        # Ascend950: the cube core's fixpipe writes its vector core's UB (the lowering refuses it on A2/A3): the
        # whole tile or a band of whole rows from a 16-row fractal boundary (a tile too large for UB in parts).
        if dynamic:
            fail(errors.UnsupportedError, f"{what}: L0C -> UB takes compile-time offsets")
        if len(shape) != 2 or offsets[1] != 0 or shape[1] != src.shape[1]:
            fail(errors.UnsupportedError, f"{what}: L0C -> UB moves whole rows of the accumulator (all "
                                          f"{src.shape[-1]} columns), not a {list(shape)} sub-tile at {list(offsets)}")
        if offsets[0] % 16:
            fail(errors.AlignmentError, f"{what}: L0C -> UB moves rows from a 16-row fractal boundary of the "
                                        f"accumulator; row {offsets[0]} is not one")
        if src.dtype not in (core.float32, core.float16, core.bfloat16, core.int32):
            fail(errors.CompilationTypeError, f"{what}: L0C -> UB moves float32 results (or their "
                                              f"float16/bfloat16 casts) and int32 ones, not {src.dtype.name}")
        return new_tile(gen, f"asctile.move {src.ssa} offsets [{offsets[0]}, 0] : {src.type} -> ",
                        shape, src.dtype, location)
    if src.location == L.UB and location == L.L1:
        return _ub_to_l1(gen, src, offsets, shape, what)
    if src.location == L.L0C:
        fail(errors.UnsupportedError,
             f"{what}: L0C -> {location.value} has no data path: copy_out the matmul result "
             "(fixpipe) and copy_in it where you need it, or stage it in L1 for another matmul")
    fail(errors.UnsupportedError, f"{what}: copying a tile from {src.location.value} to {location.value} "
                                  "is not supported (supported location moves: UB sub-tiles, L1 -> L0A/L0B/BT, "
                                  "L0C -> L1; on Ascend950 also L0C -> UB and UB -> L1)")


def _ub_to_l1(gen, src, offsets, shape, what):
    """The ``shape`` sub-tile at ``offsets`` of a UB tile in L1 (Ascend950: the vector core copies it into the cube
    core's L1 as NZ fractals; a 1-D row stays a row, a bias row). Runtime offsets are checked when it runs."""
    check_dtype(what, src, CUBE_INPUT_DTYPES)
    check_cube_shape(shape, L.L1, what)
    elem_bytes = max(1, src.dtype.bits // 8)
    last = offsets[-1]
    if isinstance(last, int) and (last * elem_bytes) % UB_BLOCK_BYTES:
        fail(errors.AlignmentError, f"{what}: a UB -> L1 copy starts on a 32-byte block; column offset {last} of "
                                    f"{src.dtype.name} is {last * elem_bytes} bytes")
    if any(isinstance(o, Scalar) for o in offsets):
        static = ", ".join(str(o) if isinstance(o, int) else "0" for o in offsets)
        dynamic = ", ".join(as_index(gen, o if isinstance(o, Scalar) else 0, f"{what} offset").ssa
                            for o in offsets)
        text = f"offsets [{static}] dynamic [{dynamic}]"
    else:
        text = f"offsets [{', '.join(str(o) for o in offsets)}]"
    return new_tile(gen, f"asctile.move {src.ssa} {text} : {src.type} -> ", shape, src.dtype, L.L1)


def _load_l0(gen, l1, offsets, shape, location, transpose, what):
    """The ``shape`` sub-tile at ``offsets`` of the L1 tile ``l1`` in L0A/L0B (LoadData; ``transpose``: the
    transposed sub-tile, reversed shape). Runtime offsets (a K loop over an L1 slab) are checked to be whole
    fractals when the load runs."""
    if any(isinstance(o, int) and o % FRACTAL for o in offsets):
        fail(errors.AlignmentError, f"{what}: L1 -> {location.value} sub-tile offsets {list(offsets)} "
                                    f"must be multiples of {FRACTAL} (whole fractals)")
    if any(isinstance(o, Scalar) for o in offsets):
        dynamic = ", ".join(as_index(gen, o, f"{what} offset").ssa for o in offsets)
        static, dynamic = ", ".join("0" for _ in offsets), f" dynamic [{dynamic}]"
    else:
        static, dynamic = ", ".join(str(o) for o in offsets), ""
    out_shape = tuple(reversed(shape)) if transpose else tuple(shape)
    check_cube_shape(out_shape, location, what)
    attr = " {transpose}" if transpose else ""
    tile = new_tile(gen, f"asctile.move {l1.ssa} offsets [{static}]{dynamic}{attr} : {l1.type} -> ", out_shape,
                    l1.dtype, location)
    return MovedTile(tile, l1, offsets, transpose)


def transpose(gen, x):
    """``x.T`` of a cube tile: an L1 tile becomes a transposed view (TransposedL1); an L0A/L0B operand is
    loaded again from its L1 source with LoadData's transpose (the untransposed load is then dead)."""
    what = "asc2.transpose"
    if isinstance(x, TransposedL1):
        return x.base
    if x.location == L.L1:
        return TransposedL1(x)
    if isinstance(x, MovedTile):
        shape = tuple(reversed(x.shape)) if x.transposed else x.shape
        return _load_l0(gen, x.source, x.offsets, shape, x.location, not x.transposed, what)
    if isinstance(x, FilledTile):  # asc2.full/zeros in L0A/L0B: the transpose is the same fill
        return refill(gen, x.fill, tuple(reversed(x.shape)), x.dtype, x.location)
    if isinstance(x, StagedTile):  # copy_in(..., location=L0A/L0B): stage it through L1 again
        tensor, origin, shape, real_shape = x.origin
        # The shape asked for: a partial one pads to whole fractals again, as the first load did.
        l1 = emit_builtin(gen, "copy_in", [tensor, origin, list(real_shape or shape), L.L1], {})
        return _load_l0(gen, l1, [0] * len(shape), shape, x.location, True, what)
    fail(errors.UnsupportedError, f"{what}: this {x.location.value} tile cannot be transposed: an {x.location.value} "
                                  "tile is transposed as it is loaded from L1 (LoadData transposes on the way), and "
                                  "this one was not loaded straight from L1 or global memory (a loop or branch "
                                  "result); transpose the L1 tile, or the operand as it is moved from it")


def _earlier_copy_form(args, kwargs):
    """The earlier upstream form ``copy(src, shape, offsets=..., location=...)`` as the stub's."""
    if len(args) >= 2 and "offsets" in kwargs and "shape" not in kwargs:
        args = list(args)
        kwargs = dict(kwargs, shape=args.pop(1))
    return args, kwargs


@emitter("copy", earlier_form=_earlier_copy_form)
def _copy(gen, src, offsets, shape, location):
    return move(gen, src, offsets, shape, location, "asc2.copy")


def storable(gen, src, dst, what, location=L.L0C):
    """An L0C tile stored into a float16/bfloat16 tensor converts in the fixpipe (``location``: where ``src`` is,
    an L0C fill having been refilled in UB)."""
    if isinstance(src, Tile) and src.location == location and src.dtype != dst.dtype:
        if src.dtype == core.float32 and dst.dtype in (core.float16, core.bfloat16):
            return convert_tile(gen, src, dst.dtype, core.RoundMode.RINT)
    return src
