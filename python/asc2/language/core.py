"""The asc2 language: types, markers and the DSL functions kernels call.

The DSL functions here are *builtins*: the code generator recognises them by
identity (``@builtin`` tags each with its name) and emits IR for the call; their
Python bodies only run when called outside a kernel, where they explain that.
``ceildiv`` is also useful on the host, so it computes in plain Python there.
"""

import enum
import functools
import types


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
    def bitwidth(self):
        return self.bits

    # Predicates and size as upstream's DataType spells them (methods).
    def is_float(self):
        return self.kind == "float"

    def is_int(self):
        """Signed or unsigned integer (not bool)."""
        return self.kind in ("int", "uint")

    def is_signed(self):
        return self.kind == "int"

    def is_unsigned(self):
        return self.kind == "uint"

    def is_numeric(self):
        return self.is_int() or self.is_float()

    def is_void(self):
        return False

    def sizeof(self):
        """Bytes per element; bool (1 bit) has no whole-byte size, as upstream's int1."""
        if self.bits % 8:
            raise ValueError(f"{self.name} is {self.bits} bit wide: not a whole number of bytes")
        return self.bits // 8

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

# float64 is a name upstream's dtype list has; no Ascend vector or cube instruction takes it, so a float64 tile,
# array or tensor is a compile error at its line (check_element_type), never silently narrowed.
float64 = dtype("float64", "f64", 64, "float")
double = float64

ALL_DTYPES = (float32, float16, bfloat16, int64, int32, int16, int8, uint8, bool_)
# Upstream PyAsc2's other names for the same dtypes and their class.
float_ = float32
int_ = int32
DataType = dtype
_BY_NAME = {d.name: d for d in ALL_DTYPES}
_BY_NAME.update({"float": float32, "half": float16, "bool_": bool_, "int": int32, "float64": float64,
                 "double": float64})


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


class LocalTensor:
    """Annotation for a tile (a local tensor: UB, L1, L0A/B/C) in the signature of an inlined helper."""

    def __init__(self, *args, **kwargs):
        raise TypeError("asc2.LocalTensor is an annotation; tiles are made by copy_in, full, ... inside a kernel")


class GlobalTensor:
    """Annotation for a global tensor (``asc2.global_tensor``) in the signature of an inlined helper."""

    def __init__(self, *args, **kwargs):
        raise TypeError("asc2.GlobalTensor is an annotation; make one with asc2.global_tensor inside a kernel")


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
    """Copy a tile (or a sub-region) into a new tile.

    The earlier upstream form ``copy(src, shape, offsets=..., location=...)`` (shape second, offsets by keyword)
    is accepted too."""


# The earlier upstream spelling of the memory API: the same operations under the names PyAsc2 kernels used
# before copy_in/copy_out (``asc2.tensor``, ``asc2.load(gm, shape, offsets=...)``, ``asc2.store``).
TileLocation = TensorLocation


@builtin
def tensor(ptr, shape):
    """``global_tensor(ptr, shape)`` under its earlier upstream name."""


@builtin
def load(src, shape, offsets=None, location=TensorLocation.UB, *, real_shape=None, pad_value=None):
    """``copy_in(src, offsets, shape, location)`` with the earlier upstream argument order (no offsets: origin)."""


@builtin
def inline(code, args=None, before_function=False):
    """Paste raw Ascend C (``code``, a string) into the generated kernel where the call is.

    ``$0``, ``$1``, ... in ``code`` stand for the values of ``args`` (a list): each becomes its C++ name in the
    emitted source, a tile its ``LocalTensor``, a global tensor or ``GlobalAddress`` a ``__gm__ T *`` pointer to its
    first element, a runtime scalar its variable, a Python number its literal. With ``before_function=True`` the
    code goes before the kernel function instead (each distinct text once; ``args`` may then only be numbers).

    The compiler keeps the code where it is and knows nothing of what it does: a PIPE_ALL barrier runs before and
    after it, and the tiles among ``args`` stay live up to it. The simulator runs the tile program, not C++, so a
    launch on it is an ``asc2.BackendUnsupportedError`` naming this line; the CPU twin (backend ``Twin``) compiles
    and runs the code with the kernel, and ``export_project`` writes the kernel to build and run on an NPU."""


