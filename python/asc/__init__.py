"""`asc`: the names upstream PyAsc2 kernels import from the pyasc (asc1) package.

Kernels written for upstream PyAsc2 often annotate with ``asc.ConstExpr[int]``
or name dtypes as ``asc.float32``; this module gives them the asc2 objects so
those kernels run unmodified.
"""

from asc2 import *  # noqa: F401,F403
from asc2 import ConstExpr, GlobalAddress  # noqa: F401
from . import runtime  # noqa: F401,E402  (asc.runtime.config.KernelType etc.)
