"""The asc2 language: types, markers and the DSL functions kernels call.

The DSL functions here are *builtins*: the code generator recognises them by
identity (``@builtin`` tags each with its name) and emits IR for the call; their
Python bodies only run when called outside a kernel, where they explain that.
``ceildiv`` is also useful on the host, so it computes in plain Python there.
"""

import enum
import functools


class dtype:
    """An element type: ``asc2.float32`` etc.  Hashable and comparable by name."""

    __slots__ = ("name", "mlir", "bits", "kind")

    def __init__(self, name, mlir, bits, kind):
        self.name = name  # numpy-style name
        self.mlir = mlir  # MLIR element type spelling
        self.bits = bits
        self.kind = kind  # "float", "int", "uint" or "bool"

    @property
    def itemsize(self):
        return max(1, self.bits // 8)

    @property
    def is_float(self):
        return self.kind == "float"

    @property
    def is_int(self):
        return self.kind in ("int", "uint")

    def __eq__(self, other):
        return isinstance(other, dtype) and other.name == self.name

    def __hash__(self):
        return hash(("asc2.dtype", self.name))

    def __repr__(self):
        return f"asc2.{self.name}"

    def __reduce__(self):
        return (from_name, (self.name,))


float32 = dtype("float32", "f32", 32, "float")
float16 = dtype("float16", "f16", 16, "float")
bfloat16 = dtype("bfloat16", "bf16", 16, "float")
int64 = dtype("int64", "i64", 64, "int")
int32 = dtype("int32", "i32", 32, "int")
int16 = dtype("int16", "i16", 16, "int")
int8 = dtype("int8", "i8", 8, "int")
uint8 = dtype("uint8", "ui8", 8, "uint")
bool_ = dtype("bool", "i1", 1, "bool")

ALL_DTYPES = (float32, float16, bfloat16, int64, int32, int16, int8, uint8, bool_)
_BY_NAME = {d.name: d for d in ALL_DTYPES}
_BY_NAME.update({"float": float32, "half": float16, "bool_": bool_, "int": int32})


def from_name(name):
    """The dtype called ``name`` (numpy or torch spelling), or None."""
    name = str(name)
    if name.startswith("torch."):
        name = name[len("torch."):]
    return _BY_NAME.get(name)


class TensorLocation(str, enum.Enum):
    """Where a tile lives on chip.  Plain strings ("UB", "L1", ...) are accepted too."""

    UB = "UB"
    L1 = "L1"
    L0A = "L0A"
    L0B = "L0B"
    L0C = "L0C"
    BT = "BT"
    FIX = "FIX"

    def __str__(self):
        return self.value

    @classmethod
    def parse(cls, value):
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            try:
                return cls(value.upper())
            except ValueError:
                pass
        raise RuntimeError(f"unsupported tensor location {value!r}; expected one of "
                           + ", ".join(m.value for m in cls))


class GlobalAddress:
    """Annotation for a kernel parameter that receives an array in global memory."""

    def __init__(self, *args, **kwargs):
        raise TypeError("asc2.GlobalAddress is a parameter annotation; pass an array at launch")


class ConstExpr:
    """A compile-time value.

    As an annotation (``TILE: asc2.ConstExpr[int]`` or bare ``asc2.ConstExpr``)
    it makes the parameter part of the specialisation instead of the signature;
    ``asc2.ConstExpr(v)`` at a call site forces any argument to be static.
    """

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value.value if isinstance(value, ConstExpr) else value

    def __class_getitem__(cls, item):
        return cls

    def __repr__(self):
        return f"ConstExpr({self.value!r})"

    def __eq__(self, other):
        return isinstance(other, ConstExpr) and self.value == other.value

    def __hash__(self):
        return hash(("ConstExpr", self.value))


# ---------------------------------------------------------------------------
# DSL functions.  The code generator dispatches on ``fn.__asc2_builtin__``.


def builtin(fn):
    """Mark ``fn`` as a DSL function the code generator implements."""

    @functools.wraps(fn)
    def outside_kernel(*args, **kwargs):
        raise RuntimeError(f"asc2.{fn.__name__} can only be used inside an @asc2.jit kernel")

    outside_kernel.__asc2_builtin__ = fn.__name__
    return outside_kernel


def is_builtin(obj):
    return getattr(obj, "__asc2_builtin__", None) is not None


# Programming model
@builtin
def block_idx():
    """Index of the core running this block (0 .. block_num()-1)."""


@builtin
def block_num():
    """Number of blocks in the launch."""


def ceildiv(a, b):
    """``ceil(a / b)`` for integers; inside a kernel it also accepts runtime values."""
    return -(-a // b)


ceildiv.__asc2_builtin__ = "ceildiv"


# Tensors and memory
@builtin
def global_tensor(ptr, shape):
    """A global-memory tensor view of a ``GlobalAddress`` parameter."""


@builtin
def copy_in(src, offsets, shape=None, location=TensorLocation.UB, *, real_shape=None, pad_value=None):
    """Load the tile of ``shape`` at element ``offsets`` of ``src`` into ``location``."""


@builtin
def copy_out(src, dst, offsets, *, real_shape=None):
    """Store tile ``src`` into global tensor ``dst`` at element ``offsets``."""


@builtin
def copy(src, offsets=None, shape=None, location=None):
    """Copy a tile (or a sub-region) into a new tile."""


# Loops
@builtin
def range(start, stop=None, step=None, *, unroll_factor=1, parallel=False, gm_barrier=None):  # noqa: A001
    """A runtime loop (``scf.for``) with compiler hints."""


@builtin
def static_range(start, stop=None, step=None):
    """A loop unrolled at compile time; the induction variable is a Python int."""


# Element-wise tile operations (tile ⊕ tile, tile ⊕ scalar, scalar ⊕ tile).
@builtin
def add(a, b):
    """a + b"""


@builtin
def sub(a, b):
    """a - b"""


@builtin
def mul(a, b):
    """a * b"""


@builtin
def div(a, b):
    """a / b"""


@builtin
def maximum(a, b):
    """Element-wise maximum."""


@builtin
def minimum(a, b):
    """Element-wise minimum."""


@builtin
def exp(x):
    """e ** x"""


@builtin
def log(x):
    """Natural logarithm."""


@builtin
def sqrt(x):
    """Square root."""


@builtin
def abs(x):  # noqa: A001
    """Absolute value."""


@builtin
def relu(x):
    """max(x, 0)"""


@builtin
def negative(x):
    """-x"""


# Declared so kernels that use them get a clear "not implemented yet" error at
# the call's line instead of an unknown-attribute error.
_PLANNED = (
    "floordiv equal not_equal greater greater_equal less less_equal bitwise_and bitwise_or "
    "bitwise_xor bitwise_not left_shift right_shift ceil floor rsqrt exp2 log2 sin cos tan sinh "
    "cosh tanh erf softmax rms_norm layer_norm reduce_sum reduce_max reduce_min reduce_prod "
    "reshape ravel broadcast_to expand_dims squeeze transpose concat full full_like zeros "
    "zeros_like zeros_acc cast number matmul matmul_acc where mask atomic_add atomic_max atomic_min"
).split()


def _planned(name):
    def fn(*args, **kwargs):
        raise RuntimeError(f"asc2.{name} can only be used inside an @asc2.jit kernel")

    fn.__name__ = fn.__qualname__ = name
    fn.__asc2_builtin__ = name
    return fn


for _name in _PLANNED:
    globals()[_name] = _planned(_name)
del _name
