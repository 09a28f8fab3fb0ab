"""Game records as JSON.

A :class:`GameRecord` is a finished (or unfinished) game: the board size, the
moves, who played, the result and when.  Its JSON form looks like this::

    {
      "format": "c4engine-game",
      "version": 1,
      "width": 7,
      "height": 6,
      "connect": 4,
      "moves": "4453",
      "columns": [3, 3, 4, 2],
      "players": {"first": "Alice", "second": "Bob"},
      "result": "*",
      "started": "2024-05-01T12:00:00Z",
      "ended": null,
      "metadata": {}
    }

``moves`` is the move string of :mod:`c4engine.notation` (columns from 1, in
the comma-separated form on boards wider than 9), for people; ``columns`` the
same moves as 0-based column numbers, for programs.  Reading checks that the
two agree, that the moves are legal and that ``result`` is what they lead to,
and reports any problem as :class:`~c4engine.errors.RecordError`.

>>> from c4engine import Board
>>> record = GameRecord.from_board(Board.from_moves("1212121"), players=("Alice", "Bob"))
>>> record.result
'1-0'
>>> again = GameRecord.from_json(record.to_json())
>>> again == record
True
>>> print(again.to_board())
 . . . . . . .
 . . . . . . .
 X . . . . . .
 X O . . . . .
 X O . . . . .
 X O . . . . .
 1 2 3 4 5 6 7
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from c4engine.board import Board
from c4engine.errors import BoardSizeError, ConnectError, NotationError, RecordError
from c4engine.geometry import Geometry
from c4engine.notation import format_moves, parse_moves

__all__ = ["FORMAT", "RESULTS", "VERSION", "GameRecord"]

FORMAT = "c4engine-game"
"""The ``format`` field of every record: says what the file is."""

VERSION = 1
"""The record layout this module writes (and the newest it reads)."""

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
"""First player won, second player won, draw, unfinished."""

_REQUIRED = ("format", "version", "width", "height", "connect", "moves", "columns", "players", "result")
_OPTIONAL = ("started", "ended", "metadata")

_RESULT_MEANING = {
    "1-0": "won by the first player",
    "0-1": "won by the second player",
    "1/2-1/2": "a draw",
    "*": "unfinished",
}


@dataclass
class GameRecord:
    """One game: size, moves (0-based columns), players, result, times and free-form metadata.

    Constructing one checks it (:meth:`validate`), so a record that exists
    describes a game that can be played.  Timestamps are timezone-aware and
    kept in UTC.

    >>> GameRecord(moves=[3, 3], result="1-0")
    Traceback (most recent call last):
    ...
    c4engine.errors.RecordError: result '1-0' (won by the first player) contradicts the moves, \
