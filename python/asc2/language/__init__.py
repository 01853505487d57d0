"""The asc2 kernel language: types, markers and the DSL functions kernels call."""

from . import core
from .core import *  # noqa: F401,F403

__all__ = [name for name in dir(core) if not name.startswith("_") and name not in ("enum", "functools", "types")]
