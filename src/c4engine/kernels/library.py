"""The kernels as shared libraries, so that a process can search without importing numba.

numba caches the compiled kernel on disk, but a process still pays for
importing numba and loading that cache: about half a CPU second before its
first node, which is most of the time of a command solving a few positions.
So :func:`build` wraps the compiled kernel of a geometry in a C entry point
(a numba ``cfunc`` on raw pointers), has LLVM emit it as position-independent
machine code for this CPU -- the same code numba runs -- and links it with the
system's C compiler into a shared library beside numba's cache; later
processes :func:`load` it with ctypes in a few milliseconds.  The file name
carries a digest of the kernel sources, the geometry and the CPU, so an edit
or another machine gets a library of its own.  Where there is no C compiler
or the cache folder is read-only, there is no library and numba serves.

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
time: the solver's (:data:`ANY_SIZE`, the same entry point, three more
words: width, height, connect) and the heuristic engine's
(:data:`ENGINE`, :func:`c4engine.kernels.heuristic.run`)::

    int64 c4_engine(const int64 *words, const double *numbers)

Installing the package builds them (``setup.py`` runs :func:`main`: all of
:data:`SHIPPED_NAMES`) into ``kernels/compiled`` (:data:`SHIPPED`), which
:func:`find` looks in before the cache folder: the first answer after an
install compiles nothing.  Each build runs in a process of its own, never
inside a command (:func:`build_apart`, :func:`build_in_background`).
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

# platform, shutil, subprocess and tempfile are imported where a build (or a CPU without
# /proc/cpuinfo) needs them: a process that only loads a library never does (their imports
# were a tenth of a batch's start-up, docs/benchmarks-log.md "Start-up of a batch, a second round").
from c4engine.kernels import LIBRARY_PREFIX, SOURCE_DIGEST, SPECIALISED, announce_compile, cache_dir, sha256

if TYPE_CHECKING:  # for the types only: asking whether there is a library imports nothing big
    import numpy as np

    from c4engine.kernels.layout import KernelArgs

ENTRY = "c4_solve"
ENGINE_ENTRY = "c4_engine"

SHIPPED = Path(__file__).resolve().parent / "compiled"
"""Where an install puts the libraries it built (package data; :data:`SHIPPED_NAMES`)."""

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


def is_wide(width: int, height: int) -> bool:
    """Whether a board of this size takes the solver's 128-bit words (:func:`c4engine.kernels.layout.is_wide`,
    without importing numpy)."""
    return width * (height + 1) > 64


def has_library(width: int, height: int, connect: int) -> bool:
    """Whether the geometry's solver has a shared library here, its own or the one for every size
    (loading it is then a matter of milliseconds, where numba takes about half a second)."""
    if is_wide(width, height):
        return find(WIDE) is not None
    return any(find(name) is not None for name in (geometry_name(width, height, connect), ANY_SIZE))


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
    return None if entry is None else _caller(entry, (), 1)


def load_any_size(width: int, height: int, connect: int, folder: Path | None = None) -> Kernel | None:
    """The geometry's kernel from the library for every size (:data:`ANY_SIZE`, or :data:`WIDE` for a
    board past 64 bits), or None."""
    wide = is_wide(width, height)
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

    from c4engine.kernels.engine_layout import S_SIZE, Weights, plies

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
        geometry_name(width, height, connect) if specialised else WIDE if is_wide(width, height) else ANY_SIZE
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
    """Build library ``name`` (see :func:`build_named`) into the cache folder in a process of its
    own, and wait for it; whether it was built.

    The compile's gigabyte of memory is then given back when it ends, and
    it starts from a shallow Python stack: numba's compile, deep in a
    command's calls, was seen to cross the edge of CPython 3.11's frame
    stack chunks over and over -- a chunk mapped and unmapped each time,
    12.9 million page faults, 86 s of system time (docs/benchmarks-log.md).
    """
    import subprocess

    command = [sys.executable, "-m", "c4engine.kernels.library", name]
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
    """Whether :func:`build` would try: there is a C compiler, and no build of these sources for
    this geometry and CPU has failed before (a ``.failed`` file beside where the library goes)."""
    return can_build_named(geometry_name(width, height, connect), folder)


def can_build_named(name: str, folder: Path | None = None) -> bool:
    """:func:`can_build` for library ``name`` (see :func:`build_named`)."""
    return compiler() is not None and not named_path(name, folder).with_suffix(".failed").exists()


def build(width: int, height: int, connect: int, folder: Path | None = None) -> Path | None:
    """Compile and link the geometry's library (imports numba); its path, or None where it cannot be made.

    Takes a few CPU seconds on top of the numba kernel's own compile (which
    is cached).  The file appears at once, complete or not at all, so
    processes building it side by side do no harm.  A build that fails
    (a compiler that cannot link, say) leaves a ``.failed`` file beside
    where the library would be, and is not tried again for these sources.
    """
    return _build(geometry_name(width, height, connect), lambda: _object_code(width, height, connect), folder)


def build_named(name: str, folder: Path | None = None) -> Path | None:
    """:func:`build` for library ``name``: a geometry's (``"7x6x4"``), :data:`ANY_SIZE` or :data:`ENGINE`."""
    if name in (ANY_SIZE, WIDE):
        return _build(name, lambda: _any_size_object_code(name == WIDE), folder)
    if name == ENGINE:
        return _build(name, _engine_object_code, folder)
    width, height, connect = (int(size) for size in name.split("x"))
    return build(width, height, connect, folder)


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
            [sys.executable, "-m", "c4engine.kernels.library", name],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # it outlives this process's Ctrl-C
        )


