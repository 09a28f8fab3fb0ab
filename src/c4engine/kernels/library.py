"""The search kernel as a shared library, so that a process can solve without importing numba.

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
kernel.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import hashlib
import os
import platform
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from c4engine.kernels import LIBRARY_PREFIX, SOURCE_DIGEST, announce_compile, cache_dir

if TYPE_CHECKING:  # for the types only: asking whether there is a library imports nothing big
    from c4engine.kernels.layout import KernelArgs

ENTRY = "c4_solve"

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
            return platform.machine() + "\n" + "\n".join(fields)
    return f"{platform.machine()} {platform.processor()} {platform.platform()}"


def library_path(width: int, height: int, connect: int, folder: Path | None = None) -> Path:
    """Where the library of this geometry is (or would be) kept."""
    key = hashlib.sha256(f"{SOURCE_DIGEST}\n{width}x{height}x{connect}\n{cpu_identity()}".encode())
    return (folder or cache_dir()) / f"{LIBRARY_PREFIX}{width}x{height}x{connect}-{key.hexdigest()[:16]}.so"


def has_library(width: int, height: int, connect: int) -> bool:
    """Whether the geometry's kernel has a shared library here (loading it is then a matter of
    milliseconds, where numba takes about half a second)."""
    return library_path(width, height, connect).is_file()


def load(width: int, height: int, connect: int, folder: Path | None = None) -> Kernel | None:
    """The geometry's kernel from its shared library, or None when there is none (or it will not load)."""
    path = library_path(width, height, connect, folder)
    if not path.is_file():
        return None
    try:
        entry = getattr(ctypes.CDLL(str(path)), ENTRY)
    except (OSError, AttributeError):
        return None
    entry.restype = ctypes.c_int64
    entry.argtypes = _ARGUMENTS
    return _caller(entry)


def _caller(entry: Callable[..., int]) -> Kernel:
    """The ctypes entry point behind the numba kernel's signature (packed arguments in, status out)."""
    import numpy as np  # only once a kernel is wanted

    from c4engine.kernels.layout import BUSY_BITS
    from c4engine.kernels.transposition import table_entries

    def kernel(args: KernelArgs) -> int:
        for array in (args.boards, args.rows):  # the others are the solver's own, made by kernels.layout
            if not array.flags.c_contiguous:
                raise ValueError("the kernel takes C-contiguous arrays")
        if args.busy.shape != (1 << BUSY_BITS,):
            raise ValueError(f"the busy marks have 2**{BUSY_BITS} slots, not {args.busy.shape}")
        if args.table.shape[0] != table_entries(args.bits, args.near_bits):
            raise ValueError(
                f"a table of 2**{args.bits} + 2**{args.near_bits} entries has {args.table.shape[0]}"
            )
        words = np.array([f.ctypes.data if isinstance(f, np.ndarray) else f for f in args], dtype=np.int64)
        return int(entry(words.ctypes.data, args.boards.shape[0]))

    return kernel


@functools.cache
def solver_kernel(width: int, height: int, connect: int) -> Kernel:
    """The search kernel of a geometry: from its shared library when there is one, else numba's.

    A geometry whose numba kernel has its sizes compiled in
    (:data:`c4engine.kernels.solve.SPECIALISED`) gets its library built
    here when it has none, for the processes that come after.  A compile to
    come is announced first (:func:`c4engine.kernels.announce_compile`).
    """
    kernel = load(width, height, connect)
    if kernel is not None:
        return kernel
    from c4engine.kernels.solve import SPECIALISED, is_compiled, kernel_for

    builds = (width, height, connect) in SPECIALISED and can_build(width, height, connect)
    if not is_compiled(width, height, connect):  # about 25 CPU s for either kernel, 3-5 more to build
        announce_compile("compiling the solver, once, about 30 s")
    elif builds:
        announce_compile("compiling the solver, once, about 5 s")
    if builds:
        build(width, height, connect)
    return kernel_for(width, height, connect)


def compiler() -> str | None:
    """The C compiler that links the library: ``$CC``, else ``cc``; None when there is none."""
    name = os.environ.get("CC", "cc").split()[0]
    return shutil.which(name)


def can_build(width: int, height: int, connect: int, folder: Path | None = None) -> bool:
    """Whether :func:`build` would try: there is a C compiler, and no build of these sources for
    this geometry and CPU has failed before (a ``.failed`` file beside where the library goes)."""
    failed = library_path(width, height, connect, folder).with_suffix(".failed")
    return compiler() is not None and not failed.exists()


