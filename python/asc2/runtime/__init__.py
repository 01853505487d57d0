"""JIT compilation, caching, launch and platform selection."""

from .jit import JITFunction, jit, validate_options, OPTIONS, reinterpret
from .platform import set_platform, get_platform, available_platforms, Backend, SocPlatform

__all__ = ["JITFunction", "jit", "validate_options", "OPTIONS", "set_platform", "get_platform",
           "available_platforms", "reinterpret", "Backend", "SocPlatform"]
