"""asc2: a tile DSL for Ascend NPU kernels.

    import asc2

    @asc2.jit
    def vadd(x, y, out, n: int, tiles: int, TILE: asc2.ConstExpr[int]):
        ...

    vadd[8](x, y, out, n, tiles, TILE=256)
"""

__version__ = "0.1.0"

from . import language
from .language import *  # noqa: F401,F403  (the DSL: dtypes, TensorLocation, copy_in, ...)
from .language import core as _core
from .errors import (CompilationError, CompilationTypeError, CompilationValueError, CompilationIndexError,
                     ShapeError, AlignmentError, MemoryError, UnsupportedError, UnsupportedDtypeError,
                     SimulationError, SimulationWarning, BackendUnsupportedError)
from .runtime import jit, JITFunction, set_platform, get_platform, available_platforms, reinterpret, Backend
from .runtime import SocPlatform as Platform
from .tune import autotune, Config
from . import tracebacks as _tracebacks

_tracebacks.install()

# `asc2.bool` reads like the other dtypes; set here so the module body keeps Python's bool.
globals()["bool"] = _core.bool_


# `from asc2 import *` must not shadow Python's bool/range/abs/MemoryError in user code.
__all__ = sorted(
    {name for name in language.__all__ if name not in ("range", "abs", "core", "builtin", "is_builtin")}
    | {"CompilationError", "CompilationTypeError", "CompilationValueError", "CompilationIndexError", "ShapeError",
       "AlignmentError", "UnsupportedError", "UnsupportedDtypeError", "SimulationError", "SimulationWarning",
       "BackendUnsupportedError", "jit",
       "JITFunction", "set_platform", "get_platform", "available_platforms", "reinterpret", "language", "Backend",
       "Platform", "autotune", "Config"})
