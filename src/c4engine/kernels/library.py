"""The kernels as shared libraries, named and loaded: a process then searches without importing numba.

numba caches the compiled kernel on disk, but a process still pays for
importing numba and loading that cache: about half a CPU second before its
first node, which is most of the time of a command solving a few positions.
So each kernel is also built (:mod:`c4engine.kernels.build`, in a process
of its own) into a shared library of C entry points, the same machine code
numba runs, which a process loads with ctypes (:func:`load`) in a few
milliseconds.  The file name (:func:`named_path`) carries a digest of the
kernel sources, the geometry and the CPU, so an edit or another machine gets
a library of its own.  Where there is no C compiler or the cache folder is
read-only, there is no library and numba serves.

The entry point takes the kernel's arguments packed as numba takes them
(:class:`c4engine.kernels.layout.KernelArgs`), one word a field in its
order -- an array's address, an integer's value -- and the batch's number
of positions::

    int64 c4_solve(const int64 *words, int64 count)

It is :func:`c4engine.kernels.solve.kernel_for`'s kernel, the words turned
back into arrays of the geometry's shapes; ctypes releases the GIL for the
call, so another thread can set ``cancel[0]`` as with numba's ``nogil``
kernel.  Besides the libraries of geometries whose kernel has its sizes
compiled in, there are two for every geometry, their sizes passed at run
time: the solver's (:data:`ANY_SIZE`, :data:`WIDE` past 64 bits; the same
entry point, three more words: width, height, connect) and the heuristic
engine's (:data:`ENGINE`, :func:`c4engine.kernels.heuristic.run`)::

    int64 c4_engine(const int64 *words, const double *numbers)

Installing the package builds those for every size
(:data:`c4engine.kernels.build.SHIPPED_NAMES`) into ``kernels/compiled``
(:data:`SHIPPED`), which :func:`find` looks in before the cache folder: the
first answer after an install compiles nothing.  Each build runs in a
process of its own, never inside a command (:func:`build_apart`,
:func:`build_in_background`), so that this module never imports the
building code.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

# platform, shutil and subprocess are imported where a build's start (or a CPU without
# /proc/cpuinfo) needs them, and the building code (kernels.build) only by a build's own process:
# a process that only loads a library imports none of them (their imports were a tenth of a
# batch's start-up, docs/benchmarks-log.md "Start-up of a batch, a second round").
from c4engine.geometry import fits_64_bits
from c4engine.kernels import LIBRARY_PREFIX, SOURCE_DIGEST, SPECIALISED, announce_compile, cache_dir, sha256

if TYPE_CHECKING:  # for the types only: asking whether there is a library imports nothing big
    import numpy as np

    from c4engine.kernels.layout import KernelArgs

ENTRY = "c4_solve"
ENGINE_ENTRY = "c4_engine"

SHIPPED = Path(__file__).resolve().parent / "compiled"
"""Where an install puts the libraries it built (package data;
:data:`c4engine.kernels.build.SHIPPED_NAMES`)."""

ANY_SIZE = "any"
"""The name of the solver's library for every geometry of at most 64 bits (sizes at run time)."""

WIDE = "wide"
"""The name of the solver's library for every geometry past 64 bits, up to 128 (sizes at run time;
its words are 128 bits, :mod:`c4engine.kernels.wide`)."""

ENGINE = "engine"
"""The name of the heuristic engine's library (every geometry that fits 64 bits)."""

BUILD_PATIENCE = 1800
"""Seconds a build in a process of its own may take (minutes on a machine loaded many times over)
before it is given up, or its ``.building`` file is taken for a dead one's."""

Kernel = Callable[["KernelArgs"], int]
_ARGUMENTS = [ctypes.c_void_p, ctypes.c_int64]  # the words, the count


@functools.cache
def cpu_identity() -> str:
    """What names this machine's CPU and its instruction sets, read without LLVM."""
    with contextlib.suppress(OSError):
        text = Path("/proc/cpuinfo").read_text()
        first = text.split("\n\n", 1)[0]
        wanted = ("model name", "flags")
        fields = [line for line in first.splitlines() if line.split(":")[0].strip() in wanted]
        if fields:
            return os.uname().machine + "\n" + "\n".join(fields)  # platform.machine(), unimported
    import platform

    return f"{platform.machine()} {platform.processor()} {platform.platform()}"


