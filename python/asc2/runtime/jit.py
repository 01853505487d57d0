"""``@asc2.jit``: specialisation, the two-level cache, compilation and launch."""

import ast
import builtins
import inspect
import os
import warnings

from .. import errors
from ..codegen import KernelSource, ParamSpec, generate
from ..language import core
from . import cache, compiler, fingerprint, npu, project, tensors, twin
from .platform import check_backend_available, get_platform


# option -> (validator, default); validators return the normalised value or raise.
def _bool(name, v):
    if not isinstance(v, bool):
        raise ValueError(f"asc2.jit option {name} must be True or False, got {v!r}")
    return v


def _choice(*choices):
    def check(name, v):
        if isinstance(v, bool):
            v = int(v)
        if v not in choices:
            raise ValueError(f"asc2.jit option {name} must be one of {', '.join(map(repr, choices))}, got {v!r}")
        return v

    return check


def _optional_bool(name, v):
    return v if v is None else _bool(name, v)


# Upstream's KernelType names (asc.runtime.config.KernelType); the MIX_* variants are our MIX.
KERNEL_TYPES = {"AIV_ONLY": "AIV_ONLY", "AIC_ONLY": "AIC_ONLY", "MIX": "MIX", "MIX_AIV_HARD_SYNC": "MIX",
                "MIX_AIC_HARD_SYNC": "MIX", "MIX_AIV_1_0": "MIX", "MIX_AIC_1_0": "MIX", "MIX_AIC_1_1": "MIX",
                "MIX_AIC_1_2": "MIX"}


# MIX kernels: vector cores per cube core the name asks for (0: the compiler's choice, two when the vector
# work divides by rows).
VECTOR_CORES = {"MIX_AIC_1_1": 1, "MIX_AIC_1_2": 2}


def _kernel_type(name, v):
    """A KernelType (or its name), as upstream spells it: the kernel type the compiler must detect (its
    family, ``KERNEL_TYPES``, is checked after compilation); MIX_AIC_1_1 / MIX_AIC_1_2 also fix the
    vector cores per cube core."""
    if v is None:
        return v
    key = str(getattr(v, "name", v)).upper()
    if key not in KERNEL_TYPES:
        raise ValueError(f"asc2.jit option {name} must be one of {', '.join(KERNEL_TYPES)}, got {v!r}")
    return key


def _sync_style(name, v):
    if v not in (None, "flag", "buffer-id"):
        raise ValueError(f"asc2.jit option {name} must be 'flag', 'buffer-id' or None (the target's own style), "
                         f"got {v!r}")
    return v


def _optional_positive(name, v):
    if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 1):
        raise ValueError(f"asc2.jit option {name} must be a positive integer or None, got {v!r}")
    return v


OPTIONS = {
    "always_compile": (_bool, False),
    "insert_sync": (_bool, True),
    "reuse_alloc": (_choice(0, 1, 2), 1),
    "static_alloc": (_optional_bool, None),
    "vf_fusion": (_bool, False),
    "verify_sync": (_bool, False),
    "sync_style": (_sync_style, None),
    "matmul_cube_only": (_bool, False),
    "opt_level": (_choice(0, 1, 2, 3), 3),
    "auto_sync": (_bool, False),
    "debug": (_bool, False),
    "num_stages": (_optional_positive, None),
    "capture_exceptions": (_bool, True),
    "kernel_type": (_kernel_type, None),
}
FRONTEND_ONLY = ("always_compile", "capture_exceptions", "kernel_type")


# Older PyAsc2 spellings of reuse_alloc: reuse_ub=True is reuse_alloc=1 (False: 0), reuse_ub_in_out=True is 2.
OPTION_ALIASES = ("reuse_ub", "reuse_ub_in_out")


def _apply_aliases(options):
    options = dict(options)
    reuse_ub = options.pop("reuse_ub", None)
    in_out = options.pop("reuse_ub_in_out", None)
    for name, value in (("reuse_ub", reuse_ub), ("reuse_ub_in_out", in_out)):
        if value is not None:
            _bool(name, value)
    if "reuse_alloc" not in options and (reuse_ub is not None or in_out is not None):
        options["reuse_alloc"] = 2 if in_out else (0 if reuse_ub is False else 1)
    return options


