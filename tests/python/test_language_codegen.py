"""The IR the tile language produces (the asctile contract), checked as text and by asc2-opt's verifiers.

These need no lowering: they pin down what the frontend emits for each op
family, so a numeric failure elsewhere can be told apart from a frontend bug.
"""

import re

import numpy as np
import pytest

import asc2

F32 = np.zeros((4, 64), np.float32)
F16 = np.zeros((4, 64), np.float16)
I32 = np.zeros((4, 64), np.int32)
I16 = np.zeros((4, 64), np.int16)


def body(ir):
    """The ops without their locations."""
    return "\n".join(re.sub(r" loc\(.*\)$", "", line).strip() for line in ir.splitlines())


@asc2.jit
def two_tiles(x_ptr, y_ptr, out_ptr, OP: asc2.ConstExpr, XS: asc2.ConstExpr, YS: asc2.ConstExpr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [4, 64]), [0, 0], XS)
    y = asc2.copy_in(asc2.global_tensor(y_ptr, [4, 64]), [0, 0], YS)
    out = OP(x, y)
    asc2.copy_out(out, asc2.global_tensor(out_ptr, [4, 64]), [0, 0])


def ir_of(op, x=F32, y=F32, out=None, xs=(4, 64), ys=(4, 64)):
    return body(two_tiles.ir(x, y, out if out is not None else x, OP=op, XS=xs, YS=ys))


@pytest.mark.parametrize("op,dtype,expected", [
    (asc2.add, F32, "arith.addf"), (asc2.sub, I32, "arith.subi"), (asc2.mul, F16, "arith.mulf"),
    (asc2.div, I16, "arith.divsi"), (asc2.maximum, F32, "arith.maximumf"), (asc2.minimum, I32, "arith.minsi"),
    (asc2.floordiv, I32, "arith.floordivsi"), (asc2.bitwise_and, I32, "arith.andi"),
    (asc2.bitwise_or, I16, "arith.ori"), (asc2.bitwise_xor, I32, "arith.xori"), (asc2.left_shift, I32, "arith.shli"),
    (asc2.right_shift, I16, "arith.shrsi"),
])
def test_binary_ops(op, dtype, expected, parse_ir):
    ir = ir_of(op, dtype, dtype)
    ty = f"!asctile.tile<4x64x{ {np.float32: 'f32', np.float16: 'f16', np.int32: 'i32', np.int16: 'i16'}[dtype.dtype.type]}, UB>"
    assert re.search(rf"= {expected} %\d+, %\d+ : {re.escape(ty)}", ir), ir
    parse_ir(two_tiles.ir(dtype, dtype, dtype, OP=op, XS=(4, 64), YS=(4, 64)))


def test_float_floordiv_is_divide_then_floor(parse_ir):
    ir = ir_of(asc2.floordiv)
    assert re.search(r"%(\d+) = arith\.divf .*\n%\d+ = math\.floor %\1 :", ir), ir


def test_promotion_casts_the_narrower_side(parse_ir):
    ir = ir_of(asc2.add, F16, F32, out=F32)
    assert re.search(r"asctile\.cast %\d+ round none : !asctile\.tile<4x64xf16, UB> -> !asctile\.tile<4x64xf32, UB>",
                     ir)
    assert "arith.addf" in ir and ": !asctile.tile<4x64xf32, UB>" in ir
    ir = ir_of(asc2.mul, I32, F16, out=F16)
    assert "asctile.cast" in ir and "-> !asctile.tile<4x64xf16, UB>" in ir and "arith.mulf" in ir
    parse_ir(two_tiles.ir(F16, F32, F32, OP=asc2.add, XS=(4, 64), YS=(4, 64)))


def test_broadcast_is_inserted(parse_ir):
    ir = ir_of(asc2.sub, xs=(4, 64), ys=(1, 64))
    assert re.search(r"%(\d+) = asctile\.broadcast %\d+ : !asctile\.tile<1x64xf32, UB> -> "
                     r"!asctile\.tile<4x64xf32, UB>\n%\d+ = arith\.subf %\d+, %\1 :", ir), ir
    parse_ir(two_tiles.ir(F32, F32, F32, OP=asc2.sub, XS=(4, 64), YS=(1, 64)))


