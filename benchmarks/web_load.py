"""Load benchmarks of the web server (``c4 serve``'s app on uvicorn, on loopback).

``--scenario mix`` (the default): ``--clients`` concurrent clients of
``--requests`` requests each (``--analyses`` of them time-capped analyses,
the rest computer moves at levels 1-4 in random positions), while a separate
process probes ``/healthz`` every 20 ms; every client is allowed as much
work in flight as it likes (as many users behind one address would be).

``--scenario fair``: the server as ``c4 serve`` runs it; one client keeps
``--flood`` analyses in flight (re-sending each as soon as it is answered,
refusals included), while another plays ``--moves`` computer moves one after
the other: the moves' latency is what a person playing sees while someone
else floods the engine.

``--scenario spread``: the server as ``c4 serve`` runs it; one client spread
over ``--addresses`` loopback addresses (127.0.0.2 on) keeps ``--flight``
3-second analyses in flight from each, while a person at 127.0.1.1 (another /24) asks
``--questions`` analyses one at a time with a pause to think between them:
how long the person waits for each.

``--scenario slow``: ``--slow`` connections each send a request head with
``Content-Length: 100`` and part of the body, then nothing; measured: when
the server closes each of them, and meanwhile the latency of ``/healthz``
and of level-1 moves.

``--scenario review``: ``--games`` whole 7x6 games of 38-42 plies between
engine levels 1-5 (different pairs and seeds), each reviewed once through
``POST /api/review`` on the server as ``c4 serve`` runs it, one after the
other; measured: each request's wall time, as the page waits for it.

Each scenario writes its section of ``docs/benchmarks-log.md`` ("Web load",
"Web fairness", "Web fairness across addresses", "Web slow clients", "Web review") unless
``--no-write``.  Every request
goes to 127.0.0.1 only; every run is bounded by its request count.

    python benchmarks/web_load.py                 # 50 clients x 100 requests
    python benchmarks/web_load.py --scenario fair
    python benchmarks/web_load.py --scenario spread
    python benchmarks/web_load.py --scenario slow
    python benchmarks/web_load.py --scenario review
    python benchmarks/web_load.py --clients 5 --requests 10 --no-write
"""

from __future__ import annotations

import argparse
import asyncio
import json
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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from c4engine.board import Board  # noqa: E402
from c4engine.search.limit import Limit  # noqa: E402
from c4engine.web.app import ServerCaps  # noqa: E402

HEALTH_LIMIT_P99 = 0.050
MOVE_GOAL_P50, MOVE_GOAL_P99 = 0.5, 2.0
SLOW_GOAL = 0.100
REVIEW_GOAL = 3.0  # seconds for a 40-ply game through /api/review

# The server in its own process, with the given ServerCaps fields (JSON) on the given port.
SERVER = """
import json, sys, uvicorn
from c4engine.web.app import ServerCaps
from c4engine.web.server import uvicorn_config
caps = ServerCaps(**json.loads(sys.argv[2]))
uvicorn.Server(uvicorn_config("127.0.0.1", int(sys.argv[1]), caps=caps, log_level="warning")).run()
"""


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
                    response = await client.get("/api/analyze", params={"pos": pos, "time": analysis_cap})
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


@contextmanager
def running_server(limits: dict[str, Any]) -> Iterator[str]:
    """The app on uvicorn in its own process with these ServerCaps fields; yields its base URL."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    command = [sys.executable, "-c", SERVER, str(port), json.dumps(limits)]
    server = subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.2)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=30)


@contextmanager
def health_probe(base: str) -> Iterator[list[Any]]:
    """Probe /healthz from another process meanwhile; the list gets (latencies, failures) at the end."""
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    results = context.Queue()
    prober = context.Process(target=probe_health, args=(base, stop, results))
    prober.start()
    outcome: list[Any] = []
    try:
        yield outcome
    finally:
        stop.set()
        outcome.extend(results.get(timeout=60))
        prober.join(timeout=10)


def mix(args: argparse.Namespace) -> tuple[str, bool]:
    limits = {"workers": args.workers, "max_pending": args.queue, "per_client": 10**6}
    with running_server(limits) as base, health_probe(base) as probe:

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
    health, health_failures = probe

    records = [record for client in per_client for record in client]
    errors = [record for record in records if record[2] != 200]
    moves = [latency for kind, latency, status in records if kind == "move" and status == 200]
    analyses = [latency for kind, latency, status in records if kind == "analyze" and status == 200]
    everything = [latency for _, latency, _ in records]
    health_p99 = percentile(health, 0.99)
    statuses: dict[int, int] = {}
    for _, _, status in errors:
        statuses[status] = statuses.get(status, 0) + 1
    verdict = "yes" if health_p99 < HEALTH_LIMIT_P99 else "NO"
    section = f"""## Web load

