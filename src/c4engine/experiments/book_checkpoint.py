"""A book build's checkpoint: the solved positions (canonical key -> score) and policy moves of one
game in SQLite, safe against a killed process (:class:`Checkpoint`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from c4engine.errors import BookError
from c4engine.geometry import SOLVER_BITS, fits_64_bits
from c4engine.store import SQLiteStore

__all__ = ["Checkpoint", "default_checkpoint_path"]


def _to_sql(key: int) -> int:
    return key - (1 << 64) if key >= 1 << 63 else key


def _from_sql(value: int) -> int:
    return value + (1 << 64) if value < 0 else value


def _to_blob(key: int) -> bytes:
    return key.to_bytes(SOLVER_BITS // 8, "big")


def _from_blob(value: bytes) -> int:
    return int.from_bytes(value, "big")


class Checkpoint(SQLiteStore):
    """Solved positions (canonical key -> score) of one game, in SQLite; safe against a killed process.

    Written in SQLite's write-ahead-log mode, one transaction per batch of
    results, so a kill loses at most the batch being written.  Keys are
    SQLite's 64-bit integers on a board that fits 64 bits; on a bigger one,
    whose keys SQLite's integers cannot hold, 16-byte blobs.
    """

    error = BookError
    description = "a book checkpoint"
    run = "book build"
    remedy = "use another --checkpoint file"

    def __init__(self, path: str | os.PathLike[str], width: int, height: int, connect: int, weak: bool):
        narrow = fits_64_bits(width, height)
        self._to_sql: Callable[[int], int | bytes] = _to_sql if narrow else _to_blob
        self._from_sql: Callable[[Any], int] = _from_sql if narrow else _from_blob
        key_type = "INTEGER" if narrow else "BLOB"
        super().__init__(
            path,
            f"""
            CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS solved (key {key_type} PRIMARY KEY, score INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS policy
                (key {key_type} PRIMARY KEY, score INTEGER NOT NULL, move INTEGER NOT NULL);
            """,  # policy: by Board.key(), not canonical: centre-first choices depend on the orientation
            wal=True,
        )
        wanted = {"width": width, "height": height, "connect": connect, "kind": "weak" if weak else "strong"}
        stored = dict(self._db.execute("SELECT name, value FROM meta").fetchall())
        if stored:
            # Stored as text: compare as text, report as the numbers they are.
            stored = {name: int(value) if value.isdigit() else value for name, value in stored.items()}
            self.check_identity(stored, wanted)
        else:
            with self._db:
                self._db.executemany(
                    "INSERT INTO meta VALUES (?, ?)", [(name, str(value)) for name, value in wanted.items()]
                )

    def scores(self) -> dict[int, int]:
        """Every recorded score."""
        return {self._from_sql(k): s for k, s in self._db.execute("SELECT key, score FROM solved")}

    def add(self, results: Iterable[tuple[int, int]]) -> None:
        """Record results in one transaction (committed when this returns)."""
        with self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO solved VALUES (?, ?)", [(self._to_sql(k), s) for k, s in results]
            )

    def policy(self) -> dict[int, tuple[int, int]]:
        """Every recorded policy move: position key (not canonical) -> (score, column)."""
        rows = self._db.execute("SELECT key, score, move FROM policy")
        return {self._from_sql(k): (s, m) for k, s, m in rows}

    def add_policy(self, results: Iterable[tuple[int, int, int]]) -> None:
        """Record (key, score, column) policy moves in one transaction."""
        with self._db:
            rows = [(self._to_sql(k), s, m) for k, s, m in results]
            self._db.executemany("INSERT OR REPLACE INTO policy VALUES (?, ?, ?)", rows)

    def __len__(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM solved").fetchone()[0])


def default_checkpoint_path(output: str | os.PathLike[str]) -> Path:
    """Where the checkpoint of a book goes by default: next to it, ``FILE.sqlite``."""
    output = Path(output)
    return output.with_name(output.name + ".sqlite")