def validate_options(options):
    options = _apply_aliases(options)
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise TypeError(f"unknown asc2.jit option(s): {', '.join(unknown)}; valid options are "
                        + ", ".join(sorted([*OPTIONS, *OPTION_ALIASES])))
    out = {name: default for name, (_, default) in OPTIONS.items()}
    for name, value in options.items():
        out[name] = OPTIONS[name][0](name, value)
    if out["auto_sync"] and not out["insert_sync"]:
        raise ValueError("asc2.jit option auto_sync=True with insert_sync=False leaves the pipe synchronisation to "
                         "Bisheng's --cce-auto-sync (upstream's auto_sync), which the Model backend does not run: "
                         "the kernel would race. Use insert_sync=True (asc2 inserts set_flag/wait_flag itself; "
                         "auto_sync is then not needed)")
    return out


# Upstream options with no counterpart here that only tune the generated code: accepted (upstream kernels pass
# them), the kernel compiles as without them, and the decorator says so.
IGNORED_OPTIONS = {
    "vf_fusion": "upstream it fuses consecutive vector ops into Ascend C MicroAPI vector-function (VF) blocks; "
                 "this compiler emits one basic-API vector call per tile operation, which is what the simulator "
                 "runs, so the kernel compiles as with vf_fusion=False (drop the option to silence this warning)",
}


def _warn_ignored(options, stacklevel):
    for name, why in IGNORED_OPTIONS.items():
        if options[name] != OPTIONS[name][1]:
            warnings.warn(f"asc2.jit option {name}={options[name]!r} has no effect: {why}", stacklevel=stacklevel + 1)


# Workbench toolbar overrides: ASC2_JIT_<OPTION>=value replaces the kernel's
# own option for every kernel of the run.
ENV_OVERRIDES = {"insert_sync": "ASC2_JIT_INSERT_SYNC", "reuse_alloc": "ASC2_JIT_REUSE_ALLOC",
                 "verify_sync": "ASC2_JIT_VERIFY_SYNC", "static_alloc": "ASC2_JIT_STATIC_ALLOC",
                 "sync_style": "ASC2_JIT_SYNC_STYLE", "num_stages": "ASC2_JIT_NUM_STAGES"}


def _compile_only():
    """ASC2_COMPILE_ONLY (the workbench's Compile Only): a launch compiles and reports, and runs nothing."""
    return os.environ.get("ASC2_COMPILE_ONLY", "") not in ("", "0")


def _env_value(name, text):
    text = text.strip()
    if name in ("insert_sync", "verify_sync", "static_alloc"):
        if text.lower() in ("1", "true", "yes", "on"):
            return True
        if text.lower() in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"{ENV_OVERRIDES[name]}={text!r}: expected 0 or 1")
    if name == "sync_style":
        return text
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{ENV_OVERRIDES[name]}={text!r}: expected an integer") from None


def effective_options(options):
    """The kernel's options with the ASC2_JIT_* environment overrides applied."""
    out = dict(options)
    for name, var in ENV_OVERRIDES.items():
        text = os.environ.get(var)
        if text:
            out[name] = OPTIONS[name][0](name, _env_value(name, text))
    return out


def _report_options(options):
    """The jit options as the report shows them: strings, without the frontend's own and the unset ones."""
    out = {}
    for name, value in options.items():
        if name in FRONTEND_ONLY or value is None:
            continue
        out[name] = ("true" if value else "false") if isinstance(value, bool) else str(value)
    return out


