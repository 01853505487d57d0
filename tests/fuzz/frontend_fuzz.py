#!/usr/bin/env python3
"""Fuzzer for the asc2 frontend and everything behind it, from Python source down.

Each mutant is a sample (samples/*.py) whose @asc2.jit kernels had their AST mutated (constants set to edge
values, operators and builtins swapped, statements dropped or repeated, arguments swapped, shapes changed); it
runs as a script in a child process, as a user would run it, with a step limit (ASC2_MAX_STEPS) and a timeout.

A mutant may compute something else (the sample then reports a mismatch) or be refused with an asc2 error. It is
a bug when the child
  - dies of a signal or exceeds the timeout,
  - ends in an exception that is not an asc2 error (AttributeError, KeyError, RecursionError, ... raised inside
    the asc2 package), or
  - reports an asc2 error whose message shows compiler internals (MLIR types, loc(...), SSA names, pybind11).
Bugs are written to --artifacts as the mutated script plus what went wrong.

    frontend_fuzz.py [--runs N] [--seed S] [--seconds T] [--timeout S] [--artifacts DIR] [--jobs J]
"""

import argparse
import ast
import concurrent.futures
import copy
import os
import random
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = ["vadd", "where", "leaky_relu", "gelu", "cast", "softmax", "reduce_sum", "rms_norm", "layer_norm",
           "matmul"]
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))
from conftest import compiler_terms_in  # noqa: E402  (the scan the robustness suites use)

NUMBERS = [0, -1, 1, 2, 3, 7, 8, 31, 32, 33, 255, 256, 1023, 4096, 65536, 2**31 - 1, 2**31, 2**32, 2**63 - 1,
           2**63, 2**64, -(2**63), 10**20, 0.0, -0.0, 0.5, -1.5, 1e30, -1e-30, float("inf"), float("-inf"),
           float("nan"), True, False, None, "x"]
BINOPS = [ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.BitAnd, ast.BitOr, ast.BitXor,
          ast.LShift, ast.RShift, ast.MatMult]
CMPOPS = [ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq]
BUILTINS = ["exp", "log", "sqrt", "rsqrt", "abs", "relu", "maximum", "minimum", "where", "sum", "max", "min",
            "full", "zeros", "cast", "copy_in", "copy_out", "broadcast_to", "reshape", "transpose", "matmul",
            "block_idx", "block_num", "range", "static_range", "ceildiv", "float16", "float32", "int32", "int8",
            "bfloat16", "bool_", "sin", "cos", "floor", "ceil", "tanh", "sigmoid", "erf", "mask"]
# Python's own exceptions (printed unqualified; asc2's print as asc2.errors.X, so asc2.errors.MemoryError, a UB
# overflow, is not the builtin MemoryError of a std::bad_alloc).
INTERNAL = {"AttributeError", "KeyError", "IndexError", "RecursionError", "ZeroDivisionError", "AssertionError",
            "UnboundLocalError", "NameError", "StopIteration", "SystemError", "MemoryError", "OverflowError",
            "UnicodeError", "NotImplementedError"}


