"""Global memory: tensors over kernel arguments, tile loads and stores (copy_in/copy_out), atomics.

Cube locations (L1, L0A, L0B, BT) and the fixpipe conversion of L0C results are ``cube``'s; what is left here is
the UB path and the shapes, offsets and extents every location shares.
"""

import builtins
import itertools
import math

from ... import errors
from ...language import core
from ..ir import GlobalTensor, Pointer, Scalar, Tile, Value, constant_literal, tensor_type
from . import cube
from .checks import as_list, check_dtype, check_supported_location, describe, expect_tile, fail, is_number, static_shape
from .creation import number
from .elementwise import binary
from .reductions import reduce
from .registry import emit_builtin, emitter
from .scalars import as_index, element_scalar, scalar_type_of
from .shapes import concat
from .tiles import FilledTile, check_ub_alignment, new_tile, refill, reshape_tile


def _leading_ones(tile_shape, rank, real_shape, what):
    """A tile of the innermost dimensions of a rank-`rank` tensor (upstream: a row of a matrix as a rank-1
    tile) moves as the tile with leading 1s: those 1s, and real_shape given the same."""
    lead = [1] * (rank - len(tile_shape))
    if real_shape is None:
        return lead, None
    if not isinstance(real_shape, (list, tuple)) or len(real_shape) != len(tile_shape):
        fail(errors.CompilationValueError, f"{what}: real_shape must have the rank of the tile {list(tile_shape)}")
    return lead, lead + list(real_shape)


def offsets_of(gen, offsets, rank, what):
    offsets = as_list(offsets)
    if not isinstance(offsets, (list, tuple)):
        fail(errors.CompilationTypeError, f"{what}: offsets must be a list, got {describe(offsets)}")
    if len(offsets) != rank:
        fail(errors.CompilationValueError,
             f"{what}: {len(offsets)} offset(s) given for a rank-{rank} tensor")
    return [as_index(gen, o, f"{what} offset").ssa for o in offsets]


@emitter("global_tensor")
def _global_tensor(gen, ptr, shape):
    if not isinstance(ptr, Pointer):
        fail(errors.CompilationTypeError,
             f"asc2.global_tensor: the base address 'ptr' must be a GlobalAddress parameter, got "
             f"{describe(ptr)}")
    shape = as_list(shape)
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
        elif not isinstance(d, int) or isinstance(d, bool):
            fail(errors.CompilationTypeError, f"asc2.global_tensor: dimensions must be integers, got {describe(d)}")
        else:
            fail(errors.ShapeError, f"asc2.global_tensor: dimensions must be positive integers, got {d!r}")
    ty = tensor_type(dims, ptr.dtype)
    ssa = gen.b.op(f"asctile.tensor {ptr.ssa}[{', '.join(dynamic)}] : {ptr.type} -> {ty}")
    return GlobalTensor(ssa, dims, ptr.dtype, ptr)


def real_shape_clause(gen, real_shape, shape, location, what):
    """The ``real_shape [...]`` clause of a load/store: the leading part of the tile that is moved (runtime extents
    allowed; loads pad the rest). Empty when there is no real_shape or it is the whole tile."""
    if real_shape is None:
        return ""
    if location not in (core.TensorLocation.UB, *cube.FRACTAL_LOCATIONS):
        fail(errors.UnsupportedError, f"{what}: real_shape is only supported for UB, L1, L0A and L0B tiles")
    real_shape = as_list(real_shape)
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


