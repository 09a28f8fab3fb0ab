"""The opening books an analyst reads: one per board size, opened on first use.

An analyst is given a :data:`BookChoice`: an :class:`~c4engine.search.book.file.OpeningBook`,
a path to one, ``None`` (no book) or :data:`DEFAULT_BOOK` (the book shipped for each board's size,
if there is one).  :class:`Books` turns that choice into the book of a board.

>>> from c4engine import Board
>>> books = Books(DEFAULT_BOOK)
>>> books
Books(DEFAULT_BOOK)
>>> books.score(Board.from_moves("4455"))   # the shipped 7x6 book, at once: a win in 2 moves
18
>>> books.move_scores(Board.from_moves("4455", 8, 8)) is None   # no book for 8x8
True
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Final, TypeAlias

from c4engine.board import Board

if TYPE_CHECKING:  # imported where there is a book: --no-book needs none
    from c4engine.search.book.file import OpeningBook

__all__ = ["DEFAULT_BOOK", "BookChoice", "Books"]


class _DefaultBook:
    """Marker: the book shipped with c4engine for the board, if there is one."""

    def __repr__(self) -> str:
        return "DEFAULT_BOOK"


DEFAULT_BOOK: Final = _DefaultBook()

BookChoice: TypeAlias = "OpeningBook | str | Path | _DefaultBook | None"


class Books:
    """The books of a :data:`BookChoice`, one per board geometry (width, height, connect)."""

    def __init__(self, choice: BookChoice) -> None:
        self.choice = choice
        self._books: dict[tuple[int, int, int], OpeningBook | None] = {}
        if choice is not None and not isinstance(choice, _DefaultBook):
            from c4engine.search.book.file import OpeningBook  # no book, no book module: c4 solve --no-book

            if isinstance(choice, OpeningBook):
                self._books[(choice.width, choice.height, choice.connect)] = choice
            elif isinstance(choice, str | Path):
                opened = OpeningBook.open(choice)
                self._books[(opened.width, opened.height, opened.connect)] = opened

    def __repr__(self) -> str:
        return f"Books({self.choice!r})"

    def for_board(self, board: Board) -> OpeningBook | None:
        """The book used for boards of this size, or None (a book given for another size serves
        only its own)."""
        geometry = (board.width, board.height, board.connect)
        if geometry not in self._books:
            book: OpeningBook | None = None
            if isinstance(self.choice, _DefaultBook):
                from c4engine.search.book.file import OpeningBook, default_book_path

                path = default_book_path(*geometry)
                book = OpeningBook.open(path) if path is not None else None
            self._books[geometry] = book
        return self._books[geometry]

    def strong(self, board: Board) -> OpeningBook | None:
        """The book for ``board`` when it can give exact scores of it (strong, game not over)."""
        book = self.for_board(board)
        return None if book is None or book.weak or board.is_over else book

    def move_scores(self, board: Board) -> list[int | None] | None:
        """Every move's score from the book, or None when the book lacks one of them."""
        book = self.strong(board)
        if book is None:
            return None
        scores = book.move_scores(board)
        if any(score is None for column, score in enumerate(scores) if board.can_play(column)):
            return None
        return scores

    def score(self, board: Board) -> int | None:
        """The position's own score from the book, or None when the book lacks it."""
        book = self.strong(board)
        return None if book is None else book.score(board)
