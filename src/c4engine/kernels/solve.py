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
forced replies and moves that lose at once are pruned, the window is
clamped by the best and worst score still possible, on boards of even
height by Allis' claimeven (:func:`claimeven_bound`), and by the
transposition table's bounds, a child whose stored bound or claimeven bound
already refutes the node cuts it off and one whose stored bound cannot
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
from typing import Any

import numpy as np
from numba import njit

from c4engine.kernels import SPECIALISED, is_cached
from c4engine.kernels.bitboard import (
    bit_length,
    board_mask,
    bottom_mask,
    column_mask,
    even_row_cells,
    fast_path,
    has_line,
    line_directions,
    mirror,
    winning_cells,
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
    data_lower,
    data_move,
    data_upper,
    grow_part,
    growth_nodes,
    key_bits,
    part_in_use,
    part_shape,
    prefetch,
    probe,
    scramble,
    store,
)
from c4engine.kernels.transposition import GROWTH_SHIFT, NEAR_GROWTH_SHIFT, TABLE_HEADER
from c4engine.kernels.wide import get, get1, low, put, put1, word_bits, zero_of

SYMMETRY_STONES = 14
"""Positions with fewer stones are stored under the smaller of their key and their mirror's."""

FAR_PREFETCH_NODES = 1 << 17
"""From this many nodes into a position's search on, a cutoff node also prefetches its first child's
children's buckets: a search this long has spread its entries beyond a core's own cache, so its
probes wait on memory (a shorter one would pay for the prefetches and gain nothing)."""

NEAR_SCORE_STONES = 6
"""Positions with fewer stones test the score's sign first, then from the extremes inward as later ones do."""

UNKNOWN_LOW = -63
UNKNOWN_HIGH = 63


@njit(cache=True, inline="always")
def half(x: int) -> int:
    """``x / 2`` rounded toward zero, as C does."""
    return x // 2 if x >= 0 else -((-x) // 2)


@njit(cache=True, inline="always")
def table_part(
    stones: int,
    near_from: int,
    near_base: np.uint64,
    near_tshift: int,
    near_max_work: int,
    tshift: int,
    max_work: int,
) -> tuple[np.uint64, int, int]:
    """(first entry, tag shift, work limit) of the table part for a position of ``stones`` stones
    (see :mod:`c4engine.kernels.table`)."""
    if stones >= near_from:
        return near_base, near_tshift, near_max_work
    return np.uint64(0), tshift, max_work


@njit(cache=True, inline="always")
def shared_key(current: Any, mask: Any, stones: int, width: int, height: int, kbits: int) -> Any:
    """The scrambled key of a position as the table keeps it (its mirror's when smaller, early in
    the game): what a busy mark holds."""
    key = current + mask
    if stones < SYMMETRY_STONES:
        mirrored_key = mirror(key, width, height)
        if mirrored_key < key:
            key = mirrored_key
    return scramble(key, kbits)


@njit(cache=True, inline="always")
def busy_slot(h: Any, shift: int, slots: int) -> int:
    """The busy marks' slot of scrambled key ``h``: its top bits, as the table's buckets take them."""
    return int(low(h >> np.uint64(shift)) & np.uint64(slots - 1))


@njit(cache=True, inline="always")
def prefetch_children(
    table: np.ndarray,
    base: np.uint64,
    shift: int,
    side: Any,
    mask: Any,
    moves: Any,
    stones: int,
    shape: Any,
    kbits: int,
) -> None:
    """Start loading the buckets (in the part at ``base``) of the positions after each of ``moves``
    (one cell a column) from the position of ``stones`` stones, cells ``mask``, whose side not to
    move holds ``side``: so that their loads overlap one another and the work before they are read."""
    width, height = shape[0], shape[1]
    for i in range(width):
        move = moves & column_mask(i, height, mask ^ mask)
        if move:
            prefetch(table, base, shared_key(side, mask | move, stones + 1, width, height, kbits), shift)