def _build(name: str, object_code: Callable[[], bytes], folder: Path | None) -> Path | None:
    import subprocess
    import tempfile

    cc = compiler()
    if cc is None or not can_build_named(name, folder):
        return None
    path = named_path(name, folder)
    failed = path.with_suffix(".failed")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        obj = object_code()
        with tempfile.TemporaryDirectory(dir=path.parent) as scratch:
            source = Path(scratch) / "kernel.o"
            source.write_bytes(obj)
            linked = Path(scratch) / path.name
            # every symbol resolved now: a library that would need numba's runtime is refused here
            link = [cc, "-shared", "-Wl,--no-undefined", "-o", str(linked), str(source)]
            subprocess.run(link, check=True, capture_output=True, timeout=300)
            os.replace(linked, path)
    except (OSError, subprocess.SubprocessError):
        with contextlib.suppress(OSError):
            failed.touch()
        return None
    finally:
        with contextlib.suppress(OSError):
            path.with_suffix(".building").unlink(missing_ok=True)
    return path


SHIPPED_NAMES = (ENGINE, ANY_SIZE, WIDE, *(geometry_name(*geometry) for geometry in sorted(SPECIALISED)))
"""The libraries an install builds: the engine's, the solver's for every size (up to 64 bits, and
past them) and for each geometry of :data:`c4engine.kernels.SPECIALISED`."""


def build_shipped(
    folder: Path, say: Callable[[str], None] = print, names: tuple[str, ...] = SHIPPED_NAMES
) -> list[Path]:
    """Build libraries ``names`` (:func:`build_named`), those an install ships by default, into
    ``folder``; what was built.

    ``say`` is told of each, and of each that could not be built (the
    package then compiles it on first use, as without this step).
    """
    made = []
    for name in names:
        began = time.perf_counter()
        path = build_named(name, folder)
        if path is None:
            say(f"could not build the {name} kernel library (it compiles on first use instead)")
        else:
            seconds = time.perf_counter() - began
            say(f"built the {name} kernel library in {seconds:.0f} s: {path.name}")
            made.append(path)
    return made


