"""One search: every config of one launch evaluated on an executor, their outputs compared, the fastest kept.

``submit`` sends the units (and the arrays, once) and returns at once; ``finish`` waits for them and returns
the report rows, one per config in config order, each with a verdict:

- ``winner``: the fastest correct config (lowest simulated cycles on the Model backend, lowest median wall time
  elsewhere; the earlier config on a tie);
- ``ok``: correct, slower;
- ``dropped``: did not compile, did not fit UB/L1/L0, or failed to run (``reason`` says which);
- ``mismatch``: ran, but its outputs differ from those of the largest group of configs that agree with each
  other (by the tolerance of the output's dtype, ``work.TOLERANCE``); two groups of one size: the one holding the
  earlier config is taken as right, so list a trusted config first;
- ``pruned``: left out by ``prune_configs_by`` before anything ran (rows added by the caller).
"""

from . import work


class Pending:
    """The handles of a submitted search."""

    def __init__(self, executor, units, runs, indices):
        self.executor = executor
        self.units = units
        self.runs = runs
        self.indices = indices


def submit(executor, units, arrays=(), indices=None):
    """Start evaluating ``units`` (one per config; their ``Shipped`` arguments index ``arrays``). ``indices``: the
    configs' numbers in the rows and reasons (default: their positions)."""
    shipped = executor.scatter(arrays)
    runs = [executor.submit(work.evaluate, unit, shipped) for unit in units]
    return Pending(executor, units, runs, list(indices) if indices is not None else list(range(len(units))))


def finish(pending, on_row=None):
    """Wait for a submitted search: its report rows (see the module docstring).

    The results are taken in config order (so a cluster decides as a serial run does), each ok one compared with
    the first config of every group of agreeing configs so far: it joins the first group it agrees with, or
    starts one. Only a group's first config keeps its outputs, so a sweep of production shapes holds a few
    outputs at a time, not one per config. The comparisons with the first group are submitted as soon as its
    first config is known, to run as each later config finishes. ``on_row(row)`` hears of each config as it is
    taken, with its verdict so far ("ok" or "dropped": the winner and the mismatches are known at the end)."""
    ex = pending.executor
    runs, rows, groups, details = pending.runs, [], [], {}
    summary_tasks = [ex.submit(work.summary, run) for run in runs]
    with_first = {}  # config position -> its comparison with the first group's first config
    try:
        for i, run in enumerate(runs):
            summary = ex.gather([summary_tasks[i]])[0]
            summary_tasks[i] = None
            unit = pending.units[i]
            rows.append({"index": pending.indices[i], "label": unit.label, "params": unit.config.describe(),
                         "config": unit.config.to_json(), **summary})
            if summary["verdict"] == "ok":
                tasks = [with_first.pop(i) if g is groups[0] else ex.submit(work.agree, runs[g[0]], run)
                         for g in groups]
                checks = ex.gather(tasks)
                joined = next((g for g, c in zip(groups, checks) if c["agree"]), None)
                for g, c in zip(groups, checks):
                    if not c["agree"]:
                        details[(g[0], i)] = c["detail"]
                if joined is None:
                    groups.append([i])
                    if len(groups) == 1:
                        with_first = {j: ex.submit(work.agree, run, runs[j]) for j in range(i + 1, len(runs))}
                else:
                    joined.append(i)
            if not any(g[0] == i for g in groups):
                with_first.pop(i, None)
                runs[i] = None  # its outputs can go
            if on_row is not None:
                on_row(dict(rows[-1]))
    except BaseException:
        ex.cancel([t for t in runs + summary_tasks + list(with_first.values()) if t is not None])
        raise
    finally:
        pending.runs = []
    for i, why in _mismatches(groups, details, pending.indices).items():
        rows[i].update(verdict="mismatch", reason=why)
    _mark_winner(rows)
    return rows


def _mismatches(groups, details, indices):
    """{position: why} of the configs outside the largest group (the earliest on a tie); ``indices`` number the
    configs in the reasons."""
    if len(groups) < 2:
        return {}
    right = max(groups, key=lambda g: (len(g), -g[0]))
    out = {}
    for group in groups:
        if group is right:
            continue
        # The later of two groups' first configs was compared with the earlier one on arrival.
        first = group[0]
        detail = details.get((right[0], first)) or details.get((first, right[0]))
        for j in group:
            like = "" if j == first else f" (as config #{indices[first]}'s, which its outputs match)"
            out[j] = (f"outputs differ from the {len(right)} config(s) that agree (config #{indices[right[0]]})"
                      f"{like}: {detail}")
    return out


def _mark_winner(rows):
    ok = [r for r in rows if r["verdict"] == "ok"]
    timed = [r for r in ok if r["metric"] is not None]
    best = min(timed, key=lambda r: (r["metric"], r["index"])) if timed else (ok[0] if ok else None)
    if best is not None:
        best["verdict"] = "winner"


def winner(rows):
    """The winning row, or None when no config compiled and ran."""
    return next((r for r in rows if r["verdict"] == "winner"), None)


def run(executor, units, arrays=(), indices=None, on_row=None):
    """``finish(submit(...), on_row)``."""
    return finish(submit(executor, units, arrays, indices), on_row)
