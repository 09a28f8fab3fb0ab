"""The exact search: negamax alpha-beta with null windows, resumable in slices.

Scores follow the published solver benchmarks (:mod:`c4engine.search.scale`,
compiled twin :mod:`c4engine.kernels.scale`).

A kernel from :func:`kernel_for` (one per board geometry) holds the whole
solve of a batch of positions, one after the other (a single solve is a
batch of one): the outer loop narrows ``[min, max]`` around the score with
null-window searches (the strong solve starts from the full range, the weak
one from ``[-1, 1]``), the inner one is the
negamax on an explicit stack, so the search can stop after any node and go
on later exactly where it stopped.  The search stack, the batch's rows and
the solve's own state are arrays laid out in :mod:`c4engine.kernels.layout`,
so a Python caller can run a slice, poll, and run the next one.  Per node:
moves that lose at once are pruned (a node left with one move, the block of the
opponent's threat, goes straight to its child: that child's table entry holds all the node's
would, so the node keeps none and ranks nothing), the window is
clamped by the best and worst score still possible, on boards of even
height by Allis' claimeven and the opponent's odd threats, and by the transposition
table's bounds (:mod:`c4engine.kernels.bounds`), a child whose stored bound, claimeven
or odd-threat bound already refutes the node cuts it off and one whose stored bound cannot
raise alpha is not tried (enhanced transposition cutoff, away from the
leaves), then the moves are tried best first.  The children's table buckets are prefetched
(all of them before the cutoff reads any; near the leaves, before the
first child is searched), so that their loads overlap instead of each
waiting on memory in turn; once a search is long enough to have spread
its entries beyond a core's cache, the buckets the first child's cutoff
will read are asked for too before this node's cutoff reads its own, so
that the two waits overlap.  Positions near the end of the game have a
small part of the table to themselves, and both parts grow with the
search, from 512 KiB each (see :mod:`c4engine.kernels.transposition`).
Positions with fewer than ``SYMMETRY_STONES`` stones share one table entry
with their mirror image (the smaller key; the stored move is mirrored with
it).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from c4engine.kernels import SPECIALISED, is_cached
from c4engine.kernels.bitboard import (
    Shape,
    bit_length,
    board_shape,
    column_mask,
    mirror,
    winning_cells,
)
from c4engine.kernels.bounds import (
    OPEN,
    UNKNOWN_HIGH,
    UNKNOWN_LOW,
    children_claimeven_hopeless,
    claimeven_bound,
    least_score,
    narrowed,
    odd_threat_bound,
    static_window,
)
from c4engine.kernels.layout import (
    CANCELLED,
    DONE,
    I_ALPHA,
    I_ALPHA0,
    I_BEST,
    I_BETA,
    I_COUNT,
    I_DEFERRED,
    I_MIRROR,
    I_NEXT,
    I_NODES0,
    PAUSED,
    PHASE_DONE,
    PHASE_SEARCH,
    PHASE_START,
    R_LOWER,
    R_NODES,
    R_ROOT_MOVE,
    R_SCORE,
    R_STONES,
    R_UPPER,
    S_DEPTH,
    S_ENTER,
    S_MAX,
    S_MED,
    S_MIN,
    S_NODES,
    S_PHASE,
    S_POSITION,
    S_RET,
    S_ROOT_BOUND,
    S_ROOT_MOVE,
    KernelArgs,
)
from c4engine.kernels.moves import center_column, drop_moves, order_moves, to_back, to_front
from c4engine.kernels.scale import win_score
from c4engine.kernels.table import (
    Part,
    Parts,
    data_lower,
    data_move,
    data_upper,
    grown,
    key_bits,
    part_of,
    parts_in_use,
    prefetch,
    probe,
    scramble,
    store,
)
from c4engine.kernels.wide import get, get1, low, put, put1, zero_of

SYMMETRY_STONES = 14
"""Positions with fewer stones are stored under the smaller of their key and their mirror's."""

FAR_PREFETCH_NODES = 1 << 17
"""From this many nodes into a position's search on, a cutoff node also prefetches its first child's
children's buckets: a search this long has spread its entries beyond a core's own cache, so its
probes wait on memory (a shorter one would pay for the prefetches and gain nothing)."""

