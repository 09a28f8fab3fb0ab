"""The exact search of one position on several threads sharing one transposition table.

The solver's kernel finds a score by null-window probes, each asking
"does the position score more than ``v``?" and answering with a proven
bound; it narrows ``[lower, upper]`` until they meet.  A :class:`Race` has
``N`` threads (the kernel releases the GIL) answer such questions on the
solver's one table at once:

* the first thread (the caller's) asks what the kernel alone would ask
  next (:func:`probe_value`), so with one thread nothing changes;
* each helper, with its own search stack, asks in a strong solve the
  first thread's test value's neighbour on the side scores are likely to
  lie (:func:`neighbour_value`), when nobody asks it, and otherwise the
  first thread's own question (a weak solve's first question most often
  ends it): the one question always needed and the one most likely needed
  next, the two dear ones at the end of a narrowing (but a position that
  asks the sign first has its helpers share the sign for the race's first
  :data:`NEIGHBOUR_FROM_NODES`: "more than 1?" asked beside the sign from
  the start is the dearer);
* threads asking one question split its tree the way ABDADA does (Weill,
  1996): near the root (:data:`SHARED_PLIES`) a thread marks the position
  of each move after the first busy while it searches it, and puts off to
  the end of its row a move whose position another thread has marked
  (the kernel's ``shared_until``), so the threads work on different
  subtrees and each finds in the table what the other proved by the time
  it comes to the moves it put off;
* every answer narrows the shared window at once; a thread whose question
  the window has settled is stopped (its flag) and takes the next one;
  the search ends when the window closes, and the answer is the same
  whichever thread gave it: each is a proof.

What one thread stores in the table the others find.  A table entry is one
64-bit word holding the position's key bits and its bounds, written and
read whole (aligned 64-bit loads and stores are atomic on x86-64 and
arm64), and found only under its own key: a race between threads can lose
an entry (two threads replacing one bucket at once) or return an older one,
either of which only costs work, never a wrong bound.  A busy mark is a
hint only: a lost or stale one changes the order moves are tried in, never
a score.  The table must not grow while threads are in it (growing moves
every entry), so in a race no kernel call grows it
(:meth:`Table.hold_growth <c4engine.kernels.transposition.Table.hold_growth>`):
the first thread grows it between two of its calls, as the kernel would
have by the race's nodes (:meth:`~c4engine.kernels.transposition.Table.growth_due`),
with the helpers held outside the kernel meanwhile (a few thousand nodes
each, then a pause of a few milliseconds, a handful of times a race).  A
raced search thus leaves the table the size one thread's would, and the
short searches after it keep their cache.

The serial parts left: the first :data:`RACE_FROM_NODES` nodes of a search
(alone, so short searches pay nothing for threads), and the first move of
every node, which all threads search together before they split the rest.
docs/benchmarks-log.md, "The solver on two cores", says what this gains and
why it would gain less per core on more of them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from c4engine.kernels import layout as _layout
from c4engine.kernels.memory import CArray
from c4engine.kernels.transposition import Table

__all__ = [
    "NEIGHBOUR_FROM_NODES",
    "RACE_FROM_NODES",
    "SHARED_PLIES",
    "SIGN_FIRST_STONES",
    "Race",
    "Searcher",
    "TableGrower",
    "neighbour_value",
    "new_searchers",
    "probe_value",
    "share_frames",
]

RACE_FROM_NODES = 500_000
"""A search runs alone until it has taken this many nodes (about a fortieth of a second), then
the helpers join.  Starting a helper costs little (a thread, a kernel call: well under a
millisecond) and the table grows in a race as it would on one thread (the module's doc); what a
race costs a short search is the helpers' nodes, which buy less the shorter the search
(docs/benchmarks-log.md, "Helpers that join at 1 M nodes": 500 000 took 0.93 of 1 M's wall on
Test_L1_R3's first 5 and 0.88 on Test_L1_R2's first 20; 250 000, 1.06 and 0.91 of 500 000's)."""
SHARED_PLIES = 20
"""In a race, nodes fewer plies than this from the root mark the positions they search busy and
put off those another thread has marked (:attr:`c4engine.kernels.layout.KernelArgs.shared_until`):
20 split one question at 5 stones into two halves where 8 searched most of it twice (13712 of
``Test_L1_R3``, "at least 3": 9 M nodes in 0.28 s against 13.5 M in 0.42 s; one thread 7.4 M in
0.44 s), and took 0.92 of 8's wall on ``Test_L1_R3``'s first 5 (20 pairs), 0.98 on the strong
empty board and 1.02 on the weak one (docs/benchmarks-log.md, "Marks deeper: 20 plies shared")."""
SIGN_FIRST_STONES = 6
"""Positions with fewer stones ask the score's sign first (the kernel's ``NEAR_SCORE_STONES``, in
:mod:`c4engine.kernels.solve`, which this module does not import: it would load numba)."""
NEIGHBOUR_FROM_NODES = 10_000_000
"""In a strong solve of a position asking the sign first (:data:`SIGN_FIRST_STONES`), the helpers
share the sign until the race has searched this many nodes (about a second), and only then ask its
neighbour "more than 1?" (:func:`neighbour_value`): asked from the start on the empty board, that
question took 75 M nodes and the race 285 M; with the sign's first 10 M nodes shared, about 246 M
and 0.86 of the wall.  Test_L1_R3's first 5 and 28 of its other sign-first positions take about the
time they took (docs/benchmarks-log.md, "The helpers share the sign's start")."""
HELPER_SLICE = 1 << 20
"""Nodes a helper searches between two looks at the node limit and the progress count."""
HOLD = 2
"""A helper's stop flag while the first thread grows the table: the kernel call pauses (any
non-zero flag stops it), and the helper goes on with the same question once the table has grown."""


@dataclass
class Searcher:
    """One thread's kernel arguments (its own search stack and stop flag, the shared table) and
    the nodes it searched."""

    args: _layout.KernelArgs
    nodes: int = 0

    @property
    def cancel(self) -> CArray:
        """The searcher's stop flag: 1 stops its kernel call."""
        flag: CArray = self.args.cancel  # made by kernels.layout: a C array
        return flag


def new_searchers(
    count: int, width: int, height: int, table: Table, etc_until: int, busy: CArray
) -> list[Searcher]:
    """``count`` searchers searching ``table`` on a board of this size, each with a stack of its own, all
    with the busy marks ``busy``."""
    return [
        Searcher(
            _layout.new_args(width, height, table, etc_until, _layout.new_flag(), busy)._replace(
                shared_until=SHARED_PLIES
            )
        )
        for _ in range(count)
    ]


def share_frames(istack: CArray) -> None:
    """Ready the frames of a search paused on one thread for sharing its work (the kernel's
    ``shared_until``): none of their moves was put off, whatever an earlier race on the same stack
    left in their ``I_DEFERRED`` (a frame past its first move reads it, only a frame entering its
    second move sets it)."""
    for depth in range(min(SHARED_PLIES, len(istack))):
        istack[depth, _layout.I_DEFERRED] = 0


def _half(x: int) -> int:
    return x // 2 if x >= 0 else -((-x) // 2)


def probe_value(lower: int, upper: int) -> int:
    """The ``v`` of the next question "more than ``v``?" the kernel's own narrowing asks of the window
    ``[lower, upper]`` (kernels.solve, the start of a probe): the middle, moved toward the bounds
    when they are far from 0.

    >>> probe_value(-1, 1), probe_value(-18, 18), probe_value(3, 4)
    (0, -9, 3)
    """
    value = lower + (upper - lower) // 2
    if value <= 0 and _half(lower) < value:
        value = _half(lower)
    elif value >= 0 and _half(upper) > value:
        value = _half(upper)
    return value


def neighbour_value(value: int) -> int:
    """The test value a helper asks beside the first thread's "more than ``value``?": the one next
    to it on the side of 0, where scores gather (the kernel's narrowing expects a question below
    0 to be answered "yes" and one above "no"), above it for 0 itself (the sign, asked first early
    in the game).  Once the first thread has its answer, the helper's is the question asked next;
    at the end of a narrowing the two are the score's two dear proofs, "more than s - 1?" and
    "more than s?" (docs/benchmarks-log.md, "Threads, desynchronised").

    >>> neighbour_value(-9), neighbour_value(0), neighbour_value(4)
    (-8, 1, 3)
    """
    return value + 1 if value <= 0 else value - 1


RunSlice = Callable[[Searcher, CArray, CArray, CArray, int], int]
"""``run(searcher, positions, rows, state, node_stop)``: one call of the kernel on the searcher's arrays."""


@dataclass(frozen=True)
class Root:
    """The position raced, as the kernel takes it."""

    current: int
    mask: int
    stones: int
    wide: bool = False
    """Whether the board is past 64 bits (:func:`c4engine.geometry.fits_64_bits`)."""

    def arrays(self) -> tuple[CArray, CArray]:
        """The kernel's batch of this one position: its words and its row (the stones on it)."""
        positions = _layout.positions([(self.current, self.mask)], self.wide)
        rows = _layout.new_rows(1)
        rows[0, _layout.R_STONES] = self.stones
        return positions, rows


class Race:
    """One position's search on ``len(searchers)`` threads (see the module's doc).

    ``run`` calls the kernel, ``next_slice()`` says how many nodes the first
    thread may search next (None: a limit stopped the search), ``count(n)``
    adds nodes to the search's budget, ``poll(lower, upper, move)`` reports
    progress and returns True to stop, ``cancelled()`` tells whether the
    caller cancelled; ``growth_due(nodes)`` tells whether one thread's search
    of ``nodes`` would have grown the table by now and ``grow(nodes)`` grows
    it as that search would have (called with every helper held outside the
    kernel).  ``other_values`` has helpers ask the neighbour of the
    first thread's test value when they can (a strong solve's), rather than
    only the first thread's question (see the module's doc).
    """

    def __init__(
        self,
        searchers: Sequence[Searcher],
        run: RunSlice,
        root: Root,
        *,
        next_slice: Callable[[int], int | None],
        count: Callable[[int], None],
        poll: Callable[[int, int, int | None], bool],
        cancelled: Callable[[], bool],
        remaining_nodes: Callable[[], int | None],
        growth_due: Callable[[int], bool],
        grow: Callable[[int], None],
        other_values: bool = True,
    ) -> None:
        self._searchers = list(searchers)
        self._run = run
        self._root = root
        self._next_slice = next_slice
        self._count = count
        self._poll = poll
        self._cancelled = cancelled
        self._remaining_nodes = remaining_nodes
        self._other_values = other_values
        self._growth_due = growth_due
        self._grow = grow
        self._lock = threading.Lock()
        self._held = threading.Condition(self._lock)  # notified when a helper leaves the kernel
        self._holding = False  # the first thread is growing the table: no helper enters the kernel
        self._in_kernel = 0  # helpers inside a kernel call
        self._nodes = 0  # the position's nodes: before the race and every thread's since
        self._lower = 0
        self._upper = 0
        self._move = -1
        self._move_bound = 0
        self._asking: dict[int, int] = {}  # searcher -> the test value it is settling
        self._reserved = 0  # nodes handed to kernel calls under way, not yet counted
        self._counting = threading.Event()  # set when a call under way has counted its nodes
        self._over = False
        self._failure: BaseException | None = None
        self._neighbour_from = NEIGHBOUR_FROM_NODES if root.stones < SIGN_FIRST_STONES else 0
        """The race's nodes from which a helper asks beside the first thread."""

    # ----------------------------------------------------------- the race

    def run(self, state: CArray) -> int:
        """Search on from the first thread's paused ``state`` (kernels.layout) until the window
        closes or a limit stops it; the window, root move and status end up in ``state``."""
        self._lower, self._upper = int(state[_layout.S_MIN]), int(state[_layout.S_MAX])
        self._move = int(state[_layout.S_ROOT_MOVE])
        self._move_bound = int(state[_layout.S_ROOT_BOUND]) if self._move >= 0 else self._lower - 1
        self._nodes = int(state[_layout.S_NODES])
        for searcher in self._searchers:
            searcher.cancel[0] = 0
        self._searchers[0].args.busy.clear()  # a stopped race's marks
        share_frames(self._searchers[0].args.istack)  # the first thread's search, paused on one thread
        helpers = [
            threading.Thread(target=self._helper, args=(index,), name=f"c4-solver-{index}", daemon=True)
            for index in range(1, len(self._searchers))
        ]
        status = _layout.DONE
        try:
            # the first thread goes on with its question under way: its window becomes that one test
            first: CArray | None = None
            if int(state[_layout.S_PHASE]) == _layout.PHASE_SEARCH:
                value = int(state[_layout.S_MED])
                state[_layout.S_MIN], state[_layout.S_MAX] = value, value + 1
                first = state
                self._asking[0] = value
            for thread in helpers:
                thread.start()
            status = self._first(first)
        finally:
            self._stop()
            for thread in helpers:
                thread.join()
        if self._failure is not None:
            raise self._failure
        state[_layout.S_MIN], state[_layout.S_MAX] = self._lower, self._upper
        state[_layout.S_PHASE] = _layout.PHASE_DONE if status == _layout.DONE else _layout.PHASE_START
        state[_layout.S_ROOT_MOVE] = self._move
        state[_layout.S_ROOT_BOUND] = self._move_bound
        return status

    def _first(self, state: CArray | None) -> int:
        """The caller's thread: the kernel's own questions, the limits and the progress."""
        searcher = self._searchers[0]
        positions, rows = self._root.arrays()
        value = self._asking.get(0, 0)
        while True:
            with self._lock:
                if self._failure is not None or self._lower >= self._upper:
                    return _layout.DONE
                if state is None or not self._lower <= value < self._upper:
                    value = probe_value(self._lower, self._upper)
                    state = _layout.new_state(value, value + 1)
                    self._asking[0] = value
                    searcher.cancel[0] = 0
            if self._cancelled():
                return _layout.CANCELLED
            size = self._next_slice(len(self._searchers))
            if size is None:
                return _layout.PAUSED
            size = self._reserve(size)
            if size == 0:  # the node limit is spoken for by the helpers' calls under way
                self._wait_for_counts()
                continue
            before = int(state[_layout.S_NODES])
            status = self._run(searcher, positions, rows, state, before + size)
            self._counted(searcher, int(state[_layout.S_NODES]) - before, size)
            if self._growth_due(self._nodes):
                self._grow_held()
            if status == _layout.DONE:
                self._learn_probe(value, state)
                state = None
            elif status == _layout.CANCELLED:
                if self._cancelled():
                    return _layout.CANCELLED
                state = None  # settled by another thread: ask the next question
            with self._lock:
                lower, upper, move = self._lower, self._upper, self._move
            if self._poll(lower, upper, move if move >= 0 else None):
                return _layout.CANCELLED

    def _helper(self, index: int) -> None:
        searcher = self._searchers[index]
        try:
            while True:
                with self._lock:
                    if self._over or self._lower >= self._upper:
                        return
                    value = self._choose(index)
                    self._asking[index] = value
                    searcher.cancel[0] = 0
                positions, rows = self._root.arrays()
                state = self._probe(index, searcher, positions, rows, value)
                if state is not None:
                    self._learn_probe(value, state)
                with self._lock:
                    if self._over:
                        return
                    if self._asking.get(index) == _SWITCHING:
                        continue
                    if self._asking.get(index) == value and self._lower <= value < self._upper:
                        return  # stopped by the node limit: the first thread ends the race
        except BaseException as error:  # the first thread raises it once the helpers are stopped
            with self._lock:
                self._failure = error
            self._stop()

    def _choose(self, index: int) -> int:
        """A helper's next question (under the lock): with ``other_values`` (and, when the sign
        is asked first, once the race has searched :data:`NEIGHBOUR_FROM_NODES`), the neighbour of
        the first thread's test value (:func:`neighbour_value`) when it is inside the window and
        nobody asks it; else the first thread's own (the one it asks next, when the window has just
        settled the one it was asking)."""
        lower, upper = self._lower, self._upper
        first = self._asking.get(0)
        if first is None or not lower <= first < upper:
            first = probe_value(lower, upper)
        neighbour = self._free_neighbour(first, index)
        return first if neighbour is None else neighbour

    def _free_neighbour(self, first: int, index: int) -> int | None:
        """The neighbour of the first thread's test value ``first`` for searcher ``index`` to ask
        (under the lock), or None: not a strong solve, too early in the race, outside the window or
        asked by another searcher."""
        if not self._other_values or self._nodes < self._neighbour_from:
            return None
        neighbour = neighbour_value(first)
        asked = {value for searcher, value in self._asking.items() if searcher != index}
        if self._lower <= neighbour < self._upper and neighbour not in asked:
            return neighbour
        return None

    def _probe(
        self, index: int, searcher: Searcher, positions: CArray, rows: CArray, value: int
    ) -> CArray | None:
        """Ask "more than ``value``?" of ``positions[0]`` on helper ``index``'s ``searcher``: the
        finished state, or None when the question was settled elsewhere, the search stopped, the
        node limit ran out, or a helper sharing the first thread's question is due to ask its
        neighbour (:meth:`_free_neighbour`; its work stays in the table for the first thread)."""
        state = _layout.new_state(value, value + 1)
        while True:
            with self._held:
                while self._holding and not self._over:
                    self._held.wait()
                if self._over or searcher.cancel[0]:
                    return None
                self._in_kernel += 1
            try:
                size = self._reserve(HELPER_SLICE)
                if size == 0:
                    return None
                before = int(state[_layout.S_NODES])
                status = self._run(searcher, positions, rows, state, before + size)
            finally:
                with self._held:
                    self._in_kernel -= 1
                    self._held.notify_all()
            self._counted(searcher, int(state[_layout.S_NODES]) - before, size)
            if status == _layout.DONE:
                return state
            with self._lock:
                if (
                    self._neighbour_from
                    and self._asking.get(0) == value
                    and self._free_neighbour(value, index) is not None
                ):
                    self._asking[index] = _SWITCHING  # the neighbour's turn (the first thread goes on)
                    return None
            if status == _layout.CANCELLED:
                with self._lock:  # held while the table grew: the same question goes on
                    if self._over or searcher.cancel[0] not in (0, HOLD):
                        return None

    def _grow_held(self) -> None:
        """Grow the table as one thread's search of the race's nodes would have, every helper held
        outside the kernel meanwhile (the module's doc)."""
        with self._held:
            self._holding = True
            for searcher in self._searchers[1:]:
                if searcher.cancel[0] == 0:
                    searcher.cancel[0] = HOLD
            while self._in_kernel:
                self._held.wait()
        try:
            for _ in range(_MOST_DOUBLINGS):  # each call doubles each part at most once
                if not self._growth_due(self._nodes):
                    break
                self._grow(self._nodes)
        finally:
            with self._held:
                self._holding = False
                for searcher in self._searchers[1:]:
                    if searcher.cancel[0] == HOLD:
                        searcher.cancel[0] = 0
                self._held.notify_all()

    # ------------------------------------------------------ shared results

    def _reserve(self, wanted: int) -> int:
        """Nodes a kernel call may search, at most ``wanted``: under a node limit, a share of what
        the calls under way leave, so that all threads together stay within it."""
        with self._lock:
            left = self._remaining_nodes()
            if left is not None:
                left -= self._reserved
                wanted = min(wanted, max(left // len(self._searchers), min(left, 1000)), left)
            wanted = max(wanted, 0)
            self._reserved += wanted
            self._counting.clear()
            return wanted

    def _counted(self, searcher: Searcher, nodes: int, reserved: int) -> None:
        with self._lock:
            self._reserved -= reserved
            searcher.nodes += nodes
            self._nodes += nodes
            self._count(nodes)
            self._counting.set()

    def _wait_for_counts(self) -> None:
        """Wait until a helper's call under way has counted its nodes (or a moment)."""
        self._counting.wait(0.01)

    def _learn_probe(self, value: int, state: CArray) -> None:
        lower, upper = _probe_bounds(value, state)
        move = int(state[_layout.S_ROOT_MOVE])
        if move >= 0:
            self._learn(lower=lower, upper=upper, move=move, move_bound=int(state[_layout.S_ROOT_BOUND]))
        else:
            self._learn(lower=lower, upper=upper)

    def _learn(
        self,
        *,
        lower: int | None = None,
        upper: int | None = None,
        move: int = -1,
        move_bound: int | None = None,
    ) -> None:
        """Narrow the window by a proven bound; stop every thread whose question it settles."""
        with self._lock:
            if lower is not None and lower > self._lower:
                self._lower = lower
            if upper is not None and upper < self._upper:
                self._upper = upper
            bound = lower if move_bound is None else move_bound
            if move >= 0 and bound is not None and bound > self._move_bound:
                self._move, self._move_bound = move, bound
            for index, value in self._asking.items():
                if not self._lower <= value < self._upper:
                    self._searchers[index].cancel[0] = 1

    def _stop(self) -> None:
        with self._held:
            self._over = True
            for searcher in self._searchers[1:]:
                searcher.cancel[0] = 1
            self._held.notify_all()


class TableGrower:
    """What grows a race's shared table between its slices (the race's ``growth_due`` and ``grow``):
    the kernel's own rule and its own growth, at the race's nodes.

    ``grow(nodes)`` runs one node of the root, on ``searcher`` (a stack no thread has a search paused
    on), as the kernel call of a search at ``nodes`` nodes: entering the node it doubles each part
    that search would have doubled by now, then it pauses at its node stop.
    """

    def __init__(self, table: Table, searcher: Searcher, run: RunSlice, root: Root) -> None:
        self._table = table
        self._searcher = searcher
        self._run = run
        self._positions, self._rows = root.arrays()

    def due(self, nodes: int) -> bool:
        """Whether one thread's search of ``nodes`` nodes would have grown the table by now."""
        args = self._searcher.args
        return self._table.growth_due(args.bits, args.near_bits, nodes)

    def grow(self, nodes: int) -> None:
        """Grow the table as one thread's search at ``nodes`` nodes would (every other thread out of
        the kernel: :meth:`Race._grow_held`)."""
        self._table.hold_growth(False)
        try:
            state = _layout.new_state(-1, 1)
            state[_layout.S_NODES] = nodes
            self._run(self._searcher, self._positions, self._rows, state, nodes + 1)
        finally:
            self._table.hold_growth(True)


def _probe_bounds(value: int, state: CArray) -> tuple[int, int]:
    """(lower, upper) a finished probe "more than ``value``?" proved: a bound on one side (the
    kernel's searches fail soft), the other left open."""
    if int(state[_layout.S_MIN]) > value:
        return int(state[_layout.S_MIN]), _OPEN_HIGH
    return _OPEN_LOW, int(state[_layout.S_MAX])


_SWITCHING = -(1 << 31)  # a helper's question while it turns from the first thread's to its neighbour
_MOST_DOUBLINGS = 64  # more than a part of 2**64 entries could take: a grow that did nothing ends
_OPEN_LOW = -(1 << 30)
_OPEN_HIGH = 1 << 30