@pytest.mark.parametrize("op,pred", [(asc2.less, "lt"), (asc2.less_equal, "le"), (asc2.greater, "gt"),
                                     (asc2.greater_equal, "ge"), (asc2.equal, "eq"), (asc2.not_equal, "ne")])
def test_comparisons_give_bool_tiles(op, pred):
    @asc2.jit
    def k(x_ptr, y_ptr, out_ptr):
        x = asc2.copy_in(asc2.global_tensor(x_ptr, [4, 64]), [0, 0], [4, 64])
        y = asc2.copy_in(asc2.global_tensor(y_ptr, [4, 64]), [0, 0], [4, 64])
        asc2.copy_out(asc2.where(op(x, y), x, 1.0), asc2.global_tensor(out_ptr, [4, 64]), [0, 0])

    ir = body(k.ir(F32, F32, F32))
    assert f"asctile.cmp {pred}, " in ir and "-> !asctile.tile<4x64xi1, UB>" in ir
    assert re.search(r"asctile\.select %\d+, %\d+, %\d+ : !asctile\.tile<4x64xi1, UB>, !asctile\.tile<4x64xf32, UB>",
                     ir)


@asc2.jit
def scalar_ops(x_ptr, out_ptr, s: float, n: int):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [4, 64]), [0, 0], [4, 64])
    y = (x > s) | (x < -1.0)
    z = asc2.where(y, x * s, x + n)
    asc2.copy_out(z, asc2.global_tensor(out_ptr, [4, 64]), [0, 0])


def test_scalar_operands_are_splatted(parse_ir):
    ir = body(scalar_ops.ir(F32, F32, 0.5, 3))
    assert "%arg2: f32" in scalar_ops.ir(F32, F32, 0.5, 3)
    assert "asctile.splat %arg2 : f32 -> !asctile.tile<4x64xf32, UB>" in ir
    assert re.search(r"arith\.index_cast %arg3 : index to i64\n%\d+ = arith\.sitofp %\d+ : i64 to f32", ir)
    assert "arith.ori" in ir and ": !asctile.tile<4x64xi1, UB>" in ir
    parse_ir(scalar_ops.ir(F32, F32, 0.5, 3))
    ir16 = body(scalar_ops.ir(F16, F16, 0.5, 3))
    assert "arith.truncf %arg2 : f32 to f16" in ir16  # scalars do not widen an f16 tile
    parse_ir(scalar_ops.ir(F16, F16, 0.5, 3))


@asc2.jit
def one_tile(x_ptr, out_ptr, OP: asc2.ConstExpr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [4, 64]), [0, 0], [4, 64])
    asc2.copy_out(OP(x), asc2.global_tensor(out_ptr, [4, 64]), [0, 0])


@pytest.mark.parametrize("name", ["exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "tan", "sinh", "cosh",
                                  "tanh", "erf", "ceil", "floor", "abs"])
def test_unary_math(name, parse_ir):
    text = one_tile.ir(F16, F16, OP=getattr(asc2, name))
    ir = body(text)
    parse_ir(text)
    expected = "math.absf" if name == "abs" else f"math.{name}"
    assert re.search(rf"= {expected} %\d+ : !asctile\.tile<4x64xf16, UB>", ir)


@asc2.jit
def unary_ints(x_ptr, out_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [4, 64]), [0, 0], [4, 64])
    asc2.copy_out(asc2.maximum(-abs(x), 0) + ~x, asc2.global_tensor(out_ptr, [4, 64]), [0, 0])


def test_integer_unary(parse_ir):
    ir = body(unary_ints.ir(I32, I32))
    assert "math.absi" in ir and "arith.maxsi" in ir and "arith.subi" in ir
    assert "arith.constant -1 : i32" in ir and "arith.xori" in ir
    parse_ir(unary_ints.ir(I32, I32))


