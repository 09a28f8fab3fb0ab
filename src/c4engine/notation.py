"""Move-sequence notation.

A position is written as the columns played, in order, counted from 1 --
the notation of the published Connect-4 solver benchmarks::

    >>> parse_moves("4453")
    [3, 3, 4, 2]
    >>> format_moves([3, 3, 4, 2])
    '4453'

Boards wider than 9 columns need more than one digit per move, so their
moves are separated by commas::

    >>> parse_moves("10,3,4", width=12)
    [9, 2, 3]
    >>> format_moves([9, 2, 3], width=12)
    '10,3,4'

On such boards a string without a separator is a single move (``"10"`` is
column 10, as :func:`format_moves` writes a one-move game)::

    >>> parse_moves("10", width=12)
    [9]

This module only reads and writes the text; whether the moves are legal
(a full column, a game already over) is checked by
:meth:`c4engine.board.Board.from_moves`, which reports the offending move
the same way.
"""

from __future__ import annotations

from collections.abc import Iterable

from c4engine.errors import BoardSizeError, NotationError, echo

__all__ = ["SEPARATOR", "format_moves", "parse_moves"]

SEPARATOR = ","


def _tokens(text: str, width: int) -> list[str]:
    text = text.strip()
    if not text:
        return []
    if SEPARATOR in text:
        return [token.strip() for token in text.split(SEPARATOR)]
    if width > 9:
        # format_moves writes a one-move game on a wide board as "10" (nothing
        # to separate), so without a separator the text is one move, not "1", "0".
        return [text]
    return list(text)


def parse_moves(text: str, width: int = 7) -> list[int]:
    """Read a move string into 0-based columns, checking each is on the board.

    Raises :class:`NotationError` naming the first bad move (its 1-based
    place in the sequence and its text) and the reason.

    >>> parse_moves("")
    []
    >>> parse_moves("48")
    Traceback (most recent call last):
    ...
    c4engine.errors.NotationError: move 2 ('8'): column 8 is out of range 1..7
    """
    columns: list[int] = []
    for index, token in enumerate(_tokens(text, width)):
        if token.isdigit() and token.isascii() and 1 <= int(token) <= width:
            columns.append(int(token) - 1)
            continue
        # only a bad move pays for its message: batch mode reads thousands of moves a second
        where = f"move {index + 1} ({echo(token)})"
        if not token:
            raise NotationError(f"{where}: empty move (two separators in a row?)", index=index, token=token)
        if not token.isdigit() or not token.isascii():
            raise NotationError(
                f"{where}: not a column number (moves are columns 1..{width})", index=index, token=token
            )
        column = int(token)  # a number, so off the board
        hint = ""
        if width > 9 and SEPARATOR not in text:
            hint = f"; on boards wider than 9 columns separate the moves with '{SEPARATOR}', e.g. 10,3,4"
        raise NotationError(
            f"{where}: column {column} is out of range 1..{width}{hint}", index=index, token=token
        )
    return columns


def format_moves(columns: Iterable[int], width: int = 7) -> str:
    """Write 0-based columns in the notation :func:`parse_moves` reads.

    Boards up to 9 columns wide get the compact form (``"4453"``), wider
    boards the separated one (``"10,3,4"``).
    """
    labels = [str(column + 1) for column in columns]
    return (SEPARATOR if width > 9 else "").join(labels)


def parse_size(text: str) -> tuple[int, int]:
    """``"7x6"`` -> ``(7, 6)`` (width x height); the numbers themselves are checked by the board.

    >>> parse_size("9x7")
    (9, 7)
    """
    parts = text.strip().lower().replace("\u00d7", "x").split("x")  # also accept the multiplication sign
    if len(parts) != 2 or not all(
        part.strip().lstrip("-").isdigit() and part.strip().isascii() for part in parts
    ):
        raise BoardSizeError(f"board size {echo(text)} is not WIDTHxHEIGHT, e.g. 7x6")
    width, height = (int(part) for part in parts)
    return width, height
