"""Batch sweeps: ``python3 -m asc2.tune.sweep SPEC.json [--executor dask|local] [--workers N] [--json OUT]
[--csv OUT]``.

A spec (JSON; docs/autotune.md has the whole format) holds a grid of kernels x shapes x configs and/or the
random-kernel campaign (tests/python/kernelgen.py, driven by bench/random_kernels.py's ``run_one``):

    {"executor": "dask", "n_workers": 2, "platform": "Ascend910B1",
     "kernels": [{"file": "../samples/gelu.py", "name": "gelu", "block_num": 8,
                  "shapes": [{"n": 4096}, {"n": 100000}],
                  "args": {"x_ptr": {"array": ["n"], "dtype": "float32", "init": "normal"},
                           "out_ptr": {"array": ["n"], "dtype": "float32", "init": "zeros"},
                           "size": "n"},
                  "configs": [{"TILE": 256}, {"TILE": 1024, "block_num": 16}]}],
     "campaign": {"count": 200, "seed": 0},
     "output": {"json": "results.json", "csv": "results.csv"}}

Every (kernel, shape) is one search (``search``): its configs run on the executor with arrays made on the
workers from the spec's seed, their outputs are compared, the fastest correct one is the winner. The campaign's
seeds run in chunks on the same executor. Prints a table per search and the campaign's counts, writes one JSON
and/or CSV of every result, and exits with 1 when a search has no winner or a mismatching config, or a random
kernel fails (2: a bad spec, or an unreachable scheduler).
"""

import argparse
import ast
import collections
import inspect
import json
import operator
import os
import sys
import time

from ..runtime.jit import _block_count
from . import events, executor as _executor, report, search, work
from .config import Config

FAILURES = ("mismatch", "race", "sim_error", "compile_error", "crash")  # bench/random_kernels.py's failures


class SpecError(ValueError):
    """A sweep spec that cannot run; the message names the spec entry."""


# ---------------------------------------------------------------------------
# Expressions over a shape's variables ("rows * cols", "ceildiv(n, 256)", "align(cols, 8)")

_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
           ast.Div: operator.truediv, ast.Mod: operator.mod, ast.Pow: operator.pow}
