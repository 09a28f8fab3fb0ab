"""Engine worker processes shared fairly between clients, with cancellation.

A :class:`Lane` owns warm worker processes and one queue per client.  The
app keeps two lanes, so a computer's move never waits behind analyses.
A :class:`Client` is a network address and the token its page made up, so
people behind one address each have their own share.  Within a lane the next
job goes to the waiting client whose *network* (an IPv4 /24, an IPv6 /48)
has used the least engine time, then whose address, then the client itself:
a client with forty requests in flight cannot starve one with a single
request, tokens made up at one address share that address's turn, and a
client spread over many addresses of one network takes one network's turn,
so a person elsewhere is served next.  Engine time counts while a network,
address or client has work under way; one that comes back after a pause
starts afresh, so a person asking one question at a time goes before those
who keep the engine busy.  Each client may have only ``per_client`` jobs
queued or running, each address ``per_address`` (:class:`ClientBusyError`),
the lane only ``max_pending`` (:class:`PoolBusyError`); when the lane is
full a client who has had less takes the place of the most-served client's
last queued job, which is refused as busy.

A job is cancelled when its client goes away: a queued job is dropped, a
running one is told to stop through a shared flag that its search polls
(:data:`c4engine.web.worker.Stop`), so the worker is free again within a
poll interval instead of finishing work nobody will read.

Workers are ``spawn``-ed processes, each with a pipe; the event loop learns
of a finished job through the pipe's file descriptor (``add_reader``), so
no thread is held per job.  A worker that dies is replaced and its client
told to retry.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import itertools
import multiprocessing
import signal
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.sharedctypes import Synchronized
from time import monotonic
from typing import Any, Generic, TypeVar

from c4engine.web import worker

__all__ = ["Client", "ClientBusyError", "Job", "Lane", "PoolBusyError"]

Function = Callable[..., dict[str, Any]]
_CONTEXT = multiprocessing.get_context("spawn")
_ids = itertools.count(1)
_Key = TypeVar("_Key")


class PoolBusyError(Exception):
    """Too much engine work is queued, or a worker failed; the client should retry later."""


class ClientBusyError(Exception):
    """This client already has its share of engine work queued; it should wait for it."""


def _serve(connection: Connection, cancelled: Synchronized[int]) -> None:
    """A worker process: run jobs from the pipe until it closes.

    ``cancelled`` holds the id of a job to stop; a job's ``stop`` callable
    compares it with its own id, so a late cancel cannot stop the next job.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle; it stops us
    connection.send(worker.warm_up())
    while True:
        try:
            job_id, function, args = connection.recv()
        except (EOFError, OSError):
            return

        def stop(job_id: int = job_id) -> bool:
            return bool(cancelled.value == job_id)

        try:
            reply = (True, function(*args, stop=stop))
        except Exception as error:  # reported to the request that sent it, as a 503
            reply = (False, f"{type(error).__name__}: {error}")
        try:
            connection.send(reply)
        except OSError:  # the server closed the pipe: it is shutting down, nobody to answer
            return


@dataclass(frozen=True)
class Client:
    """Who asks: a network address and the token its page sent ("" when none)."""

    address: str
    token: str = ""

    @property
    def network(self) -> str:
        """The network the address belongs to, for the order of turns: an IPv4 /24, an IPv6 /48.

        >>> Client("192.0.2.7").network, Client("2001:db8:1:2::/64").network, Client("test").network
        ('192.0.2.0/24', '2001:db8:1::/48', 'test')
        """
        try:
            prefix = ipaddress.ip_network(self.address, strict=False)
        except ValueError:
            return self.address
        return str(prefix.supernet(new_prefix=24 if prefix.version == 4 else 48))


