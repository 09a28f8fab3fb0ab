"""Matches between two players: paired openings, W/D/L, Elo, games kept in SQLite.

A match is described by a :class:`MatchConfig`: two player specs (anything
:func:`c4engine.play.players.parse_agent` reads: ``random``, a level number,
``package.module:function`` ...), the number of games, a seed and the
number of random opening plies.  Games come in *pairs*: game ``2p`` and game
``2p + 1`` start from the same seeded random opening of ``random_plies``
moves, with the colours swapped, so a lopsided opening favours each player
once (this removes most of the noise the openings add).  Player A moves
first from the opening in even games, player B in odd games.

Every game is a pure function of the config and its index
(:func:`play_game`): the players are made afresh for each game with seeds
derived from the match seed, so the games can run in any order, on any
worker, and a match that is stopped and resumed ends with the same games as
one that ran without a break.  :class:`MatchStore` keeps the parameters and
every finished game (moves, result, time per move) in SQLite;
:func:`play_match` skips the games the store already holds.

External players (``module:NAME``) run in a process of their own
(:mod:`c4engine.play.hosted`): one that takes more than the match's
``move_timeout`` seconds for a move loses that game *on time* (the game's
``reason``), and the match goes on.

The strength difference is an Elo difference with a 95 % interval
(:func:`c4engine.experiments.elo.elo_difference`).

>>> config = MatchConfig("random", "random", games=4, seed=3, random_plies=2)
>>> [game.index for game in play_match(config, workers=0).games]
[0, 1, 2, 3]
>>> play_game(config, 0).moves == play_game(config, 0).moves   # a function of (config, index)
True
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import sqlite3
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from c4engine.board import Board
from c4engine.errors import C4Error, MatchError, MoveTimeoutError, PlayerFailedError, echo_path
from c4engine.experiments.elo import EloEstimate, elo_difference
from c4engine.jobs import WorkerDiedError, run_jobs
from c4engine.notation import format_moves, parse_moves
from c4engine.play.hosted import DEFAULT_MOVE_TIMEOUT, HostedPlayer, stop_hosts
from c4engine.play.perfect import PerfectPlayer, check_perfect_board
from c4engine.play.players import Agent, is_external, parse_agent
from c4engine.player import Player
from c4engine.store import SQLiteStore, identity_table, utc_now

__all__ = [
    "ON_TIME",
    "GameOutcome",
    "MatchConfig",
    "MatchStore",
    "MatchSummary",
    "check_players",
    "opening",
    "play_game",
    "play_match",
    "read_match",
]

# ------------------------------------------------------------- one game


@dataclass(frozen=True)
class MatchConfig:
    """What is played: players ``a`` and ``b`` (specs), how many games, seed, openings, board.

    Everything but ``games`` and ``move_timeout`` identifies the match: a
    store refuses to resume a match with other parameters, but ``games`` may
    grow (play more games of the same match) or shrink (summarise the first
    ``games``).  ``move_timeout`` is the wall-clock seconds an external
    player may take for a move (a guard against a player that hangs, not a
    time control of the match: built-in players keep to their own limits).
    """

    a: str
    b: str
    games: int
    seed: int = 0
    random_plies: int = 4
    width: int = 7
    height: int = 6
    connect: int = 4
    move_timeout: float = DEFAULT_MOVE_TIMEOUT

    def __post_init__(self) -> None:
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1:
            raise MatchError(f"the number of games must be at least 1, not {self.games!r}")
        if not 0 < self.move_timeout < math.inf:
            raise MatchError(f"the move timeout must be a number of seconds above 0, not {self.move_timeout}")
        if self.random_plies < 0:
            raise MatchError(f"random plies must be 0 or more, not {self.random_plies}")
        board = Board(self.width, self.height, self.connect)  # checks the size
        if self.random_plies >= board.width * board.height - 1:
            raise MatchError(f"{self.random_plies} random plies do not leave a game on a {board.size} board")

    def parameters(self) -> dict[str, Any]:
        """The parameters that identify the match (all but ``games`` and ``move_timeout``)."""
        values = asdict(self)
        del values["games"], values["move_timeout"]
        return values

    def board(self) -> Board:
        return Board(self.width, self.height, self.connect)


def _derived_seed(*parts: object) -> int:
    """A 63-bit seed from the parts (stable across runs and Python versions)."""
    digest = hashlib.sha256(":".join(str(part) for part in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def opening(config: MatchConfig, pair: int) -> tuple[int, ...]:
    """The random opening of game pair ``pair``: ``random_plies`` moves, seeded.

    An opening never ends the game and never leaves the side to move an
    immediate win (so neither colour is handed the game by the dice).

    >>> config = MatchConfig("random", "random", games=2, seed=1, random_plies=4)
    >>> opening(config, 0) == opening(config, 0) and len(opening(config, 0)) == 4
    True
    """
    rng = random.Random(_derived_seed("opening", config.seed, pair))
    for _attempt in range(1000):
        board = config.board()
        for _ply in range(config.random_plies):
            board.play(rng.choice(board.legal_moves()))
            if board.is_over:
                break
        if not board.is_over and not board.winning_columns():
            return board.moves
    raise MatchError(f"found no opening of {config.random_plies} plies that leaves a game to play")


@dataclass(frozen=True)
class GameOutcome:
    """One finished game of a match.

    ``moves`` are all moves (0-based columns), the opening's first (the
    store writes them in the usual notation, 1-based: ``"4453..."``);
    ``times`` the CPU seconds (of the process playing the game) each
    player took for each move after the opening -- CPU time, not wall time,
    so that a busy machine does not inflate them;
    ``score`` is player A's: 1 win, 0.5 draw, 0 loss; ``reason`` says how a
    game that did not end on the board ended (:data:`ON_TIME`: the loser
    took too long for a move), else None.
    """

    index: int
    a_first: bool
    opening_plies: int
    moves: tuple[int, ...]
    score: float
    times: tuple[float, ...]
    reason: str | None = None

    def move_string(self, width: int = 7) -> str:
        return format_moves(self.moves, width)

    def times_of(self, a: bool) -> list[float]:
        """The move times of player A (``a=True``) or B."""
        first_mover_is_a = self.a_first
        result = []
        for ply, seconds in enumerate(self.times, start=self.opening_plies):
            mover_is_first = ply % 2 == 0
            if (mover_is_first == first_mover_is_a) == a:
                result.append(seconds)
        return result


ON_TIME = "time"
"""A game's ``reason`` when the loser took longer than the move timeout."""


