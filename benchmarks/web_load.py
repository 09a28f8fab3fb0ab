"""Load benchmark of ``c4 serve``: concurrent clients mixing moves and time-capped analyses.

Starts ``c4 serve`` on loopback, runs ``--clients`` concurrent clients of
``--requests`` requests each (``--analyses`` of them time-capped analyses,
the rest computer moves at levels 1-4 in random positions), while a separate
process probes ``/healthz`` every 20 ms.  Reports errors and p50/p95/p99
latencies, and writes them into ``docs/benchmarks.md`` (section "Web load")
unless ``--no-write``.  Every request goes to 127.0.0.1 only; the run is
bounded by its request count.

    python benchmarks/web_load.py                 # 50 clients x 100 requests
    python benchmarks/web_load.py --clients 5 --requests 10 --no-write
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import platform
import random
import re
import socket
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from c4engine.board import Board  # noqa: E402

HEALTH_LIMIT_P99 = 0.050


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))
    return ordered[index]


def random_position(rng: random.Random) -> str:
    while True:
        board = Board()
        for _ in range(rng.randrange(0, 20)):
            board.play(rng.choice(board.legal_moves()))
            if board.is_over:
                break
        if not board.is_over:
            return board.move_string


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def probe_health(base: str, stop: Any, results: Any) -> None:
    """In its own process: GET /healthz every 20 ms until told to stop; send back the latencies."""
    latencies: list[float] = []
    failures = 0
    with httpx.Client(base_url=base, timeout=5) as client:
        while not stop.is_set():
            started = time.perf_counter()
            try:
                ok = client.get("/healthz").status_code == 200
            except httpx.HTTPError:
                ok = False
            latencies.append(time.perf_counter() - started)
            failures += not ok
            time.sleep(0.02)
    results.put((latencies, failures))


async def client_run(
    base: str, index: int, requests: int, analyses: float, analysis_cap: float, seed: int
) -> list[tuple[str, float, int]]:
    rng = random.Random(seed * 1000 + index)
    records: list[tuple[str, float, int]] = []
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        for _ in range(requests):
            pos = random_position(rng)
            started = time.perf_counter()
            try:
                if rng.random() < analyses:
                    kind = "analyze"
                    response = await client.get("/api/analyze", params={"pos": pos, "time_cap": analysis_cap})
                else:
                    kind = "move"
                    response = await client.post("/api/move", json={"pos": pos, "level": rng.randint(1, 4)})
                status = response.status_code
            except httpx.HTTPError:
                kind, status = "error", 0
            records.append((kind, time.perf_counter() - started, status))
    return records


def summary(values: list[float]) -> str:
    ms = [value * 1000 for value in values]
    return (
        f"{len(ms)} | {statistics.median(ms):.0f} | {percentile(ms, 0.95):.0f} | "
        f"{percentile(ms, 0.99):.0f} | {max(ms):.0f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--requests", type=int, default=100, help="per client")
    parser.add_argument("--analyses", type=float, default=0.2, help="fraction of requests that analyse")
    parser.add_argument("--analysis-cap", type=float, default=0.05, help="seconds per analysis")
    parser.add_argument("--workers", type=int, default=2, help="engine processes of the server")
    parser.add_argument("--queue", type=int, default=64, help="the server's queue bound")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-write", action="store_true", help="do not update docs/benchmarks.md")
    args = parser.parse_args()

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    command = [sys.executable, "-m", "c4engine", "serve", "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--workers", str(args.workers), "--queue", str(args.queue)],
        env=env,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.2)

        context = multiprocessing.get_context("spawn")
        stop = context.Event()
        results = context.Queue()
        prober = context.Process(target=probe_health, args=(base, stop, results))
        prober.start()

        async def everyone() -> list[list[tuple[str, float, int]]]:
            return await asyncio.gather(
                *(
                    client_run(base, index, args.requests, args.analyses, args.analysis_cap, args.seed)
                    for index in range(args.clients)
                )
            )

        started = time.perf_counter()
        per_client = asyncio.run(everyone())
        wall = time.perf_counter() - started
        stop.set()
        health, health_failures = results.get(timeout=30)
        prober.join(timeout=10)
    finally:
        server.terminate()
        server.wait(timeout=30)

    records = [record for client in per_client for record in client]
    errors = [record for record in records if record[2] != 200]
    moves = [latency for kind, latency, status in records if kind == "move" and status == 200]
    analyses = [latency for kind, latency, status in records if kind == "analyze" and status == 200]
    everything = [latency for _, latency, _ in records]
    health_p99 = percentile(health, 0.99)
    statuses: dict[int, int] = {}
    for _, _, status in errors:
        statuses[status] = statuses.get(status, 0) + 1

    try:
        commit = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    date = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    verdict = "yes" if health_p99 < HEALTH_LIMIT_P99 else "NO"
    section = f"""## Web load

`python benchmarks/web_load.py` -- `c4 serve --workers {args.workers} --queue {args.queue}` on loopback,
{args.clients} concurrent clients x {args.requests} requests: {100 - 100 * args.analyses:.0f}% computer
moves (levels 1-4, random positions of 0-19 stones), {100 * args.analyses:.0f}% analyses capped at
{args.analysis_cap * 1000:.0f} ms; a separate process probes `/healthz` every 20 ms meanwhile.

Machine: {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}, shared with other
work.  Date: {date}.  Commit: {commit}.

Requests: {len(records)} in {wall:.1f} s ({len(records) / wall:.0f}/s); errors: {len(errors)}
{"" if not statuses else str(statuses)}

| what | n | p50 ms | p95 ms | p99 ms | max ms |
|---|---|---|---|---|---|
| all requests | {summary(everything)} |
| moves | {summary(moves) if moves else "0 | - | - | - | -"} |
| analyses | {summary(analyses) if analyses else "0 | - | - | - | -"} |
| `/healthz` (engine saturated) | {summary(health)} |

`/healthz` p99 under 50 ms: {verdict} ({health_p99 * 1000:.1f} ms; {health_failures} failed probes).
Client latencies include queueing: {args.clients} clients share {args.workers} engine workers, so a
request waits for the ones ahead of it.
"""
    print(section)
    if not args.no_write:
        path = REPO / "docs" / "benchmarks.md"
        path.parent.mkdir(exist_ok=True)
        text = path.read_text() if path.exists() else "# Benchmarks\n"
        pattern = re.compile(r"^## Web load\n.*?(?=^## |\Z)", re.S | re.M)
        text = pattern.sub(section + "\n", text) if pattern.search(text) else text.rstrip() + "\n\n" + section
        path.write_text(text.rstrip() + "\n")
        print(f"written to {path}")
    return 0 if not errors and health_p99 < HEALTH_LIMIT_P99 else 1


if __name__ == "__main__":
    sys.exit(main())
