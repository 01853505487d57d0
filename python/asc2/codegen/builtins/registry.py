"""The one registry of asc2 builtins: name -> emitter.

A builtin is a stub in ``language/core.py`` marked ``@builtin`` (its ``__asc2_builtin__`` is its name); the
visitor dispatches a call of it to ``emit_builtin``. A family module registers what the builtin emits with
``@emitter("name")``; the emitter's parameters are bound like the stub's, defaults applied.
"""

import functools
import inspect

from ... import errors
from ...language import core
from .checks import fail

EMITTERS = {}


@functools.cache
def _stub_signature(name):
    stub = getattr(core, name)
    return inspect.signature(getattr(stub, "__wrapped__", stub))


def bind(name, args, kwargs):
    """The arguments of a call of the stub ``asc2.<name>``, bound like its signature (defaults applied)."""
    try:
        bound = _stub_signature(name).bind(*args, **kwargs)
    except TypeError as e:
        fail(errors.CompilationTypeError, f"asc2.{name}(): {e}")
    bound.apply_defaults()
    return bound.arguments


def emitter(name, *, earlier_form=None):
    """Register ``fn(gen, **arguments)`` as what ``asc2.<name>`` emits. ``earlier_form(args, kwargs)`` rewrites an
    earlier upstream call form into the stub's before binding. Each builtin has exactly one emitter."""
    _stub_signature(name)  # a name without a stub fails when the family is imported

    def register(fn):
        if name in EMITTERS:
            raise RuntimeError(f"asc2.{name} has two emitters")

        def call(gen, args, kwargs):
            if earlier_form is not None:
                args, kwargs = earlier_form(args, kwargs)
            return fn(gen, **bind(name, args, kwargs))

        EMITTERS[name] = call
        return fn

    return register


def emit_builtin(gen, name, args, kwargs):
    call = EMITTERS.get(name)
    if call is None:
        fail(errors.UnsupportedError, f"asc2.{name} is not implemented yet")
    return call(gen, args, kwargs)
