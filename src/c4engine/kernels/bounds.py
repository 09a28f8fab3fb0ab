"""The search's static bounds: what a node's score can be, known before any move is searched.

A node's window ``[alpha, beta)`` (:class:`Window`) is narrowed by the
scores still possible with the stones left (:func:`least_score`,
:func:`most_score`), on boards of even height by Allis' claimeven
(:func:`claimeven_bound`) and the opponent's odd threats
(:func:`odd_threat_bound`), and by the transposition table's bounds; once
its bounds meet, the node's score is known without searching it
(:func:`narrowed`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from numba import njit

from c4engine.kernels.bitboard import U1, Shape, column_mask, has_line, popcount
from c4engine.kernels.scale import win_score

UNKNOWN_LOW = -63
UNKNOWN_HIGH = 63
OPEN = UNKNOWN_HIGH + 1
"""A :class:`Window`'s score while its bounds have not met: the node is searched."""


class Window(NamedTuple):
    """A node's window, ``alpha <= score < beta`` as far as it matters, and ``score``: the node's
    score once the bounds meet, :data:`OPEN` before."""

    alpha: int
    beta: int
    score: int


@njit(cache=True)
def narrowed(alpha: int, beta: int, lower: int, upper: int) -> Window:
    """The window ``[alpha, beta)`` narrowed by ``lower <= score <= upper``, tested in that order:
    its score is ``alpha`` when the lower bound meets ``beta``, else ``beta`` when the upper one
    meets ``alpha`` (fail-soft).  A bound equal to the window's own side is no test at all (the
    compiler drops it).

    >>> narrowed(-5, 5, -2, 3), narrowed(-5, 5, 7, 9).score, narrowed(-5, 5, -9, -6).score
    (Window(alpha=-2, beta=3, score=64), 7, -6)
    """
    if lower > alpha:
        alpha = lower
        if alpha >= beta:
            return Window(alpha, beta, alpha)
    if upper < beta:
        beta = upper
        if alpha >= beta:
            return Window(alpha, beta, beta)
    return Window(alpha, beta, OPEN)


@njit(cache=True)
def least_score(cells: int, stones: int) -> int:
    """The least a side to move scores when the opponent cannot win with its next stone."""
    return -win_score(cells, stones + 3)


@njit(cache=True)
def most_score(cells: int, stones: int) -> int:
    """The most a side to move scores when it cannot win with its next stone."""
    return win_score(cells, stones + 2)


@njit(cache=True)
def static_window(current: Any, mask: Any, stones: int, alpha: int, beta: int, shape: Shape) -> Window:
    """``[alpha, beta)`` narrowed by the scores possible with the stones left and, on a board of
    even height where the side to move began, by :func:`claimeven_bound`: for a node neither
    of whose sides wins with its next stone (the search has pruned those)."""
    cells = shape.width * shape.height
    window = narrowed(alpha, beta, least_score(cells, stones), beta)
    if window.score != OPEN:
        return window
    high = most_score(cells, stones)
    if shape.height % 2 == 0 and beta > -1 and not stones & 1:
        high = min(high, claimeven_bound(current, mask, shape))
    return narrowed(window.alpha, beta, window.alpha, high)


@njit(cache=True)
def claimeven_bound(current: Any, mask: Any, shape: Shape) -> int:
    """An upper bound on the score of the side to move from Allis' claimeven, on a board of even
    height holding an even number of stones (the side to move is the one that began): 0 or -1, or
    ``UNKNOWN_HIGH`` when the strategy proves nothing.

    The opponent can take every empty cell of an even row (2nd, 4th, ...) that is not playable
    now: it answers a move in the same column when the cell above is of an even row, and a move
    onto a playable even-row cell by taking another such cell (there are an even number of
    them, as the empty cells are even in number).  If the cells it leaves hold no line, the side
    to move never wins: at most a draw, and a loss (at most -1) if the opponent's hold one.
    """
    board = shape.board
    playable = (mask + shape.bottom) & board
    follower = (current ^ mask) | (shape.even_rows & board & ~mask & ~playable)
    if has_line(board & ~follower, shape.height, shape.connect, shape.directions):
        return UNKNOWN_HIGH
    return -1 if has_line(follower, shape.height, shape.connect, shape.directions) else 0


@njit(cache=True)
def children_claimeven_hopeless(current: Any, mask: Any, shape: Shape) -> bool:
    """Whether :func:`claimeven_bound` proves nothing after any move from (``current``, ``mask``),
    found with one line test instead of one a move.

    After a move the opponent (the side to move then) keeps the cells it kept here but the one
    played, and may gain the cell above it: it keeps at least those it keeps here that are not
    playable now.  A line among them leaves every child with a line, so with no bound.
    """
    board = shape.board
    playable = (mask + shape.bottom) & board
    follower = current | (shape.even_rows & board & ~mask & ~playable)
    return has_line(board & ~follower & ~playable, shape.height, shape.connect, shape.directions)


@njit(cache=True)
def odd_threat_bound(current: Any, mask: Any, threats: Any, shape: Shape) -> int:
    """An upper bound on the score of the side to move from the opponent's odd threat, on a board of
    even height holding an odd number of stones (the side to move is the one that did not begin),
    the opponent winning at ``threats``: ``-1`` or less, or ``UNKNOWN_HIGH`` when it proves nothing.

    Take a column ``c`` whose next cell is on an even row (2nd, 4th, ...) and an opponent's threat
    ``T`` above it on an odd row.  The opponent answers every move in the same column, on the cell
    above, but a move onto a playable even-row cell of another column, which it answers by taking
    another such cell (there are an even number of them: the empty cells are odd in number, and
    ``c`` has an odd number).  The side to move then gets only odd-row cells outside ``c``, the
    playable even-row cells, and the even-row cells of ``c`` below ``T``; once the other columns
    are full it must play in ``c``, and the opponent takes ``T``.  If those cells hold no line,
    the side to move loses, at the latest when ``T`` is played: the cells above it are then empty.
    """
    board = shape.board
    even = shape.even_rows & board
    playable = (mask + shape.bottom) & board
    empty = board & ~mask
    odd_threats = threats & empty & ~even & ~playable
    best = UNKNOWN_HIGH
    if not odd_threats:
        return best
    zero = mask ^ mask
    one = zero | U1
    mover = current | (empty & ~even) | (playable & even)
    for column in range(shape.width):
        cells = column_mask(column, shape.height, zero)
        if not (playable & even & cells):
            continue
        above = odd_threats & cells
        if not above:
            continue
        lowest = above & ~(above - one)
        below = (lowest - one) & cells
        claimed = (mover & ~cells) | (current & cells) | (even & empty & below)
        if has_line(claimed, shape.height, shape.connect, shape.directions):
            continue
        # the cells above T stay empty: the win comes at the latest with cells - that many stones
        bound = -((popcount(cells & ~below & ~lowest) + 1) // 2)
        if bound < best:
            best = bound
    return best
