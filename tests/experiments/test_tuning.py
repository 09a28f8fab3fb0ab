"""Tuning: parameter spaces, the two optimisers on toy problems, rounds, the checkpoint store."""

from __future__ import annotations

import math
import pickle
import random
import sqlite3

import pytest
from tests.conftest import stored_game_rows

from c4engine.board import Board
from c4engine.errors import C4Error, TuneError
from c4engine.experiments.tuning import (
    Annealing,
    CmaEs,
    PairJob,
    Parameter,
    ParameterSpace,
    TuneConfig,
    TuneStore,
    play_pair,
    reference_weights,
    tune,
    window_space,
)
from c4engine.search.engine.evaluators import DEFAULT_WEIGHTS, WindowsEvaluator
from c4engine.search.engine.weights import WindowWeights

# ----------------------------------------------------------- parameters


@pytest.mark.parametrize(
    "parameter",
    [Parameter("a", -5.0, 20.0), Parameter("b", 0.01, 1e5, log=True), Parameter("c", -1e5, -0.01, log=True)],
)
def test_unit_round_trip_and_clipping(parameter: Parameter) -> None:
    rng = random.Random(1)
    for _ in range(200):
        unit = rng.random()
        value = parameter.from_unit(unit)
        assert parameter.low <= value <= parameter.high
        assert parameter.to_unit(value) == pytest.approx(unit, abs=1e-9)
    assert parameter.from_unit(-3.0) == parameter.low and parameter.from_unit(7.0) == parameter.high
    assert parameter.to_unit(parameter.low - 1e9) == 0.0
    assert parameter.to_unit(parameter.high + abs(parameter.high) * 10) == 1.0
    assert parameter.from_unit(0.0) == parameter.low and parameter.from_unit(1.0) == parameter.high


def test_log_scale_is_even_in_orders_of_magnitude() -> None:
    own = Parameter("own", 1.0, 10000.0, log=True)
    assert [own.from_unit(u) for u in (0.0, 0.25, 0.5, 0.75, 1.0)] == pytest.approx([1, 10, 100, 1000, 10000])
    opponent = Parameter("opp", -10000.0, -1.0, log=True)
    assert opponent.from_unit(0.25) == pytest.approx(-1000.0)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Parameter("x", 1.0, 1.0), "must be below"),
        (lambda: Parameter("x", -1.0, 1.0, log=True), "one sign"),
        (lambda: Parameter("x", 0.0, math.inf), "must be below"),
        (lambda: ParameterSpace((Parameter("x", 0, 1), Parameter("x", 0, 1)), WindowsEvaluator), "distinct"),
        (lambda: window_space(1), "at least 2"),
    ],
)
def test_bad_parameters(make, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TuneError, match=message) as info:
        make()
    assert isinstance(info.value, C4Error)


@pytest.mark.parametrize("connect", [2, 3, 4, 5, 6])
def test_window_weights_round_trip_through_vectors_and_the_unit_cube(connect: int) -> None:
    space = window_space(connect)
    assert len(space.names) == 2 * (connect - 1) + 1
    for name in ("default", "areas", "hand", "flat", "bad"):
        weights = reference_weights(name, connect)
        values = space.values(weights)
        assert space.weights(values) == weights
        assert space.from_unit(space.to_unit(values)) == pytest.approx(values, rel=1e-9)
    evaluator = space.evaluator(space.values(reference_weights("default", connect)))
    assert isinstance(evaluator, WindowsEvaluator)
    assert evaluator.weights == reference_weights("default", connect)


def test_vectors_outside_the_bounds_or_of_the_wrong_length_are_refused() -> None:
    space = window_space(4)
    with pytest.raises(TuneError, match="own1 = -1 is outside its bounds"):
        space.values(WindowWeights((-1, 10, 100), (-1, -10, -100), 0))
    with pytest.raises(TuneError, match="center = 500 is outside"):
        space.check((1, 10, 100, -1, -10, -100, 500))
    with pytest.raises(TuneError, match="6 values for 7 parameters"):
        space.check((1, 10, 100, -1, -10, -100))
    with pytest.raises(TuneError, match="do not fit"):
        space.values(reference_weights("default", 5))
    custom = ParameterSpace((Parameter("x", 0, 1),), WindowsEvaluator)
    with pytest.raises(TuneError, match="custom parameter space has no window weights"):
        custom.weights((0.5,))
    with pytest.raises(TuneError, match="unknown weights 'nope'"):
        reference_weights("nope", 4)


