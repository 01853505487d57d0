"""``asc2.Config``: one point of a tuning space.

A config holds keyword values for a kernel's parameters (usually its ``asc2.ConstExpr`` tile sizes, rows per
trip or unroll factors; any parameter the caller does not pass may be set), and optionally

- ``block_num``: the launch's block count, which then replaces the one of ``kernel[block_num](...)``;
- ``options``: ``@asc2.jit`` options (``num_stages``, ``reuse_alloc``, ...) that replace the kernel's own for
  this config.

    asc2.Config(TILE=256)
    asc2.Config(TILE=1024, block_num=16)
    asc2.Config({"TILE": 4096}, block_num=48, options={"num_stages": 1})   # Triton's dict spelling

``block_num`` and ``options`` are therefore not available as kernel parameter names in the keyword spelling;
use the dict spelling for a kernel whose parameter has one of those names.
"""

from ..runtime.jit import _block_count, validate_options


class Config:
    """Kernel keyword values, plus an optional launch block count and jit options (see the module docstring)."""

    __slots__ = ("kwargs", "block_num", "options")

    def __init__(self, kwargs=None, *, block_num=None, options=None, **values):
        if kwargs is not None and not isinstance(kwargs, dict):
            raise TypeError(f"asc2.Config: the positional argument is a dict of kernel parameter values, got "
                            f"{type(kwargs).__name__} {kwargs!r}")
        merged = dict(kwargs or {})
        twice = sorted(set(merged) & set(values))
        if twice:
            raise TypeError(f"asc2.Config: {', '.join(twice)} given both in the dict and as a keyword")
        merged.update(values)
        for name in merged:
            if not isinstance(name, str) or not name.isidentifier():
                raise TypeError(f"asc2.Config: {name!r} is not a parameter name")
        self.kwargs = merged
        self.block_num = None if block_num is None else _block_num(block_num)
        self.options = _options(options)

    def __repr__(self):
        parts = [f"{k}={v!r}" for k, v in self.kwargs.items()]
        if self.block_num is not None:
            parts.append(f"block_num={self.block_num}")
        if self.options:
            parts.append(f"options={self.options!r}")
        return f"asc2.Config({', '.join(parts)})"

    def describe(self):
        """``TILE=256, block_num=16, num_stages=1``: what a report table shows."""
        parts = [f"{k}={v!r}" for k, v in self.kwargs.items()]
        if self.block_num is not None:
            parts.append(f"block_num={self.block_num}")
        parts += [f"{k}={v!r}" for k, v in self.options.items()]
        return ", ".join(parts) or "(defaults)"

    def identity(self):
        """A string equal for equal configs: what the on-disk choice is keyed and checked by."""
        return repr(self)

    def __eq__(self, other):
        return isinstance(other, Config) and self.identity() == other.identity()

    def __hash__(self):
        return hash(self.identity())

    def __reduce__(self):
        return (_rebuild, (self.kwargs, self.block_num, self.options))

    def to_json(self):
        """The config as plain JSON: kernel values (tuples become lists), block_num and options."""
        return {"kwargs": {k: plain(v) for k, v in self.kwargs.items()}, "block_num": self.block_num,
                "options": {k: plain(v) for k, v in self.options.items()}}

    def check_against(self, kernel_name, params, passed=()):
        """Raise a TypeError when the config sets a name that is not one of ``params`` (the kernel's parameter
        names) or one the caller passes itself (``passed``)."""
        unknown = [name for name in self.kwargs if name not in params]
        if unknown:
            raise TypeError(f"{self!r} sets {', '.join(repr(n) for n in unknown)}, which "
                            f"{'is not a parameter' if len(unknown) == 1 else 'are not parameters'} of kernel "
                            f"'{kernel_name}' (its parameters: {', '.join(params)})")
        clash = [name for name in self.kwargs if name in passed]
        if clash:
            raise TypeError(f"{self!r} sets {', '.join(repr(n) for n in clash)}, which the launch of kernel "
                            f"'{kernel_name}' passes itself; leave the tuned parameters out of the launch")


def _rebuild(kwargs, block_num, options):
    return Config(kwargs, block_num=block_num, options=options)


def _block_num(value):
    try:
        return _block_count(value)
    except ValueError as e:
        raise ValueError(f"asc2.Config: block_num: {e}") from None


def _options(options):
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise TypeError(f"asc2.Config: options must be a dict of asc2.jit options, got {type(options).__name__}")
    validate_options(options)  # unknown names and bad values: the jit decorator's own errors
    return dict(options)


def plain(value):
    """``value`` as JSON can hold it: tuples become lists, dtypes and other objects their repr."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if hasattr(value, "item") and getattr(value, "shape", None) == ():
        return value.item()  # numpy scalars
    return repr(value)