after which the game is unfinished ('*')
    """

    width: int = 7
    height: int = 6
    connect: int = 4
    moves: list[int] = field(default_factory=list)
    players: tuple[str, str] = ("First", "Second")
    result: str = "*"
    started: datetime | None = None
    ended: datetime | None = None
    metadata: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Normalise the forgivable (a tuple of moves, a list of names, a
        # non-UTC offset) so that equal games compare and serialise equal.
        if isinstance(self.moves, tuple):
            self.moves = list(self.moves)
        if isinstance(self.players, list):
            self.players = tuple(self.players)  # checked in validate()
        self.validate()
        self.started = _to_utc(self.started, "started")
        self.ended = _to_utc(self.ended, "ended")

    # ------------------------------------------------------------ building

    @classmethod
    def from_board(
        cls,
        board: Board,
        *,
        players: Sequence[str] | Mapping[str, str] = ("First", "Second"),
        started: datetime | str | None = None,
        ended: datetime | str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> GameRecord:
        """The record of the game that led to ``board``.

        ``players`` is ``(first, second)`` or ``{"first": ..., "second": ...}``.
        ``ended`` defaults to now if the game is over (else ``None``);
        timestamps are aware :class:`~datetime.datetime` objects or ISO-8601 strings.

        >>> from c4engine import Board
        >>> record = GameRecord.from_board(Board.from_moves("44"), players={"first": "Ann", "second": "Bo"},
        ...                                started="2024-05-01T12:00:00+02:00")
        >>> record.players, record.started.isoformat(), record.ended
        (('Ann', 'Bo'), '2024-05-01T10:00:00+00:00', None)
        """
        if isinstance(players, Mapping):
            missing = [side for side in ("first", "second") if side not in players]
            if missing:
                raise RecordError(f"players needs 'first' and 'second' names; missing {', '.join(missing)}")
            names = (players["first"], players["second"])
        else:
            if isinstance(players, str) or len(players) != 2:
                raise RecordError(f"players must be two names (first, second), not {players!r}")
            names = (players[0], players[1])
        if ended is None and board.is_over:
            ended = datetime.now(UTC).replace(microsecond=0)
        return cls(
            width=board.width,
            height=board.height,
            connect=board.connect,
            moves=list(board.moves),
            players=names,
            result=board.result,
            started=_parse_time(started, "started") if isinstance(started, str) else started,
            ended=_parse_time(ended, "ended") if isinstance(ended, str) else ended,
            metadata=dict(metadata or {}),
        )

    def to_board(self) -> Board:
        """The final position of the game (with its move history).

        >>> GameRecord(moves=[3, 3, 4]).to_board().move_string
        '445'
        """
        return Board.from_moves(self.moves, self.width, self.height, self.connect)

    @property
    def move_string(self) -> str:
        """The moves in :mod:`c4engine.notation` (``"4453"``; ``"10,3,4"`` when wider than 9)."""
        return format_moves(self.moves, self.width)

    # ---------------------------------------------------------- validation

    def validate(self) -> None:
        """Raise :class:`RecordError` unless this record describes a possible game.

        Checks the types, the board size, every move's legality, and that
        ``result`` is what the moves lead to (a game that is over by the moves
        must say who won; one that is not must say ``"*"``).
        """
        for name in ("width", "height", "connect"):
            value = getattr(self, name)
            if not _is_int(value):
                raise RecordError(f"{name} must be a whole number, not {_describe(value)}")
        try:
            Geometry.of(self.width, self.height, self.connect)
        except (BoardSizeError, ConnectError) as error:
            raise RecordError(f"impossible board: {error}") from error

        if not isinstance(self.moves, list):
            raise RecordError(f"moves must be a list of 0-based columns, not {_describe(self.moves)}")
        for index, column in enumerate(self.moves):
            if not _is_int(column):
                raise RecordError(f"move {index + 1} must be a whole-number column, not {_describe(column)}")
        try:
            board = self.to_board()
        except NotationError as error:
            raise RecordError(f"illegal move in the record: {error}") from error

        if not (isinstance(self.players, tuple) and len(self.players) == 2):
            raise RecordError(f"players must be two names (first, second), not {self.players!r}")
        for side, name in zip(("first", "second"), self.players, strict=True):
            if not isinstance(name, str):
                raise RecordError(f"the {side} player's name must be text, not {_describe(name)}")

        if not isinstance(self.result, str) or self.result not in RESULTS:
            raise RecordError(f"result must be one of {', '.join(RESULTS)}, not {self.result!r}")
        if self.result != board.result:
            raise RecordError(
                f"result {self.result!r} ({_RESULT_MEANING[self.result]}) contradicts the moves, "
                f"after which the game is {_RESULT_MEANING[board.result]} ({board.result!r})"
            )

        for name in ("started", "ended"):
            value = getattr(self, name)
            if value is None:
                continue
            if not isinstance(value, datetime):
                raise RecordError(f"{name} must be a datetime or None, not {_describe(value)}")
            if value.utcoffset() is None:
                raise RecordError(f"{name} has no time zone ({value.isoformat()}); give it in UTC")
        if self.started is not None and self.ended is not None and self.ended < self.started:
            raise RecordError(
                f"the game ended ({_format_time(self.ended)}) before it started "
                f"({_format_time(self.started)})"
            )

        if not isinstance(self.metadata, dict):
            raise RecordError(f"metadata must be a JSON object (a dict), not {_describe(self.metadata)}")
        try:
            # allow_nan=False: NaN and Infinity are not JSON, and other readers refuse them.
            written = json.dumps(self.metadata, allow_nan=False)
        except (TypeError, ValueError) as error:
            raise RecordError(f"metadata cannot be written as JSON: {error}") from error
        if json.loads(written) != self.metadata:
            # json.dumps turns tuples into lists and 1 into "1" as a key without a word,
            # so the record read back would differ from the one saved.
            raise RecordError(
                "metadata would change when written as JSON: use lists, not tuples, and text keys"
            )

    # ---------------------------------------------------------------- JSON

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready Python data (see the module docstring)."""
        self.validate()  # the fields are plain attributes: catch edits since construction
        return {
            "format": FORMAT,
            "version": VERSION,
            "width": self.width,
            "height": self.height,
            "connect": self.connect,
            "moves": self.move_string,
            "columns": list(self.moves),
            "players": {"first": self.players[0], "second": self.players[1]},
            "result": self.result,
            "started": None if self.started is None else _format_time(self.started),
            "ended": None if self.ended is None else _format_time(self.ended),
            "metadata": self.metadata,
        }

    def to_json(self) -> str:
        """The record as JSON text: one field per line, lists kept on their line.

        >>> print(GameRecord(moves=[3]).to_json())
        {
          "format": "c4engine-game",
          "version": 1,
          "width": 7,
          "height": 6,
          "connect": 4,
          "moves": "4",
          "columns": [3],
          "players": {"first": "First", "second": "Second"},
          "result": "*",
          "started": null,
          "ended": null,
          "metadata": {}
        }
        """
        # Not json.dumps(indent=...): that puts each of 42 moves on its own line.
        lines = [
            f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False, allow_nan=False)}"
            for key, value in self.to_dict().items()
        ]
        return "{\n" + ",\n".join(lines) + "\n}"

    @classmethod
    def from_dict(cls, data: object) -> GameRecord:
        """Read and check a record from parsed JSON; any problem is a :class:`RecordError`.

        >>> GameRecord.from_dict({"format": "c4engine-game", "version": 1})
        Traceback (most recent call last):
        ...
        c4engine.errors.RecordError: missing fields: 'width', 'height', 'connect', 'moves', 'columns', \
'players', 'result'
        """
        fields = _checked_header(data)
        _check_board(fields)
        columns = _checked_columns(fields)
        players = _checked_players(fields)
        result = fields["result"]
        if not isinstance(result, str) or result not in RESULTS:
            raise RecordError(f"field 'result' must be one of {', '.join(RESULTS)}, not {_describe(result)}")
        times = _checked_times(fields)
        metadata = fields.get("metadata", {})
        if not isinstance(metadata, dict):
            raise RecordError(f"field 'metadata' must be an object, not {_describe(metadata)}")

        # The rest -- legality of the moves, the result against them -- the constructor checks.
        return cls(
            width=fields["width"],
            height=fields["height"],
            connect=fields["connect"],
            moves=columns,
            players=(players["first"], players["second"]),
            result=result,
            started=times["started"],
            ended=times["ended"],
            metadata=metadata,
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """Read a record from JSON text; any problem is a :class:`RecordError`.

        >>> GameRecord.from_json('{"format": "c4engine-game", "version": 1,')
        Traceback (most recent call last):
        ...
        c4engine.errors.RecordError: not valid JSON: Expecting property name enclosed in double quotes \
at line 1, column 42
        """
        if not isinstance(text, str | bytes):
            raise RecordError(f"a game record is JSON text, not {type(text).__name__}")
        try:
            data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
        except json.JSONDecodeError as error:
            where = f"line {error.lineno}, column {error.colno}"
            raise RecordError(f"not valid JSON: {error.msg} at {where}") from error
        except UnicodeDecodeError as error:
            raise RecordError(f"not valid JSON: the text is not UTF-8 ({error.reason})") from error
        except RecursionError as error:
            raise RecordError("not valid JSON for a game record: nested too deeply") from error
        return cls.from_dict(data)

    # --------------------------------------------------------------- files

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record to ``path`` as UTF-8 JSON.

        The file is written beside its destination and then renamed over it,
        so a crash never leaves a half-written record in place of a good one.
        """
        text = self.to_json() + "\n"
        destination = Path(path)
        handle, temporary = tempfile.mkstemp(
            dir=destination.parent, prefix=f".{destination.name}.", suffix=".tmp"
        )
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(text)
            os.replace(temporary, destination)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> GameRecord:
        """Read a record saved by :meth:`save`.

        A bad record raises :class:`RecordError` naming the file; a missing or
        unreadable file raises the usual :class:`OSError`.
        """
        data = Path(path).read_bytes()
        try:
            return cls.from_json(data)
        except RecordError as error:
            raise RecordError(f"{os.fspath(path)}: {error}") from error


# ------------------------------------------------------------------ helpers


def _is_int(value: object) -> bool:
    # JSON true/false arrive as bool, which Python counts as int.
    return isinstance(value, int) and not isinstance(value, bool)


def _describe(value: object) -> str:
    """``value`` as people reading JSON know it: ``'7' (text)``, ``true``, ``a list``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"{shown!r} (text)"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def _names(names: Sequence[str]) -> str:
    return ", ".join(repr(name) for name in names)


def _disagreement(parsed: list[int], columns: list[int]) -> str:
    lead = "fields 'moves' and 'columns' disagree"
    for index, (from_string, column) in enumerate(zip(parsed, columns, strict=False)):
        if from_string != column:
            return (
                f"{lead}: move {index + 1} is column {from_string + 1} in 'moves' "
                f"but {column} (column {column + 1}) in 'columns'"
            )
    return f"{lead}: 'moves' has {len(parsed)} moves, 'columns' {len(columns)}"


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json.loads keeps the last of repeated keys silently; in a record that
    # hides a mistake (two "moves"), so it is one.
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise RecordError(f"field {key!r} appears twice")
        result[key] = value
    return result


def _no_constant(name: str) -> float:
    # NaN and Infinity are not JSON; Python's reader accepts them unless told not to.
    raise RecordError(f"not valid JSON: {name} is not a JSON value")


def _parse_time(text: str, name: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError as error:
        raise RecordError(f"{name} {text!r} is not an ISO-8601 time such as 2024-05-01T12:00:00Z") from error
    if moment.utcoffset() is None:
        raise RecordError(
            f"{name} {text!r} has no time zone; write UTC times with a Z, e.g. 2024-05-01T12:00:00Z"
        )
    utc = _to_utc(moment, name)
    assert utc is not None  # moment was not None
    return utc


def _to_utc(moment: datetime | None, name: str) -> datetime | None:
    if moment is None:
        return None
    try:
        return moment.astimezone(UTC)
    except OverflowError as error:
        # 0001-01-01T00:00+01:00 is a valid ISO time whose UTC is before year 1.
        raise RecordError(f"{name} {moment.isoformat()} is out of range once converted to UTC") from error


def _format_time(moment: datetime) -> str:
    """ISO-8601 in UTC with a ``Z``, the form most readers expect."""
    text = moment.astimezone(UTC).isoformat()
    return text.removesuffix("+00:00") + "Z"


def _checked_header(data: object) -> dict[str, Any]:
    """``data`` as a record's fields, checked to be a JSON object of this format, of a version this
    c4engine reads, with every required field and no unknown one."""
    if not isinstance(data, dict):
        raise RecordError(f"a game record must be a JSON object, not {_describe(data)}")
    if "format" not in data:
        raise RecordError("missing field 'format': this does not look like a c4engine game record")
    if data["format"] != FORMAT:
        raise RecordError(
            f"not a c4engine game record: format is {_describe(data['format'])}, expected {FORMAT!r}"
        )
    if "version" not in data:
        raise RecordError("missing field 'version'")
    version = data["version"]
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordError(f"field 'version' must be a whole number, not {_describe(version)}")
    if version > VERSION:
        raise RecordError(
            f"this record is version {version}, written by a newer c4engine; "
            f"this one reads up to version {VERSION}"
        )
    if version < 1:
        raise RecordError(f"field 'version' must be 1 or more, not {version}")
    missing = [name for name in _REQUIRED if name not in data]
    if missing:
        raise RecordError(f"missing field{'s' if len(missing) > 1 else ''}: {_names(missing)}")
    unknown = [name for name in data if name not in _REQUIRED and name not in _OPTIONAL]
    if unknown:
        raise RecordError(
            f"unknown field{'s' if len(unknown) > 1 else ''} {_names(unknown)}; "
            "put extra information in 'metadata'"
        )
    return data


def _check_board(data: dict[str, Any]) -> None:
    """Check the record's board: whole numbers making a possible board."""
    for name in ("width", "height", "connect"):
        if not _is_int(data[name]):
            raise RecordError(f"field {name!r} must be a whole number, not {_describe(data[name])}")
    try:
        Geometry.of(data["width"], data["height"], data["connect"])
    except (BoardSizeError, ConnectError) as error:
        raise RecordError(f"impossible board: {error}") from error


def _checked_columns(data: dict[str, Any]) -> list[int]:
    """The record's 0-based columns, checked against its move string."""
    move_string, columns = data["moves"], data["columns"]
    if not isinstance(move_string, str):
        raise RecordError(
            f"field 'moves' must be a move string such as \"4453\", not {_describe(move_string)}"
        )
    if not isinstance(columns, list):
        raise RecordError(f"field 'columns' must be a list of 0-based columns, not {_describe(columns)}")
    for index, column in enumerate(columns):
        if not _is_int(column):
            raise RecordError(
                f"field 'columns': item {index + 1} must be a whole number, not {_describe(column)}"
            )
    try:
        parsed = parse_moves(move_string, data["width"])
    except NotationError as error:
        raise RecordError(f"field 'moves': {error}") from error
    if parsed != columns:
        raise RecordError(_disagreement(parsed, columns))
    return columns


def _checked_players(data: dict[str, Any]) -> dict[str, str]:
    """The record's players, checked: the first's and the second's names, nothing else."""
    players = data["players"]
    if not isinstance(players, dict):
        raise RecordError(
            f'field \'players\' must be an object like {{"first": "Ann", "second": "Bo"}}, '
            f"not {_describe(players)}"
        )
    for side in ("first", "second"):
        if side not in players:
            raise RecordError(f"field 'players' has no {side!r} name")
        if not isinstance(players[side], str):
            raise RecordError(f"the {side} player's name must be text, not {_describe(players[side])}")
    extra = [side for side in players if side not in ("first", "second")]
    if extra:
        raise RecordError(f"field 'players' has only 'first' and 'second', not {_names(extra)}")
    return players


def _checked_times(data: dict[str, Any]) -> dict[str, datetime | None]:
    """The record's start and end times (None where not recorded), checked."""
    times: dict[str, datetime | None] = {}
    for name in ("started", "ended"):
        value = data.get(name)
        if value is not None and not isinstance(value, str):
            raise RecordError(f"field {name!r} must be an ISO-8601 time or null, not {_describe(value)}")
        times[name] = None if value is None else _parse_time(value, name)
    return times