def compile_options(options, platform, source_file):
    """The C++ driver's typed ``CompileOptions`` for validated, effective jit options."""
    o = compiler.native().CompileOptions()
    o.platform = platform
    o.source_file = source_file
    o.insert_sync = options["insert_sync"]
    # debug=True: a kernel whose synchronisation is checked statically, as with verify_sync=True.
    o.verify_sync = options["verify_sync"] or options["debug"]
    o.sync_style = options["sync_style"] or ""
    o.reuse_alloc = options["reuse_alloc"]
    o.static_alloc = options["static_alloc"]
    o.num_stages = options["num_stages"] or 0
    o.opt_level = options["opt_level"]
    o.matmul_cube_only = options["matmul_cube_only"]
    o.vector_cores_per_group = VECTOR_CORES.get(options["kernel_type"], 0)
    o.user_options = _report_options(options)
    return o


# ---------------------------------------------------------------------------
# Arguments


def _annotation_kind(node):
    """'constexpr' / 'pointer' / 'int' / 'float' / 'bool' / None from an annotation AST."""
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):  # string annotations
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return None
    if isinstance(node, ast.Subscript):
        node = node.value
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)
    return {"ConstExpr": "constexpr", "constexpr": "constexpr", "GlobalAddress": "pointer", "GlobalTensor": "pointer",
            "int": "int", "float": "float", "bool": "bool"}.get(name)


class Reinterpreted:
    """A host array whose bytes a kernel reads as another element type (``asc2.reinterpret``)."""

    __slots__ = ("array", "dtype")

    def __init__(self, array, dtype):
        self.array = array
        self.dtype = dtype

    @property
    def ndim(self):
        return self.array.ndim

    @property
    def shape(self):
        return self.array.shape

    def __repr__(self):
        return f"asc2.reinterpret({self.array.dtype} array of shape {tuple(self.array.shape)}, {self.dtype!r})"


def reinterpret(array, dtype):
    """Pass a numpy array's bits to a kernel as bfloat16: ``asc2.reinterpret(uint16_bits, asc2.bfloat16)``.

    numpy has no bfloat16: keep the bit patterns in a uint16 (or int16) array (or int16 torch tensor); torch
    bfloat16 tensors are accepted directly. What the kernel writes lands in ``array``."""
    if dtype != core.bfloat16:
        raise TypeError(f"asc2.reinterpret: only asc2.bfloat16 is supported (numpy has every other dtype), got "
                        f"{dtype!r}")
    if isinstance(array, Reinterpreted):
        array = array.array
    is_tensor = tensors.is_tensor(array)
    if not (is_tensor or hasattr(array, "__array_interface__") and hasattr(array, "dtype")) or \
            getattr(array, "ndim", 0) < 1:
        raise TypeError(f"asc2.reinterpret: expected a numpy array or torch tensor, got {type(array).__name__}")
    bits = tensors.bits_dtype(array) if is_tensor else array.dtype
    if bits is None or bits.itemsize != dtype.itemsize or bits.kind not in "iu":
        raise TypeError(f"asc2.reinterpret: {dtype.name} bits must be held in a 16-bit integer array (uint16 or "
                        f"int16), got {array.dtype}")
    return Reinterpreted(array, dtype)


def _is_array(value):
    if isinstance(value, Reinterpreted):
        return True
    if hasattr(value, "__array_interface__") and hasattr(value, "dtype") and getattr(value, "ndim", 0) > 0:
        return True
    # A 0-d torch tensor is a scalar argument (its .item()), as a 0-d numpy array is.
    return tensors.is_tensor(value) and value.dim() > 0


def _array_dtype(value):
    if isinstance(value, Reinterpreted):
        return value.dtype
    dt = core.from_name(getattr(value.dtype, "name", None) or str(value.dtype))
    return dt if dt in core.ALL_DTYPES else None  # float64 has a name but no kernel computes in it


def _is_int(value):
    try:
        import numpy as np

        if isinstance(value, np.integer):
            return True
    except ImportError:
        pass
    return isinstance(value, int) and not isinstance(value, bool)


def _is_float(value):
    try:
        import numpy as np

        if isinstance(value, np.floating):
            return True
    except ImportError:
        pass
    return isinstance(value, float)