def _numba_tools() -> tuple[Any, Any, Any, Any]:
    """numba's ``carray``, ``cfunc`` and ``types``, and an intrinsic ``pointer(address, dtype)``:
    the int64 ``address`` as a pointer to values of numpy type ``dtype``."""
    from numba import carray, cfunc, types  # type: ignore[attr-defined]
    from numba.extending import intrinsic

    c_pointer: Any = types.CPointer

    @intrinsic
    def as_pointer(typingctx, address, kind):  # type: ignore[no-untyped-def]
        made = c_pointer(kind.instance_type)

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            return builder.inttoptr(args[0], context.get_value_type(made))

        return made(address, kind), codegen

    return carray, cfunc, types, as_pointer


def _solver_entry(width: int, height: int, connect: int, wide: bool = False) -> tuple[Any, Any]:
    """The solver's C entry point (a numba ``cfunc``) and the numba kernel it calls: with the
    geometry's sizes compiled in, or, for width 0, the sizes in three more words (``wide``: for
    the boards past 64 bits, whose words take two uint64)."""
    import numpy as np

    from c4engine.kernels.layout import BUSY_BITS, I_SIZE, R_SIZE, S_SIZE, USTACK_SIZE, KernelArgs
    from c4engine.kernels.solve import _generic_kernel, kernel_for
    from c4engine.kernels.transposition import TABLE_HEADER

    carray, cfunc, types, pointer = _numba_tools()
    from numba import njit

    u64, i64, u8 = np.uint64, np.int64, np.uint8
    fields = len(KernelArgs._fields)
    signature = types.int64(types.CPointer(types.int64), types.int64)

    def unpacker(word: tuple[int, ...]) -> Any:
        """A compiled ``unpack(w, count, width, height)``: the kernel's arguments from their words,
        each array with its shape, on boards whose words have shape ``word`` -- ``()`` up to 64
        bits, ``(2,)`` past them, where a word and a table entry take two uint64."""
        entry_words = 2 if word else 1

        @njit(inline="always")
        def unpack(w, count, width, height):  # type: ignore[no-untyped-def]
            depth = width * height + 2  # layout.stack_depth, spelled out for numba
            # transposition.table_entries(bits, near_bits), likewise
            entries = (entry_words << w[4]) + ((entry_words << w[5]) if w[5] else 0) + TABLE_HEADER
            return KernelArgs(  # in KernelArgs' order
                carray(pointer(w[0], u64), (count, 2, *word)),
                carray(pointer(w[1], i64), (count, R_SIZE)),
                carray(pointer(w[2], i64), (S_SIZE,)),
                carray(pointer(w[3], u64), (entries,)),
                w[4],
                w[5],
                w[6],
                w[7],
                w[8],
                carray(pointer(w[9], u8), (1,)),
                carray(pointer(w[10], u64), (depth, USTACK_SIZE, *word)),
                carray(pointer(w[11], i64), (depth, I_SIZE)),
                carray(pointer(w[12], u64), (depth, width, *word)),
                carray(pointer(w[13], i64), (depth, width)),
                carray(pointer(w[14], u64), (depth, width, *word)),
                carray(pointer(w[15], i64), (width,)),
                carray(pointer(w[16], u64), (width, *word)),
                carray(pointer(w[17], u64), (1 << BUSY_BITS, *word)),
                w[18],
            )

        return unpack

    if width == 0:
        unpack_any = unpacker((2,) if wide else ())

        @cfunc(signature)
        def any_size(words, count):  # type: ignore[no-untyped-def]
            w = carray(words, (fields + 3,))
            width, height, connect = w[fields], w[fields + 1], w[fields + 2]
            return _generic_kernel(unpack_any(w, count, width, height), width, height, connect)

        return any_size, _generic_kernel

    unpack = unpacker(())

    kernel = kernel_for(width, height, connect)

    @cfunc(signature)
    def entry(words, count):  # type: ignore[no-untyped-def]
        return kernel(unpack(carray(words, (fields,)), count, width, height))  # the sizes: constants

    return entry, kernel


