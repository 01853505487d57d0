"""Our asc2 kernels for the published points, by the name a point's "kernel" gives.

Each entry is called as ``run(cores=<point's cores>, **<point's params>)`` and returns a
:class:`common.Measurement` (cycles of the launch or launches, the numpy check).
"""

from . import channels, devkit, gemm, mn_blocks, rows, tiles


def _mn_tiles(cores, cases):
    if cores != max(case[3] for case in cases):
        raise ValueError(f"point says {cores} cores, its launches use {[case[3] for case in cases]}")
    return mn_blocks.run_mn_tiles(cases)


KERNELS = {
    "gemm_abt": gemm.run,
    "gemm_abt_tiles": gemm.run_tiles,
    "unary_tiles": tiles.run_unary,
    "binary_tiles": tiles.run_binary,
    "adam_tiles": tiles.run_adam,
    "row_sums": rows.run_row_sums,
    "softmax_block": rows.run_softmax,
    "rms_norm": rows.run_rms_norm,
    "layer_norm_rows": rows.run_layer_norm,
    "batch_norm": channels.run_batch_norm,
    "batched_matmul": mn_blocks.run_batched,
    "mn_tiles": _mn_tiles,
    "add_rows": devkit.run_add_rows,
    "add_stream": devkit.run_add_stream,
    "gelu_blocks": devkit.run_gelu_blocks,
    "mm_blocks": devkit.run_mm_blocks,
    "mm_gelu_blocks": devkit.run_mm_gelu_blocks,
}