def _to_numpy(value, label):
    """A C-contiguous numpy view (or copy) of an array argument, plus the original for write-back; ``label``
    names the argument in errors."""
    import numpy as np

    if isinstance(value, Reinterpreted):
        return _to_numpy(value.array, label)
    if tensors.is_tensor(value):
        value = tensors.host_array(value, label)
    if value.flags["C_CONTIGUOUS"] and value.flags["WRITEABLE"]:
        return value, None
    # A private C-contiguous, writable copy (np.ascontiguousarray keeps a read-only array read-only).
    return np.array(value, order="C", copy=True), value


MAX_BLOCKS = 2**31 - 1  # the launch's block count is an int32 (Ascend C's blockDim is a uint32_t)


def launch_blocks(block_num):
    """The block count of ``kernel[block_num]``: ``kernel[core_num, stream]`` (streams only matter on an NPU)
    takes the first; ``kernel[None]`` is None: one block per core of the kind the kernel runs on (decided once
    compiled)."""
    if isinstance(block_num, tuple) and len(block_num) in (1, 2):
        block_num = block_num[0]
    return None if block_num is None else _block_count(block_num)


def _block_count(block_num):
    if not _is_int(block_num) or not 1 <= int(block_num) <= MAX_BLOCKS:
        raise ValueError(f"the block count must be an integer from 1 to {MAX_BLOCKS}, got {block_num!r}")
    return int(block_num)


def all_cores(kernel_type):
    """The block count of ``kernel[None]`` on the current platform: its vector cores for an AIV_ONLY
    kernel, its cube cores for AIC_ONLY and MIX (a MIX block is a cube core with its vector cores)."""
    counts = compiler.native().core_counts(get_platform().platform)
    return counts["aiv"] if kernel_type in (None, "AIV_ONLY") else counts["aic"]


def _writeable(array):
    flags = getattr(array, "flags", None)
    return flags is None or bool(flags["WRITEABLE"])


class Specialisation:
    def __init__(self, params, runtime_args, key_parts):
        self.params = params
        self.runtime_args = runtime_args
        self.key_parts = key_parts