def _make_agent(spec: str, seed: int, move_timeout: float | None = None) -> Agent:
    """The player ``spec``; with ``move_timeout``, an external one runs in its own process."""
    if move_timeout is not None and is_external(spec):
        return HostedPlayer(spec, seed=seed, move_timeout=move_timeout)
    agent = parse_agent(spec, seed=seed)
    if agent.is_human:
        raise MatchError(f"a match needs two computer players, not {spec!r}")
    return agent


_WARM: set[tuple[str, int, int, int]] = set()


def _choose(agent: Agent, who: str, board: Board, index: int) -> object:
    """``agent``'s move in ``board``; whatever it raises ends the match as one :class:`MatchError`.

    The message names the player (``who``), the game and the exception, so an
    external player's bug reads as one line, not a traceback from a worker.
    A move that takes too long is raised as it is: the game, not the match, ends.
    """
    try:
        return agent.choose_move(board.copy())
    except MoveTimeoutError:
        raise
    except Exception as error:
        reason = (str(error).strip().splitlines() or [""])[0][:200]
        if not isinstance(error, PlayerFailedError):  # whose message already names the error
            reason = f"{type(error).__name__}: {reason}"
        raise MatchError(
            f"player {who} failed in game {index} at position {board.move_string or '(empty)'}: {reason}"
        ) from None


