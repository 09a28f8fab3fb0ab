"""The Elo difference and its interval: Wilson's without draws, the trinomial variance with them."""

from __future__ import annotations

import math

import pytest

from c4engine.experiments.elo import Z_95, elo_difference, score_to_elo


def test_score_to_elo_known_values() -> None:
    assert score_to_elo(0.5) == 0
    assert score_to_elo(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert score_to_elo(10 / 11) == pytest.approx(400.0)  # odds 10:1 = 400 Elo
    assert score_to_elo(0.25) == pytest.approx(-score_to_elo(0.75))
    assert score_to_elo(1.0) == math.inf and score_to_elo(0.0) == -math.inf
    with pytest.raises(ValueError, match="between 0 and 1"):
        score_to_elo(1.5)


def test_without_draws_the_interval_is_wilsons() -> None:
    wins, losses = 30, 10
    n, p = wins + losses, wins / (wins + losses)
    z2 = Z_95**2
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z_95 / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    estimate = elo_difference(wins, 0, losses)
    assert estimate.elo == pytest.approx(score_to_elo(0.75))
    assert estimate.low == pytest.approx(score_to_elo(centre - half))
    assert estimate.high == pytest.approx(score_to_elo(centre + half))


def test_many_games_approach_the_normal_interval_with_trinomial_variance() -> None:
    wins, draws, losses = 6000, 2000, 2000
    n = wins + draws + losses
    s = (wins + draws / 2) / n
    variance = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s**2) / n
    half = Z_95 * math.sqrt(variance / n)
    estimate = elo_difference(wins, draws, losses)
    assert estimate.low == pytest.approx(score_to_elo(s - half), abs=0.5)
    assert estimate.high == pytest.approx(score_to_elo(s + half), abs=0.5)


def test_draws_narrow_the_interval() -> None:
    decisive = elo_difference(50, 0, 50)
    drawish = elo_difference(10, 80, 10)
    assert decisive.elo == drawish.elo == 0
    assert drawish.high - drawish.low < (decisive.high - decisive.low) / 2


def test_interval_shrinks_like_one_over_root_n() -> None:
    widths = [elo_difference(6 * k, 2 * k, 2 * k) for k in (1, 4, 16, 64)]
    spans = [estimate.high - estimate.low for estimate in widths]
    assert spans == sorted(spans, reverse=True)
    assert spans[3] / spans[2] == pytest.approx(0.5, abs=0.05)
    assert all(estimate.low < estimate.elo < estimate.high for estimate in widths)


def test_a_clean_sweep_has_a_finite_lower_end() -> None:
    few, many = elo_difference(10, 0, 0), elo_difference(100, 0, 0)
    assert few.elo == math.inf and few.high == math.inf
    assert few.low == pytest.approx(score_to_elo(10 / (10 + Z_95**2)))
    assert 0 < few.low < many.low < math.inf
    lost = elo_difference(0, 0, 10)
    assert lost.elo == -math.inf and lost.high == pytest.approx(-few.low) and lost.low == -math.inf
    assert str(few).startswith(">= +") and str(lost).startswith("<= -")


def test_all_draws_and_no_games() -> None:
    even = elo_difference(0, 20, 0)
    assert even.elo == 0 and even.low < 0 < even.high and even.low == pytest.approx(-even.high)
    assert elo_difference(0, 0, 0).games == 0
    with pytest.raises(ValueError, match="wins"):
        elo_difference(-1, 0, 0)
