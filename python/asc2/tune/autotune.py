"""``@asc2.autotune``: pick a kernel's fastest config per tuning key, on the simulator, and remember it.

    @asc2.autotune(configs=[asc2.Config(TILE=256), asc2.Config(TILE=1024, block_num=16)], key=["x_ptr", "n"])
    @asc2.jit
    def kernel(x_ptr, out_ptr, n: int, TILE: asc2.ConstExpr[int]): ...

    kernel[8](x, out, n)            # first launch for this key: tunes, then runs the winner on x/out
    print(kernel.autotune_report)   # every config: cycles, UB peak, bound pipe, verdict

The first launch for a tuning key (the values of the ``key`` arguments; an array's shape and dtype) evaluates
every config (``search``) on copies of the arguments, on the current backend and platform, through an executor
(``executor``), keeps the fastest correct one, stores the choice on disk (``choices``) and launches it on the
caller's arguments. Later launches for the key launch the stored choice at once, in this process and in the next.
"""

import inspect
import json
import math
import warnings

from ..language import core
from ..runtime import cache
from ..runtime.jit import _array_dtype, effective_options, launch_blocks
from ..runtime.platform import get_platform
from . import choices, events, executor as _executor, search, work
from .config import Config, plain
from .report import SweepReport

PRUNE_FIELDS = ("early_config_prune", "perf_model", "top_k")


class AutotuneError(RuntimeError):
    """No config of a kernel compiled, fitted and ran; the message holds every config's reason."""

    def __init__(self, message, report):
        super().__init__(message)
        self.report = report


def autotune(configs, key=(), prune_configs_by=None, warmup=1, rep=3, client=None, executor=None, n_workers=None,
             cache_results=True):
    """Decorate an ``@asc2.jit`` kernel (write it above ``@asc2.jit``) to tune it over ``configs``.

    - ``configs``: a list of ``asc2.Config``.
    - ``key``: names of kernel arguments whose values (an array's shape and dtype) start a new search when they
      change; the launch's block count, the backend and the platform always belong to the key.
    - ``prune_configs_by``: a dict with ``early_config_prune(configs, args) -> configs`` (``args``: the launch's
      arguments by name), and/or ``perf_model(config, args) -> estimate`` with ``top_k`` (how many of the lowest
      estimates to run: an int, or a fraction of the configs).
    - ``warmup``, ``rep``: launches before and launches timed per config on a backend timed by the wall clock
      (NPU, Twin); the Model simulator is deterministic: each config runs once and is timed in cycles.
    - ``executor``: ``"dask"`` (the default: ``client``, else ``$ASC2_DASK_SCHEDULER``, else a LocalCluster of
      ``n_workers`` processes shared by the process; on the NPU backend the default is ``"local"``), ``"local"``
      (in this process, one config after another) or an executor object (``asc2.tune.DaskExecutor``,
      ``asc2.tune.LocalExecutor``).
    - ``cache_results``: store the choice under ``$ASC2_CACHE_DIR/autotune`` and reuse it in later processes.
    """
    configs = _check_configs(configs)
    key = _check_key(key)
    prune_configs_by = _check_prune(prune_configs_by)
    for name, value, least in (("warmup", warmup, 0), ("rep", rep, 1)):
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            raise ValueError(f"asc2.autotune: {name} must be an integer >= {least}, got {value!r}")
    if isinstance(executor, str) and executor not in _executor.EXECUTORS:
        raise ValueError(f"asc2.autotune: unknown executor {executor!r}; expected one of "
                         f"{', '.join(_executor.EXECUTORS)} or an executor object")
    if n_workers is not None and (not isinstance(n_workers, int) or n_workers < 1):
        raise ValueError(f"asc2.autotune: n_workers must be a positive integer, got {n_workers!r}")

    def decorate(kernel):
        if isinstance(kernel, Autotuner):
            raise TypeError("asc2.autotune: the kernel is already autotuned; use one @asc2.autotune")
        if not getattr(kernel, "__asc2_jit__", False):
            raise TypeError(f"asc2.autotune goes above @asc2.jit: it tunes a kernel, got {kernel!r}")
        return Autotuner(kernel, configs, key, prune_configs_by, warmup, rep, client, executor, n_workers,
                         cache_results)

    return decorate