NEAR_SCORE_STONES = 6
"""Positions with fewer stones test the score's sign first, then from the extremes inward as later ones do."""


@njit(cache=True)
def half(x: int) -> int:
    """``x / 2`` rounded toward zero, as C does."""
    return x // 2 if x >= 0 else -((-x) // 2)


class Key(NamedTuple):
    """A position's key as the table keeps it."""

    h: Any
    """The scrambled key (:func:`c4engine.kernels.table.scramble`) of the position or, early in the
    game, of its mirror image when that one's is smaller."""
    mirrored: int
    """1 when ``h`` is the mirror image's (the stored move is mirrored with it), else 0."""


@njit(cache=True)
def table_key(current: Any, mask: Any, stones: int, width: int, height: int, kbits: int) -> Key:
    """The :class:`Key` of a position of ``stones`` stones: left-right symmetry gives a position and
    its mirror image one entry while fewer than :data:`SYMMETRY_STONES` are played."""
    key = current + mask
    mirrored = 0
    if stones < SYMMETRY_STONES:
        mirrored_key = mirror(key, width, height)
        if mirrored_key < key:
            key = mirrored_key
            mirrored = 1
    return Key(scramble(key, kbits), mirrored)


@njit(cache=True)
def shared_key(current: Any, mask: Any, stones: int, width: int, height: int, kbits: int) -> Any:
    """The scrambled key of a position as the table keeps it (:func:`table_key`): what a busy mark
    holds."""
    return table_key(current, mask, stones, width, height, kbits).h


@njit(cache=True)
def stored_column(column: int, mirrored: int, width: int) -> int:
    """``column`` mirrored when the key is the mirror image's (:class:`Key`): a column as the entry
    keeps it, and an entry's column as the position plays it."""
    return width - 1 - column if mirrored else column


@njit(cache=True)
def busy_slot(h: Any, shift: int, slots: int) -> int:
    """The busy marks' slot of scrambled key ``h``: its top bits, as the table's buckets take them."""
    return int(low(h >> np.uint64(shift)) & np.uint64(slots - 1))


@njit(cache=True)
def prefetch_children(
    table: np.ndarray, part: Part, side: Any, mask: Any, moves: Any, stones: int, shape: Shape, kbits: int
) -> None:
    """Start loading the buckets (in ``part``) of the positions after each of ``moves`` (one cell a
    column) from the position of ``stones`` stones, cells ``mask``, whose side not to move holds
    ``side``: so that their loads overlap one another and the work before they are read."""
    for i in range(shape.width):
        move = moves & column_mask(i, shape.height, mask ^ mask)
        if move:
            h = shared_key(side, mask | move, stones + 1, shape.width, shape.height, kbits)
            prefetch(table, part.base, h, part.shift)


@njit(cache=True)
def hash_children(
    table: np.ndarray,
    part: Part,
    opponent: Any,
    mask: Any,
    possible: Any,
    stones: int,
    shape: Shape,
    kbits: int,
    child_hashes: np.ndarray,
) -> None:
    """Keep in ``child_hashes`` (one a column) the keys of the positions after each of ``possible``
    from the position of ``stones`` stones, and start loading their buckets in ``part``: the
    enhanced transposition cutoff reads them once the moves are ranked, so that the loads overlap
    one another and the ranking."""
    for i in range(shape.width):
        move = possible & column_mask(i, shape.height, mask ^ mask)
        if move:
            put1(
                child_hashes,
                i,
                shared_key(opponent, mask | move, stones + 1, shape.width, shape.height, kbits),
            )
            prefetch(table, part.base, get1(child_hashes, i), part.shift)


@njit(cache=True)
def safe_moves(mask: Any, threats: Any, shape: Shape) -> Any:
    """The moves from a position of cells ``mask`` whose opponent wins at ``threats`` that do not
    lose at once: the one that blocks a threat if there is one, and none under a threat; none at
    all when two threats are to be blocked."""
    possible = (mask + shape.bottom) & shape.board
    forced = possible & threats
    if forced:
        if forced & (forced - np.uint64(1)):  # two threats: the opponent's next stone wins
            return forced ^ forced
        possible = forced
    return possible & ~(threats >> np.uint64(1))


