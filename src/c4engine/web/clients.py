"""Who is asking, and their engine work: a client's identity for its share of the lanes, and its job,
cancelled when it goes away.

A client is its network address (an IPv6 /64 counts as one) and the token
its page sends in :data:`CLIENT_HEADER`, so people behind one address do
not share a quota (:mod:`c4engine.web.pool` keeps the shares).
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
from typing import Any

from fastapi import Request

from c4engine.board import Board
from c4engine.web.pool import Client, Function, Lane

__all__ = ["CLIENT_HEADER", "ClientGoneError", "client_address", "client_of", "run_in_lane"]

CLIENT_HEADER = "X-C4-Client"
"""The header carrying the token a page makes up for itself (8-64 letters, digits, ``-``, ``_``)."""
_TOKEN = re.compile(r"[A-Za-z0-9_-]{8,64}")


class ClientGoneError(Exception):
    """The client closed the connection before its answer was ready."""


def client_address(host: str) -> str:
    """The peer's address for quotas; a whole IPv6 /64 is one address (one subscriber's network).

    >>> client_address("2001:db8:1:2:aaaa::1"), client_address("127.0.0.1")
    ('2001:db8:1:2::/64', '127.0.0.1')
    """
    try:
        parsed = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def client_of(request: Request) -> Client:
    """Who is asking, for the per-client share of the engine: the peer's address and the page's
    token (a missing or malformed token counts as none: the address alone)."""
    token = request.headers.get(CLIENT_HEADER, "")
    address = client_address(request.client.host) if request.client is not None else "unknown"
    return Client(address, token if _TOKEN.fullmatch(token) else "")


async def _disconnected(request: Request) -> None:
    """Return once the client has closed the connection."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def run_in_lane(
    request: Request, lane: Lane, function: Function, board: Board, *args: Any
) -> dict[str, Any]:
    """Queue ``function`` of ``board``'s moves, width, height and connect, then ``args``, in ``lane``
    for this request's client and wait for its answer; raise :class:`ClientGoneError` (cancelling the
    job) if the client leaves first."""
    job = lane.submit(
        client_of(request), function, board.move_string, board.width, board.height, board.connect, *args
    )
    gone = asyncio.ensure_future(_disconnected(request))
    try:
        await asyncio.wait((job.future, gone), return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
    if not job.future.done():
        lane.cancel(job)
        raise ClientGoneError
    return job.future.result()