def geometry_name(width: int, height: int, connect: int) -> str:
    """The name of the library of one geometry's kernel, its sizes compiled in.

    >>> geometry_name(7, 6, 4)
    '7x6x4'
    """
    return f"{width}x{height}x{connect}"


def named_path(name: str, folder: Path | None = None) -> Path:
    """Where library ``name`` (:func:`geometry_name`, :data:`ANY_SIZE`, :data:`ENGINE`) built from
    these sources for this CPU is (or would be) kept in ``folder`` (the cache folder if None)."""
    key = sha256(f"{SOURCE_DIGEST}\n{name}\n{cpu_identity()}".encode())
    return (folder or cache_dir()) / f"{LIBRARY_PREFIX}{name}-{key.hexdigest()[:16]}.so"


def library_path(width: int, height: int, connect: int, folder: Path | None = None) -> Path:
    """Where the library of this geometry is (or would be) kept."""
    return named_path(geometry_name(width, height, connect), folder)


def find(name: str, folder: Path | None = None) -> Path | None:
    """The file of library ``name``: in ``folder`` if given, else the one the install built
    (:data:`SHIPPED`), else the cache folder's; None when there is none."""
    for place in [folder] if folder is not None else [SHIPPED, cache_dir()]:
        path = named_path(name, place)
        if path.is_file():
            return path
    return None


def has_library(width: int, height: int, connect: int) -> bool:
    """Whether the geometry's solver has a shared library here, its own or the one for every size
    (loading it is then a matter of milliseconds, where numba takes about half a second)."""
    every_size = ANY_SIZE if fits_64_bits(width, height) else WIDE
    return any(find(name) is not None for name in (geometry_name(width, height, connect), every_size))


def _entry(name: str, entry: str, arguments: list[Any], folder: Path | None) -> Any:
    """Function ``entry`` of library ``name`` (see :func:`find`), typed with ``arguments`` and an
    int64 result; None when there is no such library or it will not load."""
    path = find(name, folder)
    if path is None:
        return None
    try:
        function = getattr(ctypes.CDLL(str(path)), entry)
    except (OSError, AttributeError):
        return None
    function.restype = ctypes.c_int64
    function.argtypes = arguments
    return function


def load(width: int, height: int, connect: int, folder: Path | None = None) -> Kernel | None:
    """The geometry's kernel from its own shared library, or None when there is none (or it will not load)."""
    entry = _entry(geometry_name(width, height, connect), ENTRY, _ARGUMENTS, folder)
    return None if entry is None else _caller(entry, (), 1 if fits_64_bits(width, height) else 2)


def load_any_size(width: int, height: int, connect: int, folder: Path | None = None) -> Kernel | None:
    """The geometry's kernel from the library for every size (:data:`ANY_SIZE`, or :data:`WIDE` for a
    board past 64 bits), or None."""
    wide = not fits_64_bits(width, height)
    entry = _entry(WIDE if wide else ANY_SIZE, ENTRY, _ARGUMENTS, folder)
    return None if entry is None else _caller(entry, (width, height, connect), 2 if wide else 1)


def _caller(entry: Callable[..., int], sizes: tuple[int, ...], entry_words: int) -> Kernel:
    """The ctypes entry point behind the numba kernel's signature (packed arguments in, status out);
    ``sizes``, the geometry's, follow the arguments' words for the library for every size; a
    table entry and a board's word take ``entry_words`` uint64 (2 past 64 bits)."""
    from c4engine.kernels.layout import BUSY_BITS, KernelArgs
    from c4engine.kernels.memory import CArray
    from c4engine.kernels.transposition import table_entries

    words_type = ctypes.c_int64 * (len(KernelArgs._fields) + len(sizes))

    def kernel(args: KernelArgs) -> int:
        word = (2,) if entry_words == 2 else ()
        if args.busy.shape != (1 << BUSY_BITS, *word) or args.boards.shape[1:] != (2, *word):
            raise ValueError(f"the busy marks and boards have words of {entry_words} uint64")
        more = entry_words - 1  # a part of 2**bits entries has 2**(bits + more) words
        if args.table.shape[0] != table_entries(
            args.bits + more, args.near_bits + more if args.near_bits else 0
        ):
            raise ValueError(
                f"a table of 2**{args.bits} + 2**{args.near_bits} entries has {args.table.shape[0]}"
            )
        # C arrays (kernels.memory) all: contiguous, at fixed addresses
        words = words_type(*(f.address if isinstance(f, CArray) else f for f in args), *sizes)
        return int(entry(words, args.boards.shape[0]))

    return kernel