`python benchmarks/web_load.py` -- the server with {args.workers} analysis worker(s) and 1 move
worker, queue bound {args.queue}, on loopback, {args.clients} concurrent clients x {args.requests} requests
(no per-client limit: as many users behind one address): {100 - 100 * args.analyses:.0f}% computer
moves (levels 1-4, random positions of 0-19 stones), {100 * args.analyses:.0f}% analyses capped at
{args.analysis_cap * 1000:.0f} ms; a separate process probes `/healthz` every 20 ms meanwhile.

{machine()}

Requests: {len(records)} in {wall:.1f} s ({len(records) / wall:.0f}/s); errors: {len(errors)}
{"" if not statuses else str(statuses)}

| what | n | p50 ms | p95 ms | p99 ms | max ms |
|---|---|---|---|---|---|
| all requests | {summary(everything)} |
| moves | {summary(moves) if moves else "0 | - | - | - | -"} |
| analyses | {summary(analyses) if analyses else "0 | - | - | - | -"} |
| `/healthz` (engine saturated) | {summary(health)} |

`/healthz` p99 under 50 ms: {verdict} ({health_p99 * 1000:.1f} ms; {health_failures} failed probes).
Client latencies include queueing: {args.clients} clients share the engine workers, so a
request waits for the ones ahead of it.  Moves and analyses queue apart (a lane each): here the
analyses, about a fifth of the work but all on one worker, wait for each other, while the
moves keep their own worker.
"""
    return section, not errors and health_p99 < HEALTH_LIMIT_P99


async def flood(base: str, in_flight: int, stop: asyncio.Event, seed: int) -> dict[int, int]:
    """Keep ``in_flight`` analyses of random positions under way until ``stop``; count the answers."""
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=in_flight + 5)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as client:
        return await keep_analyzing(client, in_flight, stop, lambda: {"pos": random_position(rng)})


async def keep_analyzing(
    client: httpx.AsyncClient, in_flight: int, stop: asyncio.Event, params: Callable[[], dict[str, Any]]
) -> dict[int, int]:
    """Keep ``in_flight`` analyses (each with ``params()``) under way until ``stop``; count the answers
    by status (0: the connection failed)."""
    statuses: dict[int, int] = {}

    async def one_slot() -> None:
        while not stop.is_set():
            try:
                status = (await client.get("/api/analyze", params=params())).status_code
            except httpx.HTTPError:
                status = 0
            statuses[status] = statuses.get(status, 0) + 1

    await asyncio.gather(*(one_slot() for _ in range(in_flight)))
    return statuses


async def play_moves(base: str, count: int, level: int, seed: int) -> tuple[list[float], dict[int, int]]:
    """``count`` computer moves one after the other, as a person waiting for each reply."""
    rng = random.Random(seed + 1)
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        for _ in range(count):
            body = {"pos": random_position(rng), "level": level}
            started = time.perf_counter()
            status = (await client.post("/api/move", json=body)).status_code
            latencies.append(time.perf_counter() - started)
            statuses[status] = statuses.get(status, 0) + 1
            await asyncio.sleep(0.1)
    return latencies, statuses


def fair(args: argparse.Namespace) -> tuple[str, bool]:
    with running_server({}) as base, health_probe(base) as probe:
        workers = httpx.get(f"{base}/healthz").json()

        async def run() -> tuple[list[float], dict[int, int], dict[int, int], float]:
            stop = asyncio.Event()
            flooding = asyncio.create_task(flood(base, args.flood, stop, args.seed))
            await asyncio.sleep(3)  # the flood is under way before the first move
            started = time.perf_counter()
            latencies, move_statuses = await play_moves(base, args.moves, 3, args.seed)
            wall = time.perf_counter() - started
            stop.set()
            return latencies, move_statuses, await flooding, wall

        latencies, move_statuses, flood_statuses, wall = asyncio.run(run())
    health, health_failures = probe
    p50, p99 = statistics.median(latencies), percentile(latencies, 0.99)
    ok = p50 <= MOVE_GOAL_P50 and p99 <= MOVE_GOAL_P99 and set(move_statuses) == {200}
    answered = sum(flood_statuses.values())
    section = f"""## Web fairness