class Mutator(ast.NodeTransformer):
    """One random change at a random node of a kernel body."""

    def __init__(self, rng, target):
        self.rng, self.target, self.index = rng, target, 0

    def _hit(self):
        self.index += 1
        return self.index == self.target

    def visit_Constant(self, node):
        if self._hit():
            return ast.copy_location(ast.Constant(self.rng.choice(NUMBERS)), node)
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if self._hit():
            choice = self.rng.random()
            if choice < 0.6:
                node.op = self.rng.choice(BINOPS)()
            elif choice < 0.8:
                node.left, node.right = node.right, node.left
            else:
                return node.left
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)
        if self._hit():
            node.ops = [self.rng.choice(CMPOPS)() for _ in node.ops]
        return node

    def visit_Attribute(self, node):
        self.generic_visit(node)
        if isinstance(node.value, ast.Name) and node.value.id == "asc2" and self._hit():
            node.attr = self.rng.choice(BUILTINS)
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        if self._hit():
            choice = self.rng.random()
            if choice < 0.3 and len(node.args) >= 2:
                i, j = self.rng.sample(range(len(node.args)), 2)
                node.args[i], node.args[j] = node.args[j], node.args[i]
            elif choice < 0.5 and node.args:
                node.args.pop(self.rng.randrange(len(node.args)))
            elif choice < 0.7 and node.args:
                node.args.append(copy.deepcopy(self.rng.choice(node.args)))
            elif node.keywords:
                kw = self.rng.choice(node.keywords)
                kw.value = ast.Constant(self.rng.choice(NUMBERS))
        return node

    def visit_List(self, node):
        self.generic_visit(node)
        if self._hit():
            choice = self.rng.random()
            if choice < 0.4:
                node.elts = [ast.Constant(self.rng.choice([0, -1, 1, 3, 7, 2**40]))] + node.elts[1:]
            elif choice < 0.7:
                node.elts = node.elts + [ast.Constant(self.rng.choice([1, 8, 16]))]
            else:
                node.elts = node.elts[:-1]
        return node

    def _body(self, body):
        if body and self._hit():
            i = self.rng.randrange(len(body))
            if self.rng.random() < 0.5 and len(body) > 1:
                del body[i]
            else:
                body.insert(i, copy.deepcopy(body[i]))
        return body

    def _visit_body_owner(self, node):
        self.generic_visit(node)
        node.body = self._body(node.body)
        return node

    visit_FunctionDef = visit_For = _visit_body_owner


def is_kernel(node):
    return isinstance(node, ast.FunctionDef) and any(
        "jit" in ast.unparse(d) for d in node.decorator_list)


def mutant(source, rng):
    """The sample's text with 1-3 changes inside its kernels (unchanged text if nothing could change)."""
    tree = ast.parse(source)
    kernels = [n for n in tree.body if is_kernel(n)]
    for _ in range(rng.randint(1, 3)):
        kernel = rng.choice(kernels)
        count = sum(1 for _ in ast.walk(kernel))
        Mutator(rng, rng.randint(1, count)).visit(kernel)
    ast.fix_missing_locations(tree)
    return ast.unparse(tree)


def exception_line(stderr):
    """'Kind: message' of the exception a traceback in ``stderr`` ends with (the first unindented line after
    the last 'Traceback'; asc2 errors go on with the kernel line and a caret)."""
    tail = stderr[stderr.rfind("Traceback"):].splitlines()[1:]
    return next((line for line in tail if line and not line[0].isspace()), "")


def classify(proc, timed_out):
    """None for a fine outcome, else what went wrong."""
    if timed_out:
        return "timeout"
    if proc.returncode < 0:
        return f"killed by signal {-proc.returncode}"
    err = proc.stderr
    if proc.returncode not in (0, 1):
        return f"exit status {proc.returncode}: {err.strip().splitlines()[-1] if err.strip() else ''}"
    if "Traceback" not in err:
        return None
    last = exception_line(err)
    kind = last.split(":")[0]
    # The mutator never touches imports: a mutant that cannot import ran nothing (a run of only these once
    # reported "0 bugs").
    if kind in ("ModuleNotFoundError", "ImportError"):
        return f"cannot import: {last}"
    # An exception raised inside the asc2 package that is not one of its errors is an internal bug.
    frames = re.findall(r'File "([^"]+)", line \d+', err)
    in_asc2 = bool(frames) and f"{os.sep}asc2{os.sep}" in frames[-1]
    if kind in INTERNAL and in_asc2:
        return f"internal error {last}"
    message = err[err.rfind("Traceback"):]
    message = message[message.find("\n", message.rfind('File "')) + 1:] if 'File "' in message else message
    found = compiler_terms_in(message)
    if found and kind.startswith("asc2."):
        return f"message shows {', '.join(found)}: {last}"
    return None


def outcome(proc):
    """How a fine mutant ended: ran (exit 0), mismatch (exit 1, no traceback), or the error class it raised."""
    if "Traceback" in proc.stderr:
        return "refused: " + exception_line(proc.stderr).split(":")[0]
    return "ran" if proc.returncode == 0 else "ran, other numbers"