class _Shares(Generic[_Key]):
    """Jobs under way and engine seconds used, per key, for keys with work under way only.

    >>> shares: _Shares[str] = _Shares()
    >>> shares.start("a"); shares.start("a"); shares.used("a", 1.5)
    >>> shares.active("a"), shares.seconds("a")
    (2, 1.5)
    >>> shares.finish("a"); shares.finish("a")
    >>> shares.active("a"), shares.seconds("a")   # nothing under way: forgotten
    (0, 0.0)
    """

    def __init__(self) -> None:
        self._active: dict[_Key, int] = {}
        self._seconds: dict[_Key, float] = {}

    def active(self, key: _Key) -> int:
        return self._active.get(key, 0)

    def seconds(self, key: _Key) -> float:
        return self._seconds.get(key, 0.0)

    def start(self, key: _Key) -> None:
        self._active[key] = self.active(key) + 1

    def used(self, key: _Key, seconds: float) -> None:
        self._seconds[key] = self.seconds(key) + seconds

    def finish(self, key: _Key) -> None:
        left = self._active[key] - 1
        if left:
            self._active[key] = left
        else:
            del self._active[key]
            self._seconds.pop(key, None)


class _Worker:
    """One worker process, its pipe and its cancel flag."""

    def __init__(self) -> None:
        self.cancelled: Synchronized[int] = _CONTEXT.Value("q", 0, lock=False)
        self.connection, child = _CONTEXT.Pipe()
        self.process = _CONTEXT.Process(target=_serve, args=(child, self.cancelled), daemon=True)
        self.process.start()
        child.close()
        # Set when the pipe breaks: the process is gone (is_alive() can lag behind the pipe's EOF).
        self.broken = False
        self.running: Job | None = None
        self.connection.recv()  # warmed up: the first request does not pay for imports and compiling

    async def run(self, job: Job) -> dict[str, Any]:
        """Send ``job`` and wait for its answer without blocking the event loop."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[tuple[bool, Any]] = loop.create_future()
        descriptor = self.connection.fileno()

        def readable() -> None:
            loop.remove_reader(descriptor)
            try:
                answer.set_result(self.connection.recv())
            except (EOFError, OSError):  # the process died (killed, out of memory)
                self.broken = True
                answer.set_exception(PoolBusyError("the engine restarted; try again"))

        try:
            self.connection.send((job.id, job.function, job.args))
        except OSError as error:
            self.broken = True
            raise PoolBusyError("the engine restarted; try again") from error
        self.running = job
        loop.add_reader(descriptor, readable)
        try:
            ok, value = await answer
        finally:
            loop.remove_reader(descriptor)
            self.running = None
        if not ok:
            raise PoolBusyError(f"the engine failed ({value}); try again")
        result: dict[str, Any] = value
        return result

    def cancel(self, job: Job) -> None:
        self.cancelled.value = job.id

    def stop(self) -> None:
        if self.running is not None:  # end its search now rather than at its time cap
            self.cancel(self.running)
        self.connection.close()
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


@dataclass(eq=False)
class Job:
    """One request's engine work: ``function(*args, stop=...)`` in a worker."""

    client: Client
    function: Function
    args: tuple[Any, ...]
    id: int = field(default_factory=lambda: next(_ids))
    future: asyncio.Future[dict[str, Any]] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )
    worker: _Worker | None = None


