"""What every request passes through before the routes: caps on its size and on how slowly it may be
sent, and the security headers on every answer."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi.responses import JSONResponse

from c4engine.web.errors import error_response

__all__ = ["SECURITY_HEADERS", "RequestCapsMiddleware", "SecurityHeadersMiddleware"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class _BodyTooLargeError(Exception):
    """The body grew past the cap while it was read."""


class RequestCapsMiddleware:
    """Refuse long query strings (414), large bodies (413) and bodies sent too slowly (408).

    The body is read here, before the app sees it, within ``read_timeout``
    seconds of the request's head; a client trickling it byte by byte to
    hold a connection gets a 408 and the connection is closed.
    """

    def __init__(self, app: ASGIApp, max_body: int, max_query: int, read_timeout: float) -> None:
        self.app = app
        self.max_body = max_body
        self.max_query = max_query
        self.read_timeout = read_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = self._refusal_by_head(scope)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        try:
            async with asyncio.timeout(self.read_timeout):
                body = await self._body(receive)
        except TimeoutError:
            await self._too_slow()(scope, receive, send)
            return
        except _BodyTooLargeError:
            await self._too_large()(scope, receive, send)
            return
        if body is not None:  # None: the client went away, nobody to answer
            await self.app(scope, _replay(body, receive), send)

    def _refusal_by_head(self, scope: Scope) -> JSONResponse | None:
        """The answer refusing a request by its head alone: a query string or a declared body too
        long; None when the head is within the caps."""
        if len(scope.get("query_string", b"")) > self.max_query:
            return error_response(414, f"the query string is too long (limit {self.max_query} bytes)")
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.max_body):
                return self._too_large()
        return None

    async def _body(self, receive: Receive) -> bytes | None:
        """The whole body, or None if the client went away while sending it; raises
        :class:`_BodyTooLargeError` as soon as it grows past the cap."""
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return None
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_body:
                raise _BodyTooLargeError
        return bytes(body)

    def _too_large(self) -> JSONResponse:
        return error_response(413, f"the request body is too large (limit {self.max_body} bytes)")

    def _too_slow(self) -> JSONResponse:
        return error_response(
            408, f"the request was not sent within {self.read_timeout:g} seconds", {"Connection": "close"}
        )


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` giving the app the body already read, then what the connection says next."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


# The page and the API docs load only their own scripts and styles; nothing may frame them.
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        b"form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeadersMiddleware:
    """Add :data:`SECURITY_HEADERS` to every answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)