`python benchmarks/web_load.py --scenario fair` -- the server as `c4 serve` runs it (default
limits: {workers["workers"]} analysis worker(s), {workers["move_workers"]} move worker, 4 requests per
client and lane, analyses capped at 1 s), on loopback.  One client keeps {args.flood} analyses of random
positions in flight, re-sending each as soon as it is answered (refusals included); another
plays {args.moves} computer moves at level 3 one after the other (100 ms apart) in random positions of
0-19 stones, starting 3 s into the flood.  A third process probes `/healthz` every 20 ms.
(Before the lanes and shares, at 00ecafa: a move sent 1 s after 40 analyses waited 39.1 s.)

{machine()}

| what | n | p50 ms | p95 ms | p99 ms | max ms |
|---|---|---|---|---|---|
| moves during the flood | {summary(latencies)} |
| `/healthz` | {summary(health)} |

Moves: {move_statuses}; goal p50 <= {MOVE_GOAL_P50:g} s and p99 <= {MOVE_GOAL_P99:g} s:
{"met" if ok else "NOT met"}.
The flood got {answered} answers in {wall:.0f} s: {flood_statuses} (429: over its share, answered at
once; the analyses it did get ran one at a time in the analysis lane).  Health probes
failed: {health_failures}.
"""
    return section, ok


async def flood_from(base: str, address: str, in_flight: int, stop: asyncio.Event) -> dict[int, int]:
    """Keep ``in_flight`` analyses the engine works on for the longest time cap (an empty 9x7 board,
    beyond the solver) under way from ``address`` (a loopback address) until ``stop``."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=base, timeout=120, transport=transport) as client:
        return await keep_analyzing(client, in_flight, stop, lambda: LONGEST_ANALYSIS)


LONGEST_ANALYSIS = {"pos": "", "size": "9x7", "time": 3}


async def ask_analyses(base: str, count: int, think: float, seed: int) -> tuple[list[float], dict[int, int]]:
    """``count`` analyses one at a time from a page's token, ``think`` seconds apart: each one's wait."""
    rng = random.Random(seed + 2)
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    headers = {"X-C4-Client": f"person-{seed}"}
    transport = httpx.AsyncHTTPTransport(local_address="127.0.1.1")
    async with httpx.AsyncClient(base_url=base, timeout=120, headers=headers, transport=transport) as client:
        for _ in range(count):
            started = time.perf_counter()
            status = (await client.get("/api/analyze", params={"pos": random_position(rng)})).status_code
            latencies.append(time.perf_counter() - started)
            statuses[status] = statuses.get(status, 0) + 1
            await asyncio.sleep(think)
    return latencies, statuses


def spread(args: argparse.Namespace) -> tuple[str, bool]:
    addresses = [f"127.0.0.{2 + n}" for n in range(args.addresses)]
    with running_server({}) as base:
        workers = httpx.get(f"{base}/healthz").json()

        async def run() -> tuple[list[float], dict[int, int], dict[int, int]]:
            stop = asyncio.Event()
            floods = [
                asyncio.create_task(flood_from(base, address, args.flight, stop)) for address in addresses
            ]
            await asyncio.sleep(3)  # the flood is under way before the person asks
            latencies, statuses = await ask_analyses(base, args.questions, 2.0, args.seed)
            stop.set()
            flooded: dict[int, int] = {}
            for counts in await asyncio.gather(*floods):
                for status, count in counts.items():
                    flooded[status] = flooded.get(status, 0) + count
            return latencies, statuses, flooded

        latencies, statuses, flooded = asyncio.run(run())
    ok = set(statuses) == {200}
    section = f"""## Web fairness across addresses

`python benchmarks/web_load.py --scenario spread` -- the server as `c4 serve` runs it (default
limits: {workers["workers"]} analysis worker(s), 4 requests per client, analyses capped at 1 s), on
loopback.  One client spread over {args.addresses} addresses (127.0.0.2 on) keeps {args.flight}
analyses of 3 s each (the empty 9x7 board) in flight from each, re-sending each as soon as it is
answered; a person at 127.0.1.1 (another /24 network; its own page token) asks {args.questions}
analyses one at a time, 2 s apart, starting 3 s into the flood.
The same run at b4e1fde, before shares by network: {args.before}

{machine()}

| what | n | p50 ms | p95 ms | p99 ms | max ms |
|---|---|---|---|---|---|
| the person's analyses | {summary(latencies)} |

The person's answers: {statuses}; the flood's: {flooded}.
Turns go by network, then address, then client: a person on the flood's own /24 would share
that network's turns address by address (one turn in eleven here), as ten people there would.
"""
    return section, ok


