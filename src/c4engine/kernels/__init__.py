"""The compiled kernels: numba functions on uint64 bitboards (128-bit words past 64 bits), cached on disk.

numba keys each cached function on its own source file only, but these
kernels inline helpers from their sibling modules: after an edit to, say,
``table.py`` alone, the search kernels would silently load old machine code.
So the whole cache is dropped whenever any kernel source changes; a digest
of the sources (``SOURCE_DIGEST``) is kept beside it, and also names the
shared libraries of :mod:`c4engine.kernels.library`.  (Installs from a wheel
or sdist rewrite every file, so this matters mostly in a working copy.)
Nothing here imports numba: a process whose kernel comes from the shared
library never does.

A kernel's first compile takes seconds (the solver's about 30): whoever
loads one calls :func:`announce_compile` first when :func:`is_cached` says
it is not compiled yet, and the listeners a front-end gave
:func:`on_compile` are told once, so a person knows why the first answer
is slow.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from hashlib import sha256 as sha256
else:
    # CPython's own SHA-256 (hashlib's, byte for byte) without hashlib, whose import loads
    # OpenSSL: a twentieth of a search's start-up (docs/benchmarks-log.md, "Start-up of a batch, a
    # second round").  The standard library's random takes its SHA-512 the same way.
    try:
        from _sha256 import sha256
    except ImportError:  # named _sha2 from Python 3.12 on
        try:
            from _sha2 import sha256
        except ImportError:  # an interpreter without either
            from hashlib import sha256

_HERE = Path(__file__).resolve().parent

SOURCE_DIGEST = sha256(b"".join(path.read_bytes() for path in sorted(_HERE.glob("*.py")))).hexdigest()
"""A digest of every kernel source file."""

SPECIALISED: Final = frozenset({(7, 6, 4), (8, 8, 4), (9, 7, 4), (10, 6, 4), (7, 9, 4), (9, 7, 5)})
"""Geometries (width, height, connect) whose solver kernel has the sizes compiled in
(:func:`c4engine.kernels.solve.kernel_for`): the standard board and the common ones past 64
bits, whose two-word shifts and masks then fold (10x6's mid-game searches in about 0.55 of the
time of the kernel for every size past 64 bits, the same nodes: docs/benchmarks.md, "Boards
past 64 bits").  Each costs a compile of its own (its library 10-20 CPU seconds, built in the
background on first use while the library for every size answers), so every other geometry
shares ``_generic_kernel``, compiled once: a new board size (a web page's, a tuning run's)
costs nothing to start."""

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

CompileListener = Callable[[str], None]
"""Told, in a line for people, what is about to be compiled and about how long it takes."""

_listeners: list[CompileListener] = []
_announced: set[str] = set()


def on_compile(listener: CompileListener) -> None:
    """Have ``listener`` told before a kernel's first compile (each announcement once a process).

    Registering the same listener again changes nothing.
    """
    if listener not in _listeners:
        _listeners.append(listener)


def announce_compile(message: str) -> None:
    """Tell the listeners ``message`` (say ``"compiling the solver, once, about 30 s"``), unless
    this process has announced it before.

    >>> heard: list[str] = []
    >>> on_compile(heard.append)
    >>> announce_compile("compiling a doctest, once"); announce_compile("compiling a doctest, once")
    >>> heard
    ['compiling a doctest, once']
    >>> _listeners.remove(heard.append)
    """
    if message in _announced:
        return
    _announced.add(message)
    for listener in list(_listeners):
        listener(message)


def is_cached(dispatcher: object) -> bool:
    """Whether the numba function ``dispatcher`` (``@njit(cache=True)``) runs without compiling:
    compiled in this process already, or found in numba's cache for these sources and this CPU.

    It reads numba's cache index as the dispatcher itself will (numba has no public call for
    this); should numba change that, the answer is True -- better no notice than a wrong one.
    """
    try:
        if dispatcher.overloads:  # type: ignore[attr-defined]
            return True
        cache = dispatcher._cache  # type: ignore[attr-defined]
        codegen = dispatcher.targetctx.codegen()  # type: ignore[attr-defined]
        index = cache._cache_file._load_index()
        return any(cache._index_key(key[0], codegen) == key for key in index)
    except Exception:  # numba's internals moved (or an unreadable index): assume cached, stay silent
        return True
