"""``asc.runtime``: the runtime names upstream PyAsc2 kernels and tests import (``asc.runtime.config``)."""

from . import config  # noqa: F401
