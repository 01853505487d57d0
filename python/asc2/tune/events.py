"""What a sweep tells its watchers while it runs: the workbench's Autotune view, or any listener.

Each event is a JSON-serialisable dict with ``"event"`` and ``"sweep"`` (a number unique in the process):

- ``sweep_started``: ``kernel``, ``key`` (the autotune key as text), ``executor`` ("local", "dask"),
  ``platform``, ``configs`` (``[{"index", "params"}]``, the order of the rows);
- ``config_done``: ``row`` (a report row, docs/autotune.md; ``code_sha1`` is the SHA-1 of the config's
  emitted Ascend C when it compiled, so a viewer can find the compile report of that config);
- ``sweep_finished``: ``rows``, ``winner`` (the winner's index or None), ``cached`` (chosen earlier);
- ``sweep_cancelled``: the sweep was stopped (Ctrl+C, the workbench's Stop).

Inside the workbench the events also go to its embedded module ``_asc2_workbench`` (``tuning_event``), which
hands them to the GUI thread. A listener that raises is dropped from nothing and breaks nothing: its
exception is reported as a warning and the sweep goes on.
"""

import hashlib
import itertools
import json
import warnings

_listeners = []
_numbers = itertools.count(1)


def add_listener(fn):
    """Calls ``fn(event)`` for every event from now on; returns ``fn`` (usable as a decorator)."""
    _listeners.append(fn)
    return fn


def remove_listener(fn):
    if fn in _listeners:
        _listeners.remove(fn)


def new_sweep():
    """A number for a new sweep."""
    return next(_numbers)


def code_sha1(report):
    """The SHA-1 of a compile report's emitted Ascend C (hex), or None."""
    text = (report or {}).get("ascendc")
    return hashlib.sha1(text.encode("utf-8")).hexdigest() if text else None


def _workbench():
    try:
        import _asc2_workbench  # only inside asc2-workbench's interpreter
    except ImportError:
        return None
    return getattr(_asc2_workbench, "tuning_event", None)


def emit(event, sweep, **fields):
    """Tells every listener (and the workbench) that ``event`` happened in sweep ``sweep``."""
    message = {"event": event, "sweep": sweep, **fields}
    forward = _workbench()
    if forward is not None:
        forward(json.dumps(message, default=str))
    for fn in list(_listeners):
        try:
            fn(message)
        except Exception as e:  # a watcher must not break the sweep it watches
            warnings.warn(f"autotune listener {getattr(fn, '__name__', fn)!r} failed on {event}: {e}",
                          RuntimeWarning, stacklevel=2)
