"""``c4engine.cli.progress``: the formatting of durations (the live line itself: test_live_progress.py)."""

from __future__ import annotations

import math

import pytest

from c4engine.cli.progress import format_duration


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0.0, "0 s"),
        (3e-9, "3 ns"),
        (999.4e-9, "999 ns"),
        (999.6e-9, "1 us"),
        (1.5e-5, "15 us"),
        (2.1794931e-4, "218 us"),
        (0.0221, "22.1 ms"),
        (2.1794931, "2.18 s"),  # printed by c4 bench as 2179493.1us before
        (59.4, "59.4 s"),
        (59.96, "1 min 0 s"),
        (61.4, "1 min 1 s"),
        (3599.6, "1 h 0 min"),
        (5 * 3600 + 7 * 60 + 20, "5 h 7 min"),
    ],
)
def test_durations_have_units_people_read(seconds: float, text: str) -> None:
    assert format_duration(seconds) == text


@pytest.mark.parametrize("seconds", [-1.0, math.inf, math.nan])
def test_a_duration_is_finite_and_not_negative(seconds: float) -> None:
    with pytest.raises(ValueError, match="finite number of seconds"):
        format_duration(seconds)
