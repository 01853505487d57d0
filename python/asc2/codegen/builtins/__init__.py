"""What each asc2 builtin and operator emits: one registry and the families of emitters that fill it.

Importing this package registers every family. A family imports the registry, the shared helpers (``checks``,
``scalars``, ``masks``, ``tiles``) and the families it builds on, never one that builds on it: the modules form a
DAG (tests/python/test_codegen_modules.py fails on an import circle).
"""

from . import creation, cube, elementwise, masks, memory, methods, norms, programming, reductions, shapes  # noqa: F401