def _object_code(width: int, height: int, connect: int) -> bytes:
    """The geometry's kernel's entry point as a position-independent object file for this CPU."""
    return _emitted(*_solver_entry(width, height, connect), ENTRY)


def _any_size_object_code(wide: bool) -> bytes:
    """The entry point of the solver for every size (:data:`ANY_SIZE`; :data:`WIDE` past 64 bits) as an
    object file."""
    return _emitted(*_solver_entry(0, 0, 0, wide), ENTRY)


def _engine_object_code() -> bytes:
    """The engine's entry point (:data:`ENGINE`, :func:`load_engine` packs its words) as an object file."""
    import numpy as np

    from c4engine.kernels.engine_layout import S_SIZE, Weights
    from c4engine.kernels.heuristic import run

    carray, cfunc, types, pointer = _numba_tools()
    u64, i64, f64 = np.uint64, np.int64, np.float64
    signature = types.int64(types.CPointer(types.int64), types.CPointer(types.float64))

    @cfunc(signature)
    def entry(words, numbers):  # type: ignore[no-untyped-def]
        w = carray(words, (29,))
        f = carray(numbers, (2,))
        width, height, connect = w[2], w[3], w[4]
        rows = width * height + 2  # engine_layout.plies, spelled out for numba
        size = 1 << w[18]
        weights = Weights(
            carray(pointer(w[8], u64), (w[9],)),
            carray(pointer(w[10], f64), (connect + 1,)),
            carray(pointer(w[11], f64), (connect + 1,)),
            f[0],
            u64(w[12]),
            f[1],
        )
        return run(
            u64(w[0]), u64(w[1]), width, height, connect, w[5], carray(pointer(w[6], i64), (w[7],)),
            weights, carray(pointer(w[13], u64), (size,)), carray(pointer(w[14], f64), (size,)),
            carray(pointer(w[15], f64), (size,)), carray(pointer(w[16], i64), (size,)),
            carray(pointer(w[17], i64), (size,)), w[18], w[19],
            carray(pointer(w[20], u64), (rows, 2)), carray(pointer(w[21], f64), (rows, 4)),
            carray(pointer(w[22], i64), (rows, 3)), carray(pointer(w[23], i64), (rows, width)),
            carray(pointer(w[24], i64), (rows, rows)), carray(pointer(w[25], i64), (rows,)),
            carray(pointer(w[26], i64), (S_SIZE,)), carray(pointer(w[27], f64), (1,)), w[28],
        )  # fmt: skip

    return _emitted(entry, run, ENGINE_ENTRY)


def _emitted(entry: Any, dispatcher: Any, name: str) -> bytes:
    """numba's ``cfunc`` ``entry`` as C function ``name`` in an object file for this CPU, the numba
    function ``dispatcher`` it calls (compiled for the entry's types by now) inlined into it."""
    import llvmlite.binding as llvm  # type: ignore[import-untyped]

    inner = entry.native_name.removeprefix("cfunc.")
    kinds = ["i64" if kind is ctypes.c_int64 else "ptr" for kind in entry.ctypes.argtypes]
    code = _without_function(entry.inspect_llvm(), entry.native_name) + _c_entry(name, inner, kinds)
    code = _never_called(code, "NRT_MemInfo_call_dtor")
    # the dispatcher's overload the entry calls (the solver's has one for 64-bit words, one for 128)
    searches = [overload.fndesc.mangled_name for overload in dispatcher.overloads.values()]
    search = next((name for name in searches if name in code), searches[0])
    module = llvm.parse_assembly(_inlined(code, search))
    module.verify()
    machine = llvm.Target.from_default_triple().create_target_machine(
        cpu=llvm.get_host_cpu_name(),
        features=llvm.get_host_cpu_features().flatten(),
        opt=3,
        reloc="pic",
        codemodel="default",
    )
    if hasattr(llvm, "create_pass_builder"):  # llvmlite 0.44 on: LLVM's O3 pipeline, for the inlining
        options = llvm.create_pipeline_tuning_options(speed_level=3)
        options.slp_vectorization = True  # the move ranking's threats, four columns at once (kernels.moves)
        builder = llvm.create_pass_builder(machine, options)
        builder.getModulePassManager().run(module, builder)
    return bytes(machine.emit_object(module))