def test_reference_weights_on_connect_4() -> None:
    assert reference_weights("default", 4) == DEFAULT_WEIGHTS
    assert reference_weights("areas", 4) == WindowWeights((2, 4, 8), (-2, -4, -8), 0)
    assert reference_weights("bad", 4) == WindowWeights((1, 1, 1), (-1, -1, -1), -3)


# ----------------------------------------------------------- optimisers


def _toy(point: list[float]) -> float:
    """A smooth maximum of 1 at (0.7, 0.2, 0.5)."""
    return 1.0 - sum((x - t) ** 2 for x, t in zip(point, (0.7, 0.2, 0.5), strict=True))


def test_cma_climbs_a_toy_fitness_and_is_repeatable_through_pickle() -> None:
    es = CmaEs([0.2, 0.8, 0.1], sigma=0.2, seed=4)
    twin = CmaEs([0.2, 0.8, 0.1], sigma=0.2, seed=4)
    start = _toy(es.best())
    for generation in range(40):
        candidates = es.ask()
        assert candidates == twin.ask()
        assert all(0.0 <= x <= 1.0 for point in candidates for x in point)
        es.tell(candidates, [_toy(point) for point in candidates])
        twin.tell(candidates, [_toy(point) for point in candidates])
        if generation == 10:
            twin = pickle.loads(pickle.dumps(twin))  # in one process; not in another (cma hashes points)
    assert es.best() == twin.best()
    assert _toy(es.best()) > 0.99 > start
    assert es.best() == pytest.approx([0.7, 0.2, 0.5], abs=0.05)


def test_annealing_climbs_a_toy_fitness_and_keeps_the_best() -> None:
    sa = Annealing([0.2, 0.8, 0.1], sigma=0.1, seed=2, steps=300)
    first = sa.ask()
    assert first == [[0.2, 0.8, 0.1]]  # the first round measures the start
    sa.tell(first, [_toy(first[0])])
    seen = [_toy(first[0])]
    temperatures = []
    for step in range(300):
        candidates = sa.ask()
        assert len(candidates) == 1 and all(0.0 <= x <= 1.0 for x in candidates[0])
        value = _toy(candidates[0])
        seen.append(value)
        temperatures.append(sa.temperature)
        sa.tell(candidates, [value])
        if step == 100:
            sa = pickle.loads(pickle.dumps(sa))
    assert temperatures == sorted(temperatures, reverse=True)
    assert temperatures[0] == pytest.approx(0.02) and temperatures[-1] < 0.0011
    assert sa.best_fitness == max(seen) and _toy(sa.best()) == max(seen)
    assert max(seen) > 0.99 > seen[0]
    assert 0 < sa.accepted < 300


def test_annealing_accepts_better_always_and_worse_sometimes() -> None:
    sa = Annealing([0.5], sigma=0.1, seed=1, steps=10, t_start=0.05, t_end=0.05)
    sa.tell([[0.5]], [0.5])
    sa.tell([[0.6]], [0.6])
    assert sa.current == [0.6]
    worse = 0
    for _ in range(200):
        before = sa.current_fitness
        sa.tell([[0.1]], [before - 0.05])  # exp(-1): accepted about 37 % of the time
        worse += sa.current == [0.1]
        sa.current, sa.current_fitness = [0.6], 0.6
    assert 40 < worse < 110
    assert sa.best() == [0.6]


# ---------------------------------------------------------------- games


def _config(**changes: object) -> TuneConfig:
    space = window_space(3)
    settings: dict[str, object] = {
        "method": "cma",
        "budget": 96,
        "depth": 1,
        "openings": 2,
        "width": 5,
        "height": 4,
        "connect": 3,
        "popsize": 4,
        "seed": 3,
    }
    settings.update(changes)
    return TuneConfig(
        space,
        space.values(reference_weights("bad", 3)),
        (
            ("start", space.values(reference_weights("bad", 3))),
            ("hand", space.values(reference_weights("hand", 3))),
        ),
        **settings,  # type: ignore[arg-type]
    )