@njit(cache=True, inline="always")
def claimeven_bound(
    current: Any,
    mask: Any,
    height: int,
    connect: int,
    directions: int,
    board: Any,
    bottom: Any,
    even_rows: Any,
) -> int:
    """An upper bound on the score of the side to move from Allis' claimeven, on a board of even
    height holding an even number of stones (the side to move is the one that began): 0 or -1, or
    ``UNKNOWN_HIGH`` when the strategy proves nothing.

    The opponent can take every empty cell of an even row (2nd, 4th, ...) that is not playable
    now: it answers a move in the same column when the cell above is of an even row, and a move
    onto a playable even-row cell by taking another such cell (there are an even number of
    them, as the empty cells are even in number).  If the cells it leaves hold no line, the side
    to move never wins: at most a draw, and a loss (at most -1) if the opponent's hold one.
    """
    playable = (mask + bottom) & board
    follower = (current ^ mask) | (even_rows & board & ~mask & ~playable)
    if has_line(board & ~follower, height, connect, directions):
        return UNKNOWN_HIGH
    return -1 if has_line(follower, height, connect, directions) else 0


@njit(cache=True, inline="always")
def children_claimeven_hopeless(current: Any, mask: Any, claim: tuple[int, int, int, Any, Any, Any]) -> bool:
    """Whether :func:`claimeven_bound` proves nothing after any move from (``current``, ``mask``),
    found with one line test instead of one a move; ``claim`` is its other arguments,
    ``(height, connect, directions, board, bottom, even_rows)``.

    After a move the opponent (the side to move then) keeps the cells it kept here but the one
    played, and may gain the cell above it: it keeps at least those it keeps here that are not
    playable now.  A line among them leaves every child with a line, so with no bound.
    """
    height, connect, directions, board, bottom, even_rows = claim
    playable = (mask + bottom) & board
    follower = current | (even_rows & board & ~mask & ~playable)
    return has_line(board & ~follower & ~playable, height, connect, directions)