def pad_value_attr(pad_value, dt, what):
    """The ``pad_value = ...`` attribute of a load (copy_in, gather): a compile-time number of the dtype ``dt``."""
    if not is_number(pad_value):
        fail(errors.CompilationTypeError, f"{what}: pad_value must be a compile-time number, got {describe(pad_value)}")
    if dt.is_int() and isinstance(pad_value, float) and not pad_value.is_integer():
        fail(errors.CompilationTypeError, f"{what}: float pad_value {pad_value!r} for an {dt.name} tensor")
    value = pad_value if dt.is_float() else int(pad_value)
    return f"pad_value = {constant_literal(value, dt.mlir)}"


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
    if real_shape is not None and location != core.TensorLocation.UB:
        fail(errors.UnsupportedError, f"asc2.copy_in: 'real_shape' is not supported with {location.value} tensor "
                                      "location (as in upstream PyAsc2; a UB load takes it): a cube tile of any shape "
                                      "loads padded with zeros, and loads past the tensor's end are padded too")
    if 0 < len(shape) < rank and location == core.TensorLocation.UB:
        # loaded with leading 1s, then given the rank asked for
        lead, real = _leading_ones(shape, rank, real_shape, "asc2.copy_in")
        tile = _copy_in(gen, src, offsets, lead + list(shape), location, real, pad_value)
        return reshape_tile(gen, tile, tuple(shape))
    shape, real_shape = cube.fractal_tile(shape, real_shape, location, "asc2.copy_in")
    if len(shape) != rank:
        fail(errors.CompilationValueError,
             f"asc2.copy_in: a rank-{len(shape)} tile shape for a rank-{rank} tensor")
    # A tile may be larger than the tensor (a cube tile of whole fractals, a [rows, 304] UB tile of a [., 300]
    # tensor as upstream kernels load): the load pads what lies past the tensor.
    check_ub_alignment(shape, src.dtype, location, rows=True)
    if location == core.TensorLocation.UB and has_leading_dims(shape):
        merged = _contiguous_view(gen, src, offsets, shape, real_shape)
        if merged is not None:  # one DMA of fewer dimensions, seen as the tile asked for
            view, offs, merged_shape, real = merged
            return reshape_tile(gen, _copy_in(gen, view, offs, merged_shape, location, real, pad_value), shape)
        if stacked_slabs(shape):
            return _copy_in_slabs(gen, src, offsets, shape, real_shape, pad_value)
    offs = offsets_of(gen, offsets, rank, "asc2.copy_in")
    real = real_shape_clause(gen, real_shape, shape, location, "asc2.copy_in")
    attrs = ""
    if pad_value is not None:
        attrs = f" {{{pad_value_attr(pad_value, src.dtype, 'asc2.copy_in')}}}"
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
        value = number(gen, src, dst.dtype)
        gen.b.emit(f"asctile.set_value {value.ssa}, {dst.ssa}[{', '.join(offs)}] : {value.type}, {dst.type}")
        return None
    if isinstance(src, FilledTile) and src.location == core.TensorLocation.L0C:
        # A filled L0C tile (upstream tests' constant_tile; a 1-D one is the row [1, N]) is the same fill in UB,
        # written by the vector unit: the cube has no fill of L0C, and no data needs the fixpipe.
        cube.check_cube_shape(src.shape, core.TensorLocation.L0C, "asc2.copy_out", row=True)
        src = refill(gen, src.fill, src.shape, src.dtype, core.TensorLocation.UB)
        src = cube.storable(gen, src, dst, "asc2.copy_out", core.TensorLocation.UB)
    src = cube.storable(gen, src, dst, "asc2.copy_out")
    if 0 < len(src.shape) < len(dst.shape) and src.location == core.TensorLocation.UB:
        # stored as the tile with leading 1s
        lead, real = _leading_ones(src.shape, len(dst.shape), real_shape, "asc2.copy_out")
        return _copy_out(gen, reshape_tile(gen, src, tuple(lead) + tuple(src.shape)), dst, offsets, real)
    _check_tile_into(src, dst, "asc2.copy_out")
    if (src.location == core.TensorLocation.UB and math.prod(src.shape) == 1 and len(src.shape) > 1
            and real_shape is None and src.dtype != core.bool_):
        # One element (say x.sum(keep_dims=True)): a scalar store, as upstream does; a [1, 1] tile has no DMA row.
        return _copy_out(gen, reduce(gen, "sum", src, [], False, None), dst, offsets, None)
    check_ub_alignment(src.shape, src.dtype, src.location, rows=True)
    if src.location == core.TensorLocation.UB and has_leading_dims(src.shape):
        merged = _contiguous_view(gen, dst, offsets, src.shape, real_shape)
        if merged is not None:
            view, offs, merged_shape, real = merged
            return _copy_out(gen, reshape_tile(gen, src, merged_shape), view, offs, real)
        if stacked_slabs(src.shape):
            return _copy_out_slabs(gen, src, dst, offsets, real_shape)
    offs = offsets_of(gen, offsets, len(dst.shape), "asc2.copy_out")
    real = real_shape_clause(gen, real_shape, src.shape, src.location, "asc2.copy_out")
    gen.b.emit(f"asctile.store {src.ssa}, {dst.ssa}[{', '.join(offs)}]{real} : {src.type}, {dst.type}")


