"""The book file format and lookups, against the solver on a small board."""

from __future__ import annotations

import random
import shutil
import struct
from pathlib import Path

import pytest

from c4engine.board import Board
from c4engine.errors import BookError, C4Error
from c4engine.experiments.book_builder import build_book
from c4engine.search.book import file as book_module
from c4engine.search.book.file import (
    HEADER_SIZE,
    OpeningBook,
    board_from_key,
    default_book_path,
    format_version,
    require_book_size,
    write_book,
)
from c4engine.search.solver.exact import Solver

SIZE = (5, 4, 4)
DEPTH = 6


@pytest.fixture(scope="module")
def small_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("book")
    path = folder / "small.c4b"
    build_book(path, DEPTH, width=5, height=4, connect=4, workers=0)
    return path


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(table_size_mb=8)


def _random_board(rng: random.Random, plies: int) -> Board:
    while True:
        board = Board(*SIZE)
        for _ in range(plies):
            if board.is_over:
                break
            board.play(rng.choice(board.legal_moves()))
        if not board.is_over:
            return board


def test_500_random_entries_match_the_solver(small_book: Path, solver: Solver) -> None:
    with OpeningBook.open(small_book) as book:
        assert len(book) > 500
        entries = list(book.items())
        sample = random.Random(4).sample(entries, 500)
        plies = set()
        for key, score in sample:
            board = book.board(key)
            assert board.canonical_key() == key
            plies.add(board.move_count)
            assert solver.solve(board, best_move=False).score == score, board.move_string
        assert plies == set(range(2, DEPTH + 1)) or len(plies) >= 4


def test_every_position_of_random_games_is_found(small_book: Path, solver: Solver) -> None:
    rng = random.Random(11)
    with OpeningBook.open(small_book) as book:
        for _ in range(40):
            board = _random_board(rng, rng.randrange(DEPTH + 1))
            score = book.score(board)
            assert score is not None
            assert score == book.score(board.mirror())
            assert board in book
            assert score == solver.solve(board, best_move=False).score


def test_move_scores_match_the_solver_analysis(small_book: Path, solver: Solver) -> None:
    rng = random.Random(5)
    with OpeningBook.open(small_book) as book:
        for _ in range(15):
            board = _random_board(rng, rng.randrange(DEPTH))
            assert book.move_scores(board) == list(solver.analyze(board, pv=False).scores)


def test_move_scores_take_an_immediate_win_directly(small_book: Path) -> None:
    board = Board.from_moves("121212", *SIZE)
    with OpeningBook.open(small_book) as book:
        scores = book.move_scores(board)
    assert scores[0] == (20 + 1 - 6) // 2
    assert board.is_winning_move(0)


def test_positions_beyond_the_book_are_unknown(small_book: Path) -> None:
    with OpeningBook.open(small_book) as book:
        deep = _random_board(random.Random(2), DEPTH + 1)
        assert book.score(deep) is None
        assert deep not in book
        assert "not a board" not in book  # type: ignore[operator]
        assert book.lookup_key(1 << 70) is None


def test_header_and_repr(small_book: Path) -> None:
    with OpeningBook.open(small_book) as book:
        assert (book.width, book.height, book.connect, book.depth, book.weak) == (5, 4, 4, DEPTH, False)
        assert book.header.kind == "strong"
        assert "5x4 connect 4, depth 6, strong" in repr(book)
        keys = book.keys_array()
        assert bool((keys[1:] > keys[:-1]).all())


def test_a_board_of_another_size_is_refused(small_book: Path) -> None:
    with OpeningBook.open(small_book) as book, pytest.raises(BookError, match="5x4 connect 4, not 7x6"):
        book.score(Board())


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda data: b"NOTABOOK" + data[8:], "not a c4engine book"),
        (lambda data: data[:10], "not a c4engine book"),
        (lambda data: data[:-1], "damaged"),
        (lambda data: data[:8] + struct.pack("<H", 99) + data[10:], "version 99"),
        (lambda data: data[:14] + b"\x07" + data[15:], "score kind"),
    ],
)
def test_bad_files_are_specific_errors(small_book: Path, tmp_path: Path, damage, message: str) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.c4b"
    bad.write_bytes(damage(small_book.read_bytes()))
    with pytest.raises(BookError, match=message):
        OpeningBook.open(bad)


