"""Where kernels run: backend (Model simulator, the CPU Twin or NPU) and target platform."""

import enum
import os

BACKENDS = ("Model", "Twin", "NPU")
KNOWN_PLATFORMS = ("Ascend910B1", "Ascend910B2", "Ascend910B3", "Ascend910B4", "Ascend910_93", "Ascend950")
DEFAULT_BACKEND = "Model"
DEFAULT_PLATFORM = "Ascend910B1"


class Backend(str, enum.Enum):
    """Where kernels run (``asc2.set_platform(asc2.Backend.Model, ...)``); plain strings are accepted too."""

    Model = "Model"
    Twin = "Twin"  # the emitted Ascend C built with g++ against the CPU twin (runtime/twin.py)
    NPU = "NPU"

    def __str__(self):
        return self.value


# Target SoCs (``asc2.Platform.Ascend910B1``); plain strings are accepted too.
SocPlatform = enum.Enum("Platform", [(name, name) for name in KNOWN_PLATFORMS], type=str, module=__name__)
SocPlatform.__str__ = lambda self: self.value


class Platform:
    __slots__ = ("backend", "platform", "device_id")

    def __init__(self, backend, platform, device_id):
        self.backend = backend
        self.platform = platform
        self.device_id = device_id

    def __repr__(self):
        return f"Platform(backend={self.backend!r}, platform={self.platform!r}, device_id={self.device_id})"


_current = None


def available_platforms():
    """Platforms the compiler knows (its arch models), or the documented list without it."""
    try:
        from .. import _C

        return list(_C.platforms())
    except Exception:
        return list(KNOWN_PLATFORMS)


def _normalise_backend(backend):
    for b in BACKENDS:
        if str(backend).lower() == b.lower():
            return b
    raise ValueError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")


def _check_platform(platform):
    known = available_platforms()
    if platform not in known:
        raise ValueError(f"unknown platform {platform!r}; expected one of {', '.join(known)}")
    return platform


def check_backend_available(backend, device_id=0):
    """Raise "<backend> backend unavailable: <what is missing>" when ``backend`` cannot run here."""
    if backend == "Twin":
        import shutil

        from . import twin

        twin.include_dir()  # raises "Twin backend unavailable: ..." without the headers
        cxx = twin._compiler()
        if not shutil.which(cxx):
            raise RuntimeError(f"Twin backend unavailable: no C++ compiler {cxx!r} on PATH (set ASC2_TWIN_CXX)")
        return
    if backend == "NPU":
        from . import npu

        npu.check_available(device_id)


def set_platform(backend=DEFAULT_BACKEND, platform=DEFAULT_PLATFORM, device_id=0):
    """Select the backend ("Model", "Twin" or "NPU", or an ``asc2.Backend``), the target platform (a name or an
    ``asc2.Platform``) and the device."""
    global _current
    backend = _normalise_backend(getattr(backend, "value", backend))
    platform = _check_platform(getattr(platform, "value", platform))
    if not isinstance(device_id, int) or device_id < 0:
        raise ValueError(f"device_id must be a non-negative integer, got {device_id!r}")
    check_backend_available(backend, device_id)
    _current = Platform(backend, platform, device_id)
    return _current


def get_platform():
    """The current platform: set_platform(), else $ASC2_BACKEND / $ASC2_PLATFORM, else Model/Ascend910B1."""
    global _current
    if _current is None:
        backend = _normalise_backend(os.environ.get("ASC2_BACKEND") or DEFAULT_BACKEND)
        platform = _check_platform(os.environ.get("ASC2_PLATFORM") or DEFAULT_PLATFORM)
        _current = Platform(backend, platform, 0)
    return _current


def reset_platform():
    """Forget set_platform(); the environment is read again on next use (tests)."""
    global _current
    _current = None