_FUNCTIONS = {"ceildiv": lambda a, b: -(-a // b), "align": lambda a, b: -(-a // b) * b, "min": min, "max": max,
              "int": int}


def evaluate_expr(text, variables, where):
    """The value of ``text`` (numbers, the shape's variables, + - * / // % **, ceildiv, align, min, max, int)."""
    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in variables:
                raise SpecError(f"{where}: '{text}' uses '{node.id}', which the shape does not define (it has "
                                f"{', '.join(variables) or 'no variables'})")
            return variables[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            return _BINARY[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            return -ev(node.operand) if isinstance(node.op, ast.USub) else ev(node.operand)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS \
                and not node.keywords:
            return _FUNCTIONS[node.func.id](*[ev(a) for a in node.args])
        raise SpecError(f"{where}: '{text}' is not an expression over the shape's variables (numbers, names, "
                        f"+ - * / // % **, {', '.join(_FUNCTIONS)})")

    try:
        return ev(ast.parse(str(text), mode="eval"))
    except SyntaxError:
        raise SpecError(f"{where}: '{text}' is not an expression") from None
    except ZeroDivisionError:
        raise SpecError(f"{where}: '{text}' divides by zero") from None


def _value(value, variables, where):
    """A config or constexpr value: literal JSON, or {"expr": "..."} evaluated over the shape."""
    if isinstance(value, dict):
        if set(value) != {"expr"}:
            raise SpecError(f"{where}: an object value must be {{\"expr\": \"...\"}}, got {value!r}")
        return evaluate_expr(value["expr"], variables, where)
    if isinstance(value, list):
        return tuple(_value(v, variables, where) for v in value)
    return value


# ---------------------------------------------------------------------------
# The grid


def _known_fields(obj, fields, where):
    """A SpecError naming the fields of ``obj`` (``where``: "a kernel entry", ...) that are not ``fields``."""
    unknown = sorted(set(obj) - set(fields))
    if unknown:
        raise SpecError(f"{where} has unknown field(s) {', '.join(unknown)}; it has {', '.join(fields)}")


def _arg(name, value, variables, seed, where):
    if isinstance(value, dict):
        if "array" not in value:
            raise SpecError(f"{where}: argument '{name}' is an object without \"array\" (its shape)")
        _known_fields(value, ("array", "dtype", "init", "scale"), f"{where}: argument '{name}'")
        dims = value["array"] if isinstance(value["array"], list) else [value["array"]]
        shape = [evaluate_expr(d, variables, f"{where}: '{name}'") for d in dims]
        try:
            return work.Seeded(shape, value.get("dtype", "float32"), value.get("init", "normal"),
                               value.get("scale", 1.0), seed)
        except ValueError as e:
            raise SpecError(f"{where}: argument '{name}': {e}") from None
    if isinstance(value, str):
        return evaluate_expr(value, variables, f"{where}: '{name}'")
    return value


def _config(entry, variables, where):
    if not isinstance(entry, dict):
        raise SpecError(f"{where}: a config is an object of parameter values, got {entry!r}")
    values = {k: _value(v, variables, f"{where}: '{k}'") for k, v in entry.items() if k not in ("block_num",
                                                                                               "options")}
    try:
        return Config(values, block_num=entry.get("block_num"), options=entry.get("options"))
    except (TypeError, ValueError) as e:
        raise SpecError(f"{where}: {e}") from None


def _shape_label(shape):
    return ", ".join(f"{k}={v}" for k, v in shape.items())


def _kernel_ref(entry, base, where):
    for field in ("file", "name", "configs", "args"):
        if field not in entry:
            raise SpecError(f"{where}: missing \"{field}\"")
    path = entry["file"] if os.path.isabs(entry["file"]) else os.path.normpath(os.path.join(base, entry["file"]))
    text = _read(path, where)
    try:
        module = work._import_module(path, text, work._digest(text))
    except Exception as e:  # noqa: BLE001 - whatever the module raises, the spec entry is what the user fixes
        raise SpecError(f"{where}: importing {path} failed: {type(e).__name__}: {e}") from None
    kernel = getattr(module, entry["name"], None)
    kernel = getattr(kernel, "kernel", kernel) if getattr(kernel, "__asc2_autotune__", False) else kernel
    if not getattr(kernel, "__asc2_jit__", False):
        raise SpecError(f"{where}: {path} has no @asc2.jit kernel named '{entry['name']}'")
    ref = work.KernelRef(path, entry["name"], text, kernel.source.hash, dict(kernel.options))
    return ref, kernel


def _read(path, where):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise SpecError(f"{where}: cannot read the kernel file {path} ({e})") from None


def grid_units(spec, base, target):
    """[(kernel entry, shape, [WorkUnit])] of the spec's kernels; the spec is checked before anything runs."""
    out = []
    seed = spec.get("seed", 0)
    for k, entry in enumerate(spec.get("kernels") or []):
        where = f"kernels[{k}]"
        if not isinstance(entry, dict):
            raise SpecError(f"{where}: a kernel entry is an object, got {entry!r}")
        _known_fields(entry, ("file", "name", "shapes", "args", "configs", "block_num"), f"{where}: a kernel entry")
        ref, kernel = _kernel_ref(entry, base, where)
        params = list(inspect.signature(kernel.fn).parameters)
        args = entry["args"]
        if not isinstance(args, dict):
            raise SpecError(f"{where}: \"args\" is an object of the kernel's arguments by name")
        if not isinstance(entry["configs"], list) or not entry["configs"]:
            raise SpecError(f"{where}: \"configs\" is a non-empty list of configs")
        block_num = entry.get("block_num")
        if block_num is not None:
            try:
                block_num = _block_count(block_num)
            except ValueError as e:
                raise SpecError(f"{where}: block_num: {e}") from None
        stray = [a for a in args if a not in params]
        if stray:
            raise SpecError(f"{where}: args {', '.join(map(repr, stray))} are not parameters of kernel "
                            f"'{ref.name}' (its parameters: {', '.join(params)})")
        for s, shape in enumerate(entry.get("shapes") or [{}]):
            at = f"{where}.shapes[{s}]"
            if not isinstance(shape, dict):
                raise SpecError(f"{at}: a shape is an object of variables, got {shape!r}")
            configs = [_config(c, shape, f"{where}.configs[{c_i}]") for c_i, c in enumerate(entry["configs"])]
            for c in configs:
                try:
                    c.check_against(ref.name, params, passed=args)
                except TypeError as e:
                    raise SpecError(f"{where}: {e}") from None
            values = {name: _arg(name, v, shape, seed, at) for name, v in args.items()}
            label = f"{ref.name}({_shape_label(shape)})"
            units = [work.WorkUnit(ref, c, values, block_num, target, label=label) for c in configs]
            out.append((entry, shape, units))
    return out


def run_grid(ex, groups, platform):
    """Every search of the grid, submitted at once and taken in order (asc2.tune.events hears of each)."""
    pending = [(entry, shape, units, search.submit(ex, units)) for entry, shape, units in groups]
    rows = []
    for entry, shape, units, p in pending:
        sweep = events.new_sweep()
        configs = [{"index": i, "params": u.config.describe()} for i, u in enumerate(units)]
        events.emit("sweep_started", sweep, kernel=entry["name"], key=_shape_label(shape), executor=ex.name,
                    platform=platform, configs=configs)
        try:
            found = search.finish(p, on_row=lambda row: events.emit("config_done", sweep, row=row))
        except BaseException:
            events.emit("sweep_cancelled", sweep)
            raise
        found = report.SweepReport(found)
        best = found.winner()
        events.emit("sweep_finished", sweep, rows=found, winner=best["index"] if best else None, cached=False)
        for row in found:
            row.update(kind="config", kernel=entry["name"], file=entry["file"], shape=shape)
        rows.append(found)
    return rows


# ---------------------------------------------------------------------------
# The random-kernel campaign


def find_driver(campaign, base):
    """bench/random_kernels.py: the spec's "driver" (relative to the spec), else one next to the asc2 sources."""
    if campaign.get("driver"):
        path = campaign["driver"]
        path = path if os.path.isabs(path) else os.path.normpath(os.path.join(base, path))
        if not os.path.exists(path):
            raise SpecError(f"campaign: the driver {path} does not exist")
        return path
    import asc2

    roots = [os.getcwd()]
    for package in {os.path.dirname(os.path.abspath(asc2.__file__)), os.path.dirname(os.path.realpath(asc2.__file__))}:
        roots += [os.path.join(package, "..", ".."), os.path.join(package, "..", "..", "..")]  # python/, build/python/
    for root in roots:
        path = os.path.normpath(os.path.join(root, "bench", "random_kernels.py"))
        if os.path.exists(path):
            return path
    raise SpecError("campaign: bench/random_kernels.py (the random-kernel driver of a source checkout) was not "
                    "found next to the asc2 sources or in the current directory; give its path as "
                    "campaign.driver")


def campaign_chunk(driver, seeds, mutate, mix):
    """Run the random kernels of ``seeds`` with the driver's ``run_one`` (each in a forked child): their results."""
    with open(driver, encoding="utf-8") as f:
        text = f.read()
    module = work._import_module(driver, text, work._digest(text))
    out = []
    for seed in seeds:
        result = module.run_one(seed, mutate, mix)
        result.pop("uncaught", None)
        out.append(dict(result, kind="random_kernel", worker=work.worker_name()))
    return out


def campaign_plan(campaign, base):
    """(driver path, seeds, chunk, mutate, mix) of the spec's campaign, checked."""
    if not isinstance(campaign, dict):
        raise SpecError(f"campaign: an object (count, seed, mix, mutate, chunk, driver), got {campaign!r}")
    _known_fields(campaign, ("count", "seed", "mix", "mutate", "chunk", "driver"), "campaign")
    for field, least in (("count", 1), ("seed", 0), ("chunk", 1)):
        value = campaign.get(field, least)
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            raise SpecError(f"campaign: {field} must be an integer >= {least}, got {value!r}")
    first = campaign.get("seed", 0)
    seeds = list(range(first, first + campaign.get("count", 100)))
    return (find_driver(campaign, base), seeds, campaign.get("chunk", 8), bool(campaign.get("mutate")),
            bool(campaign.get("mix")))


def run_campaign(ex, plan):
    driver, seeds, chunk, mutate, mix = plan
    handles = [ex.submit(campaign_chunk, driver, seeds[i:i + chunk], mutate, mix) for i in range(0, len(seeds), chunk)]
    return [r for part in ex.gather(handles) for r in part]


# ---------------------------------------------------------------------------
# The command line


def load_spec(path):
    try:
        with open(path, encoding="utf-8") as f:
            spec = json.load(f)
    except OSError as e:
        raise SpecError(f"cannot read the sweep spec {path}: {e}") from None
    except ValueError as e:
        raise SpecError(f"the sweep spec {path} is not valid JSON: {e}") from None
    if not isinstance(spec, dict):
        raise SpecError(f"the sweep spec {path} must be a JSON object")
    _known_fields(spec, ("executor", "n_workers", "scheduler", "backend", "platform", "seed", "kernels", "campaign",
                         "output"), "the sweep spec")
    if not spec.get("kernels") and not spec.get("campaign"):
        raise SpecError("the sweep spec has neither \"kernels\" nor \"campaign\": nothing to run")
    return spec


def sweep(spec, base, executor=None, n_workers=None, scheduler=None):
    """Run a loaded spec; returns (grid reports, campaign rows, facts about the run)."""
    import asc2

    p = asc2.get_platform()
    backend, platform = spec.get("backend", p.backend), spec.get("platform", p.platform)
    try:
        asc2.set_platform(backend, platform)
    except (ValueError, RuntimeError) as e:
        raise SpecError(f"the sweep spec's target: {e}") from None
    target = (backend, platform, 0)
    groups = grid_units(spec, base, target)
    plan = campaign_plan(spec["campaign"], base) if spec.get("campaign") else None
    kind = executor or spec.get("executor", "dask")
    if kind not in _executor.EXECUTORS:
        raise SpecError(f"unknown executor {kind!r}; expected one of {', '.join(_executor.EXECUTORS)}")
    scheduler = scheduler or spec.get("scheduler")
    n_workers = n_workers or spec.get("n_workers")
    start = time.perf_counter()
    ex = _executor.LocalExecutor() if kind == "local" else _executor.DaskExecutor(scheduler=scheduler,
                                                                                 n_workers=n_workers)
    with ex:
        workers = ex.worker_count()
        grid = run_grid(ex, groups, platform) if groups else []
        campaign = run_campaign(ex, plan) if plan else []
    facts = {"executor": kind, "workers": workers, "backend": backend, "platform": platform,
             "wall_s": round(time.perf_counter() - start, 3)}
    return grid, campaign, facts


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m asc2.tune.sweep", description=__doc__.splitlines()[0])
    parser.add_argument("spec", help="the sweep spec (JSON)")
    parser.add_argument("--executor", choices=_executor.EXECUTORS, help="overrides the spec's executor")
    parser.add_argument("--workers", type=int, help="LocalCluster workers (overrides the spec's n_workers)")
    parser.add_argument("--scheduler", help="a Dask scheduler address (overrides the spec and "
                                            f"${_executor.SCHEDULER_ENV})")
    parser.add_argument("--json", help="write every result here (overrides the spec's output.json)")
    parser.add_argument("--csv", help="write every result here (overrides the spec's output.csv)")
    args = parser.parse_args(argv)
    if args.workers is not None and args.workers < 1:
        parser.error("--workers must be at least 1")
    try:
        spec = load_spec(args.spec)
        base = os.path.dirname(os.path.abspath(args.spec))
        grid, campaign, facts = sweep(spec, base, args.executor, args.workers, args.scheduler)
    except (SpecError, ConnectionError) as e:
        print(f"asc2.tune.sweep: {e}", file=sys.stderr)
        return 2
    failed = False
    for rows in grid:
        print(f"\n{rows[0]['label']}")
        print(rows.table())
        failed |= rows.winner() is None or any(r["verdict"] == "mismatch" for r in rows)
    if campaign:
        counts = collections.Counter(r["status"] for r in campaign)
        print(f"\nrandom kernels: {len(campaign)}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
        failed |= any(counts.get(k) for k in FAILURES)
    print(f"\n{facts['executor']} executor, {facts['workers']} worker(s), {facts['wall_s']:.1f} s")
    rows = [r for group in grid for r in group] + campaign
    output = spec.get("output") or {}
    for kind, text in (("json", lambda: report.to_json(rows, **facts)), ("csv", lambda: report.to_csv(rows))):
        path = getattr(args, kind) or output.get(kind)
        if path:
            if not getattr(args, kind) and not os.path.isabs(path):
                path = os.path.join(os.path.dirname(os.path.abspath(args.spec)), path)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text())
            print(f"wrote {path}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