def test_a_missing_file_is_a_book_error(tmp_path: Path) -> None:
    with pytest.raises(BookError, match="cannot read"):
        OpeningBook.open(tmp_path / "none.c4b")
    assert issubclass(BookError, C4Error)


def test_write_is_deterministic_and_round_trips(tmp_path: Path) -> None:
    scores = {Board.from_moves(m, 4, 4, 3).canonical_key(): s for m, s in (("", 2), ("1", -2), ("2", -1))}
    write_book(tmp_path / "a.c4b", scores, width=4, height=4, connect=3, depth=1)
    write_book(tmp_path / "b.c4b", dict(reversed(scores.items())), width=4, height=4, connect=3, depth=1)
    assert (tmp_path / "a.c4b").read_bytes() == (tmp_path / "b.c4b").read_bytes()
    assert len((tmp_path / "a.c4b").read_bytes()) == HEADER_SIZE + 9 * 3
    with OpeningBook.open(tmp_path / "a.c4b") as book:
        assert dict(book.items()) == scores
        assert book.header.version == 1 and book.header.key_bytes == 8  # what older readers read


def test_board_from_key_round_trips_random_positions() -> None:
    rng = random.Random(8)
    for _ in range(200):
        board = Board()
        for _ in range(rng.randrange(30)):
            if board.is_over:
                break
            board.play(rng.choice(board.legal_moves()))
        if board.is_over:
            continue
        rebuilt = board_from_key(board.key())
        assert rebuilt.key() == board.key()
        assert rebuilt.move_count == board.move_count


def test_board_from_key_refuses_impossible_keys() -> None:
    # three stones of the side to move stacked with none of the other side's: never reachable
    with pytest.raises(BookError):
        board_from_key(0b1110 - 0b111 + 0b111, 7, 6, 4)
    with pytest.raises(BookError, match="not a 7x6 position"):
        board_from_key(0b1111111, 7, 6, 4)


def test_the_shipped_book_answers_the_empty_board() -> None:
    path = default_book_path()
    assert path is not None, "the 7x6 book is package data"
    with OpeningBook.open(path) as book:
        assert book.depth >= 1 and book.header.version == 1  # a 7x6 book is still version 1
        assert book.move_scores(Board()) == [-2, -1, 0, 1, 0, -1, -2]
        assert book.score(Board()) == 1