def load_engine(folder: Path | None = None) -> Callable[..., int] | None:
    """:func:`c4engine.kernels.heuristic.run` from the engine's library (:data:`ENGINE`), taking the
    same arguments; None when there is none (or it will not load)."""
    entry = _entry(ENGINE, ENGINE_ENTRY, [ctypes.c_void_p, ctypes.c_void_p], folder)
    if entry is None:
        return None
    import numpy as np  # only once a kernel is wanted

    from c4engine.kernels.engine_layout import Weights, plies
    from c4engine.kernels.layout import S_SIZE

    def run(
        current0: int, mask0: int, width: int, height: int, connect: int, depth: int,
        candidates: np.ndarray, weights: Weights, tt_keys: np.ndarray, tt_lower: np.ndarray,
        tt_upper: np.ndarray, tt_gen: np.ndarray, tt_move: np.ndarray, bits: int, gen: int,
        ustack: np.ndarray, fstack: np.ndarray, istack: np.ndarray, mstack: np.ndarray,
        pv: np.ndarray, pvlen: np.ndarray, state: np.ndarray, fret: np.ndarray, node_stop: int,
    ) -> int:  # fmt: skip
        rows, size, counts = plies(width, height), 1 << bits, connect + 1
        # the entry takes every array's shape from the sizes: a wrong one would be read past its end
        expected = [
            (candidates, np.int64, (len(candidates),)),
            (weights.masks, np.uint64, (len(weights.masks),)),
            (weights.own, np.float64, (counts,)),
            (weights.opponent, np.float64, (counts,)),
            (tt_keys, np.uint64, (size,)),
            (tt_lower, np.float64, (size,)),
            (tt_upper, np.float64, (size,)),
            (tt_gen, np.int64, (size,)),
            (tt_move, np.int64, (size,)),
            (ustack, np.uint64, (rows, 2)),
            (fstack, np.float64, (rows, 4)),
            (istack, np.int64, (rows, 3)),
            (mstack, np.int64, (rows, width)),
            (pv, np.int64, (rows, rows)),
            (pvlen, np.int64, (rows,)),
            (state, np.int64, (S_SIZE,)),
            (fret, np.float64, (1,)),
        ]
        for array, dtype, shape in expected:
            if array.dtype != dtype or array.shape != shape or not array.flags.c_contiguous:
                raise ValueError(f"the engine's kernel takes a C-contiguous {dtype.__name__} {shape} array")
        a = [array.ctypes.data for array, _, _ in expected]
        words = np.array(
            [
                _signed(current0), _signed(mask0), width, height, connect, depth, a[0], len(candidates),
                a[1], len(weights.masks), a[2], a[3], _signed(weights.center_mask), *a[4:9], bits, gen,
                *a[9:], node_stop,
            ],
            dtype=np.int64,
        )  # fmt: skip
        numbers = np.array([weights.center, weights.cap], dtype=np.float64)
        return int(entry(words.ctypes.data, numbers.ctypes.data))

    return run


def _signed(bits: int | np.uint64) -> int:
    """The uint64 ``bits`` as the int64 of the same bits (a word of the entry point).

    >>> _signed(5), _signed(2**64 - 1)
    (5, -1)
    """
    value = int(bits)
    return value - (1 << 64) if value >= 1 << 63 else value


