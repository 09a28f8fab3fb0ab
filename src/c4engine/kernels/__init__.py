"""The compiled kernels: numba functions on uint64 bitboards, cached on disk.

numba keys each cached function on its own source file only, but these
kernels inline helpers from their sibling modules: after an edit to, say,
``table.py`` alone, the search kernels would silently load old machine code.
So the whole cache is dropped whenever any kernel source changes; a digest
of the sources (``SOURCE_DIGEST``) is kept beside it, and also names the
shared libraries of :mod:`c4engine.kernels.library`.  (Installs from a wheel
or sdist rewrite every file, so this matters mostly in a working copy.)
Nothing here imports numba: a process whose kernel comes from the shared
library never does.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path

_HERE = Path(__file__).resolve().parent

SOURCE_DIGEST = hashlib.sha256(b"".join(path.read_bytes() for path in sorted(_HERE.glob("*.py")))).hexdigest()
"""A digest of every kernel source file."""

LIBRARY_PREFIX = "c4solve-"
"""How the names of :mod:`c4engine.kernels.library`'s shared libraries begin."""


def cache_dir() -> Path:
    """Where compiled kernels are kept: ``$NUMBA_CACHE_DIR`` if set, else ``__pycache__`` here."""
    return Path(os.environ.get("NUMBA_CACHE_DIR") or _HERE / "__pycache__")


def _drop_stale_cache() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return  # the cache lives elsewhere, under numba's own naming
    cache = cache_dir()
    stamp = cache / "kernels.digest"
    with contextlib.suppress(OSError):
        if stamp.read_text() == SOURCE_DIGEST:
            return
    with contextlib.suppress(OSError):  # a read-only install: nothing to drop, nowhere to write
        for compiled in [*cache.glob("*.nb[ic]"), *cache.glob(f"{LIBRARY_PREFIX}*")]:
            compiled.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        stamp.write_text(SOURCE_DIGEST)


_drop_stale_cache()
