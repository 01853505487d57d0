"""The frontend's IR text: shape of the vadd kernel, locations, folding, control flow."""

import re

import numpy as np
import pytest

import asc2
from conftest import line_of
from vadd import vadd

X32 = np.zeros(1024, np.float32)
X16 = np.zeros(1024, np.float16)


def op_lines(ir):
    """Lines that hold an op (not region punctuation or the module)."""
    out = []
    for line in ir.splitlines():
        s = line.strip()
        if not s or s in ("module {", "}", "} else {") or s.startswith("func.func") or s.endswith("{"):
            continue
        out.append(s)
    return out


def test_vadd_ir_shape():
    ir = vadd.ir(X32, X32, X32, 1000, 1, TILE=256)
    assert ir.startswith("module {")
    assert ('func.func @vadd(%arg0: !asctile.ptr<f32>' in ir)
    assert 'asctile.arg_names = ["x_ptr", "y_ptr", "out_ptr", "size", "tiles_per_block"]' in ir
    assert "asctile.kernel" in ir
    assert ir.count("asctile.tensor %arg") == 3
    assert "!asctile.tensor<?xf32>" in ir
    assert "asctile.block_idx" in ir
    assert "arith.constant 256 : index" in ir  # TILE folded
    assert re.search(r"scf\.for %i = %c0 to %arg4 step %c1 \{", ir)
    assert ir.count("asctile.load") == 2
    assert "-> !asctile.tile<256xf32, UB>" in ir
    assert re.search(r"arith\.addf %\d+, %\d+ : !asctile\.tile<256xf32, UB>", ir)
    assert re.search(r"asctile\.store %\d+, %2\[%\d+\] : !asctile\.tile<256xf32, UB>, !asctile\.tensor<\?xf32>", ir)
    assert "{asctile.unroll_factor = 1 : i64, asctile.parallel = false}" in ir
    assert "TILE" not in ir.split("attributes")[1].split("}")[0]  # ConstExpr is not an argument


def test_every_op_has_a_source_location():
    ir = vadd.ir(X32, X32, X32, 1000, 1, TILE=256)
    file = vadd.source.file
    for line in op_lines(ir):
        assert f'loc("{file}":' in line, line
    body = line_of(vadd, "asc2.copy_out(x + y")
    assert re.search(rf'arith\.addf .* loc\("{re.escape(file)}":{body}:23\)', ir)
    assert re.search(rf'asctile\.store .* loc\("{re.escape(file)}":{body}:9\)', ir)


def test_f16_and_constexpr_specialisation():
    ir = vadd.ir(X16, X16, X16, 1000, 2, TILE=512)
    assert "!asctile.ptr<f16>" in ir
    assert "!asctile.tile<512xf16, UB>" in ir
    assert "arith.constant 512 : index" in ir
    assert "arith.addf" in ir


def test_constexpr_wrapper_and_keyword_binding():
    ir = vadd.ir(X32, X32, X32, asc2.ConstExpr(1024), 4, TILE=256)
    # A static size gives a static tensor and no size argument.
    assert "!asctile.tensor<1024xf32>" in ir
    assert '"size"' not in ir


@asc2.jit
def _helper(a, b):
    return asc2.maximum(a, b) * 2.0


@asc2.jit
def _control_flow(x_ptr, out_ptr, size: int, num_tiles: int, scale: float, tile: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    acc = 0.0
    count = 0
    for t in asc2.range(asc2.block_idx(), num_tiles, asc2.block_num(), unroll_factor=2):
        off = t * tile
        n = tile if off + tile <= size else size - off
        x = asc2.copy_in(x_gm, [off], [tile], real_shape=[n])
        y = _helper(asc2.exp(-x), x) + scale
        if n < tile:
            count = count + 1
        acc = acc + y
        for j in asc2.static_range(2):
            y = y * (j + 1)
        asc2.copy_out(asc2.relu(y), out_gm, [off], real_shape=[n])
    asc2.copy_out(acc / size, out_gm, [0])


def test_control_flow_ir():
    ir = _control_flow.ir(X32, X32, 1000, 4, 1.5, tile=256)
    assert "%arg4: f32" in ir
    # acc (tile) and count (index) are loop-carried.
    assert re.search(r"= scf\.for %t = %\d+ to %arg3 step %\d+ iter_args\(.*\) -> "
                     r"\(!asctile\.tile<256xf32, UB>, index\) \{", ir)
    assert "{asctile.unroll_factor = 2 : i64, asctile.parallel = false}" in ir
    assert re.search(r"= scf\.if %\d+ -> \(index\) \{", ir)
    assert "arith.select" in ir and "arith.cmpi sle" in ir
    assert "math.exp" in ir and "arith.maximumf" in ir
    assert "asctile.splat %arg4 : f32 -> !asctile.tile<256xf32, UB>" in ir
    assert ir.count("scf.yield") == 3
    # the helper's ops point into the helper
    helper_line = line_of(_helper, "return asc2.maximum")
    assert f'{_helper.source.file}":{helper_line}:' in ir


@asc2.jit
def _static_shapes(x_ptr, out_ptr, rows: int, COLS: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [rows, COLS])
    out_gm = asc2.global_tensor(out_ptr, [rows, COLS])
    shape = (1, COLS)
    for r in range(rows):
        t = asc2.copy_in(x_gm, [r, 0], shape, pad_value=0.0)
        asc2.copy_out(asc2.sqrt(asc2.abs(t)) - 1, out_gm, [r, 0])


def test_2d_tiles_and_pad_value():
    ir = _static_shapes.ir(np.zeros((4, 64), np.float32), np.zeros((4, 64), np.float32), 4, COLS=64)
    assert "!asctile.tensor<?x64xf32>" in ir
    assert "{pad_value = 0.0 : f32}" in ir
    assert "!asctile.tile<1x64xf32, UB>" in ir
    assert "math.absf" in ir and "math.sqrt" in ir and "arith.subf" in ir


def test_ir_parses_with_asc2_opt(parse_ir):
    parse_ir(vadd.ir(X32, X32, X32, 1000, 1, TILE=256))
    parse_ir(vadd.ir(X16, X16, X16, 1000, 1, TILE=256))
    parse_ir(_control_flow.ir(X32, X32, 1000, 4, 1.5, tile=256))
    parse_ir(_static_shapes.ir(np.zeros((4, 64), np.float32), np.zeros((4, 64), np.float32), 4, COLS=64))


def test_outside_kernel_calls_explain_themselves():
    with pytest.raises(RuntimeError, match="inside an @asc2.jit kernel"):
        asc2.block_idx()
    assert asc2.ceildiv(1000, 256) == 4