@builtin
def inline_vf(code, shape, dtype, inputs=None):
    """A UB tile of ``shape`` and ``dtype`` computed by Ascend C vector-function code (register level).

    ``code`` becomes the body of a ``__VEC_SCOPE__`` block of the generated kernel: ``$0`` stands for the result's
    ``LocalTensor``, ``$1``, ``$2``, ... for those of ``inputs`` (UB tiles). For the compiler the call is a
    vector-pipe op that reads ``inputs`` and writes the result (a UB tile it allocates, live from here to its last
    use). The simulator and the CPU twin cannot run register-level code: a launch there is an
    ``asc2.BackendUnsupportedError`` naming this line; ``export_project`` writes the kernel to run on an NPU."""


@builtin
def store(src, dst, offsets=None, *, real_shape=None):
    """``copy_out(src, dst, offsets)`` under its earlier upstream name (no offsets: origin)."""


@builtin
def gather(src, offsets, dim, index, check_bounds=True, num_indices=None, pad_value=None, *, real_shape=None):
    """Rows of global tensor ``src`` at the positions in tile ``index``: row i is ``src[..., offsets[dim] + index[i]]``.

    A UB tile whose row ``i`` is ``src[offsets[0], ..., offsets[dim-1], offsets[dim] + index[i]]`` (the sub-tensor
    over dimensions ``dim+1 ..``, which must be static).

    ``offsets`` gives ``dim + 1`` values; ``index`` is a rank-1 UB tile of int8/int16/int32/int64. The result is
    ``[len(index), src.shape[dim+1], ..., last]`` in ``src``'s dtype, ``last`` the last dimension rounded up to 32
    bytes and padded with ``pad_value`` (a compile-time number, 0 by default). ``check_bounds`` (a compile-time
    bool): a row whose position is outside ``src``'s dimension ``dim`` is ``pad_value``; with ``False`` every index
    must be in range (the simulator stops at one that is not). ``num_indices`` (``real_shape`` in upstream's
    earlier spelling): how many indices to use (run-time values allowed); the rows after them are ``pad_value``.
    Upstream's earlier argument order ``gather(src, offsets, index, dim, ...)`` is accepted too."""


@builtin
def scatter(src, dim, index, dst, offsets, check_bounds=True, num_indices=None, *, real_shape=None):
    """Write row i of tile ``src`` to ``dst[..., offsets[dim] + index[i]]`` for each index (gather's inverse).

    Row ``i`` goes to ``dst[offsets[0], ..., offsets[dim-1], offsets[dim] + index[i]]``, in order (a repeated index
    keeps the last row written).

    ``index`` is a rank-1 UB tile of int8/int16/int32/int64; ``src`` a UB tile of ``dst``'s dtype with at least
    ``len(index)`` rows and the shape of ``dst`` after ``dim`` (its last dimension rounded up to 32 bytes; the
    padding is not written). ``check_bounds`` (compile-time bool): an out-of-range position is skipped; with
    ``False`` every index must be in range. ``num_indices`` (``real_shape`` in upstream's earlier spelling): how
    many indices to use. Upstream's earlier argument order ``scatter(index, src, dst, offsets, dim, ...)`` is
    accepted too."""


# Loops
@builtin
def range(start, stop=None, step=None, *, unroll_factor=1, parallel=False, gm_barrier=None):  # noqa: A001
    """A runtime loop (``scf.for``) with compiler hints."""


@builtin
def static_range(start, stop=None, step=None):
    """A loop unrolled at compile time; the induction variable is a Python int."""


class RoundMode(str, enum.Enum):
    """Rounding of ``asc2.cast`` (Ascend C's RoundMode; "CAST_RINT" etc. are accepted too)."""

    NONE = "none"  # round to nearest even when the cast loses precision
    RINT = "rint"
    FLOOR = "floor"
    CEIL = "ceil"
    ROUND = "round"
    TRUNC = "trunc"
    ODD = "odd"
    # Aliases: upstream asc2's CamelCase members and asc's CAST_* names.
    Rint, Floor, Ceil, Round, Trunc, Odd = "rint", "floor", "ceil", "round", "trunc", "odd"
    CAST_NONE, CAST_RINT, CAST_FLOOR, CAST_CEIL = "none", "rint", "floor", "ceil"
    CAST_ROUND, CAST_TRUNC, CAST_ODD = "round", "trunc", "odd"

    def __str__(self):
        return self.value

    @classmethod
    def parse(cls, value):
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            text = value.lower()
            text = text[len("cast_"):] if text.startswith("cast_") else text
            try:
                return cls(text)
            except ValueError:
                pass
        raise ValueError(f"unsupported round mode {value!r}; expected one of " + ", ".join(m.value for m in cls))


