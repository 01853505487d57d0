"""@asc2.jit: options, platforms, specialisation and the two-level cache."""

import os

import numpy as np
import pytest

import asc2
from asc2.runtime.cache import make_key
from conftest import requires_native

X = np.zeros(1024, np.float32)


def test_unknown_option_is_a_clear_error():
    with pytest.raises(TypeError, match=r"unknown asc2.jit option\(s\): no_such_option; valid options are "):
        asc2.jit(no_such_option=True)
    with pytest.raises(ValueError, match="kernel_type must be one of AIV_ONLY, AIC_ONLY, MIX"):
        asc2.jit(lambda: None, kernel_type="AIV")


@pytest.mark.parametrize("option,value", [
    ("reuse_alloc", 3), ("opt_level", 7), ("insert_sync", "yes"), ("num_stages", 0), ("static_alloc", 1),
])
def test_invalid_option_values(option, value):
    with pytest.raises(ValueError, match=option):
        asc2.jit(**{option: value})


def test_valid_options_are_accepted():
    kernel = asc2.jit(always_compile=True, insert_sync=False, reuse_alloc=2, static_alloc=True, vf_fusion=True,
                      verify_sync=True, matmul_cube_only=False, opt_level=2, auto_sync=False, debug=True,
                      num_stages=2, capture_exceptions=False)(lambda x: None)
    assert kernel.options["reuse_alloc"] == 2 and kernel.options["num_stages"] == 2
    assert asc2.jit(lambda x: None).options["insert_sync"] is True


def test_block_count_must_be_positive():
    @asc2.jit
    def k(x_ptr):
        pass

    with pytest.raises(ValueError, match="block count"):
        k[0]
    with pytest.raises(RuntimeError, match=r"k\[block_num\]"):
        k(X)


def test_platform_selection(monkeypatch):
    assert asc2.get_platform().backend == "Model"
    assert asc2.get_platform().platform == "Ascend910B1"
    p = asc2.set_platform(platform="Ascend910B2")
    assert p.platform == "Ascend910B2" and asc2.get_platform() is p
    with pytest.raises(ValueError, match="unknown platform"):
        asc2.set_platform(platform="Ascend999")
    with pytest.raises(ValueError, match="unknown backend"):
        asc2.set_platform(backend="GPU")
    monkeypatch.delenv("ASCEND_HOME_PATH", raising=False)
    with pytest.raises(RuntimeError, match=r"NPU backend unavailable: no CANN toolkit \(ASCEND_HOME_PATH unset\)"):
        asc2.set_platform(backend="NPU")


def test_platform_from_environment(monkeypatch):
    from asc2.runtime import platform

    monkeypatch.setenv("ASC2_PLATFORM", "Ascend910_93")
    platform.reset_platform()
    assert asc2.get_platform().platform == "Ascend910_93"


def test_npu_backend_from_environment_fails_at_launch(monkeypatch):
    from asc2.runtime import platform

    monkeypatch.setenv("ASC2_BACKEND", "NPU")
    monkeypatch.delenv("ASCEND_HOME_PATH", raising=False)
    platform.reset_platform()

    @asc2.jit
    def k(x_ptr):
        pass

    with pytest.raises(RuntimeError, match="NPU backend unavailable"):
        k[1](X)


def _vadd_source():
    from vadd import vadd

    return vadd


def test_specialisation_key_depends_on_constexprs_dtypes_and_options():
    vadd = _vadd_source()

    def key(*args, **kwargs):
        return make_key(vadd.specialise(args, kwargs).key_parts)

    base = key(X, X, X, 1024, 1, TILE=256)
    assert base == key(X, X, X, 2048, 3, TILE=256)  # runtime values do not specialise
    assert base != key(X, X, X, 1024, 1, TILE=512)
    h = np.zeros(1024, np.float16)
    assert base != key(h, h, h, 1024, 1, TILE=256)
    assert base != key(X.reshape(32, 32), X, X, 1024, 1, TILE=256)  # rank
    other = asc2.jit(opt_level=1)(vadd.fn)
    assert base != make_key(other.specialise((X, X, X, 1024, 1), {"TILE": 256}).key_parts)


@requires_native
def test_memory_and_disk_cache(isolated_cache):
    vadd = _vadd_source()
    fresh = asc2.jit(vadd.fn)
    n = 4096
    x = np.ones(n, np.float32)
    out = np.zeros(n, np.float32)
    fresh[2](x, x, out, n, 8, TILE=256)
    assert fresh.last_cache == "miss"
    fresh[2](x, x, out, n, 8, TILE=256)
    assert fresh.last_cache == "memory"
    fresh[2](x, x, out, n, 4, TILE=512)  # new constexpr: new specialisation
    assert fresh.last_cache == "miss"
    assert any(f.endswith(".json") for _, _, files in os.walk(isolated_cache) for f in files)

    # A new process (a new JITFunction) finds the IR on disk and skips the code generator.
    again = asc2.jit(vadd.fn)
    again._generate = lambda spec: pytest.fail("code generator ran on a disk-cache hit")
    again[2](x, x, out, n, 8, TILE=256)
    assert again.last_cache == "disk"
    np.testing.assert_array_equal(out, x + x)

    forced = asc2.jit(always_compile=True)(vadd.fn)
    forced[2](x, x, out, n, 8, TILE=256)
    forced[2](x, x, out, n, 8, TILE=256)
    assert forced.last_cache == "miss" and forced.cache_stats["miss"] == 2
