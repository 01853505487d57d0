"""Autotuning and sweeps: ``@asc2.autotune``, ``asc2.Config``, and the executors that run configs (in process or
on a Dask cluster). The batch CLI is ``python3 -m asc2.tune.sweep SPEC.json``; see docs/autotune.md."""

from .autotune import AutotuneError, Autotuner, autotune
from .config import Config
from .executor import DaskExecutor, LocalExecutor, close_shared
from .report import SweepReport

__all__ = ["autotune", "Autotuner", "AutotuneError", "Config", "DaskExecutor", "LocalExecutor", "close_shared",
           "SweepReport"]