def _warm_up(spec: str, who: str, config: MatchConfig, index: int) -> None:
    """Let a player make untimed moves once per process, so that loading compiled code is not timed.

    The empty board is not enough: engines answer it without searching.
    """
    key = (spec, config.width, config.height, config.connect)
    if key not in _WARM:
        _WARM.add(key)
        agent, board = _make_agent(spec, 0, config.move_timeout), config.board()
        for _ in range(3):
            if board.is_over:
                break
            try:
                column = _choose(agent, who, board, index)
            except MoveTimeoutError:
                break  # the game itself scores it
            if not isinstance(column, int) or not board.can_play(column):
                break  # the game itself reports it
            board.play(column)


def _illegal(column: object, board: Board) -> str | None:
    """Why ``column`` (a player's answer, 0-based) is not a legal move here, 1-based; None if it is.

    >>> _illegal(0, Board.from_moves("111111"))
    'column 1 is full'
    >>> _illegal(7, Board())
    'it returned 7, not a column of a 7-wide board (0..6)'
    >>> _illegal("4", Board())
    "'4' is not a column number (a player returns 0..width-1)"
    """
    if not isinstance(column, int) or isinstance(column, bool):
        return f"{repr(column)[:40]} is not a column number (a player returns 0..width-1)"
    if not 0 <= column < board.width:
        return f"it returned {column}, not a column of a {board.width}-wide board (0..{board.width - 1})"
    if not board.can_play(column):
        return f"column {column + 1} is full"
    return None


def play_game(config: MatchConfig, index: int) -> GameOutcome:
    """Play game ``index`` of the match (a module-level function: it runs on workers).

    >>> config = MatchConfig("1", "random", games=2, seed=5, random_plies=2)
    >>> outcome = play_game(config, 1)
    >>> outcome.a_first, outcome.moves[:2] == play_game(config, 0).moves[:2]
    (False, True)
    """
    who_a, who_b = f"A ({config.a})", f"B ({config.b})"
    _warm_up(config.a, who_a, config, index)
    _warm_up(config.b, who_b, config, index)
    agent_a = _make_agent(config.a, _derived_seed("player", config.seed, index, "a"), config.move_timeout)
    agent_b = _make_agent(config.b, _derived_seed("player", config.seed, index, "b"), config.move_timeout)
    a_first = index % 2 == 0
    first, second = ((agent_a, who_a), (agent_b, who_b)) if a_first else ((agent_b, who_b), (agent_a, who_a))
    opened = opening(config, index // 2)
    board = Board.from_moves(opened, config.width, config.height, config.connect)
    a_player = Player.FIRST if a_first else Player.SECOND
    times: list[float] = []
    while not board.is_over:
        agent, who = first if board.turn is Player.FIRST else second
        started = time.process_time()
        try:
            column = _choose(agent, who, board, index)
        except MoveTimeoutError:  # the mover loses on time
            score = 0.0 if board.turn is a_player else 1.0
            return GameOutcome(index, a_first, len(opened), board.moves, score, tuple(times), ON_TIME)
        # a hosted player's own process measured its CPU time; this one only waited
        times.append(agent.last_cpu if isinstance(agent, HostedPlayer) else time.process_time() - started)
        why = _illegal(column, board)
        if why is not None:
            raise MatchError(
                f"player {who} made an illegal move in game {index}: {why} "
                f"(moves so far: {board.move_string or 'none'})"
            )
        assert isinstance(column, int)
        board.play(column)
    score = 0.5 if board.winner is None else 1.0 if board.winner is a_player else 0.0
    return GameOutcome(index, a_first, len(opened), board.moves, score, tuple(times))


# ---------------------------------------------------------------- store


class MatchStore(SQLiteStore):
    """A match's parameters and finished games in SQLite (``":memory:"`` keeps them in memory).

    One store holds one match.  :meth:`start` records the parameters, or
    checks them against those already stored (a different match is a
    :class:`MatchError`); :meth:`add` commits a game at once, so a killed
    run loses only the games being played.

    >>> store = MatchStore(":memory:")
    >>> config = MatchConfig("random", "1", games=2, random_plies=0)
    >>> store.start(config)
    >>> store.add(play_game(config, 0)); sorted(store.games())
    [0]
    """

    error = MatchError
    description = "a match database"
    run = "match"
    remedy = "use another database"

    def __init__(self, path: str | Path) -> None:
        super().__init__(
            path,
            identity_table("match", "games INTEGER NOT NULL")
            + """
            CREATE TABLE IF NOT EXISTS games (
                game INTEGER PRIMARY KEY,
                a_first INTEGER NOT NULL,
                opening_plies INTEGER NOT NULL,
                moves TEXT NOT NULL,
                score REAL NOT NULL,
                times TEXT NOT NULL,
                finished TEXT NOT NULL,
                reason TEXT
            );
            """,
        )
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        if "reason" not in columns:  # a match stored before games could be lost on time
            with self._db:
                self._db.execute("ALTER TABLE games ADD COLUMN reason TEXT")

    def start(self, config: MatchConfig) -> None:
        """Record ``config``, or check that the stored match has the same parameters."""
        if not self.identify("match", config.parameters(), games=config.games):
            with self._db:
                self._db.execute("UPDATE match SET games = max(games, ?) WHERE id = 1", (config.games,))

    def config(self) -> MatchConfig | None:
        """The stored match (with the largest number of games asked so far), if any."""
        row = self._db.execute("SELECT parameters, games FROM match WHERE id = 1").fetchone()
        return None if row is None else MatchConfig(games=row[1], **json.loads(row[0]))

    def add(self, outcome: GameOutcome) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO games (game, a_first, opening_plies, moves, score, times, finished, "
            "reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                outcome.index,
                int(outcome.a_first),
                outcome.opening_plies,
                format_moves(outcome.moves, self._width()),
                outcome.score,
                json.dumps([round(seconds, 6) for seconds in outcome.times]),
                utc_now(),
                outcome.reason,
            ),
        )
        self._db.commit()

    def games(self) -> dict[int, GameOutcome]:
        """The finished games by index."""
        width = self._width()
        rows = self._db.execute("SELECT game, a_first, opening_plies, moves, score, times, reason FROM games")
        return {
            row[0]: GameOutcome(
                row[0],
                bool(row[1]),
                row[2],
                tuple(parse_moves(row[3], width)),
                row[4],
                tuple(json.loads(row[5])),
                row[6],
            )
            for row in rows
        }

    def _width(self) -> int:
        config = self.config()
        if config is None:
            raise MatchError(f"{self.path} holds no match yet (start it first)")
        return config.width


