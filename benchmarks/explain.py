"""The coach over the published sets: how many positions Allis' rules prove, and how fast ``c4 explain`` is.

Part 1, per set (``--sets``, default Test_L3_R1 and Test_L2_R1): every position is
explained by rules (:func:`~c4engine.search.coach.proof.find_proof`), the proof
re-derived by the checker and its claim compared with the set's own score (the
exact solver's, side to move).  It prints the positions proved, by claim and by
rule, and the proofs the score contradicts or the checker rejects -- both must be 0.

Part 2: ``--runs`` positions (spread over the sets) through ``python -m c4engine
explain MOVES --json`` in a fresh process each, as a user would: the wall time of
the whole command and the child's CPU seconds, p50 and p95 (the goal: p95 at most
1 s on 7x6).  On a loaded machine the wall time says more of the load than of the
code: the CPU seconds are the figure to compare.

    python benchmarks/explain.py --runs 40
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from collections import Counter

from c4engine.board import Board
from c4engine.cli.solve import BENCH_DIR
from c4engine.player import Player
from c4engine.search.coach.checker import check_proof
from c4engine.search.coach.claims import claim_holds
from c4engine.search.coach.proof import find_proof

GOAL_S = 1.0


def _positions(name: str) -> list[tuple[str, int]]:
    lines = (BENCH_DIR / name).read_text().split("\n")
    return [(moves, int(score)) for moves, score in (line.split() for line in lines if line)]


def _quantile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def proofs(name: str) -> None:
    positions = _positions(name)
    claims, rules = Counter[str](), Counter[str]()
    contradicted = rejected = proved = 0
    started = time.process_time()
    for moves, score in positions:
        board = Board.from_moves(moves)
        proof = find_proof(board)
        if proof is None:
            continue
        proved += 1
        claims[proof.claim] += 1
        rules.update(proof.rule_names)
        first = score if board.turn is Player.FIRST else -score
        contradicted += not claim_holds(proof.claim, first)
        rejected += bool(check_proof(board, proof))
    cpu = time.process_time() - started
    total = len(positions)
    print(f"{name}: {proved} of {total} proved ({100 * proved / total:.1f}%), {cpu:.1f} CPU s")
    print(f"  contradicted by the score: {contradicted}; rejected by the checker: {rejected}")
    for claim, count in claims.most_common():
        print(f"  {claim}: {count}")
    for rule, count in rules.most_common():
        print(f"  uses {rule}: {count} ({100 * count / total:.1f}% of the set)")


def timings(names: list[str], runs: int) -> None:
    sample = []
    for name in names:
        positions = _positions(name)
        step = max(1, len(positions) * len(names) // runs)
        sample += [moves for moves, _ in positions[::step]][: runs // len(names)]
    walls, cpus = [], []
    for moves in sample:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-m", "c4engine", "explain", moves, "--json"],
            capture_output=True,
            text=True,
            env=dict(os.environ, NO_COLOR="1"),
            check=False,
        )
        walls.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if result.returncode:
            raise SystemExit(f"c4 explain {moves}: {result.stderr.strip()}")
    print(f"c4 explain --json, {len(sample)} positions, one process each (goal: p95 <= {GOAL_S} s):")
    for label, values in (("wall s", walls), ("CPU s ", cpus)):
        median, p95 = statistics.median(values), _quantile(values, 0.95)
        print(f"  {label}: p50 {median:.3f}  p95 {p95:.3f}  max {max(values):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", nargs="*", default=["Test_L3_R1", "Test_L2_R1"])
    parser.add_argument("--runs", type=int, default=40, help="c4 explain runs to time (0: none)")
    args = parser.parse_args()
    for name in args.sets:
        proofs(name)
    if args.runs:
        timings(args.sets, args.runs)


if __name__ == "__main__":
    main()
