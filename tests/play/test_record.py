"""Game records: round trips through JSON and files, and a clear RecordError for every kind of bad record."""

from __future__ import annotations

import contextlib
import copy
import json
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from c4engine import Board, RecordError
from c4engine.play.record import FORMAT, VERSION, GameRecord

STARTED = datetime(2024, 5, 1, 12, 0, 0, tzinfo=UTC)
ENDED = datetime(2024, 5, 1, 12, 3, 30, tzinfo=UTC)


def good() -> dict[str, Any]:
    """A valid record as parsed JSON: X wins in column 1."""
    return {
        "format": "c4engine-game",
        "version": 1,
        "width": 7,
        "height": 6,
        "connect": 4,
        "moves": "1212121",
        "columns": [0, 1, 0, 1, 0, 1, 0],
        "players": {"first": "Alice", "second": "Bob"},
        "result": "1-0",
        "started": "2024-05-01T12:00:00Z",
        "ended": "2024-05-01T12:03:30Z",
        "metadata": {"event": "club night", "round": 3},
    }


# ------------------------------------------------------------ round trips


def test_good_record_reads() -> None:
    record = GameRecord.from_dict(good())
    assert record.moves == [0, 1, 0, 1, 0, 1, 0]
    assert record.players == ("Alice", "Bob")
    assert record.result == "1-0"
    assert record.started == STARTED and record.ended == ENDED
    assert record.metadata == {"event": "club night", "round": 3}
    assert record.to_dict() == good()


def test_round_trip_through_json() -> None:
    board = Board.from_moves("4453432312")
    record = GameRecord.from_board(
        board, players=("Ann", "Bø 🙂"), started=STARTED, metadata={"note": "unfinished", "tags": ["a", 1]}
    )
    assert record.result == "*" and record.ended is None
    text = record.to_json()
    assert json.loads(text)["moves"] == "4453432312"
    assert json.loads(text)["columns"] == list(board.moves)
    again = GameRecord.from_json(text)
    assert again == record
    assert again.to_board() == board and again.to_board().moves == board.moves
    assert GameRecord.from_json(text.encode("utf-8")) == record


def test_round_trip_through_a_file(tmp_path: Path) -> None:
    board = Board.from_moves("1212121")
    record = GameRecord.from_board(
        board, players={"first": "Alice", "second": "Bob"}, started=STARTED, ended=ENDED
    )
    path = tmp_path / "game.json"
    record.save(path)
    assert GameRecord.load(path) == record
    assert GameRecord.load(str(path)) == record
    assert json.loads(path.read_text(encoding="utf-8")) == {**good(), "metadata": {}}
    record.save(path)  # overwriting works and leaves no temporary files behind
    assert [entry.name for entry in tmp_path.iterdir()] == ["game.json"]


def test_wide_board_round_trip() -> None:
    board = Board.from_moves("10,12,1,10", width=12, height=5, connect=5)
    record = GameRecord.from_board(board)
    data = json.loads(record.to_json())
    assert data["moves"] == "10,12,1,10" and data["columns"] == [9, 11, 0, 9]
    assert GameRecord.from_json(record.to_json()).to_board() == board
    single = GameRecord.from_board(Board.from_moves([9], width=12, height=5))
    assert GameRecord.from_json(single.to_json()).moves == [9]  # "10" is one move, not 1 then 0


def test_draw_record() -> None:
    board = Board.from_moves([0, 1, 2, 3], width=4, height=1, connect=3)
    record = GameRecord.from_board(board)
    assert record.result == "1/2-1/2"
    assert record.ended is not None and record.ended.tzinfo is not None
    assert GameRecord.from_json(record.to_json()) == record


def test_from_board_sets_ended_when_the_game_is_over() -> None:
    before = datetime.now(UTC).replace(microsecond=0)
    record = GameRecord.from_board(Board.from_moves("1212121"))
    assert record.ended is not None and before <= record.ended <= datetime.now(UTC)
    assert GameRecord.from_board(Board.from_moves("12")).ended is None


