"""The heuristic search, compiled: negamax alpha-beta to a fixed depth with the ``windows`` evaluator.

It computes exactly what :class:`c4engine.search.engine.negamax.Engine` computes in Python
-- the same scores (``WIN_SCORE - ply`` for a win, a leaf scored as minus the
evaluation of the child, the evaluator's float sums in the same window order,
the same clamp), mate-distance pruning, fail-soft alpha-beta -- on one uint64
bitboard (any board with ``width * (height + 1) <= 64``, any connect-N).

:func:`run` searches one iteration (one depth) from a root with a given list
of root moves.  The search lives on an explicit stack, so it stops after a
budget of nodes and goes on later where it stopped (a *slice*): Python checks
the clock and calls the poll hook between slices.  Per ply ``d``::

    ustack[d] = current, mask                      (uint64)
    fstack[d] = alpha, beta, best, alpha at entry  (float64)
    istack[d] = move count, next move, best move   (int64)
    mstack[d, i] = the columns in search order
    pv[d, :pvlen[d]] = the principal variation from ply d

The evaluator comes in as one :class:`Weights`: float64 arrays indexed by
stone count (``own[k]``, ``opponent[k]``, ``k = 0 .. connect``), a centre
weight, the windows as a uint64 array in the order of
:class:`c4engine.search.engine.evaluators.WindowTables`; new weights need no
recompilation.

The transposition table (numpy arrays ``tt_*``, 2**bits entries, exact keys,
always replace; ``tt_move`` holds the column + 1, 0 for none; generation 0 is
never searched, so all-zero arrays are an empty table) serves two purposes:

* move ordering -- the best move stored for a position is searched first,
  whatever iteration stored it;
* cut-offs -- only with bounds stored in the *same iteration* (``tt_gen ==
  gen``).  Within one fixed-depth iteration a position's value is a function
  of the position alone: its ply from the root is its stone count minus the
  root's, so its remaining depth and its win/loss scores are fixed.  A
  fail-soft result is a true bound of that value (``best <= alpha``: upper,
  ``best >= beta``: lower, otherwise exact), so a stored bound outside the
  current window is a valid fail-soft result for this visit too, and
  alpha-beta's guarantee -- exact values inside the window -- is kept: the
  root's score and the score of every root move that raises alpha are the
  ones plain minimax gives.  Bounds are used only to cut (never to narrow the
  window), so a node on the principal variation is always searched and its
  line kept whole.  Bounds from another iteration (another depth) are never
  used: the same position is worth a different amount there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import numpy as np
from numba import njit

from c4engine.kernels import bitboard
from c4engine.kernels.bitboard import (  # no array made here: the shared library has no numba runtime
    board_mask,
    bottom_mask,
    column_mask,
    fast_path,
    line_directions,
    winning_cells,
)
from c4engine.kernels.engine_layout import (  # the search's arrays, named for its callers too
    F_ALPHA,
    F_ALPHA0,
    F_BEST,
    F_BETA,
    I_BEST,
    I_COUNT,
    I_NEXT,
    Weights,
)
from c4engine.kernels.layout import (  # the exact search's state: the same words
    DONE,
    PAUSED,
    PHASE_DONE,
    PHASE_SEARCH,
    PHASE_START,
    S_DEPTH,
    S_ENTER,
    S_NODES,
    S_PHASE,
)
from c4engine.kernels.moves import center_column

popcount = cast(Callable[[np.uint64], int], bitboard.popcount)  # the intrinsic, typed for mypy


WIN_SCORE = 1e9  # engine.WIN_SCORE
MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def evaluate(
    own: np.uint64,
    other: np.uint64,
    masks: np.ndarray,
    own_w: np.ndarray,
    opp_w: np.ndarray,
    center: float,
    center_mask: np.uint64,
    cap: float,
) -> float:
    """The ``windows`` evaluator (the fields of :class:`Weights`) for the side owning ``own``: the
    same sums in the same order."""
    score = 0.0
    for i in range(masks.shape[0]):
        window = masks[i]
        theirs = other & window
        mine = own & window
        if theirs:
            if not mine:
                score += opp_w[popcount(theirs)]
        elif mine:
            score += own_w[popcount(mine)]
    if center != 0.0:
        score += center * float(popcount(own & center_mask) - popcount(other & center_mask))
    if score > cap:
        return cap
    if score < -cap:
        return -cap
    return score


@njit(cache=True)
def _slot(key: np.uint64, bits: int) -> int:
    return int((key * MULTIPLIER) >> np.uint64(64 - bits))


@njit(cache=True)
def run(
    current0: np.uint64,
    mask0: np.uint64,
    width: int,
    height: int,
    connect: int,
    depth: int,
    candidates: np.ndarray,
    weights: Weights,
    tt_keys: np.ndarray,
    tt_lower: np.ndarray,
    tt_upper: np.ndarray,
    tt_gen: np.ndarray,
    tt_move: np.ndarray,
    bits: int,
    gen: int,
    ustack: np.ndarray,
    fstack: np.ndarray,
    istack: np.ndarray,
    mstack: np.ndarray,
    pv: np.ndarray,
    pvlen: np.ndarray,
    state: np.ndarray,
    fret: np.ndarray,
    node_stop: int,
) -> int:
    """Advance the ``depth``-ply search of the root (``current0``, ``mask0``) until done or ``node_stop``.

    The root's moves are ``candidates`` (searched in that order, the first
    best kept); the caller has taken any immediate win.  Returns DONE (the
    answer is ``istack[0, I_BEST]``, ``fstack[0, F_BEST]``, ``pv[0]``) or
    PAUSED (call again with the same arrays to go on).
    """
    masks, own_w, opp_w, center, center_mask, cap = weights  # once: each leaf takes them as they are
    bottom = bottom_mask(width, height)
    board = board_mask(width, height)
    directions = line_directions(width, height, connect)
    fast = fast_path(height, connect)
    inf = np.inf

    phase = state[S_PHASE]
    d = state[S_DEPTH]
    enter = state[S_ENTER]
    nodes = state[S_NODES]
    ret = fret[0]
    status = DONE

    if phase == PHASE_START:
        ustack[0, 0] = current0
        ustack[0, 1] = mask0
        fstack[0, F_ALPHA] = -inf
        fstack[0, F_BETA] = inf
        istack[0, I_BEST] = -1
        fstack[0, F_BEST] = -inf
        d = 0
        enter = 1
        phase = PHASE_SEARCH

    while phase == PHASE_SEARCH:
        if enter:
            # ------------------------------------------------ enter node d
            if nodes >= node_stop:
                status = PAUSED
                break
            current = ustack[d, 0]
            mask = ustack[d, 1]
            pvlen[d] = 0
            if mask == board:  # a full board: a draw
                ret = 0.0
                enter = 0
                continue
            alpha = fstack[d, F_ALPHA]
            beta = fstack[d, F_BETA]
            win = WIN_SCORE - d - 1
            if alpha >= win:  # mate-distance pruning, as in the Python search
                ret = win
                enter = 0
                continue
            if beta <= 1.0 - win:
                ret = 1.0 - win
                enter = 0
                continue
            possible = (mask + bottom) & board
            n = 0
            if d == 0:
                for i in range(candidates.shape[0]):
                    mstack[0, i] = candidates[i]
                n = candidates.shape[0]
            else:
                wins = winning_cells(current, mask, height, connect, directions, board, fast) & possible
                if wins:
                    nodes += 1
                    for k in range(width):
                        if wins & column_mask(center_column(k, width), height):
                            pv[d, 0] = center_column(k, width)
                            pvlen[d] = 1
                            break
                    ret = win
                    enter = 0
                    continue
                key = current + mask
                slot = _slot(key, bits)
                first = -1
                if tt_keys[slot] == key:
                    first = tt_move[slot] - 1
                    if tt_gen[slot] == gen:
                        bound = tt_lower[slot]
                        if bound >= beta:
                            ret = bound
                            enter = 0
                            continue
                        bound = tt_upper[slot]
                        if bound <= alpha:
                            ret = bound
                            enter = 0
                            continue
                if first >= 0 and possible & column_mask(first, height):
                    mstack[d, 0] = first
                    n = 1
                else:
                    first = -1
                for k in range(width):
                    column = center_column(k, width)
                    if column != first and possible & column_mask(column, height):
                        mstack[d, n] = column
                        n += 1

            if depth - d == 1:
                # the horizon: score the children here, no descent
                opponent = current ^ mask
                best = -inf
                for i in range(n):
                    column = mstack[d, i]
                    nodes += 1
                    child_mask = mask | ((mask + bottom) & column_mask(column, height))
                    if child_mask == board:
                        score = 0.0
                    else:
                        theirs = current | (child_mask ^ mask)
                        score = -evaluate(opponent, theirs, masks, own_w, opp_w, center, center_mask, cap)
                    if score > best:
                        best = score
                        istack[d, I_BEST] = column
                        pv[d, 0] = column
                        pvlen[d] = 1
                        if score > alpha:
                            alpha = score
                            if alpha >= beta:
                                break
                fstack[d, F_BEST] = best
                ret = best
                enter = 0
                continue

            fstack[d, F_ALPHA] = alpha
            fstack[d, F_BETA] = beta
            fstack[d, F_BEST] = -inf
            fstack[d, F_ALPHA0] = alpha
            istack[d, I_COUNT] = n
            istack[d, I_NEXT] = 0
            istack[d, I_BEST] = -1
            column = mstack[d, 0]
            nodes += 1
            ustack[d + 1, 0] = current ^ mask
            ustack[d + 1, 1] = mask | ((mask + bottom) & column_mask(column, height))
            fstack[d + 1, F_ALPHA] = -beta
            fstack[d + 1, F_BETA] = -alpha
            d += 1
            continue

        # -------------------------------------------- node d returned ``ret``
        if d == 0:
            phase = PHASE_DONE
            break
        d -= 1
        score = -ret
        alpha = fstack[d, F_ALPHA]
        beta = fstack[d, F_BETA]
        i = istack[d, I_NEXT]
        column = mstack[d, i]
        cut = False
        if score > fstack[d, F_BEST]:
            fstack[d, F_BEST] = score
            istack[d, I_BEST] = column
            pv[d, 0] = column
            length = pvlen[d + 1]
            for k in range(length):
                pv[d, k + 1] = pv[d + 1, k]
            pvlen[d] = length + 1
            if score > alpha:
                alpha = score
                fstack[d, F_ALPHA] = alpha
                if alpha >= beta or score == WIN_SCORE - d - 1:
                    cut = True
        i += 1
        if not cut and i < istack[d, I_COUNT]:
            istack[d, I_NEXT] = i
            column = mstack[d, i]
            mask = ustack[d, 1]
            nodes += 1
            ustack[d + 1, 0] = ustack[d, 0] ^ mask
            ustack[d + 1, 1] = mask | ((mask + bottom) & column_mask(column, height))
            fstack[d + 1, F_ALPHA] = -beta
            fstack[d + 1, F_BETA] = -alpha
            d += 1
            enter = 1
            continue
        # node d is finished: remember its bound and best move, return its score
        best = fstack[d, F_BEST]
        if d > 0:
            key = ustack[d, 0] + ustack[d, 1]
            slot = _slot(key, bits)
            lower = -inf
            upper = inf
            move = istack[d, I_BEST]
            if best <= fstack[d, F_ALPHA0]:
                upper = best
            elif best >= beta:
                lower = best
            else:
                lower = best
                upper = best
            if tt_keys[slot] == key:
                if tt_gen[slot] == gen:
                    if tt_lower[slot] > lower:
                        lower = tt_lower[slot]
                    if tt_upper[slot] < upper:
                        upper = tt_upper[slot]
                if best <= fstack[d, F_ALPHA0]:
                    move = tt_move[slot] - 1  # a fail-low proves no move best: keep the old hint
            tt_keys[slot] = key
            tt_lower[slot] = lower
            tt_upper[slot] = upper
            tt_gen[slot] = gen
            tt_move[slot] = move + 1
        ret = best

    state[S_PHASE] = phase
    state[S_DEPTH] = d
    state[S_ENTER] = enter
    state[S_NODES] = nodes
    fret[0] = ret
    return status