class Lane:
    """Worker processes and per-client queues for one kind of work (see the module's doc)."""

    def __init__(self, name: str, workers: int, max_pending: int, per_client: int, per_address: int) -> None:
        self.name = name
        self.size = workers
        self.max_pending = max_pending
        self.per_client = per_client
        self.per_address = per_address
        self.pending = 0
        self._idle: list[_Worker] = []
        self._all: list[_Worker] = []
        self._queues: dict[Client, deque[Job]] = {}
        self._clients: _Shares[Client] = _Shares()
        self._addresses: _Shares[str] = _Shares()
        self._networks: _Shares[str] = _Shares()
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        """Start and warm every worker (blocking: call it before serving, or from a thread)."""
        self._all = [_Worker() for _ in range(self.size)]
        self._idle = list(self._all)

    def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for process in self._all:
            process.stop()
        self._all, self._idle = [], []

    def submit(self, client: Client, function: Function, *args: Any) -> Job:
        """Queue ``function(*args)`` for ``client``; raises when the lane, client or address is full."""
        if not self._all:
            raise PoolBusyError("the engine is not running")
        if self._clients.active(client) >= self.per_client:
            raise ClientBusyError(
                f"this client already has {self.per_client} {self.name} requests under way; wait for them"
            )
        if self._addresses.active(client.address) >= self.per_address:
            raise ClientBusyError(
                f"{self.per_address} {self.name} requests from your network address (all its clients "
                "together) are under way; try again shortly"
            )
        if self.pending >= self.max_pending and not self._shed_for(client):
            raise PoolBusyError(f"the engine is busy ({self.pending} {self.name} requests queued); try again")
        job = Job(client, function, args)
        self._queues.setdefault(client, deque()).append(job)
        self._clients.start(client)
        self._addresses.start(client.address)
        self._networks.start(client.network)
        self.pending += 1
        self._dispatch()
        return job

    def cancel(self, job: Job) -> None:
        """The client went away: drop ``job`` if queued, stop it if running."""
        if job.worker is not None:
            job.worker.cancel(job)
            return
        queue = self._queues.get(job.client)
        if queue is not None and job in queue:
            queue.remove(job)
            if not queue:
                del self._queues[job.client]
            self._finished(job)
            job.future.cancel()

    def _share(self, client: Client) -> tuple[float, float, float]:
        """The engine time ``client``'s network, address and the client have had: less goes first."""
        return (
            self._networks.seconds(client.network),
            self._addresses.seconds(client.address),
            self._clients.seconds(client),
        )

    def _shed_for(self, client: Client) -> bool:
        """The lane is full: refuse the last queued job of the most-used waiting client if it
        has had more than ``client``, so a flood from many addresses cannot lock a newcomer out."""
        if not self._queues:
            return False
        heaviest = max(self._queues, key=lambda waiting: self._share(waiting))
        if self._share(heaviest) <= self._share(client):
            return False
        queue = self._queues[heaviest]
        job = queue.pop()
        if not queue:
            del self._queues[heaviest]
        self._finished(job)
        job.future.set_exception(PoolBusyError(f"the engine is busy (many {self.name} requests); try again"))
        return True

    def _dispatch(self) -> None:
        while self._idle and self._queues:
            # the least-served waiting client goes first; ties: the one queued longest (dict order)
            client = min(self._queues, key=lambda waiting: self._share(waiting))
            queue = self._queues[client]
            job = queue.popleft()
            if not queue:
                del self._queues[client]
            job.worker = self._idle.pop()
            task = asyncio.get_running_loop().create_task(self._run(job, job.worker))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, job: Job, process: _Worker) -> None:
        started = monotonic()
        try:
            result = await process.run(job)
        except PoolBusyError as error:
            if not job.future.done():  # answered at once; a new worker is started meanwhile
                job.future.set_exception(error)
            if process.broken:
                process = await self._replace(process)
        else:
            if not job.future.done():
                job.future.set_result(result)
        finally:
            seconds = monotonic() - started
            self._clients.used(job.client, seconds)
            self._addresses.used(job.client.address, seconds)
            self._networks.used(job.client.network, seconds)
            self._finished(job)
        self._idle.append(process)
        self._dispatch()

    async def _replace(self, dead: _Worker) -> _Worker:
        with contextlib.suppress(OSError):
            dead.stop()
        fresh = await asyncio.get_running_loop().run_in_executor(None, _Worker)
        self._all[self._all.index(dead)] = fresh
        return fresh

    def _finished(self, job: Job) -> None:
        self.pending -= 1
        self._clients.finish(job.client)
        self._addresses.finish(job.client.address)
        self._networks.finish(job.client.network)