def _check_configs(configs):
    if isinstance(configs, Config) or not isinstance(configs, (list, tuple)) or not configs:
        raise TypeError(f"asc2.autotune: configs must be a non-empty list of asc2.Config, got {configs!r}")
    for i, c in enumerate(configs):
        if not isinstance(c, Config):
            raise TypeError(f"asc2.autotune: configs[{i}] is {c!r}, not an asc2.Config")
    seen = {}
    for i, c in enumerate(configs):
        if c in seen:
            raise ValueError(f"asc2.autotune: configs[{i}] repeats configs[{seen[c]}] ({c!r})")
        seen[c] = i
    return list(configs)


def _check_key(key):
    if isinstance(key, str) or not isinstance(key, (list, tuple)) or not all(isinstance(k, str) for k in key):
        raise TypeError(f"asc2.autotune: key must be a list of argument names, got {key!r}")
    return list(key)


def _check_prune(prune):
    if prune is None:
        return {}
    if not isinstance(prune, dict):
        raise TypeError(f"asc2.autotune: prune_configs_by must be a dict with {', '.join(PRUNE_FIELDS)}, got "
                        f"{prune!r}")
    unknown = sorted(set(prune) - set(PRUNE_FIELDS))
    if unknown:
        raise TypeError(f"asc2.autotune: prune_configs_by has unknown field(s) {', '.join(unknown)}; valid fields "
                        f"are {', '.join(PRUNE_FIELDS)}")
    for name in ("early_config_prune", "perf_model"):
        if name in prune and not callable(prune[name]):
            raise TypeError(f"asc2.autotune: prune_configs_by['{name}'] must be a function")
    top_k = prune.get("top_k")
    if top_k is not None:
        if "perf_model" not in prune:
            raise TypeError("asc2.autotune: prune_configs_by['top_k'] needs a 'perf_model' to rank the configs")
        fraction = isinstance(top_k, float) and 0 < top_k <= 1
        if not fraction and (not isinstance(top_k, int) or isinstance(top_k, bool) or top_k < 1):
            raise ValueError(f"asc2.autotune: prune_configs_by['top_k'] must be a positive integer or a fraction "
                             f"in (0, 1], got {top_k!r}")
    return dict(prune)


