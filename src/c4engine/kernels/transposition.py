"""The exact solver's transposition table as an object: one owner, :class:`Table`, of its array, parts,
sizes and growth, and of every operation on its slots outside the compiled kernels (reset, growth
held while threads share it: :meth:`Table.hold_growth`).

This module is what Python holds and sizes; the compiled code that
hashes, probes, stores and grows a part, which the search kernels inline,
is :mod:`c4engine.kernels.table`, and an entry's bit layout is
:mod:`c4engine.kernels.entry`.

A table is one uint64 array in two parts; three words after them tell how
much of each part is in use and whether a search may grow them::

    table:  [ main part: 2**bits entries     | near-end: 2**near_bits   | live | near live | held ]
             positions before near_from       near_from stones or more
             stones

The main part holds the positions with many empty cells; the near-end
part (none when ``near_bits`` is 0) those with at most
:data:`NEAR_EMPTIES`.  Near-end positions are most of a search's nodes and
each is cheap to search again; in a part of their own, small enough to
stay in the processor's cache (8 MiB), their probes rarely wait on memory,
and their flood does not overwrite the costly positions of the main part.

A part is used from its first ``2**live`` entries only, ``2**START_BITS``
(512 KiB) at first, and doubles once a position's search has taken a few
times more nodes than it has entries, 4 for the main part and 16 for the
near-end one (:data:`GROWTH_SHIFT`, :data:`NEAR_GROWTH_SHIFT`): a
search of a few thousand nodes then finds its entries in the processor's
cache instead of waiting on memory for each new position spread over 64
MiB (docs/benchmarks-log.md: half the time on the begin-easy set), while a
long search soon has the whole table.  While threads share the table
(:mod:`c4engine.search.solver.threads`) no kernel call grows it (``held``):
growing moves every entry under the others' feet, so the race grows it
itself, with its threads paused (:meth:`Table.growth_due`).

Nothing here imports numba or numpy, nor ctypes until a table is made: the
command line reads the sizes (:data:`DEFAULT_TABLE_MB`, :func:`check_table_mb`)
without them; the table is a :class:`~c4engine.kernels.memory.CArray` (an
anonymous mapping, zeroed by the system page by page as the search first
touches it).
"""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, Final

from c4engine.errors import TableSizeError
from c4engine.kernels.entry import DATA_BITS

if TYPE_CHECKING:
    from c4engine.kernels.memory import CArray

ENTRY_BYTES: Final = 8
"""Bytes of a table entry (one uint64) on a board of at most 64 bits; past that an entry takes
two words (:meth:`Table.use_entry_words`)."""
MIN_TABLE_BITS: Final = 20
"""The smallest transposition table: ``2**20`` entries (8 MiB)."""
NEAR_TABLE_BITS: Final = 20
"""The near-end part of a table that has one: ``2**20`` entries, 8 MiB, which a processor's
last-level cache holds."""
TABLE_HEADER: Final = 3
"""Words after a table's parts: the sizes of its parts in use (``2**live`` entries each; 0 before
the first search), then 1 while no kernel call may grow them (:meth:`Table.hold_growth`)."""
START_BITS: Final = 16
"""A part starts at ``2**16`` entries (512 KiB) and grows as a search needs."""
GROWTH_SHIFT: Final = 2
"""A main part of ``2**live`` entries doubles once one position's search passes ``2**(live + 2)`` nodes."""
NEAR_GROWTH_SHIFT: Final = 4
"""A near-end part of ``2**live`` entries doubles once a position's search passes ``2**(live + 4)`` nodes.

Late: each of its entries is cheap to search again, and a part beyond a core's own cache (1 MiB)
makes its many probes wait on memory -- on Test_L1_R2's first 20 positions the near-end part at 2 MiB
instead of 8 MiB took 2.5 % more nodes and about a fifth less search CPU (docs/benchmarks-log.md, "The
table's footprint")."""
NEAR_EMPTIES: Final = 14
"""Positions with at most this many empty cells go to the table's near-end part.

Most nodes are that near the end; in 8 MiB of their own they stay in the
processor's cache (docs/benchmarks-log.md: against one 64 MiB part, about a
fifth less time from the same number of nodes)."""

DEFAULT_TABLE_MB: Final = 72
"""The solver's default table memory, in MiB: a main part of 64 and a near-end part of 8."""
MIN_TABLE_MB: Final = (ENTRY_BYTES << MIN_TABLE_BITS) >> 20
"""The smallest table the solver takes, in MiB: ``2**MIN_TABLE_BITS`` entries of 8 bytes."""


