"""Row-wise softmax: out[r] = exp(x[r] - max(x[r])) / sum(exp(x[r] - max(x[r]))).

Each core takes every block_num()-th row.  Two kernels compute the same thing:
`softmax` spells the formula out (reductions to scalars, broadcasts), and
`softmax_fused` calls asc2.softmax, which the compiler expands itself.  The
columns fit one tile (TILE >= cols); the load pads the tail with -inf so the
padding never wins the max and adds exp(-inf) = 0 to the sum.
"""

import argparse
import sys

import numpy as np

import asc2


@asc2.jit
def softmax(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, rows: int, cols: int,
            TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [rows, cols])
    out_gm = asc2.global_tensor(out_ptr, [rows, cols])
    for row in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
        x = asc2.copy_in(x_gm, [row, 0], [1, TILE], pad_value=float("-inf"))
        e = asc2.exp(x - x.max())
        asc2.copy_out(e / e.sum(), out_gm, [row, 0])


@asc2.jit
def softmax_fused(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, rows: int, cols: int,
                  TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [rows, cols])
    out_gm = asc2.global_tensor(out_ptr, [rows, cols])
    for row in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
        x = asc2.copy_in(x_gm, [row, 0], [1, TILE], pad_value=float("-inf"))
        asc2.copy_out(asc2.softmax(x), out_gm, [row, 0])


def reference(x):
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def run(kernel, rows, cols, cores=8, dtype=np.float32, seed=0):
    """Launch ``kernel``; returns (max abs error, cycles), or None when it only compiled."""
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((rows, cols)) * 3).astype(dtype)
    out = np.zeros((rows, cols), dtype=dtype)
    tile = -(-cols // 64) * 64
    kernel[cores](x, out, rows, cols, TILE=tile)
    launch = kernel.last_report["launch"]
    if launch is None:  # Compile Only: compiled, nothing ran, nothing to check
        return None
    err = float(np.max(np.abs(out.astype(np.float64) - reference(x))))
    return err, launch.get("cycles", "no")  # the CPU twin runs untimed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=300)
    parser.add_argument("--cols", type=int, default=256)
    parser.add_argument("--cores", type=int, default=8)
    parser.add_argument("--dtype", choices=("float32", "float16"), default="float32")
    args = parser.parse_args(argv)
    dtype = np.dtype(args.dtype)
    tolerance = 1e-6 if dtype == np.float32 else 2e-3
    ok = True
    for kernel in (softmax, softmax_fused):
        result = run(kernel, args.rows, args.cols, args.cores, dtype)
        if result is None:
            print(f"{kernel.__name__}: compiled, not run ({args.rows}x{args.cols} {args.dtype}, {args.cores} cores)")
            continue
        err, cycles = result
        status = "OK" if err <= tolerance else "MISMATCH"
        ok &= status == "OK"
        print(f"{kernel.__name__}: {status} ({args.rows}x{args.cols} {args.dtype}, {args.cores} cores, "
              f"max abs err {err:.3g}, {cycles} cycles)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
