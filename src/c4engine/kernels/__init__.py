"""The compiled kernels: numba functions on uint64 bitboards, cached on disk.

numba keys each cached function on its own source file only, but these
kernels inline helpers from their sibling modules: after an edit to, say,
``table.py`` alone, the search kernels would silently load old machine code.
So the whole cache is dropped whenever any kernel source changes; a digest
of the sources is kept beside it.  (Installs from a wheel or sdist rewrite
every file, so this matters mostly in a working copy.)
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path


def _drop_stale_cache() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return  # the cache lives elsewhere, under numba's own naming
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256(b"".join(path.read_bytes() for path in sorted(here.glob("*.py")))).hexdigest()
    cache = here / "__pycache__"
    stamp = cache / "kernels.digest"
    with contextlib.suppress(OSError):
        if stamp.read_text() == digest:
            return
    with contextlib.suppress(OSError):  # a read-only install: nothing to drop, nowhere to write
        for compiled in cache.glob("*.nb[ic]"):
            compiled.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest)


_drop_stale_cache()