@functools.cache
def solver_kernel(width: int, height: int, connect: int) -> Kernel:
    """The search kernel of a geometry: from its own shared library when there is one, else from
    the library for every size, else numba's.

    A geometry whose numba kernel has its sizes compiled in
    (:data:`c4engine.kernels.SPECIALISED`) and has no library of its own
    gets one built for the processes that come after, in the background
    while the library for every size serves.  With no library at all (an
    install that could not build them, an edited working copy), the one
    this geometry needs is built first, by a process of its own
    (:func:`build_apart`); numba's kernel serves where that fails.  A
    compile to come is announced first
    (:func:`c4engine.kernels.announce_compile`).
    """
    kernel = load(width, height, connect)
    if kernel is not None:
        return kernel
    specialised = (width, height, connect) in SPECIALISED
    any_size = load_any_size(width, height, connect)
    if any_size is not None:
        if specialised and can_build(width, height, connect):
            build_in_background(geometry_name(width, height, connect))
        return any_size
    name = (
        geometry_name(width, height, connect)
        if specialised
        else ANY_SIZE
        if fits_64_bits(width, height)
        else WIDE
    )
    if can_build_named(name):
        announce_compile("compiling the solver into a library, once, about 30 s")
        if build_apart(name):
            kernel = load(width, height, connect) if specialised else load_any_size(width, height, connect)
            if kernel is not None:
                return kernel
    from c4engine.kernels.solve import is_compiled, kernel_for

    if not is_compiled(width, height, connect):  # about 25 CPU s for either kernel
        announce_compile("compiling the solver, once, about 30 s")
    return numba_caller(kernel_for(width, height, connect))


def numba_caller(kernel: Kernel) -> Kernel:
    """numba's ``kernel`` (:func:`c4engine.kernels.solve.kernel_for`) behind the signature the solver
    calls: the arguments' C arrays (:class:`c4engine.kernels.memory.CArray`) handed over as numpy
    arrays of the same memory, which is what numba takes."""
    import numpy as np

    from c4engine.kernels.layout import KernelArgs
    from c4engine.kernels.memory import CArray

    def call(args: KernelArgs) -> int:
        return int(kernel(KernelArgs._make(np.asarray(f) if isinstance(f, CArray) else f for f in args)))

    return call


def build_apart(name: str) -> bool:
    """Build library ``name`` (see :func:`c4engine.kernels.build.build_named`) into the cache folder
    in a process of its own, and wait for it; whether it was built.

    The compile's gigabyte of memory is then given back when it ends, and
    it starts from a shallow Python stack: numba's compile, deep in a
    command's calls, was seen to cross the edge of CPython 3.11's frame
    stack chunks over and over -- a chunk mapped and unmapped each time,
    12.9 million page faults, 86 s of system time (docs/benchmarks-log.md).
    """
    import subprocess

    command = [sys.executable, "-m", "c4engine.kernels.build", name]
    try:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, timeout=BUILD_PATIENCE)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def compiler() -> str | None:
    """The C compiler that links the library: ``$CC``, else ``cc``; None when there is none."""
    import shutil

    name = os.environ.get("CC", "cc").split()[0]
    return shutil.which(name)


def can_build(width: int, height: int, connect: int, folder: Path | None = None) -> bool:
    """Whether :func:`c4engine.kernels.build.build` would try: there is a C compiler, and no build
    of these sources for this geometry and CPU has failed before (a ``.failed`` file beside where
    the library goes)."""
    return can_build_named(geometry_name(width, height, connect), folder)


def can_build_named(name: str, folder: Path | None = None) -> bool:
    """:func:`can_build` for library ``name`` (see :func:`c4engine.kernels.build.build_named`)."""
    return compiler() is not None and not named_path(name, folder).with_suffix(".failed").exists()


def build_in_background(name: str) -> None:
    """Have a process of its own build library ``name`` into the cache folder, unless one is under
    way (a ``.building`` file younger than :data:`BUILD_PATIENCE` seconds): this one goes on."""
    import subprocess

    marker = named_path(name).with_suffix(".building")
    with contextlib.suppress(OSError):
        if time.time() - marker.stat().st_mtime < BUILD_PATIENCE:
            return
    with contextlib.suppress(OSError):
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
        subprocess.Popen(
            [sys.executable, "-m", "c4engine.kernels.build", name],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # it outlives this process's Ctrl-C
        )