def build(width: int, height: int, connect: int, folder: Path | None = None) -> Path | None:
    """Compile and link the geometry's library (imports numba); its path, or None where it cannot be made.

    Takes a few CPU seconds on top of the numba kernel's own compile (which
    is cached).  The file appears at once, complete or not at all, so
    processes building it side by side do no harm.  A build that fails
    (a compiler that cannot link, say) leaves a ``.failed`` file beside
    where the library would be, and is not tried again for these sources.
    """
    cc = compiler()
    if cc is None or not can_build(width, height, connect, folder):
        return None
    path = library_path(width, height, connect, folder)
    failed = path.with_suffix(".failed")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        obj = _object_code(width, height, connect)
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
    return path


def _object_code(width: int, height: int, connect: int) -> bytes:
    """The kernel's entry point as a position-independent object file for this CPU."""
    import llvmlite.binding as llvm  # type: ignore[import-untyped]
    import numpy as np
    from numba import carray, cfunc, types  # type: ignore[attr-defined]
    from numba.extending import intrinsic

    from c4engine.kernels.layout import (
        BUSY_BITS,
        I_SIZE,
        R_SIZE,
        S_SIZE,
        USTACK_SIZE,
        KernelArgs,
        stack_depth,
    )
    from c4engine.kernels.solve import kernel_for
    from c4engine.kernels.transposition import TABLE_HEADER

    c_pointer: Any = types.CPointer

    @intrinsic
    def as_pointer(typingctx, address, kind):  # type: ignore[no-untyped-def]
        """The int64 ``address`` as a pointer to values of numpy type ``kind``."""
        made = c_pointer(kind.instance_type)

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            return builder.inttoptr(args[0], context.get_value_type(made))

        return made(address, kind), codegen

    pointer: Any = as_pointer  # typed by numba at the call

    kernel = kernel_for(width, height, connect)
    depth = stack_depth(width, height)
    u64, i64, u8 = np.uint64, np.int64, np.uint8
    fields = len(KernelArgs._fields)
    signature = types.int64(c_pointer(types.int64), types.int64)

    @cfunc(signature)
    def entry(words, count):  # type: ignore[no-untyped-def]
        w = carray(words, (fields,))
        # transposition.table_entries(bits, near_bits), spelled out for numba
        entries = (1 << w[4]) + ((1 << w[5]) if w[5] else 0) + TABLE_HEADER
        return kernel(
            KernelArgs(  # each field from its word, in KernelArgs' order, an array with its shape
                carray(pointer(w[0], u64), (count, 2)),
                carray(pointer(w[1], i64), (count, R_SIZE)),
                carray(pointer(w[2], i64), (S_SIZE,)),
                carray(pointer(w[3], u64), (entries,)),
                w[4],
                w[5],
                w[6],
                w[7],
                w[8],
                carray(pointer(w[9], u8), (1,)),
                carray(pointer(w[10], u64), (depth, USTACK_SIZE)),
                carray(pointer(w[11], i64), (depth, I_SIZE)),
                carray(pointer(w[12], u64), (depth, width)),
                carray(pointer(w[13], i64), (depth, width)),
                carray(pointer(w[14], u64), (depth, width)),
                carray(pointer(w[15], i64), (width,)),
                carray(pointer(w[16], u64), (width,)),
                carray(pointer(w[17], u64), (1 << BUSY_BITS,)),
                w[18],
            )
        )

    inner = entry.native_name.removeprefix("cfunc.")
    kinds = ["i64" if kind == types.int64 else "ptr" for kind in signature.args]
    code = _without_function(entry.inspect_llvm(), entry.native_name) + _c_entry(inner, kinds)
    code = _never_called(code, "NRT_MemInfo_call_dtor")
    dispatcher: Any = kernel  # numba's, compiled for the entry's types by now
    search = next(iter(dispatcher.overloads.values())).fndesc.mangled_name
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
    (docs/benchmarks.md).  ``code`` is returned as it is when the
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


def _c_entry(inner: str, kinds: list[str]) -> str:
    """LLVM IR of :data:`ENTRY`: numba's function ``inner`` called the C way (-1 if it ever failed)."""
    arguments = ", ".join(f"{kind} %a{i}" for i, kind in enumerate(kinds))  # passed on as they came
    return f"""
define i64 @{ENTRY}({arguments}) {{
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