@asc2.jit
def reductions(x_ptr, out_ptr, s_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [4, 64]), [0, 0], [4, 64])
    centered = x - x.max(axis=1, keep_dims=True)
    col = asc2.reduce_sum(centered, 0)
    total = asc2.reduce_sum(x)
    low = x.min(0, 1, keep_dims=True)
    asc2.copy_out(centered + col + total + asc2.broadcast_to(low, [4, 64]), asc2.global_tensor(out_ptr, [4, 64]),
                  [0, 0])
    asc2.copy_out(total, asc2.global_tensor(s_ptr, [8]), [0])


def test_reductions(parse_ir):
    ir = body(reductions.ir(F32, F32, np.zeros(8, np.float32)))
    assert re.search(r"asctile\.reduce max %\d+ dims \[1\] keep_dims : !asctile\.tile<4x64xf32, UB> -> "
                     r"!asctile\.tile<4x1xf32, UB>", ir)
    assert "asctile.broadcast" in ir
    assert re.search(r"asctile\.reduce sum %\d+ dims \[0\] : !asctile\.tile<4x64xf32, UB> -> "
                     r"!asctile\.tile<64xf32, UB>", ir)
    assert re.search(r"asctile\.reduce sum %\d+ dims \[0, 1\] : !asctile\.tile<4x64xf32, UB> -> f32", ir)
    assert re.search(r"asctile\.reduce min %\d+ dims \[0, 1\] keep_dims : .* -> !asctile\.tile<1x1xf32, UB>", ir)
    assert re.search(r"asctile\.reshape %\d+ : !asctile\.tile<64xf32, UB> -> !asctile\.tile<1x64xf32, UB>", ir)
    assert re.search(r"asctile\.set_value %\d+, %\d+\[%c0\] : f32, !asctile\.tensor<8xf32>", ir)
    parse_ir(reductions.ir(F32, F32, np.zeros(8, np.float32)))


@asc2.jit
def shapes(x_ptr, out_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [4, 64]), [0, 0], [4, 64])
    flat = x.ravel()
    back = asc2.reshape(flat, 2, 128).reshape([-1, 64])
    row = asc2.expand_dims(asc2.squeeze(asc2.copy_in(asc2.global_tensor(x_ptr, [4, 64]), [1, 0], [1, 64])), 0)
    asc2.copy_out(back + asc2.broadcast_to(row, (4, 64)), asc2.global_tensor(out_ptr, [4, 64]), [0, 0])


def test_shapes(parse_ir):
    ir = body(shapes.ir(F32, F32))
    for src, dst in [("4x64", "256"), ("256", "2x128"), ("2x128", "4x64"), ("1x64", "64"), ("64", "1x64")]:
        assert f"asctile.reshape %" in ir and f"!asctile.tile<{src}xf32, UB> -> !asctile.tile<{dst}xf32, UB>" in ir
    parse_ir(shapes.ir(F32, F32))


@asc2.jit
def creation(out_ptr, v, DT: asc2.ConstExpr):
    a = asc2.full([4, 64], 2, DT) + asc2.zeros([4, 64], DT)
    b = asc2.full_like(a, v) * asc2.zeros_like(a) + asc2.number(3, DT)
    asc2.copy_out(asc2.cast(a + b, asc2.float32, "rint"), asc2.global_tensor(out_ptr, [4, 64]), [0, 0])


def test_creation_and_cast(parse_ir):
    ir = body(creation.ir(F32, 1.5, DT=asc2.float16))
    assert "arith.constant 2.0 : f16" in ir and "arith.constant 0.0 : f16" in ir and "arith.constant 3.0 : f16" in ir
    assert "arith.truncf %arg1 : f32 to f16" in ir
    assert re.search(r"asctile\.cast %\d+ round rint : !asctile\.tile<4x64xf16, UB> -> !asctile\.tile<4x64xf32, UB>",
                     ir)
    parse_ir(creation.ir(F32, 1.5, DT=asc2.float16))
    ir = body(creation.ir(F32, 4, DT=asc2.int32))
    assert "arith.constant 2 : i32" in ir and "arith.index_cast %arg1 : index to i32" in ir
    parse_ir(creation.ir(F32, 4, DT=asc2.int32))


