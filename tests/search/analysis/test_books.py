"""search.analysis.books: a book choice becomes each board's book; a book of another size is refused."""

from __future__ import annotations

from c4engine import Board
from c4engine.search.analysis.books import DEFAULT_BOOK, Books


def test_the_default_choice_opens_the_shipped_book_per_size_once() -> None:
    books = Books(DEFAULT_BOOK)
    book = books.for_board(Board())
    assert book is not None and (book.width, book.height, book.connect) == (7, 6, 4)
    assert books.for_board(Board.from_moves("44")) is book  # opened once
    assert books.for_board(Board(8, 8)) is None  # no book shipped for 8x8
    scores = books.move_scores(Board())
    assert scores == [-2, -1, 0, 1, 0, -1, -2]
    assert books.score(Board()) == 1


def test_no_book_answers_nothing() -> None:
    books = Books(None)
    assert books.for_board(Board()) is None and books.score(Board()) is None
    assert books.move_scores(Board()) is None and repr(books) == "Books(None)"


def test_a_finished_game_has_no_book_score() -> None:
    board = Board.from_moves("4455667")
    assert board.is_over and Books(DEFAULT_BOOK).strong(board) is None


def test_a_path_is_opened_and_serves_its_own_size_only() -> None:
    shipped = Books(DEFAULT_BOOK).for_board(Board())
    assert shipped is not None and shipped.path is not None
    books = Books(shipped.path)
    assert books.score(Board.from_moves("4455")) == Books(DEFAULT_BOOK).score(Board.from_moves("4455"))
    assert books.for_board(Board(8, 8)) is None and books.for_board(Board(7, 6, 3)) is None
