"""Tracebacks of asc2's errors in the user's terms.

A mistake in a kernel (``CompilationError``, ``SimulationError``, an
unsupported dtype) is reported by code deep inside asc2: the compiler's AST
visitor, the JIT's argument binding, the simulator. Its traceback would end in
twenty frames of ``asc2/codegen/visitor.py`` and ``ast.py``, and a chained
"During handling of the above exception" from the compiler's own internals,
none of which the user wrote or can act on. The error message already points
at the kernel's line (``file:line:col``).

``format_exception`` keeps the frames of the user's code, replaces the run of
asc2's frames with one line saying how many were hidden, and drops the chained
internal cause. Any other exception (an asc2 bug among them) keeps its whole
traceback. ``ASC2_FULL_TRACEBACK=1`` keeps everything.
"""

import os
import sys
import traceback

from . import errors

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_STDLIB_DIR = os.path.dirname(os.path.abspath(traceback.__file__))


def is_user_error(exc):
    """Whether @p exc reports a mistake in the user's kernel or call, not a bug."""
    return isinstance(exc, (errors.CompilationError, errors.SimulationError, errors.DtypeNotSupported))


def _internal(filename):
    path = os.path.abspath(filename)
    return path.startswith(_PACKAGE_DIR + os.sep) or path.startswith(_STDLIB_DIR + os.sep)


def _full():
    return os.environ.get("ASC2_FULL_TRACEBACK", "") not in ("", "0")


def format_exception(exc_type, exc, tb):
    """Lines of the report of an exception, as ``traceback.format_exception``."""
    if exc is None or _full() or not is_user_error(exc):
        return traceback.format_exception(exc_type, exc, tb)
    frames = traceback.extract_tb(tb)
    kept, hidden = traceback.StackSummary(), 0
    for frame in frames:
        if _internal(frame.filename):
            hidden += 1
        else:
            kept.append(frame)
    lines = []
    if kept:
        lines.append("Traceback (most recent call last):\n")
        lines.extend(traceback.format_list(kept))
    if hidden:
        lines.append(f"  ({hidden} frame{'s' if hidden != 1 else ''} inside asc2 hidden; "
                     "ASC2_FULL_TRACEBACK=1 shows them)\n")
    lines.extend(traceback.format_exception_only(exc_type, exc))
    return lines


def print_exception(exc_type, exc, tb, file=None):
    """Prints what ``format_exception`` gives to @p file (stderr)."""
    (file or sys.stderr).write("".join(format_exception(exc_type, exc, tb)))


def _excepthook(exc_type, exc, tb):
    print_exception(exc_type, exc, tb)


def install():
    """Reports uncaught asc2 errors this way in a plain ``python3 script.py``.

    Only where Python's own hook is in place: IPython, pytest and other tools
    that installed their own keep it.
    """
    if sys.excepthook is sys.__excepthook__:
        sys.excepthook = _excepthook
