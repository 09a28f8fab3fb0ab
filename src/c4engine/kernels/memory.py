"""The memory the exact search works in, without numpy: :class:`CArray`, a zeroed C array at a fixed address.

A command that solves with the kernel's shared library (:mod:`c4engine.kernels.library`)
hands it addresses only; importing numpy for its arrays cost about half of such a
process's start-up (docs/benchmarks-log.md, "Start-up of a batch").  So the solver's arrays
-- the table, the stacks, a batch's positions and rows, the solve state -- are these:
a ``memoryview`` of the item type and shape over a ``bytearray`` (or, for a table, an
anonymous ``mmap``, whose pages the system zeroes as they are first touched), read and
written item by item from Python (``state[S_MIN]``, ``rows[p, R_SCORE]``).  numba's
kernel and the tests see the same memory as a numpy array (``numpy.asarray(carray)``,
no copy).

>>> rows = CArray((2, 3), INT64)
>>> rows[1, 2] = -5
>>> rows[1, 2], rows.tolist(), rows.nbytes
(-5, [[0, 0, 0], [0, 0, -5]], 48)
"""

from __future__ import annotations

import ctypes
import math
import mmap
from typing import TYPE_CHECKING, Any, Final, Literal, TypeAlias

if TYPE_CHECKING:
    import numpy as np

Kind: TypeAlias = Literal["Q", "q", "B"]
"""An item type, as ``struct`` and ``memoryview`` name it."""
UINT64: Final[Kind] = "Q"
INT64: Final[Kind] = "q"
UINT8: Final[Kind] = "B"

_ITEM_BYTES: Final[dict[Kind, int]] = {UINT64: 8, INT64: 8, UINT8: 1}

MMAP_FROM_BYTES: Final = 1 << 20
"""Arrays from this size on are anonymous mappings: zeroed lazily, page by page, by the system (a
``bytearray`` is zeroed, every page touched, when it is made), in large pages where the system
gives them on request."""


def _mapping(size: int) -> mmap.mmap:
    """``size`` bytes of anonymous memory, private where the system says so (POSIX): a shared
    mapping -- ``mmap``'s default -- is shared memory, which gets no large pages."""
    if hasattr(mmap, "MAP_PRIVATE"):
        return mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE)
    return mmap.mmap(-1, size)


class CArray:
    """Zeroed memory of ``shape`` items of ``kind`` (:data:`UINT64`, :data:`INT64`, :data:`UINT8`)
    at a fixed :attr:`address`, the C array a kernel takes.

    Items are read and written by index (a tuple on arrays of more than one dimension); a
    numpy array of the same memory is ``numpy.asarray(array)``.
    """

    __slots__ = ("_memory", "_view", "address", "kind", "shape")

    def __init__(self, shape: tuple[int, ...], kind: Kind) -> None:
        self.shape = shape
        """Items along each dimension."""
        self.kind = kind
        """The item type, as ``struct`` and ``memoryview`` name it."""
        size = math.prod(shape) * _ITEM_BYTES[kind]
        try:
            self._memory: bytearray | mmap.mmap = (
                _mapping(size) if size >= MMAP_FROM_BYTES else bytearray(max(size, 1))
            )
        except OSError as error:  # no memory to map: as a bytearray too large says
            raise MemoryError(f"no {size} bytes of memory: {error}") from None
        if isinstance(self._memory, mmap.mmap) and hasattr(mmap, "MADV_HUGEPAGE"):
            # large pages where the system gives them on request (as numpy asks for its large
            # arrays): the table's probes, spread over megabytes, miss the TLB far less often
            self._memory.madvise(mmap.MADV_HUGEPAGE)
        self._view: memoryview[int] = memoryview(self._memory)[:size].cast(kind, list(shape))
        self.address: int = ctypes.addressof(ctypes.c_char.from_buffer(self._memory))
        """Where the first item is (a mapping's start is a page's; a ``bytearray``'s, 16-byte aligned)."""

    @property
    def nbytes(self) -> int:
        """Bytes of the items."""
        return self._view.nbytes

    def __len__(self) -> int:
        return self.shape[0]

    def __getitem__(self, index: int | tuple[int, ...]) -> int:
        return self._view[index]

    def __setitem__(self, index: int | tuple[int, ...], value: int) -> None:
        self._view[index] = value

    def tolist(self) -> Any:
        """The items as (nested) lists of ints."""
        return self._view.tolist()

    def clear(self, start: int = 0, stop: int | None = None) -> None:
        """Zero items ``start`` to ``stop`` (default: all) of a one-dimensional array; every item of
        another."""
        item = _ITEM_BYTES[self.kind]
        end = self.nbytes if stop is None else stop * item
        ctypes.memset(self.address + start * item, 0, end - start * item)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        """The same memory as a numpy array (no copy): what numba's kernel and the tests take."""
        import numpy as np  # only where numpy is wanted: numba's kernel, the tests

        array = np.asarray(self._view)
        return array if dtype is None else array.astype(dtype, copy=False)