class Lookahead(NamedTuple):
    """What a node learns from its children before searching any (:func:`look_ahead`)."""

    refuted: int
    """The column of a child that refutes the node, -1 none."""
    score: int
    """The score that child proves this node reaches at least (when ``refuted`` is one)."""
    dropped: Any
    """The moves whose children cannot raise alpha: not worth searching."""
    floor: int
    """The best the node's dropped moves reach, and at least the floor it was given."""


@njit(cache=True)
def look_ahead(
    table: np.ndarray,
    part: Part,
    child_hashes: np.ndarray,
    opponent: Any,
    mask: Any,
    possible: Any,
    alpha: int,
    beta: int,
    floor: int,
    shape: Shape,
    look_up: bool,
    claim: bool,
    odd: bool,
    mthreats: np.ndarray,
    d: int,
) -> Lookahead:
    """The children of a node, window ``[alpha, beta)``, cells ``mask``, moves ``possible``, looked at
    before any is searched: with ``look_up``, their table entries (in ``part``, keys in
    ``child_hashes``: :func:`hash_children`) -- enhanced transposition cutoff --, with
    ``claim`` their claimeven bounds (:func:`c4engine.kernels.bounds.claimeven_bound`, their side
    to move having begun), and with ``odd`` (and ``look_up``) their odd-threat bounds
    (:func:`c4engine.kernels.bounds.odd_threat_bound`, their side to move not having begun; each
    move's threats in ``mthreats[d + 1]`` by column, as the ranking of ply ``d`` left them).

    A child known to score at most ``-beta`` (for the opponent) refutes the node at once; one
    known to score at least ``-alpha``, which cannot raise alpha, is dropped.  Without
    ``look_up`` every child's claimeven bound is taken (``claim`` is then True).
    """
    zero = mask ^ mask
    dropped = zero
    for i in range(shape.width):
        move = possible & column_mask(i, shape.height, zero)
        if move:
            if look_up:
                cdata = probe(table, part.base, get1(child_hashes, i), part.shift)
                t = -data_upper(cdata) if cdata else UNKNOWN_LOW
                if claim and t < beta:
                    t = max(t, -claimeven_bound(opponent, mask | move, shape))
                if odd and t < beta:
                    t = max(t, -odd_threat_bound(opponent, mask | move, get(mthreats, d + 1, i), shape))
            else:
                cdata = np.uint64(0)
                t = -claimeven_bound(opponent, mask | move, shape)
            if t >= beta:
                return Lookahead(i, t, dropped, floor)
            if cdata and -data_lower(cdata) <= alpha:
                dropped |= move
                floor = max(floor, -data_lower(cdata))
    return Lookahead(-1, UNKNOWN_LOW, dropped, floor)


@njit(cache=True)
def stored_refutation(table: np.ndarray, part: Part, key: Key, ahead: Lookahead, width: int) -> int:
    """Store what a child found by :func:`look_ahead` proved of its node (a lower bound, that
    child's move the best) under ``key``, and return that bound: the node's score."""
    best = stored_column(ahead.refuted, key.mirrored, width)
    store(table, part.base, key.h, part.shift, ahead.score, UNKNOWN_HIGH, best, 0, part.most)
    return ahead.score


@njit(cache=True)
def rank_moves(
    current: Any,
    mask: Any,
    possible: Any,
    threats: Any,
    first: int,
    first_move: Any,
    alone: bool,
    d: int,
    shape: Shape,
    args: KernelArgs,
) -> int:
    """Write the moves of ``possible`` to try at ply ``d`` into ``args.moves[d]``
    (:mod:`c4engine.kernels.moves`), the table's move ``first_move`` (column ``first``; 0: none) first,
    and return their number.

    When ``alone``, the table's move is the only one written: the others are ranked only if it
    fails to cut (:func:`rank_rest`; ``args.ustack[d, 3]`` keeps them till then).
    """
    ustack, moves, columns, mthreats, scores = (
        args.ustack,
        args.moves,
        args.columns,
        args.mthreats,
        args.scores,
    )
    if first_move and alone:
        put(moves, d, 0, first_move)
        columns[d, 0] = first
        put(
            mthreats,
            d,
            0,
            winning_cells(
                current | first_move,
                mask,
                shape.height,
                shape.connect,
                shape.directions,
                shape.board,
                shape.fast,
            ),
        )
        put(ustack, d, 3, possible & ~first_move)
        return 1
    n = order_moves(current, mask, possible, threats, 0, d, shape, moves, columns, mthreats, scores)
    put(ustack, d, 3, possible ^ possible)
    if first_move:  # ranked with the others while the buckets load, but tried first
        to_front(first_move, n, moves, columns, mthreats, d)
    return n