def test_a_pair_plays_both_colours_from_the_same_opening() -> None:
    space = window_space(4)
    good, bad = space.values(DEFAULT_WEIGHTS), space.values(reference_weights("bad", 4))
    job = PairJob(space, good, bad, (3, 3), 2, 7, 6, 4)
    (first_score, first_moves), (second_score, second_moves) = play_pair(job)
    assert first_moves.startswith("44") and second_moves.startswith("44")
    assert first_moves != second_moves
    for score, moves, candidate_first in (
        (first_score, first_moves, True),
        (second_score, second_moves, False),
    ):
        board = Board.from_moves(moves)
        assert board.is_over
        if board.winner is None:
            assert score == 0.5
        else:
            assert score == (1.0 if (board.winner.value == 1) == candidate_first else 0.0)
    assert play_pair(job) == ((first_score, first_moves), (second_score, second_moves))  # deterministic


def test_openings_are_shared_in_a_round_and_fresh_across_rounds() -> None:
    config = _config()
    assert config.games_per_candidate == 2 * 2 * 2
    assert config.round_openings(0) == config.round_openings(0)
    assert config.round_openings(0) != config.round_openings(1)
    assert all(len(moves) == 4 for moves in config.round_openings(5))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"method": "grid"}, "unknown method 'grid'"),
        ({"budget": 0}, "budget must be a whole number of at least 1"),
        ({"depth": 0}, "depth must be"),
        ({"openings": 0}, "openings must be"),
        ({"sigma": 0.0}, "sigma is a step"),
        ({"popsize": 1}, "at least 2 candidates"),
        ({"random_plies": 19}, "leave no game"),
        ({"connect": 4}, "cannot tune connect 4"),
        ({"width": 0}, "width"),
        ({"budget": 15}, r"budget of 15 is less than one round: cma needs at least 16 games \(2 x 8\)"),
        ({"budget": 7, "method": "anneal"}, "anneal needs at least 8 games"),
    ],
)
def test_bad_configs(changes: dict[str, object], message: str) -> None:
    with pytest.raises(C4Error, match=message):
        _config(**changes)


def test_tune_spends_the_budget_in_whole_rounds_and_stores_everything(tmp_path) -> None:  # type: ignore[no-untyped-def]
    config = _config(budget=100)  # rounds of 4 candidates x 8 games: 3 rounds fit, a 4th would not
    with TuneStore(tmp_path / "run.sqlite") as store:
        result = tune(config, store=store, workers=0)
        assert result.games == 96 == store.games_played()
        assert result.rounds == 3
        assert [(c.round, c.index) for c in result.candidates] == [(r, i) for r in range(3) for i in range(4)]
        for candidate in result.candidates:
            assert candidate.games == 8 and candidate.wins + candidate.draws + candidate.losses == 8
            assert candidate.fitness == pytest.approx((candidate.wins + candidate.draws / 2) / 8)
            config.space.check(candidate.values)
        assert [games for games, _mean, _best in result.curve()] == [32, 64, 96]
        assert all(mean <= best for _games, mean, best in result.curve())
        rounds = [(stored.number, len(stored.candidates)) for stored in store.rounds()]
        assert rounds == [(0, 4), (1, 4), (2, 4)]
        assert all(stored.fitness is not None for stored in store.rounds())
        # running again with the same budget plays nothing; a larger budget goes on
        assert tune(config, store=store, workers=0).best == result.best
        assert store.games_played() == 96
        more = tune(_config(budget=130), store=store, workers=0)
        assert more.games == 128 and more.rounds == 4
    assert config.space.check(result.best) == result.best


