"""Element-wise kernels in the "tiles per block" form the published pyasc points
use: block b handles TPB consecutive TILE-element tiles starting at
b * TILE * TPB of a flat array; each loop trip loads, computes and stores one
tile (``asc2.range(TPB, unroll_factor=UNROLL, parallel=PARALLEL)`` as the
published kernel spells it).

OP (a compile-time string) picks the arithmetic, so one kernel serves every
unary point and one every binary point.
"""

import math

import numpy as np

import asc2

from .common import Measurement

SQRT_HALF = math.sqrt(0.5)
SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
NEG_SQRT_8_OVER_PI = -math.sqrt(8.0 / math.pi)


@asc2.jit
def unary_tiles(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, size: int, alpha: float,
                OP: asc2.ConstExpr[str], TILE: asc2.ConstExpr[int], TPB: asc2.ConstExpr[int],
                UNROLL: asc2.ConstExpr[int], PARALLEL: asc2.ConstExpr[bool]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    base = asc2.block_idx() * TILE * TPB
    for i in asc2.range(TPB, unroll_factor=UNROLL, parallel=PARALLEL):
        off = base + i * TILE
        x = asc2.copy_in(x_gm, [off], [TILE])
        if OP == "abs":
            y = asc2.abs(x)
        elif OP == "tanh":
            y = asc2.tanh(x)
        elif OP == "gelu_erf":
            y = x * (asc2.erf(x * SQRT_HALF) + 1) * 0.5
        elif OP == "gelu_tanh":
            y = x * (asc2.tanh((x + x * x * x * 0.044715) * SQRT_2_OVER_PI) + 1) * 0.5
        elif OP == "gelu_exp":  # the same tanh GELU as x * sigmoid(2u), through one exp
            y = x / (asc2.exp((x * x * x * 0.044715 + x) * NEG_SQRT_8_OVER_PI) + 1)
        else:  # leaky_relu
            y = asc2.where(x >= 0, x, x * alpha)
        asc2.copy_out(y, out_gm, [off])


@asc2.jit
def binary_tiles(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress,
                 size: int, OP: asc2.ConstExpr[str], SCALE: asc2.ConstExpr[float],
                 TILE: asc2.ConstExpr[int], TPB: asc2.ConstExpr[int],
                 UNROLL: asc2.ConstExpr[int], PARALLEL: asc2.ConstExpr[bool]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    y_gm = asc2.global_tensor(y_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    base = asc2.block_idx() * TILE * TPB
    for i in asc2.range(TPB, unroll_factor=UNROLL, parallel=PARALLEL):
        off = base + i * TILE
        x = asc2.copy_in(x_gm, [off], [TILE])
        y = asc2.copy_in(y_gm, [off], [TILE])
        if OP == "add":
            z = x + y
        else:  # mask_scale: dropout's apply step, data * keep-mask * (1 / keep_prob)
            z = (x * y) * SCALE
        asc2.copy_out(z, out_gm, [off])


@asc2.jit
def adam_tiles(var_ptr: asc2.GlobalAddress, m_ptr: asc2.GlobalAddress, v_ptr: asc2.GlobalAddress,
               grad_ptr: asc2.GlobalAddress, size: int,
               B1: asc2.ConstExpr[float], B2: asc2.ConstExpr[float], ALPHA: asc2.ConstExpr[float],
               EPS: asc2.ConstExpr[float], TILE: asc2.ConstExpr[int], TPB: asc2.ConstExpr[int],
               UNROLL: asc2.ConstExpr[int], PARALLEL: asc2.ConstExpr[bool]):
    """One Adam step in place: 4 loads, 3 stores per element (B1, B2 are 1 - beta)."""
    var_gm = asc2.global_tensor(var_ptr, [size])
    m_gm = asc2.global_tensor(m_ptr, [size])
    v_gm = asc2.global_tensor(v_ptr, [size])
    grad_gm = asc2.global_tensor(grad_ptr, [size])
    base = asc2.block_idx() * TILE * TPB
    for i in asc2.range(TPB, unroll_factor=UNROLL, parallel=PARALLEL):
        off = base + i * TILE
        var = asc2.copy_in(var_gm, [off], [TILE])
        m = asc2.copy_in(m_gm, [off], [TILE])
        v = asc2.copy_in(v_gm, [off], [TILE])
        g = asc2.copy_in(grad_gm, [off], [TILE])
        m_new = m + (g - m) * B1
        v_new = v + (g * g - v) * B2
        var_new = var - (m_new * ALPHA) / (asc2.sqrt(v_new) + EPS)
        asc2.copy_out(m_new, m_gm, [off])
        asc2.copy_out(v_new, v_gm, [off])
        asc2.copy_out(var_new, var_gm, [off])


def _tiles_per_block(size, tile, cores):
    tiles = -(-size // tile)
    return -(-tiles // cores)


def _unary_reference(op, x, alpha):
    x64 = x.astype(np.float64)
    if op == "abs":
        return np.abs(x64)
    if op == "tanh":
        return np.tanh(x64)
    if op == "gelu_erf":
        return 0.5 * x64 * (1.0 + np.vectorize(math.erf)(x64 * SQRT_HALF))
    if op in ("gelu_tanh", "gelu_exp"):
        return 0.5 * x64 * (1.0 + np.tanh(SQRT_2_OVER_PI * (x64 + 0.044715 * x64 ** 3)))
    return np.where(x64 >= 0, x64, x64 * alpha)


# Accepted difference from numpy (float64) per dtype: a few units in the last place of the
# output dtype (transcendentals on the vector unit are not correctly rounded).
_TOLERANCE = {"float16": (4e-3, 4e-3), "float32": (1e-5, 1e-5)}


def run_unary(cores, op, sizes, tile, dtype="float16", unroll=1, parallel=False, alpha=0.01, seed=2026):
    """One launch per size in ``sizes`` (a published Total tick over several is their sum)."""
    rng = np.random.default_rng(seed)
    result = Measurement()
    rtol, atol = _TOLERANCE[dtype]
    for size in sizes:
        x = (rng.random(size, dtype=np.float32) * 4 - 2).astype(dtype)
        out = np.zeros_like(x)
        unary_tiles[cores](x, out, size, alpha, op, tile, _tiles_per_block(size, tile, cores), unroll, parallel)
        result.add_launch(unary_tiles, cores)
        result.check(out, _unary_reference(op, x, alpha), rtol, atol)
    return result


def run_binary(cores, op, size, tile, dtype="float16", unroll=1, parallel=False, keep_prob=0.5, seed=2026):
    rng = np.random.default_rng(seed)
    x = rng.random(size, dtype=np.float32).astype(dtype)
    if op == "add":
        y = rng.random(size, dtype=np.float32).astype(dtype)
        want = x.astype(np.float64) + y.astype(np.float64)
    else:
        y = (rng.random(size) < keep_prob).astype(dtype)
        want = x.astype(np.float64) * y * (1.0 / keep_prob)
    out = np.zeros_like(x)
    binary_tiles[cores](x, y, out, size, op, 1.0 / keep_prob, tile, _tiles_per_block(size, tile, cores),
                        unroll, parallel)
    result = Measurement()
    result.add_launch(binary_tiles, cores)
    return result.check(out, want, *_TOLERANCE[dtype])


def run_adam(cores, size, tile, unroll=1, parallel=False, beta1=0.9, beta2=0.999, lr=0.001,
             beta1_power=0.9, beta2_power=0.999, eps=1e-8, seed=2026):
    rng = np.random.default_rng(seed)
    var, m, grad = (rng.standard_normal(size).astype(np.float32) for _ in range(3))
    v = rng.random(size, dtype=np.float32)
    alpha = lr * math.sqrt(1.0 - beta2_power) / (1.0 - beta1_power)
    m_want = m + (1.0 - beta1) * (grad.astype(np.float64) - m)
    v_want = v + (1.0 - beta2) * (grad.astype(np.float64) ** 2 - v)
    var_want = var - alpha * m_want / (np.sqrt(v_want) + eps)
    adam_tiles[cores](var, m, v, grad, size, 1.0 - beta1, 1.0 - beta2, alpha, eps, tile,
                      _tiles_per_block(size, tile, cores), unroll, parallel)
    result = Measurement()
    result.add_launch(adam_tiles, cores)
    for got, want in ((m, m_want), (v, v_want), (var, var_want)):
        result.check(got, want, 1e-5, 1e-6)
    return result
