"""Errors raised while compiling or running an asc2 kernel.

Every compile-time error points at the kernel source: ``file:line:col: message``
followed by the offending line and a caret under the column, so the terminal,
the workbench editor and pytest all show the same place.
"""

import builtins


class CompilationError(Exception):
    """A kernel could not be compiled; carries the source position.

    ``CompilationError(source, node, message)``: ``source`` is the kernel's
    ``KernelSource`` (or None), ``node`` an ``ast`` node (or None).
    """

    def __init__(self, source, node, message):
        self.message = message
        self.file = getattr(source, "file", None)
        self.line = getattr(node, "lineno", None)
        # ast columns are 0-based; MLIR locations and editors count from 1.
        col = getattr(node, "col_offset", None)
        self.col = col + 1 if col is not None else None
        self.source_line = source.line_text(self.line) if source is not None and self.line else None
        super().__init__(str(self))

    @classmethod
    def at(cls, file, line, col, message, source_line=None):
        """An error at an explicit position (diagnostics from the C++ passes)."""
        err = cls.__new__(cls)
        err.message = message
        err.file = file or None
        err.line = line or None
        err.col = col or None
        err.source_line = source_line
        Exception.__init__(err, str(err))
        return err

    def __str__(self):
        where = ":".join(str(p) for p in (self.file, self.line, self.col) if p)
        text = f"{where}: {self.message}" if where else self.message
        if self.source_line is not None:
            text += "\n    " + self.source_line.rstrip()
            if self.col:
                # Tabs keep their width so the caret lines up under the column.
                pad = "".join(c if c == "\t" else " " for c in self.source_line[: self.col - 1])
                text += "\n    " + pad + "^"
        return text

    def __reduce__(self):
        return (_rebuild, (type(self), self.file, self.line, self.col, self.message, self.source_line))


def _rebuild(cls, file, line, col, message, source_line):
    return cls.at(file, line, col, message, source_line)


# The subclasses also derive from the builtin exception upstream PyAsc2 raises for
# the same mistake, so `pytest.raises(TypeError)` style checks keep working.
class CompilationTypeError(CompilationError, TypeError):
    """Wrong kind of value: a tile where a tensor is needed, mismatched dtypes, ..."""


class CompilationValueError(CompilationError, ValueError):
    """Inconsistent arguments (e.g. offsets and shape of different ranks)."""


class CompilationIndexError(CompilationError, IndexError):
    """A dimension index out of range."""


class ShapeError(CompilationError, RuntimeError):
    """Tile shapes that do not match, or are not known at compile time."""


class AlignmentError(ShapeError):
    """A UB tile whose last dimension is not 32-byte aligned."""


class MemoryError(CompilationError, RuntimeError):  # noqa: A001 - asc2.MemoryError by design
    """The live tiles do not fit the on-chip memory (UB/L1/L0)."""


class UnsupportedError(CompilationError, RuntimeError):
    """Python syntax or an asc2 feature the compiler does not handle."""


class UnsupportedDtypeError(CompilationTypeError, UnsupportedError):
    """An element type the operation does not compute in (float64 anywhere, ...): a TypeError by Python's
    convention and a RuntimeError by upstream PyAsc2's, so either ``except`` catches it."""


class DtypeNotSupported(TypeError, builtins.RuntimeError):
    """What ``UnsupportedDtypeError`` is when it propagates unwrapped (``capture_exceptions=False``)."""


class SimulationError(builtins.RuntimeError):
    """A kernel run failed: out-of-bounds access, data race, simulator fault."""

    def __init__(self, message, races=None):
        super().__init__(message)
        self.races = list(races or [])


class BackendUnsupportedError(UnsupportedError, SimulationError):
    """A kernel the launch's backend cannot run, raised at the launch and pointing at the call it cannot run: the
    raw Ascend C of ``asc2.inline`` / ``asc2.inline_vf`` on the simulator (it runs the tile program, not C++), the
    register-level code of ``asc2.inline_vf`` on the CPU twin. The kernel compiles, exports and runs on an NPU."""

    races = ()


class SimulationWarning(UserWarning):
    """A kernel ran, but did something whose result is undefined on an NPU (a scalar read past the end of a
    global tensor: the simulator reads 0 there)."""


_BUILTIN_TO_ERROR = (
    (TypeError, CompilationTypeError),
    (IndexError, CompilationIndexError),
    (ValueError, CompilationValueError),
)


def error_class_for(exc):
    """The CompilationError subclass matching a plain Python exception."""
    for base, cls in _BUILTIN_TO_ERROR:
        if isinstance(exc, base):
            return cls
    return CompilationError


def raise_tagged(kind, message):
    """Raise the builtin exception upstream PyAsc2 uses for ``kind`` (TypeError for CompilationTypeError, ...),
    tagged with the asc2 error class: the code generator turns it into ``kind`` at the calling kernel line."""
    if issubclass(kind, UnsupportedDtypeError):
        base = DtypeNotSupported
    else:
        base = next((b for b in kind.__mro__ if b in (TypeError, ValueError, IndexError, RuntimeError)), RuntimeError)
    exc = base(message)
    exc.asc2_error_class = kind
    raise exc
