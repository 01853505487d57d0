"""Sync insertion in MIX kernels, every direction of hand-off between the cube and the vector core.

Each kernel is checked against numpy and must run race-free on Ascend910B1 and Ascend950:
- vector -> cube: a ReLU on the vector core feeds a matmul through a GM workspace, in a block loop
  (the flags of an unrolled, ping-ponged body were left without a core and ran a V flag on the AIC);
- cube -> vector -> cube: an attention block, S = Q·Kᵀ, a row softmax on the vector core, P·V;
- flash attention (per query block, a loop over key/value blocks: Q·Kᵀ on the cube core, the online
  softmax on the vector core, P·V back on the cube core): four cross-core hand-offs per trip, whose
  flag ids once shared one hardware counter per direction (a wait could consume another hand-off's
  set: a race on the P workspace from the second key/value block on);
- cube -> vector, then cube work of its own: the second matmul's L1 staging reuses the first one's
  while the vector core waits for the first result (the planner used to count the vector core's
  wait for the fixpipe as ordering the cube's MTE2, a real WAR race on L1).
"""

import numpy as np
import pytest

import asc2
from conftest import in_child_process, requires_native

L0A, L0B = asc2.TensorLocation.L0A, asc2.TensorLocation.L0B
PLATFORMS = ["Ascend910B1", "Ascend950"]


@asc2.jit
def relu_then_matmul(a_ptr, b_ptr, ws_ptr, c_ptr, M: asc2.ConstExpr[int], N: asc2.ConstExpr[int],
                     K: asc2.ConstExpr[int], BM: asc2.ConstExpr[int]):
    a_gm = asc2.global_tensor(a_ptr, [M, K])
    b_gm = asc2.global_tensor(b_ptr, [K, N])
    ws = asc2.global_tensor(ws_ptr, [M, K])
    c_gm = asc2.global_tensor(c_ptr, [M, N])
    for blk in asc2.range(asc2.block_idx(), M // BM, asc2.block_num()):
        m0 = blk * BM
        x = asc2.copy_in(a_gm, [m0, 0], [BM, K])
        asc2.copy_out(asc2.relu(x), ws, [m0, 0])                 # vector -> GM
        a = asc2.copy_in(ws, [m0, 0], [BM, K], location=L0A)     # GM -> cube
        b = asc2.copy_in(b_gm, [0, 0], [K, N], location=L0B)
        asc2.copy_out(a @ b, c_gm, [m0, 0])


@asc2.jit
def attention_block(q_ptr, kt_ptr, v_ptr, s_ptr, p_ptr, o_ptr, S: asc2.ConstExpr[int],
                    D: asc2.ConstExpr[int]):
    q_gm = asc2.global_tensor(q_ptr, [S, D])
    kt_gm = asc2.global_tensor(kt_ptr, [D, S])
    v_gm = asc2.global_tensor(v_ptr, [S, D])
    s_gm = asc2.global_tensor(s_ptr, [S, S])
    p_gm = asc2.global_tensor(p_ptr, [S, S])
    o_gm = asc2.global_tensor(o_ptr, [S, D])
    q = asc2.copy_in(q_gm, [0, 0], [S, D], location=L0A)
    kt = asc2.copy_in(kt_gm, [0, 0], [D, S], location=L0B)
    asc2.copy_out(q @ kt, s_gm, [0, 0])                          # cube -> GM
    s = asc2.copy_in(s_gm, [0, 0], [S, S])                       # GM -> vector
    e = asc2.exp(s - s.max(1, keep_dims=True))
    p = e / e.sum(1, keep_dims=True)
    asc2.copy_out(p.astype(asc2.float16), p_gm, [0, 0])          # vector -> GM
    pa = asc2.copy_in(p_gm, [0, 0], [S, S], location=L0A)        # GM -> cube
    v = asc2.copy_in(v_gm, [0, 0], [S, D], location=L0B)
    asc2.copy_out(pa @ v, o_gm, [0, 0])


@asc2.jit
def two_matmuls_around_an_epilogue(a_ptr, b_ptr, ws_ptr, y_ptr, c_ptr, N: asc2.ConstExpr[int]):
    a_gm = asc2.global_tensor(a_ptr, [N, N])
    b_gm = asc2.global_tensor(b_ptr, [N, N])
    ws = asc2.global_tensor(ws_ptr, [N, N])
    y_gm = asc2.global_tensor(y_ptr, [N, N])
    c_gm = asc2.global_tensor(c_ptr, [N, N])
    a = asc2.copy_in(a_gm, [0, 0], [N, N], location=L0A)
    b = asc2.copy_in(b_gm, [0, 0], [N, N], location=L0B)
    asc2.copy_out(a @ b, ws, [0, 0])
    x = asc2.copy_in(ws, [0, 0], [N, N])
    asc2.copy_out(asc2.relu(x), y_gm, [0, 0])
    a2 = asc2.copy_in(b_gm, [0, 0], [N, N], location=L0A)      # independent of the vector core
    b2 = asc2.copy_in(a_gm, [0, 0], [N, N], location=L0B)
    asc2.copy_out(a2 @ b2, c_gm, [0, 0])


def _races(kernel):
    return [r["message"] if isinstance(r, dict) else str(r) for r in kernel.last_report["launch"]["races"]]


def _relu_then_matmul(platform):
    asc2.set_platform(backend="Model", platform=platform)
    m, n, k, bm = 256, 64, 64, 64
    rng = np.random.default_rng(3)
    a = rng.integers(-3, 4, (m, k)).astype(np.float16)
    b = rng.integers(-3, 4, (k, n)).astype(np.float16)
    ws = np.zeros((m, k), np.float16)
    c = np.zeros((m, n), np.float32)
    relu_then_matmul[2](a, b, ws, c, m, n, k, bm)
    np.testing.assert_array_equal(c, np.maximum(a, 0).astype(np.float32) @ b.astype(np.float32))
    return relu_then_matmul.last_report["options"], _races(relu_then_matmul)


def _attention_block(platform):
    asc2.set_platform(backend="Model", platform=platform)
    s_len, d = 64, 64
    rng = np.random.default_rng(4)
    q = (rng.standard_normal((s_len, d)) * 0.2).astype(np.float16)
    kt = (rng.standard_normal((d, s_len)) * 0.2).astype(np.float16)
    v = rng.standard_normal((s_len, d)).astype(np.float16)
    s = np.zeros((s_len, s_len), np.float32)
    p = np.zeros((s_len, s_len), np.float16)
    o = np.zeros((s_len, d), np.float32)
    attention_block[1](q, kt, v, s, p, o, s_len, d)
    scores = q.astype(np.float32) @ kt.astype(np.float32)
    np.testing.assert_allclose(s, scores, rtol=1e-6, atol=1e-6)
    e = np.exp(scores - scores.max(1, keepdims=True))
    probs = (e / e.sum(1, keepdims=True)).astype(np.float16)
    np.testing.assert_allclose(p.astype(np.float32), probs.astype(np.float32), rtol=2e-3, atol=1e-4)
    np.testing.assert_allclose(o, p.astype(np.float32) @ v.astype(np.float32), rtol=1e-5, atol=1e-5)
    return _races(attention_block)


def _flash_attention(platform, s_len, d):
    """samples/flash_attention.py on 2 blocks, its numbers against its float64 reference."""
    import importlib.util
    import os

    from conftest import ROOT
    spec = importlib.util.spec_from_file_location("flash_attention_sample",
                                                  os.path.join(ROOT, "samples", "flash_attention.py"))
    sample = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sample)
    asc2.set_platform(backend="Model", platform=platform)
    err, _ = sample.run(s_len, d, cores=2, seed=6)
    # P goes to the cube core as float16: a relative error of ~1e-3 per probability.
    assert err <= 5e-3
    return _races(sample.flash_attention)