def test_a_copied_book_reads_the_same(small_book: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.c4b"
    shutil.copy(small_book, copy)
    with OpeningBook.open(copy) as a, OpeningBook.open(small_book) as b:
        assert list(a.items()) == list(b.items())


def test_a_sparse_part_beyond_the_depth_is_read(small_book: Path, tmp_path: Path, solver: Solver) -> None:
    """Entries deeper than ``depth`` up to ``sparse_depth`` are found; the full part reads as before."""
    deep = Board.from_moves("2513144", *SIZE)
    child = Board.from_moves("25131443", *SIZE)
    with OpeningBook.open(small_book) as book:
        scores = dict(book.items())
    scores[deep.canonical_key()] = solver.solve(deep, best_move=False).score or 0
    scores[child.canonical_key()] = solver.solve(child, best_move=False).score or 0
    path = tmp_path / "sparse.c4b"
    write_book(path, scores, width=5, height=4, connect=4, depth=DEPTH, sparse_depth=8)
    with OpeningBook.open(path) as sparse, OpeningBook.open(small_book) as full:
        assert (sparse.depth, sparse.sparse_depth, full.sparse_depth) == (DEPTH, 8, 0)
        assert sparse.score(deep) == scores[deep.canonical_key()] and full.score(deep) is None
        assert sparse.score(Board.from_moves("3322", *SIZE)) == full.score(Board.from_moves("3322", *SIZE))
        moves = sparse.move_scores(deep)
        assert moves[2] == -scores[child.canonical_key()] and moves.count(None) == 4
        best = solver.analyze(deep, pv=False).scores
        if best[2] == max(s for s in best if s is not None):
            assert sparse.keeping_move(deep, best[2]) == 2
        assert sparse.keeping_move(deep, 99) is None


def test_items_and_arrays_agree_and_do_not_hold_the_book_open(
    small_book: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(book_module, "_BLOCK", 1000)  # items() reads the entries in three blocks
    book = OpeningBook.open(small_book)
    entries = list(book.items())
    assert len(entries) == len(book) > 2000
    keys, scores = book.keys_array(), book.scores_array()
    assert [(int(key), int(score)) for key, score in zip(keys, scores, strict=True)] == entries
    unfinished = book.items()
    next(unfinished)
    book.close()  # neither the arrays nor an unfinished iteration keep the map open
    assert int(keys[-1]) == entries[-1][0]


def _boards_reaching_the_last_columns(width: int, height: int, count: int, seed: int) -> list[Board]:
    """Random positions, not over, with stones in the rightmost columns: keys of the board's top bits."""
    rng = random.Random(seed)
    boards: list[Board] = []
    while len(boards) < count:
        board = Board(width, height, 4)
        for _ in range(rng.randrange(2, width * height // 2)):
            right = [c for c in board.legal_moves() if c >= width - 2]
            column = rng.choice(right if right and rng.random() < 0.6 else board.legal_moves())
            board.play(column)
            if board.is_over:
                break
        if not board.is_over:
            boards.append(board)
    return boards


@pytest.mark.parametrize(("width", "height"), [(10, 6), (8, 8), (16, 7)])
def test_a_book_of_a_board_past_64_bits_keeps_16_byte_keys(width: int, height: int, tmp_path: Path) -> None:
    """Version 2: the same header, keys of 16 bytes (up to the solver's 128 bits), the same lookups."""
    boards = _boards_reaching_the_last_columns(width, height, 60, seed=width * height)
    scores = {board.canonical_key(): board.move_count % 7 - 3 for board in boards}
    assert max(scores) >= 1 << 64  # keys that 8 bytes cannot hold
    if width * (height + 1) == 128:
        assert max(board.key() for board in boards) >= 1 << 127  # the top bit of the widest key
    path = tmp_path / f"book-{width}x{height}.c4b"
    deepest = max(board.move_count for board in boards)
    write_book(path, scores, width=width, height=height, connect=4, depth=0, sparse_depth=deepest)
    assert format_version(width, height) == 2
    assert len(path.read_bytes()) == HEADER_SIZE + 17 * len(scores)
    with OpeningBook.open(path) as book:
        assert (book.header.version, book.header.key_bytes, len(book)) == (2, 16, len(scores))
        assert dict(book.items()) == scores
        keys = book.keys_array()
        assert list(keys) == sorted(scores) and [book.entry(i)[0] for i in range(len(book))] == list(keys)
        for board in boards:
            expected = scores[board.canonical_key()]
            assert book.score(board) == book.score(board.mirror()) == expected
            assert book.board(board.canonical_key()).canonical_key() == board.canonical_key()
        assert book.lookup_key(1 << 128) is None and book.lookup_key(-1) is None
        assert book.score(Board(width, height, 4)) is None  # not in this book


def test_a_version_1_header_cannot_claim_a_board_past_64_bits(tmp_path: Path) -> None:
    board = Board.from_moves("10,10,1", 10, 6)
    path = tmp_path / "wide.c4b"
    write_book(path, {board.canonical_key(): 1}, width=10, height=6, connect=4, depth=3)
    data = path.read_bytes()
    narrow = tmp_path / "narrow.c4b"
    narrow.write_bytes(data[:8] + struct.pack("<H", 1) + data[10:])
    with pytest.raises(BookError, match="impossible board size 10x6"):
        OpeningBook.open(narrow)


def test_books_hold_the_boards_the_solver_holds() -> None:
    require_book_size(10, 6)
    require_book_size(16, 7)
    with pytest.raises(BookError, match=r"<= 128 bits, the boards the exact solver holds; 9x14 needs 135"):
        require_book_size(9, 14)
