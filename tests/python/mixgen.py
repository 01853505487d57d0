"""A seeded generator of random cube and MIX kernels, checked exactly against numpy.

``generate(seed)`` returns a ``MixKernel``: one ``@asc2.jit`` function over an M x N grid of output
tiles spread over the blocks (several tiles per block), each tile a K loop of matmuls on the cube
core (L0A x L0B, ``matmul_acc`` over K steps, or one ``@`` when there is one step), with random
extras around it:

- a vector prologue: the A tile of every K step goes through the vector core first (ReLU, abs,
  x * 2, x + 1), to a GM workspace, and from there into L0A (vector -> cube);
- a vector epilogue: the accumulator goes to a workspace through the fixpipe, and the vector core
  applies a chain of element-wise ops (cube -> vector); without one the fixpipe stores C directly;
- a second hand-off: the epilogue's result, cast to float16, goes back to the cube core as the A
  operand of a second matmul (cube -> vector -> cube);
- L1 panels: A's rows and B's columns of the tile staged in L1 once, each K step's sub-tiles moved
  to L0A / L0B; partial edge tiles (M, N ending inside the last tile: padded loads, clamped stores);
- float16, bfloat16, float32 or int8 operands (int8 accumulates in int32, its epilogue stays integral), 1-4 blocks, num_stages None or 1, Ascend910B1 or
  Ascend950.

Inputs are small integers and every op keeps values integral (or multiplies by a power of two) and
within the exact range of the types they pass through, so a correct kernel matches the float64
reference bit for bit: any difference is a wrong buffer, a missing flag or a misplaced offset.
``check(k)`` compiles, simulates with the race detector on and classifies the outcome like
kernelgen.check: ok, compile_error, ub_overflow, crash, sim_error, race or mismatch.
"""

import random
import re
import tempfile

import numpy as np

import kernelgen

NP = {"float16": np.float16, "float32": np.float32, "int8": np.int8}  # bfloat16: bit patterns, see _as_dtype
# int8 operands accumulate in int32 (L0C), and the epilogue stays in int32: only the ops that keep
# integers integers without a float scalar
INT_EPILOGUE = ("asc2.relu({x})", "asc2.abs({x})", "{x} + {x}")
# element-wise epilogue ops: (source with {x}, numpy function, growth of |value|)
EPILOGUE = [
    ("asc2.relu({x})", lambda x: np.maximum(x, 0), 1),
    ("asc2.maximum({x}, {x} * 0.25)", lambda x: np.maximum(x, x * 0.25), 1),
    ("{x} * 2.0", lambda x: x * 2, 2),
    ("{x} - 1.0", lambda x: x - 1, 1),
    ("asc2.abs({x})", np.abs, 1),
    ("{x} + {x}", lambda x: x + x, 2),
]
PROLOGUE = [
    ("asc2.relu({x})", lambda x: np.maximum(x, 0), 2),
    ("asc2.abs({x})", np.abs, 2),
    ("{x} * 2.0", lambda x: x * 2, 4),
    ("{x} + 1.0", lambda x: x + 1, 3),
]
EXACT_F16 = 2048  # integers float16 holds exactly (the second matmul's operand is float16)


class MixKernel:
    def __init__(self, seed, name, source, config):
        self.seed, self.name, self.source, self.config = seed, name, source, config

    def describe(self):
        c = self.config
        return (f"seed {self.seed}: {c['platform']} {c['dtype']} M{c['M']} N{c['N']} K{c['K']} "
                f"tile {c['BM']}x{c['BN']}x{c['BK']} on {c['cores']} blocks, prologue {c['prologue']}, "
                f"epilogue {c['epilogue']}, second matmul {c['second']}, num_stages {c['num_stages']}"
                + (", L1 panels" if c.get("stage_l1") else "")
                + (f", {c['kernel_type']}" if c.get("kernel_type") else "")
                + (", parallel tile loop" if c.get("parallel") else ""))


