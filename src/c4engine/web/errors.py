"""The web's error answers: every failure is a 4xx (or 5xx) JSON ``{"error": "..."}`` a person can
read, never a traceback.

Bad positions, sizes and levels answer 400, a finished game 409, malformed
parameters 422 (naming each field and what is wrong), a body that is not a
JSON object 400; a busy engine 503 and a client over its share 429, both
with ``Retry-After``; a client that left 499.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from c4engine.errors import C4Error, GameOverError
from c4engine.web.clients import ClientGoneError
from c4engine.web.models import CHOICES, ErrorOut
from c4engine.web.pool import ClientBusyError, PoolBusyError

__all__ = ["ERROR_RESPONSES", "add_error_handlers", "body_message", "error_response", "validation_message"]

ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut, "description": description}
    for status, description in (
        (400, "Bad position, size or level, or a body that is not a JSON object"),
        (408, "The request was sent too slowly"),
        (409, "The game is already over"),
        (422, "Malformed parameters"),
        (
            429,
            "This client (address and X-C4-Client token), or its address with all its clients, already "
            "has its share of engine work under way; retry after Retry-After",
        ),
        (503, "The engine is busy; retry after Retry-After seconds"),
    )
}
"""The error answers of the API's routes, for the OpenAPI schema."""


def error_response(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """The answer ``{"error": message}`` with ``status``."""
    return JSONResponse({"error": message}, status_code=status, headers=headers)


_JSON_TYPES = {
    dict: "an object",
    list: "an array",
    str: "a string",
    bool: "true or false",
    type(None): "null",
}


def body_message(error: RequestValidationError) -> str | None:
    """What is wrong with a JSON body as a whole -- not JSON, empty, not an object -- or None when
    the body is an object and the errors are about its fields."""
    for item in error.errors():
        location = tuple(item.get("loc", ()))
        if item.get("type") == "json_invalid":
            reason = item.get("ctx", {}).get("error", "it cannot be read")
            return f"the body is not JSON: {reason} (at character {location[-1]})"
        if location != ("body",):
            continue
        given = item.get("input")
        if item.get("type") == "missing":
            return "the body is empty: send a JSON object"
        if isinstance(given, bytes):  # a Content-Type other than JSON: FastAPI left the bytes unread
            return 'the body is not JSON: send a JSON object with "Content-Type: application/json"'
        what = _JSON_TYPES.get(type(given), "a number")
        return f"the body must be a JSON object, not {what}"
    return None


def validation_message(error: RequestValidationError) -> str:
    """Each bad field and what is wrong with it, for a person: ``"connect: Input should be ..."``; a
    field of several kinds (:data:`~c4engine.web.models.CHOICES`) once, naming the value given and
    what it allows: ``'level: true is not allowed: a level number 1..7 or "perfect"'``."""
    parts: list[str] = []
    for item in error.errors():
        location = [str(part) for part in item.get("loc", ()) if part not in ("query", "body")]
        field = location[0] if location else ""
        if field in CHOICES:
            given = json.dumps(item.get("input"), ensure_ascii=False)[:60]
            said = f"{field}: {given} is not allowed: {CHOICES[field]}"
            if said not in parts:
                parts.append(said)
            continue
        where = ".".join(location)
        message = str(item.get("msg", "invalid value"))
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts) or "invalid request"


async def _c4_error(request: Request, error: C4Error) -> JSONResponse:
    return error_response(409 if isinstance(error, GameOverError) else 400, str(error))


async def _invalid(request: Request, error: RequestValidationError) -> JSONResponse:
    body_problem = body_message(error)
    if body_problem is not None:  # not a bad field: no body the route could read at all
        return error_response(400, body_problem)
    return error_response(422, validation_message(error))


async def _http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
    return error_response(error.status_code, str(error.detail), getattr(error, "headers", None))


async def _gone(request: Request, error: ClientGoneError) -> JSONResponse:
    return error_response(499, "the client closed the connection; the request was cancelled")


async def _unexpected(request: Request, error: Exception) -> JSONResponse:  # pragma: no cover
    return error_response(500, "internal error: the server could not answer this request")


def _retry_later(status: int, retry_after: int) -> Callable[[Request, Exception], Awaitable[JSONResponse]]:
    """A handler answering ``status`` with the error's words and ``Retry-After: retry_after``."""

    async def refuse(request: Request, error: Exception) -> JSONResponse:
        return error_response(status, str(error), {"Retry-After": str(retry_after)})

    return refuse


def add_error_handlers(app: FastAPI, retry_after: int) -> None:
    """Answer every failure in ``app`` as JSON; a busy engine or client is told to retry after
    ``retry_after`` seconds."""
    app.exception_handler(C4Error)(_c4_error)
    app.exception_handler(RequestValidationError)(_invalid)
    app.exception_handler(StarletteHTTPException)(_http_error)
    app.exception_handler(PoolBusyError)(_retry_later(503, retry_after))
    app.exception_handler(ClientBusyError)(_retry_later(429, retry_after))
    app.exception_handler(ClientGoneError)(_gone)
    app.exception_handler(Exception)(_unexpected)
