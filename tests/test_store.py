import sqlite3
from pathlib import Path

import pytest

from c4engine.store import SQLiteStore


class _Store(SQLiteStore):
    def __init__(self, path: Path) -> None:
        self._db = sqlite3.connect(path)


def test_a_with_block_closes_the_connection(tmp_path: Path) -> None:
    with _Store(tmp_path / "s.sqlite") as store:
        store._db.execute("CREATE TABLE t (x)")
    with pytest.raises(sqlite3.ProgrammingError):
        store._db.execute("SELECT 1")
