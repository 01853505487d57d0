"""What a kernel's code reads from its module, as JSON for the specialisation key.

The code generator folds every compile-time value a kernel reads (module constants, dicts, lists, class
attributes, plain helper functions it calls with compile-time arguments) into the IR, so the cache key must
change whenever one of them does, in one process and between processes. ``fingerprint`` describes a value by
its contents: numbers and strings by ``repr``, containers element by element, a plain Python function by its
bytecode, defaults, closure cells and (recursively) the globals its bytecode loads, a class by its attributes,
an object by its type and ``__dict__``/``__slots__``. Modules are not described whole: the kernel's attribute
chains (``cfg.TILE``, ``np.float32``) are followed through modules to the value they name. Library code
(the standard library, numpy, torch, asc2 itself) is described by its qualified name: it does not change
while asc2 runs. A value with no such description raises ``Unkeyable`` (the caller says why at the kernel's
line) rather than being keyed by identity, which would serve stale IR from the disk cache.
"""

import ast
import builtins
import dis
import enum
import functools
import hashlib
import sys
import types

# Libraries whose functions and classes are described by name (they do not change while asc2 runs).
_STABLE_ROOTS = frozenset(sys.stdlib_module_names) | {"numpy", "torch", "asc2", "ml_dtypes", "builtins"}
_MAX_NODES = 200_000


class Unkeyable(Exception):
    """A value the specialisation key cannot describe; ``str`` says what and why."""


def _is_stable(obj):
    module = getattr(obj, "__module__", None) or ""
    return module.split(".")[0] in _STABLE_ROOTS


def _qualname(obj):
    return f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', getattr(obj, '__name__', '?'))}"


def _default_repr(value):
    return type(value).__repr__ is object.__repr__


class _State:
    def __init__(self, jit_hook):
        self.jit_hook = jit_hook  # JITFunction -> its dependency list
        self.active = set()  # ids on the current path: cycles become a back reference
        self.nodes = 0


def attribute_chains(tree):
    """The dotted names (``('cfg', 'TILE')``, ``('x',)``) an AST reads, outermost attribute chains only."""
    chains, inner = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            parts, cur = [], node
            while isinstance(cur, ast.Attribute):
                parts.append(cur.attr)
                inner.add(id(cur.value))
                cur = cur.value
            if isinstance(cur, ast.Name) and id(node) not in inner:
                chains.add((cur.id, *reversed(parts)))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and id(node) not in inner:
            chains.add((node.id,))
    return sorted(chains)


_CODE_INFO = {}  # code object -> (digest, global attribute chains); code objects are immutable


def _code_info(code):
    info = _CODE_INFO.get(code)
    if info is None:
        h = hashlib.sha256()
        chains = set()
        _hash_code(code, h, chains)
        info = _CODE_INFO[code] = (h.hexdigest(), sorted(chains))
    return info


def _hash_code(code, h, chains):
    """Hash what a code object does (not where it is: line numbers are left out) and collect the global
    names (with their attribute chains) it loads."""
    for part in (code.co_code, repr((code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars,
                                     code.co_argcount, code.co_kwonlyargcount, code.co_flags)).encode()):
        h.update(part)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _hash_code(const, h, chains)
        else:
            h.update(repr(const).encode())
    chain = None
    for ins in dis.get_instructions(code):
        if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
            if chain:
                chains.add(tuple(chain))
            chain = [ins.argval]
        elif ins.opname in ("LOAD_ATTR", "LOAD_METHOD") and chain:
            chain.append(ins.argval)
        elif ins.opname not in ("CACHE", "EXTENDED_ARG", "PRECALL"):
            if chain:
                chains.add(tuple(chain))
            chain = None
    if chain:
        chains.add(tuple(chain))


def resolve_chain(root, chain):
    """Follow ``chain[1:]`` from ``root`` through modules; (value, the dotted name that reached it)."""
    value, used = root, [chain[0]]
    for attr in chain[1:]:
        if not isinstance(value, types.ModuleType):
            break
        try:
            value = getattr(value, attr)
        except AttributeError:
            break
        used.append(attr)
    return value, ".".join(used)


def _function(fn, state):
    digest, chains = _code_info(fn.__code__)
    out = ["function", _qualname(fn), digest, _fp(fn.__defaults__, state), _fp(fn.__kwdefaults__, state)]
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            out.append([name, _fp(cell.cell_contents, state)])
        except ValueError:  # an empty cell
            out.append([name, "<empty>"])
    g = fn.__globals__
    for chain in chains:
        if chain[0] in g:
            value, used = resolve_chain(g[chain[0]], chain)
        elif hasattr(builtins, chain[0]):
            continue
        else:
            out.append([chain[0], "<undefined>"])
            continue
        out.append([used, _fp(value, state)])
    return out


