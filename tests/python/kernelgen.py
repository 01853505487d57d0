"""A seeded generator of random asc2 vector kernels, with a numpy reference that knows its own error.

``generate(seed)`` returns a ``RandomKernel``: the kernel as Python source (one ``@asc2.jit``
function over 1-D or 2-D tiles: loads, a random DAG of element-wise ops with tile and scalar
operands, compare + where, f32<->f16 casts, reductions to scalars or broadcast back over rows or
columns, one or two stores), its launch (block count, inputs, runtime scalars, constexprs) and a
float64 reference that carries, per element, a bound on the error a correct float32/float16
implementation may make (rounding per op, a few ulps per transcendental, the reduction order).
Where a comparison or a floor is too close to call within that bound the element is marked
unknown and skipped, so a check never fails on rounding; a wrong buffer, a missing sync or a
mis-planned offset moves values by far more than the bound.

``check(kernel)`` compiles it (from a temporary .py file: the frontend reads the source with
inspect), simulates it with the race detector on, and classifies the outcome: ``ok``,
``compile_error`` (a CompilationError other than UB overflow), ``ub_overflow``, ``crash`` (any
other exception), ``sim_error``, ``race`` or ``mismatch``.  Used by test_random_kernels.py (a
fixed set of seeds) and bench/random_kernels.py (the big sweep).
"""

import importlib.util
import math
import os
import random
import re
import tempfile

import numpy as np

EPS = {"float32": 2.0 ** -24, "float16": 2.0 ** -11}
# Absolute slack per value: what flushing a subnormal to zero may lose.
TINY = {"float32": 2.0 ** -126, "float16": 2.0 ** -14}
NP = {"float32": np.float32, "float16": np.float16}
SAFETY = 4.0  # the bound is a worst-case sum; the check allows this factor on top
UB_BUDGET = 150 * 1024  # bytes the generator lets live tiles take (UB is 192 KB on A2/A3)
MAX_BOUND = {"float32": 1e4, "float16": 2e3}  # keep |values| well inside the dtype's range


class Value:
    """A kernel value: a tile (``kind`` "tile") or a scalar, with a static magnitude bound."""

    def __init__(self, name, kind, dtype, bound):
        self.name, self.kind, self.dtype, self.bound = name, kind, dtype, bound


class Node:
    """One statement ``name = expr`` and how to evaluate it: ``fn(env) -> (value, error bound)``."""

    def __init__(self, value, expr, fn):
        self.value, self.expr, self.fn = value, expr, fn


def _clean(err):
    """Error arrays: NaN (inf * 0) means unknown, like inf."""
    return np.where(np.isnan(err), np.inf, err)


def _round_to(dtype, x):
    return float(NP[dtype](x))


class RandomKernel:
    """A generated kernel: source, launch and reference."""

    def __init__(self, seed):
        self.seed = seed
        self.name = f"rk{seed}"

    def describe(self):
        c = self.config
        return (f"seed {self.seed}: rank {c['rank']}, tile {c['tile_shape']}, {c['cores']} cores, "
                f"{c['loop']} loop, unroll_factor {c['unroll']}, num_stages {c['num_stages']}, "
                f"reuse_alloc {c['reuse_alloc']}, {len(self.nodes)} statements")