async def slow_connection(host: str, port: int) -> tuple[float, bytes]:
    """Send a request head and part of its body, then wait: seconds until the server hangs up, and
    the status line it sent first."""
    reader, writer = await asyncio.open_connection(host, port)
    started = time.perf_counter()
    writer.write(
        b"POST /api/move HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
        b'Content-Length: 100\r\n\r\n{"pos": '
    )
    await writer.drain()
    answer = b""
    while chunk := await reader.read(4096):
        answer += chunk
    writer.close()
    return time.perf_counter() - started, answer.split(b"\r\n", 1)[0]


async def timed_gets(base: str, count: int, path: str, body: dict[str, Any] | None) -> list[float]:
    """``count`` requests one after the other on one connection (its first, untimed, opens it)."""
    latencies: list[float] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        await client.get("/healthz")
        for _ in range(count):
            started = time.perf_counter()
            if body is None:
                response = await client.get(path)
            else:
                response = await client.post(path, json=body)
            response.raise_for_status()
            latencies.append(time.perf_counter() - started)
            await asyncio.sleep(0.05)
    return latencies


def slow(args: argparse.Namespace) -> tuple[str, bool]:
    timeout, max_connections = ServerCaps.read_timeout, ServerCaps.max_connections
    with running_server({}) as base:
        host, port = base.removeprefix("http://").split(":")

        async def run() -> tuple[list[tuple[float, bytes]], list[float], list[float]]:
            holders = [asyncio.create_task(slow_connection(host, int(port))) for _ in range(args.slow)]
            await asyncio.sleep(1)  # all of them connected and waiting
            health, moves = await asyncio.gather(
                timed_gets(base, 60, "/healthz", None),
                timed_gets(base, 30, "/api/move", {"pos": "4453", "level": 1}),
            )
            closed = await asyncio.gather(*holders)
            return closed, health, moves

        ended, health, moves = asyncio.run(run())
    closed = [seconds for seconds, _ in ended]
    answers: dict[str, int] = {}
    for _, status_line in ended:
        answers[status_line.decode()] = answers.get(status_line.decode(), 0) + 1
    worst = max(max(health), max(moves))
    ok = max(closed) <= timeout + 2 and worst < SLOW_GOAL
    section = f"""## Web slow clients

`python benchmarks/web_load.py --scenario slow` -- the server as `c4 serve` runs it (read
timeout {timeout:g} s, at most {max_connections} connections), on loopback.  {args.slow} connections
each send a request head with `Content-Length: 100` and 8 bytes of body, then nothing.  From 1 s later one
client asks `/healthz` 60 times and another plays 30 level-1 moves (each 50 ms after the last, on
a connection each opened beforehand).

{machine()}

Slow connections closed by the server after (s): median {statistics.median(closed):.2f}, max
{max(closed):.2f}; what they were answered first: {answers}.

| what | n | p50 ms | p95 ms | p99 ms | max ms |
|---|---|---|---|---|---|
| `/healthz` | {summary(health)} |
| level-1 moves | {summary(moves)} |

Goal: every slow connection closed within the read timeout (+2 s), health and moves under
{SLOW_GOAL * 1000:.0f} ms: {"met" if ok else "NOT met"}.
"""
    return section, ok


def review_games(count: int, seed: int) -> list[str]:
    """``count`` different finished 7x6 games of 38-42 plies between engine levels 1-5."""
    from c4engine.play.players import EnginePlayer

    rng = random.Random(seed)
    games: list[str] = []
    while len(games) < count:
        first, second = rng.sample(range(1, 6), 2)
        players = [EnginePlayer(level=level, seed=rng.randrange(2**32)) for level in (first, second)]
        board = Board()
        while not board.is_over:
            board.play(players[board.move_count % 2].choose_move(board))
        if 38 <= board.move_count <= 42 and board.move_string not in games:
            games.append(board.move_string)
    return games


def review_cpu(games: list[str]) -> list[float]:
    """The CPU seconds of each game's review by the server's own function, in this process."""
    from c4engine.web import worker

    caps = ServerCaps()
    worker.analyze(Board.from_moves("44535"), Limit(time=0.05))  # as the server's warm-up: compiled, no nice
    seconds = []
    for game in games:
        started = time.process_time()
        worker.review_moves(game, 7, 6, 4, Limit(time=caps.review_ply_time), caps.review_time)
        seconds.append(time.process_time() - started)
    return seconds


