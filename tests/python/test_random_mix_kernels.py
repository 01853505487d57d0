"""Random cube and MIX kernels (tests/python/mixgen.py): K loops of matmuls with vector prologues,
epilogues and a second matmul fed back from the vector core, over several tiles per block, in
float16/bfloat16/float32 on Ascend910B1 and Ascend950. Each must compile, simulate race-free and
equal its float64 reference exactly (integer data). A fixed set of seeds runs here; the sweep is
``bench/random_kernels.py --mix``. A failure prints the kernel source: save it to reproduce.
"""

import pytest

import mixgen
from conftest import in_child_process, requires_native

SEEDS = list(range(32))


def _check(seed, mutate=False):
    result = mixgen.check(mixgen.generate(seed), mutate=mutate)
    if "uncaught" in result:
        result["uncaught"] = [(w["src_pipe"], w["dst_pipe"], w["role"], w["reason"]) for _, w in result["uncaught"]]
    return result


@requires_native
@pytest.mark.parametrize("seed", SEEDS)
def test_random_mix_kernel(seed):
    result = in_child_process(_check, seed)
    k = mixgen.generate(seed)
    assert result["status"] == "ok", f"{k.describe()}\n{result['status']}: {result['detail']}\n--- source ---\n{k.source}"
    if k.config["kernel_type"] == "MIX_AIC_1_1":
        assert result["mix_ratio"] == "1:1"
    elif k.config["prologue"] or k.config["epilogue"]:
        # Every generated vector stage works on whole rows of an even count: divided between both AIVs.
        assert result["mix_ratio"] == "1:2", k.describe()


MUTATION_SEEDS = [s for s in range(200) if mixgen.mutation_config(mixgen.generate(s))][:6]
# A prologue's loop-carried flag next to a cross-core flag of the same pipes and id: the report
# named its drain a "pair" (the two flags' sets and waits were paired up as one), so the mutation
# run dropped the drain and nothing could notice.
SHARED_ID_SEEDS = [200000, 200246]


@requires_native
@pytest.mark.parametrize("seed", MUTATION_SEEDS + SHARED_ID_SEEDS)
def test_every_wait_of_a_random_mix_kernel_is_needed(seed):
    """Each inserted wait_flag (cross-core ones too) dropped in turn must be caught by a race or an
    error, except the workspace WARs between output tiles that share no bytes (mixgen.REDUNDANT)."""
    result = in_child_process(_check, seed, True)
    assert result["status"] == "ok", result["detail"]
    assert result["waits"] > 0
    uncaught = [u for u in result["uncaught"] if not mixgen.REDUNDANT.search(u[3])]
    assert not uncaught, f"{mixgen.generate(seed).describe()}\nremovals nothing notices: {uncaught}"


def test_mix_generator_is_deterministic_and_varied():
    a, b = mixgen.generate(7), mixgen.generate(7)
    assert a.source == b.source and a.config == b.config
    configs = [mixgen.generate(s).config for s in SEEDS]
    assert {c["dtype"] for c in configs} == {"float16", "bfloat16", "float32", "int8"}
    # int8 accumulates in int32 and stays integral: no float prologue or float16 second matmul,
    # and whole 16 x 32 fractals (B's columns a multiple of 32, K steps too).
    for c in configs:
        if c["dtype"] == "int8":
            assert not c["prologue"] and not c["second"] and c["BN"] % 32 == 0 and c["BK"] % 32 == 0
    assert {c["platform"] for c in configs} == {"Ascend910B1", "Ascend950"}
    # One vector core per cube core asked for, or the compiler's choice (two where the rows divide);
    # tile loops declared parallel=True or not.
    assert {c["kernel_type"] for c in configs} == {None, "MIX_AIC_1_1"}
    assert {c["parallel"] for c in configs} == {True, False}
    assert {c["num_stages"] for c in configs} == {None, 1}
    assert len({c["cores"] for c in configs}) >= 3
    assert any(c["prologue"] for c in configs) and any(not c["prologue"] for c in configs)
    assert any(c["epilogue"] for c in configs) and any(not c["epilogue"] for c in configs)
    assert any(c["second"] for c in configs)
    assert any(c["K"] > c["BK"] for c in configs) and any(c["K"] == c["BK"] for c in configs)
    # L1 panels with sub-tiles moved to L0A / L0B each K step, and the plain copies to L0.
    assert any(c["stage_l1"] and c["K"] > c["BK"] for c in configs) and any(not c["stage_l1"] for c in configs)
    # Partial edge tiles, in rows and in columns.
    assert any(c["M"] % c["BM"] for c in configs) and any(c["N"] % c["BN"] for c in configs)
    assert len(MUTATION_SEEDS) == 6
    assert all(mixgen.mutation_config(mixgen.generate(s)) for s in SHARED_ID_SEEDS)


@requires_native
def test_a_drain_next_to_a_cross_core_flag_of_the_same_id_is_a_drain():
    result = in_child_process(_roles_after_the_loop, 200246)
    assert result and all(role == "drain" for _, role in result), result


def _roles_after_the_loop(seed):
    """(reason, role) of the waits for the prologue tile's loop-carried flag placed after the
    kernel's outermost loop (they carry that loop's line): its drains."""
    import tempfile
    import asc2
    import kernelgen
    k = mixgen.generate(seed)
    asc2.set_platform(backend="Model", platform=k.config["platform"])
    with tempfile.TemporaryDirectory() as directory:
        kernel = kernelgen.write_module(k, directory)
        _, args, _ = mixgen.launch_plan(k)
        compiled, failed = kernelgen.compile_or_status(kernel, args, {}, {})
        assert not failed, failed
        sync = compiled.report()["sync"]
    outer_loop_line = k.source.splitlines().index(
        next(l for l in k.source.splitlines() if l.lstrip().startswith("for t in"))) + 1
    return [(s["reason"], s["role"]) for s in sync
            if s["kind"] == "wait_flag" and s["loc"]["line"] == outer_loop_line and "on a_ptr" in s["reason"]]