def _two_matmuls(platform):
    asc2.set_platform(backend="Model", platform=platform)
    n = 64
    rng = np.random.default_rng(5)
    a = rng.integers(-3, 4, (n, n)).astype(np.float16)
    b = rng.integers(-3, 4, (n, n)).astype(np.float16)
    ws, y, c = (np.zeros((n, n), np.float32) for _ in range(3))
    two_matmuls_around_an_epilogue[1](a, b, ws, y, c, n)
    fa, fb = a.astype(np.float32), b.astype(np.float32)
    np.testing.assert_array_equal(y, np.maximum(fa @ fb, 0))
    np.testing.assert_array_equal(c, fb @ fa)
    return _races(two_matmuls_around_an_epilogue)


@requires_native
@pytest.mark.parametrize("platform", PLATFORMS)
def test_vector_prologue_feeds_the_cube(platform):
    options, races = in_child_process(_relu_then_matmul, platform)
    assert options["kernel_type"] == "MIX"
    assert races == []


@requires_native
@pytest.mark.parametrize("platform", PLATFORMS)
def test_cube_vector_cube_attention_block(platform):
    assert in_child_process(_attention_block, platform) == []


@requires_native
@pytest.mark.parametrize("platform", PLATFORMS)
def test_cube_work_after_a_hand_off_waits_on_its_own_core(platform):
    assert in_child_process(_two_matmuls, platform) == []


@requires_native
@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("s_len,d", [(128, 64), (256, 64), (192, 128)])
def test_flash_attention_over_several_key_value_blocks(platform, s_len, d):
    assert in_child_process(_flash_attention, platform, s_len, d) == []
