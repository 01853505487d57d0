"""issue 17: the compile cache never serves stale IR.

Everything a kernel folds into its IR from its module (constants, dicts, lists, class attributes, plain helper
functions) is in its specialisation key, in one process and between processes; disk-cache entries are checked
against the key, the IR digest and the asc2 build they claim, and a damaged one is recompiled with a warning.
"""

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import asc2
from asc2.runtime import cache
from conftest import requires_native

MODULE = '''
import asc2

SCALE = {"k": 2.0}
OFFSETS = [0.0]


class Cfg:
    ADD = 1.0


def bias():
    return OFFSETS[0] + 3.0


@asc2.jit
def kernel(x_ptr, out_ptr, N: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [N])
    out_gm = asc2.global_tensor(out_ptr, [N])
    x = asc2.copy_in(x_gm, [0], [N])
    asc2.copy_out(x * SCALE["k"] + Cfg.ADD + bias(), out_gm, [0])
'''

N = 64


def _load(path, text, name):
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _run(kernel):
    x = np.arange(N, dtype=np.float32)
    out = np.zeros(N, np.float32)
    kernel[1](x, out, N=N)
    return out, x


@requires_native
def test_module_values_read_by_a_kernel_are_in_its_key(tmp_path):
    m = _load(tmp_path / "robust_cache_mod.py", MODULE, "robust_cache_mod")
    out, x = _run(m.kernel)
    np.testing.assert_array_equal(out, x * 2 + 1 + 3)
    _run(m.kernel)
    assert m.kernel.last_cache == "memory"

    m.SCALE["k"] = 5.0  # a module-level dict
    out, _ = _run(m.kernel)
    assert m.kernel.last_cache == "miss"
    np.testing.assert_array_equal(out, x * 5 + 1 + 3)

    m.Cfg.ADD = 10.0  # a class attribute
    out, _ = _run(m.kernel)
    np.testing.assert_array_equal(out, x * 5 + 10 + 3)

    m.OFFSETS[0] = 100.0  # a list read by a helper, not by the kernel itself
    out, _ = _run(m.kernel)
    np.testing.assert_array_equal(out, x * 5 + 10 + 103)

    m.bias = lambda: -1.0  # the helper function itself
    out, _ = _run(m.kernel)
    np.testing.assert_array_equal(out, x * 5 + 10 - 1)

    m.SCALE["k"] = 2.0
    m.Cfg.ADD = 1.0
    m.OFFSETS[0] = 0.0
    exec("def bias():\n    return OFFSETS[0] + 3.0", m.__dict__)
    _run(m.kernel)  # back to the first values: the same key as the first launch
    assert m.kernel.last_cache == "memory"


SCRIPT = '''
import sys
import numpy as np
sys.path.insert(0, sys.argv[1])
import robust_cache_proc as m
x = np.arange(64, dtype=np.float32)
out = np.zeros(64, np.float32)
m.kernel[1](x, out, N=64)
print(m.kernel.last_cache, float(out[1]))
'''


@requires_native
def test_module_values_are_in_the_disk_cache_key(tmp_path, isolated_cache):
    script = tmp_path / "run.py"
    script.write_text(SCRIPT)
    module = tmp_path / "robust_cache_proc.py"
    env = dict(os.environ, ASC2_CACHE_DIR=str(isolated_cache),
               PYTHONPATH=os.pathsep.join(p for p in sys.path if "asc2" in p or p.endswith("python")))

    def run(text):
        module.write_text(text)
        for pyc in (tmp_path / "__pycache__").glob("*.pyc") if (tmp_path / "__pycache__").exists() else ():
            pyc.unlink()
        done = subprocess.run([sys.executable, str(script), str(tmp_path)], env=env, capture_output=True,
                              text=True, check=True)
        cache_level, value = done.stdout.split()
        return cache_level, float(value)

    assert run(MODULE) == ("miss", 1 * 2 + 1 + 3)
    assert run(MODULE) == ("disk", 1 * 2 + 1 + 3)
    # Only the helper's body changes (not the kernel's source): a new key, not the old IR.
    assert run(MODULE.replace("OFFSETS[0] + 3.0", "OFFSETS[0] + 7.0")) == ("miss", 1 * 2 + 1 + 7)
    assert run(MODULE.replace('"k": 2.0', '"k": 4.0')) == ("miss", 1 * 4 + 1 + 3)
    assert run(MODULE.replace("ADD = 1.0", "ADD = 0.5")) == ("miss", 1 * 2 + 0.5 + 3)