@njit(cache=True)
def rank_rest(
    parts: Parts, d: int, stones: int, count: int, shape: Shape, kbits: int, args: KernelArgs
) -> int:
    """Rank the moves ply ``d`` (``stones`` stones) put off (:func:`rank_moves`) after its first
    ``count``, their buckets loading meanwhile; returns the moves it now has."""
    ustack = args.ustack
    current, mask, rest = get(ustack, d, 0), get(ustack, d, 1), get(ustack, d, 3)
    prefetch_children(
        args.table, part_of(parts, stones + 1), current ^ mask, mask, rest, stones, shape, kbits
    )
    threats = winning_cells(
        current ^ mask, mask, shape.height, shape.connect, shape.directions, shape.board, shape.fast
    )
    count = order_moves(
        current, mask, rest, threats, count, d, shape, args.moves, args.columns, args.mthreats, args.scores
    )
    put(ustack, d, 3, rest ^ rest)
    return count


@njit(cache=True)
def open_frame(
    ustack: np.ndarray,
    istack: np.ndarray,
    d: int,
    key: Key,
    alpha: int,
    beta: int,
    count: int,
    nodes: int,
    low: int,
) -> None:
    """Ply ``d``'s frame, before its first move is searched: its key, window, ``count`` moves, the
    ``nodes`` so far and ``low``, the most its moves not searched reach."""
    put(ustack, d, 2, key.h)
    istack[d, I_ALPHA] = alpha
    istack[d, I_BETA] = beta
    istack[d, I_COUNT] = count
    istack[d, I_NEXT] = 0
    istack[d, I_ALPHA0] = alpha
    istack[d, I_NODES0] = nodes
    istack[d, I_MIRROR] = key.mirrored
    # fail-soft: a node whose moves all fail low returns the best they reached; the moves
    # not searched (losing at once, or dropped by the cutoff) reach at most ``low``
    istack[d, I_BEST] = low


@njit(cache=True)
def enter_child(
    ustack: np.ndarray, istack: np.ndarray, d: int, current: Any, mask: Any, alpha: int, beta: int
) -> None:
    """Ply ``d + 1`` set to the position (``current``, ``mask``) after a move of ply ``d``, whose
    window is ``[alpha, beta)``: negamax, the child's window is ``[-beta, -alpha)``."""
    put(ustack, d + 1, 0, current)
    put(ustack, d + 1, 1, mask)
    istack[d + 1, I_ALPHA] = -beta
    istack[d + 1, I_BETA] = -alpha


@njit(cache=True)
def unmark(busy: np.ndarray, shift: int, h: Any) -> None:
    """Take away the busy mark of the position of scrambled key ``h`` (unless another took the slot)."""
    slot = busy_slot(h, shift, busy.shape[0])
    if get1(busy, slot) == h:
        put1(busy, slot, h ^ h)


@njit(cache=True)
def next_unmarked(
    i: int,
    count: int,
    d: int,
    stones: int,
    busy: np.ndarray,
    busy_shift: int,
    kbits: int,
    shape: Shape,
    ustack: np.ndarray,
    istack: np.ndarray,
    moves: np.ndarray,
    columns: np.ndarray,
    mthreats: np.ndarray,
) -> int:
    """The next move of ply ``d`` to search in a race, from move ``i`` on, marked busy now: the first
    move no other thread marked, or one put off once already; the moves another thread is on are
    put off to the end of the row, each once (their children have ``stones`` stones)."""
    if i == 1:
        istack[d, I_DEFERRED] = 0
    limit = count - istack[d, I_DEFERRED]  # the moves from limit on were put off once
    child_current = get(ustack, d, 0) ^ get(ustack, d, 1)
    while i < count:
        h = shared_key(
            child_current, get(ustack, d, 1) | get(moves, d, i), stones, shape.width, shape.height, kbits
        )
        slot = busy_slot(h, busy_shift, busy.shape[0])
        if i >= limit or get1(busy, slot) != h:
            put1(busy, slot, h)  # the move to search next
            break
        to_back(i, count, moves, columns, mthreats, d)
        limit -= 1
    istack[d, I_DEFERRED] = count - limit
    return i