class Autotuner:
    """An autotuned kernel: launch it as the kernel (``kernel[block_num](*args)``) without the tuned parameters.

    ``autotune_report``: the report of the last launch's search (a list of dicts; ``print`` shows a table);
    ``best_config``: the config the last launch ran; ``last_report``: that launch's compile report;
    ``tuning_stats``: sweeps run and choices reused from memory and disk."""

    __asc2_autotune__ = True

    def __init__(self, kernel, configs, key, prune, warmup, rep, client, executor, n_workers, cache_results):
        self.kernel = kernel
        self.configs = configs
        self.key = key
        self.prune = prune
        self.warmup, self.rep = warmup, rep
        self.client, self.executor, self.n_workers = client, executor, n_workers
        self.cache_results = cache_results
        self.__name__ = kernel.__name__
        self.__qualname__ = kernel.__qualname__
        self.__doc__ = kernel.__doc__
        self.__module__ = kernel.__module__
        self.__wrapped__ = kernel
        self.params = list(inspect.signature(kernel.fn).parameters)
        for c in configs:
            try:
                c.check_against(kernel.__name__, self.params)
            except TypeError as e:
                raise TypeError(f"asc2.autotune: {e}") from None
        for k in key:
            if k not in self.params:
                raise TypeError(f"asc2.autotune: key {k!r} is not a parameter of kernel '{kernel.__name__}' (its "
                                f"parameters: {', '.join(self.params)})")
        self.tuned = {name for c in configs for name in c.kwargs}
        self.choices = {}  # tuning key (JSON text) -> (config index, SweepReport)
        self.autotune_report = None
        self.best_config = None
        self._warned_script = False
        self.tuning_stats = {"sweeps": 0, "memory": 0, "disk": 0}
        self._last = kernel

    def __repr__(self):
        return f"<asc2.autotune of {self.kernel!r}, {len(self.configs)} configs>"

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"launch a kernel with a block count: {self.__name__}[block_num](...)")

    def __getitem__(self, block_num):
        return _Launch(self, launch_blocks(block_num))

    @property
    def last_report(self):
        return self._last.last_report

    # -- launch
    def run(self, block_num, args, kwargs):
        try:
            named = dict(inspect.signature(self.kernel.fn).bind_partial(*args, **kwargs).arguments)
        except TypeError as e:
            raise TypeError(f"{self.__name__}(): {e}") from None
        clash = sorted(self.tuned & set(named))
        if clash:
            raise TypeError(f"asc2.autotune: kernel '{self.__name__}' was launched with "
                            f"{', '.join(repr(n) for n in clash)}, which its configs set; leave the tuned "
                            "parameters out of the launch")
        index = self._choice(named, block_num)
        config = self.configs[index]
        kernel = work.with_options(self.kernel, config.options)
        self._last, self.best_config = kernel, config
        return kernel[config.block_num or block_num](**named, **config.kwargs)

    def _tuning_key(self, named, block_num):
        sig = inspect.signature(self.kernel.fn)
        values = []
        for name in self.key:
            if name in named:
                value = named[name]
            elif sig.parameters[name].default is not inspect.Parameter.empty:
                value = sig.parameters[name].default
            else:
                raise TypeError(f"asc2.autotune: kernel '{self.__name__}' was launched without its key argument "
                                f"'{name}'")
            values.append([name, _describe(value)])
        p = get_platform()
        return {"key": values, "block_num": block_num, "backend": p.backend, "platform": p.platform}

    def _choice(self, named, block_num):
        tuning_key = self._tuning_key(named, block_num)
        memo = json.dumps(tuning_key, sort_keys=True)
        if memo in self.choices:
            self.tuning_stats["memory"] += 1
            index, self.autotune_report = self.choices[memo]
            return index
        identities = [c.identity() for c in self.configs]
        disk_key = None
        if self.cache_results:
            options = {k: v for k, v in effective_options(self.kernel.options).items() if k != "always_compile"}
            measure = {} if tuning_key["backend"] == "Model" else {"warmup": self.warmup, "rep": self.rep}
            disk_key = choices.make_key({"build": cache.build_id(), "kernel": self.kernel._dependency_hashes(),
                                         "options": options, "configs": identities, "tuning": tuning_key,
                                         "measure": measure})
            entry = choices.load(disk_key, self.__name__, identities)
            if entry is not None:
                self.tuning_stats["disk"] += 1
                self.autotune_report = SweepReport(entry["report"])
                self.choices[memo] = (entry["winner"], self.autotune_report)
                events.emit("sweep_finished", events.new_sweep(), **self._header(tuning_key),
                            rows=self.autotune_report, winner=entry["winner"], cached=True)
                return entry["winner"]
        report = self._search(named, block_num, tuning_key)
        self.tuning_stats["sweeps"] += 1
        self.autotune_report = report
        best = report.winner()
        if best is None:
            raise AutotuneError(_no_winner_message(self.__name__, tuning_key, report), report)
        self.choices[memo] = (best["index"], report)
        if disk_key is not None and best["metric"] is not None:
            choices.store(disk_key, self.__name__, identities, best["index"], report)
        return best["index"]

    def _header(self, tuning_key, executor=None):
        """What a sweep event says about the sweep (asc2.tune.events)."""
        header = {"kernel": self.__name__, "key": _key_text(tuning_key), "platform": tuning_key["platform"]}
        return dict(header, executor=executor) if executor else header

    def _search(self, named, block_num, tuning_key):
        """Run the configs of this launch (asc2.tune.events hears of it as it goes): the report."""
        kept, rows = self._pruned(named)
        p = get_platform()
        executor = self.executor
        if executor is None and self.client is None and p.backend == "NPU":
            executor = "local"  # launches timed side by side on one device would disturb each other
        if executor is None and self.client is None and work.runs_script_on_import(self.kernel):
            if not self._warned_script:
                warnings.warn(f"asc2.autotune: kernel '{self.__name__}' is defined in the script being run, which "
                              "runs code at its top level without an `if __name__ == \"__main__\":` guard; Dask "
                              "workers would run the script again when they import the kernel, so the configs run "
                              "in this process. Guard the script's launches (or move the kernel into a module) to "
                              "tune on Dask", RuntimeWarning, stacklevel=5)
                self._warned_script = True
            executor = "local"
        ex, owned = _executor.make_executor(executor, self.client, self.n_workers) if kept else (None, False)
        sweep = events.new_sweep()
        events.emit("sweep_started", sweep, **self._header(tuning_key, ex.name if ex else "none"),
                    configs=[{"index": i, "params": c.describe()} for i, c in enumerate(self.configs)])
        for row in rows:
            events.emit("config_done", sweep, row=row)
        try:
            if kept:
                ref = work.KernelRef.of(self.kernel) if ex.remote else work.LiveKernel(self.kernel)
                args, arrays = {}, []
                for name, value in named.items():
                    if work.is_array(value):
                        args[name] = work.Shipped(len(arrays))
                        arrays.append(work.host_array(value))
                    else:
                        args[name] = value
                units = [work.WorkUnit(ref, self.configs[i], args, block_num, (p.backend, p.platform, p.device_id),
                                       self.warmup, self.rep) for i in kept]
                rows += search.run(ex, units, arrays, indices=kept,
                                   on_row=lambda row: events.emit("config_done", sweep, row=row))
        except BaseException:
            events.emit("sweep_cancelled", sweep)  # Stop (KeyboardInterrupt) has cancelled the futures
            raise
        finally:
            if owned:
                ex.close()
        report = SweepReport(sorted(rows, key=lambda r: r["index"]))
        best = report.winner()
        events.emit("sweep_finished", sweep, rows=report, winner=best["index"] if best else None, cached=False)
        return report

    def _pruned(self, named):
        """(indices of the configs to run, report rows of those pruned)."""
        indices = list(range(len(self.configs)))
        rows = []
        early = self.prune.get("early_config_prune")
        if early is not None:
            kept = early(list(self.configs), dict(named))
            if not isinstance(kept, (list, tuple)) or not all(isinstance(c, Config) and c in self.configs
                                                              for c in kept):
                raise TypeError(f"asc2.autotune: early_config_prune of kernel '{self.__name__}' must return a list "
                                f"of the configs it was given, got {kept!r}")
            keep = set(kept)
            rows += [_pruned_row(i, self.configs[i], "early_config_prune") for i in indices
                     if self.configs[i] not in keep]
            indices = [i for i in indices if self.configs[i] in keep]
        model = self.prune.get("perf_model")
        if model is not None and indices:
            estimates = {i: model(self.configs[i], dict(named)) for i in indices}
            top_k = self.prune.get("top_k") or len(indices)
            count = math.ceil(top_k * len(indices)) if isinstance(top_k, float) else top_k
            ranked = sorted(indices, key=lambda i: (estimates[i], i))
            rows += [_pruned_row(i, self.configs[i], f"perf_model estimate {estimates[i]!r}, not in the best "
                                 f"{count}") for i in ranked[count:]]
            indices = sorted(ranked[:count])
        return indices, rows