class JITFunction:
    """A kernel: ``kernel[block_num](*args, **constexprs)`` compiles (cached) and runs it."""

    __asc2_jit__ = True

    def __init__(self, fn, options):
        if inspect.iscoroutinefunction(fn) or inspect.isasyncgenfunction(fn):
            code = getattr(fn, "__code__", None)
            where = f"{code.co_filename}:{code.co_firstlineno}: " if code else ""
            raise TypeError(f"{where}kernel {fn.__name__!r} is an 'async def': an asc2 kernel is a plain 'def' "
                            "function (the launch itself is synchronous)")
        self.fn = fn
        self.options = validate_options(options)
        self.__name__ = fn.__name__
        self.__qualname__ = getattr(fn, "__qualname__", fn.__name__)
        self.__doc__ = fn.__doc__
        self.__module__ = fn.__module__
        self.__wrapped__ = fn
        self._source = None
        self._memory_cache = {}
        self._last_report = None
        self._pending_report = None  # makes last_report on first use (see last_report)
        self.last_ir = None
        self.last_cache = None  # "memory", "disk" or "miss"
        self.cache_stats = {"memory": 0, "disk": 0, "miss": 0}

    @property
    def source(self):
        if self._source is None:
            self._source = KernelSource(self.fn)
        return self._source

    def __repr__(self):
        return f"<asc2.jit kernel {self.__qualname__}>"

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"launch a kernel with a block count: {self.__name__}[block_num](...)")

    def __getitem__(self, block_num):
        return Launch(self, launch_blocks(block_num))

    # -- specialisation
    def _fail(self, kind, node, message):
        if not self.options["capture_exceptions"]:
            base = next((b for b in kind.__mro__ if b in (TypeError, ValueError, RuntimeError)), RuntimeError)
            raise base(message)
        raise kind(self.source, node, message)

    def specialise(self, args, kwargs):
        src = self.source
        sig = inspect.signature(self.fn)
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as e:
            self._fail(errors.CompilationTypeError, src.node, f"{self.__name__}(): {e}")
        bound.apply_defaults()
        arg_nodes = {a.arg: a for a in src.node.args.posonlyargs + src.node.args.args + src.node.args.kwonlyargs}
        params, runtime_args, key_params = [], [], []
        for name, p in sig.parameters.items():
            node = arg_nodes.get(name, src.node)
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                self._fail(errors.UnsupportedError, node, f"*{name} parameters are not supported in kernels")
            value = bound.arguments[name]
            kind = _annotation_kind(arg_nodes[name].annotation if name in arg_nodes else None)
            spec = self._param(name, node, kind, value)
            params.append(spec)
            if spec.kind == "constexpr":
                key_params.append([name, "constexpr", self._constexpr_key(name, spec)])
            elif spec.kind == "pointer":
                runtime_args.append(value)
                key_params.append([name, "pointer", spec.dtype.name, int(value.ndim)])
            else:
                runtime_args.append(value)
                key_params.append([name, "scalar", spec.type])
        key_parts = {
            "frontend": cache.build_id(),
            "source": self._dependency_hashes(),
            "options": {k: v for k, v in effective_options(self.options).items() if k != "always_compile"},
            "params": key_params,
            "platform": get_platform().platform,
        }
        return Specialisation(params, runtime_args, key_parts)

    def _constexpr_key(self, name, spec):
        try:
            return fingerprint.fingerprint(spec.value, lambda helper: helper._dependency_hashes())
        except fingerprint.Unkeyable as e:
            self._fail(errors.CompilationTypeError, spec.node,
                       f"the asc2.ConstExpr argument '{name}' has no value asc2 can put into the compile cache key "
                       f"({e}); pass a number, string, dtype, function or a tuple/list/dict of them")

    def _param(self, name, node, kind, value):
        if isinstance(value, core.ConstExpr):
            return ParamSpec(name, "constexpr", node, value=value.value)
        if not _is_array(value) and getattr(value, "shape", None) in ((), []) and hasattr(value, "item"):
            value = value.item()  # a 0-d numpy array or torch tensor is its scalar (upstream passes torch scalars)
        if kind == "constexpr":
            if _is_array(value):
                self._fail(errors.CompilationTypeError, node,
                           f"argument '{name}' is an asc2.ConstExpr and cannot be an array")
            return ParamSpec(name, "constexpr", node, value=value)
        if _is_array(value):
            if kind not in (None, "pointer"):
                self._fail(errors.CompilationTypeError, node,
                           f"argument '{name}' expects {kind}, got an array")
            dt = _array_dtype(value)
            if dt is None:
                self._fail(errors.ShapeError, node,
                           f"argument '{name}': unsupported array dtype {value.dtype}; supported: "
                           + ", ".join(d.name for d in core.ALL_DTYPES))
            return ParamSpec(name, "pointer", node, dtype=dt)
        if kind == "pointer":
            self._fail(errors.CompilationTypeError, node,
                       f"argument '{name}' expects an array (GlobalAddress), got {type(value).__name__} {value!r}")
        if isinstance(value, bool) and kind in (None, "bool"):
            return ParamSpec(name, "scalar", node, type="i1")
        if _is_int(value) and kind in (None, "int", "float"):
            return ParamSpec(name, "scalar", node, type="index" if kind != "float" else "f32")
        if _is_float(value) and kind in (None, "float"):
            return ParamSpec(name, "scalar", node, type="f32")
        expected = {"int": "an int", "float": "a float", "bool": "a bool"}.get(kind)
        if expected:
            self._fail(errors.CompilationTypeError, node,
                       f"argument '{name}' expects {expected}, got {type(value).__name__} {value!r}")
        self._fail(errors.CompilationTypeError, node,
                   f"argument '{name}' of type {type(value).__name__} cannot be passed at run time; pass an "
                   "array, an int or a float, or annotate the parameter with asc2.ConstExpr")

    def _dependency_hashes(self, seen=None):
        """This kernel's source hash and the fingerprint of everything it reads from its module: the
        @asc2.jit helpers it calls (recursively), the constants, containers, classes and plain helper
        functions its code folds into the IR (see ``fingerprint``)."""
        seen = seen if seen is not None else set()
        if id(self) in seen:
            return [self.source.hash]
        seen.add(id(self))
        src = self.source
        out = [src.hash, src.file, src.node.lineno]  # the IR's locations name the file and lines
        params = set(inspect.signature(self.fn).parameters)
        hook = lambda helper: helper._dependency_hashes(seen)  # noqa: E731
        for chain in fingerprint.attribute_chains(src.node):
            if chain[0] in params:
                continue
            found, root = src.lookup_global(chain[0])
            if not found or root is getattr(builtins, chain[0], object()):
                continue
            value, used = fingerprint.resolve_chain(root, chain)
            try:
                out.append([used, fingerprint.fingerprint(value, hook)])
            except fingerprint.Unkeyable as e:
                node = next((n for n in ast.walk(src.node) if isinstance(n, ast.Name) and n.id == chain[0]),
                            src.node)
                self._fail(errors.CompilationTypeError, node,
                           f"{self.__name__} reads '{used}' from its module, whose value asc2 cannot put into "
                           f"the compile cache key ({e}): a change to it would not be seen and the kernel "
                           "would run stale code. Pass it as an asc2.ConstExpr argument, or make it a number, "
                           "string, dtype or a tuple/list/dict of them")
        return out

    # -- compilation
    def ir(self, *args, **kwargs):
        """The frontend IR for these arguments (no C++ compiler needed)."""
        return self._generate(self.specialise(args, kwargs))

    def _generate(self, spec):
        return generate(self.source, spec.params, capture_exceptions=self.options["capture_exceptions"])

    def compile(self, *args, **kwargs):
        """Compile (or fetch from the cache) without launching; returns the CompiledKernel."""
        return self._compiled(self.specialise(args, kwargs))

    def _compiled(self, spec):
        key = cache.make_key(spec.key_parts)
        always = self.options["always_compile"]
        if not always and key in self._memory_cache:
            self.last_cache = "memory"
            self.cache_stats["memory"] += 1
            compiled = self._memory_cache[key]
            self.last_ir = compiled.ir
            return compiled
        arg_names = [p.name for p in spec.params if p.is_runtime]
        entry = None if always else cache.load(key, self.__name__)
        if entry is not None and entry["arg_names"] != arg_names:
            cache.warn_damaged(cache.entry_path(key), f"its arguments {entry['arg_names']} are not the "
                               f"kernel's {arg_names}")
            entry = None
        options = compile_options(effective_options(self.options), spec.key_parts["platform"], self.source.file)
        native_kernel = None
        if entry is not None:
            try:
                native_kernel = compiler.compile_ir(entry["ir"], kernel=self.__name__, options=options)
                ir, self.last_cache = entry["ir"], "disk"
            except errors.CompilationError as e:
                # IR the compiler rejects (written by a broken build?): the fresh IR's own error is the real one.
                cache.warn_damaged(cache.entry_path(key), f"the compiler rejects its IR ({e.message})")
                entry = None
        if entry is None:
            ir, self.last_cache = self._generate(spec), "miss"
            native_kernel = compiler.compile_ir(ir, kernel=self.__name__, options=options)
        self.cache_stats[self.last_cache] += 1
        self.last_ir = ir
        compiled = compiler.CompiledKernel(ir, self.__name__, arg_names, native_kernel)
        self._memory_cache[key] = compiled
        if entry is None:
            cache.store(key, {"ir": ir, "kernel": self.__name__, "arg_names": arg_names})
        return compiled

    # -- launch
    def _launch_args(self, spec, copy=False, written=None):
        """The launch's values (C-contiguous numpy arrays, Python scalars) and the (original, copy) pairs
        whose results must be written back; ``copy``: the arrays are private copies. ``written``: the indices
        of the arguments the kernel may write; a read-only array the kernel only reads is passed as a copy,
        one it writes is an error naming the parameter, and a torch tensor it writes is marked modified for
        autograd (``tensors.record_write``)."""
        launch_args, write_back = [], []
        for index, (p, value) in enumerate(zip([p for p in spec.params if p.is_runtime], spec.runtime_args)):
            if p.kind == "pointer":
                label = f"{self.__name__}: argument '{p.name}'"
                arr, original = _to_numpy(value, label)
                host = value.array if isinstance(value, Reinterpreted) else value
                writes = written is not None and index in written
                if copy:
                    arr, original = arr.copy(), None
                launch_args.append(arr)
                if writes and original is not None and not tensors.is_tensor(host) and tensors.elements_overlap(
                        original.shape, [st // original.itemsize for st in original.strides]):
                    # as_strided views: a write-back would keep one of several results per element.
                    raise ValueError(f"{label} is an array whose elements share memory (strides "
                                     f"{original.strides} bytes, made by as_strided), but the kernel writes it; "
                                     "pass an array that owns its elements (.copy() of it)")
                if original is not None and not _writeable(original):
                    if writes and tensors.is_tensor(host):
                        raise ValueError(tensors.unwritable_message(host, label))
                    if writes:
                        raise ValueError(f"{label} is a read-only array, but the kernel writes it; pass a writable "
                                         "array (e.g. np.array(...) of it)")
                    original = None  # only read: the copy is enough
                if original is not None:
                    write_back.append((original, arr))
                if writes and tensors.is_tensor(host):
                    tensors.record_write(host)
            elif p.type == "f32":
                try:
                    launch_args.append(float(value))
                except OverflowError:
                    raise ValueError(f"{self.__name__}: argument '{p.name}' = {value} is too large for a float") \
                        from None
            else:
                v = int(value)
                if not -2**63 <= v < 2**63:
                    raise ValueError(f"{self.__name__}: argument '{p.name}' = {v} does not fit the kernel's 64-bit "
                                     "integers (-2**63 <= value < 2**63)")
                launch_args.append(v)
        return launch_args, write_back

    def export_project(self, path, *args, block_num, **kwargs):
        """Write the kernel project of the launch ``kernel[block_num](*args, **kwargs)`` to ``path``.

        The launch runs on the simulator with copies of the arrays (the caller's stay untouched): their
        contents before it are the project's inputs, after it its golden data. Returns ``path``."""
        block_num = _block_count(block_num)
        spec = self.specialise(args, kwargs)
        compiled = self._compiled(spec)
        launch_args, _ = self._launch_args(spec, copy=True)
        compiled.check_extents(launch_args)
        inputs = [a.copy() if hasattr(a, "copy") else a for a in launch_args]
        if compiled.inline_code:
            # Raw Ascend C (asc2.inline / inline_vf) does not run on the simulator: no golden data.
            return project.export(path, self, compiled, spec, int(block_num), inputs, None)
        result = compiled.launch(int(block_num), launch_args)
        if not result.get("ok", True):
            raise errors.SimulationError(result.get("error") or "the kernel run failed")
        return project.export(path, self, compiled, spec, int(block_num), inputs, launch_args)

    @property
    def last_report(self):
        """The report of the last launch as a dict: the compile's passes, memory and sync plans, and "launch"
        (cycles, ok, races, ...), which is None when the launch only compiled (compile-only mode,
        ASC2_COMPILE_ONLY=1: nothing ran). Made on first use after each launch."""
        if self._pending_report is not None:
            self._last_report, self._pending_report = self._pending_report(), None
        return self._last_report

    @last_report.setter
    def last_report(self, report):
        self._pending_report = None
        self._last_report = report

    def run(self, block_num, args, kwargs):
        backend = get_platform().backend
        check_backend_available(backend, get_platform().device_id)
        spec = self.specialise(args, kwargs)
        compiled = self._compiled(spec)
        wanted = KERNEL_TYPES.get(self.options.get("kernel_type"))
        detected = compiled.report().get("options", {}).get("kernel_type") if wanted else None
        if wanted and detected and detected != wanted:
            raise errors.UnsupportedError(self.source, self.source.node, f"{self.__name__}: kernel_type={wanted} was requested, but "
                                          f"the kernel uses {detected} (the compiler detects the kernel type "
                                          "from the units it uses)")
        if block_num is None:
            block_num = all_cores(compiled.report().get("options", {}).get("kernel_type"))
        dump = os.environ.get("ASC2_DUMP_PATH") or os.environ.get("PYASC_DUMP_PATH")
        if _compile_only():
            # The workbench's Compile only: the report is published by the
            # compile; nothing runs and the arrays are untouched.
            self._pending_report = lambda: dict(compiled.report(), launch=None)
            if dump:
                compiled.write_report_dir(os.path.join(dump, self.__name__))
            return None
        launch_args, write_back = self._launch_args(spec, written=compiled.written_args)
        compiled.check_extents(launch_args)
        if backend == "NPU":
            self.last_report = npu.launch(self, compiled, spec, block_num, launch_args)
            for original, arr in write_back:
                original[...] = arr
            return None
        export_dir = os.environ.get("ASC2_EXPORT_PROJECT")
        export_dir = export_dir if export_dir and project.wants_export(export_dir, self) else None
        inputs = [a.copy() if hasattr(a, "copy") else a for a in launch_args] if export_dir else None
        try:
            if get_platform().backend == "Twin":
                result = twin.run(compiled, block_num, launch_args)
            else:
                result = compiled.launch(block_num, launch_args)
        except errors.SimulationError as e:
            self.last_report = dict(compiled.report(), launch={"ok": False, "error": str(e), "block_num": block_num})
            if dump:  # the passes and the Ascend C help explain a failed run too
                compiled.write_report_dir(os.path.join(dump, self.__name__))
            if export_dir and isinstance(e, errors.BackendUnsupportedError):
                # What the launch could not run, written to build and run on an NPU (no golden data).
                project.export_first_launch(export_dir, self, compiled, spec, block_num, inputs, None)
            raise
        for original, arr in write_back:
            original[...] = arr
        # The report (every pass's IR, as JSON) costs more than a small launch: made when asked for.
        launch = dict(result, block_num=block_num)
        self._pending_report = lambda: dict(compiled.report(), launch=launch)
        if dump:
            compiled.write_report_dir(os.path.join(dump, self.__name__))
        if not result.get("ok", True):
            raise errors.SimulationError(result.get("error") or "the kernel run failed")
        for message in result.get("warnings") or []:
            warnings.warn(f"{self.__name__}: {message}", errors.SimulationWarning, stacklevel=3)
        races = result.get("races") or []
        if races:
            raise errors.SimulationError(f"{self.__name__}: {len(races)} data race(s) detected:\n  "
                                         + "\n  ".join(races), races)
        if export_dir:
            project.export_first_launch(export_dir, self, compiled, spec, block_num, inputs, launch_args)
        return None


class Launch:
    """``kernel[block_num]``: call it to launch, or ``.export_project(path, *args)`` to write the launch's
    kernel project (see ``JITFunction.export_project``)."""

    __slots__ = ("kernel", "block_num")

    def __init__(self, kernel, block_num):
        self.kernel = kernel
        self.block_num = block_num

    def __call__(self, *args, **kwargs):
        return self.kernel.run(self.block_num, args, kwargs)

    def export_project(self, path, *args, **kwargs):
        return self.kernel.export_project(path, *args, block_num=self.block_num, **kwargs)

    def __repr__(self):
        return f"{self.kernel!r}[{self.block_num}]"


def jit(fn=None, **options):
    """Decorate a kernel: ``@asc2.jit`` or ``@asc2.jit(option=value, ...)``."""
    if fn is not None:
        if not callable(fn):
            raise TypeError(f"asc2.jit expects a function, got {fn!r}")
        kernel = JITFunction(fn, options)
        _warn_ignored(kernel.options, stacklevel=2)
        return kernel
    _warn_ignored(validate_options(options), stacklevel=2)  # fail (or warn) at the decorator line, not at launch
    return lambda f: JITFunction(f, options)
