import sqlite3
from pathlib import Path

import pytest

from c4engine.errors import MatchError
from c4engine.store import SQLiteStore


class _Store(SQLiteStore):
    error = MatchError
    description = "a test store"

    def __init__(self, path: Path) -> None:
        super().__init__(
            path,
            "CREATE TABLE IF NOT EXISTS run (id INTEGER PRIMARY KEY, schema INTEGER NOT NULL, "
            "parameters TEXT NOT NULL, extra INTEGER, created TEXT NOT NULL)",
        )


def test_a_with_block_closes_the_connection(tmp_path: Path) -> None:
    with _Store(tmp_path / "s.sqlite") as store:
        store._db.execute("SELECT 1")
    with pytest.raises(sqlite3.ProgrammingError):
        store._db.execute("SELECT 1")


def test_a_run_is_recorded_once_then_checked(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with _Store(path) as store:
        assert store.identify("run", {"seed": 1, "size": "7x6"}, extra=5)
        assert not store.identify("run", {"seed": 1, "size": "7x6"})
        assert store._db.execute("SELECT extra FROM run").fetchone() == (5,)
    with _Store(path) as store, pytest.raises(MatchError) as refused:
        store.identify("run", {"seed": 2, "size": "7x6"})
    assert str(refused.value) == f"{path} holds another run: seed 1 (asked 2); use another file"


def test_another_schema_and_a_file_that_is_no_database_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with _Store(path) as store:
        store.identify("run", {})
        store._db.execute("UPDATE run SET schema = 99")
        store._db.commit()
    with _Store(path) as store, pytest.raises(MatchError, match=r"another version of c4engine \(schema 99\)"):
        store.identify("run", {})
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database" * 100)
    with pytest.raises(MatchError, match=r"cannot use .*junk\.sqlite as a test store"):
        _Store(junk)
