"""The on-disk level of the kernel cache: frontend IR by specialisation key.

A hit skips the Python code generator; the C++ pipeline runs again in process
(it is the fast part, and its report must be fresh for the workbench).
"""

import hashlib
import json
import os
import tempfile

FORMAT = 1


def cache_dir():
    return os.environ.get("ASC2_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".asc2", "cache")


def make_key(parts):
    """sha256 of a JSON-serialisable description of a specialisation."""
    text = json.dumps(parts, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


def _path(key):
    return os.path.join(cache_dir(), key[:2], key + ".json")


def load(key):
    try:
        with open(_path(key), encoding="utf-8") as f:
            entry = json.load(f)
    except (OSError, ValueError):
        return None
    if entry.get("format") != FORMAT or entry.get("key") != key:
        return None
    return entry


def store(key, entry):
    """Write atomically; a read-only or full cache directory only costs the next compile."""
    path = _path(key)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(dict(entry, format=FORMAT, key=key), f)
        os.replace(tmp, path)
    except OSError:
        pass
