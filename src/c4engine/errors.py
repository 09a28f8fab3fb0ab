"""Exceptions raised by c4engine.

Every error caused by bad input is a subclass of :class:`ValueError`, so
callers that only care about "the input was wrong" can catch that, while a
front-end can tell a full column from a malformed move string.
"""

from __future__ import annotations

from os import PathLike, fspath

__all__ = [
    "BoardBusyError",
    "BoardSizeError",
    "BookError",
    "BudgetTooSmallError",
    "C4Error",
    "ColumnFullError",
    "ColumnOutOfRangeError",
    "ConnectError",
    "DatasetError",
    "GameOverError",
    "IllegalMoveError",
    "LevelError",
    "LimitError",
    "MatchError",
    "MoveTimeoutError",
    "NotationError",
    "PlayerFailedError",
    "PlayerSpecError",
    "PositionError",
    "PuzzleError",
    "RecordError",
    "ReviewError",
    "SchedulerError",
    "ServeError",
    "TableSizeError",
    "ThreadCountError",
    "TuneError",
    "UnknownEvaluatorError",
    "UnsupportedBoardError",
    "WeightsError",
]
"""Every exception of the library (``c4engine`` exports them all)."""

ECHO_LIMIT = 40
"""About how many characters of a user's input an error message quotes."""


def echo(text: str, limit: int = ECHO_LIMIT) -> str:
    """``repr(text)`` for an error message, cut to ``limit`` characters so that junk input stays short.

    >>> echo("4x53")
    "'4x53'"
    >>> echo("9" * 100)
    "'999999999999999999999999999999999999999... (100 characters)"
    """
    quoted = repr(text)
    if len(quoted) <= limit:
        return quoted
    return f"{quoted[:limit]}... ({len(text)} characters)"


PATH_LIMIT = 80
"""About how many characters of a path an error message shows (its end: the file's name)."""


def echo_path(path: str | PathLike[str]) -> str:
    """A path for an error message: as it is when short and printable, else quoted, its end kept.

    >>> echo_path("data/train.csv")
    'data/train.csv'
    >>> echo_path("")
    "''"
    >>> echo_path("/tmp/" + "x" * 100 + "/bad.txt")
    '...xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx/bad.txt'
    """
    text = fspath(path)
    shown = text if len(text) <= PATH_LIMIT else "..." + text[-(PATH_LIMIT - 3) :]
    return shown if shown and shown.isprintable() and shown.strip() == shown else repr(shown)


class C4Error(ValueError):
    """Base class of every input error c4engine raises."""


class BoardSizeError(C4Error):
    """The board's width or height is impossible (zero, negative, too large)."""


class ConnectError(C4Error):
    """The connect-N cannot be used on this board."""


class IllegalMoveError(C4Error):
    """A move that the rules do not allow in the current position."""


class ColumnOutOfRangeError(IllegalMoveError):
    """The column does not exist on this board."""


class ColumnFullError(IllegalMoveError):
    """The column has no empty cell left."""


class GameOverError(IllegalMoveError):
    """A move was attempted after the game had ended."""


class NotationError(C4Error):
    """A move string could not be parsed.

    ``index`` is the 0-based position of the offending move in the sequence
    and ``token`` the text of that move, so a front-end can point at it.
    """

    def __init__(self, message: str, *, index: int | None = None, token: str | None = None) -> None:
        super().__init__(message)
        self.index = index
        self.token = token


class PositionError(C4Error):
    """A position given by its cells (not its moves) that no game can reach."""


class DatasetError(C4Error):
    """Dataset settings that cannot work: plies off the board, an unknown format, no pyarrow."""


class TableSizeError(C4Error):
    """A transposition table too small to work with, larger than the machine's memory, or not a number."""


class UnsupportedBoardError(C4Error):
    """The board is too large for the compiled solver (``width * (height + 1)`` over 64 bits)."""


class RecordError(C4Error):
    """A game record (JSON) is malformed or describes an impossible game."""


class ReviewError(C4Error):
    """A game review that cannot be done as asked: more opening plies than the game has moves."""


class PuzzleError(C4Error):
    """A puzzle that is malformed (its JSON, its moves) or a puzzle file that cannot be read."""


class BoardBusyError(RuntimeError):
    """The board is being searched and must not be changed until the search ends.

    Raised when a poll hook (or any other code running during a search)
    tries to play or undo a move on the board the engine is thinking about.
    """


class LevelError(C4Error):
    """A skill level that does not exist."""


class PlayerSpecError(C4Error):
    """A description of a player (``human``, ``random``, a level) that cannot be read."""


class WeightsError(C4Error):
    """Evaluation weights that cannot be used: malformed data, wrong length for the connect-N, not numbers."""


class UnknownEvaluatorError(C4Error):
    """No evaluator has the requested name; the message lists the valid names."""


class SchedulerError(C4Error):
    """A parallel-work setting is wrong: an unreachable Dask scheduler, a bad worker count."""


class ThreadCountError(C4Error):
    """A number of solver threads that cannot be used: not a whole number of at least 1."""


class MatchError(C4Error):
    """A match that cannot be played: bad parameters, another match's database, an illegal move."""


class TuneError(C4Error):
    """A tuning run that cannot be done: bad parameters or bounds, another run's database, a bad method."""


class BudgetTooSmallError(TuneError):
    """A tuning run's games budget is less than one round of games."""


class ServeError(C4Error):
    """The web server cannot listen where asked: the port is taken, or the address is not this machine's."""


class BookError(C4Error):
    """An opening book that cannot be used: not a book file, damaged, another format version or board."""


class LimitError(C4Error):
    """A search limit that cannot be used: a time that is not a positive number, a depth below 1."""


class PlayerFailedError(C4Error):
    """An external player run in its own process that raised or died (the message says how)."""


class MoveTimeoutError(C4Error):
    """A player that did not choose a move within its time limit: it loses the game on time."""
