"""A new kernel: out = x + y, tile by tile, checked against numpy.

F5 runs it on the simulator; the views on the right fill in as it compiles.
"""
import numpy as np

import asc2


@asc2.jit
def kernel(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress,
           size: int, TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    y_gm = asc2.global_tensor(y_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    # Each core takes every block_num()-th tile.
    for tile in asc2.range(asc2.block_idx(), asc2.ceildiv(size, TILE), asc2.block_num()):
        x = asc2.copy_in(x_gm, [tile * TILE], [TILE])
        y = asc2.copy_in(y_gm, [tile * TILE], [TILE])
        asc2.copy_out(x + y, out_gm, [tile * TILE])


n = 4096
rng = np.random.default_rng(0)
x = rng.standard_normal(n).astype(np.float32)
y = rng.standard_normal(n).astype(np.float32)
out = np.zeros(n, dtype=np.float32)
kernel[8](x, y, out, n, TILE=256)
if kernel.last_report["launch"] is None:
    print("compiled (Compile Only: nothing ran)")
else:
    print("max abs error:", float(np.max(np.abs(out - (x + y)))))