def read_match(path: Path, error: type[C4Error] = C4Error) -> tuple[MatchConfig, dict[int, GameOutcome]]:
    """The match stored in ``path`` and its finished games by index, for a command reading a
    ``c4 match`` database; a file holding no match, or no database, raises ``error`` naming it."""
    try:
        with MatchStore(path) as store:
            config = store.config()
            if config is None:
                raise error(f"{echo_path(path)} holds no match")
            return config, store.games()
    except sqlite3.DatabaseError as failure:
        raise error(f"cannot read {echo_path(path)} as a match database: {failure}") from None


# ---------------------------------------------------------------- match


@dataclass(frozen=True)
class TimeStats:
    """CPU seconds per move of one player: count, mean, median, 95th percentile, max."""

    moves: int
    mean: float
    median: float
    p95: float
    max: float

    @classmethod
    def of(cls, seconds: Sequence[float]) -> TimeStats:
        if not seconds:
            return cls(0, 0.0, 0.0, 0.0, 0.0)
        ordered = sorted(seconds)
        p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
        return cls(len(ordered), statistics.fmean(ordered), statistics.median(ordered), p95, ordered[-1])

    def __str__(self) -> str:
        if not self.moves:
            return "no moves"
        return (
            f"{self.moves} moves, mean {_ms(self.mean)}, median {_ms(self.median)}, "
            f"p95 {_ms(self.p95)}, max {_ms(self.max)}"
        )


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.3g} ms" if seconds < 1 else f"{seconds:.2f} s"