def generate(seed):
    rng = random.Random(seed)
    dtype = rng.choice(["float16", "float16", "bfloat16", "float32", "int8"])
    integer = dtype == "int8"
    bm, bn = rng.choice([16, 32, 64]), rng.choice([16, 32, 64])
    bk = rng.choice([32, 64]) if integer else rng.choice([16, 32, 64])  # an int8 fractal is 16 x 32
    if integer:  # A2/A3 move an int8 B to L0B in 32 x 32 squares (LoadDataWithTranspose)
        bn = rng.choice([32, 64])
    tiles_m, tiles_n, ksteps = rng.randint(1, 3), rng.randint(1, 3), rng.randint(1, 3)
    cores = rng.randint(1, 4)
    prologue = rng.choice(PROLOGUE) if rng.random() < 0.4 and not integer else None
    epilogue_ops = [e for e in EPILOGUE if e[0] in INT_EPILOGUE] if integer else EPILOGUE
    epilogue = [rng.choice(epilogue_ops) for _ in range(rng.randint(1, 3))] if rng.random() < 0.75 else []
    # |a| <= 2 (|prologue(a)| <= its bound), |b| <= 2: |acc| <= K * |a| * 2.
    a_bound = prologue[2] if prologue else 2
    bound = bk * ksteps * a_bound * 2
    for _, _, growth in epilogue:
        bound *= growth
    second = bool(epilogue) and tiles_n == 1 and bound <= EXACT_F16 // 2 and rng.random() < 0.5 and not integer
    config = {
        "platform": rng.choice(["Ascend910B1", "Ascend950"]), "dtype": dtype,
        "BM": bm, "BN": bn, "BK": bk, "M": tiles_m * bm, "N": tiles_n * bn, "K": ksteps * bk,
        "cores": cores, "prologue": prologue[0] if prologue else None,
        "epilogue": [e[0] for e in epilogue], "second": second, "BN2": rng.choice([16, 32]),
        "num_stages": rng.choice([None, 1]), "data_seed": rng.randrange(1 << 30),
    }
    # Drawn last, so the choices above stay what they were for every seed: stage A's row panel and
    # B's column panel in L1 once per output tile and move each K step's sub-tiles to L0A / L0B.
    config["stage_l1"] = not prologue and rng.random() < 0.3
    # Partial edge tiles: the tensors end inside the last row / column of tiles (their loads are
    # padded, their stores clamped); rows by any count, columns by whole 16-column fractals.
    if rng.random() < 0.3:
        config["M"] -= rng.randint(1, bm - 1)
    if rng.random() < 0.3 and tiles_n > 1 and not integer and not second:
        config["N"] -= 16 * rng.randint(1, bn // 16 - 1) if bn > 16 else 0
    # Drawn after everything else (the choices above stay what they were for every seed): one kernel
    # in four keeps its vector work on one vector core per cube core; the rest let the compiler
    # divide it between both (MIX_AIC_1_2) where the rows divide.
    config["kernel_type"] = "MIX_AIC_1_1" if rng.random() < 0.25 else None
    # Half the kernels declare the tile loop parallel=True (each trip uses its own tiles of every
    # workspace and output): no loop-carried GM order between trips, so none of the redundant
    # workspace WARs (REDUNDANT below) either.
    config["parallel"] = rng.random() < 0.5
    name = f"mix_{seed}"
    return MixKernel(seed, name, _source(name, config), config)


def _source(name, c):
    L = "asc2.TensorLocation"
    options = [f"num_stages={c['num_stages']}"] if c["num_stages"] is not None else []
    if c.get("kernel_type"):
        options.append(f"kernel_type={c['kernel_type']!r}")
    deco = f"@asc2.jit({', '.join(options)})" if options else "@asc2.jit"
    lines = [
        "import asc2", "", "",
        deco,
        f"def {name}(a_ptr, b_ptr, w_ptr, ws_a_ptr, ws_c_ptr, ws_d_ptr, c_ptr, c2_ptr,",
        "        M: asc2.ConstExpr[int], N: asc2.ConstExpr[int], K: asc2.ConstExpr[int], BM: asc2.ConstExpr[int],",
        "        BN: asc2.ConstExpr[int], BK: asc2.ConstExpr[int], BN2: asc2.ConstExpr[int]):",
        "    a_gm = asc2.global_tensor(a_ptr, [M, K])",
        "    b_gm = asc2.global_tensor(b_ptr, [K, N])",
        "    w_gm = asc2.global_tensor(w_ptr, [N, BN2])",
        "    ws_a = asc2.global_tensor(ws_a_ptr, [M, asc2.ceildiv(N, BN) * K])  # a slice per output tile",
        "    ws_c = asc2.global_tensor(ws_c_ptr, [M, N])",
        "    ws_d = asc2.global_tensor(ws_d_ptr, [M, N])",
        "    c_gm = asc2.global_tensor(c_ptr, [M, N])",
        "    c2_gm = asc2.global_tensor(c2_ptr, [M, BN2])",
        "    blocks_n = asc2.ceildiv(N, BN)",
        "    for t in asc2.range(asc2.block_idx(), asc2.ceildiv(M, BM) * blocks_n, asc2.block_num()"
        + (", parallel=True):" if c.get("parallel") else "):"),
        "        m0 = (t // blocks_n) * BM",
        "        n0 = (t % blocks_n) * BN",
    ]
    def a_load(ind, k):
        out = []
        if c["prologue"]:
            out.append(f"{ind}x = asc2.copy_in(a_gm, [m0, {k}], [BM, BK])")
            out.append(f"{ind}asc2.copy_out({_prologue(c['prologue'], c['dtype'])}, ws_a, [m0, (n0 // BN) * K + {k}])  # vector -> GM")
            out.append(f"{ind}a = asc2.copy_in(ws_a, [m0, (n0 // BN) * K + {k}], [BM, BK], location={L}.L0A)  # GM -> cube")
        else:
            out.append(f"{ind}a = asc2.copy_in(a_gm, [m0, {k}], [BM, BK], location={L}.L0A)")
        out.append(f"{ind}b = asc2.copy_in(b_gm, [{k}, n0], [BK, BN], location={L}.L0B)")
        return out
    if c.get("stage_l1"):
        lines.append(f"        a1 = asc2.copy_in(a_gm, [m0, 0], [BM, K], location={L}.L1)  # panels in L1")
        lines.append(f"        b1 = asc2.copy_in(b_gm, [0, n0], [K, BN], location={L}.L1)")
    if c.get("stage_l1") and c["K"] == c["BK"]:
        lines.append(f"        acc = a1.to({L}.L0A) @ b1.to({L}.L0B)")
    elif c.get("stage_l1"):
        acc_type = ", asc2.int32" if c["dtype"] == "int8" else ""
        lines.append(f"        acc = asc2.zeros_acc([BM, BN]{acc_type})")
        lines.append("        for kk in asc2.static_range(K // BK):  # sub-tiles of the L1 panels")
        lines.append(f"            a = asc2.copy(a1, [0, kk * BK], [BM, BK], location={L}.L0A)")
        lines.append(f"            b = asc2.copy(b1, [kk * BK, 0], [BK, BN], location={L}.L0B)")
        lines.append("            acc = asc2.matmul_acc(acc, a, b)")
    elif c["K"] == c["BK"]:
        lines += a_load("        ", "0")
        lines.append("        acc = a @ b")
    else:
        acc_type = ", asc2.int32" if c["dtype"] == "int8" else ""
        lines.append(f"        acc = asc2.zeros_acc([BM, BN]{acc_type})")
        lines.append("        for k in asc2.range(0, K, BK):")
        lines += a_load("            ", "k")
        lines.append("            acc = asc2.matmul_acc(acc, a, b)")
    if not c["epilogue"]:
        lines.append("        asc2.copy_out(acc, c_gm, [m0, n0])")
    else:
        lines.append("        asc2.copy_out(acc, ws_c, [m0, n0])  # cube -> GM")
        lines.append("        y = asc2.copy_in(ws_c, [m0, n0], [BM, BN])  # GM -> vector")
        for op in c["epilogue"]:
            if c["dtype"] == "int8" and op == "asc2.relu({x})":  # ReLU takes float tiles: max(y, 0) on int32
                op = "asc2.maximum({x}, 0)"
            lines.append(f"        y = {op.format(x='y')}")
        lines.append("        asc2.copy_out(y, c_gm, [m0, n0])")
        if c["second"]:
            lines.append("        asc2.copy_out(y.astype(asc2.float16), ws_d, [m0, n0])  # vector -> GM")
            lines.append(f"        d = asc2.copy_in(ws_d, [m0, n0], [BM, BN], location={L}.L0A)  # GM -> cube")
            lines.append(f"        w = asc2.copy_in(w_gm, [n0, 0], [BN, BN2], location={L}.L0B)")
            lines.append("        asc2.copy_out(d @ w, c2_gm, [m0, 0])")
    return "\n".join(lines) + "\n"


def _prologue(src, dtype):
    """The prologue op on the A tile ``x``: ReLU and abs take float16/float32 tiles (upstream's sets), so a
    bfloat16 tile goes through float32 for them (exact: the values are small integers)."""
    if dtype == "bfloat16" and src.startswith(("asc2.relu", "asc2.abs")):
        return f"asc2.cast({src.format(x='asc2.cast(x, asc2.float32)')}, asc2.bfloat16)"
    return src.format(x="x")


def launch_plan(k):
    """(block count, arguments, reference outputs [C, C2]) for the kernel's config."""
    import asc2  # noqa: F401
    c = k.config
    rng = np.random.default_rng(c["data_seed"])
    m, n, kk, bn2 = c["M"], c["N"], c["K"], c["BN2"]
    ints = [rng.integers(-2, 3, shape) for shape in ((m, kk), (kk, n), (n, bn2))]
    a, b = (_as_dtype(x, c["dtype"]) for x in ints[:2])
    w = ints[2].astype(np.float16)
    ws_a = _as_dtype(np.zeros((m, -(-n // c["BN"]) * kk), np.int64), c["dtype"])
    acc_type = np.int32 if c["dtype"] == "int8" else np.float32
    ws_c = np.zeros((m, n), acc_type)
    ws_d = np.zeros((m, n), np.float16)
    out = np.zeros((m, n), acc_type)
    out2 = np.zeros((m, bn2), np.float32)
    args = [a, b, w, ws_a, ws_c, ws_d, out, out2, m, n, kk, c["BM"], c["BN"], c["BK"], bn2]
    # float64 reference: exact on these integers
    fa = ints[0].astype(np.float64)
    if c["prologue"]:
        fa = next(fn for src, fn, _ in PROLOGUE if src == c["prologue"])(fa)
    y = fa @ ints[1].astype(np.float64)
    for op in c["epilogue"]:
        y = next(fn for src, fn, _ in EPILOGUE if src == op)(y)
    refs = [y]
    if c["second"]:
        refs.append(y @ ints[2].astype(np.float64))
    return c["cores"], args, refs


def _as_dtype(values, dtype):
    if dtype == "bfloat16":  # small integers: the top 16 bits of their float32 pattern, exactly
        import asc2
        bits = (values.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
        return asc2.reinterpret(bits, asc2.bfloat16)
    return values.astype(NP[dtype])


def check(k, mutate=False):
    """Compile, run and check one kernel: {"seed", "status", "detail", "cycles"[, "uncaught", "waits"]}."""
    import asc2

    result = {"seed": k.seed, "status": "ok", "detail": "", "cycles": 0}
    asc2.set_platform(backend="Model", platform=k.config["platform"])
    with tempfile.TemporaryDirectory(prefix="asc2-mix-") as directory:
        kernel = kernelgen.write_module(k, directory)
        block_num, args, refs = launch_plan(k)
        compiled, failed = kernelgen.compile_or_status(kernel, args, {}, result)
        if failed:
            return failed
        # bfloat16 arguments go to the simulator as their uint16 bit patterns
        launch = [getattr(a, "array", a) for a in kernelgen.runtime_args(kernel, args, {})]
        _, failed = kernelgen.launch_or_status(compiled.native, block_num, launch, result)
        if failed:
            return failed
        outs = [args[6], args[7]][:len(refs)]
        for name, got, want in zip(("C", "C2"), outs, refs):
            got = np.asarray(got, np.float64)
            bad = np.flatnonzero(got != want)
            if bad.size:
                i = bad[0]
                return dict(result, status="mismatch",
                            detail=f"{name}: {bad.size} of {want.size} elements differ; first at {np.unravel_index(i, want.shape)}: "
                                   f"{got.flat[i]} instead of {want.flat[i]}")
        # "1:1" or "1:2": vector cores per cube core the compiler chose (MIX_AIC_1_1 / _1_2).
        result["mix_ratio"] = compiled.report(include_ir=False).get("options", {}).get("mix_ratio", "")
        if mutate:
            result["uncaught"] = kernelgen.uncaught_drops(compiled, block_num, launch)
            result["waits"] = compiled.native.wait_count
    return result


# Waits the mutation run expects to be redundant: InsertSync tracks a GM tensor as one resource, so
# the next output tile's use of a workspace (other rows or columns, no shared bytes) is ordered
# after this tile's, a WAR that no run can violate.
REDUNDANT = re.compile(r"WAR on \w+ in GM: ascendc\.data_copy_in \(MTE2, line \d+\) -> ascendc\.(data_copy_out|fixpipe)")


def mutation_config(k):
    """Whether a mutation run of the kernel means something: a MIX kernel (a prologue or an
    epilogue) synchronised with flags (Ascend910B1; Ascend950 orders local buffers with buffer
    ids), whose launch runs every wait of its program: an even number of K steps (an odd one takes
    the skipped branch of the unrolled copy, whose PIPE_ALL orders everything) and at least two
    output tiles per block."""
    c = k.config
    tiles = -(-c["M"] // c["BM"]) * -(-c["N"] // c["BN"])
    return (c["platform"] == "Ascend910B1" and bool(c["prologue"] or c["epilogue"])
            and (c["K"] // c["BK"]) % 2 == 0 and tiles >= 2 * c["cores"])
