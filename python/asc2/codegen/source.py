"""A kernel's Python source: file, text, AST and the names it can see."""

import ast
import builtins
import hashlib
import inspect
import linecache
import os
import textwrap


class KernelSource:
    """The ``def`` of a kernel with positions that match the file on disk."""

    def __init__(self, fn):
        self.fn = fn
        self.name = fn.__name__
        self.file, self.node, self.lines = _locate(fn)
        start = min([self.node.lineno] + [d.lineno for d in self.node.decorator_list])
        self.text = "".join(self.lines[start - 1:self.node.end_lineno])
        self.hash = hashlib.sha256(self.text.encode()).hexdigest()

    def line_text(self, lineno):
        if lineno and 0 < lineno <= len(self.lines):
            return self.lines[lineno - 1].rstrip("\n")
        return None

    # -- names visible to the kernel
    def closure_vars(self):
        code = self.fn.__code__
        cells = self.fn.__closure__ or ()
        out = {}
        for name, cell in zip(code.co_freevars, cells):
            try:
                out[name] = cell.cell_contents
            except ValueError:  # cell not yet filled
                pass
        return out

    def lookup_global(self, name):
        """(found, value) for ``name`` from the closure, module globals or builtins."""
        closure = self.closure_vars()
        if name in closure:
            return True, closure[name]
        if name in self.fn.__globals__:
            return True, self.fn.__globals__[name]
        if hasattr(builtins, name):
            return True, getattr(builtins, name)
        return False, None

    def referenced_names(self):
        return sorted({n.id for n in ast.walk(self.node) if isinstance(n, ast.Name)})


def _locate(fn):
    """(file, FunctionDef node, lines) with line/col numbers as in the file."""
    try:
        file = inspect.getsourcefile(fn) or inspect.getfile(fn)
    except TypeError as e:
        raise TypeError(f"cannot get the source of {fn.__name__!r}: {e}") from None
    lines = linecache.getlines(file, fn.__globals__)
    first = fn.__code__.co_firstlineno
    if lines:
        try:
            tree = ast.parse("".join(lines), filename=file)
        except SyntaxError:
            tree = None
        if tree is not None:
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == fn.__name__:
                    start = min([node.lineno] + [d.lineno for d in node.decorator_list])
                    if start == first or node.lineno == first:
                        return _abs(file), node, lines
    # Fallback: the function's own text, dedented, with positions shifted back.
    try:
        src_lines, start = inspect.getsourcelines(fn)
    except OSError:
        raise TypeError(f"cannot compile {fn.__name__!r}: its source is not in a file (it was defined in {file}, "
                        "e.g. by exec() or python -c); asc2 compiles a kernel from its source, so define it in a "
                        ".py file") from None
    text = "".join(src_lines)
    dedented = textwrap.dedent(text)
    indent = len(src_lines[0]) - len(src_lines[0].lstrip()) if src_lines else 0
    tree = ast.parse(dedented)
    for node in ast.walk(tree):
        if hasattr(node, "lineno"):
            node.lineno += start - 1
            if hasattr(node, "end_lineno") and node.end_lineno is not None:
                node.end_lineno += start - 1
            node.col_offset += indent
    func = next((n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    if func is None:
        raise TypeError(f"{file}:{start}: a kernel must be a function defined with 'def' ({fn.__name__!r} is "
                        "not): asc2 compiles the function's source")
    padded = [""] * (start - 1) + src_lines
    return _abs(file), func, padded


def _abs(file):
    if file.startswith("<"):
        return file
    return os.path.abspath(file)
