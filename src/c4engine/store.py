"""What every SQLite-backed store shares: closing, ``with`` blocks, timestamps.

Matches, tuning runs and book builds keep their finished work in SQLite so a
killed run resumes where it stopped; each store subclasses
:class:`SQLiteStore` and opens its own tables into ``self._db``.

>>> import sqlite3
>>> class Notes(SQLiteStore):
...     def __init__(self) -> None:
...         self._db = sqlite3.connect(":memory:")
>>> with Notes() as notes:
...     notes._db.execute("SELECT 1").fetchone()
(1,)
>>> len(utc_now()) == len("2026-01-01T00:00:00+00:00")
True
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from types import TracebackType
from typing import Self

__all__ = ["SQLiteStore", "utc_now"]


class SQLiteStore:
    """A store on one SQLite connection (``self._db``), closed on leaving a ``with`` block."""

    _db: sqlite3.Connection

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()


def utc_now() -> str:
    """The time now, UTC, to the second, in ISO 8601 (how stores date their rows)."""
    return datetime.now(UTC).isoformat(timespec="seconds")
