"""The perfect player's moves, to compare two checkouts move for move: a digest of them and the CPU time.

From positions of Pons' published sets (``src/c4engine/data/pons``) the perfect player, without a
limit, plays both sides to the end of the game -- so every move after the first starts from the score
its previous move kept (the floor) -- on one player a set (one solver and table).  The sets without
the book, the beginnings (``Test_L1_*``) with the shipped book.  Every move is written as
``position column proven lower source``, one a line, to OUT; the digest of those lines and the CPU
seconds are printed.  Run it under each checkout and compare the digests (or the files)::

    PYTHONPATH=/path/to/main/src python benchmarks/perfect_moves.py main.txt
    PYTHONPATH=src python benchmarks/perfect_moves.py branch.txt
"""

from __future__ import annotations

import hashlib
import sys
import time
from pathlib import Path

import c4engine
from c4engine.board import Board
from c4engine.play.perfect import PerfectPlayer
from c4engine.search.limit import UNLIMITED

SETS = (("Test_L3_R1", 300, False), ("Test_L2_R1", 200, False), ("Test_L2_R2", 300, False))
"""(published set, its first positions taken, with the shipped book)."""

BOOK_SETS = (("Test_L1_R1", 200, True), ("Test_L1_R2", 40, True))


def moves_played(pons: Path) -> list[str]:
    """Every move of the games played out from the sets' positions, one line each."""
    lines = []
    for name, count, with_book in SETS + BOOK_SETS:
        player = (
            PerfectPlayer(table_size_mb=64, limit=UNLIMITED)
            if with_book
            else PerfectPlayer(book=None, table_size_mb=64, limit=UNLIMITED)
        )
        for line in (pons / name).read_text().splitlines()[:count]:
            board = Board.from_moves(line.split()[0])
            while not board.is_over:
                column = player.choose_move(board.copy())
                last = player.last
                assert last is not None
                lines.append(f"{board.move_string} {column} {last.proven} {last.lower} {last.source}")
                board.play(column)
    return lines


def main() -> None:
    pons = Path(c4engine.__file__).parent / "data" / "pons"
    start = time.process_time()
    lines = moves_played(pons)
    cpu = time.process_time() - start
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]
    print(f"{c4engine.__file__}: {len(lines)} moves, digest {digest}, CPU {cpu:.2f} s")
    Path(sys.argv[1]).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