def _pruned_row(index, config, reason):
    return {"index": index, "label": "", "params": config.describe(), "config": config.to_json(),
            "verdict": "pruned", "reason": reason, "cycles": None, "time_us": None, "metric": None,
            "ub_peak": None, "ub_capacity": None, "peaks": {}, "bound_pipe": None, "code_sha1": None,
            "block_num": config.block_num, "worker": None, "wall_s": 0.0}


def _describe(value):
    """A tuning key's part for one argument: an array by shape and dtype, a value by itself."""
    if isinstance(value, core.ConstExpr):
        value = value.value
    if work.is_array(value):
        dtype = _array_dtype(value)
        return ["array", [int(n) for n in value.shape], dtype.name if dtype else str(value.dtype)]
    return [type(value).__name__, plain(value)]


def _key_text(tuning_key):
    """``size=100000, x_ptr=float32[4096, 512]``."""
    return ", ".join(f"{k}={v[1] if v[0] != 'array' else f'{v[2]}{v[1]}'}" for k, v in tuning_key["key"])


def _no_winner_message(name, tuning_key, report):
    reasons = {r["reason"] for r in report if r["verdict"] != "pruned"}
    key = _key_text(tuning_key)
    head = f"asc2.autotune: no config of kernel '{name}' compiled, fitted and ran"
    head += f" for {key}" if key else ""
    if len(reasons) == 1:
        head += f"; every config: {next(iter(reasons))}"
    return head + "\n" + report.table()


class _Launch:
    __slots__ = ("tuner", "block_num")

    def __init__(self, tuner, block_num):
        self.tuner = tuner
        self.block_num = block_num

    def __call__(self, *args, **kwargs):
        return self.tuner.run(self.block_num, args, kwargs)

    def __repr__(self):
        return f"{self.tuner!r}[{self.block_num}]"