@pytest.mark.parametrize("method", ["cma", "anneal"])
def test_a_run_stopped_anywhere_and_resumed_ends_like_an_unbroken_one(tmp_path, method: str) -> None:  # type: ignore[no-untyped-def]
    """Stopped (as by Ctrl-C) after one pair, at the end of a round's games before it is told, and
    in the last round, cut by the budget; resumed with another number of workers."""
    budget = 120 if method == "cma" else 56  # cma: rounds of 4, 4, 4 and a cut 3 candidates of 8 games
    config = _config(method=method, budget=budget)
    unbroken_path = tmp_path / "unbroken.sqlite"
    with TuneStore(unbroken_path) as store:
        unbroken = tune(config, store=store, workers=0)
    path = tmp_path / "run.sqlite"
    for stop_at in (2, 64 if method == "cma" else 16, budget - 4):
        with TuneStore(path) as store:

            def stop(_games: int, store: TuneStore = store, stop_at: int = stop_at) -> None:
                if store.games_played() == stop_at:  # as Ctrl-C would, once that many are stored
                    raise KeyboardInterrupt

            with pytest.raises(KeyboardInterrupt):
                tune(config, store=store, workers=0, on_pair=stop)
            assert store.games_played() == stop_at
    with TuneStore(path) as store:
        resumed = tune(config, store=store, workers=2)
    assert resumed == unbroken
    assert stored_game_rows(path) == stored_game_rows(unbroken_path)


def test_a_run_with_a_larger_budget_keeps_its_annealing_schedule() -> None:
    store = TuneStore(":memory:")
    tune(_config(method="anneal", budget=24), store=store, workers=0)
    longer = tune(_config(method="anneal", budget=40), store=store, workers=0)
    assert store.planned_budget() == 24 and longer.rounds == 5
    optimizer = _config(method="anneal", budget=40).make_optimizer(24)
    assert isinstance(optimizer, Annealing) and optimizer.steps == 2


def test_a_checkpoint_the_optimiser_would_not_ask_again_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "run.sqlite"
    with TuneStore(path) as store:
        tune(_config(budget=32), store=store, workers=0)
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE candidates SET unit = '[0.5, 0.5, 0.5, 0.5, 0.5]' WHERE candidate = 1")
    refused = "round 0 is not the one this run asks again"
    with TuneStore(path) as store, pytest.raises(TuneError, match=refused):
        tune(_config(budget=64), store=store, workers=0)


def test_a_checkpoint_of_the_older_layout_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "old.sqlite"
    with TuneStore(path) as store:
        store.start(_config())
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE run SET schema = 1")
    with TuneStore(path) as store, pytest.raises(TuneError, match="another version of c4engine"):
        tune(_config(), store=store, workers=0)


def test_annealing_runs_rounds_of_one_on_the_same_openings() -> None:
    result = tune(_config(method="anneal", budget=40), workers=0)
    assert result.rounds == 5 and result.games == 40
    assert all(candidate.index == 0 for candidate in result.candidates)
    best = max(result.candidates, key=lambda candidate: candidate.fitness)
    assert result.best == pytest.approx(best.values, rel=1e-5)


def test_a_store_refuses_another_run(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "run.sqlite"
    with TuneStore(path) as store:
        tune(_config(budget=32), store=store, workers=0)
    with TuneStore(path) as store, pytest.raises(TuneError, match=r"holds another tuning run: .*depth"):
        tune(_config(budget=32, depth=2), store=store, workers=0)
    bad = tmp_path / "not.sqlite"
    bad.write_text("this is not a database" * 100)
    with pytest.raises(TuneError, match="cannot use"):
        TuneStore(bad)
    assert sqlite3.connect(path).execute("SELECT count(*) FROM candidates").fetchone()[0] == 4


def test_games_on_a_dask_cluster_give_the_same_run(dask_scheduler: str) -> None:
    config = _config(budget=64)
    assert tune(config, scheduler=dask_scheduler).candidates == tune(config, workers=0).candidates


def test_games_on_local_processes_give_the_same_run() -> None:
    config = _config(budget=32)
    assert tune(config, workers=2).candidates == tune(config, workers=0).candidates


@pytest.mark.parametrize(("budget", "rounds"), [(120, [4, 4, 4, 3]), (111, [4, 4, 4]), (17, [2])])
def test_the_budget_is_a_hard_bound_a_round_is_cut_to_what_fits(budget: int, rounds: list[int]) -> None:
    """Rounds of 4 candidates x 8 games, cut to what the budget leaves; cma learns from 2 candidates
    at least, so a round with room for fewer (111: 15 games left, 1 candidate) is not started."""
    result = tune(_config(budget=budget), workers=0)
    sizes = [sum(1 for c in result.candidates if c.round == r) for r in range(result.rounds)]
    assert result.games <= budget and result.games == 8 * sum(sizes)
    assert sizes == rounds
