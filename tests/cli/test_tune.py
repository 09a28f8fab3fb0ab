"""``c4 tune``: files it writes, one-line errors, resuming after Ctrl-C or SIGKILL, the verdict."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from tests.conftest import REPO, kill_mid_run, run_c4, stored_game_rows, stored_games

import c4engine.cli.tune as tune_command
from c4engine.cli.main import main
from c4engine.experiments.tuning import TuneResult, reference_weights
from c4engine.search.engine.evaluators import DEFAULT_WEIGHTS
from c4engine.search.engine.weights import load_weights

# 5x4 connect 3 at depth 1: a game takes about a millisecond
TINY = [
    "tune",
    "--size", "5x4", "--connect", "3", "--depth", "1", "--openings", "2",
    "--popsize", "4", "--pool", "start,hand", "--workers", "0",
]  # fmt: skip


def test_tune_writes_weights_start_curve_and_validates(tmp_path: Path) -> None:
    out = tmp_path / "tuned.json"
    result = run_c4(
        *TINY, "--start", "bad", "--games-budget", "100", "--validate", "20",
        "--db", str(tmp_path / "t.sqlite"), "--out", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "cma: 96 games in 3 rounds (budget 100)" in result.stdout
    assert "validation, tuned against start at depth 1:" in result.stdout and "Elo" in result.stdout
    weights, metadata = load_weights(out)
    assert weights.connect == 3
    assert metadata["board"] == "5x4" and metadata["connect"] == 3 and metadata["depth"] == 1
    assert metadata["method"] == "cma" and metadata["budget"] == 100 and metadata["games"] == 96
    assert metadata["pool"] == ["start", "hand"]
    assert metadata["start"] == {"own": [1.0, 1.0], "opponent": [-1.0, -1.0], "center": -3.0}
    validation = metadata["validation"]
    assert validation["games"] == 20 and validation["wins"] + validation["draws"] + validation["losses"] == 20
    assert validation["low"] <= validation["elo"] <= validation["high"]
    start, start_metadata = load_weights(tmp_path / "tuned-start.json")
    assert start.to_dict() == metadata["start"] and start_metadata["depth"] == 1
    svg = ET.fromstring((tmp_path / "tuned-curve.svg").read_text())
    assert len(svg.findall("{http://www.w3.org/2000/svg}polyline")) == 2
    # the tuned file is a player: weights:FILE and FILE.json
    played = run_c4("match", f"weights:{out}", str(tmp_path / "tuned-start.json"), "--games", "2",
                    "--size", "5x4", "--connect", "3", "--no-db", "--workers", "0")  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert "A wins" in played.stdout


def test_tune_resumes_after_sigkill_and_ends_like_an_unbroken_run(tmp_path: Path) -> None:
    args = [*TINY, "--start", "bad", "--games-budget", "200", "--validate", "0"]
    unbroken = run_c4(*args, "--db", str(tmp_path / "a.sqlite"), "--out", str(tmp_path / "a.json"))
    assert unbroken.returncode == 0, unbroken.stderr
    assert "192 games in 6 rounds" in unbroken.stdout  # rounds of 4 candidates x 8 games
    assert "not validated (--validate 0): nothing shows the tuned weights better" in unbroken.stdout

    db, out = tmp_path / "b.sqlite", tmp_path / "b.json"
    played = kill_mid_run([*args, "--db", str(db), "--out", str(out)], db, at_least=60, total=192)
    assert 60 <= played < 192, f"the kill never came mid-run: {played} games"
    assert not out.exists()

    resumed = run_c4(*args, "--db", str(db), "--out", str(out))
    assert resumed.returncode == 0, resumed.stderr
    assert "192 games in 6 rounds" in resumed.stdout
    assert stored_games(db) == 192
    first, second = json.loads((tmp_path / "a.json").read_text()), json.loads(out.read_text())
    for data in (first, second):
        del data["metadata"]["date"]
    assert first == second
    # run again: nothing left to play, same answer
    again = run_c4(*args, "--db", str(db), "--out", str(out))
    assert again.returncode == 0 and stored_games(db) == 192
    assert resumed.stdout.splitlines()[0].startswith(f"resumed from {played} games")
    assert again.stdout.splitlines()[0].startswith("resumed from 192 games")
    assert resumed.stdout.splitlines()[1:4] == again.stdout.splitlines()[1:4]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--start", "nonsense"], "unknown weights 'nonsense'"),
        (["--start", "missing.json"], "cannot read weights file missing.json: no such file"),
        (["--pool", "start,gone.json"], "cannot read weights file gone.json"),
        (["--start", "FOUR"], "weights with 3 per side are for connect 4, not connect 3"),
        (["--games-budget", "0"], "--games-budget must be 1..1000000000 games"),
        (["--workers", "-1"], "argument --workers: must be 0 (work in this process) or more, not -1"),
        (["--validate", "-1"], "--validate must be 0 or more"),
        (["--sigma", "2"], "sigma is a step"),
        (["--method", "grid"], "invalid choice"),
    ],
)
def test_bad_tune_options_are_one_line_errors(tmp_path: Path, extra: list[str], message: str) -> None:
    four = tmp_path / "four.json"
    DEFAULT_WEIGHTS.save(four)
    extra = [str(four) if item == "FOUR" else item for item in extra]
    result = run_c4(*TINY, *extra, "--db", str(tmp_path / "t.sqlite"), "--out", str(tmp_path / "t.json"))
    assert result.returncode == 2
    assert message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_a_database_of_another_run_is_refused(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite")
    first = run_c4(
        *TINY, "--games-budget", "32", "--validate", "0", "--db", db, "--out", str(tmp_path / "t.json")
    )
    assert first.returncode == 0, first.stderr
    other = run_c4(
        *TINY, "--games-budget", "32", "--seed", "9", "--db", db, "--out", str(tmp_path / "t.json")
    )
    assert other.returncode == 2
    assert "holds another tuning run: seed 0 (asked 9)" in other.stderr


def test_a_games_budget_of_100_stores_at_most_100_games(tmp_path: Path) -> None:
    # the default run's smallest round (4 cma candidates x 48 games) does not fit: refused, nothing played
    refused = run_c4("tune", "--games-budget", "100", "--workers", "0", cwd=tmp_path)
    assert refused.returncode == 2 and "needs at least 192 games" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1 and len(refused.stderr) < 200
    assert list(tmp_path.glob("*.sqlite")) == []
    # annealing's rounds of one candidate (48 games) fit twice
    args = ["tune", "--method", "anneal", "--depth", "1", "--games-budget", "100", "--validate", "0"]
    played = run_c4(*args, "--workers", "0", cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert "anneal: 96 games in 2 rounds (budget 100)" in played.stdout
    (db,) = tmp_path.glob("tune-*.sqlite")
    assert stored_games(db) == 96


def test_two_different_runs_in_a_row_get_their_own_checkpoints(tmp_path: Path) -> None:
    common = [*TINY, "--games-budget", "32", "--validate", "0"]
    first = run_c4(*common, "--start", "bad", cwd=tmp_path)
    second = run_c4(*common, "--method", "anneal", cwd=tmp_path)
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert len(list(tmp_path.glob("tune-*.sqlite"))) == 2
    again = run_c4(*common, "--start", "bad", cwd=tmp_path)  # the same command finds its run
    assert again.returncode == 0 and len(list(tmp_path.glob("tune-*.sqlite"))) == 2


def test_another_run_in_a_named_database_is_refused_in_one_short_line(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite")
    assert run_c4(*TINY, "--games-budget", "32", "--validate", "0", "--db", db, cwd=tmp_path).returncode == 0
    other = run_c4(*TINY, "--start", "areas", "--pool", "start,flat", "--db", db, cwd=tmp_path)
    assert other.returncode == 2
    (line,) = other.stderr.strip().splitlines()
    assert "holds another tuning run: start differs, pool differs" in line and len(line) < 200


CTRL_C_AT = """
import os, signal, sys
from c4engine.cli.main import main
from c4engine.experiments.match import MatchStore
from c4engine.experiments.tuning import TuneStore

