"""Where work units run: in this process (``LocalExecutor``) or on a Dask cluster (``DaskExecutor``).

Both have the same small interface: ``scatter`` (send arrays once, get handles a task can take), ``submit(fn,
*args)`` (a handle; handles passed as arguments are the results they stand for), ``gather``, ``cancel`` and
``close``. A sweep submits every unit before it waits for any, so a cluster stays busy.

The Dask cluster is, in this order: the ``client=`` given (a ``distributed.Client``), the scheduler at
``$ASC2_DASK_SCHEDULER`` (``tcp://host:port``), or a ``LocalCluster`` of worker processes started here (one thread
each: the simulator is CPU-bound) and closed with the executor, or at exit for the shared one
(``shared_executor``). Workers import ``asc2``: a LocalCluster's workers inherit this process's ``sys.path``
and ``PYTHONPATH``; workers started elsewhere need ``PYTHONPATH`` to reach the ``asc2`` package (with its ``_C``
extension), e.g. ``PYTHONPATH=/path/to/build/python dask worker tcp://host:8786`` (and, under a nanny,
``MALLOC_TRIM_THRESHOLD_=134217728``: see ``MALLOC_TRIM_THRESHOLD``). The executor checks that every worker imports
asc2 before it runs anything.
"""

import atexit
import logging
import os
import threading
import warnings

from . import work

SCHEDULER_ENV = "ASC2_DASK_SCHEDULER"
EXECUTORS = ("dask", "local")


class LocalExecutor:
    """Every task in this process, one after another, when its result is first needed (a sweep then holds the
    outputs it still compares, as on a cluster): small sweeps, and the reference a cluster must match."""

    name = "local"
    remote = False

    def scatter(self, arrays):
        return list(arrays)

    def submit(self, fn, *args):
        return _Deferred(fn, args)

    def gather(self, handles):
        return [h.value for h in handles]

    def cancel(self, handles):
        pass

    def worker_count(self):
        return 1

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return "<asc2.tune LocalExecutor>"


class _Deferred:
    """A task run on first use of its value; handles among its arguments are their values."""

    __slots__ = ("fn", "args", "_value")
    _PENDING = object()

    def __init__(self, fn, args):
        self.fn, self.args, self._value = fn, args, self._PENDING

    @property
    def value(self):
        if self._value is self._PENDING:
            self._value = self.fn(*[_value(a) for a in self.args])
            self.fn = self.args = None
        return self._value


def _value(arg):
    if isinstance(arg, _Deferred):
        return arg.value
    if isinstance(arg, list):
        return [_value(a) for a in arg]
    return arg


class DaskExecutor:
    """Tasks on a Dask cluster: ``client``, else the scheduler at ``scheduler`` or ``$ASC2_DASK_SCHEDULER``, else
    a LocalCluster of ``n_workers`` processes (default: the CPU count, at most 4) that ``close`` stops."""

    name = "dask"
    remote = True

    def __init__(self, client=None, scheduler=None, n_workers=None, timeout=60):
        try:
            from distributed import Client, LocalCluster
        except ImportError as e:
            raise ImportError(f"asc2.tune: the Dask executor needs dask.distributed (Debian: python3-distributed), "
                              f"which does not import here ({e}); or tune with executor='local'") from None

        self._cluster = None
        self._owns_client = client is None
        if client is not None:
            self.client = client
        else:
            address = scheduler or os.environ.get(SCHEDULER_ENV)
            if address:
                try:
                    self.client = Client(address, timeout=timeout, set_as_default=False)
                except (OSError, TimeoutError) as e:
                    source = "scheduler=" if scheduler else f"${SCHEDULER_ENV}"
                    raise ConnectionError(f"asc2.tune: cannot reach the Dask scheduler {address} ({source}): {e}") \
                        from None
            else:
                n_workers = n_workers or min(4, os.cpu_count() or 1)
                if not isinstance(n_workers, int) or n_workers < 1:
                    raise ValueError(f"asc2.tune: n_workers must be a positive integer, got {n_workers!r}")
                with _worker_environment(), warnings.catch_warnings():
                    # Without a dashboard the scheduler still serves /health, on another port when 8787 is taken.
                    warnings.filterwarnings("ignore", message="Port 8787 is already in use", category=UserWarning)
                    self._cluster = LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                                                 host="127.0.0.1", dashboard_address=None,
                                                 silence_logs=logging.ERROR)
                self.client = Client(self._cluster, set_as_default=False)
        try:
            self._check_workers(timeout)
        except BaseException:
            self.close()
            raise

    def _check_workers(self, timeout):
        try:
            self.client.wait_for_workers(1, timeout=timeout)
        except (TimeoutError, OSError) as e:
            raise ConnectionError(f"asc2.tune: the Dask cluster at {self.client.scheduler.address} has no workers "
                                  f"after {timeout} s ({e})") from None
        try:
            identities = self.client.run(work.worker_identity)
        except Exception as e:  # noqa: BLE001 - the worker's own exception, whatever it is
            raise RuntimeError(f"asc2.tune: a Dask worker cannot run asc2 ({type(e).__name__}: {e}). Start the "
                               "workers with PYTHONPATH reaching the asc2 package and its _C extension (e.g. "
                               f"PYTHONPATH={os.path.dirname(work.worker_identity()[0])})") from None
        here = work.worker_identity()
        for worker, identity in identities.items():
            if tuple(identity) != here:
                warnings.warn(f"asc2.tune: Dask worker {worker} runs asc2 {identity[1]} from {identity[0]}, this "
                              f"process asc2 {here[1]} from {here[0]}: its compiles and timings may differ",
                              RuntimeWarning, stacklevel=4)

    def scatter(self, arrays):
        # To every worker: each runs configs that read them, and data on one worker would draw every task there.
        arrays = list(arrays)
        return self.client.scatter(arrays, hash=False, broadcast=True) if arrays else []

    def submit(self, fn, *args):
        return self.client.submit(fn, *args, pure=False)

    def gather(self, handles):
        return self.client.gather(list(handles))

    def cancel(self, handles):
        handles = [h for h in handles if h is not None]
        if handles:
            self.client.cancel(handles)

    def worker_count(self):
        return len(self.client.scheduler_info().get("workers", {}))

    def close(self):
        if self._owns_client and self.client is not None:
            self.client.close()
        if self._cluster is not None:
            self._cluster.close()
        self.client = self._cluster = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        where = "LocalCluster" if self._cluster is not None else getattr(self.client, "scheduler", None)
        return f"<asc2.tune DaskExecutor on {where}>"