class Generator:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.k = RandomKernel(seed)
        self.nodes = []
        self.tiles = []
        self.scalars = []
        self.counter = 0

    # -- helpers
    def fresh(self, prefix="v"):
        self.counter += 1
        return f"{prefix}{self.counter}"

    def pick_tile(self, dtype=None, exclude=None):
        pool = [t for t in self.tiles if (dtype is None or t.dtype == dtype) and t is not exclude]
        if not pool:
            return None
        recent = pool[-3:]
        return self.rng.choice(recent) if self.rng.random() < 0.6 else self.rng.choice(pool)

    def literal(self, lo=-3.0, hi=3.0, min_abs=0.05):
        while True:
            v = round(self.rng.uniform(lo, hi), 3)
            if abs(v) >= min_abs:
                return v

    def scalar_operand(self, dtype):
        """(source text, evaluator, bound) of a scalar: a literal, a runtime parameter or a reduction."""
        choices = ["literal"] * 3
        if self.k.params_scalar:
            choices.append("param")
        if any(s.dtype == "float32" for s in self.scalars):
            choices += ["reduced"] * 2
        kind = self.rng.choice(choices)
        if kind == "literal":
            v = self.literal()
            return repr(v), lambda env: (_round_to(dtype, v), EPS[dtype] * abs(v)), abs(v)
        if kind == "param":
            name, value = self.rng.choice(self.k.params_scalar)
            return name, lambda env: (_round_to(dtype, value), EPS[dtype] * abs(value)), abs(value)
        s = self.rng.choice(self.scalars)

        def ev(env, s=s):
            val, err = env[s.name]
            return val, err + EPS[dtype] * np.abs(val)

        return s.name, ev, s.bound

    def add(self, value, expr, fn):
        self.nodes.append(Node(value, expr, fn))
        (self.tiles if value.kind == "tile" else self.scalars).append(value)
        return value

    # -- configuration
    def configure(self):
        r = self.rng
        k = self.k
        rank = r.choice([1, 1, 2])
        cores = r.randint(1, 8)
        unroll = r.choice([1, 1, 2, 3])
        num_stages = r.choice([None, None, 1])
        reuse = r.choice([0, 1, 1])
        loop = r.choice(["strided", "strided", "blocked"])
        n_inputs = r.randint(1, 3)
        n_ops = r.randint(2, 10)
        dtypes = [r.choice(["float32", "float32", "float32", "float16"]) for _ in range(n_inputs)]
        # Every statement may hold a tile (composites like log(abs(x) + 1) hold two), every copy of
        # the loop body (unroll or multi-buffering) holds its own: size the tile to fit the budget.
        copies = max(unroll, 1 if num_stages == 1 else 2)
        # Without reuse every intermediate of an expansion (sin/cos: ~30 tiles) keeps its own bytes.
        max_bytes = UB_BUDGET // ((n_inputs + 2 * n_ops + 2) * copies * (4 if reuse == 0 else 1))
        if rank == 1:
            elems = 16 * r.choice([1, 2, 3, 4, 5, 8, 12, 16, 24, 32, 48, 64, 96, 128])
            while elems * 4 > max_bytes and elems > 16:
                elems -= 16
            tile_shape = [elems]
        else:
            cols = 16 * r.choice([1, 2, 3, 4, 6, 8, 12, 16, 32])
            rows = r.randint(1, 8)
            while rows * cols * 4 > max_bytes and rows > 1:
                rows -= 1
            while rows * cols * 4 > max_bytes and cols > 16:
                cols -= 16
            tile_shape = [rows, cols]
        tiles_per_core = r.choice([1, 2, 3, 4, 5, 6])
        total_tiles = max(1, cores * tiles_per_core - r.randint(0, cores))
        tile_len = tile_shape[0]
        if r.random() < 0.2:
            extent = total_tiles * tile_len  # a multiple of the tile
        else:
            extent = (total_tiles - 1) * tile_len + r.randint(1, tile_len)
        k.config = dict(rank=rank, cores=cores, unroll=unroll, num_stages=num_stages, reuse_alloc=reuse, loop=loop,
                        tile_shape=tile_shape, extent=extent, input_dtypes=dtypes, n_ops=n_ops)
        k.params_scalar = [(f"s{i}", round(r.uniform(-2.0, 2.0), 4)) for i in range(r.randint(0, 2))]
        k.input_scales = [round(r.uniform(0.3, 3.0), 2) for _ in range(n_inputs)]

    # -- statements
    def gen_load(self, i):
        dtype = self.k.config["input_dtypes"][i]
        name = self.fresh()
        bound = 5.0 * self.k.input_scales[i]
        return self.add(Value(name, "tile", dtype, bound), f"asc2.copy_in(in{i}_gm, OFFS, SHAPE)",
                        lambda env, i=i: (env[f"in{i}"], np.zeros_like(env[f"in{i}"])))

    def gen_binary(self):
        r = self.rng
        a = self.pick_tile()
        op = r.choice(["+", "-", "*", "maximum", "minimum"])
        form = r.choice(["tt", "tt", "ts", "st"])
        if form == "tt":
            b = self.pick_tile(dtype=a.dtype if r.random() < 0.8 else None)
            dtype = "float32" if "float32" in (a.dtype, b.dtype) else a.dtype
            if op == "*" and a.bound * b.bound > MAX_BOUND[dtype]:
                op = "+"
            bound = a.bound * b.bound if op == "*" else a.bound + b.bound
            fa = lambda env, a=a: env[a.name]
            fb = lambda env, b=b: env[b.name]
            ta, tb = a.name, b.name
        else:
            dtype = a.dtype
            text, fs, sb = self.scalar_operand(dtype)
            if op == "*" and a.bound * sb > MAX_BOUND[dtype]:
                op = "+"
            bound = a.bound * sb if op == "*" else a.bound + sb
            fa = lambda env, a=a: env[a.name]
            if form == "ts":
                ta, tb, fb = a.name, text, fs
            else:
                ta, tb, fa, fb = text, a.name, fs, fa
        if bound > MAX_BOUND[dtype]:
            return None
        if op in ("maximum", "minimum"):
            expr = f"asc2.{op}({ta}, {tb})"
        else:
            expr = f"{ta} {op} {tb}"
        eps = EPS[dtype]

        def ev(env):
            (x, ex), (y, ey) = fa(env), fb(env)
            if op == "+":
                v, e = x + y, ex + ey
            elif op == "-":
                v, e = x - y, ex + ey
            elif op == "*":
                v, e = x * y, np.abs(x) * ey + np.abs(y) * ex + ex * ey
            elif op == "maximum":
                return np.maximum(x, y), np.maximum(ex, ey) + 0 * x
            else:
                return np.minimum(x, y), np.maximum(ex, ey) + 0 * x
            return v, _clean(e + eps * np.abs(v) + TINY[dtype])

        return self.add(Value(self.fresh(), "tile", dtype, bound), expr, ev)

    def gen_div(self):
        r = self.rng
        a = self.pick_tile()
        dtype = a.dtype
        eps = EPS[dtype]
        if r.random() < 0.3:
            d = self.literal(min_abs=0.5)
            expr = f"{a.name} / {d}"

            def ev(env):
                x, ex = env[a.name]
                dv = _round_to(dtype, d)
                v = x / dv
                return v, _clean(ex / abs(dv) + 3 * eps * np.abs(v) + TINY[dtype])

            return self.add(Value(self.fresh(), "tile", dtype, a.bound / 0.5), expr, ev)
        b = self.pick_tile(dtype=dtype)
        scalar_first = r.random() < 0.25
        if scalar_first:
            c = self.literal()
            expr = f"{c} / (asc2.abs({b.name}) + 1.0)"
            bound = abs(c)
        else:
            expr = f"{a.name} / (asc2.abs({b.name}) + 1.0)"
            bound = a.bound

        def ev(env):
            y, ey = env[b.name]
            dv = np.abs(y) + 1.0
            ed = ey + eps * dv
            if scalar_first:
                x, ex = _round_to(dtype, c), eps * abs(c)
            else:
                x, ex = env[a.name]
            v = x / dv
            e = (ex + np.abs(v) * ed) / np.maximum(dv - ed, 1e-30) + 3 * eps * np.abs(v)
            return v, _clean(e + TINY[dtype])

        return self.add(Value(self.fresh(), "tile", dtype, bound), expr, ev)

    def gen_unary(self):
        r = self.rng
        a = self.pick_tile()
        dtype, eps = a.dtype, EPS[a.dtype]
        u = 4 * eps
        ops = ["abs", "neg", "relu", "tanh", "erf", "log1", "sqrt1", "rsqrt1"]
        if a.bound <= 6:
            ops.append("exp")
        if a.bound <= 100:
            ops += ["sin", "cos"]
        if a.bound <= 1e4:
            ops += ["floor", "ceil"]
        op = r.choice(ops)
        x_ = a.name
        expr = {"abs": f"asc2.abs({x_})", "neg": f"-{x_}", "relu": f"asc2.relu({x_})",
                "tanh": f"asc2.tanh({x_})", "erf": f"asc2.erf({x_})", "exp": f"asc2.exp({x_})",
                "log1": f"asc2.log(asc2.abs({x_}) + 1.0)", "sqrt1": f"asc2.sqrt(asc2.abs({x_}) + 1.0)",
                "rsqrt1": f"asc2.rsqrt(asc2.abs({x_}) + 1.0)", "sin": f"asc2.sin({x_})",
                "cos": f"asc2.cos({x_})", "floor": f"asc2.floor({x_})", "ceil": f"asc2.ceil({x_})"}[op]
        bound = {"abs": a.bound, "neg": a.bound, "relu": a.bound, "tanh": 1.0, "erf": 1.0,
                 "exp": math.exp(min(a.bound, 50.0)), "log1": math.log(a.bound + 1) + 1, "sqrt1": math.sqrt(a.bound + 1),
                 "rsqrt1": 1.0, "sin": 1.0, "cos": 1.0, "floor": a.bound + 1, "ceil": a.bound + 1}[op]

        def ev(env):
            x, ex = env[a.name]
            if op == "abs":
                return np.abs(x), ex
            if op == "neg":
                return -x, ex
            if op == "relu":
                return np.maximum(x, 0.0), ex
            if op == "tanh":
                return np.tanh(x), _clean(ex + 16 * eps + TINY[dtype])
            if op == "erf":
                from math import erf
                v = np.vectorize(erf)(x) if x.size else x
                return v, _clean(1.13 * ex + 2e-7 + 16 * eps + TINY[dtype])
            if op == "exp":
                v = np.exp(x)
                return v, _clean(v * np.expm1(ex) + u * v + TINY[dtype])
            if op in ("log1", "sqrt1", "rsqrt1"):
                d = np.abs(x) + 1.0
                ed = ex + eps * d
                lo = np.maximum(d - ed, 1e-30)
                if op == "log1":
                    v = np.log(d)
                    return v, _clean(ed / lo + u * np.maximum(np.abs(v), 1.0))
                if op == "sqrt1":
                    v = np.sqrt(d)
                    return v, _clean(ed / (2 * np.sqrt(lo)) + u * v)
                v = 1.0 / np.sqrt(d)
                return v, _clean(ed * 0.5 * lo ** -1.5 + u * v)
            if op in ("sin", "cos"):
                v = np.sin(x) if op == "sin" else np.cos(x)
                return v, _clean(ex + eps * (16 + 8 * np.abs(x)) + TINY[dtype])
            v = np.floor(x) if op == "floor" else np.ceil(x)
            near = np.abs(x - np.round(x)) <= SAFETY * (ex + eps * np.abs(x)) + TINY[dtype]
            return v, np.where(near | ~np.isfinite(ex), np.inf, 0.0)

        return self.add(Value(self.fresh(), "tile", dtype, bound), expr, ev)

    def gen_where(self):
        r = self.rng
        a = self.pick_tile()
        dtype = a.dtype
        cmp = r.choice([">", "<", ">=", "<="])
        if r.random() < 0.5:
            b = self.pick_tile(dtype=dtype, exclude=a)
        else:
            b = None
        if b is None:
            text, fb, _ = self.scalar_operand(dtype)
        else:
            text, fb = b.name, (lambda env, b=b: env[b.name])
        x = self.pick_tile(dtype=dtype)
        branches = []
        for _ in range(2):
            if r.random() < 0.35:
                t, f, bd = self.scalar_operand(dtype)
            else:
                y = self.pick_tile(dtype=dtype)
                t, f, bd = y.name, (lambda env, y=y: env[y.name]), y.bound
            branches.append((t, f, bd))
        if r.random() < 0.5:
            branches[0] = (x.name, (lambda env: env[x.name]), x.bound)
        if all(t[0] not in {v.name for v in self.tiles} for t in branches):
            branches[1] = (x.name, (lambda env: env[x.name]), x.bound)
        (tt, ft, bt), (tf, ff, bf) = branches
        expr = f"asc2.where({a.name} {cmp} {text}, {tt}, {tf})"
        npcmp = {">": np.greater, "<": np.less, ">=": np.greater_equal, "<=": np.less_equal}[cmp]

        def ev(env):
            (va, ea), (vb, eb) = env[a.name], fb(env)
            (vt, et), (vf, ef) = ft(env), ff(env)
            mask = npcmp(va, vb)
            close = np.abs(va - vb) <= SAFETY * (ea + eb) + TINY[dtype]
            v = np.where(mask, vt, vf)
            e = np.where(mask, et, ef)
            return v, np.where(close | ~np.isfinite(ea + eb), np.inf, e)

        return self.add(Value(self.fresh(), "tile", dtype, max(bt, bf)), expr, ev)

    def gen_cast(self):
        a = self.pick_tile()
        if a.dtype == "float32":
            if a.bound > MAX_BOUND["float16"]:
                return None
            expr = f"asc2.cast({a.name}, asc2.float16)" if self.rng.random() < 0.5 else f"{a.name}.to(asc2.float16)"

            def ev(env):
                x, ex = env[a.name]
                return x, _clean(ex + EPS["float16"] * np.abs(x) + TINY["float16"])

            return self.add(Value(self.fresh(), "tile", "float16", a.bound), expr, ev)
        expr = f"asc2.cast({a.name}, asc2.float32)" if self.rng.random() < 0.5 else f"{a.name}.to(asc2.float32)"
        return self.add(Value(self.fresh(), "tile", "float32", a.bound), expr, lambda env: env[a.name])

    def gen_reduce(self):
        r = self.rng
        a = self.pick_tile(dtype="float32")
        if a is None:
            return None
        shape = self.k.config["tile_shape"]
        kind = r.choice(["sum", "max", "min"])
        if len(shape) == 1 or r.random() < 0.3:
            n = int(np.prod(shape))
            axes = tuple(range(-len(shape), 0))
            if kind == "sum":
                expr = f"{a.name}.sum() / {n}"
            else:
                expr = f"{a.name}.{kind}()"
            return self.add(Value(self.fresh("s"), "scalar", "float32", a.bound),
                            expr, self._reduce_eval(a, kind, axes, n))
        axis = r.choice([0, 1])
        n = shape[axis]
        red = f"{a.name}.{kind}(axis={axis}, keep_dims=True)"
        expr = f"asc2.broadcast_to({red}, SHAPE)"
        if kind == "sum":
            expr += f" / {n}"
        reduce = self._reduce_eval(a, kind, (axis - 2,), n)

        def ev(env):  # broadcast_to materialises the full tile: later reductions see every copy
            v, e = reduce(env)
            full = env[a.name][0].shape
            return np.broadcast_to(v, full).copy(), np.broadcast_to(e, full).copy()

        return self.add(Value(self.fresh(), "tile", "float32", a.bound), expr, ev)

    def _reduce_eval(self, a, kind, axes, n):
        eps = EPS["float32"]

        def ev(env):
            x, ex = env[a.name]
            if kind == "sum":
                v = x.sum(axis=axes, keepdims=True) / n
                e = (ex.sum(axis=axes, keepdims=True) + n * eps * np.abs(x).sum(axis=axes, keepdims=True)) / n
                return v, _clean(e + eps * np.abs(v))
            v = (x.max if kind == "max" else x.min)(axis=axes, keepdims=True)
            return v, ex.max(axis=axes, keepdims=True)

        return ev

    # -- the whole kernel
    def build(self):
        self.configure()
        k = self.k
        c = k.config
        for i in range(len(c["input_dtypes"])):
            self.gen_load(i)
        weights = [("binary", 5), ("unary", 4), ("div", 1), ("where", 2), ("cast", 1), ("reduce", 2)]
        made = 0
        attempts = 0
        while made < c["n_ops"] and attempts < 100:
            attempts += 1
            kind = self.rng.choices([w[0] for w in weights], [w[1] for w in weights])[0]
            if getattr(self, "gen_" + kind)() is not None:
                made += 1
        # A reduced scalar nobody used yet still feeds the result.
        for s in self.scalars:
            if not any(re.search(rf"\b{s.name}\b", n.expr) for n in self.nodes):
                last = self.tiles[-1]
                self.add(Value(self.fresh(), "tile", last.dtype, last.bound + s.bound), f"{last.name} + {s.name}",
                         lambda env, last=last, s=s: (env[last.name][0] + env[s.name][0],
                                                      env[last.name][1] + env[s.name][1]
                                                      + EPS[last.dtype] * (np.abs(env[last.name][0])
                                                                           + 2 * np.abs(env[s.name][0]))))
        outs = [self.tiles[-1]]
        if len(self.tiles) > 2 and self.rng.random() < 0.4:
            outs.append(self.rng.choice(self.tiles[:-1]))
        k.outputs = outs
        k.nodes = self.nodes
        k.source = emit(k)
        return k