def _class(cls, state):
    out = ["class", _qualname(cls), [_fp(b, state) for b in cls.__bases__ if b is not object]]
    for name, value in cls.__dict__.items():
        if name in ("__dict__", "__weakref__", "__module__", "__doc__", "__qualname__", "__slots__"):
            continue
        out.append([name, _fp(value, state)])
    return out


def _instance(value, state):
    cls = type(value)
    state_parts = []
    if hasattr(value, "__dict__"):
        state_parts.append(_fp(vars(value), state))
    for klass in cls.__mro__:
        for slot in getattr(klass, "__dict__", {}).get("__slots__", ()) or ():
            if isinstance(slot, str) and slot not in ("__dict__", "__weakref__") and hasattr(value, slot):
                state_parts.append([slot, _fp(getattr(value, slot), state)])
    if hasattr(value, "__dict__") or any(getattr(k, "__slots__", None) for k in cls.__mro__[:-1]):
        return ["object", _fp(cls, state), *state_parts]
    if not _default_repr(value):
        return ["repr", _qualname(cls), repr(value)]
    raise Unkeyable(f"an instance of {cls.__name__} with no attributes and no repr")


def _fp(value, state):
    state.nodes += 1
    if state.nodes > _MAX_NODES:
        raise Unkeyable(f"it holds more than {_MAX_NODES} values")
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        return [type(value).__name__, repr(value)]
    if getattr(value, "__asc2_jit__", False) and isinstance(getattr(value, "fn", None), types.FunctionType):
        return ["jit", *state.jit_hook(value)]
    if isinstance(value, type) and _is_stable(value):
        return ["type", _qualname(value)]
    if isinstance(value, types.ModuleType):
        return ["module", value.__name__]
    if isinstance(value, enum.Enum):
        return ["enum", _qualname(type(value)), value.name, _fp(value.value, state)]
    if isinstance(value, (types.BuiltinFunctionType, types.BuiltinMethodType, types.MethodWrapperType,
                          types.WrapperDescriptorType, types.MethodDescriptorType)) and _is_stable(value):
        return ["builtin", _qualname(value)]
    key = id(value)
    if key in state.active:
        return ["cycle", type(value).__name__]
    state.active.add(key)
    try:
        return _compound(value, state)
    finally:
        state.active.discard(key)


def _compound(value, state):
    if isinstance(value, (tuple, list)):
        return [type(value).__name__, *[_fp(v, state) for v in value]]
    if isinstance(value, (set, frozenset)):
        return [type(value).__name__, *sorted((_fp(v, state) for v in value), key=repr)]
    if isinstance(value, dict):  # insertion order matters to a kernel that iterates it
        return ["dict", *[[_fp(k, state), _fp(v, state)] for k, v in value.items()]]
    if isinstance(value, types.FunctionType):
        if _is_stable(value) and not value.__module__.startswith("__main__"):
            return ["function", _qualname(value)]
        return _function(value, state)
    if isinstance(value, types.MethodType):
        return ["method", _fp(value.__self__, state), _fp(value.__func__, state)]
    if isinstance(value, functools.partial):
        return ["partial", _fp(value.func, state), _fp(value.args, state), _fp(value.keywords, state)]
    if isinstance(value, (staticmethod, classmethod)):
        return [type(value).__name__, _fp(value.__func__, state)]
    if isinstance(value, property):
        return ["property", _fp(value.fget, state), _fp(value.fset, state)]
    if isinstance(value, type):
        return _class(value, state)
    array = _numpy_array(value)
    if array is not None:
        return array
    if _is_stable(type(value)) and not _default_repr(value):
        return ["repr", _qualname(type(value)), repr(value)]
    return _instance(value, state)


def _numpy_array(value):
    np = sys.modules.get("numpy")
    if np is None:
        return None
    if isinstance(value, np.generic):
        return ["numpy", str(value.dtype), repr(value.item())]
    if isinstance(value, np.ndarray):
        data = np.ascontiguousarray(value)
        return ["ndarray", str(value.dtype), list(value.shape), hashlib.sha256(data.tobytes()).hexdigest()]
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.Tensor):
        # By its bytes, as an ndarray: a tensor's repr rounds to 4 decimals and elides long ones.
        t = value.detach().cpu().contiguous()
        bits = t.view(torch.int16) if t.dtype == torch.bfloat16 else t
        return ["tensor", str(value.dtype), list(value.shape), hashlib.sha256(bits.numpy().tobytes()).hexdigest()]
    return None


def fingerprint(value, jit_hook):
    """A JSON-serialisable description of ``value``; raises ``Unkeyable``."""
    return _fp(value, _State(jit_hook))