@dataclass(frozen=True)
class MatchSummary:
    """The games of a match (by index) and what they add up to, from player A's side."""

    config: MatchConfig
    games: tuple[GameOutcome, ...] = field(default=())

    @property
    def wins(self) -> int:
        return sum(1 for game in self.games if game.score == 1.0)

    @property
    def draws(self) -> int:
        return sum(1 for game in self.games if game.score == 0.5)

    @property
    def losses(self) -> int:
        return sum(1 for game in self.games if game.score == 0.0)

    def elo(self, confidence: float = 0.95) -> EloEstimate:
        """Elo of A minus Elo of B."""
        return elo_difference(self.wins, self.draws, self.losses, confidence)

    def times(self, a: bool) -> TimeStats:
        return TimeStats.of([seconds for game in self.games for seconds in game.times_of(a)])

    def lost_on_time(self, a: bool) -> int:
        """How many games player A (``a=True``) or B lost by taking too long for a move."""
        lost = 0.0 if a else 1.0
        return sum(1 for game in self.games if game.reason == ON_TIME and game.score == lost)

    def report(self) -> str:
        """The summary ``c4 match`` prints."""
        config = self.config
        played = len(self.games)
        score = f"{self.elo().score:.1%}" if played else "-"
        lines = [
            f"A = {config.a}, B = {config.b}: {played} games on {config.width}x{config.height} "
            f"connect {config.connect}, seed {config.seed}, {config.random_plies} random opening plies",
            f"A wins {self.wins}, draws {self.draws}, B wins {self.losses} (A scores {score})",
            f"Elo A - B: {self.elo()}",
            f"A's CPU time per move: {self.times(True)}",
            f"B's CPU time per move: {self.times(False)}",
        ]
        if any(game.reason == ON_TIME for game in self.games):
            lines.insert(
                2,
                f"lost on time (no move within {config.move_timeout:g} s): "
                f"A {self.lost_on_time(True)}, B {self.lost_on_time(False)}",
            )
        return "\n".join(lines)


def check_players(config: MatchConfig) -> None:
    """Make both players once, so a bad spec fails here with its message, not on a worker.

    The perfect player is refused on boards its solver cannot hold: there it
    would fall back to estimates, a minute a move, and its games prove nothing.
    """
    for spec in (config.a, config.b):
        agent = _make_agent(spec, 0)
        if isinstance(agent, PerfectPlayer):
            check_perfect_board(config.width, config.height, spec)


def play_match(
    config: MatchConfig,
    *,
    store: MatchStore | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    on_game: Callable[[GameOutcome], None] | None = None,
) -> MatchSummary:
    """Play the games of ``config`` that ``store`` does not hold yet, and summarise games 0..games-1.

    Games run by :func:`c4engine.jobs.run_jobs`: ``workers=0`` plays them
    one after the other in this process, ``workers=N`` on N local processes
    (default one per CPU), ``scheduler`` on that Dask cluster.  Each
    finished game goes into ``store`` at once and to ``on_game`` (a progress bar).
    """
    check_players(config)
    if store is not None:
        store.start(config)
        done = {index: game for index, game in store.games().items() if index < config.games}
    else:
        done = {}
    todo = [index for index in range(config.games) if index not in done]

    def finish(outcome: GameOutcome) -> None:
        done[outcome.index] = outcome
        if store is not None:
            store.add(outcome)
        if on_game is not None:
            on_game(outcome)

    try:
        for _index, outcome in run_jobs(partial(play_game, config), todo, workers, scheduler):
            finish(outcome)
    except WorkerDiedError as error:
        raise MatchError(
            f"the worker process playing game {todo[error.index]} died (a player that exits "
            "the process or crashes the interpreter?)"
        ) from None
    finally:
        stop_hosts()  # those of the games played in this process (workers stop their own)
    return MatchSummary(config, tuple(done[index] for index in sorted(done)))