def test_timestamps_are_kept_in_utc() -> None:
    paris = timezone(timedelta(hours=2))
    record = GameRecord.from_board(Board(), started=datetime(2024, 5, 1, 14, 0, tzinfo=paris))
    assert record.started == STARTED and record.started.utcoffset() == timedelta(0)
    assert json.loads(record.to_json())["started"] == "2024-05-01T12:00:00Z"
    data = good()
    data["started"] = "2024-05-01T14:00:00+02:00"
    assert GameRecord.from_dict(data).started == STARTED
    with_microseconds = GameRecord.from_board(Board(), started=STARTED.replace(microsecond=123456))
    assert GameRecord.from_json(with_microseconds.to_json()) == with_microseconds


def test_the_record_game_py_makes() -> None:
    # Game.record() passes (first.name, second.name) and an aware datetime.now(UTC).
    record = GameRecord.from_board(
        Board.from_moves("44"), players=("You", "Level 3"), started=datetime.now(UTC)
    )
    assert GameRecord.from_json(record.to_json()) == record


# ------------------------------------------------------------ bad records


def mutated(change: Any) -> dict[str, Any]:
    data = good()
    change(data)
    return data


BAD_RECORDS: list[tuple[str, Any, str]] = [
    ("not an object", [1, 2], "must be a JSON object, not a list"),
    ("no format", mutated(lambda d: d.pop("format")), "missing field 'format'"),
    (
        "other format",
        mutated(lambda d: d.update(format="pgn")),
        "not a c4engine game record: format is 'pgn'",
    ),
    ("no version", mutated(lambda d: d.pop("version")), "missing field 'version'"),
    ("newer version", mutated(lambda d: d.update(version=2)), "version 2, written by a newer c4engine"),
    ("version zero", mutated(lambda d: d.update(version=0)), "'version' must be 1 or more"),
    (
        "version as text",
        mutated(lambda d: d.update(version="1")),
        "'version' must be a whole number, not '1'",
    ),
    ("no moves", mutated(lambda d: d.pop("moves")), "missing field: 'moves'"),
    (
        "no width, no result",
        mutated(lambda d: (d.pop("width"), d.pop("result"))),
        "missing fields: 'width', 'result'",
    ),
    (
        "unknown field",
        mutated(lambda d: d.update(winner="X")),
        "unknown field 'winner'; put extra information in 'metadata'",
    ),
    (
        "width as text",
        mutated(lambda d: d.update(width="7")),
        "'width' must be a whole number, not '7' (text)",
    ),
    ("width as float", mutated(lambda d: d.update(width=7.0)), "'width' must be a whole number, not 7.0"),
    ("height true", mutated(lambda d: d.update(height=True)), "'height' must be a whole number, not true"),
    (
        "width zero",
        mutated(lambda d: d.update(width=0)),
        "impossible board: board width must be between 1 and 32, not 0",
    ),
    (
        "height huge",
        mutated(lambda d: d.update(height=10**6)),
        "impossible board: board height must be between 1 and 32",
    ),
    (
        "connect too long",
        mutated(lambda d: d.update(connect=8)),
        "impossible board: connect 8 cannot fit on a 7x6 board",
    ),
    ("connect null", mutated(lambda d: d.update(connect=None)), "'connect' must be a whole number, not null"),
    (
        "moves as list",
        mutated(lambda d: d.update(moves=[1, 2])),
        "'moves' must be a move string such as \"4453\", not a list",
    ),
    (
        "columns as text",
        mutated(lambda d: d.update(columns="0101010")),
        "'columns' must be a list of 0-based columns",
    ),
    (
        "column true",
        mutated(lambda d: d["columns"].__setitem__(2, True)),
        "'columns': item 3 must be a whole number, not true",
    ),
    (
        "bad move char",
        mutated(lambda d: d.update(moves="12a2121")),
        "field 'moves': move 3 ('a'): not a column number",
    ),
    (
        "move out of range",
        mutated(lambda d: d.update(moves="1282121")),
        "field 'moves': move 3 ('8'): column 8 is out of range",
    ),
    (
        "moves and columns disagree",
        mutated(lambda d: d["columns"].__setitem__(2, 4)),
        "'moves' and 'columns' disagree: move 3 is column 1 in 'moves' but 4 (column 5) in 'columns'",
    ),
    (
        "different lengths",
        mutated(lambda d: d["columns"].pop()),
        "'moves' and 'columns' disagree: 'moves' has 7 moves, 'columns' 6",
    ),
    (
        "full column",
        mutated(lambda d: d.update(moves="1111111", columns=[0] * 7, result="*")),
        "illegal move in the record: move 7 ('1'): column 1 is full",
    ),
    (
        "move after the win",
        mutated(lambda d: d.update(moves="12121212", columns=[0, 1] * 4)),
        "illegal move in the record: move 8 ('2'): the game is over: X has won",
    ),
    (
        "result unknown",
        mutated(lambda d: d.update(result="X wins")),
        "'result' must be one of 1-0, 0-1, 1/2-1/2, *",
    ),
    (
        "result number",
        mutated(lambda d: d.update(result=1)),
        "'result' must be one of 1-0, 0-1, 1/2-1/2, *, not 1",
    ),
    (
        "win recorded as unfinished",
        mutated(lambda d: d.update(result="*")),
        "result '*' (unfinished) contradicts the moves, "
        "after which the game is won by the first player ('1-0')",
    ),
    (
        "wrong winner",
        mutated(lambda d: d.update(result="0-1")),
        "result '0-1' (won by the second player) contradicts the moves",
    ),
    (
        "unfinished game recorded as won",
        mutated(lambda d: d.update(moves="121212", columns=[0, 1] * 3)),
        "result '1-0' (won by the first player) contradicts the moves, "
        "after which the game is unfinished ('*')",
    ),
    (
        "draw that is not one",
        mutated(lambda d: d.update(result="1/2-1/2")),
        "result '1/2-1/2' (a draw) contradicts the moves",
    ),
    ("players as list", mutated(lambda d: d.update(players=["A", "B"])), "'players' must be an object like"),
    ("no second player", mutated(lambda d: d["players"].pop("second")), "'players' has no 'second' name"),
    (
        "third player",
        mutated(lambda d: d["players"].update(third="C")),
        "'players' has only 'first' and 'second', not 'third'",
    ),
    (
        "name as number",
        mutated(lambda d: d["players"].update(first=7)),
        "the first player's name must be text, not 7",
    ),
    (
        "started not a time",
        mutated(lambda d: d.update(started="yesterday")),
        "started 'yesterday' is not an ISO-8601 time",
    ),
    (
        "started number",
        mutated(lambda d: d.update(started=1714564800)),
        "'started' must be an ISO-8601 time or null",
    ),
    (
        "ended naive",
        mutated(lambda d: d.update(ended="2024-05-01T12:03:30")),
        "ended '2024-05-01T12:03:30' has no time zone",
    ),
    (
        "started before year 1 in UTC",
        mutated(lambda d: d.update(started="0001-01-01T00:00:00+01:00")),
        "started 0001-01-01T00:00:00+01:00 is out of range once converted to UTC",
    ),
    (
        "ended after year 9999 in UTC",
        mutated(lambda d: d.update(ended="9999-12-31T23:59:59-01:00")),
        "ended 9999-12-31T23:59:59-01:00 is out of range",
    ),
    (
        "ended before started",
        mutated(lambda d: d.update(ended="2024-05-01T11:00:00Z")),
        "the game ended (2024-05-01T11:00:00Z) before it started (2024-05-01T12:00:00Z)",
    ),
    ("metadata list", mutated(lambda d: d.update(metadata=[1])), "'metadata' must be an object, not a list"),
]