def child_environment(workdir):
    """The environment a mutant runs in (from ``workdir``): PYTHONPATH made absolute, so a relative one given
    for the fuzzer's own directory still finds asc2."""
    path = os.pathsep.join(os.path.abspath(p) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)
    return dict(os.environ, PYTHONPATH=path, ASC2_MAX_STEPS="2000000", ASC2_CACHE_DIR=os.path.join(workdir, "cache"))


def check_environment(workdir):
    """None when a mutant's interpreter can import asc2 and numpy, else why not."""
    proc = subprocess.run([sys.executable, "-c", "import asc2, numpy"], capture_output=True, text=True,
                          env=child_environment(workdir), cwd=workdir)
    if proc.returncode != 0:
        return exception_line(proc.stderr) or proc.stderr.strip()
    return None


def run_one(args):
    index, seed, timeout, workdir = args
    rng = random.Random(seed * 1_000_003 + index)
    sample = rng.choice(SAMPLES)
    with open(os.path.join(ROOT, "samples", f"{sample}.py")) as f:
        source = f.read()
    try:
        text = mutant(source, rng)
    except (RecursionError, ValueError):
        return index, sample, None, "not a mutant (unparsable)"
    path = os.path.join(workdir, f"mutant_{index}_{sample}.py")
    with open(path, "w") as f:
        f.write(text)
    env = child_environment(workdir)
    start = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, path], capture_output=True, text=True, timeout=timeout, env=env,
                              cwd=workdir)
        problem = classify(proc, False)
    except subprocess.TimeoutExpired as e:
        proc, problem = e, classify(None, True)
    elapsed = time.monotonic() - start
    if problem is None:
        os.remove(path)
        return index, sample, None, outcome(proc)
    stderr = proc.stderr if isinstance(proc.stderr, str) else (proc.stderr or b"").decode(errors="replace")
    return index, sample, (problem, path, text, stderr), elapsed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=0, help="stop after this long (0: after --runs)")
    parser.add_argument("--timeout", type=float, default=120, help="seconds one mutant may run")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--artifacts", default=None, help="directory for the mutants that found a bug")
    args = parser.parse_args(argv)
    workdir = tempfile.mkdtemp(prefix="asc2-frontend-fuzz-")
    problem = check_environment(workdir)
    if problem:
        print(f"frontend-fuzz: a mutant's interpreter cannot import asc2 and numpy ({problem}); set PYTHONPATH to "
              f"the build's python directory", file=sys.stderr)
        return 2
    artifacts = args.artifacts or workdir
    os.makedirs(artifacts, exist_ok=True)
    start = time.monotonic()
    bugs, done, outcomes = [], 0, {}
    runs = args.runs if not args.seconds else 10**9
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        pending = set()
        index = 0
        while index < runs or pending:
            while index < runs and len(pending) < args.jobs and not (
                    args.seconds and time.monotonic() - start > args.seconds):
                pending.add(pool.submit(run_one, (index, args.seed, args.timeout, workdir)))
                index += 1
            if not pending:
                break
            finished, pending = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for fut in finished:
                i, sample, bug, how = fut.result()
                done += 1
                if how:
                    outcomes[how] = outcomes.get(how, 0) + 1
                if bug:
                    problem, path, text, stderr = bug
                    out = os.path.join(artifacts, f"bug_{i}_{sample}")
                    with open(out + ".py", "w") as f:
                        f.write(text)
                    with open(out + ".txt", "w") as f:
                        f.write(problem + "\n\n" + stderr)
                    bugs.append((i, sample, problem, out))
                    print(f"frontend-fuzz: mutant {i} of {sample}: {problem} ({out}.py)", flush=True)
            if args.seconds and time.monotonic() - start > args.seconds:
                runs = index
    for how, count in sorted(outcomes.items(), key=lambda kv: -kv[1]):
        print(f"  {count:6d}  {how}")
    print(f"frontend-fuzz: {done} mutants (seed {args.seed}) in {time.monotonic() - start:.0f} s: "
          f"{len(bugs)} bugs")
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main())