def _physical_memory_mb() -> float | None:
    """The machine's physical memory in MiB, or None where the system does not tell."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20
    except (AttributeError, ValueError, OSError):  # no sysconf, or not these names (not POSIX)
        return None


def check_table_mb(table_size_mb: float) -> float:
    """``table_size_mb`` if a solver can have a table that size, else :class:`TableSizeError`.

    A table larger than the machine's physical memory is refused before
    anything is allocated (it could only swap, or fail part-way).

    >>> check_table_mb(8)
    8
    >>> check_table_mb(float("nan"))
    Traceback (most recent call last):
    ...
    c4engine.errors.TableSizeError: the table size must be a number of MB, not nan
    """
    if not math.isfinite(table_size_mb):
        raise TableSizeError(f"the table size must be a number of MB, not {table_size_mb}")
    memory = _physical_memory_mb()
    allowed = f"{MIN_TABLE_MB}..{int(memory)} MB" if memory else f"at least {MIN_TABLE_MB} MB"
    if table_size_mb < MIN_TABLE_MB:
        raise TableSizeError(f"a table of {table_size_mb:g} MB is too small: use {allowed}")
    if memory is not None and table_size_mb > memory:
        raise TableSizeError(
            f"a table of {table_size_mb:g} MB is more than this machine's memory: use {allowed}"
        )
    return table_size_mb


def table_parts(entries: int) -> tuple[int, int]:
    """``(bits, near_bits)`` of the largest table within ``entries``: from ``3 * 2**NEAR_TABLE_BITS``
    entries on, a near-end part of ``2**NEAR_TABLE_BITS`` and a main part of the largest power of
    two in the rest; below that, one part (``near_bits`` 0).

    >>> table_parts(72 * 2**20 // ENTRY_BYTES), table_parts(23 * 2**20 // ENTRY_BYTES)
    ((23, 20), (21, 0))
    """
    near_bits = NEAR_TABLE_BITS if entries >= 3 << NEAR_TABLE_BITS else 0
    near_entries = 1 << near_bits if near_bits else 0
    return (entries - near_entries).bit_length() - 1, near_bits


def table_entries(bits: int, near_bits: int) -> int:
    """Entries of a table whose main part has ``2**bits`` and near-end part ``2**near_bits`` (0: none),
    its header included."""
    return (1 << bits) + ((1 << near_bits) if near_bits else 0) + TABLE_HEADER


class Table:
    """A transposition table: its array, the sizes of its two parts, and how much of them is in use.

    ``Table(megabytes)`` is the largest table within that memory (see
    :func:`table_parts`): from 24 MiB on, a near-end part of 8 MiB and a
    main part, the largest power of two in the rest; below that, one part
    (at least 8 MiB).  The default, :data:`DEFAULT_TABLE_MB`, is 64 + 8 MiB.
    ``near_empties`` says which positions go to the near-end part (see
    :meth:`near_from`).

    >>> table = Table(24)
    >>> table.bits, table.near_bits, table.bytes // 2**20, table.bytes_in_use
    (21, 20, 24, 0)
    """

    def __init__(self, megabytes: float = DEFAULT_TABLE_MB, near_empties: int = NEAR_EMPTIES) -> None:
        entries = int(check_table_mb(megabytes) * 2**20) // ENTRY_BYTES
        bits, near_bits = table_parts(entries)
        try:
            self._init(bits, near_bits, near_empties)
        except MemoryError:
            raise TableSizeError(f"no {megabytes:g} MB of free memory for the table: ask for less") from None

    @classmethod
    def with_parts(cls, bits: int, near_bits: int = 0, near_empties: int = NEAR_EMPTIES) -> Table:
        """A table whose main part has ``2**bits`` entries and near-end part ``2**near_bits`` (0: none).

        >>> Table.with_parts(20, 18).entries == 2**20 + 2**18 + TABLE_HEADER
        True
        """
        if bits < MIN_TABLE_BITS:
            raise ValueError(f"table needs at least 2**{MIN_TABLE_BITS} entries")
        if near_bits and not 1 < near_bits <= bits:
            raise ValueError(f"a near-end part of 2**{near_bits} entries beside 2**{bits}")
        table = cls.__new__(cls)
        table._init(bits, near_bits, near_empties)
        return table

    def _init(self, bits: int, near_bits: int, near_empties: int) -> None:
        from c4engine.kernels.memory import UINT64, CArray  # ctypes only once a table is made

        self.bits = bits
        """The main part's size: ``2**bits`` entries."""
        self.near_bits = near_bits
        """The near-end part's size: ``2**near_bits`` entries, none when 0."""
        self.near_empties = near_empties
        # a mapping of its own, page-aligned: two-word entries (16 bytes) are read whole
        self.array: CArray = CArray((table_entries(bits, near_bits),), UINT64)
        """The entries, the parts one after the other, then the header (what the kernel takes)."""
        self.entry_words = 1
        """uint64 words an entry takes: 1, or 2 on boards past 64 bits (:meth:`use_entry_words`)."""

    @property
    def entries(self) -> int:
        """Entries of the array, its header included."""
        return self.array.shape[0]

    @property
    def bytes(self) -> int:
        """Memory of the table, in bytes."""
        return self.array.nbytes

    @property
    def entries_in_use(self) -> int:
        """How many entries the searches use so far (0 before the first): each part starts at
        ``2**START_BITS`` and doubles as a search needs."""
        header = self.entries - TABLE_HEADER
        return sum(1 << live for live in (self.array[header], self.array[header + 1]) if live)

    @property
    def bytes_in_use(self) -> int:
        """Memory the searches have used so far, up to :attr:`bytes`."""
        return self.entries_in_use * ENTRY_BYTES * self.entry_words

    def use_entry_words(self, words: int) -> None:
        """Have entries of ``words`` uint64 (1, or 2 for a board past 64 bits): the same memory in
        half as many entries; the table is cleared when this changes."""
        if words != self.entry_words:
            self.reset()
            self.entry_words = words

    def entry_parts(self, board_bits: int) -> tuple[int, int, bool]:
        """``(bits, near_bits, near_used)``: the parts' sizes in entries (``2**bits`` and
        ``2**near_bits``, 0: none) for a board of ``board_bits`` (its width times its height + 1), with
        the entries of :attr:`entry_words`, and whether the near-end part is used.

        A part must leave an entry room for the bits of the key its bucket does not tell and the
        data (:mod:`c4engine.kernels.table`): a near-end part too small for that is not used (every
        position goes to the main one: only on boards of 128 bits with an 8 MiB near-end part),
        and a main part too small is refused.
        """
        fewer = self.entry_words.bit_length() - 1
        bits = self.bits - fewer
        near_bits = self.near_bits - fewer if self.near_bits else 0
        key_bits = max(board_bits, bits)
        least = key_bits - (64 * self.entry_words - DATA_BITS) + 1
        if bits < least:
            need = (ENTRY_BYTES * self.entry_words << least) >> 20
            raise TableSizeError(f"a board of {board_bits} bits needs a table of at least {need} MB")
        return bits, near_bits, near_bits > 0 and least <= near_bits

    def near_from(self, cells: int) -> int:
        """Stones from which a position of a board of ``cells`` goes to the near-end part."""
        return cells - self.near_empties

    def reset(self) -> None:
        """Forget every entry; the parts start small again."""
        self.array.clear()

    def hold_growth(self, held: bool) -> None:
        """Have no kernel call grow the table (``held``), or let them again: while threads share it
        (growing a part moves every entry under the others' feet), the threads' owner grows it
        between their calls (:meth:`growth_due`)."""
        self.array[self.entries - 1] = 1 if held else 0

    def growth_due(self, bits: int, near_bits: int, nodes: int) -> bool:
        """Whether a search of ``nodes`` nodes would have doubled a part by now, its parts being of
        ``2**bits`` and ``2**near_bits`` entries (the kernel's arguments; no near-end part when 0):
        the kernel's own rule (``kernels.table.growth_nodes``, restated here: this module imports no
        numba), for a search whose kernel calls may not grow the table themselves
        (:meth:`hold_growth`).

        >>> table = Table.with_parts(20, 18)
        >>> table.array[table.entries - 3] = table.array[table.entries - 2] = 16  # as they start
        >>> table.growth_due(20, 18, 2**18 - 1), table.growth_due(20, 18, 2**18)
        (False, True)
        """
        header = self.entries - TABLE_HEADER
        parts = [(int(self.array[header]), bits, GROWTH_SHIFT)]
        if near_bits:
            parts.append((int(self.array[header + 1]), near_bits, NEAR_GROWTH_SHIFT))
        return any(0 < live < part_bits and nodes >= 1 << (live + shift) for live, part_bits, shift in parts)