def _contiguous_view(gen, tensor, offsets, shape, real_shape):
    """A rank-3+ UB tile whose inner part is whole rows of the tensor moves as a tile of fewer dimensions: where the
    tile spans all of dimension d+1 of the tensor (static extent, offset 0, no shorter real extent), dimensions d and
    d+1 are one run of memory on both sides (the UB tile is dense) and merge, so [92, 4, 80] of a [92, 256, 80]
    tensor is one strided [92, 320] DMA instead of 92 slabs. Returns (view of the tensor with the merged dimensions,
    offsets, tile shape, real_shape), or None when no dimensions merge."""
    rank = len(shape)
    offsets = as_list(offsets)
    real_shape = as_list(real_shape)
    for operand in (offsets, real_shape):
        if operand is not None and (not isinstance(operand, (list, tuple)) or len(operand) != rank):
            return None  # the copy reports it
    dims, tile, offs = list(tensor.shape), list(shape), list(offsets)
    real = list(real_shape) if real_shape is not None else None

    def whole(j):
        return (isinstance(dims[j], int) and tile[j] == dims[j] and isinstance(offs[j], int)
                and not isinstance(offs[j], bool) and offs[j] == 0
                and (real is None or (isinstance(real[j], int) and not isinstance(real[j], bool) and real[j] == tile[j])))

    merged = False
    for d in builtins.range(rank - 2, -1, -1):
        if not whole(d + 1):
            continue
        inner = dims[d + 1]
        dims[d:d + 2] = [dims[d] * inner if isinstance(dims[d], int) else binary(gen, "mul", dims[d], inner)]
        offs[d:d + 2] = [offs[d] * inner if isinstance(offs[d], int) else binary(gen, "mul", offs[d], inner)]
        if real is not None:
            r = real[d]
            real[d:d + 2] = [r * inner if isinstance(r, int) else binary(gen, "mul", r, inner)]
        tile[d:d + 2] = [tile[d] * tile[d + 1]]
        merged = True
    if not merged:
        return None
    return _global_tensor(gen, tensor.ptr, dims), offs, tuple(tile), real


# Tiles of rank 3 and more whose leading dimensions are not all 1 (say [4, 8, 64]): the DMA moves rows x columns
# slabs, so such a tile moves as one [rows, cols] slab per index of its leading dimensions, joined (loads) or split
# (stores) on the vector pipe.
MAX_SLABS = 64


def has_leading_dims(shape):
    """Whether ``shape`` has dimensions before its last two that are not 1 (it is not one rows x columns slab)."""
    return any(d != 1 for d in shape[:-2])


def stacked_slabs(shape):
    """The index tuples of the leading dimensions of ``shape``, or [] when it moves as one rows x columns slab."""
    if not has_leading_dims(shape):
        return []
    lead = shape[:-2]
    count = math.prod(lead)
    if count > MAX_SLABS:
        fail(errors.UnsupportedError, f"a UB tile of shape {list(shape)} moves as {count} slabs of "
                                      f"{list(shape[-2:])}, more than {MAX_SLABS}; use fewer leading elements "
                                      "(or a loop over them)")
    return list(itertools.product(*(builtins.range(d) for d in lead)))


def _slab_operands(gen, offsets, real_shape, rank, index, what):
    """Offsets and real_shape of one slab: the slab's leading indices added to the offsets, taken off the real
    extents (the lowering clamps each extent to the tile, so a slab past real_shape moves nothing)."""
    offsets = as_list(offsets)
    offsets_of(gen, offsets, rank, what)  # checks the kind and count
    lead = len(index)
    offs = [binary(gen, "add", o, i) if i else o for o, i in zip(offsets[:lead], index)] + list(offsets[lead:])
    if real_shape is None:
        return offs, None
    real_shape = as_list(real_shape)
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
    return reshape_tile(gen, concat(gen, pieces, 0), shape)


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
    if src.location == core.TensorLocation.L0C and len(src.shape) != 2:
        fail(errors.ShapeError, f"{what}: L0C tiles (matmul results) are 2-D (rows x columns), got shape "
                                f"{list(src.shape)}")
    if src.dtype != dst.dtype:
        fail(errors.UnsupportedDtypeError,
             f"{what}: {src.dtype.name} tile into a {dst.dtype.name} tensor: the dtypes must match (convert with "
             ".to())")
    if len(src.shape) != len(dst.shape):
        fail(errors.CompilationValueError,
             f"{what}: a rank-{len(src.shape)} tile into a rank-{len(dst.shape)} tensor")


ATOMIC_DTYPES = (core.int16, core.int32, core.float16, core.bfloat16, core.float32)  # upstream PyAsc2's set


