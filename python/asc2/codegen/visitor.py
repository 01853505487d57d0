"""The frontend: one ``ast.NodeVisitor`` from a kernel's Python AST to asctile IR.

Compile-time values (ConstExpr parameters, Python numbers, tuples, shapes,
dtypes, modules) stay Python objects and are folded here; runtime values are
``ir.Value``s.  ``visit`` sets the current source location from the node and
turns any exception raised below it into a ``CompilationError`` at that node.
"""

import ast
import builtins
import copy
import inspect

from .. import errors
from ..errors import CompilationError, UnsupportedError
from ..language import core
from .builtins.checks import describe, fail, is_number
from .builtins.elementwise import (CMP_PREDICATES, PY_BINOPS, PY_FOLD, binary_op, compare_op, logical, logical_not,
                                   power, select, unary_op)
from .builtins.masks import make_mask
from .builtins.methods import BoundMethod, call_method, get_attribute, python_builtin
from .builtins.registry import emit_builtin
from .builtins.scalars import as_index, as_scalar, to_condition
from .builtins.tiles import coerce_like
from .ir import (INDEX, IRBuilder, Pointer, PositiveIndex, Scalar, Tile, UnpackableTile, Value, location, ptr_type,
                 rebind, string_array)


class ParamSpec:
    """How one kernel parameter is bound for this specialisation."""

    def __init__(self, name, kind, node, *, dtype=None, type=None, value=None):
        self.name = name
        self.kind = kind  # "pointer", "scalar" or "constexpr"
        self.node = node  # ast.arg, for locations and errors
        self.dtype = dtype  # pointers: element dtype
        self.type = type  # scalars: "index", "f32" or "i1"
        self.value = value  # constexprs

    @property
    def is_runtime(self):
        return self.kind != "constexpr"

    def mlir_type(self):
        return ptr_type(self.dtype) if self.kind == "pointer" else self.type


class _Return(Exception):
    """Unwinds a function body at ``return`` (kernels and inlined helpers)."""

    def __init__(self, value):
        super().__init__()
        self.value = value


# Compile-time unrolling bounds: a static_range unrolls its body once per trip, unroll_factor copies it.
MAX_STATIC_TRIPS = 100_000
MAX_UNROLL_FACTOR = 1024  # AscTileDialect::kMaxUnrollFactor verifies the same bound on the IR
# Helper calls are inlined; a recursive helper that never stops would otherwise end in Python's RecursionError.
MAX_INLINE_DEPTH = 64

_UNSUPPORTED = {
    "While": "'while' loops are not supported in asc2 kernels; use a for loop over range/asc2.range",
    "Try": "'try' statements are not supported in asc2 kernels",
    "TryStar": "'try' statements are not supported in asc2 kernels",
    "Raise": "'raise' is not supported in asc2 kernels",
    "Lambda": "lambda expressions are not supported in asc2 kernels",
    "With": "'with' blocks are not supported in asc2 kernels (only 'with asc2.mask(...)')",
    "FunctionDef": "nested functions are not supported in asc2 kernels; define an @asc2.jit helper instead",
    "ClassDef": "classes cannot be defined inside asc2 kernels",
    "Global": "'global' is not supported in asc2 kernels",
    "Nonlocal": "'nonlocal' is not supported in asc2 kernels",
    "Break": "'break' is not supported in asc2 kernels",
    "Continue": "'continue' is not supported in asc2 kernels",
    "Delete": "'del' is not supported in asc2 kernels",
    "Import": "imports are not allowed inside asc2 kernels",
    "ImportFrom": "imports are not allowed inside asc2 kernels",
    "ListComp": "comprehensions are not supported in asc2 kernels",
    "SetComp": "comprehensions are not supported in asc2 kernels",
    "DictComp": "comprehensions are not supported in asc2 kernels",
    "GeneratorExp": "generator expressions are not supported in asc2 kernels",
    "Yield": "'yield' is not supported in asc2 kernels",
    "Await": "'await' is not supported in asc2 kernels",
    "NamedExpr": "':=' is not supported in asc2 kernels",
    "Match": "'match' is not supported in asc2 kernels",
}


