"""The on-disk level of the kernel cache: frontend IR by specialisation key.

A hit skips the Python code generator; the C++ pipeline runs again in process
(it is the fast part, and its report must be fresh for the workbench).

An entry is trusted only when it is what it claims to be: its key, the asc2
build that wrote it (``build_id``: IR cached by another asc2 is not reused
after an upgrade) and the sha256 of its IR must match. Anything else (a
truncated or hand-edited file, wrong JSON, a missing field) is recompiled with
a warning naming the entry; a damaged entry is never an exception.
"""

import functools
import hashlib
import json
import os
import tempfile
import warnings

FORMAT = 2
_FIELDS = {"format": int, "key": str, "build": str, "ir": str, "ir_sha256": str, "kernel": str,
           "arg_names": list}


def cache_dir():
    return os.environ.get("ASC2_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".asc2", "cache")


@functools.lru_cache(maxsize=None)
def build_id():
    """The asc2 that generates the IR: its version, the digest of the frontend's Python sources and the
    identity of the compiler extension it feeds (a rebuild or an upgrade starts a new cache)."""
    import asc2

    package = os.path.dirname(os.path.abspath(asc2.__file__))
    h = hashlib.sha256(f"asc2 {asc2.__version__}\n".encode())
    for root, dirs, files in os.walk(package):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            if name.endswith(".py"):
                h.update(os.path.relpath(path, package).encode())
                with open(path, "rb") as f:
                    h.update(hashlib.sha256(f.read()).digest())
    for path in _native_files():
        st = os.stat(path)
        h.update(f"{os.path.basename(path)} {st.st_size} {st.st_mtime_ns}".encode())
    return f"{asc2.__version__}+{h.hexdigest()[:16]}"


def _native_files():
    """The compiler extension and the asc2 libraries it loaded (a rebuild changes their size or time)."""
    try:
        from .. import _C
    except ImportError:
        return []
    files = {os.path.abspath(_C.__file__)}
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
            files.update(line.split(None, 5)[5].strip() for line in f
                         if line.count(" ") >= 5 and "/libasc2" in line and ".so" in line)
    except OSError:
        pass
    return sorted(p for p in files if os.path.exists(p))


def make_key(parts):
    """sha256 of a JSON-serialisable description of a specialisation."""
    text = json.dumps(parts, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


def _path(key):
    return os.path.join(cache_dir(), key[:2], key + ".json")


def ir_digest(ir):
    return hashlib.sha256(ir.encode()).hexdigest()


def _problem(entry, key, kernel):
    """Why ``entry`` is not a valid entry for ``key`` (None: it is)."""
    if not isinstance(entry, dict):
        return f"it holds a JSON {type(entry).__name__}, not an object"
    for field, kind in _FIELDS.items():
        if field not in entry:
            return f"its field '{field}' is missing"
        if not isinstance(entry[field], kind):
            return f"its field '{field}' is not a {kind.__name__}"
    if entry["format"] != FORMAT:
        return f"it has format {entry['format']}, not {FORMAT}"
    if entry["build"] != build_id():  # the key holds the build: only a copied or edited file gets here
        return f"it was written by asc2 {entry['build']}, not {build_id()}"
    if entry["key"] != key:
        return "it was stored under another key"
    if entry["kernel"] != kernel:
        return f"it holds kernel '{entry['kernel']}', not '{kernel}'"
    if ir_digest(entry["ir"]) != entry["ir_sha256"]:
        return "its IR does not match its digest (the file was altered)"
    return None


def warn_damaged(path, why):
    warnings.warn(f"asc2 compile cache: ignoring the damaged entry {path}: {why}; the kernel is recompiled",
                  RuntimeWarning, stacklevel=4)


def read_entry(path, problem):
    """(entry, why) of the JSON entry at ``path``: (None, None) when there is none, (None, why) when it is damaged
    (not JSON, or ``problem(entry)`` says what is wrong with it). The compile cache and the autotuner's choices
    read their entries this way."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None, None
    try:
        entry = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        return None, f"it is not valid JSON ({e.__class__.__name__})"
    why = problem(entry)
    return (None, why) if why else (entry, None)


def write_entry(path, entry, **dump_options):
    """Write a JSON entry atomically; a read-only or full cache directory only costs the next run the work."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(entry, f, **dump_options)
        os.replace(tmp, path)
    except OSError:
        pass


def load(key, kernel):
    """The entry stored for ``key``, or None (a miss, or a damaged entry: warned about)."""
    path = _path(key)
    entry, why = read_entry(path, lambda e: _problem(e, key, kernel))
    if why:
        warn_damaged(path, why)
    return entry


def store(key, entry):
    write_entry(_path(key), dict(entry, format=FORMAT, key=key, build=build_id(), ir_sha256=ir_digest(entry["ir"])))


def entry_path(key):
    return _path(key)
