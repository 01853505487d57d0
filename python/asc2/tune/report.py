"""Sweep reports: a list of JSON-serialisable rows, one per config, printed as a table or written as JSON/CSV.

A row (see docs/autotune.md): ``index``, ``label``, ``params`` (the config as text), ``config`` (``kwargs``,
``block_num``, ``options``), ``block_num`` (the launch's), ``cycles``, ``time_us``, ``metric`` (what the winner
is chosen by: cycles on the Model backend, wall microseconds elsewhere), ``ub_peak``, ``ub_capacity``, ``peaks``
(bytes per on-chip memory space), ``bound_pipe``, ``code_sha1`` (of the emitted Ascend C), ``verdict``, ``reason``,
``worker``, ``wall_s``.
"""

import csv
import io
import json


class SweepReport(list):
    """The rows of a sweep; ``str()`` is the table, ``json.dumps`` takes it as a list."""

    def table(self):
        return format_table(self)

    def __str__(self):
        return self.table()

    def winner(self):
        return next((r for r in self if r.get("verdict") == "winner"), None)


def _verdict(row):
    """``dropped: <the reason's first line>`` (the whole reason stays in the row)."""
    verdict, reason = row.get("verdict", ""), (row.get("reason") or "").strip()
    if not reason or verdict == "winner":
        return verdict
    first = reason.splitlines()[0]
    return f"{verdict}: {first}" + (" ..." if first != reason else "")


def _num(value):
    return "-" if value is None else f"{value:,}" if isinstance(value, int) else f"{value:,.1f}"


def format_table(rows, width=100):
    """The rows as a fixed-width table: label (when the rows have different ones), params, cycles (or time), UB
    peak, bound pipe, verdict; long reasons are cut to ``width`` characters."""
    if not rows:
        return "(no configs)"
    timed = [r for r in rows if r.get("metric") is not None]
    metric = "cycles" if not timed or any(r["metric"] == r.get("cycles") for r in timed) else "time_us"
    has_label = len({r.get("label") or "" for r in rows}) > 1
    header = (["shape"] if has_label else []) + ["#", "config", metric, "UB peak", "bound", "verdict"]
    lines = []
    for r in rows:
        verdict = _verdict(r)
        if len(verdict) > width:
            verdict = verdict[:width - 4].rsplit(" ", 1)[0] + " ..."
        ub = r.get("ub_peak")
        ub_text = "-" if ub is None else (f"{ub:,} / {r['ub_capacity']:,}" if r.get("ub_capacity") else f"{ub:,}")
        lines.append(([str(r.get("label", ""))] if has_label else [])
                     + [str(r.get("index", "")), r.get("params", ""), _num(r.get(metric)), ub_text,
                        r.get("bound_pipe") or "-", verdict])
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(header)]
    right = {metric, "UB peak", "#"}
    fmt = [(str.rjust if h in right else str.ljust) for h in header]

    def render(cells):
        return "  ".join(f(c, w) for f, c, w in zip(fmt, cells, widths)).rstrip()

    return "\n".join([render(header), render(["-" * w for w in widths])] + [render(line) for line in lines])


def to_json(rows, **extra):
    """The rows (and ``extra`` top-level fields) as JSON text."""
    return json.dumps(dict(extra, results=list(rows)), indent=1, default=repr)


CSV_FIELDS = ("label", "index", "params", "block_num", "cycles", "time_us", "metric", "ub_peak", "ub_capacity",
              "bound_pipe", "verdict", "reason", "worker", "wall_s")


def to_csv(rows):
    """The rows as CSV text: the ``CSV_FIELDS`` first, then any other field; lists and dicts as JSON."""
    fields = list(CSV_FIELDS) + sorted({k for r in rows for k in r} - set(CSV_FIELDS))
    fields = [f for f in fields if any(f in r for r in rows)]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for r in rows:
        writer.writerow({k: json.dumps(v) if isinstance(v, (dict, list)) else v for k, v in r.items()
                         if k in fields})
    return out.getvalue()
