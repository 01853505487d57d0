"""The autotuner's choices on disk: ``$ASC2_CACHE_DIR/autotune/<key>.json`` (the compile cache's directory).

The key (``make_key``) covers everything the choice depends on: the asc2 build, the kernel's source fingerprint
(its text and what it reads from its module, as the compile cache keys it), its jit options, the configs, the
tuning key's values, the launch block count, the backend and the platform. An entry holds the winner's index,
the configs it was chosen among (checked again on load) and the sweep's report. A damaged entry is ignored with
a warning and the sweep runs again, as a damaged compile-cache entry is recompiled.
"""

import os
import warnings

from ..runtime import cache

FORMAT = 1


def make_key(parts):
    return cache.make_key(dict(parts, kind="asc2.autotune", format=FORMAT))


def path(key):
    return os.path.join(cache.cache_dir(), "autotune", key[:2], key + ".json")


def _problem(entry, key, kernel, configs):
    if not isinstance(entry, dict):
        return f"it holds a JSON {type(entry).__name__}, not an object"
    for field, kind in (("format", int), ("key", str), ("kernel", str), ("configs", list), ("winner", int),
                        ("report", list)):
        if not isinstance(entry.get(field), kind) or isinstance(entry.get(field), bool):
            return f"its field '{field}' is missing or not a {kind.__name__}"
    if entry["format"] != FORMAT:
        return f"it has format {entry['format']}, not {FORMAT}"
    if entry["key"] != key:
        return "it was stored under another key"
    if entry["kernel"] != kernel:
        return f"it holds kernel '{entry['kernel']}', not '{kernel}'"
    if entry["configs"] != configs:
        return "it was chosen among other configs"
    if not 0 <= entry["winner"] < len(configs):
        return f"its winner #{entry['winner']} is not one of the {len(configs)} configs"
    return None


def load(key, kernel, configs):
    """The stored entry for ``key`` (``configs``: the configs' identities), or None."""
    where = path(key)
    entry, why = cache.read_entry(where, lambda e: _problem(e, key, kernel, configs))
    if why:
        warnings.warn(f"asc2.autotune: ignoring the damaged choice {where}: {why}; the configs are tuned again",
                      RuntimeWarning, stacklevel=4)
    return entry


def store(key, kernel, configs, winner, report):
    """Write atomically; a read-only or full cache directory only costs the next process a sweep."""
    cache.write_entry(path(key), {"format": FORMAT, "key": key, "kernel": kernel, "configs": configs,
                                  "winner": winner, "report": list(report)}, indent=1, default=repr)