def _same(a, b):
    """Whether a name still holds the same value (identity for IR values, equality for constants)."""
    if a is b:
        return True
    if isinstance(a, Value) or isinstance(b, Value) or type(a) is not type(b):
        return False
    try:
        return bool(a == b)
    except Exception:
        return False


class CodeGenerator(ast.NodeVisitor):
    def __init__(self, source, params, *, capture_exceptions=True):
        self.src = source
        self.params = params
        self.capture = capture_exceptions
        self.b = IRBuilder(source.file)
        self.scope = {}
        self.runtime_depth = 0  # nesting of scf regions
        self.return_depth = 0  # runtime_depth where `return` may unwind to
        self.inline_depth = 0
        self.mask = None  # the builtins.masks.LaneMask of the enclosing 'with asc2.mask(...)'
        self.deferred = []  # (source, position, check): see defer()

    # -- driver
    def generate(self):
        fn = self.src.node
        args = []
        for i, p in enumerate(self.params):
            if p.kind == "constexpr":
                # A copy: a kernel may assign into a list argument (shape[i] = n) without touching the caller's.
                self.scope[p.name] = copy.deepcopy(p.value) if isinstance(p.value, (list, dict)) else p.value
                continue
            ssa = f"%arg{len(args)}"
            self.b.used_names.add(ssa)
            self.scope[p.name] = Pointer(ssa, p.dtype) if p.kind == "pointer" else Scalar(ssa, p.type)
            loc = location(self.src.file, p.node.lineno, p.node.col_offset + 1)
            args.append(f"{ssa}: {p.mlir_type()} {loc}")
        names = string_array([p.name for p in self.params if p.is_runtime])
        end = fn
        try:
            self.visit_block(fn.body)
        except _Return:
            end = self._last_return
        kernel_source = self.src
        for source, position, check in self.deferred:
            self.src = source
            try:
                check()
            except Exception as e:
                self.reraise(e, position)
        self.src = kernel_source
        with self.b.at(self.src.file, end.lineno, end.col_offset + 1):
            self.b.emit("return")
        header = (f"  func.func @{fn.name}({', '.join(args)}) attributes "
                  f"{{asctile.kernel, asctile.arg_names = {names}}} {{")
        footer = f"  }} {location(self.src.file, fn.lineno, fn.col_offset + 1)}"
        return "\n".join(["module {", header, *self.b.region.lines, footer, "}", ""])

    # -- visiting with locations and error wrapping
    def visit(self, node):
        if not hasattr(node, "lineno"):
            return super().visit(node)
        with self.b.at(self.src.file, node.lineno, node.col_offset + 1):
            try:
                return super().visit(node)
            except (CompilationError, _Return):
                raise
            except Exception as e:
                self.reraise(e, node)

    def reraise(self, e, node):
        """Raise ``e`` as the CompilationError at ``node`` (as itself when exceptions are not captured)."""
        if not self.capture:
            raise e
        cls = getattr(e, "asc2_error_class", None) or errors.error_class_for(e)
        plain = type(e) in (TypeError, ValueError, IndexError, RuntimeError, NameError)
        message = str(e) if plain or hasattr(e, "asc2_error_class") else f"{type(e).__name__}: {e}"
        raise cls(self.src, node, message) from e

    def defer(self, check):
        """Run ``check`` once the whole kernel is generated; an error it raises is at the current line. A check
        deferred so is one the language does not make where it happens (see ops.splat)."""
        position = ast.Constant(None, lineno=self.b.line, col_offset=self.b.col - 1)
        self.deferred.append((self.src, position, check))

    def visit_block(self, stmts):
        for stmt in stmts:
            self.visit(stmt)

    def generic_visit(self, node):
        name = type(node).__name__
        fail(UnsupportedError, _UNSUPPORTED.get(name, f"unsupported syntax in an asc2 kernel: {name}"))

    # -- statements
    def visit_Expr(self, node):
        self.visit(node.value)

    def visit_Pass(self, node):
        pass

    def visit_Assign(self, node):
        value = self.visit(node.value)
        for target in node.targets:
            self.assign(target, value)

    def visit_AnnAssign(self, node):
        if node.value is not None:
            self.assign(node.target, self.visit(node.value))

    def visit_AugAssign(self, node):
        if not isinstance(node.target, ast.Name):
            fail(UnsupportedError, "augmented assignment is only supported to a plain name")
        current = self.visit(ast.copy_location(ast.Name(node.target.id, ast.Load()), node.target))
        self.assign(node.target, self.binop(node.op, current, self.visit(node.value)))

    def assign(self, target, value):
        if isinstance(value, core.ConstExpr):
            value = value.value
        if isinstance(target, ast.Name):
            self.scope[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(value, UnpackableTile):
                value = value.parts
            if isinstance(value, Value) or not isinstance(value, (tuple, list)):
                fail(errors.CompilationTypeError, f"cannot unpack {describe(value)}")
            if len(value) != len(target.elts):
                fail(errors.CompilationValueError,
                     f"cannot unpack {len(value)} values into {len(target.elts)} names")
            for t, v in zip(target.elts, value):
                self.assign(t, v)
        elif isinstance(target, ast.Subscript):
            # An element of a compile-time list or dict (shapes, offsets) may take any value, runtime ones too.
            container = self.visit(target.value)
            index = self.visit(target.slice)
            if isinstance(container, Value):
                fail(UnsupportedError, "tiles are values: build a new tile instead of writing into one")
            if isinstance(index, Value):
                fail(errors.CompilationTypeError, "a compile-time list cannot be indexed by a runtime value")
            if not isinstance(container, (list, dict)):
                fail(errors.CompilationTypeError, f"cannot assign into {describe(container)}")
            container[index] = value
        else:
            fail(UnsupportedError, "only names can be assigned in asc2 kernels "
                                   "(tiles are values: build a new tile instead of writing into one)")

    def visit_With(self, node):
        """``with asc2.mask(count=n | bits=(hi, lo), other=v):``: the element-wise ops of the body compute only the
        lanes the mask selects (builtins.masks.apply_mask wraps each result in asctile.mask)."""
        contexts = [item.context_expr for item in node.items]
        fns = [self.visit(c.func) if isinstance(c, ast.Call) else None for c in contexts]
        if not any(fn is core.mask for fn in fns):
            fail(UnsupportedError, _UNSUPPORTED["With"])
        if len(node.items) != 1:
            fail(UnsupportedError, "'with asc2.mask(...)' takes exactly one mask (no other context managers)")
        if node.items[0].optional_vars is not None:
            fail(UnsupportedError, "'with asc2.mask(...) as name' is not supported: the mask has no value")
        if self.mask is not None:
            fail(UnsupportedError, "nested 'with asc2.mask(...)' blocks are not supported")
        args, kwargs = self.call_args(contexts[0])
        args = [a.value if isinstance(a, core.ConstExpr) else a for a in args]
        kwargs = {k: v.value if isinstance(v, core.ConstExpr) else v for k, v in kwargs.items()}
        self.mask = make_mask(self, args, kwargs)
        try:
            self.visit_block(node.body)
        finally:
            self.mask = None

    def visit_Return(self, node):
        value = self.visit(node.value) if node.value is not None else None
        if self.inline_depth == 0 and value is not None:
            fail(UnsupportedError, "a kernel cannot return a value; write results with asc2.copy_out")
        if self.runtime_depth > self.return_depth:
            fail(UnsupportedError, "'return' inside a runtime loop or if is not supported")
        self._last_return = node
        raise _Return(value)

    def visit_Assert(self, node):
        test = self.visit(node.test)
        if isinstance(test, Value):
            fail(UnsupportedError, "assert on a runtime value is not supported (only compile-time conditions)")
        if not test:
            message = self.visit(node.msg) if node.msg is not None else "assertion failed"
            fail(CompilationError, f"assertion failed: {message}")

    def visit_If(self, node):
        cond = self.visit(node.test)
        if not isinstance(cond, Value):
            self.visit_block(node.body if cond else node.orelse)
            return
        cond = to_condition(self, cond)
        before = dict(self.scope)
        branches = []
        for body in (node.body, node.orelse):
            self.scope = dict(before)
            with self.runtime_region() as region:
                self.visit_block(body)
            branches.append((region, self.scope))
        self.scope = before
        changed = [n for n in before if any(not _same(before[n], s.get(n, before[n])) for _, s in branches)]
        # Names first bound in both branches are visible after the if, as in Python.
        then_scope, else_scope = branches[0][1], branches[1][1]
        changed += [n for n in then_scope if n not in before and n in else_scope
                    and not _same(then_scope[n], else_scope[n])]
        results = []
        for n in changed:
            values = [s.get(n, before.get(n)) for _, s in branches]
            like = next((v for v in values if isinstance(v, (Tile, Scalar))), None)
            if like is None:
                if not all(is_number(v) for v in values):
                    fail(errors.CompilationTypeError,
                         f"'{n}' gets different compile-time values in the branches of a runtime if")
                like = as_scalar(self, values[0])
            results.append((n, like))
        for region, scope in branches:
            if results:
                with self.b.nested(region):
                    yields = [coerce_like(self, scope.get(n, before.get(n)), like, n) for n, like in results]
                    self.b.emit(f"scf.yield {', '.join(v.ssa for v in yields)} : "
                                f"{', '.join(v.type for v in yields)}")
        names = self._result_names(len(results))
        head = f"{names[0]} = " if results else ""
        types = f" -> ({', '.join(like.type for _, like in results)})" if results else ""
        self.b.raw(f"{head}scf.if {cond.ssa}{types} {{")
        self.b.splice(branches[0][0])
        if node.orelse or results:
            self.b.raw("} else {")
            self.b.splice(branches[1][0])
        self.b.raw(f"}} {self.b.loc()}")
        self.b.op_count += 1
        for n in then_scope:
            if n not in before and n in else_scope and _same(then_scope[n], else_scope[n]):
                self.scope[n] = then_scope[n]
        for (n, like), ssa in zip(results, names[1]):
            self.scope[n] = rebind(like, ssa)

    def visit_For(self, node):
        if node.orelse:
            fail(UnsupportedError, "'for ... else' is not supported in asc2 kernels")
        it = node.iter
        if isinstance(it, ast.Call):
            fn = self.visit(it.func)
            if fn is core.static_range or fn is core.range or fn is builtins.range:
                args, kwargs = self.call_args(it)
                if fn is core.static_range:
                    values = self.static_range_values(args, kwargs)
                else:
                    return self.runtime_loop(node, args, kwargs)
            else:
                values = self.visit(it)
        else:
            values = self.visit(it)
        if isinstance(values, Value) or not isinstance(values, (list, tuple, builtins.range)):
            fail(UnsupportedError, f"cannot iterate over {describe(values)}; use range, asc2.range or "
                                   "asc2.static_range")
        for v in values:
            self.assign(node.target, v)
            self.visit_block(node.body)

    def static_range_values(self, args, kwargs):
        if kwargs:
            fail(errors.CompilationTypeError, f"asc2.static_range() got unexpected keyword(s): {', '.join(kwargs)}")
        if not 1 <= len(args) <= 3:
            fail(errors.CompilationValueError, f"asc2.static_range expected 1 to 3 arguments, got {len(args)}")
        if any(isinstance(a, Value) or not isinstance(a, int) for a in args if a is not None):
            fail(errors.CompilationTypeError, "asc2.static_range bounds must be compile-time integers")
        values = builtins.range(*[a for a in args if a is not None])
        if len(values) > MAX_STATIC_TRIPS:
            fail(errors.CompilationValueError, f"asc2.static_range of {len(values)} trips unrolls the loop body "
                                               f"{len(values)} times (at most {MAX_STATIC_TRIPS}); use asc2.range "
                                               "for a loop that runs on the core")
        return values

    def runtime_loop(self, node, args, kwargs):
        if not isinstance(node.target, ast.Name):
            fail(UnsupportedError, "the loop variable of a runtime loop must be a single name")
        start, stop, step, unroll, parallel = self.range_arguments(args, kwargs)
        if isinstance(step, int) and step == 0:
            fail(errors.CompilationValueError, "the loop step must not be zero")
        var = node.target.id
        # scf.for counts up by a positive step. A negative or run-time step counts the trips as Python's range
        # does and maps trip j to start + j * step inside the body.
        positional = (isinstance(step, int) and step > 0) or isinstance(step, PositiveIndex)
        if positional:
            lb, ub, st = (as_index(self, v, "loop bound").ssa for v in (start, stop, step))
        else:
            first, step_value = as_index(self, start, "loop bound"), as_index(self, step, "loop step")
            lb, st = self.b.constant(0, INDEX), self.b.constant(1, INDEX)
            ub = self._trip_count(first, as_index(self, stop, "loop bound"), step_value, step)

        # Dry run: which existing names does the body rebind, and to what?
        before = dict(self.scope)
        with self.b.discarding():
            self.runtime_depth += 1
            try:
                self.scope[var] = Scalar("%iv", INDEX)
                self.visit_block(node.body)
                after = self.scope
            finally:
                self.runtime_depth -= 1
                self.scope = dict(before)
        carried = []
        for n in before:
            if n == var or n not in after or _same(before[n], after[n]):
                continue
            pre, post = before[n], after[n]
            if isinstance(post, (Tile, Scalar)):
                init = coerce_like(self, pre, post, n)
            elif isinstance(pre, (Tile, Scalar)) or is_number(pre):
                init = as_scalar(self, pre) if is_number(pre) else pre
            else:
                fail(errors.CompilationTypeError,
                     f"'{n}' ({describe(pre)}) cannot be reassigned inside a runtime loop")
            carried.append((n, init))

        iv = self.b.fresh(var if var.isascii() else None)
        block_args = [rebind(init, self.b.fresh()) for _, init in carried]
        names = self._result_names(len(carried))
        with self.runtime_region() as region:
            self.scope[var] = Scalar(iv, INDEX)
            if not positional:
                scaled = self.b.op(f"arith.muli {iv}, {step_value.ssa} : {INDEX}")
                self.scope[var] = Scalar(self.b.op(f"arith.addi {first.ssa}, {scaled} : {INDEX}"), INDEX)
            for (n, _), arg in zip(carried, block_args):
                self.scope[n] = arg
            self.visit_block(node.body)
            if carried:
                yields = [coerce_like(self, self.scope[n], arg, n) for (n, _), arg in zip(carried, block_args)]
                self.b.emit(f"scf.yield {', '.join(v.ssa for v in yields)} : {', '.join(v.type for v in yields)}")
        self.scope = before
        head = f"{names[0]} = " if carried else ""
        iter_args = ""
        if carried:
            pairs = ", ".join(f"{a.ssa} = {init.ssa}" for a, (_, init) in zip(block_args, carried))
            iter_args = f" iter_args({pairs}) -> ({', '.join(a.type for a in block_args)})"
        self.b.raw(f"{head}scf.for {iv} = {lb} to {ub} step {st}{iter_args} {{")
        self.b.splice(region)
        attrs = f"{{asctile.unroll_factor = {unroll} : i64, asctile.parallel = {'true' if parallel else 'false'}}}"
        self.b.raw(f"}} {attrs} {self.b.loc()}")
        self.b.op_count += 1
        for (n, _), arg, ssa in zip(carried, block_args, names[1]):
            self.scope[n] = rebind(arg, ssa)

    def _trip_count(self, start, stop, step, known_step):
        """len(range(start, stop, step)) = max(0, (stop - start + step - sign(step)) / step): the quotient
        truncates, which floors whenever it is positive. A run-time step of 0 divides by zero at run time."""
        span = self.b.op(f"arith.subi {stop.ssa}, {start.ssa} : {INDEX}")
        if isinstance(known_step, int):
            sign = self.b.constant(1 if known_step > 0 else -1, INDEX)
        else:
            negative = self.b.op(f"arith.cmpi slt, {step.ssa}, {self.b.constant(0, INDEX)} : {INDEX}")
            sign = self.b.op(f"arith.select {negative}, {self.b.constant(-1, INDEX)}, "
                             f"{self.b.constant(1, INDEX)} : {INDEX}")
        span = self.b.op(f"arith.addi {span}, {step.ssa} : {INDEX}")
        span = self.b.op(f"arith.subi {span}, {sign} : {INDEX}")
        trips = self.b.op(f"arith.divsi {span}, {step.ssa} : {INDEX}")
        return self.b.op(f"arith.maxsi {trips}, {self.b.constant(0, INDEX)} : {INDEX}")

    def range_arguments(self, args, kwargs):
        kwargs = dict(kwargs)
        unroll = kwargs.pop("unroll_factor", 1)
        parallel = kwargs.pop("parallel", False)
        gm_barrier = kwargs.pop("gm_barrier", None)
        for k in ("start", "stop", "step"):
            if k in kwargs:
                args = list(args) + [kwargs.pop(k)]
        if kwargs:
            fail(errors.CompilationTypeError, f"range() got unexpected keyword(s): {', '.join(kwargs)}")
        args = [a for a in args if a is not None]
        if not 1 <= len(args) <= 3:
            fail(errors.CompilationValueError, f"range expected 1 to 3 arguments, got {len(args)}")
        if len(args) == 1:
            args = [0, args[0], 1]
        elif len(args) == 2:
            args = [args[0], args[1], 1]
        if isinstance(unroll, Value) or not isinstance(unroll, int) or isinstance(unroll, bool):
            fail(errors.CompilationTypeError, f"unroll_factor must be a compile-time integer, got "
                                              f"{describe(unroll)}")
        if unroll < 1:
            fail(errors.CompilationValueError, f"unroll_factor must be 1 or greater, got {unroll}")
        if gm_barrier is not None:
            if not isinstance(gm_barrier, bool):
                fail(errors.CompilationTypeError, f"gm_barrier must be True or False, got "
                                                  f"{describe(gm_barrier)}")
            parallel = not gm_barrier
        if not isinstance(parallel, bool):
            fail(errors.CompilationTypeError, f"parallel must be True or False, got {describe(parallel)}")
        if unroll > MAX_UNROLL_FACTOR:
            fail(errors.CompilationValueError, f"unroll_factor={unroll} is more copies of the loop body than asc2 "
                                               f"makes (at most {MAX_UNROLL_FACTOR}); a larger factor only grows the "
                                               "kernel: the loop already pipelines its trips")
        return args[0], args[1], args[2], unroll, parallel

    def runtime_region(self):
        gen = self

        class _Region:
            def __enter__(self_):
                self_.ctx = gen.b.nested()
                gen.runtime_depth += 1
                return self_.ctx.__enter__()

            def __exit__(self_, *exc):
                gen.runtime_depth -= 1
                return self_.ctx.__exit__(*exc)

        return _Region()

    def _result_names(self, count):
        if count == 0:
            return None, []
        base = self.b.fresh()
        if count == 1:
            return base, [base]
        return f"{base}:{count}", [f"{base}#{i}" for i in builtins.range(count)]

    # -- expressions
    def visit_Constant(self, node):
        return node.value

    def visit_Name(self, node):
        if node.id in self.scope:
            return self.scope[node.id]
        found, value = self.src.lookup_global(node.id)
        if not found:
            raise NameError(f"unknown name '{node.id}'")
        return value

    def visit_Attribute(self, node):
        value = self.visit(node.value)
        if isinstance(value, Value):
            return get_attribute(self, value, node.attr)
        try:
            return getattr(value, node.attr)
        except AttributeError:
            owner = getattr(value, "__name__", type(value).__name__)
            raise AttributeError(f"'{owner}' has no attribute '{node.attr}'") from None

    def visit_Tuple(self, node):
        return tuple(self.expand(node.elts))

    def visit_List(self, node):
        return list(self.expand(node.elts))

    def visit_Dict(self, node):
        return {self.visit(k): self.visit(v) for k, v in zip(node.keys, node.values)}

    def visit_Subscript(self, node):
        value = self.visit(node.value)
        index = self.visit(node.slice)
        if isinstance(value, UnpackableTile) and isinstance(index, int):
            return value.parts[index]
        if isinstance(value, Value):
            fail(UnsupportedError, f"indexing a {describe(value)} is not supported yet")
        if isinstance(index, Value):
            fail(errors.CompilationTypeError, "a compile-time sequence cannot be indexed by a runtime value")
        return value[index]

    def visit_Slice(self, node):
        parts = [self.visit(p) if p is not None else None for p in (node.lower, node.upper, node.step)]
        if any(isinstance(p, Value) for p in parts):
            fail(UnsupportedError, "slices must be compile-time")
        return slice(*parts)

    def visit_JoinedStr(self, node):
        return "".join(str(self.visit(v)) for v in node.values)

    def visit_FormattedValue(self, node):
        value = self.visit(node.value)
        return format(value, self.visit(node.format_spec) if node.format_spec else "")

    def binop(self, op, lhs, rhs):
        name = type(op).__name__
        if name in PY_BINOPS:
            return binary_op(self, PY_BINOPS[name], lhs, rhs)
        if name == "Pow":
            return power(self, lhs, rhs)
        if isinstance(lhs, Value) or isinstance(rhs, Value):
            return emit_builtin(self, "matmul", [lhs, rhs], {})
        return PY_FOLD[name](lhs, rhs)

    def visit_BinOp(self, node):
        return self.binop(node.op, self.visit(node.left), self.visit(node.right))

    def visit_UnaryOp(self, node):
        operand = self.visit(node.operand)
        name = type(node.op).__name__
        if not isinstance(operand, Value):
            return {"USub": lambda v: -v, "UAdd": lambda v: +v, "Not": lambda v: not v,
                    "Invert": lambda v: ~v}[name](operand)
        if name == "USub":
            return unary_op(self, "negative", operand)
        if name == "UAdd":
            return operand
        if name == "Not":
            return logical_not(self, operand)
        return emit_builtin(self, "bitwise_not", [operand], {})

    def visit_Compare(self, node):
        result = None
        left = self.visit(node.left)
        for op, comparator in zip(node.ops, node.comparators):
            right = self.visit(comparator)
            name = type(op).__name__
            if name in CMP_PREDICATES:
                value = compare_op(self, name, left, right)
            elif isinstance(left, Value) or isinstance(right, Value):
                fail(UnsupportedError, f"'{name}' comparisons need compile-time operands")
            else:
                value = {"Is": lambda a, b: a is b, "IsNot": lambda a, b: a is not b,
                         "In": lambda a, b: a in b, "NotIn": lambda a, b: a not in b}[name](left, right)
            result = value if result is None else self.and_values(result, value)
            left = right
        return result

    def and_values(self, a, b):
        if not isinstance(a, Value):
            return b if a else a
        if not isinstance(b, Value):
            return a if b else b
        return logical(self, "and", a, b)

    def visit_BoolOp(self, node):
        is_and = isinstance(node.op, ast.And)
        result = self.visit(node.values[0])
        for expr in node.values[1:]:
            if not isinstance(result, Value):
                # Python short-circuit semantics for compile-time values.
                if bool(result) != is_and:
                    return result
                result = self.visit(expr)
                continue
            result = logical(self, "and" if is_and else "or", result, self.visit(expr))
        return result

    def visit_IfExp(self, node):
        cond = self.visit(node.test)
        if not isinstance(cond, Value):
            return self.visit(node.body if cond else node.orelse)
        return select(self, cond, self.visit(node.body), self.visit(node.orelse))

    def expand(self, exprs):
        out = []
        for e in exprs:
            if isinstance(e, ast.Starred):
                value = self.visit(e.value)
                if isinstance(value, Value):
                    fail(errors.CompilationTypeError, f"cannot unpack {describe(value)}")
                out.extend(value)
            else:
                out.append(self.visit(e))
        return out

    def call_args(self, node):
        args = self.expand(node.args)
        kwargs = {}
        for kw in node.keywords:
            value = self.visit(kw.value)
            if kw.arg is None:
                kwargs.update(value)
            else:
                kwargs[kw.arg] = value
        return args, kwargs

    def visit_Call(self, node):
        fn = self.visit(node.func)
        args, kwargs = self.call_args(node)
        args = [a.value if isinstance(a, core.ConstExpr) else a for a in args]
        if isinstance(fn, BoundMethod):
            return call_method(self, fn, args, kwargs)
        name = getattr(fn, "__asc2_builtin__", None)
        if name in ("range", "static_range"):
            fail(UnsupportedError, f"asc2.{name} can only be used as the iterable of a for loop")
        if name is not None:
            return emit_builtin(self, name, args, kwargs)
        if getattr(fn, "__asc2_jit__", False):
            return self.inline(fn, args, kwargs)
        if isinstance(fn, Value):
            fail(errors.CompilationTypeError, f"{describe(fn)} is not callable")
        runtime = any(isinstance(v, Value) for v in [*args, *kwargs.values()])
        if runtime:
            if inspect.isbuiltin(fn) or fn in (builtins.int, builtins.float, builtins.bool, builtins.len,
                                                 builtins.tuple, builtins.list):
                return python_builtin(self, fn, args, kwargs)
            fail(errors.CompilationTypeError,
                 f"{getattr(fn, '__name__', fn)}() is not an asc2 function and cannot take runtime values; "
                 "only compile-time calls are evaluated in Python")
        return fn(*args, **kwargs)  # constant folding

    def inline(self, jit_fn, args, kwargs):
        """Inline a call to another @asc2.jit function."""
        callee = jit_fn.source
        try:
            bound = inspect.signature(jit_fn.fn).bind(*args, **kwargs)
        except TypeError as e:
            fail(errors.CompilationTypeError, f"{jit_fn.fn.__name__}(): {e}")
        bound.apply_defaults()
        if self.inline_depth >= MAX_INLINE_DEPTH:
            fail(UnsupportedError, f"{jit_fn.fn.__name__}() is inlined {MAX_INLINE_DEPTH} calls deep: asc2 inlines "
                                   "every helper call at compile time, so a recursive helper must stop at a "
                                   "compile-time condition (an asc2.ConstExpr argument that counts down)")
        saved = (self.src, self.scope, self.return_depth)
        self.src = callee
        self.scope = {k: (v.value if isinstance(v, core.ConstExpr) else v) for k, v in bound.arguments.items()}
        self.return_depth = self.runtime_depth
        self.inline_depth += 1
        try:
            self.visit_block(callee.node.body)
            return None
        except _Return as r:
            return r.value
        finally:
            self.inline_depth -= 1
            self.src, self.scope, self.return_depth = saved


def generate(source, params, *, capture_exceptions=True):
    """MLIR text (asctile dialect) for ``source`` specialised by ``params``."""
    return CodeGenerator(source, params, capture_exceptions=capture_exceptions).generate()