# Dask's nannies start workers with MALLOC_TRIM_THRESHOLD_=65536 (glibc then returns freed memory to the system
# at once), which makes the compiler's and the simulator's allocation-heavy native code about 3x slower; a
# threshold of 128 MiB runs them as fast as in this process.
MALLOC_TRIM_THRESHOLD = str(128 << 20)


class _worker_environment:
    """The environment worker processes start with: ``PYTHONPATH`` extended by this process's ``sys.path`` (so they
    import the same asc2; spawned processes get ``sys.path`` too, this also covers the processes those start) and
    ``MALLOC_TRIM_THRESHOLD_`` (above). Restored afterwards: a nanny also writes its variables into this process's
    environment.

    The worker processes are spawned (multiprocessing), which runs the parent's main script again in each of them
    unless the script guards itself with ``if __name__ == "__main__"``: a kernel script (or the workbench's, whose
    ``__main__`` is the edited file) would then start a cluster inside every worker. While the cluster starts,
    ``__main__`` shows no file to spawn from; workers import kernels by their own file paths (``work``)."""

    NAMES = ("PYTHONPATH", "MALLOC_TRIM_THRESHOLD_")
    MAIN_FIELDS = ("__file__", "__spec__")

    def __enter__(self):
        import sys

        main = sys.modules.get("__main__")
        self.main = main
        self.main_saved = {f: main.__dict__[f] for f in self.MAIN_FIELDS if main is not None and f in main.__dict__}
        for f in self.main_saved:
            if f == "__spec__":
                main.__spec__ = None
            else:
                del main.__dict__[f]
        self.saved = {name: os.environ.get(name) for name in self.NAMES}
        paths = [p for p in sys.path if p and os.path.isdir(p)]
        if self.saved["PYTHONPATH"]:
            paths = self.saved["PYTHONPATH"].split(os.pathsep) + paths
        os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
        os.environ["MALLOC_TRIM_THRESHOLD_"] = MALLOC_TRIM_THRESHOLD

    def __exit__(self, *exc):
        if self.main is not None:
            self.main.__dict__.update(self.main_saved)
        for name, value in self.saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


_shared = {}
_shared_lock = threading.Lock()


def shared_executor(n_workers=None):
    """The process's Dask executor for ``executor="dask"`` without a client: one per scheduler address (or one
    LocalCluster), started on first use and closed at exit (or by ``close_shared``)."""
    key = os.environ.get(SCHEDULER_ENV) or f"local:{n_workers}"
    with _shared_lock:
        executor = _shared.get(key)
        if executor is None or executor.client is None:
            executor = _shared[key] = DaskExecutor(n_workers=n_workers)
        return executor


def close_shared():
    """Close the shared executors (and the LocalClusters they started)."""
    with _shared_lock:
        executors = list(_shared.values())
        _shared.clear()
    for executor in executors:
        executor.close()


atexit.register(close_shared)


def make_executor(executor=None, client=None, n_workers=None):
    """(executor, owned): the executor an ``executor=`` / ``client=`` pair names; ``owned`` executors are closed by
    the caller when done (the shared ones live until exit)."""
    if executor is not None and not isinstance(executor, str):
        if not all(hasattr(executor, name) for name in ("submit", "gather", "scatter")):
            raise TypeError(f"asc2.tune: executor must be 'dask', 'local' or an executor object, got {executor!r}")
        return executor, False
    if client is not None:
        if executor == "local":
            raise ValueError("asc2.tune: client= runs the sweep on that Dask cluster; it cannot go with "
                             "executor='local'")
        return DaskExecutor(client=client), True
    if executor is None or executor == "dask":
        return shared_executor(n_workers), False
    if executor == "local":
        return LocalExecutor(), False
    raise ValueError(f"asc2.tune: unknown executor {executor!r}; expected one of {', '.join(EXECUTORS)} or an "
                     "executor object")
