"""The frontend's modules (python/asc2/codegen) import each other without a circle.

The builtins are families of emitters over one registry (codegen/builtins/); a family that needs another imports
it, so the import graph must stay a DAG. Two checks: the static graph of every import statement in the source
(function-level ones too, the usual way a circle gets hidden), and, in a fresh interpreter, that no codegen module
is imported while it is still being initialised (what a circle does at run time).
"""

import ast
import os
import subprocess
import sys
import textwrap

import asc2

from conftest import ROOT

PACKAGE = "asc2.codegen"
SOURCE = os.path.join(ROOT, "python", "asc2", "codegen")


def module_files(root=SOURCE, package=PACKAGE):
    """Dotted module name -> path, for every .py under ``root`` (a package's __init__ is the package)."""
    out = {}
    for folder, _, files in os.walk(root):
        rel = os.path.relpath(folder, root)
        prefix = package if rel == "." else package + "." + rel.replace(os.sep, ".")
        for f in files:
            if f.endswith(".py"):
                out[prefix if f == "__init__.py" else f"{prefix}.{f[:-3]}"] = os.path.join(folder, f)
    return out


def imported_modules(name, path, known):
    """The modules of ``known`` that the file of module ``name`` imports (anywhere in it)."""
    is_package = path.endswith("__init__.py")
    package_parts = name.split(".") if is_package else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(open(path, encoding="utf-8").read(), path)):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package_parts[:len(package_parts) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            # `from . import x` imports the submodule x; `from .x import f` imports x.
            targets = [module] + [f"{module}.{a.name}" for a in node.names]
        else:
            continue
        for target in targets:
            # Importing a.b.c runs a and a.b first; the importer's own packages are already running.
            parts = target.split(".")
            for i in range(1, len(parts) + 1):
                t = ".".join(parts[:i])
                if t in known and t != name and not name.startswith(t + "."):
                    found.add(t)
    return found


def find_cycle(graph):
    """One import circle of ``graph`` (module -> imported modules) as a list, or None."""
    state = {}

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = visit(nxt, path + [nxt])
                if cycle:
                    return cycle
        state[node] = "done"
        return None

    for start in sorted(graph):
        if start not in state:
            cycle = visit(start, [start])
            if cycle:
                return cycle
    return None


def import_graph(root=SOURCE, package=PACKAGE):
    files = module_files(root, package)
    return {name: imported_modules(name, path, files) for name, path in files.items()}


def test_cycle_finder_sees_a_circle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_import_graph_reads_relative_imports(tmp_path):
    pkg = tmp_path / "codegen"
    (pkg / "builtins").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .visitor import generate\n")
    (pkg / "visitor.py").write_text("from .builtins.registry import emit\n")
    (pkg / "builtins" / "__init__.py").write_text("from . import registry, shapes\n")
    (pkg / "builtins" / "registry.py").write_text("from .. import visitor\n")
    (pkg / "builtins" / "shapes.py").write_text("def f():\n    from . import registry\n")
    graph = import_graph(str(pkg), "p")
    assert graph == {"p": {"p.visitor"}, "p.visitor": {"p.builtins", "p.builtins.registry"},
                     "p.builtins": {"p.builtins.registry", "p.builtins.shapes"},
                     "p.builtins.registry": {"p.visitor"}, "p.builtins.shapes": {"p.builtins.registry"}}
    assert find_cycle(graph) == ["p.visitor", "p.builtins", "p.builtins.registry", "p.visitor"]


def test_codegen_import_graph_is_a_dag():
    graph = import_graph()
    assert f"{PACKAGE}.builtins.registry" in graph, "the codegen source tree moved; update SOURCE"
    cycle = find_cycle(graph)
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def test_registry_imports_no_family():
    """The registry sits under every family: it imports only shared helpers."""
    registry = import_graph()[f"{PACKAGE}.builtins.registry"]
    assert registry <= {f"{PACKAGE}.builtins.checks"}, registry


# Run in a fresh interpreter: a codegen module imported while it is still executing is a circle closing.
_PROBE = textwrap.dedent("""
    import builtins, importlib.util, sys
    executing, circles, real_import = [], [], builtins.__import__

    def tracking_import(name, globals=None, locals=None, fromlist=(), level=0):
        package = (globals or {}).get("__package__") or ""
        base = importlib.util.resolve_name("." * level + name, package) if level else name
        importer = (globals or {}).get("__name__") or ""
        for target in [base] + [f"{base}.{f}" for f in fromlist or ()]:
            # The importer's own packages are still running their __init__: that is no circle.
            if target in executing and target != importer and not importer.startswith(target + "."):
                circles.append(f"{importer} -> {target}")
        return real_import(name, globals, locals, fromlist, level)

    class Tracker:
        def find_spec(self, name, path=None, target=None):
            if not name.startswith("asc2.codegen"):
                return None
            for finder in sys.meta_path:
                if finder is self:
                    continue
                spec = finder.find_spec(name, path, target)
                if spec is not None:
                    exec_module = spec.loader.exec_module

                    def tracked(module, exec_module=exec_module):
                        executing.append(module.__name__)
                        try:
                            exec_module(module)
                        finally:
                            executing.remove(module.__name__)
                    spec.loader.exec_module = tracked
                    return spec
            return None

    builtins.__import__ = tracking_import
    sys.meta_path.insert(0, Tracker())
    import asc2.codegen
    print("\\n".join(circles))
""")


def test_no_codegen_module_is_imported_half_initialised():
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(asc2.__file__)))
    result = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", "import circles at run time:\n" + result.stdout