def atomic(gen, kind, src, dst, offsets):
    what = f"asc2.atomic_{kind}"
    src = expect_tile(src, what)
    _expect_tensor(dst, what, "dst")
    check_dtype(f"{what} (dst)", dst, ATOMIC_DTYPES,
                hint="; accumulate into a tensor of one of those dtypes (int16 for int8 values, int32 for int64 ones "
                     "that fit)")
    if src.location != core.TensorLocation.UB:
        fail(errors.UnsupportedError, f"{what}: the src tile location must be UB, got {src.location.value} (atomic "
                                      "stores run on the vector unit's data path; copy_out an L0C result first)")
    _check_tile_into(src, dst, what)
    offs = offsets_of(gen, offsets, len(dst.shape), what)
    gen.b.emit(f"asctile.atomic_rmw {kind}, {src.ssa}, {dst.ssa}[{', '.join(offs)}] : {src.type}, {dst.type}")


for _kind in ("add", "max", "min"):
    emitter(f"atomic_{_kind}")(lambda gen, src, dst, offsets, _k=_kind: atomic(gen, _k, src, dst, offsets))


# gather / scatter: rows of a global tensor at positions an index tile gives (asctile.gather / asctile.scatter).
_INDEX_DTYPES = (core.int8, core.int16, core.int32, core.int64)


def _indexed_rows(gen, what, tensor, tname, offsets, dim, index, check_bounds, num_indices, real_shape):
    """The checks gather and scatter share; returns (dim, offsets ssa, index, count clause, flags clause)."""
    _expect_tensor(tensor, what, tname)
    rank = len(tensor.shape)
    if isinstance(dim, Value) or not isinstance(dim, int) or isinstance(dim, bool):
        fail(errors.CompilationTypeError, f"{what}: 'dim' must be a compile-time integer, got {describe(dim)}")
    if not 0 <= dim < rank:
        fail(errors.CompilationValueError, f"{what}: 'dim' {dim} is not a dimension of the rank-{rank} tensor "
                                           f"'{tname}' (valid: 0..{rank - 1})")
    if dim == rank - 1:
        fail(errors.UnsupportedError, f"{what} along the last dimension of '{tname}' is not implemented: index a "
                                      f"dimension before it (rows of a [.., {tensor.shape[-1]}] tensor: dim="
                                      f"{rank - 2})")
    if not isinstance(index, Tile):
        fail(errors.CompilationTypeError, f"{what}: 'index' must be a tile (asc2.copy_in of the indices), got "
                                          f"{describe(index)}")
    if index.dtype not in _INDEX_DTYPES:
        fail(errors.UnsupportedDtypeError, f"{what}: 'index' must be an int8, int16, int32 or int64 tile, got "
                                           f"{index.dtype.name} (cast it with .to(asc2.int32))")
    if len(index.shape) != 1:
        fail(errors.CompilationValueError, f"{what}: 'index' must be a rank-1 tile, got shape {list(index.shape)} "
                                           "(reshape it with asc2.ravel)")
    check_supported_location(index.location, f"{what}: 'index'")
    if tensor.dtype == core.bool_:
        fail(errors.UnsupportedDtypeError, f"{what}: bool tensors are not supported (move them as uint8)")
    for k in builtins.range(dim + 1, rank):
        if not isinstance(tensor.shape[k], int):
            fail(errors.CompilationValueError, f"{what}: dimensions {dim + 1}..{rank - 1} of '{tname}' must be "
                                               f"static (compile-time), dimension {k} is a run-time value; pass it "
                                               "as an asc2.ConstExpr")
    offsets = as_list(offsets)
    if not isinstance(offsets, (list, tuple)):
        fail(errors.CompilationTypeError, f"{what}: offsets must be a list, got {describe(offsets)}")
    if len(offsets) != dim + 1:
        fail(errors.CompilationValueError, f"{what}: {len(offsets)} offset(s) given; with dim={dim} it takes "
                                           f"{dim + 1} (dimensions 0..{dim} of '{tname}')")
    offs = [as_index(gen, o, f"{what} offset").ssa for o in offsets]
    if num_indices is not None and real_shape is not None:
        fail(errors.CompilationValueError, f"{what}: give num_indices or real_shape (its earlier name), not both")
    if num_indices is None:
        num_indices = real_shape
    if isinstance(num_indices, (list, tuple)) and len(num_indices) == 1:
        num_indices = num_indices[0]
    count = ""
    if num_indices is not None:
        if isinstance(num_indices, int) and not isinstance(num_indices, bool):
            if not 0 <= num_indices <= index.shape[0]:
                fail(errors.CompilationValueError, f"{what}: num_indices {num_indices} is outside 0..{index.shape[0]}"
                                                   f" (the length of 'index')")
            if num_indices < index.shape[0]:
                count = f" count {as_index(gen, num_indices, f'{what}: num_indices').ssa}"
        else:
            count = f" count {as_index(gen, num_indices, f'{what}: num_indices').ssa}"
    if not isinstance(check_bounds, bool):
        if isinstance(check_bounds, int) and not isinstance(check_bounds, Value):
            check_bounds = bool(check_bounds)
        else:
            fail(errors.CompilationTypeError, f"{what}: check_bounds must be a compile-time bool (True/False or an "
                                              f"asc2.ConstExpr), got {describe(check_bounds)}")
    return offs, count, check_bounds