def test_a_global_with_no_describable_value_is_rejected(tmp_path):
    m = _load(tmp_path / "robust_cache_opaque.py", textwrap.dedent('''
        import asc2
        MARKER = object()

        @asc2.jit
        def kernel(x_ptr):
            if MARKER is None:
                pass
        '''), "robust_cache_opaque")
    with pytest.raises(asc2.CompilationTypeError, match=r"kernel reads 'MARKER' from its module, whose value asc2 "
                       r"cannot put into the compile cache key \(an instance of object with no attributes") as e:
        m.kernel.specialise((np.zeros(4, np.float32),), {})
    assert e.value.line == 7


ADD_MODULE = '''
import asc2


@asc2.jit
def add(x_ptr, y_ptr, out_ptr, N: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [N])
    y_gm = asc2.global_tensor(y_ptr, [N])
    out_gm = asc2.global_tensor(out_ptr, [N])
    asc2.copy_out(asc2.copy_in(x_gm, [0], [N]) + asc2.copy_in(y_gm, [0], [N]), out_gm, [0])
'''


def _entry_file(isolated_cache):
    files = [os.path.join(d, f) for d, _, fs in os.walk(isolated_cache) for f in fs if f.endswith(".json")]
    assert len(files) == 1
    return files[0]


def _damage_cases():
    def altered_ir(e):  # one op changed: x - y instead of x + y, the digest left as it was
        assert "arith.addf" in e["ir"]
        e["ir"] = e["ir"].replace("arith.addf", "arith.subf")
        return json.dumps(e)

    def set_field(name, value):
        return lambda e: json.dumps(dict(e, **{name: value}))

    def drop_field(name):
        return lambda e: json.dumps({k: v for k, v in e.items() if k != name})

    return {
        "altered IR": (altered_ir, "its IR does not match its digest"),
        "truncated": (lambda e: json.dumps(e)[:100], "it is not valid JSON"),
        "not an object": (lambda e: "[1, 2, 3]", "it holds a JSON list"),
        "not UTF-8": (lambda e: b"\xff\xfe".decode("latin-1"), "not valid JSON"),
        "missing ir": (drop_field("ir"), "its field 'ir' is missing"),
        "missing arg_names": (drop_field("arg_names"), "its field 'arg_names' is missing"),
        "ir of wrong type": (set_field("ir", 42), "its field 'ir' is not a str"),
        "older build": (set_field("build", "0.0.1+0000"), r"it was written by asc2 0\.0\.1\+0000"),
        "other key": (set_field("key", "0" * 64), "stored under another key"),
        "other kernel": (set_field("kernel", "mul"), "it holds kernel 'mul'"),
        "other arguments": (set_field("arg_names", ["a"]), r"its arguments \['a'\] are not"),
        "unparsable IR, digest updated": (
            lambda e: json.dumps(dict(e, ir="garbage", ir_sha256=cache.ir_digest("garbage"))),
            "the compiler rejects its IR"),
    }


@requires_native
@pytest.mark.parametrize("case", list(_damage_cases()))
def test_a_damaged_disk_entry_is_recompiled_with_a_warning(case, tmp_path, isolated_cache):
    damage, why = _damage_cases()[case]
    m = _load(tmp_path / "robust_cache_add.py", ADD_MODULE, "robust_cache_add")
    x = np.arange(N, dtype=np.float32)
    y = np.full(N, 10, np.float32)
    out = np.zeros(N, np.float32)
    m.add[1](x, y, out, N=N)
    path = _entry_file(isolated_cache)
    with open(path, encoding="utf-8") as f:
        entry = json.load(f)
    assert entry["ir_sha256"] == cache.ir_digest(entry["ir"]) and entry["build"] == cache.build_id()
    text = damage(entry)
    with open(path, "w", encoding="latin-1" if case == "not UTF-8" else "utf-8") as f:
        f.write(text)

    fresh = asc2.jit(m.add.fn)  # a new process: only the disk cache
    out[:] = 0
    with pytest.warns(RuntimeWarning, match="asc2 compile cache: ignoring the damaged entry .*" + why) as w:
        fresh[1](x, y, out, N=N)
    assert path in str(w[0].message)
    assert fresh.last_cache == "miss"
    np.testing.assert_array_equal(out, x + y)
    # The recompiled entry replaced the damaged one.
    again = asc2.jit(m.add.fn)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again[1](x, y, out, N=N)
    assert again.last_cache == "disk"


def test_the_key_holds_the_asc2_build():
    @asc2.jit
    def m():
        pass

    assert cache.build_id().startswith(asc2.__version__ + "+")
    assert cache.build_id() != asc2.__version__
    assert m.specialise((), {}).key_parts["frontend"] == cache.build_id()


def test_a_lambda_kernel_is_a_clear_error():
    k = asc2.jit(lambda: None)
    with pytest.raises(TypeError, match="a kernel must be a function defined with 'def'"):
        k.specialise((), {})