# Element-wise tile operations (tile ⊕ tile, tile ⊕ scalar, scalar ⊕ tile) with
# numpy broadcasting and dtype promotion.  The stubs give the signatures the
# code generator binds calls against.
def _binary_signature(a, b):
    pass


def _unary_signature(x):
    pass


def _reduction_signature(x, *dims, keep_dims=False, axis=None):
    pass


def _declare(names, signature, doc):
    """One builtin per name, each with ``signature``'s parameters."""
    for name in names.split():
        stub = types.FunctionType(signature.__code__, globals(), name, signature.__defaults__)
        stub.__kwdefaults__ = signature.__kwdefaults__
        stub.__qualname__ = name
        stub.__doc__ = doc.format(name=name)
        globals()[name] = builtin(stub)


_declare("add sub mul div floordiv maximum minimum equal not_equal greater greater_equal less less_equal "
         "bitwise_and bitwise_or bitwise_xor left_shift right_shift", _binary_signature,
         "Element-wise {name} of two tiles, or of a tile and a scalar.")
_declare("abs ceil floor negative relu sqrt rsqrt exp exp2 log log2 sin cos tan sinh cosh tanh erf bitwise_not "
         "softmax", _unary_signature, "Element-wise {name} of a tile (softmax: along the last dimension).")
_declare("reduce_sum reduce_max reduce_min reduce_prod", _reduction_signature,
         "{name}(x, *dims, keep_dims=False): reduce the given dimensions (none given: all, giving a scalar).")


@builtin
def rms_norm(x, gamma, eps=1e-6):
    """x * rsqrt(mean(x**2, last dim) + eps) * gamma; gamma is one row or shaped like x."""


@builtin
def layer_norm(x, gamma, beta, eps=1e-5, output_rstd=False):
    """(x - mean) * rsqrt(var + eps) * gamma + beta along the last dimension.

    The result is that tile; as upstream's tuple it also unpacks into ``out, mean, var = asc2.layer_norm(...)``
    (statistics computed in float32, given in x's dtype, of shape [rows] or [1] for a rank-1 x; ``var`` is the
    biased variance, as upstream returns it; ``output_rstd=True`` gives rsqrt(var + eps) instead)."""


# Shapes
@builtin
def reshape(x, *shape):
    """The same elements in another shape (a list, or the dimensions as arguments)."""


@builtin
def ravel(x):
    """The tile as one dimension."""


@builtin
def broadcast_to(x, *shape):
    """Stretch size-1 dimensions (numpy rules; missing leading dimensions are added): ``broadcast_to(x, [r, c])``
    or ``x.broadcast_to(r, c)``."""


@builtin
def broadcast_tensors(*tiles):
    """The tiles broadcast to their common shape (numpy.broadcast_arrays), as a tuple."""


def broadcast_shapes(*shapes):
    """The shape the given shapes broadcast to (numpy.broadcast_shapes); compile-time, also on the host."""
    if not shapes:
        raise ValueError("broadcast_shapes needs at least one shape")
    for shape in shapes:
        if not shape:
            raise RuntimeError("a shape must have at least one value")
        if not all(isinstance(d, int) and not isinstance(d, bool) for d in shape):
            raise TypeError(f"shape {list(shape)}: the dimensions must be integers")
        if any(d <= 0 for d in shape):
            raise RuntimeError(f"shape {list(shape)}: the dimensions must be positive")
    rank = max(len(s) for s in shapes)
    out = [1] * rank
    for shape in shapes:
        for i, d in enumerate((1,) * (rank - len(shape)) + tuple(shape)):
            if d != 1 and out[i] not in (1, d):
                raise RuntimeError(f"shapes {[list(x) for x in shapes]} are not broadcastable (dimension {i}: "
                                   f"{out[i]} vs {d})")
            out[i] = d if d != 1 else out[i]
    return tuple(out)


@builtin
def expand_dims(x, *axes):
    """Insert a size-1 dimension at each of ``axes`` (positions in the result, numpy.expand_dims)."""


@builtin
def squeeze(x, axis=None):
    """Drop size-1 dimensions (all of them, or ``axis``)."""


@builtin
def transpose(x, *axes):
    """Permute the dimensions (numpy.transpose); no axes (or ``x.T``) reverses them.

    ``transpose(x, (0, 2, 1))`` or ``transpose(x, 0, 2, 1)`` puts dimension ``axes[i]`` at position i (negative axes
    count from the end). The result's last dimension must be 32-byte aligned (UB tiles)."""


