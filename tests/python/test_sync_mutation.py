"""Sync mutation testing: every wait_flag the compiler inserts must be needed, and the
simulator must notice when it is gone.

For each sample kernel, at a small shape with several loop trips per core, each inserted
wait_flag k is dropped in turn (``native.launch(..., drop_wait=k)``; k counts the wait_flag
entries of ``report["sync"]`` in program order) and the kernel is simulated again.  The
removal is *caught* when the run reports a data race or fails with any error other than the
end-of-kernel flag leak.  A drain (role ``drain``) guards no later access, so removing it must
produce exactly the leak and nothing else.  A wait on the skipped path of an unrolled copy's
bounds guard (role ``skip``, the twin of a wait inside the copy) only runs on a loop's last,
partial trip; when the launch never takes that path, its removal must instead be caught
statically: the final IR without it fails ``ascendc-verify-sync`` (the guard's arms disagree).  A removal that is not caught is either a
redundant flag (a compiler inefficiency) or a hole in the race detector; either way the test
fails, naming the wait, its pipes and its reason.

Buffer-id sync (Ascend950) gets the same treatment with its get_bufs (``check_buf_ids``).

Run as a script for the per-kernel summary table:
    PYTHONPATH=build/python /usr/bin/python3 tests/python/test_sync_mutation.py
"""

import os
import sys

import numpy as np
import pytest

import asc2

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from conftest import ROOT, in_child_process, requires_native  # noqa: E402
from kernelgen import caught_statically, runtime_args  # noqa: E402

if os.path.join(ROOT, "samples") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "samples"))

LEAK = "flag left set at the end of the kernel"

# (kernel name, substring of the wait's reason) -> why dropping that wait is known to go unnoticed.
# Each entry claims the wait is redundant (a compiler inefficiency, reported on the tracker): the
# test asserts it is still there and still not caught, so once the compiler stops emitting the
# flag (or the detector starts catching it) the entry fails as stale and must be deleted.
KNOWN_REDUNDANT = {
    # Empty: the single-buffered layer_norm pair (beta's load and the loop's result sharing bytes, a
    # transitively ordered RAW) went when its broadcasts stopped needing tiles of their own.
}


class Case:
    """One kernel launch: kernel[block_num](*args, **constexprs)."""

    def __init__(self, name, kernel, block_num, make_args, constexprs):
        self.name = name
        self.kernel = kernel
        self.block_num = block_num
        self.make_args = make_args
        self.constexprs = constexprs

    def single_buffered(self):
        """The same launch with multi-buffering off (num_stages=1): other flags, other event ids."""
        return Case(self.name + "[num_stages=1]", asc2.jit(num_stages=1)(self.kernel.fn), self.block_num,
                    self.make_args, self.constexprs)

    def compile(self):
        args = self.make_args()
        compiled = self.kernel.compile(*args, **self.constexprs)
        return compiled, runtime_args(self.kernel, args, self.constexprs)


def _f32(*shape, seed=0, scale=1.0):
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(np.float32)