@njit(cache=True)
def won_at_once(state: np.ndarray, current: Any, mask: Any, stones: int, shape: Shape) -> bool:
    """Whether the side to move at the root wins with its next stone; if so the solve's state says
    so, score and move (the centre's first), and is done.  The negamax assumes there is no such win."""
    possible = (mask + shape.bottom) & shape.board
    wins = possible & winning_cells(
        current, mask, shape.height, shape.connect, shape.directions, shape.board, shape.fast
    )
    if not wins:
        return False
    for i in range(shape.width):
        column = center_column(i, shape.width)
        if wins & column_mask(column, shape.height, mask ^ mask):
            state[S_ROOT_MOVE] = column
            break
    score = win_score(shape.width * shape.height, stones)
    if state[S_MAX] < score:  # weak solve: [-1, 1]
        score = state[S_MAX]
    state[S_MIN] = state[S_MAX] = state[S_ROOT_BOUND] = score  # the window closed on it
    state[S_PHASE] = PHASE_DONE
    return True


@njit(cache=True)
def null_window_value(lo: int, hi: int, stones: int) -> int:
    """The value the next null-window search at the root tests, the score being within ``[lo, hi]``:
    the middle, moved halfway to the nearer end of the scale.

    Early in the game scores are near 0: the sign first (the weak solve's search, whose table the
    rest reuse), then from the extremes inward.
    """
    med = lo + (hi - lo) // 2
    if stones < NEAR_SCORE_STONES and lo < 0 < hi:
        med = 0
    elif med <= 0 and half(lo) < med:
        med = half(lo)
    elif med >= 0 and half(hi) > med:
        med = half(hi)
    return med


@njit(cache=True)
def root_returned(state: np.ndarray, istack: np.ndarray, columns: np.ndarray, ret: int) -> None:
    """Narrow the solve's window with the score ``ret`` the root's null-window search returned, and
    keep the root move that proved a lower bound."""
    med = state[S_MED]
    if ret <= med:
        state[S_MAX] = ret
    else:
        state[S_MIN] = ret
        if istack[0, I_NEXT] < istack[0, I_COUNT] and ret >= istack[0, I_BETA]:
            state[S_ROOT_MOVE] = columns[0, istack[0, I_NEXT]]
            state[S_ROOT_BOUND] = ret
    istack[0, I_COUNT] = 0  # the root frame is consumed


