"""What every SQLite-backed store shares: opening, identity checks, closing, timestamps.

Matches, tuning runs and book builds keep their finished work in SQLite so a
killed run resumes where it stopped.  Each store subclasses
:class:`SQLiteStore`, names the error it raises and what it is (for
messages), and gives its tables; the base opens the file, turns SQLite's
errors into that error, and checks that a file resumed holds the same run
(:meth:`SQLiteStore.check_identity`).

>>> class Notes(SQLiteStore):
...     description = "a notebook"
...     run = "notebook"
...     def __init__(self) -> None:
...         super().__init__(":memory:", "CREATE TABLE notes (text TEXT)")
>>> with Notes() as notes:
...     notes.check_identity({"size": "7x6"}, {"size": "7x6"})
...     notes.check_identity({"size": "7x6"}, {"size": "9x7"})
Traceback (most recent call last):
...
c4engine.errors.C4Error: :memory: holds another notebook: size '7x6' (asked '9x7'); use another file
>>> len(utc_now()) == len("2026-01-01T00:00:00+00:00")
True
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import ClassVar

from c4engine.closing import Closing
from c4engine.errors import C4Error

__all__ = ["SQLiteStore", "identity_table", "utc_now"]


class SQLiteStore(Closing):
    """A store on one SQLite connection (``self._db``), closed on leaving a ``with`` block.

    ``tables`` is the SQL script creating the store's tables if they are
    missing; ``wal`` turns on SQLite's write-ahead log (for stores written
    often while other processes may read them).  ``":memory:"`` keeps the
    store in memory.
    """

    error: ClassVar[type[C4Error]] = C4Error
    """What the store raises: a file that is not such a store, another run's file."""

    description: ClassVar[str] = "a store"
    """What the store is, for messages: ``cannot use FILE as <description>``."""

    run: ClassVar[str] = "run"
    """What one file holds, for messages: ``FILE holds another <run>``."""

    remedy: ClassVar[str] = "use another file"
    """What a user whose file holds another run should do."""

    schema_version: ClassVar[int] = 1
    """The layout of the store's tables (:meth:`identify` refuses files of another)."""

    def __init__(self, path: str | os.PathLike[str], tables: str, *, wal: bool = False) -> None:
        self.path = os.fspath(path)
        try:
            self._db = sqlite3.connect(self.path)
            if wal:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(tables)
        except sqlite3.DatabaseError as error:
            raise self.error(f"cannot use {self.path} as {self.description}: {error}") from None

    def identify(self, table: str, parameters: Mapping[str, object], **columns: object) -> bool:
        """Record the run's ``parameters`` in ``table``, or check them against the ones there.

        ``table`` (made by :func:`identity_table`) holds one row: ``id`` 1, the
        :attr:`schema_version`, the parameters as JSON, any further ``columns``
        given, and the time.
        Returns whether the run is new (its row written now); a file of
        another schema or another run is refused with :attr:`error`.
        """
        row = self._db.execute(f"SELECT schema, parameters FROM {table} WHERE id = 1").fetchone()
        if row is None:
            names = ", ".join(["id", "schema", "parameters", *columns, "created"])
            marks = ", ".join("?" * (len(columns) + 3))
            values = (self.schema_version, json.dumps(parameters, sort_keys=True), *columns.values())
            with self._db:
                self._db.execute(f"INSERT INTO {table} ({names}) VALUES (1, {marks})", (*values, utc_now()))
            return True
        if row[0] != self.schema_version:
            raise self.error(f"{self.path} was written by another version of c4engine (schema {row[0]})")
        self.check_identity(json.loads(row[1]), parameters)
        return False

    def check_identity(self, stored: Mapping[str, object], wanted: Mapping[str, object]) -> None:
        """Refuse (with :attr:`error`) a file whose run, ``stored``, is not the one ``wanted``.

        The message names the parameters that differ (the first
        :data:`SHOWN_DIFFERENCES`), with both values when they are short
        (weights vectors are only named).
        """
        changed = [
            _difference(key, stored.get(key), value)
            for key, value in wanted.items()
            if stored.get(key) != value
        ]
        if len(changed) > SHOWN_DIFFERENCES:
            changed[SHOWN_DIFFERENCES:] = [f"{len(changed) - SHOWN_DIFFERENCES} more"]
        if changed:
            raise self.error(f"{self.path} holds another {self.run}: {', '.join(changed)}; {self.remedy}")

    def close(self) -> None:
        self._db.close()


SHOWN_DIFFERENCES = 3
"""How many differing parameters a refusal names (and how many more there are), to stay one short line."""

SHORT_VALUE = 24
"""How many characters of a stored and an asked value a refusal quotes, each; longer ones are only named."""


def _difference(key: str, stored: object, wanted: object) -> str:
    """One differing parameter for a message: ``seed 0 (asked 9)``, or ``start differs`` for long values.

    >>> _difference("seed", 0, 9), _difference("start", [0.5] * 9, [1.0] * 9)
    ('seed 0 (asked 9)', 'start differs')
    """
    if max(len(repr(stored)), len(repr(wanted))) > SHORT_VALUE:
        return f"{key} differs"
    return f"{key} {stored!r} (asked {wanted!r})"


def identity_table(name: str, *columns: str) -> str:
    """The SQL creating the one-row table in which :meth:`SQLiteStore.identify` keeps a run's identity.

    ``columns`` are further column definitions, kept between the parameters
    and the time the row was written.

    >>> identity_table("match", "games INTEGER NOT NULL")  # doctest: +NORMALIZE_WHITESPACE
    'CREATE TABLE IF NOT EXISTS match (id INTEGER PRIMARY KEY CHECK (id = 1), schema INTEGER NOT NULL,
     parameters TEXT NOT NULL, games INTEGER NOT NULL, created TEXT NOT NULL);'
    """
    fields = (
        "id INTEGER PRIMARY KEY CHECK (id = 1)",
        "schema INTEGER NOT NULL",
        "parameters TEXT NOT NULL",
        *columns,
        "created TEXT NOT NULL",
    )
    return f"CREATE TABLE IF NOT EXISTS {name} ({', '.join(fields)});"


def utc_now() -> str:
    """The time now, UTC, to the second, in ISO 8601 (how stores date their rows)."""
    return datetime.now(UTC).isoformat(timespec="seconds")