def _inlined(code: str, name: str) -> str:
    """LLVM IR ``code`` with function ``name``, the search, marked to be inlined into the entry.

    Inside the entry the arrays' shapes are constants, so the search's
    index arithmetic folds, and its values stay in registers instead of
    crossing a call: 5-11 % less time in the set-by-set comparisons
    (docs/benchmarks-log.md).  ``code`` is returned as it is when the
    definition does not look as expected.
    """
    definition = re.search(rf'^define [^\n]*@"?{re.escape(name)}"?\(', code, re.MULTILINE)
    if definition is None:
        return code
    start = definition.start()
    end = code.index("\n", start)
    line = code[start:end]
    if not line.endswith(" {") or "noinline" in line:
        return code
    return code[:start] + line[:-1] + "alwaysinline {" + code[end:]


def _without_function(code: str, name: str) -> str:
    """LLVM IR ``code`` without the definition of function ``name``.

    It drops numba's own C wrapper, which turns an exception of the kernel
    into a Python one through numba's runtime (not loaded without numba);
    the kernel raises none.
    """
    start = code.index(f"@{name}(")
    start = code.rindex("\ndefine ", 0, start) + 1
    end = code.index("\n}\n", start) + 3
    return code[:start] + code[end:]


def _c_entry(name: str, inner: str, kinds: list[str]) -> str:
    """LLVM IR of C function ``name``: numba's function ``inner`` called the C way (-1 if it ever failed)."""
    arguments = ", ".join(f"{kind} %a{i}" for i, kind in enumerate(kinds))  # passed on as they came
    return f"""
define i64 @{name}({arguments}) {{
  %result = alloca i64
  %error = alloca ptr
  store i64 0, ptr %result
  %status = call i32 @{inner}(ptr %result, ptr %error, {arguments})
  %ok = icmp eq i32 %status, 0
  %value = load i64, ptr %result
  %answer = select i1 %ok, i64 %value, i64 -1
  ret i64 %answer
}}
"""


def _never_called(code: str, name: str) -> str:
    """``code`` with the external function ``name`` defined as a trap.

    numba's reference counting calls ``NRT_MemInfo_call_dtor`` when an
    array's count drops to zero; the kernel's arrays are views of the
    caller's memory with no count at all, so it never runs.
    """
    declaration = re.search(rf"^declare [^@\n]*@{name}\(([^)]*)\)[^\n]*$", code, re.MULTILINE)
    if declaration is None:
        return code
    parameters = ", ".join(f"{kind.split()[0]} %p{i}" for i, kind in enumerate(declaration[1].split(",")))
    trap = f"define void @{name}({parameters}) {{\n  call void @llvm.trap()\n  unreachable\n}}\n"
    trap += "declare void @llvm.trap()\n"
    return code[: declaration.start()] + trap + code[declaration.end() :]


def main(arguments: list[str]) -> int:
    """``python -m c4engine.kernels.library [NAME...] [--into FOLDER]``: build libraries ``NAME``
    (see :func:`build_named`; all of :data:`SHIPPED_NAMES` if none) into ``FOLDER`` (the cache
    folder if not given), a line for each; 1 if one could not be built."""
    folder = None
    if "--into" in arguments:
        at = arguments.index("--into")
        folder = Path(arguments[at + 1])
        arguments = arguments[:at] + arguments[at + 2 :]
    names = tuple(arguments) or SHIPPED_NAMES
    return 0 if len(build_shipped(folder or cache_dir(), names=names)) == len(names) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
