"""The jit options named after upstream's Bisheng and VF knobs (opt_level, debug, auto_sync, vf_fusion), the typed
CompileOptions every option reaches the compiler as, and the error kinds compile errors are classed by."""

import importlib
import warnings

import numpy as np
import pytest

import asc2
import gelu
import softmax
from asc2.runtime import compiler
from conftest import requires_native

jit_module = importlib.import_module("asc2.runtime.jit")  # asc2.runtime.jit is also the decorator


def _passes(kernel):
    return [p["name"] for p in kernel.last_report["passes"]]


def _gelu_run(kernel, n=5000, cores=4):
    x = (np.random.default_rng(1).standard_normal(n) * 2).astype(np.float32)
    out = np.zeros_like(x)
    kernel[cores](x, out, n, TILE=256)
    return float(np.max(np.abs(out.astype(np.float64) - gelu.reference(x))))


# ---------------------------------------------------------------------------
# opt_level: which optional optimisations run (upstream: Bisheng's -O)


@requires_native
@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_every_opt_level_keeps_the_numbers(level):
    kernel = asc2.jit(opt_level=level)(softmax.softmax.fn)
    err, _ = softmax.run(kernel, 37, 256, cores=8)
    assert err <= 1e-6
    assert _gelu_run(asc2.jit(opt_level=level)(gelu.gelu.fn)) <= 1e-5


@requires_native
def test_opt_level_3_is_the_default():
    default, explicit = softmax.softmax, asc2.jit(opt_level=3)(softmax.softmax.fn)
    softmax.run(default, 37, 256)
    softmax.run(explicit, 37, 256)
    assert _passes(explicit) == _passes(default)
    assert explicit.last_report["ascendc"] == default.last_report["ascendc"]
    assert explicit.last_report["launch"]["cycles"] == default.last_report["launch"]["cycles"]
    assert default.last_report["options"]["opt_level"] == "3"


@requires_native
def test_lower_opt_levels_drop_the_optional_optimisations():
    kernels = {level: asc2.jit(opt_level=level)(softmax.softmax.fn) for level in range(4)}
    cycles = {level: softmax.run(k, 8 * 8 * 4, 1024, cores=8)[1] for level, k in kernels.items()}
    passes = {level: _passes(k) for level, k in kernels.items()}
    pong = {level: sum(b["slot"] == 1 for b in k.last_report["memory"]["buffers"]) for level, k in kernels.items()}
    # 3: row batching; 2: multi-buffering (ping/pong buffers); 1: arithmetic simplification, loop-invariant motion.
    assert "asctile-batch-rows" in passes[3] and "asctile-batch-rows" not in passes[2]
    assert pong[2] > 0 and pong[1] == 0 and pong[0] == 0
    for name in ("asctile-simplify-arith", "loop-invariant-code-motion"):
        assert name in passes[1] and name not in passes[0]
    assert kernels[1].last_report["options"]["opt_level"] == "1"
    # Each optimisation pays for itself on this kernel.
    assert cycles[3] < cycles[2] < cycles[1], cycles


@requires_native
def test_gelu_simplification_is_opt_level_1():
    ops = {}
    for level in (0, 1):
        kernel = asc2.jit(opt_level=level)(gelu.gelu.fn)
        _gelu_run(kernel)
        ops[level] = kernel.last_report["passes"][-1]["op_count"]
    assert ops[0] > ops[1], ops  # GELU's polynomial in Horner form: fewer vector ops


@requires_native
def test_an_explicit_num_stages_outranks_a_low_opt_level():
    kernel = asc2.jit(opt_level=1, num_stages=2)(softmax.softmax.fn)
    softmax.run(kernel, 37, 256)
    assert any(b["slot"] == 1 for b in kernel.last_report["memory"]["buffers"])


@requires_native
def test_no_row_batching_no_row_batching_fallback():
    # opt_level=2 does not batch rows, so there is nothing to drop: the kernel compiles once, with no note.
    kernel = asc2.jit(opt_level=2)(softmax.softmax.fn)
    softmax.run(kernel, 37, 256)
    assert not [d for d in kernel.last_report["diagnostics"] if "dropped" in d["message"]]


# ---------------------------------------------------------------------------
# debug, auto_sync, vf_fusion


@requires_native
def test_debug_verifies_the_synchronisation():
    kernel = asc2.jit(debug=True)(gelu.gelu.fn)
    assert _gelu_run(kernel) <= 1e-5
    assert "ascendc-verify-sync" in _passes(kernel)
    assert kernel.last_report["options"]["debug"] == "true"
    assert kernel.last_report["options"]["verify_sync"] == "false"  # the report shows the options as given
    _gelu_run(gelu.gelu)
    assert "ascendc-verify-sync" not in _passes(gelu.gelu)


def test_auto_sync_without_insert_sync_is_rejected():
    with pytest.raises(ValueError, match=r"auto_sync=True with insert_sync=False .*Bisheng's --cce-auto-sync.* "
                                         r"Use insert_sync=True"):
        asc2.jit(auto_sync=True, insert_sync=False)


