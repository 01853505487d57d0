"""Vector addition: out = x + y, split across cores in tiles of TILE elements.

Run it as a script (`python3 samples/vadd.py`); it checks the result against
numpy for a few sizes, including ones that are not a multiple of the tile
(the last tile's load is padded and its store clamped by the compiler).
"""

import argparse
import sys

import numpy as np

import asc2


@asc2.jit
def vadd(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress,
         size: int, tiles_per_block: int, TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    y_gm = asc2.global_tensor(y_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])

    base = asc2.block_idx() * tiles_per_block * TILE
    for i in asc2.range(tiles_per_block):
        off = base + i * TILE
        x = asc2.copy_in(x_gm, [off], [TILE])
        y = asc2.copy_in(y_gm, [off], [TILE])
        asc2.copy_out(x + y, out_gm, [off])


def run(n, cores=8, tile=256, dtype=np.float32, seed=0):
    """Launch vadd on n random elements; returns (max abs error, cycles), or None when it only compiled."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n).astype(dtype)
    y = rng.standard_normal(n).astype(dtype)
    out = np.zeros(n, dtype=dtype)
    tiles_per_block = asc2.ceildiv(asc2.ceildiv(n, tile), cores)
    vadd[cores](x, y, out, n, tiles_per_block, TILE=tile)
    launch = vadd.last_report["launch"]
    if launch is None:  # Compile Only: compiled, nothing ran, nothing to check
        return None
    expected = x + y
    err = float(np.max(np.abs(out.astype(np.float64) - expected.astype(np.float64)))) if n else 0.0
    return err, launch.get("cycles", "no")  # the CPU twin runs untimed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, action="append", help="element count (repeatable)")
    parser.add_argument("--cores", type=int, default=8)
    parser.add_argument("--tile", type=int, default=256)
    parser.add_argument("--dtype", choices=("float32", "float16"), default="float32")
    args = parser.parse_args(argv)
    sizes = args.n or [8 * 256 * 4, 12345]
    dtype = np.dtype(args.dtype)
    tolerance = 0.0 if dtype == np.float32 else 1e-2
    ok = True
    for n in sizes:
        result = run(n, args.cores, args.tile, dtype)
        if result is None:
            print(f"vadd: compiled, not run (n={n}, {args.dtype}, {args.cores} cores)")
            continue
        err, cycles = result
        status = "OK" if err <= tolerance else "MISMATCH"
        ok &= status == "OK"
        print(f"vadd: {status} (n={n}, {args.dtype}, {args.cores} cores, max abs err {err}, {cycles} cycles)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
