"""Fused row operations: softmax, rms_norm and layer_norm over the last dimension of a tile."""

from ... import errors
from ...language import core
from ..ir import Scalar, Tile, UnpackableTile, Value, float_literal
from .checks import check_dtype, describe, expect_tile, fail, is_number
from .elementwise import binary, unary
from .masks import forbid_in_mask
from .reductions import reduce
from .registry import emitter
from .tiles import broadcast_tile, convert_tile, reshape_tile


def _row_operand(gen, x, operand, what, name):
    """``gamma``/``beta``: a tile like ``x`` or like one row of it (rank-1 rows are reshaped)."""
    if not isinstance(operand, Tile):
        fail(errors.CompilationTypeError, f"asc2.{what}: '{name}' must be a tile, got {describe(operand)}")
    check_dtype(f"asc2.{what} ('{name}')", operand, NORM_DTYPES[what])
    if operand.dtype != x.dtype:
        fail(errors.CompilationTypeError, f"asc2.{what}: '{name}' is {operand.dtype.name} but x is {x.dtype.name}")
    row = (1,) * (len(x.shape) - 1) + x.shape[-1:]
    if operand.shape == x.shape[-1:]:
        return reshape_tile(gen, operand, row)
    if operand.shape not in (row, x.shape):
        fail(errors.ShapeError, f"asc2.{what}: '{name}' has shape {list(operand.shape)}; expected one row "
                                f"{list(row)} or the shape of x {list(x.shape)}")
    return operand


# The dtypes of x (and gamma, beta) each fused row op takes: upstream PyAsc2's sets.
NORM_DTYPES = {"softmax": (core.float16, core.float32), "rms_norm": (core.float16, core.float32),
               "layer_norm": (core.float16, core.bfloat16, core.float32)}


def _rows(x, what):
    """``x`` checked as the input of a fused row op: a float tile of a supported dtype, of rank 1 or 2 (checked
    before anything about its shape, as upstream does)."""
    x = expect_tile(x, f"asc2.{what}")
    check_dtype(f"asc2.{what}", x, NORM_DTYPES[what])
    x = expect_tile(x, f"asc2.{what}", floats_only=True)
    if len(x.shape) > 2:
        fail(errors.UnsupportedError, f"asc2.{what}: tile dimensionality greater than two is not supported (x has "
                                      f"shape {list(x.shape)}); reshape it to [rows, columns] first")
    return x


def _eps(eps, what):
    if isinstance(eps, Value) or not is_number(eps) or isinstance(eps, bool) or eps < 0:
        fail(errors.CompilationTypeError, f"asc2.{what}: eps must be a non-negative compile-time number, got "
                                          f"{describe(eps)}")
    return float_literal(eps, "f64")


@emitter("softmax")
def _softmax(gen, x):
    forbid_in_mask(gen, "asc2.softmax")
    x = _rows(x, "softmax")
    return x.like(gen.b.op(f"asctile.softmax {x.ssa} : {x.type}"))


@emitter("rms_norm")
def _rms_norm(gen, x, gamma, eps):
    forbid_in_mask(gen, "asc2.rms_norm")
    x = _rows(x, "rms_norm")
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


@emitter("layer_norm")
def _layer_norm(gen, x, gamma, beta, eps, output_rstd):
    forbid_in_mask(gen, "asc2.layer_norm")
    x = _rows(x, "layer_norm")
    gamma = _row_operand(gen, x, gamma, "layer_norm", "gamma")
    beta = _row_operand(gen, x, beta, "layer_norm", "beta")
    # The statistics, computed in float32 and given in x's dtype (upstream's kernels store them into tensors of
    # the input's dtype): mean and rstd (or variance) of each row, as [rows] ([1] for a rank-1 x).
    wide, last, n = convert_tile(gen, x, core.float32), len(x.shape) - 1, float(x.shape[-1])
    mean = binary(gen, "div", reduce(gen, "sum", wide, [last], True, None), n)
    centred = binary(gen, "sub", wide, broadcast_tile(gen, mean, x.shape))
    var = binary(gen, "div", reduce(gen, "sum", binary(gen, "mul", centred, centred), [last], True, None), n)
    stats_shape = x.shape[:-1] or (1,)
    runtime_eps = isinstance(eps, Scalar) and eps.is_float
    if runtime_eps or x.dtype == core.float16:
        # float16 rows are normalised in float32 and rounded once, as torch and Ascend C's LayerNorm
        # compute them (in float16 each step rounds: 2 of 2048 elements 4 ulps off in upstream's test).
        if not runtime_eps:
            _eps(eps, "layer_norm")
            eps = float(eps)
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
