"""A work unit and what runs it: one config of one kernel on one set of arguments, on whichever process gets it.

A ``WorkUnit`` is self-contained, so a Dask worker on another machine can run it: the kernel by reference
(``KernelRef``: its file, its module-level name, the text of that file and the digest of the kernel's source), the
config, the launch block count, the target (backend, platform, device) and the arguments, where an array is either
``Shipped`` (the caller's data, sent once to each worker and copied there for every config that writes it) or
``Seeded`` (made on the worker from its shape, dtype and seed). ``evaluate`` compiles and runs the unit and returns its
``summary`` (cycles, UB peak, bound pipe, verdict "ok" or "dropped" with the reason) and the outputs it wrote, which
``agree`` compares between two units. Nothing here raises for a config that does not compile, does not fit or
fails to run: that is the config's verdict.

In process (the local executor) a kernel is a ``LiveKernel``: the caller's own ``@asc2.jit`` object, so kernels
defined anywhere (inside a test function, in ``__main__``) tune without being importable.
"""

import hashlib
import importlib.util
import os
import socket
import sys
import tempfile
import threading
import time

import numpy as np

from .. import errors
from ..runtime import platform as _platform
from ..runtime.compiler import CompiledKernel
from ..runtime.jit import JITFunction, Reinterpreted, _array_dtype, _is_array, reinterpret, validate_options
from . import events
from .config import Config

# Relative and absolute tolerance per element type: how far two correct configs may differ (tilings change the
# order of reductions). Integers and masks must agree exactly.
TOLERANCE = {"float32": (1e-4, 1e-6), "float16": (1e-2, 1e-3), "bfloat16": (2e-2, 1e-2)}


# ---------------------------------------------------------------------------
# Kernels


def _digest(text):
    return hashlib.sha256(text.encode()).hexdigest()


class LiveKernel:
    """The caller's kernel object itself (in-process executors only)."""

    def __init__(self, kernel):
        self.kernel = kernel
        self.name = kernel.__name__

    def resolve(self):
        return self.kernel


class KernelRef:
    """A kernel a worker imports: ``name`` from the module file ``file`` (the text shipped along, for a worker
    whose copy of the file differs or that has none)."""

    def __init__(self, file, name, module_text, source_hash, options):
        self.file = file
        self.name = name
        self.module_text = module_text
        self.module_digest = _digest(module_text)
        self.source_hash = source_hash
        self.options = options

    @classmethod
    def of(cls, kernel):
        """The reference of a ``@asc2.jit`` kernel; a clear error when a worker could not import it."""
        qualname = kernel.__qualname__
        if "<locals>" in qualname or "." in qualname:
            raise ValueError(f"asc2.autotune: kernel '{kernel.__name__}' is defined inside a function or class "
                             f"({qualname}); a Dask worker imports a kernel by its module-level name. Define it at "
                             "the top level of a module, or tune with executor='local'")
        if runs_script_on_import(kernel):
            raise ValueError(f"asc2.autotune: kernel '{kernel.__name__}' is defined in the script being run, whose "
                             "top level runs code without an `if __name__ == \"__main__\":` guard; a Dask worker "
                             "imports the kernel's file and would run the script again. Put the script's launches "
                             "under that guard, move the kernel into a module, or tune with executor='local'")
        file = kernel.source.file
        try:
            with open(file, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise ValueError(f"asc2.autotune: cannot read the source file of kernel '{kernel.__name__}' ({e}) to "
                             "send it to the Dask workers") from None
        return cls(file, kernel.__name__, text, kernel.source.hash, dict(kernel.options))

    def resolve(self):
        module = _import_module(self.file, self.module_text, self.module_digest)
        obj = getattr(module, self.name, None)
        obj = getattr(obj, "kernel", obj) if getattr(obj, "__asc2_autotune__", False) else obj
        if not getattr(obj, "__asc2_jit__", False):
            raise RuntimeError(f"{self.file} has no @asc2.jit kernel named '{self.name}' on worker "
                               f"{worker_name()}")
        if obj.source.hash != self.source_hash:
            raise RuntimeError(f"kernel '{self.name}' on worker {worker_name()} ({obj.source.file}) is not the "
                               "source the sweep was started with")
        return with_options(obj, self.options)


def runs_script_on_import(kernel):
    """Whether a Dask worker importing ``kernel``'s file would run a script: the file is the running ``__main__``
    (a script, or the workbench's edited file), it has no ``if __name__ == "__main__":`` guard, and its top level
    calls something for its effect (``main()``, a print) or launches a kernel (``k[8](...)``). Importing it on a
    worker would run the script there again, launches and sweeps included."""
    import ast

    main = sys.modules.get("__main__")
    main_file = getattr(main, "__file__", None)
    file = kernel.source.file
    if not main_file or not file or os.path.abspath(main_file) != os.path.abspath(file):
        return False
    try:
        with open(file, encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return True

    def guard(stmt):
        test = ast.unparse(stmt.test) if isinstance(stmt, ast.If) else ""
        return "__name__" in test and "__main__" in test

    def launches(node):
        return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Subscript) for n in ast.walk(node))

    if any(guard(stmt) for stmt in tree.body):
        return False
    defining = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return any(not isinstance(stmt, defining) and
               (launches(stmt) or (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)) or
                isinstance(stmt, (ast.For, ast.While, ast.With, ast.Try)))
               for stmt in tree.body)


