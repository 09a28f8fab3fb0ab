"""Every puzzle of a set checked again by the project's own solver (the default test checks the set's
puzzles of 10 stones or more and a sample of the earlier ones, whose checks cost most): the count
checked, the problems found, the CPU seconds.  ``--no-book`` checks with the solver alone.

    python benchmarks/check_puzzles.py [FILE.jsonl] [--no-book]     (default: the shipped 7x6 set)
"""

from __future__ import annotations

import sys
import time

from c4engine.search.analysis.analyst import Analyst
from c4engine.search.puzzles.check import check_puzzle
from c4engine.search.puzzles.collection import read_puzzles, shipped_puzzles


def main(arguments: list[str]) -> int:
    files = [argument for argument in arguments if not argument.startswith("--")]
    puzzles = read_puzzles(files[0]) if files else shipped_puzzles()
    analyst = Analyst(book=None) if "--no-book" in arguments else Analyst()
    started = time.process_time()
    wrong = 0
    for number, puzzle in enumerate(puzzles, start=1):
        found = check_puzzle(puzzle, analyst)
        if not found.ok:
            wrong += 1
            print(f"{puzzle.id} {puzzle.position}: {'; '.join(found.problems)}")
        if number % 50 == 0:
            spent = time.process_time() - started
            print(f"  {number} of {len(puzzles)} checked, {spent:.0f} CPU s", file=sys.stderr)
    print(f"{len(puzzles)} puzzles checked, {wrong} with problems, {time.process_time() - started:.1f} CPU s")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
