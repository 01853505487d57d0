"""``asc.runtime.config``: backend, platform and kernel-type names as upstream PyAsc2 tests spell them.

``config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)`` selects the asc2 runtime's
platform; ``@asc2.jit(kernel_type=config.KernelType.AIC_ONLY)`` asks the compiler to confirm the kernel
type it detects (the MIX_* variants all mean a MIX kernel here).
"""

import enum

from asc2 import Backend, Platform, set_platform, get_platform  # noqa: F401
from asc2.runtime.jit import KERNEL_TYPES

KernelType = enum.Enum("KernelType", [(name, name) for name in KERNEL_TYPES], type=str, module=__name__)
KernelType.__str__ = lambda self: self.value
