"""The server's caps (``c4 serve``'s options): workers, queues, time, request sizes, connections."""

from __future__ import annotations

import os
from dataclasses import dataclass

from starlette.exceptions import HTTPException as StarletteHTTPException

__all__ = ["ServerCaps"]


@dataclass(frozen=True)
class ServerCaps:
    """The server's caps on its workers, queues, time, request sizes and connections (``c4 serve``).

    ``workers`` analyse, ``move_workers`` play moves (their own processes, so
    a move never waits behind analyses); ``max_pending`` jobs may wait per
    lane, ``per_client`` per client and lane, ``per_address`` per network
    address and lane (all its clients together: a client making up tokens
    gets no more than that); time caps and timeouts in
    seconds, request sizes in bytes.  A review gives each ply
    ``review_ply_time`` (a client may ask up to ``max_time``) and takes at
    most ``review_time`` in all.  ``read_timeout`` bounds how long a
    client may take to send its request (head and body); ``max_connections``
    how many connections and requests the server holds at once.
    """

    workers: int = max(1, (os.cpu_count() or 2) - 1)
    move_workers: int = 1
    max_pending: int = 64
    per_client: int = 4
    per_address: int = 16
    move_time: float = 3.0
    analyze_time: float = 1.0
    max_time: float = 3.0
    review_ply_time: float = 1.0
    review_time: float = 30.0
    max_body: int = 16 * 1024
    max_query: int = 8 * 1024
    read_timeout: float = 5.0
    max_connections: int = 1000
    retry_after: int = 1

    def seconds(self, requested: float | None, default: float, name: str = "time") -> float:
        """The seconds a request gets: ``requested``, or ``default`` within ``max_time`` when it asks
        for none; more than ``max_time`` is refused (422, naming the field ``name``)."""
        if requested is None:
            return min(default, self.max_time)
        if requested > self.max_time:
            raise StarletteHTTPException(422, f"{name}: at most {self.max_time:g} seconds")
        return requested
