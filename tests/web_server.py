"""Running the web server for the tests: in a thread (with chosen caps) or as ``c4 serve``."""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from c4engine.web.app import ServerCaps
from c4engine.web.server import listen, uvicorn_config


def wait_healthy(base: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server at {base} did not start")
        time.sleep(0.1)


@contextmanager
def server_in_thread(caps: ServerCaps) -> Iterator[str]:
    """The app on uvicorn in a background thread; yields its base URL."""
    import uvicorn

    sock = listen("127.0.0.1", 0)  # bound here, on a port the system chooses: none to race for
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn_config("127.0.0.1", port, caps=caps, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base)
        yield base
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@contextmanager
def c4_serve(*args: str, told: list[str] | None = None) -> Iterator[str]:
    """``c4 serve`` as a user starts it, in a fresh interpreter, on a port the system chooses
    (none to race for); yields the address it tells to open.  ``told`` collects its stderr lines.

    Its stderr is read to the end by a thread: the server logs there, and a pipe nobody reads
    would stall it once full.
    """
    process = subprocess.Popen(
        [sys.executable, "-m", "c4engine", "serve", "--port", "0", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    lines: queue.Queue[str | None] = queue.Queue()

    def read_stderr() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            lines.put(line)
            if told is not None:
                told.append(line.rstrip("\n"))
        lines.put(None)  # the end: the server stopped

    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    try:
        base = _address_told(lines, timeout=120)  # generous: a loaded machine starts slowly
        wait_healthy(base)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:  # pragma: no cover
            process.kill()
            process.wait()
        reader.join(timeout=20)


def _address_told(lines: queue.Queue[str | None], timeout: float) -> str:
    """The base URL in c4 serve's 'open http://HOST:PORT/ in a browser' line, waiting for it."""
    deadline = time.monotonic() + timeout
    seen: list[str] = []
    while True:
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise RuntimeError(f"c4 serve told no address within {timeout} s: {seen}") from None
        if line is None:
            raise RuntimeError(f"c4 serve stopped before telling its address: {seen}")
        seen.append(line)
        found = re.search(r"open (http://\S+?)/ in a browser", line)
        if found:
            return found.group(1)


def error_of(response: httpx.Response, status: int) -> str:
    """The message of a JSON error answer with ``status``: one ``error`` field, never a traceback."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}
    message: str = body["error"]
    assert message and "Traceback" not in message
    return message
