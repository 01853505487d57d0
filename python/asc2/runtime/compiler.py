"""The bridge to the C++ compiler and simulator (the ``asc2._C`` extension)."""

import json
import linecache
import os
import re

from .. import errors

_native = None


def native():
    """The ``asc2._C`` module; a clear error when the extension is not built."""
    global _native
    if _native is None:
        try:
            from .. import _C
        except ImportError as e:
            raise RuntimeError(
                "asc2._C (the compiler extension) is not available: build the project "
                f"(make) and put build/python on PYTHONPATH ({e})") from None
        _native = _C
    return _native


def _diagnostic_fields(exc):
    """(message, file, line, col) of a _C.CompileError, whichever way the binding carries them."""
    message = getattr(exc, "message", None)
    file = getattr(exc, "file", None)
    line = getattr(exc, "line", None)
    col = getattr(exc, "col", None)
    args = list(exc.args) + [None] * 4
    if message is None:
        message = args[0]
    if file is None and isinstance(args[1], str):
        file, line, col = args[1], args[2], args[3]
    return str(message), file, line, col


# The C++ driver's ErrorKind (compiler/include/asc2/Report/ErrorKind.h), set where the error arose; the
# other kinds are plain CompilationErrors.
_ERROR_CLASSES = {"alignment": errors.AlignmentError, "memory": errors.MemoryError}


def convert_compile_error(exc):
    message, file, line, col = _diagnostic_fields(exc)
    source_line = None
    if file and line:
        text = linecache.getline(file, int(line))
        source_line = text.rstrip("\n") if text else None
    cls = _ERROR_CLASSES.get(getattr(exc, "kind", None), errors.CompilationError)
    return cls.at(file, int(line) if line else None, int(col) if col else None, message, source_line)


_TENSOR = re.compile(r"= asctile\.tensor %\w+\[([^\]]*)\].*loc\(\"((?:[^\"\\]|\\.)*)\":(\d+):(\d+)\)\s*$")


def tensor_extent_args(ir):
    """(runtime argument index, file, line, col) of every global-tensor extent that is a kernel argument as is:
    the launch checks those are not negative (the transfers would clamp to nothing and the kernel run silently
    on an empty tensor)."""
    out = []
    for line in ir.splitlines():
        m = _TENSOR.search(line)
        if not m:
            continue
        for dim in m.group(1).split(","):
            arg = re.fullmatch(r"\s*%arg(\d+)\s*", dim)
            if arg:
                out.append((int(arg.group(1)), m.group(2).replace('\\"', '"').replace("\\\\", "\\"),
                            int(m.group(3)), int(m.group(4))))
    return out


_SSA = re.compile(r"%[A-Za-z0-9_.$#-]+")
_TENSOR_DEF = re.compile(r"^\s*(%[A-Za-z0-9_.$#-]+) = asctile\.tensor %arg(\d+)\[")
_READS = ("asctile.load", "asctile.get_value", "asctile.dim")


def written_args(ir):
    """Indices of the pointer arguments the kernel may write: a global tensor of the argument (or the argument
    itself) used by anything but a load, get_value or dim. Conservative: unknown uses count as writes."""
    tensors, written = {}, set()
    lines = ir.splitlines()
    for line in lines:
        m = _TENSOR_DEF.match(line)
        if m:
            tensors[m.group(1)] = int(m.group(2))
    for line in lines:
        text = line.split(" loc(")[0]
        if "func.func" in text or _TENSOR_DEF.match(text):
            continue
        rhs = text.split(" = ", 1)[-1].strip()
        if rhs.startswith(_READS):
            continue
        for token in _SSA.findall(text):
            if token in tensors:
                written.add(tensors[token])
            elif token.startswith("%arg") and token[4:].isdigit():
                written.add(int(token[4:]))
    return written


class CompiledKernel:
    """One specialisation: its frontend IR and the native compiled kernel."""

    def __init__(self, ir, name, arg_names, native_kernel):
        self.ir = ir
        self.name = name
        self.arg_names = arg_names
        self.native = native_kernel
        self.extent_args = tensor_extent_args(ir)
        self.written_args = written_args(ir)

    def check_extents(self, args):
        """A clear error for a negative global-tensor extent passed at launch."""
        for index, file, line, col in self.extent_args:
            value = args[index] if index < len(args) else None
            if isinstance(value, int) and value < 0:
                text = linecache.getline(file, line).rstrip("\n")
                where = f"{file}:{line}:{col}: " if file else ""
                raise ValueError(f"{where}{self.name}: the global tensor extent '{self.arg_names[index]}' is "
                                 f"{value} at this launch; extents must not be negative"
                                 + (f"\n    {text}" if text else ""))

    @property
    def ascendc(self):
        return self.native.ascendc

    def report(self, include_ir=True):
        return json.loads(self.native.report_json(include_ir))

    @property
    def inline_code(self):
        """The kernel's asc2.inline / inline_vf calls, in program order: dicts of api, file, line, col and message
        (why the simulator cannot launch the kernel)."""
        return self.native.inline_code

    def refusal(self, site, message):
        """The BackendUnsupportedError of a launch that cannot run the asc2.inline / inline_vf call ``site``
        (one of ``inline_code``): ``message`` at the call's line."""
        file, line = site["file"], site["line"]
        text = linecache.getline(file, line).rstrip("\n") if file and line else ""
        return errors.BackendUnsupportedError.at(file, line, site["col"], f"{self.name}: {message}", text or None)

    def launch(self, block_num, args):
        C = native()
        try:
            result = dict(self.native.launch(block_num, args, max_steps=max_steps()))
        except C.SimulationError as e:
            sites = self.inline_code
            if sites:  # the simulator refused the kernel's raw Ascend C (the report records the refusal)
                raise self.refusal(sites[0], sites[0]["message"]) from None
            raise errors.SimulationError(str(e)) from None
        return result

    def write_report_dir(self, path):
        self.native.write_report_dir(path)


def max_steps():
    """ASC2_MAX_STEPS: instructions a simulated block may run before it is stopped as a probable endless loop
    (asc2-workbench --max-steps sets it); unset or 0: no limit."""
    text = os.environ.get("ASC2_MAX_STEPS", "")
    if not text:
        return 0
    if not text.isdigit():
        raise ValueError(f"ASC2_MAX_STEPS must be a whole number of instructions (0 for no limit), got '{text}'")
    return min(int(text), 2**64 - 1)


def compile_ir(ir, *, kernel, options):
    """Compile asctile IR with a ``_C.CompileOptions``; compile errors become asc2 errors."""
    C = native()
    try:
        return C.compile(ir, kernel=kernel, options=options)
    except C.CompileError as e:
        raise convert_compile_error(e) from None
