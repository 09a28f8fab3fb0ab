"""The arrays the exact search works on, made and read from Python without numba.

The solver hands the search kernel (compiled by numba, or loaded from the
shared library :mod:`c4engine.kernels.library` builds) plain numpy arrays;
this module names their columns and makes them, so that a process whose
kernel comes from the library never imports numba.

Solve state, ``state[S_*]`` (int64): the score window ``[S_MIN, S_MAX]``
the null-window searches narrow, where the explicit stack stands, nodes
so far, the best root move proved, and which position of a batch is under
way.  A batch of positions: ``boards[p] = (current, mask)`` (uint64) and
``rows[p, R_*]`` (int64: stones and window in; score, nodes, best move
out).  Search stack, per ply ``d``::

    ustack[d] = current, mask, scrambled key, moves not yet ranked  (uint64)
    istack[d] = alpha, beta, moves, next, alpha0, nodes0, mirrored  (int64)
    moves[d, i], columns[d, i], mthreats[d, i]: ordered moves (see kernels.moves)

plus two rows of scratch, one entry a column: the move scores being
ranked, and the table keys of the children the cutoff looks up.
"""

from __future__ import annotations

from typing import Final

import numpy as np

# state[] indices
S_PHASE = 0
S_MIN = 1
S_MAX = 2
S_MED = 3
S_DEPTH = 4
S_ENTER = 5
S_RET = 6
S_NODES = 7
S_ROOT_MOVE = 8  # a root move proved to score at least state[S_ROOT_BOUND] (-1 none)
S_ROOT_BOUND = 9
S_POSITION = 10  # the position of the batch being solved
S_SIZE = 16

PHASE_START = 0
PHASE_SEARCH = 1
PHASE_DONE = 2

NO_NODE_STOP: Final = (1 << 63) - 1
"""A ``node_stop`` never reached."""

# what a kernel call returns
DONE = 0
PAUSED = 1
CANCELLED = 2

# columns of a batch's ``rows``: inputs, then results
R_STONES = 0
R_LOWER = 1
R_UPPER = 2
R_SCORE = 3
R_NODES = 4
R_ROOT_MOVE = 5  # a proved best move, or -1
R_SIZE = 6

# istack columns
I_ALPHA = 0
I_BETA = 1
I_COUNT = 2
I_NEXT = 3
I_ALPHA0 = 4
I_NODES0 = 5
I_MIRROR = 6
I_SIZE = 7

USTACK_SIZE = 4
MIN_TABLE_BITS = 20
"""The smallest transposition table: ``2**20`` entries (8 MiB)."""
NEAR_TABLE_BITS = 20
"""The near-end part of a table that has one (see kernels.table): ``2**20`` entries, 8 MiB,
which a processor's last-level cache holds."""
TABLE_HEADER = 2
"""Words after a table's parts: the sizes of its parts in use (see kernels.table)."""

Stacks = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def new_state(lower: int, upper: int) -> np.ndarray:
    """A fresh solve state searching for the score within ``[lower, upper]``."""
    state = np.zeros(S_SIZE, dtype=np.int64)
    state[S_PHASE] = PHASE_START
    state[S_MIN] = lower
    state[S_MAX] = upper
    state[S_ROOT_MOVE] = -1
    return state


def stack_depth(width: int, height: int) -> int:
    """Rows of the search stack: one a ply, the root's included, and one to spare."""
    return width * height + 2


def new_stacks(width: int, height: int) -> Stacks:
    """The search stack and scratch rows for a board of this size (see the module's doc)."""
    depth = stack_depth(width, height)
    return (
        np.zeros((depth, USTACK_SIZE), dtype=np.uint64),
        np.zeros((depth, I_SIZE), dtype=np.int64),
        np.zeros((depth, width), dtype=np.uint64),
        np.zeros((depth, width), dtype=np.int64),
        np.zeros((depth, width), dtype=np.uint64),
        np.zeros(width, dtype=np.int64),
        np.zeros(width, dtype=np.uint64),
    )


def table_parts(entries: int) -> tuple[int, int]:
    """``(bits, near_bits)`` of the largest table within ``entries``: from ``3 * 2**NEAR_TABLE_BITS``
    entries on, a near-end part of ``2**NEAR_TABLE_BITS`` and a main part of the largest power of
    two in the rest; below that, one part (``near_bits`` 0)."""
    near_bits = NEAR_TABLE_BITS if entries >= 3 << NEAR_TABLE_BITS else 0
    near_entries = 1 << near_bits if near_bits else 0
    return (entries - near_entries).bit_length() - 1, near_bits


def table_entries(bits: int, near_bits: int) -> int:
    """Entries of a table whose main part has ``2**bits`` and near-end part ``2**near_bits`` (0: none),
    its header included."""
    return (1 << bits) + ((1 << near_bits) if near_bits else 0) + TABLE_HEADER


def entries_in_use(table: np.ndarray) -> int:
    """How many entries of ``table`` its searches use so far (0 before the first): each part starts
    small and doubles as a search needs (see kernels.table)."""
    return sum(1 << int(live) for live in table[-TABLE_HEADER:] if live)


def new_table(bits: int, near_bits: int = 0) -> np.ndarray:
    """A cleared transposition table, 8 bytes an entry: a main part of ``2**bits`` entries and,
    unless ``near_bits`` is 0, a near-end part of ``2**near_bits``, then its header (see
    kernels.table)."""
    if bits < MIN_TABLE_BITS:
        raise ValueError(f"table needs at least 2**{MIN_TABLE_BITS} entries")
    if near_bits and not 1 < near_bits <= bits:
        raise ValueError(f"a near-end part of 2**{near_bits} entries beside 2**{bits}")
    return np.zeros(table_entries(bits, near_bits), dtype=np.uint64)
