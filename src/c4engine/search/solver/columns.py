"""The exact solver's proofs about a position's columns under a limit: each column's bounds as far as
the limit allows (:func:`bound_columns`), and best play from a column (:func:`best_line`).

Both search through the solver they are handed (its kernel call, its solve), within its run.
"""

from __future__ import annotations

from collections.abc import Callable

from c4engine.board import Board
from c4engine.kernels import layout as _layout
from c4engine.kernels.memory import CArray
from c4engine.search.solver.answers import SolveResult
from c4engine.search.solver.bits import is_winning, play
from c4engine.search.solver.run import SolverRun

__all__ = ["KernelSearch", "PositionSolve", "best_line", "bound_columns"]

KernelSearch = Callable[[int, int, int, Board, CArray, SolverRun], int]
"""The solver's kernel call: (current, mask, stones, board, state, run) -> its status."""

PositionSolve = Callable[[int, int, Board, bool, SolverRun, bool], SolveResult]
"""The solver's solve of a position: (current, mask, board, weak, run, find_best) -> its result."""


def bound_columns(
    search: KernelSearch,
    board: Board,
    children: dict[int, tuple[int, int]],
    lowers: list[int | None],
    uppers: list[int | None],
    run: SolverRun,
    weak: bool,
) -> None:
    """Within a limit, prove each column's bounds as far as it allows: first win, draw or loss of
    every column, by null-window probes around 0; then (unless ``weak``) each exact score.

    Round one asks of each column (centre first) "at least a draw?", round
    two "a win?" of those not proven lost: within a time limit a player
    learns more from every column's result than from one column's exact
    distance.  A probe's value is a proven bound beyond the question's
    (the kernel's searches fail soft), so it may settle more.  Then each
    column's bounds are narrowed to its exact score, the columns that
    may be best first.
    """
    for threshold in (0, 1):
        for column, (child_current, child_mask) in children.items():
            low, high = lowers[column], uppers[column]
            assert low is not None and high is not None
            if low >= threshold or high < threshold:
                continue  # already known on this side of the threshold
            # "column >= threshold" is "child <= -threshold", that is not "child >= 1 - threshold"
            child_min = 1 - threshold
            state = _layout.new_state(child_min - 1, child_min)
            status = search(child_current, child_mask, child_mask.bit_count(), board, state, run)
            if status != _layout.DONE:
                return  # the limit ran out: nothing more is proved
            if int(state[_layout.S_MIN]) >= child_min:
                uppers[column] = min(high, -int(state[_layout.S_MIN]))
            else:
                lowers[column] = max(low, -int(state[_layout.S_MAX]))
    if weak:
        return
    top = max(low for low in lowers if low is not None)
    contenders = [column for column in children if (high := uppers[column]) is not None and high >= top]
    for column in contenders + [column for column in children if column not in contenders]:
        low, high = lowers[column], uppers[column]
        assert low is not None and high is not None
        if low == high:
            continue
        child_current, child_mask = children[column]
        state = _layout.new_state(-high, -low)  # the child's proven bounds
        status = search(child_current, child_mask, child_mask.bit_count(), board, state, run)
        lowers[column] = max(low, -int(state[_layout.S_MAX]))
        uppers[column] = min(high, -int(state[_layout.S_MIN]))
        if status != _layout.DONE:
            return


def best_line(solve: PositionSolve, board: Board, first: int, weak: bool, run: SolverRun) -> list[int]:
    """Best play from ``board`` starting with ``first``, as far as the limits allow."""
    pv = [first]
    current, mask = board.current_bits, board.mask_bits
    geometry = board.geometry
    column = first
    while True:
        won = is_winning(current, mask, column, board)
        child = play(current, mask, column, board)
        if child is None or won:
            break
        current, mask = child
        if mask == geometry.full:
            break
        result = solve(current, mask, board, weak, run, True)
        if result.best_move is None or not result.proven:
            break
        column = result.best_move
        pv.append(column)
    return pv
