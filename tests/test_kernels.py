"""The compiled kernels against plain Python: bitboard primitives and an independent brute force.

The brute force below shares nothing with the kernels but the rules: a
memoized negamax over every move, scoring wins by the benchmark convention.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from c4engine.board import Board
from c4engine.geometry import center_order
from c4engine.kernels import bitboard, bounds, entry, is_cached, moves, table
from c4engine.kernels.transposition import MIN_TABLE_BITS, START_BITS, TABLE_HEADER, Table, table_entries
from c4engine.lines import has_line
from c4engine.search.solver.exact import Solver


def brute_force(width: int, height: int, connect: int):  # type: ignore[no-untyped-def]
    """A memoized exact scorer of (current, mask) positions on one board size."""
    cells = width * height
    stride = height + 1

    @cache
    def score(current: int, mask: int) -> int:
        stones = mask.bit_count()
        best = -cells
        for column in range(width):
            top = 1 << (column * stride + height - 1)
            if mask & top:
                continue
            cell = (mask + (1 << column * stride)) & (((1 << height) - 1) << column * stride)
            if has_line(current | cell, height, connect):
                return (cells + 1 - stones) // 2
            new_mask = mask | cell
            value = 0 if stones + 1 == cells else -score(current ^ mask, new_mask)
            best = max(best, value)
        return best

    return score


def random_positions(width: int, height: int, connect: int, plies: int, count: int, seed: int) -> list[Board]:
    rng = random.Random(seed)
    found: list[Board] = []
    while len(found) < count:
        board = Board(width, height, connect)
        for _ in range(plies):
            legal = board.legal_moves()
            if not legal:
                break
            board.play(rng.choice(legal))
        if not board.is_over:
            found.append(board)
    return found


CASES = [
    # width, height, connect, plies, count -- each a few seconds of brute force
    (4, 4, 3, 2, 30),
    (4, 4, 4, 0, 1),
    (4, 4, 4, 4, 20),
    (5, 4, 4, 7, 20),
    (5, 5, 4, 11, 20),
    (6, 5, 4, 18, 20),
    (3, 3, 2, 1, 5),
    (6, 4, 5, 12, 10),
    (2, 8, 3, 3, 10),
]


@pytest.mark.parametrize(("width", "height", "connect", "plies", "count"), CASES)
def test_solver_agrees_with_brute_force(
    width: int, height: int, connect: int, plies: int, count: int
) -> None:
    exact = brute_force(width, height, connect)
    solver = Solver(table_size_mb=24)  # both parts of the table: most of these positions are near the end
    seed = width * 100 + height * 10 + plies
    for board in random_positions(width, height, connect, plies, count, seed=seed):
        want = exact(board.current_bits, board.mask_bits)
        result = solver.solve(board)
        assert result.proven
        assert result.score == want, board
        weak = solver.solve(board, weak=True)
        assert weak.score == (want > 0) - (want < 0), board
        # the best move really reaches the score
        assert result.best_move is not None
        child = board.copy()
        if child.is_winning_move(result.best_move):
            assert want == (width * height + 1 - board.move_count) // 2
        else:
            child.play(result.best_move)
            value = 0 if child.is_full else -exact(child.current_bits, child.mask_bits)
            assert value == want, board


def test_analyze_agrees_with_brute_force_on_small_board() -> None:
    exact = brute_force(5, 4, 4)
    solver = Solver(table_size_mb=8)
    cells = 20
    for board in random_positions(5, 4, 4, 3, 10, seed=7):
        analysis = solver.analyze(board)
        for column in range(5):
            if not board.can_play(column):
                assert analysis.scores[column] is None
                continue
            if board.is_winning_move(column):
                want = (cells + 1 - board.move_count) // 2
            else:
                child = board.copy()
                child.play(column)
                want = 0 if child.is_full else -exact(child.current_bits, child.mask_bits)
            assert analysis.scores[column] == want


def _claimeven_bound(board: Board) -> int:
    """The kernel's claimeven bound of ``board``'s side to move."""
    shape = bitboard.board_shape(board.width, board.height, board.connect)
    return int(bounds.claimeven_bound(np.uint64(board.current_bits), np.uint64(board.mask_bits), shape))


BRUTE_FORCE_CELLS = 20
"""Boards of this many cells or more are scored by the solver (checked against the published sets and
the brute force on smaller boards): a memoized brute force of 5x4 takes half a minute, of 6x4 many
minutes and gigabytes."""


def _exact_scorer(width: int, height: int, connect: int) -> Callable[[Board], int]:
    """The exact score of a position of this board, by brute force, or by the solver from
    :data:`BRUTE_FORCE_CELLS` cells on."""
    if width * height < BRUTE_FORCE_CELLS:
        brute = brute_force(width, height, connect)
        return lambda board: brute(board.current_bits, board.mask_bits)
    solver = Solver(table_size_mb=8)

    def solved(board: Board) -> int:
        found = solver.solve(board)
        assert found.score is not None
        return found.score

    return solved


@pytest.mark.parametrize(
    ("width", "height", "connect"), [(4, 4, 4), (5, 4, 4), (6, 4, 4), (3, 6, 3), (2, 8, 3)]
)
def test_claimeven_bound_holds_and_binds(width: int, height: int, connect: int) -> None:
    exact = _exact_scorer(width, height, connect)
    bound_at_most = {0: 0, -1: 0}
    for plies in range(0, width * height - 2, 2):
        for board in random_positions(width, height, connect, plies, 8, seed=plies):
            if board.move_count % 2 or board.is_over:
                continue
            bound = _claimeven_bound(board)
            assert exact(board) <= bound, board
            if bound in bound_at_most:
                bound_at_most[bound] += 1
    assert bound_at_most[0] + bound_at_most[-1]  # it proves something on these boards
    if connect == 4:
        assert bound_at_most[-1]  # losses too


def _odd_threat_bound(board: Board) -> int:
    """The kernel's odd-threat bound of ``board``'s side to move."""
    shape = _uint64_shape(board.width, board.height, board.connect)
    current, mask = np.uint64(board.current_bits), np.uint64(board.mask_bits)
    threats = np.uint64(
        bitboard.winning_cells(
            current ^ mask, mask, shape.height, shape.connect, shape.directions, shape.board, shape.fast
        )
    )
    return int(bounds.odd_threat_bound(current, mask, threats, shape))


def _every_position(width: int, height: int, connect: int) -> list[Board]:
    """Every position of the board that a game can reach, over or not."""
    seen: set[tuple[int, int]] = set()
    found: list[Board] = []
    stack = [Board(width, height, connect)]
    while stack:
        board = stack.pop()
        if (board.current_bits, board.mask_bits) in seen:
            continue
        seen.add((board.current_bits, board.mask_bits))
        found.append(board)
        if not board.is_over:
            for column in board.legal_moves():
                child = board.copy()
                child.play(column)
                stack.append(child)
    return found


@pytest.mark.parametrize(
    ("width", "height", "connect", "deepest"), [(4, 4, 4, -1), (4, 4, 3, -1), (3, 6, 3, -2)]
)
def test_odd_threat_bound_holds_on_every_position(
    width: int, height: int, connect: int, deepest: int
) -> None:
    exact = brute_force(width, height, connect)
    bounds_seen: dict[int, int] = {}
    for board in _every_position(width, height, connect):
        if board.move_count % 2 == 0 or board.is_over:
            continue
        bound = _odd_threat_bound(board)
        if bound != bounds.UNKNOWN_HIGH:
            assert exact(board.current_bits, board.mask_bits) <= bound <= -1, (board, bound)
            bounds_seen[bound] = bounds_seen.get(bound, 0) + 1
    assert min(bounds_seen) == deepest  # it proves losses, to their depth where the board has room


def test_odd_threat_bound_holds_on_solved_positions() -> None:
    exact = _exact_scorer(7, 6, 4)
    bound_count = 0
    for plies in range(1, 7 * 6 - 2, 2):
        for board in random_positions(7, 6, 4, plies, 40, seed=plies):
            bound = _odd_threat_bound(board) if board.move_count % 2 else bounds.UNKNOWN_HIGH
            if bound != bounds.UNKNOWN_HIGH:
                assert exact(board) <= bound <= -1, (board, bound)
                bound_count += 1
    assert bound_count >= 10, bound_count


@pytest.mark.parametrize(("width", "height", "connect"), [(7, 6, 4), (4, 4, 4), (6, 4, 4), (3, 6, 3)])
def test_children_claimeven_hopeless_only_when_no_child_bound_binds(
    width: int, height: int, connect: int
) -> None:
    shape = bitboard.board_shape(width, height, connect)
    answers = {True: 0, False: 0}
    for plies in range(1, width * height - 2, 2):
        for board in random_positions(width, height, connect, plies, 8, seed=plies):
            if board.move_count % 2 == 0 or board.is_over:
                continue
            current, mask = np.uint64(board.current_bits), np.uint64(board.mask_bits)
            hopeless = bounds.children_claimeven_hopeless(current, mask, shape)
            answers[bool(hopeless)] += 1
            if not hopeless:
                continue
            for column in board.legal_moves():
                child = board.copy()
                child.play(column)
                assert _claimeven_bound(child) == bounds.UNKNOWN_HIGH, (board, column)
    assert answers[True] and answers[False]  # both answers come up on these boards


def _python_winning_cells(stones: int, mask: int, width: int, height: int, connect: int) -> int:
    cells = 0
    for column in range(width):
        for row in range(height):
            bit = 1 << (column * (height + 1) + row)
            if not mask & bit and has_line(stones | bit, height, connect):
                cells |= bit
    return cells


@pytest.mark.parametrize(
    ("width", "height", "connect"),
    [(7, 6, 4), (4, 4, 3), (5, 5, 4), (8, 7, 4), (6, 7, 5), (3, 20, 3), (2, 31, 2), (9, 5, 4), (7, 6, 6)],
)
def test_winning_cells_match_rules(width: int, height: int, connect: int) -> None:
    rng = random.Random(width * height * connect)
    full = int(bitboard.board_mask(width, height))
    directions = bitboard.line_directions(width, height, connect)
    fast = bitboard.fast_path(height, connect)
    for _ in range(150):
        board = Board(width, height, connect)
        for _ in range(rng.randrange(width * height)):
            legal = board.legal_moves()
            if not legal:
                break
            board.push(rng.choice(legal))  # the fast path: wins allowed, we test the masks
        stones, mask = board.current_bits, board.mask_bits
        want = _python_winning_cells(stones, mask, width, height, connect)
        got = bitboard.winning_cells(
            np.uint64(stones), np.uint64(mask), height, connect, directions, np.uint64(full), fast
        )
        assert int(got) == want
        assert bitboard.has_line(np.uint64(stones), height, connect, directions) == has_line(
            stones, height, connect
        )


def _uint64_shape(width: int, height: int, connect: int) -> bitboard.Shape:
    """The board's :class:`~c4engine.kernels.bitboard.Shape` as the solver builds it in compiled
    code: numba hands a compiled function's uint64 words back to Python as ints, which a kernel
    called from Python would then take for int64."""
    shape = bitboard.board_shape(width, height, connect)
    return shape._replace(
        board=np.uint64(shape.board), bottom=np.uint64(shape.bottom), even_rows=np.uint64(shape.even_rows)
    )


def test_moves_rank_by_useful_threats_barring_ones_more() -> None:
    # each useful threat counts 2, one right above a cell the opponent could play next 3; ties
    # centre first -- checked against threats found by the rules, on positions where that order
    # differs from counting every threat alike
    width, height, connect = 7, 6, 4
    full, bottom = bitboard.board_mask(width, height), bitboard.bottom_mask(width, height)
    shape = _uint64_shape(width, height, connect)
    ranked, columns = np.zeros((2, width), dtype=np.uint64), np.zeros((2, width), dtype=np.int64)
    threats, scores = np.zeros((2, width), dtype=np.uint64), np.zeros(width, dtype=np.int64)
    rng = random.Random(33)
    barring_decided = 0
    for _ in range(400):
        board = Board(width, height, connect)
        for _ in range(rng.randrange(8, 30)):
            board.push(rng.choice(board.legal_moves()))
            if board.winner is not None or board.is_full:
                break
        if board.winner is not None or board.is_full:
            continue
        current, mask = board.current_bits, board.mask_bits
        playable = (mask + int(bottom)) & int(full)
        if _python_winning_cells(current, mask, width, height, connect) & playable:
            continue  # the search never ranks the moves of a position won at once
        opponent = _python_winning_cells(current ^ mask, mask, width, height, connect)
        count = moves.order_moves(
            np.uint64(current), np.uint64(mask), np.uint64(playable), np.uint64(opponent), 0, 0, shape,
            ranked, columns, threats, scores,
        )  # fmt: skip
        plain, barring = {}, {}
        for column in center_order(width):
            cell = playable & int(bitboard.column_mask(column, height))
            if cell:
                after = _python_winning_cells(current | cell, mask, width, height, connect)
                useful = after & ~(opponent << 1)
                below_next = (((mask | cell) + int(bottom)) & int(full)) << 1
                plain[column] = 2 * bin(useful).count("1")
                barring[column] = plain[column] + bin(useful & below_next).count("1")
        want = sorted(barring, key=lambda column: -barring[column])  # stable: centre first on ties
        assert list(columns[0, :count]) == want
        barring_decided += want != sorted(plain, key=lambda column: -plain[column])
    assert barring_decided >= 10


def test_masks_and_mirror() -> None:
    geometry = Board(7, 6).geometry
    assert int(bitboard.bottom_mask(7, 6)) == geometry.bottom
    assert int(bitboard.board_mask(7, 6)) == geometry.full
    board = Board.from_moves("1123")
    assert int(bitboard.mirror(np.uint64(board.key()), 7, 6)) == board.mirror_key()
    for width in range(1, 33):  # the compiled twin of the one centre-first order
        assert tuple(moves.center_order(width)) == center_order(width)


def test_center_column_is_center_order() -> None:
    # the search computes the order arithmetically; the table stays for the heuristic search
    for width in range(1, 33):
        assert [moves.center_column(i, width) for i in range(width)] == list(moves.center_order(width))


MAIN = np.uint64(0)  # the main part of a table starts at its first entry


def test_table_store_probe_and_merge() -> None:
    bits = MIN_TABLE_BITS
    t = np.asarray(Table.with_parts(bits).array)
    kbits = table.key_bits(7, 6, bits)
    shift = table.tag_shift(kbits, bits)
    top = table.work_limit(shift, kbits)
    assert (kbits, shift, top) == (49, 30, 63)
    h = np.uint64(table.scramble(np.uint64(12345), kbits))
    assert h >> np.uint64(kbits) == 0
    assert table.probe(t, MAIN, h, shift) == 0
    table.store(t, MAIN, h, shift, 3, 63, 2, 10, top)
    data = table.probe(t, MAIN, h, shift)
    assert (table.data_lower(data), table.data_upper(data), table.data_move(data)) == (3, 63, 2)
    table.store(t, MAIN, h, shift, -63, 5, -1, 1, top)  # merged: the lower bound and move stay
    data = table.probe(t, MAIN, h, shift)
    assert (table.data_lower(data), table.data_upper(data), table.data_move(data)) == (3, 5, 2)
    # other keys of the same bucket: a cheaper one takes the second entry, the next cheap one
    # replaces it; the costly position stays in the first
    cheap = np.uint64(int(h) ^ 1)
    cheaper = np.uint64(int(h) ^ 2)
    table.store(t, MAIN, cheap, shift, -2, 4, -1, 3, top)
    assert table.data_lower(table.probe(t, MAIN, cheap, shift)) == -2
    assert table.data_upper(table.probe(t, MAIN, h, shift)) == 5
    table.store(t, MAIN, cheaper, shift, -1, 4, -1, 2, top)
    assert table.probe(t, MAIN, cheap, shift) == 0
    assert table.data_lower(table.probe(t, MAIN, cheaper, shift)) == -1
    assert table.data_upper(table.probe(t, MAIN, h, shift)) == 5
    # more work than the first entry: it takes the first place, the old one moves to the second
    costly = np.uint64(int(h) ^ 3)
    table.store(t, MAIN, costly, shift, 0, 0, 4, 20, top)
    assert table.data_move(table.probe(t, MAIN, costly, shift)) == 4
    assert table.data_upper(table.probe(t, MAIN, h, shift)) == 5
    assert table.probe(t, MAIN, cheaper, shift) == 0


def test_table_without_room_for_work() -> None:
    # a 64-bit key in the smallest table leaves just the bounds and the move
    bits = MIN_TABLE_BITS
    kbits = table.key_bits(8, 7, bits)
    shift = table.tag_shift(kbits, bits)
    assert table.work_limit(shift, kbits) == 0
    t = np.asarray(Table.with_parts(bits).array)
    h = np.uint64(table.scramble(np.uint64(2**63 + 5), 64))
    table.store(t, MAIN, h, shift, -20, 21, 7, 30, 0)
    data = table.probe(t, MAIN, h, shift)
    assert (table.data_lower(data), table.data_upper(data), table.data_move(data)) == (-20, 21, 7)


def test_table_parts_are_apart() -> None:
    """The near-end part starts after the main one; a position stored in one part is not in the other."""
    bits, near_bits = MIN_TABLE_BITS, 18
    t = np.asarray(Table.with_parts(bits, near_bits).array)
    assert t.shape[0] == (1 << bits) + (1 << near_bits) + TABLE_HEADER
    assert t.shape[0] == table_entries(bits, near_bits)
    kbits = table.key_bits(7, 6, bits)
    shift, near_shift = table.tag_shift(kbits, bits), table.tag_shift(kbits, near_bits)
    near = np.uint64(1 << bits)
    h = np.uint64(table.scramble(np.uint64(98765), kbits))
    table.store(t, near, h, near_shift, -4, 6, 3, 5, table.work_limit(near_shift, kbits))
    assert np.count_nonzero(t[: 1 << bits]) == 0 and np.count_nonzero(t[1 << bits :]) == 1
    data = table.probe(t, near, h, near_shift)
    assert (table.data_lower(data), table.data_upper(data), table.data_move(data)) == (-4, 6, 3)
    assert table.probe(t, MAIN, h, shift) == 0
    table.store(t, MAIN, h, shift, 1, 2, 0, 5, table.work_limit(shift, kbits))
    assert table.data_lower(table.probe(t, near, h, near_shift)) == -4
    assert table.data_lower(table.probe(t, MAIN, h, shift)) == 1
    with pytest.raises(ValueError, match="near-end part"):
        Table.with_parts(bits, bits + 1)


@pytest.mark.parametrize("base", [0, 1 << 18])
def test_table_part_grows_keeping_its_entries(base: int) -> None:
    """After a part doubles, every position probes as before, and only the doubled part holds entries."""
    bits = MIN_TABLE_BITS
    t = np.asarray(Table.with_parts(bits, 18).array)
    live = table.first_bits(bits, table.key_bits(7, 6, bits), START_BITS)
    kbits = table.key_bits(7, 6, bits)
    shift = table.tag_shift(kbits, live)
    rng = np.random.default_rng(5)
    # more positions than the part has entries: buckets fill, entries get replaced
    hashes = [np.uint64(table.scramble(np.uint64(k), kbits)) for k in rng.integers(1, 2**49, 3 << live)]
    for i, h in enumerate(hashes):
        table.store(
            t, np.uint64(base), h, shift, -(i % 21), i % 21, i % 7, i % 40, table.work_limit(shift, kbits)
        )
    before = [table.probe(t, np.uint64(base), h, shift) for h in hashes]
    assert 0 < sum(1 for data in before if data) < len(hashes)
    table.grow(t, base, live, kbits, np.uint64(0))
    after = [table.probe(t, np.uint64(base), h, shift - 1) for h in hashes]
    assert after == before
    held = np.flatnonzero(t[: t.shape[0] - TABLE_HEADER])
    assert held.min() >= base and held.max() < base + (2 << live)


def test_a_held_table_grows_in_no_search_and_says_when_it_is_due() -> None:
    """While its growth is held (threads share it) no search grows the table, however long; what
    the search would have grown by then, :meth:`Table.growth_due` says."""
    solver = Solver(table_size_mb=24)
    solver.solve(Board.from_moves("2252576253462244111563365343671351441"))  # a few dozen nodes
    started = solver.table_bytes_in_use
    solver.table.hold_growth(True)
    result = solver.solve(Board.from_moves("2416615552"))  # Test_L1_R2, about a million nodes
    assert result.score == 4 and solver.table_bytes_in_use == started
    args = solver._args
    assert args is not None
    assert solver.table.growth_due(args.bits, args.near_bits, result.nodes)
    assert not solver.table.growth_due(args.bits, args.near_bits, 1 << START_BITS)
    solver.table.hold_growth(False)
    assert solver.solve(Board.from_moves("23156612526")).score == 4  # Test_L1_R2, about 470 000 nodes
    assert solver.table_bytes_in_use > started


def test_first_bits_leave_the_data_its_room() -> None:
    assert table.first_bits(23, table.key_bits(7, 6, 23), 16) == 16
    assert table.first_bits(12, table.key_bits(4, 4, 12), 16) == 12  # never more than the part
    kbits = table.key_bits(8, 7, 20)  # a 64-bit key: a smaller part would leave no room for the bounds
    assert table.tag_shift(kbits, table.first_bits(20, kbits, 16)) == 64 - entry.DATA_BITS


def test_solver_table_grows_with_the_search() -> None:
    """A long search doubles the parts in use and still scores right; a reset starts them small again."""
    solver = Solver(table_size_mb=24)
    solver.solve(Board.from_moves("2252576253462244111563365343671351441"))  # Test_L3_R1: a few dozen nodes
    small = solver.table_bytes_in_use
    assert small == 2 * 8 << START_BITS  # both parts, as they started
    result = solver.solve(Board.from_moves("2416615552"))  # Test_L1_R2, about a million nodes
    assert result.score == 4
    assert small < solver.table_bytes_in_use < solver.table_bytes
    solver.reset()
    assert solver.table_bytes_in_use == 0


def test_is_cached_tells_whether_numba_would_compile(tmp_path: Path) -> None:
    import importlib.util

    from numba import njit

    source = tmp_path / "c4_tiny_kernel.py"
    source.write_text("from numba import njit\n\n\n@njit(cache=True)\ndef double(x):\n    return 2 * x\n")
    spec = importlib.util.spec_from_file_location("c4_tiny_kernel", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert not is_cached(module.double)  # never compiled: its first call compiles
    assert module.double(21) == 42
    assert is_cached(module.double)  # compiled in this process
    again = njit(cache=True)(module.double.py_func)  # a new dispatcher, as in the next process
    assert not again.overloads and is_cached(again)  # found in numba's cache on disk