@pytest.mark.parametrize(
    ("data", "message"), [case[1:] for case in BAD_RECORDS], ids=[case[0] for case in BAD_RECORDS]
)
def test_bad_record_raises_record_error(data: Any, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        GameRecord.from_dict(copy.deepcopy(data))
    assert message in str(caught.value)
    # The same through JSON text.
    with pytest.raises(RecordError) as via_json:
        GameRecord.from_json(json.dumps(data))
    assert message in str(via_json.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not valid JSON: Expecting value at line 1, column 1"),
        ('{"format": "c4engine-game",', "not valid JSON"),
        ("{'format': 'c4engine-game'}", "not valid JSON: Expecting property name enclosed in double quotes"),
        ('{"format": "c4engine-game", "format": "c4engine-game"}', "field 'format' appears twice"),
        ('{"width": NaN}', "NaN is not a JSON value"),
        pytest.param("[" * 100_000 + "]" * 100_000, "nested too deeply", id="deep-nesting"),
        ("null", "must be a JSON object, not null"),
        ('"a string"', "must be a JSON object, not 'a string' (text)"),
    ],
)
def test_bad_json_text(text: str, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        GameRecord.from_json(text)
    assert message in str(caught.value)


def test_bad_bytes_and_types() -> None:
    with pytest.raises(RecordError, match=r"not UTF-8|not valid JSON"):
        GameRecord.from_json(b'{"format": "\xff\xfe"}')
    with pytest.raises(RecordError, match="JSON text, not dict"):
        GameRecord.from_json(good())  # type: ignore[arg-type]


def test_load_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    data = good()
    data["result"] = "0-1"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RecordError, match=r"broken\.json: result '0-1'"):
        GameRecord.load(path)
    path.write_bytes(b"\x89PNG\r\n")
    with pytest.raises(RecordError, match=r"broken\.json: not valid JSON"):
        GameRecord.load(path)
    with pytest.raises(FileNotFoundError):
        GameRecord.load(tmp_path / "missing.json")


