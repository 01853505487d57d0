"""LayerNorm of each row: (x - mean) * rsqrt(var + eps) * gamma + beta.

`layer_norm` spells it out on [1, COLS] rows (mean and variance as scalars),
`layer_norm_fused` calls asc2.layer_norm with rank-1 gamma/beta tiles, which
stand for one row.
"""

import argparse
import sys

import numpy as np

import asc2


@asc2.jit
def layer_norm(x_ptr: asc2.GlobalAddress, gamma_ptr: asc2.GlobalAddress, beta_ptr: asc2.GlobalAddress,
               out_ptr: asc2.GlobalAddress, rows: int, eps: float, COLS: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [rows, COLS])
    gamma_gm = asc2.global_tensor(gamma_ptr, [1, COLS])
    beta_gm = asc2.global_tensor(beta_ptr, [1, COLS])
    out_gm = asc2.global_tensor(out_ptr, [rows, COLS])
    gamma = asc2.copy_in(gamma_gm, [0, 0], [1, COLS])
    beta = asc2.copy_in(beta_gm, [0, 0], [1, COLS])
    for row in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
        x = asc2.copy_in(x_gm, [row, 0], [1, COLS])
        centered = x - x.sum() / COLS
        var = (centered * centered).sum() / COLS
        asc2.copy_out(centered * asc2.rsqrt(asc2.full_like(x, var + eps)) * gamma + beta, out_gm, [row, 0])


@asc2.jit
def layer_norm_fused(x_ptr: asc2.GlobalAddress, gamma_ptr: asc2.GlobalAddress, beta_ptr: asc2.GlobalAddress,
                     out_ptr: asc2.GlobalAddress, rows: int, eps: asc2.ConstExpr, COLS: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [rows, COLS])
    gamma_gm = asc2.global_tensor(gamma_ptr, [COLS])
    beta_gm = asc2.global_tensor(beta_ptr, [COLS])
    out_gm = asc2.global_tensor(out_ptr, [rows, COLS])
    gamma = asc2.copy_in(gamma_gm, [0], [COLS])
    beta = asc2.copy_in(beta_gm, [0], [COLS])
    for row in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
        x = asc2.copy_in(x_gm, [row, 0], [1, COLS])
        asc2.copy_out(asc2.layer_norm(x, gamma, beta, eps), out_gm, [row, 0])


def reference(x, gamma, beta, eps):
    x = x.astype(np.float64)
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma.reshape(1, -1) + beta.reshape(1, -1)


def run(kernel, rows, cols, cores=8, eps=1e-5, seed=0):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((rows, cols)) * 2 + 1).astype(np.float32)
    gamma = rng.uniform(0.5, 1.5, cols).astype(np.float32)
    beta = rng.standard_normal(cols).astype(np.float32)
    out = np.zeros_like(x)
    if kernel is layer_norm:
        kernel[cores](x, gamma.reshape(1, -1), beta.reshape(1, -1), out, rows, eps, COLS=cols)
    else:
        kernel[cores](x, gamma, beta, out, rows, eps=eps, COLS=cols)
    launch = kernel.last_report["launch"]
    if launch is None:  # Compile Only: compiled, nothing ran, nothing to check
        return None
    err = float(np.max(np.abs(out - reference(x, gamma, beta, eps))))
    return err, launch.get("cycles", "no")  # the CPU twin runs untimed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20)
    parser.add_argument("--cols", type=int, default=256)
    parser.add_argument("--cores", type=int, default=8)
    args = parser.parse_args(argv)
    ok = True
    for kernel in (layer_norm, layer_norm_fused):
        result = run(kernel, args.rows, args.cols, args.cores)
        if result is None:
            print(f"{kernel.__name__}: compiled, not run ({args.rows}x{args.cols} float32, {args.cores} cores)")
            continue
        err, cycles = result
        status = "OK" if err <= 1e-4 else "MISMATCH"
        ok &= status == "OK"
        print(f"{kernel.__name__}: {status} ({args.rows}x{args.cols} float32, {args.cores} cores, "
              f"max abs err {err:.3g}, {cycles} cycles)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