_MODULES = {}  # (file, text digest) -> module, per worker process
_IMPORT_LOCK = threading.Lock()


def _import_module(file, text, digest):
    """The module of ``file`` as the client saw it: the worker's own copy of the file when it has the same text,
    else the shipped text written to a private directory. The file's directory is on ``sys.path`` while it is
    imported, as when it runs as a script (a kernel module importing its sibling modules)."""
    with _IMPORT_LOCK:
        module = _MODULES.get((file, digest))
        if module is not None:
            return module
        path = file
        try:
            with open(file, encoding="utf-8") as f:
                same = _digest(f.read()) == digest
        except OSError:
            same = False
        if not same:
            directory = os.path.join(tempfile.gettempdir(), f"asc2-tune-{digest[:16]}")
            os.makedirs(directory, exist_ok=True)
            path = os.path.join(directory, os.path.basename(file))
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        base = os.path.splitext(os.path.basename(file))[0]
        name = f"asc2_tune_{base}_{digest[:12]}"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        added = [d for d in dict.fromkeys([os.path.dirname(os.path.abspath(file)), os.path.dirname(path)])
                 if d not in sys.path and os.path.isdir(d)]
        sys.path[:0] = added
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
        finally:
            for d in added:
                if d in sys.path:
                    sys.path.remove(d)
        _MODULES[(file, digest)] = module
        return module


# ---------------------------------------------------------------------------
# Arguments


class Shipped:
    """Argument ``index`` of the arrays sent along with the sweep (the caller's data)."""

    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index

    def __reduce__(self):
        return (Shipped, (self.index,))


class Seeded:
    """An array made on the worker: ``init`` is "normal" (standard normal times ``scale``), "uniform" (in
    [-scale, scale)), "zeros", "ones" or "randint" (integers in [0, scale)); ``seed`` and the argument's position
    make it reproducible."""

    __slots__ = ("shape", "dtype", "init", "scale", "seed")
    INITS = ("normal", "uniform", "zeros", "ones", "randint")

    def __init__(self, shape, dtype, init="normal", scale=1.0, seed=0):
        if init not in self.INITS:
            raise ValueError(f"unknown array init {init!r}; expected one of {', '.join(self.INITS)}")
        from ..language import core

        if core.from_name(str(dtype)) not in core.ALL_DTYPES:
            raise ValueError(f"unknown array dtype {dtype!r}; expected one of "
                             + ", ".join(d.name for d in core.ALL_DTYPES))
        self.shape = tuple(int(n) for n in shape)
        self.dtype = str(dtype)
        self.init = init
        self.scale = scale
        self.seed = seed

    def __reduce__(self):
        return (Seeded, (self.shape, self.dtype, self.init, self.scale, self.seed))

    def make(self, position):
        rng = np.random.default_rng([int(self.seed), position])
        if self.init == "zeros":
            values = np.zeros(self.shape)
        elif self.init == "ones":
            values = np.ones(self.shape)
        elif self.init == "normal":
            values = rng.standard_normal(self.shape) * self.scale
        elif self.init == "uniform":
            values = rng.uniform(-self.scale, self.scale, self.shape)
        else:
            values = rng.integers(0, max(1, int(self.scale)), self.shape)
        if self.dtype == "bfloat16":
            return reinterpret(_bfloat16_bits(values), _core_dtype("bfloat16"))
        return values.astype(self.dtype)