def emit(k):
    """The kernel's Python source from its configuration, statements and outputs."""
    c = k.config
    rank = c["rank"]
    inputs = [f"in{i}_ptr: asc2.GlobalAddress" for i in range(len(c["input_dtypes"]))]
    outputs = [f"out{j}_ptr: asc2.GlobalAddress" for j in range(len(k.outputs))]
    extent = "size" if rank == 1 else "rows"
    params = inputs + outputs + [f"{extent}: int"]
    if c["loop"] == "blocked":
        params.append("tiles_per_block: int")
    params += [f"{name}: float" for name, _ in k.params_scalar]
    if rank == 1:
        params.append("TILE: asc2.ConstExpr[int]")
        gm_shape, offs, shape, tile_len = "[size]", "[t * TILE]", "[TILE]", "TILE"
    else:
        params += ["R: asc2.ConstExpr[int]", "COLS: asc2.ConstExpr[int]"]
        gm_shape, offs, shape, tile_len = "[rows, COLS]", "[t * R, 0]", "[R, COLS]", "R"
    opts = []
    if c["num_stages"] is not None:
        opts.append(f"num_stages={c['num_stages']}")
    if c["reuse_alloc"] != 1:
        opts.append(f"reuse_alloc={c['reuse_alloc']}")
    opts += [f"{name}={value!r}" for name, value in c.get("extra_options", {}).items()]
    deco = f"@asc2.jit({', '.join(opts)})" if opts else "@asc2.jit"
    lines = [f'"""Random kernel, {k.describe()}."""', "", "import asc2", "", "", deco,
             f"def {k.name}({', '.join(params)}):"]
    for i in range(len(c["input_dtypes"])):
        lines.append(f"    in{i}_gm = asc2.global_tensor(in{i}_ptr, {gm_shape})")
    for j in range(len(k.outputs)):
        lines.append(f"    out{j}_gm = asc2.global_tensor(out{j}_ptr, {gm_shape})")
    unroll = f", unroll_factor={c['unroll']}" if c["unroll"] > 1 else ""
    body = "        "
    if c["loop"] == "strided":
        lines.append(f"    for t in asc2.range(asc2.block_idx(), asc2.ceildiv({extent}, {tile_len}), "
                     f"asc2.block_num(){unroll}):")
    else:
        lines.append("    base = asc2.block_idx() * tiles_per_block")
        lines.append(f"    for i in asc2.range(tiles_per_block{unroll}):")
        lines.append(body + "t = base + i")
    for n in k.nodes:
        lines.append(body + f"{n.value.name} = " + n.expr.replace("OFFS", offs).replace("SHAPE", shape))
    for j, o in enumerate(k.outputs):
        lines.append(body + f"asc2.copy_out({o.name}, out{j}_gm, {offs})")
    return "\n".join(lines) + "\n"