@builtin
def concat(*tiles, axis=0):
    """Join tiles along ``axis`` (numpy.concatenate): ``concat([a, b], 1)`` or ``concat(a, b, axis=1)``."""


# Creation and conversion
@builtin
def full(shape, value, dtype=None, location=TensorLocation.UB):
    """A tile of ``shape`` with every element ``value``."""


@builtin
def full_like(x, value, dtype=None):
    """A tile shaped like ``x`` filled with ``value``."""


@builtin
def zeros(shape, dtype=float32, location=TensorLocation.UB):
    """A tile of zeros."""


@builtin
def zeros_like(x, dtype=None):
    """Zeros shaped like ``x``."""


@builtin
def zeros_acc(shape, dtype=float32, bias=None):
    """A zero matmul accumulator in L0C (the first matmul_acc into it overwrites).

    With ``bias`` (a BT tile of N values) the accumulator starts from the bias row instead: the first matmul_acc
    computes bias + a @ b."""


@builtin
def cast(x, dtype, round_mode=None):
    """Convert a tile (or scalar) to ``dtype``; float -> int truncates unless ``round_mode`` says otherwise."""


@builtin
def number(value, dtype=None):
    """A typed scalar constant."""


# Selection, masks, matmul, atomics
@builtin
def where(mask, a, b):
    """Element-wise ``a if mask else b`` (mask: a bool tile from a comparison)."""


@builtin
def mask(count=None, bits=None, other=None):
    """Limit the element-wise ops of a ``with asc2.mask(count=n | bits=(hi, lo), other=v):`` block to some lanes.

    Every element-wise op in the block (arithmetic, bitwise, unary math, comparisons, ``where``, casts; also in
    inlined helpers and loops) computes only the selected elements of its result tile; the other elements of that
    result are ``other`` (a scalar, default 0; converted to the result's dtype, so ``True``/1 for a comparison).
    The ops are not computed at all on the lanes left out (an integer division there cannot fault).

    * ``count=n`` (an int or a runtime integer): the first ``n`` elements in row-major order (clamped to 0..size):
      Ascend C counter mode (SetMaskCount + SetVectorMask(0, n)).
    * ``bits=(hi, lo)`` (two 64-bit ints, unsigned or two's complement, or runtime integers): the vector unit works
      in repeats of 256 bytes, 128 elements of a 16-bit type or 64 of a 32-bit type (a cast: of the wider type; a
      comparison: of the compared type); element i is selected when bit ``i % lanes`` of the 128-bit mask
      ``hi:lo`` is set (bits 0..63 are ``lo``), the same lanes in every repeat: Ascend C normal mode
      (SetMaskNorm + SetVectorMask(hi, lo)). 32-bit types have 64 lanes, so ``hi`` must be 0 for them; 8-bit and
      bool computations cannot take a bit mask.

    Loads, stores and shape ops (reshape, broadcast_to) in the block are not masked; reductions, transpose, concat,
    softmax, rms_norm and layer_norm are errors inside it. Masks do not nest.
    """


@builtin
def matmul(a, b, bias=None, *, hf32=False):
    """a @ b on the cube unit: L0A (M x K) x L0B (K x N) -> float32 L0C (M x N); float16, bfloat16 or float32.

    ``bias`` (a BT tile of N values) starts the product from the bias row; ``hf32=True`` multiplies float32
    operands in HF32 (mantissas rounded to 11 bits, accumulation in float32)."""


@builtin
def matmul_acc(acc, a, b, *, hf32=False):
    """acc + a @ b, accumulated in place in the L0C tile ``acc`` (``acc + a @ b`` is the same).

    As a statement (``asc2.matmul_acc(acc, a, b)``) it updates ``acc``; the earlier upstream order
    ``matmul_acc(a, b, acc)`` is recognised by the L0C argument. ``hf32`` as for ``matmul``."""


@builtin
def atomic_add(src, dst, offsets):
    """Atomically add tile ``src`` into global tensor ``dst`` at ``offsets``."""


@builtin
def atomic_max(src, dst, offsets):
    """Atomically take the maximum of tile ``src`` and ``dst`` at ``offsets``."""


@builtin
def atomic_min(src, dst, offsets):
    """Atomically take the minimum of tile ``src`` and ``dst`` at ``offsets``."""
