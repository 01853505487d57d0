"""MLIR text building for the frontend: values, type spellings, and a builder.

The builder writes the `asctile` + `arith`/`math`/`scf`/`func` dialects as text
with a source location on every op.  Regions are captured into separate line
lists so a construct whose results are only known after its body (``scf.if``,
``scf.for`` iter_args) can be assembled afterwards.
"""

import contextlib
import math
import operator
import struct



# ---------------------------------------------------------------------------
# Type spellings


# Tiles live on chip (at most a few MB); this bound keeps every size computation downstream (bytes, fractal
# padding, strides) far from int64 overflow.
MAX_TILE_BYTES = 2**31

# The most ops one kernel may generate (static_range and Python loops unroll at compile time): past it the
# compile would take minutes to hours; the kernel gets a compile error at the line that crossed it instead.
MAX_KERNEL_OPS = 400_000


def check_tile_shape(shape, dt):
    """A ShapeError (at the current kernel line) for a tile shape no on-chip memory can hold."""
    try:
        dims = [operator.index(d) for d in shape]
    except TypeError:
        dims = None
    if dims is None or any(d <= 0 for d in dims):
        _shape_error(f"tile dimensions must be positive integers, got {list(shape)}")
    size = max(1, dt.bits // 8) * math.prod(dims)
    if size > MAX_TILE_BYTES:
        _shape_error(f"a tile of shape {dims} {dt.name} needs {size} bytes: more than any on-chip memory holds "
                     f"(tiles are limited to {MAX_TILE_BYTES} bytes; the memory planner reports what fits)")


def check_element_type(dt):
    """An UnsupportedDtypeError (at the current kernel line) for an element type no Ascend unit computes in."""
    if dt.name == "float64":
        _fail("UnsupportedDtypeError", "float64 tiles and tensors are not supported: no Ascend vector or cube "
                                       "instruction takes the float64 dtype; use asc2.float32")


def _fail(kind, message):
    """Raise ``message`` as the asc2 error class named ``kind`` (errors.raise_tagged), at the current kernel line."""
    from .. import errors

    errors.raise_tagged(getattr(errors, kind), message)


def _shape_error(message):
    _fail("ShapeError", message)


def tile_type(shape, dt, location):
    check_element_type(dt)
    check_tile_shape(shape, dt)
    return f"!asctile.tile<{'x'.join(str(d) for d in shape)}x{dt.mlir}, {location.value}>"


def tensor_type(shape, dt):
    check_element_type(dt)
    dims = "x".join("?" if not isinstance(d, int) else str(d) for d in shape)
    return f"!asctile.tensor<{dims}x{dt.mlir}>"


def ptr_type(dt):
    check_element_type(dt)
    return f"!asctile.ptr<{dt.mlir}>"


# Scalar types of runtime values: "index" for integers, MLIR float/int types otherwise.
INDEX = "index"
I1 = "i1"


def scalar_type_of_python(value):
    """The scalar type a Python number materialises as."""
    if isinstance(value, bool):
        return I1
    if isinstance(value, int):
        return INDEX
    if isinstance(value, float):
        return "f32"
    return None


def is_float_type(ty):
    return ty in ("f16", "bf16", "f32", "f64")


def is_int_type(ty):
    return ty == INDEX or (ty.startswith("i") and ty[1:].isdigit()) or ty.startswith("ui")


# ---------------------------------------------------------------------------
# Runtime values (compile-time values are plain Python objects)


class Value:
    """An SSA value of the function being generated."""

    __slots__ = ("ssa", "type")

    def __init__(self, ssa, ty):
        self.ssa = ssa
        self.type = ty

    def __repr__(self):
        # Values reach messages through lists and f-strings: always in the user's terms, never the IR's.
        return "runtime " + user_type(self) if isinstance(self, Scalar) else user_type(self)


class Scalar(Value):
    """A runtime scalar: ``index`` for integers, ``f32``/``f16``/... for floats, ``i1`` for bools. ``dtype`` is set
    when the type does not say it: a uint8 scalar is an ``i32`` holding the value zero-extended (arith has no
    unsigned integers)."""

    __slots__ = ("dtype",)

    def __init__(self, ssa, ty, dtype=None):
        super().__init__(ssa, ty)
        self.dtype = dtype

    @property
    def is_float(self):
        return is_float_type(self.type)


class PositiveIndex(Scalar):
    """An index scalar known to be at least 1 (``asc2.block_num()``): a loop may step by it as is."""

    __slots__ = ()


class Tile(Value):
    """A value-semantics tile in an on-chip location (LocalTensor)."""

    __slots__ = ("shape", "dtype", "location", "matmul_of")

    def __init__(self, ssa, shape, dt, location):
        super().__init__(ssa, tile_type(shape, dt, location))
        self.shape = tuple(shape)
        self.dtype = dt
        self.location = location
        self.matmul_of = None  # (a, b) when this L0C tile is a @ b: acc + a @ b fuses

    def like(self, ssa, dt=None):
        return Tile(ssa, self.shape, dt or self.dtype, self.location)


class UnpackableTile(Tile):
    """A tile that also unpacks into several values (``out, mean, var = asc2.layer_norm(...)``, as upstream returns
    a tuple). The extra values are pure ops: when only the tile is used, canonicalisation drops them."""

    __slots__ = ("parts",)

    def __init__(self, tile, *extra):
        super().__init__(tile.ssa, tile.shape, tile.dtype, tile.location)
        self.parts = (tile, *extra)


class Pointer(Value):
    """A GlobalAddress kernel argument."""

    __slots__ = ("dtype",)

    def __init__(self, ssa, dt):
        super().__init__(ssa, ptr_type(dt))
        self.dtype = dt


class GlobalTensor(Value):
    """A global-memory tensor; ``shape`` holds ints (static) and Scalars (dynamic); ``ptr`` is the Pointer it views
    (another view of the same memory, say with dimensions merged, is made from it)."""

    __slots__ = ("shape", "dtype", "ptr")

    def __init__(self, ssa, shape, dt, ptr):
        super().__init__(ssa, tensor_type(shape, dt))
        self.shape = list(shape)
        self.dtype = dt
        self.ptr = ptr


def scalar_type_name(x):
    """A runtime scalar's type in the user's terms: int, bool, float32, uint8 (never an MLIR spelling)."""
    if x.dtype is not None:
        return x.dtype.name
    if x.type == "index":
        return "int"
    if x.type == "i1":
        return "bool"
    dt = next((d for d in _all_dtypes() if d.mlir == x.type), None)
    return dt.name if dt is not None else {"f64": "float64"}.get(x.type, x.type)


def user_type(x):
    """A value's type as a kernel author writes it: 'tile [64, 128] float32 in UB', 'global tensor [n] float16',
    'int scalar'. Messages use this, never the IR type."""
    if isinstance(x, Tile):
        return f"tile {list(x.shape)} {x.dtype.name} in {x.location.value}"
    if isinstance(x, GlobalTensor):
        dims = ", ".join(str(d) if isinstance(d, int) else "?" for d in x.shape)
        return f"global tensor [{dims}] {x.dtype.name}"
    if isinstance(x, Pointer):
        return f"GlobalAddress of {x.dtype.name}"
    if isinstance(x, Scalar):
        return f"{scalar_type_name(x)} scalar"
    return type(x).__name__


def _all_dtypes():
    from ..language import core

    return core.ALL_DTYPES


def rebind(value, ssa):
    """The same kind of value with a new SSA name (loop/if results, block args)."""
    if isinstance(value, Tile):
        return value.like(ssa)
    if isinstance(value, Scalar):
        return Scalar(ssa, value.type, value.dtype)
    return type(value)(ssa, value.type)


# ---------------------------------------------------------------------------
# Attribute spellings

_FLOAT_SPECIALS = {
    # (inf, -inf, nan) bit patterns per type; MLIR reads them as hex literals.
    "f32": ("0x7F800000", "0xFF800000", "0x7FC00000"),
    "f16": ("0x7C00", "0xFC00", "0x7E00"),
    "bf16": ("0x7F80", "0xFF80", "0x7FC0"),
    "f64": ("0x7FF0000000000000", "0xFFF0000000000000", "0x7FF8000000000000"),
}


def float_literal(value, ty):
    value = float(value)
    if ty in ("f32", "f16") and math.isfinite(value):
        # Round to the type first: a value past its largest finite one (3.40282366920938e38 for float32) is inf
        # there, as upstream materialises it.
        code = "f" if ty == "f32" else "e"
        try:
            value = struct.unpack(code, struct.pack(code, value))[0]
        except OverflowError:
            value = math.copysign(math.inf, value)
    if math.isinf(value):
        return _FLOAT_SPECIALS[ty][0 if value > 0 else 1]
    if math.isnan(value):
        return _FLOAT_SPECIALS[ty][2]
    text = repr(value)
    if "e" in text and "." not in text:  # MLIR wants a '.' in 1.0e-05
        mantissa, exp = text.split("e")
        text = f"{mantissa}.0e{exp}"
    return text


def constant_literal(value, ty):
    if ty == I1:
        return "true" if value else "false"
    if is_float_type(ty):
        return f"{float_literal(value, ty)} : {ty}"
    value = int(value)
    bits = 64 if ty == INDEX else int(ty.lstrip("ui"))
    # Signless integers also take their unsigned bit patterns; an index (a runtime integer) is signed.
    if not -(1 << (bits - 1)) <= value < 1 << (bits - 1 if ty == INDEX else bits):
        _fail("CompilationValueError", f"the integer {value} does not fit in {bits} bits" +
              (" (runtime integers are signed 64-bit, as the core's scalar unit)" if ty == INDEX else ""))
    return f"{value} : {ty}"


def string_literal(text):
    """``text`` as an MLIR string literal: quotes, backslashes and control characters escaped (MLIR strings hold no
    raw newline)."""
    out = []
    for c in text:
        if c in '"\\':
            out.append("\\" + c)
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\{ord(c):02X}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def string_array(strings):
    return "[" + ", ".join(string_literal(s) for s in strings) + "]"


def location(file, line, col):
    if not line:
        return "loc(unknown)"
    escaped = file.replace("\\", "\\\\").replace('"', '\\"')
    return f'loc("{escaped}":{line}:{col})'


# ---------------------------------------------------------------------------
# The builder


class Region:
    """Lines of one region plus the constants already defined in it."""

    def __init__(self, parent, depth):
        self.lines = []
        self.parent = parent
        self.depth = depth
        self.constants = {}

    def lookup_constant(self, key):
        region = self
        while region is not None:
            if key in region.constants:
                return region.constants[key]
            region = region.parent
        return None


class IRBuilder:
    """Writes one function's ops as MLIR text with value naming and locations."""

    def __init__(self, file):
        self.file = file
        self.line, self.col = 0, 0
        self.region = Region(None, 2)  # inside `module {` and `func.func {`
        self.used_names = set()
        self.counter = 0
        self.op_count = 0

    # -- naming and locations
    def fresh(self, hint=None):
        if hint is not None:
            name = f"%{hint}"
            if name not in self.used_names:
                self.used_names.add(name)
                return name
            name = f"%{hint}_{self.counter}"
        else:
            name = f"%{self.counter}"
        self.counter += 1
        self.used_names.add(name)
        return name

    def loc(self):
        return location(self.file, self.line, self.col)

    @contextlib.contextmanager
    def at(self, file, line, col):
        saved = (self.file, self.line, self.col)
        self.file, self.line, self.col = file, line, col
        try:
            yield
        finally:
            self.file, self.line, self.col = saved

    # -- emission
    def raw(self, text):
        self.region.lines.append("  " * self.region.depth + text)

    def emit(self, text):
        """An op without results."""
        self.op_count += 1
        if self.op_count > MAX_KERNEL_OPS:
            _fail("CompilationValueError", f"the kernel grows past {MAX_KERNEL_OPS} operations here: compile-time "
                                           "loops (asc2.static_range, Python for loops over lists) copy their body "
                                           "once per trip; use asc2.range for a loop that runs on the core")
        self.raw(f"{text} {self.loc()}")

    def op(self, text, hint=None):
        """An op with one result; returns the result's SSA name."""
        name = self.fresh(hint)
        self.emit(f"{name} = {text}")
        return name

    def constant(self, value, ty):
        """An ``arith.constant``, reused within the region and the regions it encloses."""
        key = (ty, constant_literal(value, ty))
        found = self.region.lookup_constant(key)
        if found is not None:
            return found
        if ty == I1:
            hint = "true" if value else "false"
        elif is_float_type(ty):
            hint = "cst"
        else:
            hint = f"c{int(value)}" + ("" if ty == INDEX else f"_{ty}")
        name = self.op(f"arith.constant {constant_literal(value, ty)}", hint)
        self.region.constants[key] = name
        return name

    # -- regions
    @contextlib.contextmanager
    def nested(self, region=None):
        """Emit into ``region`` (a new one by default) one level deeper; yields it."""
        if region is None:
            region = Region(self.region, self.region.depth + 1)
        saved = self.region
        self.region = region
        try:
            yield region
        finally:
            self.region = saved

    def splice(self, region):
        self.region.lines.extend(region.lines)

    @contextlib.contextmanager
    def discarding(self):
        """Generate into a throw-away region (a dry run to learn what a loop body changes)."""
        saved = (self.region, self.counter, set(self.used_names), self.op_count)
        self.region = Region(saved[0], saved[0].depth + 1)
        try:
            yield
        finally:
            self.region, self.counter, self.used_names, self.op_count = saved