def review(args: argparse.Namespace) -> tuple[str, bool]:
    games = review_games(args.games, args.seed)
    with running_server({}) as base:
        workers = httpx.get(f"{base}/healthz").json()["workers"]
        rows = []
        for game in games:
            started = time.perf_counter()
            answer = httpx.post(f"{base}/api/review", json={"moves": game}, timeout=120)
            wall = time.perf_counter() - started
            body = answer.json()
            rows.append((game, wall, answer.status_code, body.get("proven"), body.get("time")))
    cpu = review_cpu(games)
    walls = [row[1] for row in rows]
    exact = sum(row[3] is True for row in rows)
    ok = max(walls) <= REVIEW_GOAL and all(row[2] == 200 for row in rows)
    table = "\n".join(
        f"| `{game}` | {len(game)} | {status} | {'yes' if proven else 'no'} | {server:.2f} | {wall:.2f} | "
        f"{seconds:.2f} |"
        for (game, wall, status, proven, server), seconds in zip(rows, cpu, strict=True)
    )
    section = f"""## Web review

`python benchmarks/web_load.py --scenario review` -- the server as `c4 serve` runs it (default
limits: {workers} analysis worker(s), each ply 1 s at most, the review 30 s), on loopback, warmed
up as at start-up but not by these games.  {len(games)} different finished 7x6 games of 38-42
plies between engine levels 1-5, each reviewed once through `POST /api/review`, one after the
other; "wall" is the request as the page waits for it, "server" the review's own time.  "CPU"
is the same work (the worker's function, the same games in the same order after the same
warm-up) run again in the benchmark's process at normal priority: its CPU seconds, what a
machine with a core to spare would take.

{machine()}

| game | plies | status | every ply proven | server s | wall s | CPU s |
|---|---|---|---|---|---|---|
{table}

Wall time: p50 {statistics.median(walls):.2f} s, max {max(walls):.2f} s; CPU: p50
{statistics.median(cpu):.2f} s, max {max(cpu):.2f} s; every ply proven in {exact} of {len(games)} reviews.
Goal: a 40-ply game in <= {REVIEW_GOAL:g} s (wall): {"met" if ok else "NOT met"}.
The server's engine worker runs at `nice 5` (so the event loop stays responsive): on a machine
loaded by other work it gets a small share of a core, and a ply whose second of wall time ran
out is "not proven" -- the page then asks again with 3 s a ply, and the warm solver proves it.
"""
    return section, ok


def machine() -> str:
    """Machine, load, date and commit, for a section."""
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
    load = " ".join(f"{value:.1f}" for value in os.getloadavg())
    date = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"Machine: {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}, shared with other\n"
        f"work (load average at the end: {load}).  Date: {date}.  Commit: {commit}."
    )


SCENARIOS = {"mix": mix, "fair": fair, "spread": spread, "slow": slow, "review": review}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), default="mix")
    parser.add_argument("--clients", type=int, default=50, help="mix: concurrent clients")
    parser.add_argument("--requests", type=int, default=100, help="mix: requests per client")
    parser.add_argument("--analyses", type=float, default=0.2, help="mix: fraction of requests that analyse")
    parser.add_argument("--analysis-cap", type=float, default=0.05, help="mix: seconds per analysis")
    parser.add_argument("--workers", type=int, default=1, help="mix: analysis processes of the server")
    parser.add_argument("--queue", type=int, default=64, help="mix: the server's queue bound")
    parser.add_argument("--flood", type=int, default=40, help="fair: analyses kept in flight")
    parser.add_argument("--moves", type=int, default=100, help="fair: moves played meanwhile")
    parser.add_argument("--addresses", type=int, default=10, help="spread: the flood's addresses")
    parser.add_argument("--flight", type=int, default=1, help="spread: analyses in flight per address")
    parser.add_argument("--before", default="", help="spread: the same run before, for the text")
    parser.add_argument("--questions", type=int, default=15, help="spread: the person's analyses")
    parser.add_argument("--slow", type=int, default=300, help="slow: slow connections")
    parser.add_argument("--games", type=int, default=10, help="review: games reviewed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-write", action="store_true", help="do not update docs/benchmarks-log.md")
    args = parser.parse_args()

    section, ok = SCENARIOS[args.scenario](args)
    print(section)
    if not args.no_write:
        title = section.splitlines()[0]
        path = REPO / "docs" / "benchmarks-log.md"
        path.parent.mkdir(exist_ok=True)
        text = path.read_text() if path.exists() else "# Benchmarks\n"
        pattern = re.compile(rf"^{re.escape(title)}\n.*?(?=^## |\Z)", re.S | re.M)
        if pattern.search(text):
            text = pattern.sub(lambda _match: section + "\n", text)
        else:
            text = text.rstrip() + "\n\n" + section
        path.write_text(text.rstrip() + "\n")
        print(f"written to {path}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