def generate(seed):
    """The random kernel of ``seed`` (deterministic)."""
    return Generator(seed).build()


# ---------------------------------------------------------------------------
# Inputs, reference, check


def launch_plan(k):
    """(block_num, args, constexprs, tile count) of the kernel's launch, inputs seeded by its seed."""
    c = k.config
    rng = np.random.default_rng(k.seed)
    shape = c["tile_shape"]
    tile_len = shape[0]
    extent = c["extent"]
    ntiles = -(-extent // tile_len)
    gm_shape = (extent,) if c["rank"] == 1 else (extent, shape[1])
    ins = [(rng.standard_normal(gm_shape) * s).astype(NP[dt]) for dt, s in zip(c["input_dtypes"], k.input_scales)]
    outs = [np.zeros(gm_shape, NP[o.dtype]) for o in k.outputs]
    args = ins + outs + [extent]
    if c["loop"] == "blocked":
        args.append(-(-ntiles // c["cores"]))
    args += [v for _, v in k.params_scalar]
    constexprs = {"TILE": shape[0]} if c["rank"] == 1 else {"R": shape[0], "COLS": shape[1]}
    return c["cores"], args, constexprs, ntiles


def reference(k, args, ntiles):
    """[(expected, error bound)] per output, flattened to the output's shape; inf = unknown."""
    c = k.config
    shape = c["tile_shape"]
    padded = ntiles * shape[0]
    env = {}
    for i in range(len(c["input_dtypes"])):
        x = args[i].astype(np.float64)
        pad = [(0, padded - x.shape[0])] + [(0, 0)] * (x.ndim - 1)
        env[f"in{i}"] = np.pad(x, pad).reshape([ntiles] + shape)
    with np.errstate(all="ignore"):
        for n in k.nodes:
            v, e = n.fn(env)
            env[n.value.name] = (np.asarray(v, np.float64), np.asarray(e, np.float64) + 0 * np.asarray(v))
        out = []
        for o in k.outputs:
            v, e = env[o.name]
            v = np.broadcast_to(v, [ntiles] + shape).reshape([padded] + shape[1:])[:c["extent"]]
            e = np.broadcast_to(e, [ntiles] + shape).reshape([padded] + shape[1:])[:c["extent"]]
            out.append((v, e + EPS[o.dtype] * np.abs(v) + TINY[o.dtype]))
    return out


def write_module(k, directory):
    path = os.path.join(directory, f"{k.name}.py")
    with open(path, "w") as f:
        f.write(k.source)
    spec = importlib.util.spec_from_file_location(f"asc2_random_{k.name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, k.name)


def runtime_args(kernel, args, constexprs):
    """The native launch arguments, converted as JITFunction.run converts a call's."""
    spec = kernel.specialise(args, constexprs)
    out = []
    for param, value in zip([p for p in spec.params if p.is_runtime], spec.runtime_args):
        if param.kind == "pointer":
            out.append(value)
        elif param.type == "f32":
            out.append(float(value))
        else:
            out.append(int(value))
    return out


def compare(k, outs, refs):
    """'' when every known element is within its bound, else a description of the worst miss."""
    worst = ""
    for j, (got, (want, err)) in enumerate(zip(outs, refs)):
        got = got.astype(np.float64)
        known = np.isfinite(err)
        with np.errstate(invalid="ignore"):
            bad = known & ~(np.abs(got - want) <= SAFETY * err)
        if bad.any():
            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            worst = (f"out{j}: {int(bad.sum())} of {int(known.sum())} checked elements off, first at {list(idx)}: "
                     f"got {got[idx]!r}, expected {want[idx]!r} +- {SAFETY * err[idx]:.3g}")
            break
    return worst


def _uses(k, name):
    return any(re.search(rf"\b{name}\b", n.expr) for n in k.nodes) or any(o.name == name for o in k.outputs)


def _signature(result):
    """What a reduced kernel must keep failing with: the status and the error's first words."""
    return result["status"], re.sub(r"\d+", "N", result["detail"])[:40] if result["status"] != "mismatch" else ""


def minimize(k, directory=None, max_steps=200):
    """A smaller kernel failing the same way as ``k``: fewer outputs, statements, cores, unrolling."""
    import copy

    target = _signature(check(k, directory))
    if target[0] == "ok":
        return k
    steps = 0

    def fails_same(candidate):
        nonlocal steps
        steps += 1
        candidate.source = emit(candidate)
        return _signature(check(candidate, directory)) == target

    changed = True
    while changed and steps < max_steps:
        changed = False
        candidates = []
        # One output, then an earlier value as the output (everything after it dies).
        for o in k.outputs:
            for n in [n for n in k.nodes if n.value.kind == "tile"]:
                if [o] != k.outputs or n.value is not o:
                    c = copy.copy(k)
                    c.outputs = [n.value] if len(k.outputs) == 1 or n.value is o else [o]
                    candidates.append(c)
        for key, values in (("cores", [1, 2]), ("unroll", [1]), ("num_stages", [None, 1]), ("reuse_alloc", [1]),
                            ("loop", ["strided"])):
            for v in values:
                if k.config[key] != v:
                    c = copy.copy(k)
                    c.config = dict(k.config, **{key: v})
                    candidates.append(c)
        tile_len = k.config["tile_shape"][0]
        for extent in (tile_len * k.config["cores"] * 2, tile_len * 2, tile_len):
            if extent < k.config["extent"]:
                c = copy.copy(k)
                c.config = dict(k.config, extent=extent)
                candidates.append(c)
        for c in candidates:
            nodes = list(c.nodes)
            while True:  # drop dead statements
                live = [n for n in nodes if _uses(type("K", (), {"nodes": nodes, "outputs": c.outputs}), n.value.name)]
                if len(live) == len(nodes):
                    break
                nodes = live
            c.nodes = nodes
            if (len(c.nodes), len(c.outputs), tuple(sorted(map(str, c.config.items())))) == \
                    (len(k.nodes), len(k.outputs), tuple(sorted(map(str, k.config.items())))):
                continue
            if fails_same(c):
                k, changed = c, True
                break
            if steps >= max_steps:
                break
    k.source = emit(k)
    return k


def compile_or_status(kernel, args, constexprs, result):
    """(compiled kernel, None), or (None, `result` with the failure's status and message)."""
    import asc2
    try:
        return kernel.compile(*args, **constexprs), None
    except asc2.MemoryError as e:
        return None, dict(result, status="ub_overflow", detail=str(e))
    except asc2.CompilationError as e:
        return None, dict(result, status="compile_error", detail=str(e))
    except Exception as e:  # noqa: BLE001 - a compiler bug of any kind
        return None, dict(result, status="crash", detail=f"{type(e).__name__}: {e}")


def launch_or_status(native, block_num, launch, result):
    """(launch result, None) for a clean, race-free run, or (None, `result` with status sim_error or
    race); sets result["cycles"]."""
    import asc2
    try:
        res = dict(native.launch(block_num, launch))
    except asc2._C.SimulationError as e:
        return None, dict(result, status="sim_error", detail=str(e))
    result["cycles"] = res.get("cycles", 0)
    if res["races"]:
        return None, dict(result, status="race", detail="\n".join(res["races"][:3]))
    if not res["ok"]:
        return None, dict(result, status="sim_error", detail=res["error"])
    return res, None


def check(k, directory=None, mutate=False, twin=False):
    """Compile, run and check one random kernel: {"status", "detail", "cycles", "checked", ...}.

    With `twin`, the kernel's emitted Ascend C also runs on the CPU twin (asc2.runtime.twin), from the
    same inputs: its outputs must match the reference and the simulator's (status "twin_error" or
    "twin_mismatch" otherwise), so each kernel runs three ways."""
    import asc2

    own_dir = directory is None
    directory = directory or tempfile.mkdtemp(prefix="asc2-random-")
    result = {"seed": k.seed, "status": "ok", "detail": "", "cycles": 0}
    try:
        kernel = write_module(k, directory)
        block_num, args, constexprs, ntiles = launch_plan(k)
        compiled, failed = compile_or_status(kernel, args, constexprs, result)
        if failed:
            return failed
        native = compiled.native
        launch = runtime_args(kernel, args, constexprs)
        pristine = [a.copy() if isinstance(a, np.ndarray) else a for a in launch] if twin else None
        res, failed = launch_or_status(native, block_num, launch, result)
        if failed:
            return failed
        n_in = len(k.config["input_dtypes"])
        refs = reference(k, args, ntiles)
        outs = args[n_in:n_in + len(k.outputs)]
        result["checked"] = sum(int(np.isfinite(e).sum()) for _, e in refs)
        result["elements"] = sum(int(e.size) for _, e in refs)
        miss = compare(k, outs, refs)
        if miss:
            return dict(result, status="mismatch", detail=miss)
        if twin:
            twin_status = _check_on_twin(compiled, block_num, launch, pristine, k, refs, n_in)
            if twin_status:
                return dict(result, status=twin_status[0], detail=twin_status[1])
        if mutate:
            # Every core runs at least two trips of every unrolled copy, so each wait executes.
            import copy
            big = copy.copy(k)
            trips = 2 * max(k.config["unroll"], 2) + 1
            big.config = dict(k.config, extent=max(k.config["extent"], k.config["tile_shape"][0] * k.config["cores"] * trips))
            block_num, args, constexprs, _ = launch_plan(big)
            result["uncaught"] = uncaught_drops(compiled, block_num, runtime_args(kernel, args, constexprs))
            result["waits"] = native.wait_count
        return result
    finally:
        if own_dir:
            import shutil
            shutil.rmtree(directory, ignore_errors=True)


def _check_on_twin(compiled, block_num, simulated, launch, k, refs, n_in):
    """None when the twin's run of `launch` (fresh inputs) matches the simulator's outputs and the
    reference; else (status, detail)."""
    from asc2.runtime import twin

    try:
        twin.twin_kernel(compiled).launch(block_num, launch)
    except twin.TwinError as e:
        return "twin_error", str(e)
    arrays = [(t, s) for t, s in zip(launch, simulated) if isinstance(t, np.ndarray)]
    try:
        twin.compare_outputs(compiled.name, [t for t, _ in arrays], [s for _, s in arrays],
                             twin.is_exact(compiled.ascendc))
    except twin.TwinError as e:
        return "twin_mismatch", str(e)
    miss = compare(k, launch[n_in:n_in + len(k.outputs)], refs)
    return ("twin_mismatch", "twin vs reference: " + miss) if miss else None


LEAK = "flag left set at the end of the kernel"


def _without_wait(ir, k):
    """The final IR text with its k-th wait_flag (program order, as in report['sync']) removed."""
    lines = ir.splitlines()
    waits = [i for i, line in enumerate(lines) if line.lstrip().startswith("ascendc.wait_flag")]
    del lines[waits[k]]
    return "\n".join(lines) + "\n"


def _without_get_buf(ir, k):
    """The final IR text with its k-th get_buf and the rls_buf that ends it (the next one of the same
    pipe and id) removed: the ops between run without the buffer id."""
    lines = ir.splitlines()
    gets = [i for i, line in enumerate(lines) if line.lstrip().startswith("ascendc.get_buf")]
    first = gets[k]
    pipe, buf_id = re.match(r"\s*ascendc\.get_buf (\w+), (\d+)", lines[first]).groups()
    release = re.compile(rf"\s*ascendc\.rls_buf {pipe}, {buf_id}\b")
    last = next(i for i in range(first + 1, len(lines)) if release.match(lines[i]))
    del lines[last]
    del lines[first]
    return "\n".join(lines) + "\n"


def caught_statically(compiled, k, kind="wait_flag"):
    """Whether ascendc-verify-sync rejects the kernel's final IR once wait #k (``kind`` "wait_flag") or
    get_buf #k with its release (``kind`` "get_buf") is gone.

    For waits on the skipped path of an unrolled copy's guard (role ``skip``), which a launch
    only runs on a loop's last, partial trip: without the wait the guard's arms disagree.  For a
    get_buf: its op and an op of another pipe conflict on the buffer and hold no common id."""
    import shutil
    import subprocess

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    tool = next((c for c in (os.environ.get("ASC2_OPT"), os.path.join(root, "build", "bin", "asc2-opt"),
                             shutil.which("asc2-opt")) if c and os.path.exists(c)), None)
    if tool is None:
        return False
    final_ir = compiled.report()["passes"][-1]["ir"]
    ir = _without_wait(final_ir, k) if kind == "wait_flag" else _without_get_buf(final_ir, k)
    proc = subprocess.run([tool, "-", "--ascendc-verify-sync"], input=ir, capture_output=True, text=True,
                          timeout=60)
    return proc.returncode != 0


def uncaught_drops(compiled, block_num, launch):
    """Non-drain wait_flags whose removal neither races nor fails: [(index, sync entry)]."""
    waits = [s for s in compiled.report()["sync"] if s["kind"] == "wait_flag"]
    out = []
    for i, w in enumerate(waits):
        if w["role"] == "drain":
            continue
        res = compiled.native.launch(block_num, launch, drop_wait=i)
        if not res["races"] and (res["ok"] or LEAK in res["error"]):
            if w["role"] == "skip" and caught_statically(compiled, i):
                continue
            out.append((i, w))
    return out


def uncaught_get_buf_drops(compiled, block_num, launch):
    """get_bufs (buffer-id sync) whose removal, with its release, neither races nor fails at run time
    nor fails ascendc-verify-sync: [(index, sync entry)]."""
    gets = [s for s in compiled.report()["sync"] if s["kind"] == "get_buf"]
    out = []
    for i, g in enumerate(gets):
        res = compiled.native.launch(block_num, launch, drop_get_buf=i)
        if not res["races"] and res["ok"] and not caught_statically(compiled, i, kind="get_buf"):
            out.append((i, g))
    return out