@asc2.jit
def memory(x_ptr, idx_ptr, out_ptr, n: int):
    x_gm = asc2.global_tensor(x_ptr, [n, 64])
    idx_gm = asc2.global_tensor(idx_ptr, [8])
    out_gm = asc2.global_tensor(out_ptr, [n, 64])
    r = asc2.copy_in(idx_gm, [asc2.block_idx()])
    v = asc2.copy_in(x_gm, [r, 3])
    t = asc2.copy_in(x_gm, [r, 0], [2, 64], pad_value=-1)
    asc2.atomic_add(t * v, out_gm, [r, 0])
    asc2.atomic_max(t, out_gm, [0, 0])
    asc2.atomic_min(t, out_gm, [0, 0])
    asc2.copy_out(v + 1.0, out_gm, [r, 1])


def test_scalar_memory_and_atomics(parse_ir):
    text = memory.ir(F32, np.zeros(8, np.int32), F32, 4)
    ir = body(text)
    assert re.search(r"%(\d+) = asctile\.get_value %\d+\[%\d+\] : !asctile\.tensor<8xi32> -> i32\n"
                     r"%\d+ = arith\.index_cast %\1 : i32 to index", ir)
    assert re.search(r"asctile\.get_value %\d+\[%\d+, %c3\] : !asctile\.tensor<\?x64xf32> -> f32", ir)
    assert "{pad_value = -1.0 : f32}" in ir
    for kind in ("add", "max", "min"):
        assert re.search(rf"asctile\.atomic_rmw {kind}, %\d+, %\d+\[%\S+, %c0\] : !asctile\.tile<2x64xf32, UB>, "
                         r"!asctile\.tensor<\?x64xf32>", ir)
    assert re.search(r"asctile\.set_value %\d+, %\d+\[%\d+, %c1\] : f32, !asctile\.tensor<\?x64xf32>", ir)
    parse_ir(text)


@asc2.jit
def fused(x_ptr, g_ptr, out_ptr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [4, 64]), [0, 0], [4, 64])
    g = asc2.copy_in(asc2.global_tensor(g_ptr, [64]), [0], [64])
    y = asc2.softmax(x) + asc2.rms_norm(x, g) + asc2.layer_norm(x, g, asc2.zeros([1, 64], asc2.float32), 1e-3)
    asc2.copy_out(y, asc2.global_tensor(out_ptr, [4, 64]), [0, 0])


def test_fused_ops(parse_ir):
    text = fused.ir(F32, np.zeros(64, np.float32), F32)
    ir = body(text)
    assert re.search(r"asctile\.softmax %\d+ : !asctile\.tile<4x64xf32, UB>", ir)
    assert re.search(r"asctile\.rms_norm %\d+, %\d+ eps 1\.0e-06 : !asctile\.tile<4x64xf32, UB>, "
                     r"!asctile\.tile<1x64xf32, UB>", ir)
    assert re.search(r"asctile\.layer_norm %\d+, %\d+, %\d+ eps 0\.001 : ", ir)
    parse_ir(text)


@asc2.jit
def nested_helper(x):
    return asc2.where(x >= 0, x, x * 0.1)


@asc2.jit
def loop_attrs(x_ptr, out_ptr, n: int):
    x_gm = asc2.global_tensor(x_ptr, [n])
    out_gm = asc2.global_tensor(out_ptr, [n])
    for i in asc2.range(asc2.block_idx(), n // 256, asc2.block_num(), unroll_factor=2, gm_barrier=False):
        asc2.copy_out(nested_helper(asc2.copy_in(x_gm, [i * 256], [256])), out_gm, [i * 256])


def test_loop_attributes_and_inlined_helper(parse_ir):
    x = np.zeros(1024, np.float32)
    text = loop_attrs.ir(x, x, 1024)
    assert "{asctile.unroll_factor = 2 : i64, asctile.parallel = true}" in text
    assert f'loc("{nested_helper.source.file}"' in text and "asctile.select" in text
    parse_ir(text)