@njit(cache=True)
def _search(
    current0: Any,
    mask0: Any,
    stones0: int,
    width: int,
    height: int,
    connect: int,
    args: KernelArgs,
) -> int:
    """The body of the kernels made by :func:`kernel_for` (see there)."""
    table, bits, near_bits, etc_until, node_stop = (
        args.table,
        args.bits,
        args.near_bits,
        args.etc_until,
        args.node_stop,
    )
    state, cancel, ustack, istack = args.state, args.cancel, args.ustack, args.istack
    moves, columns, mthreats = args.moves, args.columns, args.mthreats
    child_hashes = args.child_hashes
    busy, shared_until = args.busy, args.shared_until
    cells = width * height
    zero = zero_of(ustack)  # of the board's word type: a uint64, or 128 bits past 64 (kernels.wide)
    shape = board_shape(width, height, connect, zero)
    board, bottom = shape.board, shape.bottom
    claimeven = height % 2 == 0  # see kernels.bounds.claimeven_bound
    kbits = key_bits(width, height, bits)
    busy_shift = max(kbits - bit_length(np.uint64(busy.shape[0] - 1)), 0)
    parts = parts_in_use(table, bits, near_bits, args.near_from, kbits, cells)

    fresh = state[S_PHASE] == PHASE_START and state[S_NODES] == 0 and state[S_ROOT_MOVE] == -1
    if fresh and won_at_once(state, current0, mask0, stones0, shape):
        return DONE

    phase = state[S_PHASE]
    d = state[S_DEPTH]
    enter = state[S_ENTER]
    ret = state[S_RET]
    nodes = state[S_NODES]
    status = DONE

    while True:
        if phase == PHASE_DONE:
            break
        if phase == PHASE_START:
            lo = state[S_MIN]
            hi = state[S_MAX]
            if lo >= hi:
                phase = PHASE_DONE
                break
            med = null_window_value(lo, hi, stones0)
            state[S_MED] = med
            put(ustack, 0, 0, current0)
            put(ustack, 0, 1, mask0)
            istack[0, I_ALPHA] = med
            istack[0, I_BETA] = med + 1
            d = 0
            enter = 1
            phase = PHASE_SEARCH

        if enter:
            # ---------------------------------------------------- enter node d
            if nodes >= node_stop:
                status = PAUSED
                break
            if (nodes & 4095) == 0 and cancel[0]:
                status = CANCELLED
                break
            nodes += 1
            if nodes >= parts.next_growth:
                parts = grown(table, parts, nodes, bits, near_bits, kbits, zero)
            current = get(ustack, d, 0)
            mask = get(ustack, d, 1)
            stones = stones0 + d
            opponent = current ^ mask
            if d > 0:
                # computed by the parent when it ordered its moves
                threats = get(mthreats, d - 1, istack[d - 1, I_NEXT]) & ~mask
            else:
                threats = winning_cells(opponent, mask, height, connect, shape.directions, board, shape.fast)
            possible = safe_moves(mask, threats, shape)
            if possible == 0:  # the opponent's next stone wins
                ret = -win_score(cells, stones + 1)
                enter = 0
                continue
            if stones >= cells - 2:
                ret = 0
                enter = 0
                continue
            window = static_window(current, mask, stones, istack[d, I_ALPHA], istack[d, I_BETA], shape)
            if window.score != OPEN:
                ret = window.score
                enter = 0
                continue
            if claimeven and stones & 1 and window.alpha >= -(height // 2):
                # the side to move did not begin: the opponent's odd threat may win by zugzwang
                window = narrowed(
                    window.alpha, window.beta, window.alpha, odd_threat_bound(current, mask, threats, shape)
                )
                if window.score != OPEN:
                    ret = window.score
                    enter = 0
                    continue
            if d > 0 and possible & threats:
                # a forced block: its one child's entry holds all this node's would, so the node
                # keeps none (its frame's key is 0, which no position's is) and ranks nothing
                put(moves, d, 0, possible)
                put(mthreats, d, 0, winning_cells(
                    current | possible, mask, height, connect, shape.directions, board, shape.fast
                ))  # fmt: skip
                put(ustack, d, 3, zero)
                open_frame(
                    ustack, istack, d, Key(zero, 0), window.alpha, window.beta, 1, nodes,
                    least_score(cells, stones),
                )  # fmt: skip
                enter_child(ustack, istack, d, opponent, mask | possible, window.alpha, window.beta)
                d += 1
                continue
            key = table_key(current, mask, stones, width, height, kbits)
            part = part_of(parts, stones)
            first = -1
            if d > 0:
                data = probe(table, part.base, key.h, part.shift)
                if data:
                    window = narrowed(window.alpha, window.beta, data_lower(data), data_upper(data))
                    if window.score != OPEN:
                        ret = window.score
                        enter = 0
                        continue
                    first = data_move(data)
                    if first >= 0:
                        first = stored_column(first, key.mirrored, width)
            alpha, beta = window.alpha, window.beta
            first_move = possible & column_mask(first, height, zero) if first >= 0 else zero
            cutoff = d > 0 and stones < etc_until
            child = part_of(parts, stones + 1)
            # a child's claimeven bound (its side to move began) may refute this node: below the
            # cutoff's plies this is all that is looked at before the moves are searched
            claim = claimeven and stones & 1 and beta <= 1 and d > 0
            claim = claim and not children_claimeven_hopeless(current, mask, shape)
            if stones >= etc_until:
                # the buckets of the children about to be ranked, loading while they are
                # ranked and the first is searched (nodes that try the cutoff ask below)
                ranked = first_move if first_move else possible
                prefetch_children(table, child, opponent, mask, ranked, stones, shape, kbits)
            if cutoff:
                hash_children(table, child, opponent, mask, possible, stones, shape, kbits, child_hashes)
            n = rank_moves(
                current, mask, possible, threats, first, first_move, not cutoff, d, shape, args
            )  # fmt: skip
            if cutoff and stones + 1 < etc_until and nodes >= FAR_PREFETCH_NODES:
                # the buckets the first child's own cutoff will read, asked for now: they load while
                # this node waits on its children's below, not after the child is entered
                leading = get(moves, d, 0)  # the first move
                replies = ((mask | leading) + bottom) & board
                prefetch_children(
                    table,
                    part_of(parts, stones + 2),
                    current | leading,
                    mask | leading,
                    replies,
                    stones + 1,
                    shape,
                    kbits,
                )
            low = least_score(cells, stones)
            # a child's odd-threat bound (this node's side began) may refute it; the ranking above
            # left each move's threats in row d + 1
            odd = cutoff and claimeven and not stones & 1 and beta <= height // 2
            if cutoff or claim:
                # the children's entries (with the cutoff), claimeven and odd-threat bounds
                ahead = look_ahead(
                    table, child, child_hashes, opponent, mask, possible, alpha, beta, low, shape,
                    cutoff, claim, odd, mthreats, d,
                )  # fmt: skip
                if ahead.refuted >= 0:
                    ret = stored_refutation(table, part, key, ahead, width)
                    enter = 0
                    continue
                if ahead.dropped:
                    n = drop_moves(ahead.dropped, n, moves, columns, mthreats, d)
                    if n == 0:
                        store(table, part.base, key.h, part.shift, UNKNOWN_LOW, ahead.floor, -1, 0, part.most)
                        ret = ahead.floor
                        enter = 0
                        continue
                low = ahead.floor
            open_frame(ustack, istack, d, key, alpha, beta, n, nodes, low)
            enter_child(ustack, istack, d, opponent, mask | get(moves, d, 0), alpha, beta)
            d += 1
            continue

        # -------------------------------------------- node d returned ``ret``
        if d == 0:
            root_returned(state, istack, columns, ret)
            phase = PHASE_START
            continue
        d -= 1
        if d < shared_until and istack[d, I_NEXT] > 0:
            # the move's position is searched: its busy mark goes
            unmark(
                busy,
                busy_shift,
                shared_key(
                    get(ustack, d + 1, 0), get(ustack, d + 1, 1), stones0 + d + 1, width, height, kbits
                ),
            )
        score = -ret
        alpha = istack[d, I_ALPHA]
        beta = istack[d, I_BETA]
        i = istack[d, I_NEXT]
        if score >= beta:  # a cut: the score is a lower bound, reached by this move
            best = stored_column(columns[d, i], istack[d, I_MIRROR], width)
            lower, upper, ret = score, UNKNOWN_HIGH, score
        else:
            if score > alpha:
                alpha = score
                istack[d, I_ALPHA] = alpha
            if score > istack[d, I_BEST]:
                istack[d, I_BEST] = score
            i += 1
            count = istack[d, I_COUNT]
            if i == count and get(ustack, d, 3):
                count = rank_rest(parts, d, stones0 + d, count, shape, kbits, args)
                istack[d, I_COUNT] = count
            if d < shared_until:
                # the first move failed to cut: the others are put off while another thread of
                # the race searches them (each once), and marked busy while this one does
                i = next_unmarked(
                    i, count, d, stones0 + d + 1, busy, busy_shift, kbits, shape,
                    ustack, istack, moves, columns, mthreats,
                )  # fmt: skip
            if i < count:
                istack[d, I_NEXT] = i
                enter_child(
                    ustack,
                    istack,
                    d,
                    get(ustack, d, 0) ^ get(ustack, d, 1),
                    get(ustack, d, 1) | get(moves, d, i),
                    alpha,
                    beta,
                )
                d += 1
                enter = 1
                continue
            # every move tried: the best they reached is an upper bound, and a lower one if it
            # raised alpha
            best, upper, ret = -1, istack[d, I_BEST], istack[d, I_BEST]
            lower = alpha if alpha > istack[d, I_ALPHA0] else UNKNOWN_LOW
            istack[d, I_NEXT] = i
        if get(ustack, d, 2):  # not a forced block's frame
            part = part_of(parts, stones0 + d)
            work = bit_length(np.uint64(nodes - istack[d, I_NODES0]))
            store(table, part.base, get(ustack, d, 2), part.shift, lower, upper, best, work, part.most)

    state[S_PHASE] = phase
    state[S_DEPTH] = d
    state[S_ENTER] = enter
    state[S_RET] = ret
    state[S_NODES] = nodes
    return status


@njit(cache=True)
def _solve_batch(args: KernelArgs, width: int, height: int, connect: int) -> int:
    """:func:`_search` over a batch's positions from ``state[S_POSITION]`` on (see :func:`kernel_for`)."""
    boards, rows, state = args.boards, args.rows, args.state
    while True:
        p = state[S_POSITION]
        status = _search(
            get(boards, p, 0), get(boards, p, 1), rows[p, R_STONES], width, height, connect, args
        )
        if status != DONE:
            return status
        rows[p, R_SCORE] = state[S_MIN]
        rows[p, R_NODES] = state[S_NODES]
        # the root move is a best move only when the bound it proved is the score
        rows[p, R_ROOT_MOVE] = state[S_ROOT_MOVE] if state[S_ROOT_BOUND] >= state[S_MIN] else -1
        p += 1
        if p == boards.shape[0]:
            return DONE
        state[:] = 0
        state[S_MIN] = rows[p, R_LOWER]
        state[S_MAX] = rows[p, R_UPPER]
        state[S_ROOT_MOVE] = -1
        state[S_POSITION] = p


Kernel = Callable[[KernelArgs], int]


@njit(cache=True, nogil=True)
def _generic_kernel(args: KernelArgs, width: int, height: int, connect: int) -> int:
    """:func:`_solve_batch` with the sizes as run-time arguments: one kernel for every geometry."""
    return _solve_batch(args, width, height, connect)


def is_compiled(width: int, height: int, connect: int) -> bool:
    """Whether the geometry's kernel runs without compiling first (:func:`c4engine.kernels.is_cached`)."""
    if (width, height, connect) in SPECIALISED:
        return is_cached(kernel_for(width, height, connect))
    return is_cached(_generic_kernel)


@functools.cache
def kernel_for(width: int, height: int, connect: int) -> Kernel:
    """The search for one geometry: compiled with its sizes for :data:`SPECIALISED` ones
    (cached on disk per geometry by numba), else the shared ``_generic_kernel``.

    ``kernel(args)`` (a :class:`c4engine.kernels.layout.KernelArgs`: the
    arrays of :mod:`c4engine.kernels.layout`; the table's two parts as
    :mod:`c4engine.kernels.transposition` lays them out, positions of
    ``near_from`` stones or more in the near-end part) solves a batch of
    positions in order, sharing the table: position ``p`` is
    (``boards[p, 0]``, ``boards[p, 1]``) = (current, mask) with
    ``rows[p, R_STONES]`` stones, searched within ``[rows[p, R_LOWER],
    rows[p, R_UPPER]]``.  It advances the solve of position
    ``state[S_POSITION]`` until done, ``node_stop`` nodes, or cancel; when
    one is done it writes ``rows[p, R_SCORE]``, ``rows[p, R_NODES]`` and
    ``rows[p, R_ROOT_MOVE]``, starts the next from a fresh state and goes
    on, until the last.  Nodes with fewer than ``etc_until`` stones first
    look their children up in the table (enhanced transposition cutoff).  It
    returns DONE (the last score is ``state[S_MIN]``), PAUSED or CANCELLED.
    A single solve is a batch of one, resumable slice by slice; a batch of
    many costs one call from Python, which matters when a position takes
    only a few microseconds to solve, about what such a call costs.

    The sizes are closure constants, which numba compiles in: LLVM then
    folds the shifts, masks and the column loops of the hot path, which
    run-time sizes left as variable shifts and loads.
    """
    if (width, height, connect) not in SPECIALISED:

        def generic(args: KernelArgs) -> int:
            return int(_generic_kernel(args, width, height, connect))

        return generic

    @njit(cache=True, nogil=True)
    def kernel(args: KernelArgs) -> int:
        return _solve_batch(args, width, height, connect)

    return kernel