def _core_dtype(name):
    from ..language import core

    return core.from_name(name)


def _bfloat16_bits(values):
    """Round-to-nearest-even float32 -> bfloat16 bit patterns (uint16)."""
    bits = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def _bfloat16_values(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def host_array(value):
    """A caller's array argument as numpy data a worker can receive: numpy arrays as they are, torch tensors
    as numpy (bfloat16 as ``asc2.reinterpret`` bits)."""
    if isinstance(value, Reinterpreted):
        return reinterpret(np.ascontiguousarray(host_array(value.array)), value.dtype)
    if type(value).__module__.startswith("torch"):
        import torch

        t = value.detach().cpu()
        if t.dtype == torch.bfloat16:
            return reinterpret(t.view(torch.int16).numpy().copy(), _core_dtype("bfloat16"))
        return t.numpy().copy()
    return value


def _copy(array):
    if isinstance(array, Reinterpreted):
        return reinterpret(np.array(array.array, copy=True, order="C"), array.dtype)
    return np.array(array, copy=True, order="C")


def is_array(value):
    return _is_array(value)


def materialise(args, arrays):
    """The launch's keyword arguments on this process: the shipped arrays (shared: ``private_copies`` copies
    those a kernel writes), the seeded arrays made, everything else as it is."""
    out = {}
    for position, (name, value) in enumerate(args.items()):
        if isinstance(value, Shipped):
            out[name] = arrays[value.index]
        elif isinstance(value, Seeded):
            out[name] = value.make(position)
        else:
            out[name] = value
    return out


def private_copies(args, kwargs, compiled):
    """``kwargs`` with a copy of every shipped array the compiled kernel may write (its ``written_args``, a
    conservative set): the caller's data, or a worker's copy of it, is never written, and the arrays a kernel
    only reads are not copied (hundreds of MB at production shapes)."""
    out = dict(kwargs)
    for index in compiled.written_args:
        name = compiled.arg_names[index]
        if isinstance(args.get(name), Shipped):
            out[name] = _copy(kwargs[name])
    return out


# ---------------------------------------------------------------------------
# Units and their evaluation


class WorkUnit:
    """One config of one kernel on one launch. ``label`` is free text for reports (a shape, a seed)."""

    def __init__(self, kernel, config, args, block_num, target, warmup=0, rep=1, label=""):
        self.kernel = kernel  # KernelRef or LiveKernel
        self.config = config if isinstance(config, Config) else Config(config)
        self.args = dict(args)  # parameter name -> value, Shipped or Seeded
        self.block_num = block_num  # the launch's; the config's own block_num wins
        self.target = tuple(target)  # (backend, platform, device_id)
        self.warmup = warmup
        self.rep = rep
        self.label = label


def worker_name():
    return f"{socket.gethostname()}:{os.getpid()}"


_RUN_LOCK = threading.Lock()  # the platform is per process: one unit at a time per worker process


def evaluate(unit, arrays=()):
    """Compile and run ``unit``: {"summary": {...}, "outputs": {name: (array, dtype name)}}. Never raises for
    the config's own failure (its verdict is "dropped" with the reason)."""
    with _RUN_LOCK:
        start = time.perf_counter()
        summary = {"verdict": "ok", "reason": "", "cycles": None, "time_us": None, "metric": None,
                   "ub_peak": None, "ub_capacity": None, "peaks": {}, "bound_pipe": None, "code_sha1": None,
                   "block_num": unit.config.block_num or unit.block_num, "worker": worker_name()}
        outputs = {}
        with _target(unit.target):
            try:
                outputs = _run(unit, arrays, summary)
            except Exception as e:  # noqa: BLE001 - a config's failure is its verdict, not the sweep's
                summary.update(verdict="dropped", reason=failure_reason(e))
        summary["wall_s"] = round(time.perf_counter() - start, 4)
        return {"summary": summary, "outputs": outputs}


class _target:
    """Run on ``(backend, platform, device_id)``; the process's own selection is restored afterwards."""

    def __init__(self, target):
        self.target = target
        self.saved = None

    def __enter__(self):
        current = _platform.get_platform()
        if (current.backend, current.platform, current.device_id) != self.target:
            self.saved = _platform._current
            _platform.set_platform(*self.target)

    def __exit__(self, *exc):
        if self.saved is not None:
            _platform._current = self.saved


_VARIANTS = {}  # (kernel, options) -> the kernel compiled with those options (keeps its memory cache)


def with_options(kernel, options):
    """``kernel`` with ``options`` replacing its own jit options (the same object when they change nothing)."""
    merged = validate_options({**kernel.options, **options})
    if merged == kernel.options:
        return kernel
    key = (id(kernel), repr(sorted(merged.items())))
    variant = _VARIANTS.get(key)
    if variant is None or variant[0] is not kernel:
        variant = _VARIANTS[key] = (kernel, JITFunction(kernel.fn, merged))
    return variant[1]


def _run(unit, arrays, summary):
    kernel = with_options(unit.kernel.resolve(), unit.config.options)
    kwargs = materialise(unit.args, arrays)
    kwargs.update(unit.config.kwargs)
    compiled = kernel.compile(**kwargs)
    _compile_facts(compiled.report(include_ir=False), summary)
    kwargs = private_copies(unit.args, kwargs, compiled)
    launch = kernel[unit.config.block_num or unit.block_num]
    launch(**kwargs)
    report = kernel.last_report
    result = report.get("launch")
    if result is None:  # compile only (ASC2_COMPILE_ONLY): nothing ran, nothing to time
        summary["reason"] = "compiled only, not run (ASC2_COMPILE_ONLY)"
        return {}
    summary["block_num"] = result.get("block_num", summary["block_num"])
    summary["cycles"] = result.get("cycles")
    summary["time_us"] = result.get("time_us")
    launches = report.get("launches") or []  # the compiled kernel's launches: the last is this one, with pipes
    summary["bound_pipe"] = bound_pipe(launches[-1] if launches else result)
    timed = unit.target[0] != "Model"
    outputs = _written(compiled, kwargs, copy=timed)
    if not timed:
        summary["metric"] = summary["cycles"]  # the simulator is deterministic: one run is the measurement
    else:
        for _ in range(unit.warmup):
            launch(**kwargs)
        times = []
        for _ in range(max(1, unit.rep)):
            t0 = time.perf_counter()
            launch(**kwargs)
            times.append((time.perf_counter() - t0) * 1e6)
        summary["metric"] = summary["time_us"] = round(float(np.median(times)), 3)
    return outputs


def _compile_facts(report, summary):
    """The memory plan's peaks and the emitted Ascend C's SHA-1 (which finds this config's compile report)."""
    for space in report.get("memory", {}).get("spaces", []):
        summary["peaks"][space["space"]] = space.get("peak")
        if space["space"] == "UB":
            summary["ub_peak"], summary["ub_capacity"] = space.get("peak"), space.get("capacity")
    summary["code_sha1"] = events.code_sha1(report)


def bound_pipe(launch):
    """The pipe busy longest in a launch of the report ("MTE2", "V", ...; summed over the cores), or None when
    the launch gives no pipes (the NPU backend)."""
    pipes = [p for p in launch.get("pipes") or [] if p.get("busy_cycles")]
    return max(pipes, key=lambda p: p["busy_cycles"])["pipe"] if pipes else None


def _written(compiled: CompiledKernel, kwargs, copy):
    """{name: (array after the run, dtype name)} of the arrays the kernel may write; ``copy``: copies (timing
    runs reuse the buffers)."""
    out = {}
    for index in sorted(compiled.written_args):
        name = compiled.arg_names[index]
        value = kwargs[name]
        if not _is_array(value):  # a scalar the kernel computes with (written_args is conservative)
            continue
        dtype = _array_dtype(value).name
        data = value.array if isinstance(value, Reinterpreted) else value
        out[name] = (np.array(data, copy=True) if copy else data, dtype)
    return out


def failure_reason(exc):
    """Why a config was dropped, in one line."""
    if isinstance(exc, errors.MemoryError):
        return f"does not fit: {exc.message}"
    if isinstance(exc, errors.CompilationError):
        where = f" (line {exc.line})" if exc.line else ""
        return f"compile error{where}: {exc.message}"
    if isinstance(exc, errors.SimulationError):
        return f"run failed: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
    return f"{type(exc).__name__}: {exc}"


def summary(result):
    """The small part of an ``evaluate`` result (what travels back to the client)."""
    return result["summary"]


CHUNK = 1 << 22  # elements compared at a time (outputs of production shapes are hundreds of MB)


def agree(a, b):
    """{"agree": bool, "detail": str}: whether two ``evaluate`` results wrote the same outputs, within the
    tolerance of each output's dtype (``TOLERANCE``; integers exactly)."""
    for name in sorted(a["outputs"].keys() & b["outputs"].keys()):
        (x, dtype), (y, _) = a["outputs"][name], b["outputs"][name]
        if x.shape != y.shape:
            return {"agree": False, "detail": f"'{name}' has shape {list(y.shape)}, not {list(x.shape)}"}
        flat_x, flat_y = x.reshape(-1), y.reshape(-1)
        bad_count, first, worst = 0, None, 0.0
        for start in range(0, flat_x.size, CHUNK):
            cx, cy = _values(flat_x[start:start + CHUNK], dtype), _values(flat_y[start:start + CHUNK], dtype)
            bad = ~_close(cx, cy, dtype)
            if bad.any():
                bad_count += int(bad.sum())
                if first is None:
                    first = (start + int(np.argmax(bad)), float(cy[bad][0]), float(cx[bad][0]))
                with np.errstate(invalid="ignore", over="ignore"):
                    worst = max(worst, float(np.nanmax(np.abs(cy[bad] - cx[bad]))))
        if bad_count:
            index = [int(i) for i in np.unravel_index(first[0], x.shape)]
            return {"agree": False,
                    "detail": f"'{name}': {bad_count} of {x.size} elements differ ({_bound(dtype)}), first at {index}: "
                              f"{first[1]:.6g} vs {first[2]:.6g}, max abs diff {worst:.3g}"}
    return {"agree": True, "detail": ""}


def _values(chunk, dtype):
    if dtype == "bfloat16":
        return _bfloat16_values(chunk)
    return chunk.astype(np.float64) if dtype in TOLERANCE and chunk.dtype != np.float32 else chunk


def _close(x, y, dtype):
    if dtype not in TOLERANCE:
        return x == y
    rtol, atol = TOLERANCE[dtype]
    with np.errstate(invalid="ignore", over="ignore"):
        return np.isclose(y, x, rtol=rtol, atol=atol, equal_nan=True)


def _bound(dtype):
    return "rtol {:g}, atol {:g}".format(*TOLERANCE[dtype]) if dtype in TOLERANCE else "exactly"


def worker_identity():
    """(asc2 package directory, asc2 build id) of this process: the client checks its workers run its asc2."""
    import asc2
    from ..runtime import cache

    return os.path.dirname(os.path.abspath(asc2.__file__)), cache.build_id()