@njit(inline="always")
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
    table, bits, near_bits = args.table, args.bits, args.near_bits
    near_from, etc_until, node_stop = args.near_from, args.etc_until, args.node_stop
    state, cancel, ustack, istack = args.state, args.cancel, args.ustack, args.istack
    moves, columns, mthreats = args.moves, args.columns, args.mthreats
    scores, child_hashes = args.scores, args.child_hashes
    busy, shared_until = args.busy, args.shared_until
    cells = width * height
    zero = zero_of(ustack)  # of the board's word type: a uint64, or 128 bits past 64 (kernels.wide)
    bottom = bottom_mask(width, height, zero)
    board = board_mask(width, height, zero)
    directions = line_directions(width, height, connect)
    fast = fast_path(height, connect, word_bits(zero))
    shape = (width, height, connect, directions, board, bottom, fast)  # for the move ordering
    claimeven = height % 2 == 0  # see claimeven_bound
    even_rows = even_row_cells(width, height, zero)
    claim = (height, connect, directions, board, bottom, even_rows)  # children_claimeven_hopeless's
    kbits = key_bits(width, height, bits)
    busy_shift = max(kbits - bit_length(np.uint64(busy.shape[0] - 1)), 0)
    # the parts' sizes in use, 2**live of their 2**bits entries, recorded after them
    live_at = table.shape[0] - TABLE_HEADER
    live = part_in_use(table, live_at, bits, kbits)
    tshift, max_work, grow_at = part_shape(live, bits, kbits, GROWTH_SHIFT)
    near_base = np.uint64(1) << np.uint64(bits)
    if near_bits:
        near_live = part_in_use(table, live_at + 1, near_bits, kbits)
        near_tshift, near_max_work, near_grow_at = part_shape(near_live, near_bits, kbits, NEAR_GROWTH_SHIFT)
    else:
        near_from = cells + 1  # no near-end part: every position in the main one
        near_live, near_tshift, near_max_work, near_grow_at = 0, tshift, max_work, growth_nodes(0, 0, 0)
    next_growth = min(grow_at, near_grow_at)

    if state[S_PHASE] == PHASE_START and state[S_NODES] == 0 and state[S_ROOT_MOVE] == -1:
        # a win at once is scored here: the negamax assumes there is none
        possible = (mask0 + bottom) & board
        wins = possible & winning_cells(current0, mask0, height, connect, directions, board, fast)
        if wins:
            for i in range(width):
                column = center_column(i, width)
                if wins & column_mask(column, height, zero):
                    state[S_ROOT_MOVE] = column
                    break
            score = win_score(cells, stones0)
            if state[S_MAX] < score:  # weak solve: [-1, 1]
                score = state[S_MAX]
            state[S_MIN] = score
            state[S_MAX] = score
            state[S_ROOT_BOUND] = score
            state[S_PHASE] = PHASE_DONE
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
            med = lo + (hi - lo) // 2
            if stones0 < NEAR_SCORE_STONES and lo < 0 < hi:
                # early in the game scores are near 0: the sign first (the weak solve's search,
                # whose table the rest reuse), then from the extremes inward
                med = 0
            elif med <= 0 and half(lo) < med:
                med = half(lo)
            elif med >= 0 and half(hi) > med:
                med = half(hi)
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
            if nodes >= next_growth:
                if nodes >= grow_at:
                    live = grow_part(table, live_at, 0, live, kbits, zero)
                    tshift, max_work, grow_at = part_shape(live, bits, kbits, GROWTH_SHIFT)
                if nodes >= near_grow_at:
                    near_live = grow_part(table, live_at + 1, int(near_base), near_live, kbits, zero)
                    near_tshift, near_max_work, near_grow_at = part_shape(
                        near_live, near_bits, kbits, NEAR_GROWTH_SHIFT
                    )
                next_growth = min(grow_at, near_grow_at)
            current = get(ustack, d, 0)
            mask = get(ustack, d, 1)
            alpha = istack[d, I_ALPHA]
            beta = istack[d, I_BETA]
            stones = stones0 + d
            opponent = current ^ mask
            possible = (mask + bottom) & board
            if d > 0:
                # computed by the parent when it ordered its moves
                threats = get(mthreats, d - 1, istack[d - 1, I_NEXT]) & ~mask
            else:
                threats = winning_cells(opponent, mask, height, connect, directions, board, fast)
            forced = possible & threats
            if forced:
                if forced & (forced - np.uint64(1)):  # two threats: the opponent's next stone wins
                    ret = -win_score(cells, stones + 1)
                    enter = 0
                    continue
                possible = forced
            possible &= ~(threats >> np.uint64(1))
            if possible == 0:  # every move lets the opponent's next stone win
                ret = -win_score(cells, stones + 1)
                enter = 0
                continue
            if stones >= cells - 2:
                ret = 0
                enter = 0
                continue
            low = -win_score(cells, stones + 3)  # the opponent cannot win with its next stone
            if alpha < low:
                alpha = low
                if alpha >= beta:
                    ret = alpha
                    enter = 0
                    continue
            high = win_score(cells, stones + 2)  # nor this side with this one
            if claimeven and beta > -1 and not stones & 1:
                bound = claimeven_bound(current, mask, height, connect, directions, board, bottom, even_rows)
                high = min(high, bound)
            if beta > high:
                beta = high
                if alpha >= beta:
                    ret = beta
                    enter = 0
                    continue
            key = current + mask
            mirrored = 0
            if stones < SYMMETRY_STONES:
                # left-right symmetry: one entry for a position and its mirror image
                mirrored_key = mirror(key, width, height)
                if mirrored_key < key:
                    key = mirrored_key
                    mirrored = 1
            h = scramble(key, kbits)
            base, shift, most = table_part(
                stones, near_from, near_base, near_tshift, near_max_work, tshift, max_work
            )
            first = -1
            if d > 0:
                data = probe(table, base, h, shift)
                if data:
                    t = data_lower(data)
                    if t > alpha:
                        alpha = t
                        if alpha >= beta:
                            ret = alpha
                            enter = 0
                            continue
                    t = data_upper(data)
                    if t < beta:
                        beta = t
                        if alpha >= beta:
                            ret = beta
                            enter = 0
                            continue
                    first = data_move(data)
                    if mirrored and first >= 0:
                        first = width - 1 - first
            first_move = possible & column_mask(first, height, zero) if first >= 0 else zero
            cutoff = d > 0 and stones < etc_until
            child_base, child_shift, _ = table_part(
                stones + 1, near_from, near_base, near_tshift, near_max_work, tshift, max_work
            )
            if (
                claimeven
                and stones & 1
                and beta <= 1
                and d > 0
                and not cutoff
                and not children_claimeven_hopeless(current, mask, claim)
            ):
                # a child's claimeven bound (its side to move began) may refute this node: below the
                # cutoff's plies this is all that is looked at before the moves are searched
                refuted = -1
                for i in range(width):
                    move = possible & column_mask(i, height, zero)
                    if move:
                        t = -claimeven_bound(
                            opponent, mask | move, height, connect, directions, board, bottom, even_rows
                        )
                        if t >= beta:
                            refuted = i
                            break
                if refuted >= 0:
                    best = width - 1 - refuted if mirrored else refuted
                    store(table, base, h, shift, t, UNKNOWN_HIGH, best, 0, most)
                    ret = t
                    enter = 0
                    continue
            if stones >= etc_until:
                # the buckets of the children about to be ranked, loading while they are
                # ranked and the first is searched (nodes that try the cutoff ask below)
                ranked = first_move if first_move else possible
                prefetch_children(
                    table, child_base, child_shift, opponent, mask, ranked, stones, shape, kbits
                )
            if cutoff:
                # enhanced transposition cutoff (below): the children's buckets are asked
                # for now, all of them, and read once the moves are ranked, so that the
                # loads overlap one another and the ranking
                for i in range(width):
                    move = possible & column_mask(i, height, zero)
                    if move:
                        put1(
                            child_hashes,
                            i,
                            shared_key(opponent, mask | move, stones + 1, width, height, kbits),
                        )
                        prefetch(table, child_base, get1(child_hashes, i), child_shift)
            if first_move and not cutoff:
                # the table's move alone: the others are ranked only if it fails to cut
                put(moves, d, 0, first_move)
                columns[d, 0] = first
                first_threats = winning_cells(
                    current | first_move, mask, height, connect, directions, board, fast
                )
                put(mthreats, d, 0, first_threats)
                n = 1
                put(ustack, d, 3, possible & ~first_move)
            else:
                n = order_moves(
                    current, mask, possible, threats, 0, d, shape, moves, columns, mthreats, scores
                )
                put(ustack, d, 3, zero)
                if first_move:  # ranked with the others while the buckets load, but tried first
                    to_front(first_move, n, moves, columns, mthreats, d)
            if cutoff and stones + 1 < etc_until and nodes >= FAR_PREFETCH_NODES:
                # the buckets the first child's own cutoff will read, asked for now: they load while
                # this node waits on its children's below, not after the child is entered
                grand_base, grand_shift, _ = table_part(
                    stones + 2, near_from, near_base, near_tshift, near_max_work, tshift, max_work
                )
                leading = get(moves, d, 0)  # the first move
                replies = ((mask | leading) + bottom) & board
                prefetch_children(
                    table,
                    grand_base,
                    grand_shift,
                    current | leading,
                    mask | leading,
                    replies,
                    stones + 1,
                    shape,
                    kbits,
                )
            if cutoff:
                # a child already known to score at most -beta (for the opponent)
                # refutes this node at once; one known to score at least -alpha,
                # which cannot raise alpha, is dropped
                cut = False
                dropped = zero
                floor = low
                # so may a child's claimeven bound (its side to move began)
                child_claimeven = (
                    claimeven
                    and stones & 1
                    and beta <= 1
                    and not children_claimeven_hopeless(current, mask, claim)
                )
                for i in range(width):
                    move = possible & column_mask(i, height, zero)
                    if move:
                        cdata = probe(table, child_base, get1(child_hashes, i), child_shift)
                        t = -data_upper(cdata) if cdata else UNKNOWN_LOW
                        if child_claimeven and t < beta:
                            child_bound = claimeven_bound(
                                opponent, mask | move, height, connect, directions, board, bottom, even_rows
                            )
                            t = max(t, -child_bound)
                        if t >= beta:
                            best = width - 1 - i if mirrored else i
                            store(table, base, h, shift, t, UNKNOWN_HIGH, best, 0, most)
                            ret = t
                            cut = True
                            break
                        if cdata and -data_lower(cdata) <= alpha:
                            dropped |= move
                            floor = max(floor, -data_lower(cdata))
                if cut:
                    enter = 0
                    continue
                if dropped:
                    n = drop_moves(dropped, n, moves, columns, mthreats, d)
                    if n == 0:
                        store(table, base, h, shift, UNKNOWN_LOW, floor, -1, 0, most)
                        ret = floor
                        enter = 0
                        continue
                low = floor
            put(ustack, d, 2, h)
            istack[d, I_ALPHA] = alpha
            istack[d, I_BETA] = beta
            istack[d, I_COUNT] = n
            istack[d, I_NEXT] = 0
            istack[d, I_ALPHA0] = alpha
            istack[d, I_NODES0] = nodes
            istack[d, I_MIRROR] = mirrored
            # fail-soft: a node whose moves all fail low returns the best they reached; the moves
            # not searched (losing at once, or dropped by the cutoff) reach at most ``low``
            istack[d, I_BEST] = low
            put(ustack, d + 1, 0, opponent)
            put(ustack, d + 1, 1, mask | get(moves, d, 0))
            istack[d + 1, I_ALPHA] = -beta
            istack[d + 1, I_BETA] = -alpha
            d += 1
            continue

        # -------------------------------------------- node d returned ``ret``
        if d == 0:
            med = state[S_MED]
            if ret <= med:
                state[S_MAX] = ret
            else:
                state[S_MIN] = ret
                if istack[0, I_NEXT] < istack[0, I_COUNT] and ret >= istack[0, I_BETA]:
                    state[S_ROOT_MOVE] = columns[0, istack[0, I_NEXT]]
                    state[S_ROOT_BOUND] = ret
            phase = PHASE_START
            # mark the root frame as consumed
            istack[0, I_COUNT] = 0
            continue
        d -= 1
        if d < shared_until and istack[d, I_NEXT] > 0:
            # the move's position is searched: its busy mark goes (unless another took the slot)
            h = shared_key(
                get(ustack, d + 1, 0), get(ustack, d + 1, 1), stones0 + d + 1, width, height, kbits
            )
            slot = busy_slot(h, busy_shift, busy.shape[0])
            if get1(busy, slot) == h:
                put1(busy, slot, zero)
        score = -ret
        alpha = istack[d, I_ALPHA]
        beta = istack[d, I_BETA]
        i = istack[d, I_NEXT]
        if score >= beta:  # a cut: the score is a lower bound, reached by this move
            best = columns[d, i]
            if istack[d, I_MIRROR]:
                best = width - 1 - best
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
                current, mask, rest = get(ustack, d, 0), get(ustack, d, 1), get(ustack, d, 3)
                # the buckets of the moves about to be ranked, loading while they are (the table's
                # move alone had its own asked for)
                child_base, child_shift, _ = table_part(
                    stones0 + d + 1, near_from, near_base, near_tshift, near_max_work, tshift, max_work
                )
                prefetch_children(
                    table, child_base, child_shift, current ^ mask, mask, rest, stones0 + d, shape, kbits
                )
                threats = winning_cells(current ^ mask, mask, height, connect, directions, board, fast)
                count = order_moves(
                    current, mask, rest, threats, count, d, shape, moves, columns, mthreats, scores
                )
                istack[d, I_COUNT] = count
                put(ustack, d, 3, zero)
            if d < shared_until:
                # the first move failed to cut: the others are put off while another thread of
                # the race searches them (each once), and marked busy while this one does
                if i == 1:
                    istack[d, I_DEFERRED] = 0
                limit = count - istack[d, I_DEFERRED]  # the moves from limit on were put off once
                child_current = get(ustack, d, 0) ^ get(ustack, d, 1)
                while i < count:
                    h = shared_key(
                        child_current,
                        get(ustack, d, 1) | get(moves, d, i),
                        stones0 + d + 1,
                        width,
                        height,
                        kbits,
                    )
                    slot = busy_slot(h, busy_shift, busy.shape[0])
                    if i >= limit or get1(busy, slot) != h:
                        put1(busy, slot, h)  # the move to search next
                        break
                    to_back(i, count, moves, columns, mthreats, d)
                    limit -= 1
                istack[d, I_DEFERRED] = count - limit
            if i < count:
                istack[d, I_NEXT] = i
                put(ustack, d + 1, 0, get(ustack, d, 0) ^ get(ustack, d, 1))
                put(ustack, d + 1, 1, get(ustack, d, 1) | get(moves, d, i))
                istack[d + 1, I_ALPHA] = -beta
                istack[d + 1, I_BETA] = -alpha
                d += 1
                enter = 1
                continue
            # every move tried: the best they reached is an upper bound, and a lower one if it
            # raised alpha
            best, upper, ret = -1, istack[d, I_BEST], istack[d, I_BEST]
            lower = alpha if alpha > istack[d, I_ALPHA0] else UNKNOWN_LOW
            istack[d, I_NEXT] = i
        stones = stones0 + d
        base, shift, most = table_part(
            stones, near_from, near_base, near_tshift, near_max_work, tshift, max_work
        )
        work = bit_length(np.uint64(nodes - istack[d, I_NODES0]))
        store(table, base, get(ustack, d, 2), shift, lower, upper, best, work, most)

    state[S_PHASE] = phase
    state[S_DEPTH] = d
    state[S_ENTER] = enter
    state[S_RET] = ret
    state[S_NODES] = nodes
    return status


@njit(inline="always")
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