@requires_native
def test_auto_sync_is_insert_sync_here():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kernel = asc2.jit(auto_sync=True)(gelu.gelu.fn)
    assert _gelu_run(kernel) <= 1e-5
    assert kernel.last_report["launch"]["races"] == []
    _gelu_run(gelu.gelu)
    assert kernel.last_report["ascendc"] == gelu.gelu.last_report["ascendc"]


def test_vf_fusion_warns_at_the_decorator_that_it_changes_nothing():
    with pytest.warns(UserWarning, match=r"asc2.jit option vf_fusion=True has no effect: upstream it fuses "
                                         r"consecutive vector ops into Ascend C MicroAPI vector-function \(VF\) "
                                         r"blocks") as record:
        asc2.jit(vf_fusion=True)
    assert record[0].filename == __file__
    with pytest.warns(UserWarning, match="vf_fusion=True") as record:
        asc2.jit(gelu.gelu.fn, vf_fusion=True)
    assert record[0].filename == __file__


@requires_native
def test_vf_fusion_compiles_as_without_it():
    with pytest.warns(UserWarning, match="vf_fusion"):
        kernel = asc2.jit(vf_fusion=True)(gelu.gelu.fn)
    assert _gelu_run(kernel) <= 1e-5
    _gelu_run(gelu.gelu)
    assert kernel.last_report["ascendc"] == gelu.gelu.last_report["ascendc"]
    assert kernel.last_report["options"]["vf_fusion"] == "true"


def test_upstream_defaults_are_silent():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        asc2.jit(vf_fusion=False, opt_level=3, auto_sync=False, debug=False)(lambda: None)


# ---------------------------------------------------------------------------
# The typed options the compiler receives


@requires_native
def test_options_reach_the_compiler_typed():
    options = jit_module.validate_options({"debug": True, "opt_level": 1, "static_alloc": False})
    o = jit_module.compile_options(options, "Ascend910B2", "kernel.py")
    assert (o.platform, o.source_file) == ("Ascend910B2", "kernel.py")
    assert o.verify_sync is True  # debug=True
    assert o.insert_sync is True and o.opt_level == 1 and o.static_alloc is False
    assert o.num_stages == 0 and o.sync_style == ""  # unset: the compiler's and the target's choice
    assert o.matmul_cube_only is False and o.reuse_alloc == 1
    # What the report shows: every option but the frontend's own and the unset ones, as strings.
    assert o.user_options == {"insert_sync": "true", "reuse_alloc": "1", "static_alloc": "false",
                              "vf_fusion": "false", "verify_sync": "false", "matmul_cube_only": "false",
                              "opt_level": "1", "auto_sync": "false", "debug": "true"}
    with pytest.raises(TypeError):
        o.insert_sync = "yes"
    with pytest.raises(TypeError):
        o.opt_level = "3"


# ---------------------------------------------------------------------------
# Error kinds


@asc2.jit
def _too_big(x_ptr, n: int, TILE: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [n])
    for i in asc2.range(1):
        a = asc2.copy_in(x_gm, [0], [TILE])
        asc2.copy_out(a + a, x_gm, [0])


@requires_native
def test_an_overflow_has_the_memory_kind():
    C = compiler.native()
    ir = _too_big.ir(np.zeros(16, np.float32), 16, TILE=1024 * 1024)
    with pytest.raises(C.CompileError) as info:
        C.compile(ir, options=C.CompileOptions())
    assert info.value.kind == "memory"
    assert "UB overflow" in info.value.args[0]
    with pytest.raises(asc2.MemoryError):
        _too_big.compile(np.zeros(16, np.float32), 16, TILE=1024 * 1024)


@requires_native
def test_other_errors_have_their_kinds():
    C = compiler.native()
    ir = _too_big.ir(np.zeros(16, np.float32), 16, TILE=64)
    o = C.CompileOptions()
    o.platform = "Ascend123"
    with pytest.raises(C.CompileError) as info:
        C.compile(ir, options=o)
    assert info.value.kind == "option"
    with pytest.raises(C.CompileError) as info:
        C.compile("module { func.func @k() { return } } garbage", options=C.CompileOptions())
    assert info.value.kind == "compile"


@requires_native
@pytest.mark.parametrize("kind,cls", [("memory", asc2.MemoryError), ("alignment", asc2.AlignmentError),
                                      ("compile", asc2.CompilationError), ("option", asc2.CompilationError),
                                      ("internal", asc2.CompilationError)])
def test_the_error_class_comes_from_the_kind_not_the_text(kind, cls):
    C = compiler.native()
    # Messages that name the other classes' words: only the kind decides.
    for message in ("UB overflow: kernel needs 1 bytes", "rows not 32-byte aligned", "no data path"):
        error = C.CompileError(message, "kernel.py", 3, 5, [])
        error.kind = kind
        converted = compiler.convert_compile_error(error)
        assert type(converted) is cls
        assert (converted.message, converted.line, converted.col) == (message, 3, 5)