where, count = sys.argv[1].split(":")
store, method = (TuneStore, "add_pair") if where == "tune" else (MatchStore, "add")
stop_at, add = int(count), getattr(store, method)


def add_then_ctrl_c(self, *stored):
    add(self, *stored)
    if self._db.execute("SELECT count(*) FROM games").fetchone()[0] == stop_at:
        os.killpg(os.getpgid(0), signal.SIGINT)  # Ctrl-C on a terminal: SIGINT to the process group


setattr(store, method, add_then_ctrl_c)
sys.exit(main(sys.argv[2:]))
"""


def _beside_progress(stderr: str) -> list[str]:
    """``stderr``'s lines but the progress line's plain ones (``c4: tune ...``, ``c4: validation: ...``),
    which a run without a terminal writes once it has taken a second."""
    return [line for line in stderr.splitlines() if not line.startswith(("c4: tune", "c4: validation"))]


def _c4(*args: str, hash_seed: int, ctrl_c_at: str | None = None) -> subprocess.CompletedProcess[str]:
    """``c4 ARGS`` in a fresh interpreter with its own string hash; Ctrl-C once the tuning
    (``ctrl_c_at`` "tune:N") or the validation ("validation:N") has stored N games.  In its own
    process group: the Ctrl-C reaches its workers as on a terminal."""
    env = dict(os.environ, NO_COLOR="1", PYTHONHASHSEED=str(hash_seed))
    command = [sys.executable, "-m", "c4engine", *args]
    if ctrl_c_at is not None:
        command = [sys.executable, "-c", CTRL_C_AT, ctrl_c_at, *args]
    return subprocess.run(
        command, capture_output=True, text=True, timeout=300, env=env, start_new_session=True
    )


def test_tune_stopped_at_three_points_and_in_validation_ends_with_the_games_weights_elo_of_an_unbroken_run(
    tmp_path: Path,
) -> None:
    """Ctrl-C in the first round, at the end of the second round's games (before cma learns them),
    in the last round, which the budget cuts to 3 candidates, and in the validation match; each part
    in its own process with another string hash (a pickled cma learnt other points in another
    process) and worker count."""
    args = [*TINY, "--start", "bad", "--games-budget", "120", "--validate", "20"]
    unbroken = _c4(*args, "--db", str(tmp_path / "a.sqlite"), "--out", str(tmp_path / "a.json"), hash_seed=1)
    assert unbroken.returncode == 0, unbroken.stderr
    assert "cma: 120 games in 4 rounds (budget 120)" in unbroken.stdout  # 4 + 4 + 4 + 3 candidates x 8
    assert (
        "resumed" not in unbroken.stdout and _beside_progress(unbroken.stderr) == []
    )  # cma's warning of the cut round

    db, out = tmp_path / "b.sqlite", tmp_path / "b.json"
    mine = [*args, "--db", str(db), "--out", str(out)]
    for before, stop_at, workers, hash_seed in ((0, 10, "0", 2), (10, 64, "2", 3), (64, 116, "1", 4)):
        stopped = _c4(*mine, "--workers", workers, hash_seed=hash_seed, ctrl_c_at=f"tune:{stop_at}")
        assert stopped.returncode == 130, stopped.stderr
        assert f"c4 tune: interrupted; the finished games are kept in {db}" in stopped.stderr
        assert stored_games(db) == stop_at and not out.exists()
        assert ("resumed" in stopped.stdout) == (before > 0)
        if before:
            assert stopped.stdout.startswith(f"resumed from {before} games stored in {db}\n")
    validating = _c4(*mine, "--workers", "2", hash_seed=5, ctrl_c_at="validation:8")
    assert validating.returncode == 130, validating.stderr
    assert validating.stdout.startswith(f"resumed from 116 games stored in {db}\n")
    (validation_db,) = tmp_path.glob("b-validation-*.sqlite")
    assert stored_games(db) == 120 and stored_games(validation_db) == 8

    resumed = _c4(*mine, hash_seed=6)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.startswith(f"resumed from 120 games stored in {db}\n")
    assert _beside_progress(resumed.stderr) == []  # no warning of cma's, nor of anyone's
    assert stored_games(validation_db) == 20

    assert stored_game_rows(db) == stored_game_rows(tmp_path / "a.sqlite")
    first, second = json.loads((tmp_path / "a.json").read_text()), json.loads(out.read_text())
    for data in (first, second):
        del data["metadata"]["date"]
    assert first == second  # the weights and the validation: wins, draws, losses, Elo
    validations = [[line for line in run.stdout.splitlines() if "Elo" in line] for run in (unbroken, resumed)]
    assert validations[0] and validations[0] == validations[1]  # the same Elo


def test_a_validation_that_finds_the_result_worse_says_so_and_names_the_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run that ends at worse weights than its start (made so: the run's answer is replaced by
    the deliberately bad weights, the start is the default) is called worse, the start named."""
    real_tune = tune_command.tune

    def tune_to_bad_weights(config, **options):  # type: ignore[no-untyped-def]
        result = real_tune(config, **options)
        bad = config.space.values(reference_weights("bad", config.connect))
        return TuneResult(result.config, bad, result.candidates, result.games, result.rounds)

    monkeypatch.setattr(tune_command, "tune", tune_to_bad_weights)
    out = tmp_path / "t.json"
    status = main(
        [*TINY, "--start", "default", "--games-budget", "32", "--validate", "40",
         "--db", str(tmp_path / "t.sqlite"), "--out", str(out)]
    )  # fmt: skip
    assert status == 0
    lines = capsys.readouterr().out.splitlines()
    start = tmp_path / "t-start.json"
    assert (
        f"the tuned weights are WORSE than the start: keep the start, saved in {start} "
        f"(--weights {start}), not {out}" in lines
    )
    assert load_weights(out)[1]["validation"]["verdict"] == "worse"
    assert load_weights(start)[0] == reference_weights("default", 3)


def test_the_readme_s_tuning_examples_write_files_of_their_own() -> None:
    commands = [
        line.split("#")[0].split()
        for line in (REPO / "README.md").read_text().splitlines()
        if line.startswith("c4 tune ")
    ]
    outs = [command[command.index("--out") + 1] for command in commands if "--out" in command]
    assert len(commands) >= 2 and len(outs) == len(commands)
    assert len(set(outs)) == len(outs)
