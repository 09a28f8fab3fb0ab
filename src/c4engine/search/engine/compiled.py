"""The compiled heuristic search's driver, for :class:`~c4engine.search.engine.negamax.Engine`'s kernel path.

:func:`kernel_weights` tells whether an evaluator has a compiled twin --
the ``windows`` evaluator (the function or any :class:`WindowsEvaluator`)
and ``areas`` (a windows evaluator with own weights ``2**k``, opponent
weights ``-2**k`` and no centre term: the empty windows it counts for both
sides cancel, and a finished line never reaches the evaluator) -- and
returns its weights as arrays.  :class:`KernelSearch` runs one fixed-depth
iteration of :mod:`c4engine.kernels.heuristic` in slices of about
:attr:`KernelSearch.SLICE_SECONDS` of CPU, calling back after each slice so
the engine can check its clock and poll hook (and stop by raising).

It keeps a transposition table for as long as it lives (the best moves it
remembers order later searches too), from ``2**FIRST_TABLE_BITS`` entries
growing to ``2**TABLE_BITS`` as the searches get bigger.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from time import process_time

import numpy as np

from c4engine.board import Board
from c4engine.errors import WeightsError
from c4engine.kernels import announce_compile, engine_layout, is_cached
from c4engine.kernels.layout import DONE, S_NODES, S_SIZE
from c4engine.search.engine.answers import RootAnswer
from c4engine.search.engine.evaluators import EVAL_LIMIT, WindowsEvaluator, areas, window_tables, windows

__all__ = ["KernelSearch", "KernelWeights", "has_kernel", "kernel_weights", "load_kernel"]

KernelWeights = tuple[np.ndarray, np.ndarray, float]
"""Own weights by stone count, opponent weights by stone count (``connect + 1`` each), centre weight."""

_DEFAULT_WINDOWS = WindowsEvaluator()
"""What the ``windows`` function evaluates with: the default weights of each connect-N."""

BetweenSlices = Callable[[int, RootAnswer | None], None]
"""The engine's own callback between the kernel's slices (nodes searched, the best so far): it keeps the
nodes, the clock and the poll hook; no hook of a caller."""


def has_kernel(evaluator: object) -> bool:
    """Whether ``evaluator`` has a compiled twin (for some connect-N).

    >>> has_kernel(windows), has_kernel(areas), has_kernel(WindowsEvaluator()), has_kernel(len)
    (True, True, True, False)
    """
    return evaluator is areas or evaluator is windows or type(evaluator) is WindowsEvaluator


def kernel_weights(evaluator: object, connect: int) -> KernelWeights | None:
    """The compiled evaluator's weights equal to ``evaluator`` on connect ``connect``, or ``None``.

    ``None`` also when the weights do not fit ``connect`` (the Python search
    then reports the :class:`~c4engine.errors.WeightsError` as before).

    >>> own, opponent, center = kernel_weights(areas, 4)
    >>> own.tolist(), opponent.tolist(), center
    ([0.0, 2.0, 4.0, 8.0, 16.0], [0.0, -2.0, -4.0, -8.0, -16.0], 0.0)
    >>> kernel_weights(len, 4) is None
    True
    """
    if evaluator is areas:
        powers = [float(2**k) for k in range(1, connect + 1)]
        return np.array([0.0, *powers]), np.array([0.0, *(-power for power in powers)]), 0.0
    if not has_kernel(evaluator):  # a WindowsEvaluator subclass may evaluate differently
        return None
    if evaluator is windows:
        evaluator = _DEFAULT_WINDOWS
    assert isinstance(evaluator, WindowsEvaluator)
    try:
        own, opponent, center = evaluator.weights_by_count(connect)
    except WeightsError:
        return None
    return np.array(own, dtype=np.float64), np.array(opponent, dtype=np.float64), float(center)


@functools.cache
def _run() -> Callable[..., int]:
    """The compiled search, :func:`c4engine.kernels.heuristic.run`: from the engine's shared library
    (no numba then) -- the install's, else built now -- or numba's (its first compile announced)."""
    from c4engine.kernels import library

    run = library.load_engine()
    if run is None and library.can_build_named(library.ENGINE):  # an install that could not build it
        announce_compile("compiling the engine into a library, once, about 10 s")
        run = library.load_engine() if library.build_apart(library.ENGINE) else None
    if run is not None:
        return run
    from c4engine.kernels import heuristic

    if not is_cached(heuristic.run):
        announce_compile("compiling the engine, once, about 5 s")
    return heuristic.run


@functools.cache
def load_kernel() -> None:
    """Load the compiled search now (compiling it the first time on a machine without its library,
    a few seconds, announced), by a one-ply search of the empty board: a search's clock then counts
    no loading."""
    board = Board()
    weights = kernel_weights(areas, board.connect)
    assert weights is not None  # areas always has its twin
    KernelSearch().iterate(board, weights, 1, [board.geometry.center_order[0]], lambda nodes, best: None)


class KernelSearch:
    """Fixed-depth iterations of the compiled search, resumable, with a transposition table."""

    TABLE_BITS = 20
    """The transposition table grows up to ``2**TABLE_BITS`` positions (40 bytes each, 40 MB)."""

    FIRST_TABLE_BITS = 12
    """The table starts small (fresh pages cost a page fault each) and grows with the searches."""

    SLICE_SECONDS = 0.002
    """CPU time aimed at per slice (between two calls of the slice hook)."""

    def __init__(self) -> None:
        self._bits = 0
        self._allocate(self.FIRST_TABLE_BITS)
        self._generation = 0
        self._last_nodes = 0
        self._slice_nodes = 4096
        self._size: tuple[int, int, int] | None = None
        self._stacks: tuple[np.ndarray, ...] = ()
        self._masks = np.zeros(0, dtype=np.uint64)
        self._center = np.uint64(0)

    def _allocate(self, bits: int) -> None:
        # All zeros: an empty table (generation 0 is never searched).
        size = 1 << bits
        self._keys = np.zeros(size, dtype=np.uint64)
        self._lower = np.zeros(size, dtype=np.float64)
        self._upper = np.zeros(size, dtype=np.float64)
        self._gen = np.zeros(size, dtype=np.int64)
        self._move = np.zeros(size, dtype=np.int64)
        self._bits = bits

    def _grow(self, nodes: int) -> None:
        """A bigger (empty) table when the last iteration visited many more nodes than it holds."""
        if nodes > 4 << self._bits and self._bits < self.TABLE_BITS:
            self._allocate(min(self.TABLE_BITS, max(self._bits + 2, nodes.bit_length() - 1)))

    def _prepare(self, board: Board) -> None:
        size = (board.width, board.height, board.connect)
        if size == self._size:
            return
        width, height, _ = size
        plies = width * height + 2
        tables = window_tables(board.geometry)
        self._masks = np.array(tables.masks, dtype=np.uint64)
        self._center = np.uint64(tables.center)
        self._stacks = (
            np.zeros((plies, 2), dtype=np.uint64),
            np.zeros((plies, 4), dtype=np.float64),
            np.zeros((plies, 3), dtype=np.int64),
            np.zeros((plies, width), dtype=np.int64),
            np.zeros((plies, plies), dtype=np.int64),
            np.zeros(plies, dtype=np.int64),
        )
        self._size = size

    def iterate(
        self,
        board: Board,
        weights: KernelWeights,
        depth: int,
        candidates: list[int],
        on_slice: BetweenSlices,
        max_nodes: int = 1 << 62,
    ) -> tuple[RootAnswer, int]:
        """Search ``candidates`` of ``board`` to ``depth`` plies: the root's answer and the nodes.

        Same answer as the Python engine's root search: the first best move
        in ``candidates`` order and its exact score.  After each slice that
        does not finish, ``on_slice(nodes of the slice, best root move so
        far or None)`` is called; it may raise to abandon the iteration.  No
        slice goes past ``max_nodes`` nodes of the iteration in all: a caller
        bounding the nodes stops in ``on_slice`` once they are spent.
        """
        self._prepare(board)
        self._grow(self._last_nodes)
        self._generation += 1
        ustack, fstack, istack, mstack, pv, pvlen = self._stacks
        own, opponent, center = weights
        state = np.zeros(S_SIZE, dtype=np.int64)
        fret = np.zeros(1, dtype=np.float64)
        roots = np.array(candidates, dtype=np.int64)
        cap = float(EVAL_LIMIT - 1)
        evaluator = engine_layout.Weights(self._masks, own, opponent, center, self._center, cap)
        current, mask = np.uint64(board.current_bits), np.uint64(board.mask_bits)
        done = 0
        while True:
            started = process_time()
            status = _run()(
                current, mask, board.width, board.height, board.connect, depth, roots, evaluator,
                self._keys, self._lower, self._upper, self._gen, self._move, self._bits,
                self._generation, ustack, fstack, istack, mstack, pv, pvlen,
                state, fret, min(done + self._slice_nodes, max_nodes),
            )  # fmt: skip
            spent = process_time() - started
            nodes = int(state[S_NODES])
            sliced, done = nodes - done, nodes
            if status == DONE:
                self._last_nodes = nodes
                return self._root_answer(), sliced
            # Keep a slice near SLICE_SECONDS whatever a node costs here.
            if spent < self.SLICE_SECONDS / 2:
                self._slice_nodes = min(self._slice_nodes * 2, 1 << 24)
            elif spent > self.SLICE_SECONDS * 2 and self._slice_nodes > 256:
                self._slice_nodes //= 2
            best = int(istack[0, engine_layout.I_BEST])
            on_slice(sliced, self._root_answer() if best >= 0 else None)

    def _root_answer(self) -> RootAnswer:
        _, fstack, istack, _, pv, pvlen = self._stacks
        line = tuple(int(column) for column in pv[0, : int(pvlen[0])])
        return RootAnswer(int(istack[0, engine_layout.I_BEST]), float(fstack[0, engine_layout.F_BEST]), line)