def sample_cases():
    """Small launches of every sample kernel, each core running several loop trips."""
    import cast
    import gelu
    import layer_norm
    import leaky_relu
    import reduce_sum
    import rms_norm
    import softmax
    import vadd
    import where

    n = 2 * 256 * 5 + 77  # 2 cores x 5-6 tiles of 256, a partial last tile
    tiles_per_block = -(-(-(-n // 256)) // 2)

    def zeros(*shape, dtype=np.float32):
        return np.zeros(shape, dtype)

    # Row loops take 8 rows per trip (asctile-batch-rows): 2 cores x 2-3
    # trips of 8 rows, a partial last block, so both ping/pong copies run.
    rows, cols = 2 * 8 * 2 + 11, 256
    norm_rows = 22
    return [
        Case("vadd", vadd.vadd, 2, lambda: (_f32(n), _f32(n, seed=1), zeros(n), n, tiles_per_block), {"TILE": 256}),
        Case("softmax", softmax.softmax, 2, lambda: (_f32(rows, cols, scale=3), zeros(rows, cols), rows, cols),
             {"TILE": cols}),
        Case("softmax_fused", softmax.softmax_fused, 2,
             lambda: (_f32(rows, cols, scale=3), zeros(rows, cols), rows, cols), {"TILE": cols}),
        Case("gelu", gelu.gelu, 2, lambda: (_f32(n), zeros(n), n), {"TILE": 256}),
        Case("rms_norm", rms_norm.rms_norm, 2,
             lambda: (_f32(norm_rows, 128), np.ones((1, 128), np.float32), zeros(norm_rows, 128), norm_rows),
             {"eps": 1e-6, "ROWS": 2, "COLS": 128}),
        Case("rms_norm_fused", rms_norm.rms_norm_fused, 2,
             lambda: (_f32(norm_rows, 128), np.ones((1, 128), np.float32), zeros(norm_rows, 128), norm_rows),
             {"eps": 1e-6, "ROWS": 2, "COLS": 128}),
        Case("layer_norm", layer_norm.layer_norm, 2,
             lambda: (_f32(rows, cols), _f32(1, cols, seed=1), _f32(1, cols, seed=2), zeros(rows, cols), rows, 1e-5),
             {"COLS": cols}),
        Case("layer_norm_fused", layer_norm.layer_norm_fused, 2,
             lambda: (_f32(rows, cols), _f32(cols, seed=1), _f32(cols, seed=2), zeros(rows, cols), rows),
             {"eps": 1e-5, "COLS": cols}),
        Case("leaky_relu", leaky_relu.leaky_relu_kernel, 2, lambda: (_f32(n), zeros(n), n, 0.1), {"TILE": 256}),
        Case("reduce_sum", reduce_sum.reduce_sum, 2, lambda: (_f32(n), zeros(256), n), {"TILE": 256}),
        Case("reduce_sum.finish", reduce_sum.finish, 1, lambda: (_f32(256), zeros(8)), {"TILE": 256}),
        Case("where", where.select, 2, lambda: (_f32(n), _f32(n, seed=1), zeros(n), zeros(n), n, 0.5), {"TILE": 256}),
        Case("cast.round_trip", cast.round_trip, 2,
             lambda: (_f32(n, scale=100), zeros(n, dtype=np.float16), zeros(n), n), {"TILE": 256}),
        Case("cast.to_int", cast.to_int, 2, lambda: (_f32(n, scale=100), zeros(n, dtype=np.int32), n),
             {"MODE": "floor", "TILE": 256}),
    ]


def mix_cases():
    """MIX kernels (cube and vector core, cross-core flags through GM): the sample and the hand-offs of
    test_mix_sync.py, with small integers so every run is exact."""
    import matmul_leaky_relu
    import test_mix_sync as mix

    def f16(*shape, seed=0, scale=1):
        return (np.random.default_rng(seed).integers(-3, 4, shape) * scale).astype(np.float16)

    def zeros(*shape, dtype=np.float32):
        return np.zeros(shape, dtype)

    return [
        Case("matmul_leaky_relu", matmul_leaky_relu.matmul_leaky_relu, 2,
             lambda: (f16(128, 256), f16(256, 128, seed=1), zeros(128, 128), zeros(128, 128),
                      128, 128, 256, 64, 64, 64, 0.1), {}),
        Case("relu_then_matmul", mix.relu_then_matmul, 2,
             lambda: (f16(256, 64), f16(64, 64, seed=1), zeros(256, 64, dtype=np.float16), zeros(256, 64),
                      256, 64, 64, 64), {}),
        Case("attention_block", mix.attention_block, 1,
             lambda: (f16(64, 64, scale=0.1), f16(64, 64, seed=1, scale=0.1), f16(64, 64, seed=2), zeros(64, 64),
                      zeros(64, 64, dtype=np.float16), zeros(64, 64), 64, 64), {}),
        Case("two_matmuls", mix.two_matmuls_around_an_epilogue, 1,
             lambda: (f16(64, 64), f16(64, 64, seed=1), zeros(64, 64), zeros(64, 64), zeros(64, 64), 64), {}),
    ]


MIX_CASE_NAMES = ["matmul_leaky_relu", "relu_then_matmul", "attention_block", "two_matmuls"]


def is_caught(result):
    if result["races"] or result.get("static"):
        return True
    return not result["ok"] and LEAK not in result["error"]


def mutate(case):
    """Every wait_flag of the kernel dropped in turn: [(sync entry, launch result)], plus the intact run.

    A ``skip`` wait whose removal the launch does not notice gets ``static: True`` in its result
    when ascendc-verify-sync rejects the IR without it."""
    compiled, args = case.compile()
    native = compiled.native
    waits = [s for s in compiled.report()["sync"] if s["kind"] == "wait_flag"]
    assert len(waits) == native.wait_count, "report['sync'] and the program disagree on the wait_flags"
    intact = native.launch(case.block_num, args, drop_wait=-1)
    runs = []
    for k, wait in enumerate(waits):
        result = dict(native.launch(case.block_num, args, drop_wait=k))
        if wait["role"] == "skip" and not is_caught(result):
            result["static"] = caught_statically(compiled, k)
        runs.append((wait, result))
    return intact, runs


def describe(case, k, wait, result):
    return (f"{case.name}: wait #{k} ({wait['src_pipe']}->{wait['dst_pipe']} event {wait['event_id']}, "
            f"role {wait['role']}, point {wait['point']}) reason {wait['reason']!r}: "
            f"ok={result['ok']} races={len(result['races'])} error={result['error']!r}")


def _base_name(case):
    return case.name.split("[")[0]


def known_redundant(case, wait):
    if wait["role"] == "skip":  # the skipped-branch twin is caught statically like any other
        return None
    return next((why for (name, reason), why in KNOWN_REDUNDANT.items()
                 if name in (case.name, _base_name(case)) and reason in wait["reason"]), None)


def check(case):
    """Assertion messages for one kernel (empty = all good) and its summary line."""
    intact, runs = mutate(case)
    problems = []
    if not intact["ok"] or intact["races"]:
        problems.append(f"{case.name}: the unmutated kernel fails: {intact['error']!r} {intact['races'][:2]}")
    caught = drains = by_race = 0
    for k, (wait, result) in enumerate(runs):
        if wait["role"] == "drain":
            drains += 1
            if result["ok"] or result["races"] or LEAK not in result["error"]:
                problems.append("drain did not produce exactly the leak: " + describe(case, k, wait, result))
            continue
        if is_caught(result):
            caught += 1
            by_race += bool(result["races"])
            if known_redundant(case, wait):
                problems.append("listed in KNOWN_REDUNDANT but caught: " + describe(case, k, wait, result))
        elif not known_redundant(case, wait):
            problems.append("removal NOT caught: " + describe(case, k, wait, result))
    stale = [reason for (name, reason) in KNOWN_REDUNDANT
             if name in (case.name, _base_name(case)) and not any(reason in wait["reason"] and wait["role"] != "drain"
                                              for wait, _ in runs)]
    problems += [f"{case.name}: KNOWN_REDUNDANT entry {r!r} matches no wait any more: delete it" for r in stale]
    redundant = sum(1 for wait, _ in runs if wait["role"] != "drain" and known_redundant(case, wait))
    summary = (f"{case.name:32s} waits {len(runs):3d}  caught {caught:3d} (races {by_race:3d})  drains {drains:3d}  "
               f"redundant {redundant:2d}  uncaught {len(runs) - caught - drains - redundant:3d}")
    return problems, summary


CASE_NAMES = ["vadd", "softmax", "softmax_fused", "gelu", "rms_norm", "rms_norm_fused", "layer_norm",
              "layer_norm_fused", "leaky_relu", "reduce_sum", "reduce_sum.finish", "where", "cast.round_trip",
              "cast.to_int"]


def test_every_sample_kernel_is_covered():
    assert [c.name for c in sample_cases()] == CASE_NAMES


@requires_native
@pytest.mark.parametrize("single_buffered", [False, True], ids=["default", "num_stages=1"])
@pytest.mark.parametrize("name", CASE_NAMES)
def test_every_inserted_wait_is_needed(name, single_buffered):
    case = next(c for c in sample_cases() if c.name == name)
    if single_buffered:
        case = case.single_buffered()
    problems, summary = in_child_process(check, case)  # a native crash fails this test only
    print(summary)
    assert not problems, "\n".join(problems)


@requires_native
@pytest.mark.parametrize("single_buffered", [False, True], ids=["default", "num_stages=1"])
@pytest.mark.parametrize("name", MIX_CASE_NAMES)
def test_every_inserted_wait_is_needed_in_mix_kernels(name, single_buffered):
    """Cross-core waits included: dropping one lets a core read a workspace before the other core
    wrote it (a GM race between the two cores), or reuse a buffer the other side still reads."""
    case = next(c for c in mix_cases() if c.name == name)
    assert [c.name for c in mix_cases()] == MIX_CASE_NAMES
    if single_buffered:
        case = case.single_buffered()
    problems, summary = in_child_process(check, case)
    print(summary)
    assert not problems, "\n".join(problems)


def check_buf_ids(case):
    """Buffer-id sync on Ascend950: each get_buf dropped in turn with the rls_buf that ends it (assertion
    messages, summary line).  A removal is caught by a data race, a run-time error, or statically:
    ascendc-verify-sync rejects the IR without it (an op of the bracket and an op of another pipe
    conflict on the buffer and hold no common id) -- a race the launch's shapes do not exhibit, or a
    hazard another id happens to order (MTE2 releases y after loading x, so V taking y orders the load
    of x too)."""
    asc2.set_platform(backend="Model", platform="Ascend950")
    compiled, args = case.compile()
    report = compiled.report()
    native = compiled.native
    gets = [s for s in report["sync"] if s["kind"] == "get_buf"]
    problems = []
    if report["options"].get("sync_style") != "buffer-id":
        problems.append(f"{case.name}: compiled with sync_style {report['options'].get('sync_style')!r}")
    if len(gets) != native.get_buf_count:
        problems.append(f"{case.name}: report['sync'] and the program disagree on the get_bufs")
    intact = native.launch(case.block_num, args, drop_get_buf=-1)
    if not intact["ok"] or intact["races"]:
        problems.append(f"{case.name}: the unmutated kernel fails: {intact['error']!r} {intact['races'][:2]}")
    by_race = by_error = static = 0
    for k, get in enumerate(gets):
        result = native.launch(case.block_num, args, drop_get_buf=k)
        if result["races"]:
            by_race += 1
        elif not result["ok"]:
            by_error += 1
        elif caught_statically(compiled, k, kind="get_buf"):
            static += 1
        else:
            problems.append(f"{case.name}: get_buf #{k} ({get['src_pipe']}, id {get['event_id']}, point "
                            f"{get['point']}) reason {get['reason']!r}: removal NOT caught")
    summary = (f"{case.name:32s} get_bufs {len(gets):3d}  races {by_race:3d}  errors {by_error:3d}  "
               f"static {static:3d}  uncaught {len(gets) - by_race - by_error - static:3d}")
    return problems, summary


@requires_native
@pytest.mark.parametrize("name", CASE_NAMES)
def test_every_get_buf_is_needed(name):
    case = next(c for c in sample_cases() if c.name == name)
    problems, summary = in_child_process(check_buf_ids, case)
    print(summary)
    assert not problems, "\n".join(problems)


@requires_native
def test_mutation_is_not_vacuous():
    """Each kernel has waits to drop, and a non-drain one among them (the loop-carried ones at least)."""
    case = next(c for c in sample_cases() if c.name == "vadd")
    compiled, _ = case.compile()
    roles = [s["role"] for s in compiled.report()["sync"] if s["kind"] == "wait_flag"]
    assert {"pair", "carried", "drain"} <= set(roles)


def main():
    failed = False
    for case in [c for base in sample_cases() + mix_cases() for c in (base, base.single_buffered())]:
        problems, summary = check(case)
        print(summary)
        for p in problems:
            print("   ", p)
        failed |= bool(problems)
    for case in sample_cases():
        problems, summary = in_child_process(check_buf_ids, case)
        print(summary)
        for p in problems:
            print("   ", p)
        failed |= bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