def test_constructor_validates() -> None:
    with pytest.raises(RecordError, match="move 1 must be a whole-number column, not '3'"):
        GameRecord(moves=["3"])  # type: ignore[list-item]
    with pytest.raises(
        RecordError, match="illegal move in the record: move 1 \\('8'\\): column 8 is out of range"
    ):
        GameRecord(moves=[7])
    with pytest.raises(RecordError, match="impossible board"):
        GameRecord(width=40)
    with pytest.raises(RecordError, match="players must be two names"):
        GameRecord(players=("solo",))  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="started has no time zone"):
        GameRecord(started=datetime(2024, 5, 1))
    with pytest.raises(RecordError, match="metadata cannot be written as JSON"):
        GameRecord(metadata={"when": datetime.now(UTC)})
    with pytest.raises(RecordError, match="metadata cannot be written as JSON"):
        GameRecord(metadata={"score": float("nan")})
    with pytest.raises(RecordError, match="metadata would change"):
        GameRecord(metadata={1: "one"})  # type: ignore[dict-item]
    with pytest.raises(RecordError, match="players needs 'first' and 'second'"):
        GameRecord.from_board(Board(), players={"first": "A"})
    with pytest.raises(RecordError, match="two names"):
        GameRecord.from_board(Board(), players="AB")
    with pytest.raises(RecordError, match="no time zone"):
        GameRecord.from_board(Board(), started="2024-05-01T12:00:00")
    # Tuples and lists are accepted where a list or tuple is meant.
    assert GameRecord(moves=(3, 3), players=["A", "B"]).moves == [3, 3]  # type: ignore[arg-type]


def test_edits_after_construction_are_caught_on_writing() -> None:
    record = GameRecord(moves=[3, 3])
    record.moves.append(9)
    with pytest.raises(RecordError, match="column 10 is out of range"):
        record.to_json()


def test_format_constants() -> None:
    assert (FORMAT, VERSION) == ("c4engine-game", 1)


# ------------------------------------------------------------------ fuzz

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(good())), json_values)
def test_any_field_replaced_gives_a_record_or_a_record_error(name: str, value: Any) -> None:
    """Never a KeyError or TypeError, whatever a field holds."""
    data = good()
    data[name] = value
    try:
        GameRecord.from_dict(data)
    except RecordError as error:
        assert str(error)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_any_json_value_gives_a_record_error(value: Any) -> None:
    with pytest.raises(RecordError):
        GameRecord.from_json(json.dumps(value))


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(good())), st.sampled_from(sorted(good())), st.data())
def test_nested_fields_replaced_gives_a_record_or_a_record_error(
    outer: str, inner: str, data: st.DataObject
) -> None:
    record = good()
    record[outer] = {inner: data.draw(json_values)} if data.draw(st.booleans()) else [data.draw(json_values)]
    with contextlib.suppress(RecordError):  # an error is fine; any other exception fails the test
        GameRecord.from_dict(record)
