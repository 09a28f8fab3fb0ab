"""Shared helpers for the tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PONS = REPO.parent / "shared" / "data" / "pons"


def run_c4(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run the ``c4`` command as a user would, in a fresh interpreter."""
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run(
        [sys.executable, "-m", "c4engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


@pytest.fixture
def c4():  # type: ignore[no-untyped-def]
    return run_c4
