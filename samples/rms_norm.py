"""RMSNorm of each row: out[r] = x[r] * rsqrt(mean(x[r]**2) + eps) * gamma.

`rms_norm` spells the formula out over a block of ROWS rows (a 2-D tile, a
keep_dims reduction broadcast back over the columns); `rms_norm_fused` calls
asc2.rms_norm.  cols must equal the tile width (whole rows).
"""

import argparse
import sys

import numpy as np

import asc2


@asc2.jit
def rms_norm(x_ptr: asc2.GlobalAddress, gamma_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, rows: int,
             eps: asc2.ConstExpr, ROWS: asc2.ConstExpr[int], COLS: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [rows, COLS])
    gamma_gm = asc2.global_tensor(gamma_ptr, [1, COLS])
    out_gm = asc2.global_tensor(out_ptr, [rows, COLS])
    gamma = asc2.copy_in(gamma_gm, [0, 0], [1, COLS])
    for block in asc2.range(asc2.block_idx(), asc2.ceildiv(rows, ROWS), asc2.block_num()):
        x = asc2.copy_in(x_gm, [block * ROWS, 0], [ROWS, COLS])
        # The [ROWS, 1] row sums are stretched back to full rows before the scalar arithmetic.
        mean_square = asc2.broadcast_to((x * x).sum(axis=1, keep_dims=True), [ROWS, COLS]) / COLS
        asc2.copy_out(x * asc2.rsqrt(mean_square + eps) * gamma, out_gm, [block * ROWS, 0])


@asc2.jit
def rms_norm_fused(x_ptr: asc2.GlobalAddress, gamma_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress,
                   rows: int, eps: asc2.ConstExpr, ROWS: asc2.ConstExpr[int], COLS: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [rows, COLS])
    gamma_gm = asc2.global_tensor(gamma_ptr, [1, COLS])
    out_gm = asc2.global_tensor(out_ptr, [rows, COLS])
    gamma = asc2.copy_in(gamma_gm, [0, 0], [1, COLS])
    for block in asc2.range(asc2.block_idx(), asc2.ceildiv(rows, ROWS), asc2.block_num()):
        x = asc2.copy_in(x_gm, [block * ROWS, 0], [ROWS, COLS])
        asc2.copy_out(asc2.rms_norm(x, gamma, eps), out_gm, [block * ROWS, 0])


def reference(x, gamma, eps):
    x = x.astype(np.float64)
    return x / np.sqrt((x * x).mean(axis=1, keepdims=True) + eps) * gamma.astype(np.float64)


def run(kernel, rows, cols, rows_per_tile=4, cores=8, eps=1e-6, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    gamma = rng.uniform(0.5, 1.5, (1, cols)).astype(np.float32)
    out = np.zeros_like(x)
    kernel[cores](x, gamma, out, rows, eps=eps, ROWS=rows_per_tile, COLS=cols)
    launch = kernel.last_report["launch"]
    if launch is None:  # Compile Only: compiled, nothing ran, nothing to check
        return None
    err = float(np.max(np.abs(out - reference(x, gamma, eps))))
    return err, launch.get("cycles", "no")  # the CPU twin runs untimed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=30)
    parser.add_argument("--cols", type=int, default=128)
    parser.add_argument("--cores", type=int, default=4)
    args = parser.parse_args(argv)
    ok = True
    for kernel in (rms_norm, rms_norm_fused):
        result = run(kernel, args.rows, args.cols, cores=args.cores)
        if result is None:
            print(f"{kernel.__name__}: compiled, not run ({args.rows}x{args.cols} float32, {args.cores} cores)")
            continue
        err, cycles = result
        status = "OK" if err <= 1e-5 else "MISMATCH"
        ok &= status == "OK"
        print(f"{kernel.__name__}: {status} ({args.rows}x{args.cols} float32, {args.cores} cores, "
              f"max abs err {err:.3g}, {cycles} cycles)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
