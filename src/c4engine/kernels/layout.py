"""The arrays the exact search works on, made and read from Python without numba or numpy.

The solver hands the search kernel (compiled by numba, or loaded from the
shared library :mod:`c4engine.kernels.build` builds) C arrays
(:class:`c4engine.kernels.memory.CArray`; numba's kernel takes them as numpy
arrays of the same memory), packed with a few integers in one
:class:`KernelArgs`; this module names their columns and makes them, so that
a process whose kernel comes from the library imports neither numba nor numpy.

Solve state, ``state[S_*]`` (int64): the score window ``[S_MIN, S_MAX]``
the null-window searches narrow, where the explicit stack stands, nodes
so far, the best root move proved, and which position of a batch is under
way.  A batch of positions: ``boards[p] = (current, mask)`` (uint64) and
``rows[p, R_*]`` (int64: stones and window in; score, nodes, best move
out).  Search stack, per ply ``d``::

    ustack[d] = current, mask, scrambled key, moves not yet ranked  (uint64)
    istack[d] = alpha, beta, moves, next, alpha0, nodes0, mirrored, deferred, best  (int64)
    moves[d, i], columns[d, i], mthreats[d, i]: ordered moves (see kernels.moves)

A word is a uint64, or on a board past 64 bits (:func:`c4engine.geometry.fits_64_bits`) a 128-bit
word of :mod:`c4engine.kernels.wide`, held in an array as two uint64 (low,
high) in one more, last dimension.  Plus two rows of scratch, one entry a column: the move scores being
ranked, and the table keys of the children the cutoff looks up; and the
marks of the subtrees under way, which the threads of a raced search share::

    busy[slot] = the scrambled key of a position a thread is searching, 0 none
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple, TypeAlias

from c4engine.geometry import fits_64_bits
from c4engine.kernels.memory import INT64, UINT8, UINT64, CArray
from c4engine.kernels.transposition import Table

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
I_DEFERRED = 7  # moves at the end of the row put off because another thread was searching them
I_BEST = 8  # the best score the node's moves can reach, as far as shown (fail-soft)
I_SIZE = 9

USTACK_SIZE = 4

KernelArray: TypeAlias = Any
"""An array of :class:`KernelArgs`: a :class:`~c4engine.kernels.memory.CArray` as this module makes
it (what the shared library takes), a numpy array of the same memory in numba's kernel
(:func:`c4engine.kernels.library.numba_caller`)."""

BUSY_BITS = 12
"""The busy marks have ``2**BUSY_BITS`` slots: each thread marks at most a few dozen positions at
once (one a ply near its root), so collisions, which only lose a mark, are rare."""


def new_state(lower: int, upper: int) -> CArray:
    """A fresh solve state searching for the score within ``[lower, upper]``."""
    state = CArray((S_SIZE,), INT64)
    state[S_PHASE] = PHASE_START
    state[S_MIN] = lower
    state[S_MAX] = upper
    state[S_ROOT_MOVE] = -1
    return state


def stack_depth(width: int, height: int) -> int:
    """Rows of the search stack: one a ply, the root's included, and one to spare."""
    return width * height + 2


class KernelArgs(NamedTuple):
    """The search kernel's arguments, packed: its one signature, for numba and for the shared library.

    A numba kernel takes the tuple with numpy arrays of the same memory
    (:func:`c4engine.kernels.library.numba_caller`); the shared library's entry
    point (:mod:`c4engine.kernels.library`) takes one int64 word a field, in
    this order: an array's address, an integer's value.  :func:`new_args`
    makes them for a board size and a table; a call changes the batch, the
    state and the node stop with ``_replace``.
    """

    boards: KernelArray
    """``(count, 2)`` words: current and mask of each position of the batch."""
    rows: KernelArray
    """``(count, R_SIZE)`` int64: each position's stones and window in, score, nodes and move out."""
    state: KernelArray
    """``(S_SIZE,)`` int64: the solve under way (:func:`new_state`)."""
    table: KernelArray
    """The transposition table's array (:class:`c4engine.kernels.transposition.Table`): uint64
    words, an entry one word or, on a board past 64 bits, two."""
    bits: int
    """Its main part's size: ``2**bits`` entries."""
    near_bits: int
    """Its near-end part's size: ``2**near_bits`` entries, none when 0."""
    near_from: int
    """Positions of this many stones or more go to the near-end part."""
    etc_until: int
    """Nodes with fewer stones first look their children up in the table (enhanced transposition cutoff)."""
    node_stop: int
    """The call pauses when the solve has searched this many nodes (:data:`NO_NODE_STOP`: never)."""
    cancel: KernelArray
    """``(1,)`` uint8: set to 1 (from any thread) to stop the call."""
    ustack: KernelArray
    """``(depth, USTACK_SIZE)`` words (:func:`stack_depth`): the search stack's boards and keys."""
    istack: KernelArray
    """``(depth, I_SIZE)`` int64: the search stack's windows and counters."""
    moves: KernelArray
    """``(depth, width)`` words: each ply's ordered moves."""
    columns: KernelArray
    """``(depth, width)`` int64: their columns."""
    mthreats: KernelArray
    """``(depth, width)`` words: the winning cells each move leaves."""
    scores: KernelArray
    """``(width,)`` int64 scratch: the move scores being ranked."""
    child_hashes: KernelArray
    """``(width,)`` words scratch: the table keys of the children the cutoff looks up."""
    busy: KernelArray
    """``(2**BUSY_BITS,)`` words: the marks of the positions under search, shared by the threads of
    a raced search (:func:`new_busy`)."""
    shared_until: int = 0
    """At nodes fewer plies than this from the call's root, the search shares its work with the
    other threads of a race (:mod:`c4engine.search.solver.threads`): it marks each move's position
    after the first busy while searching it, and puts off to the end of the row a move whose
    position another thread has marked; 0: no marks, the ranked order everywhere."""