def _rows_shape(tensor, dim, index):
    """[len(index), dims dim+1 .. -2, the last dimension rounded up to 32 bytes]."""
    per_block = 32 // tensor.dtype.itemsize
    last = -(-tensor.shape[-1] // per_block) * per_block
    return [index.shape[0], *tensor.shape[dim + 1:-1], last]


def _earlier_order(tile_at, names):
    """An ``earlier_form`` for upstream's earlier argument order ``names``, told apart by the tile (the index, or
    scatter's src) it has at position ``tile_at``: the positional arguments become keywords."""

    def rewrite(args, kwargs):
        if len(args) > tile_at and isinstance(args[tile_at], Tile) and len(args) <= len(names):
            return [], {**kwargs, **dict(zip(names, args))}
        return args, kwargs  # the current order (too many arguments: the binding reports it)

    return rewrite


@emitter("gather", earlier_form=_earlier_order(
    2, ("src", "offsets", "index", "dim", "check_bounds", "real_shape", "pad_value")))
def _gather(gen, src, offsets, dim, index, check_bounds, num_indices, pad_value, real_shape):
    what = "asc2.gather"
    offs, count, check_bounds = _indexed_rows(gen, what, src, "src", offsets, dim, index, check_bounds,
                                              num_indices, real_shape)
    attrs = ["check_bounds"] if check_bounds else []
    if pad_value is not None:
        attrs.append(pad_value_attr(pad_value, src.dtype, what))
    attr = f" {{{', '.join(attrs)}}}" if attrs else ""
    shape = _rows_shape(src, dim, index)
    return new_tile(gen, f"asctile.gather {src.ssa}[{', '.join(offs)}] by {index.ssa}{count}{attr} : {src.type}, "
                         f"{index.type} -> ", shape, src.dtype, core.TensorLocation.UB)


@emitter("scatter", earlier_form=_earlier_order(
    1, ("index", "src", "dst", "offsets", "dim", "check_bounds", "real_shape")))
def _scatter(gen, src, dim, index, dst, offsets, check_bounds, num_indices, real_shape):
    what = "asc2.scatter"
    offs, count, check_bounds = _indexed_rows(gen, what, dst, "dst", offsets, dim, index, check_bounds,
                                              num_indices, real_shape)
    if not isinstance(src, Tile):
        fail(errors.CompilationTypeError, f"{what}: 'src' must be a tile, got {describe(src)}")
    check_supported_location(src.location, f"{what}: 'src'")
    if src.dtype != dst.dtype:
        fail(errors.UnsupportedDtypeError, f"{what}: 'src' and 'dst' have different dtypes: {src.dtype.name} and "
                                           f"{dst.dtype.name} (convert src with .to(asc2.{dst.dtype.name}))")
    want = _rows_shape(dst, dim, index)
    rank = len(dst.shape)
    if len(src.shape) != rank - dim:
        fail(errors.CompilationValueError, f"{what}: 'src' must have rank {rank - dim} (a row per index, then "
                                           f"dimensions {dim + 1}..{rank - 1} of 'dst'), got shape "
                                           f"{list(src.shape)}")
    if list(src.shape[1:]) != want[1:] or src.shape[0] < want[0]:
        fail(errors.CompilationValueError,
             f"{what}: 'src' of shape {list(src.shape)} does not fit: it needs at least {want[0]} rows (one per "
             f"index) of shape {want[1:]} (dst's dimensions after dim={dim}"
             + (f", the last rounded up to 32 bytes from {dst.shape[-1]}" if want[-1] != dst.shape[-1] else "")
             + ")")
    flags = " {check_bounds}" if check_bounds else ""
    gen.b.emit(f"asctile.scatter {src.ssa}, {dst.ssa}[{', '.join(offs)}] by {index.ssa}{count}{flags} : {src.type}, "
               f"{dst.type}, {index.type}")