def word_shape(wide: bool) -> tuple[int, ...]:
    """The last dimensions a word takes in an array: none for a uint64, two uint64 (low, high) for a
    128-bit word."""
    return (2,) if wide else ()


def positions(pairs: list[tuple[int, int]], wide: bool) -> CArray:
    """The ``boards`` of a batch (:attr:`KernelArgs.boards`): ``(current, mask)`` pairs of Python
    integers, as uint64 words or 128-bit words in two halves."""
    boards = CArray((len(pairs), 2, *word_shape(wide)), UINT64)
    low = 2**64 - 1
    for p, pair in enumerate(pairs):
        for i, bits in enumerate(pair):
            if wide:
                boards[p, i, 0], boards[p, i, 1] = bits & low, bits >> 64
            else:
                boards[p, i] = bits
    return boards


def new_rows(count: int) -> CArray:
    """The ``rows`` of a batch of ``count`` positions (:attr:`KernelArgs.rows`), all 0."""
    return CArray((count, R_SIZE), INT64)


def new_flag() -> CArray:
    """A cancel flag (:attr:`KernelArgs.cancel`), not set."""
    return CArray((1,), UINT8)


def new_busy(wide: bool = False) -> CArray:
    """Busy marks for the threads of one race (:attr:`KernelArgs.busy`), none set."""
    return CArray((1 << BUSY_BITS, *word_shape(wide)), UINT64)


def new_args(
    width: int, height: int, table: Table, etc_until: int, cancel: CArray, busy: CArray | None = None
) -> KernelArgs:
    """The kernel's arguments for a board of this size, searching with ``table`` (and the busy marks
    ``busy``, new ones when None): fresh stacks, and a batch of one empty board with a node stop
    of 0 (a call returns PAUSED before its first node).

    A board past 64 bits (:func:`~c4engine.geometry.fits_64_bits`) has 128-bit words: its arrays of
    words have a last dimension of two, and ``table`` must have entries of two words
    (:meth:`Table.use_entry_words`).
    """
    depth = stack_depth(width, height)
    wide = not fits_64_bits(width, height)
    word = word_shape(wide)
    if table.entry_words != (2 if wide else 1):
        raise ValueError(f"a {width}x{height} board needs a table of {2 if wide else 1}-word entries")
    bits, near_bits, near_used = table.entry_parts(width * (height + 1))
    return KernelArgs(
        boards=CArray((1, 2, *word), UINT64),
        rows=new_rows(1),
        state=new_state(-1, 1),
        table=table.array,
        bits=bits,
        near_bits=near_bits,
        near_from=table.near_from(width * height) if near_used else width * height + 1,
        etc_until=etc_until,
        node_stop=0,
        cancel=cancel,
        ustack=CArray((depth, USTACK_SIZE, *word), UINT64),
        istack=CArray((depth, I_SIZE), INT64),
        moves=CArray((depth, width, *word), UINT64),
        columns=CArray((depth, width), INT64),
        mthreats=CArray((depth, width, *word), UINT64),
        scores=CArray((width,), INT64),
        child_hashes=CArray((width, *word), UINT64),
        busy=new_busy(wide) if busy is None else busy,
    )
