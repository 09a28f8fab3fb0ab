"""Players: whoever chooses the moves of one side.

An :class:`Agent` is anything with a ``name``, an ``is_human`` flag and a
``choose_move(board) -> column`` method.  Humans' moves come from the
front-end (it calls :meth:`c4engine.play.game.Game.play`), so a
:class:`HumanPlayer` is only a name; computers choose their own.

>>> from c4engine.board import Board
>>> RandomPlayer(seed=1).choose_move(Board()) in range(7)
True
>>> EnginePlayer(level=4).name
'computer, level 4 club'
>>> parse_agent("human").is_human
True
"""

from __future__ import annotations

import importlib
import inspect
import random
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Literal, Protocol, TypeVar, runtime_checkable

from c4engine.board import Board
from c4engine.errors import GameOverError, LevelError, PlayerSpecError, echo
from c4engine.play import levels
from c4engine.play.levels import DEFAULT_LEVEL, Level
from c4engine.play.perfect import PerfectPlayer
from c4engine.search.analysis.analyst import Analyst, shared_analyst
from c4engine.search.engine.evaluators import Evaluator, WindowsEvaluator, areas, evaluator_by_name
from c4engine.search.engine.negamax import Engine
from c4engine.search.engine.weights import load_weights
from c4engine.search.limit import Limit
from c4engine.search.progress import Hook, Progress
from c4engine.search.results import PlayResult

__all__ = [
    "COMPUTER_FORMS",
    "LEVEL_CHOICES",
    "PERFECT",
    "RANDOM",
    "Agent",
    "AnalystPlayer",
    "CallableAgent",
    "EnginePlayer",
    "HumanPlayer",
    "PerfectPlayer",
    "RandomPlayer",
    "describe_error",
    "engine_with_weights",
    "is_external",
    "load_external_agent",
    "parse_agent",
    "weights_player",
]

PERFECT: Literal["perfect"] = "perfect"
"""The perfect player's name wherever a level is asked for (``parse_agent``, ``--level perfect``)."""
RANDOM: Literal["random"] = "random"
"""The random player's name wherever a player is asked for."""

_Number = TypeVar("_Number", int, float)

LEVEL_CHOICES = f"{levels.LEVELS[0].number}..{levels.LEVELS[-1].number}, {RANDOM} or {PERFECT}"
"""Every computer a level names (``c4 move --level``): the numbered levels, random and perfect."""

COMPUTER_FORMS = (
    f"'{RANDOM}', a level 1..{len(levels.LEVELS)}, '{PERFECT}', engine settings key=value,... "
    "(level, depth, evaluator, noise, time, exact: e.g. 'depth=8,evaluator=areas'), "
    "'weights:FILE.json[@DEPTH]' (windows weights, e.g. from c4 tune), or an external player "
    "'module:NAME' (a function board -> column, a class, an Agent object, or 'NAME()' for a "
    "factory; the module may be in the current folder)"
)
"""Every way :func:`parse_agent` names a computer player, for help texts."""

SHORT_COMPUTER_FORMS = (
    f"{RANDOM}, a level 1..{len(levels.LEVELS)}, {PERFECT}, key=value settings, "
    "weights:FILE.json or module:NAME"
)
"""The same, short enough for an error message."""


@runtime_checkable
class Agent(Protocol):
    """What :class:`c4engine.play.game.Game` needs of a player."""

    name: str
    is_human: bool

    def choose_move(self, board: Board) -> int:
        """The 0-based column to play in ``board`` (which is not over)."""
        ...


class HumanPlayer:
    """A person: the front-end supplies the moves."""

    is_human = True

    def __init__(self, name: str = "human") -> None:
        self.name = name

    def choose_move(self, board: Board) -> int:
        raise NotImplementedError("a human's moves come from the front-end (Game.play)")

    def __repr__(self) -> str:
        return f"HumanPlayer({self.name!r})"


class RandomPlayer:
    """Plays a uniformly random legal move; ``seed`` makes it repeatable."""

    is_human = False

    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self.seed = seed
        self._random = random.Random(seed)

    def choose_move(self, board: Board) -> int:
        moves = board.legal_moves()
        if not moves:
            raise GameOverError("the game is over: there is no move to choose")
        return self._random.choice(moves)

    def __repr__(self) -> str:
        return f"RandomPlayer(seed={self.seed!r})"


class EnginePlayer:
    """The computer: a skill level, or its own limit and evaluator.

    ``level`` picks the limit (depth and time budget), evaluator, noise and
    ``exact`` from :mod:`c4engine.play.levels`; ``limit`` (a
    :class:`~c4engine.search.limit.Limit`), ``evaluator``, ``noise`` and
    ``exact`` replace them.  Given a ``limit`` and no ``level``, the player
    has no recipe: no noise, the ``windows`` evaluator.  The search deepens
    up to the limit's depth until its time (seconds of wall-clock time a
    move) or nodes run out.  With noise, the player sometimes plays a random
    move instead -- but never when it can win at once or must block (weak
    players still see those).

    ``exact`` (it needs a time limit): the player asks the analysis service
    (:meth:`c4engine.search.analysis.analyst.Analyst.solve`) with its whole limit,
    and the service splits it: the opening book's or the exact solver's
    move where one is proven in time (on the boards the solver holds, up to 128 bits), else the
    engine's with this player's evaluator in the time left.  The setting names the search asked
    first -- the book and the exact solver -- not a property of the move: whether a move is
    proven is its answer's ``proven`` (:attr:`last`), the one word for that; ``proven=1`` would
    promise a proof the time limit may not allow, so the setting keeps its name.
    :attr:`last` is how the last move was chosen (a
    :class:`~c4engine.search.results.PlayResult`: the engine's search, or
    the service's answer when ``exact``; ``None`` when the move was random).
    """

    is_human = False

    def __init__(
        self,
        level: int | None = None,
        *,
        limit: Limit | None = None,
        evaluator: Evaluator | str | None = None,
        noise: float | None = None,
        exact: bool | None = None,
        seed: int | None = None,
        poll: Hook | None = None,
        poll_interval: float = 0.05,
        name: str | None = None,
    ) -> None:
        recipe: Level | None = None
        if level is not None or limit is None:
            recipe = levels.level(DEFAULT_LEVEL if level is None else level)
        self.level = recipe
        chosen_evaluator = evaluator if evaluator is not None else (recipe.evaluator if recipe else "windows")
        if isinstance(chosen_evaluator, str):
            chosen_evaluator = evaluator_by_name(chosen_evaluator)
        self.noise = noise if noise is not None else (recipe.noise if recipe else 0.0)
        self._random = random.Random(seed)
        if limit is None:
            assert recipe is not None  # made above when no limit is given
            limit = recipe.limit
        self.engine = Engine(chosen_evaluator, limit, poll=poll, poll_interval=poll_interval)
        wants_exact = exact if exact is not None else (recipe is not None and recipe.exact)
        if wants_exact and limit.time is None:
            raise ValueError("an exact player needs a time limit: an unbounded solve may take minutes")
        self._exact = wants_exact
        self._analyst: Analyst | None = None
        self.last: PlayResult | None = None
        if recipe is not None and limit == recipe.limit:
            self.name = name or f"computer, level {recipe.number} {recipe.name}"
        else:
            self.name = name or f"computer, {_describe(limit)}"

    @property
    def limit(self) -> Limit:
        """What one move may cost: the engine's limit."""
        return self.engine.limit

    @property
    def exact(self) -> bool:
        """Whether the analysis service (book and solver first) chooses the move."""
        return self._exact

    @property
    def analyst(self) -> Analyst:
        """The analysis service an ``exact`` player asks, made on first use: the process's one
        solver (its table warm from move to move and game to game), the engine with this
        player's evaluator."""
        if self._analyst is None:
            shared = shared_analyst()
            evaluator = self.engine.evaluator
            own = evaluator is not areas  # the service's engine evaluates with areas
            self._analyst = shared.with_evaluator(evaluator) if own else shared
        return self._analyst

    def choose_move(self, board: Board) -> int:
        moves = board.legal_moves()
        if not moves:
            raise GameOverError("the game is over: there is no move to choose")
        self.last = None
        if self.noise and self._random.random() < self.noise and not self._forced(board):
            return self._random.choice(moves)
        if self._exact:
            return self._ask_analyst(board)
        self.last = self.engine.search(board)
        column = self.last.column
        assert column is not None  # the engine always chooses a column
        return column

    def _ask_analyst(self, board: Board) -> int:
        """The analysis service's move within this player's whole limit (it splits the limit)."""
        hook = self.engine.poll

        def poll(progress: Progress) -> bool | None:
            # the player's hook follows the engine's search (the one telling a depth), as when the
            # engine alone searches
            return hook(progress) if hook is not None and progress.depth is not None else None

        result = self.analyst.solve(board, self.limit, poll=poll)
        assert result.column is not None  # solve raises GameOverError on a finished game
        self.last = result
        return result.column

    @staticmethod
    def _forced(board: Board) -> bool:
        """Whether a win can be taken or a loss must be blocked right now."""
        return bool(board.winning_columns() or board.winning_columns(board.turn.other))

    def __repr__(self) -> str:
        return f"EnginePlayer(name={self.name!r})"


class AnalystPlayer:
    """The analysis service's best move within ``limit`` a move.

    Exact where the opening book or the solver proves it in time (the
    quickest win, else a draw, else the slowest loss), else the heuristic
    engine's choice in the time left (:meth:`c4engine.search.analysis.analyst.Analyst.solve`).
    :attr:`last` is the last move's :class:`~c4engine.search.results.PlayResult`.

    >>> from c4engine.board import Board
    >>> player = AnalystPlayer(Limit(time=1.0))
    >>> player.choose_move(Board()), player.last.source
    (3, 'book')
    """

    is_human = False

    def __init__(self, limit: Limit, *, name: str | None = None, analyst: Analyst | None = None) -> None:
        self.limit = limit
        self.name = name or f"computer, {_describe(limit)} a move"
        self.analyst = analyst or shared_analyst()
        self.last: PlayResult | None = None
        self.poll: Hook | None = None
        """Told the search's progress while a move is chosen (a front-end's live line)."""

    def choose_move(self, board: Board) -> int:
        result = self.analyst.solve(board, self.limit, poll=self.poll)
        assert result.column is not None  # solve raises GameOverError on a finished game
        self.last = result
        return result.column

    def __repr__(self) -> str:
        return f"AnalystPlayer({self.limit!r})"


def _describe(limit: Limit) -> str:
    """A limit in words, for a player's name.

    >>> _describe(Limit(time=1.5)), _describe(Limit(time=2, nodes=10_000))
    ('1.5 s', '2 s, 10000 nodes')
    """
    parts = [f"depth {limit.depth}"] if limit.depth is not None else []
    if limit.time is not None:
        parts.append(f"{limit.time:g} s")
    if limit.nodes is not None:
        parts.append(f"{limit.nodes} nodes")
    return ", ".join(parts) or "no limit"


class CallableAgent:
    """A computer player made of a function ``board -> column`` (0-based).

    The function gets a copy of the board, so it cannot disturb the game.

    >>> from c4engine.board import Board
    >>> CallableAgent(lambda board: board.legal_moves()[-1], "rightmost").choose_move(Board())
    6
    """

    is_human = False

    def __init__(self, function: Callable[[Board], int], name: str) -> None:
        self.function = function
        self.name = name

    def choose_move(self, board: Board) -> int:
        if board.is_over:
            raise GameOverError("the game is over: there is no move to choose")
        return self.function(board.copy())

    def __repr__(self) -> str:
        return f"CallableAgent({self.name!r})"


def _takes_seed(target: Callable[..., object]) -> bool:
    try:
        return "seed" in inspect.signature(target).parameters
    except (TypeError, ValueError):  # builtins without a signature
        return False


def describe_error(error: BaseException) -> str:
    """An exception in one line: its type, the file and line it was raised at, its first line.

    What a front-end shows for the error of a player's own code, instead of a
    traceback: the innermost frame is the code at fault (Python's import
    machinery is skipped).

    >>> try:
    ...     compile("def f(:", "bot.py", "exec")
    ... except SyntaxError as error:
    ...     describe_error(error)
    'SyntaxError in bot.py line 1: invalid syntax'
    """
    if isinstance(error, SyntaxError) and error.filename:
        where = f" in {Path(error.filename).name} line {error.lineno}"
        message = error.msg
    else:
        frames = [
            frame
            for frame in traceback.extract_tb(error.__traceback__)
            if not frame.filename.startswith("<frozen") and "importlib" not in Path(frame.filename).parts
        ]
        where = f" in {Path(frames[-1].filename).name} line {frames[-1].lineno}" if frames else ""
        message = str(error)
    first_line = (message.strip().splitlines() or [""])[0]
    return f"{type(error).__name__}{where}: {first_line[:120]}"


def is_external(spec: str) -> bool:
    """Whether ``spec`` names an external player, ``package.module:NAME`` (see :func:`parse_agent`).

    >>> is_external("mybot:choose"), is_external("weights:tuned.json"), is_external("5")
    (True, False, False)
    """
    return ":" in spec and not _is_weights(spec)


def _is_weights(spec: str) -> bool:
    text = spec.strip()
    return text.startswith(WEIGHTS_PREFIX) or text.lower().rstrip("@0123456789").endswith(".json")


def load_external_agent(spec: str, *, seed: int | None = None) -> Agent:
    """The player named by a Python path ``package.module:NAME`` (or ``...:NAME()``).

    ``NAME`` may be:

    * a class: it is called without arguments (with ``seed=`` if it takes a
      ``seed`` parameter: a match gives each game's players their own seeds)
      and must make an :class:`Agent`;
    * an object that already is an :class:`Agent` (has ``choose_move``);
    * a factory, written with ``()``: ``package.module:make_player()`` calls it
      like a class and must return an :class:`Agent`;
    * any other callable: a move function ``board -> column`` (0-based), called
      with a copy of the board (wrapped in a :class:`CallableAgent`).

    The module must be importable (on ``sys.path``; for a match's worker
    processes too).  Errors are :class:`PlayerSpecError` with the reason in
    one line -- for a module that fails to import or a class that fails to
    start, the module's own error (see :func:`describe_error`).

    >>> load_external_agent("c4engine.play.players:RandomPlayer", seed=2).seed   # takes seed=
    2
    >>> load_external_agent("c4engine.nowhere:f")
    Traceback (most recent call last):
    ...
    c4engine.errors.PlayerSpecError: cannot import module 'c4engine.nowhere' for player 'c4engine.nowhere:f'
    """
    module_name, _, attribute = spec.strip().partition(":")
    call = attribute.endswith("()")
    attribute = attribute.removesuffix("()")
    if not module_name or not attribute.isidentifier():
        raise PlayerSpecError(f"unknown player {echo(spec)}: an external player is 'package.module:NAME'")
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # the module's own code failed: a syntax error, a missing dependency...
        missing = getattr(error, "name", None) if isinstance(error, ModuleNotFoundError) else None
        if missing is not None and (module_name == missing or module_name.startswith(f"{missing}.")):
            raise PlayerSpecError(f"cannot import module {module_name!r} for player {echo(spec)}") from None
        raise PlayerSpecError(f"player {echo(spec)}: {describe_error(error)}") from None
    target = getattr(module, attribute, None)
    if target is None:
        raise PlayerSpecError(f"module {module_name!r} has no {attribute!r} (player {echo(spec)})")
    if call or isinstance(target, type):
        if not callable(target):
            raise PlayerSpecError(f"{echo(spec)} is not callable")
        try:
            target = target(seed=seed) if _takes_seed(target) else target()
        except Exception as error:
            raise PlayerSpecError(f"player {echo(spec)}: {describe_error(error)}") from None
        if not isinstance(target, Agent):
            raise PlayerSpecError(f"{echo(spec)} did not make a player (an object with choose_move)")
        return target
    if isinstance(target, Agent):
        return target
    if callable(target):
        return CallableAgent(target, spec.strip())
    raise PlayerSpecError(f"{echo(spec)} is neither a player nor a function board -> column")


WEIGHTS_PREFIX = "weights:"
FALLBACK_WEIGHTS_DEPTH = levels.level(5).limit.depth
"""The search depth of a weights file that records none (level 5's)."""


def weights_player(spec: str, *, seed: int | None = None) -> EnginePlayer:
    """The engine with the ``windows`` weights of a JSON file: ``weights:FILE[@DEPTH]`` or ``FILE.json``.

    It searches ``DEPTH`` plies, or the depth the file records (``c4 tune``
    writes the depth it tuned at), or :data:`FALLBACK_WEIGHTS_DEPTH`.  An
    unreadable or malformed file is a :class:`~c4engine.errors.WeightsError`.

    >>> weights_player("weights:missing.json@3")
    Traceback (most recent call last):
    ...
    c4engine.errors.WeightsError: cannot read weights file missing.json: no such file
    """
    path = spec.strip().removeprefix(WEIGHTS_PREFIX)
    depth: int | None = None
    head, at, tail = path.rpartition("@")
    if at and tail.strip().isdigit():
        path, depth = head, int(tail)
        if depth < 1:
            raise PlayerSpecError(f"player {echo(spec)}: the depth must be at least 1")
    if not path:
        raise PlayerSpecError(f"player {echo(spec)} names no weights file: use 'weights:FILE.json'")
    return engine_with_weights(path, limit=None if depth is None else Limit(depth=depth), seed=seed)


def engine_with_weights(
    path: str, *, level: int | None = None, limit: Limit | None = None, seed: int | None = None
) -> EnginePlayer:
    """The engine searching with the ``windows`` weights of the JSON file ``path``.

    With ``level`` (and no ``limit``): that level's recipe (limit, noise, the
    book and solver first) with these weights, named ``computer, FILE
    weights, depth D[, noise N%]``.  With ``limit``: that search, named
    ``FILE, <limit>`` (a limit without a depth keeps the default level's
    noise, as an engine player's time setting does).  With neither: the depth
    the file records (``c4 tune`` writes the depth it tuned at), else
    :data:`FALLBACK_WEIGHTS_DEPTH`.  An unreadable or malformed file is a
    :class:`~c4engine.errors.WeightsError`.

    >>> engine_with_weights("no/such.json", level=3)
    Traceback (most recent call last):
    ...
    c4engine.errors.WeightsError: cannot read weights file no/such.json: no such file
    """
    weights, metadata = load_weights(path)
    evaluator = WindowsEvaluator(weights)
    file = Path(path).name
    if limit is None and level is not None:
        recipe = levels.level(level)
        noise = f", noise {recipe.noise:.0%}" if recipe.noise else ""
        name = f"computer, {file} weights, depth {recipe.limit.depth}{noise}"
        return EnginePlayer(recipe.number, evaluator=evaluator, seed=seed, name=name)
    if limit is None:
        recorded = metadata.get("depth")
        valid = isinstance(recorded, int) and not isinstance(recorded, bool) and recorded >= 1
        limit = Limit(depth=recorded if valid else FALLBACK_WEIGHTS_DEPTH)
    recipe_number = DEFAULT_LEVEL if limit.depth is None else None
    return EnginePlayer(
        recipe_number, limit=limit, evaluator=evaluator, seed=seed, name=f"{file}, {_describe(limit)}"
    )


_SETTINGS = ("level", "depth", "evaluator", "noise", "time", "exact")
_YES_NO = {"1": True, "yes": True, "true": True, "0": False, "no": False, "false": False}


def _setting(
    spec: str, settings: dict[str, str], key: str, kind: Callable[[str], _Number], allowed: str
) -> _Number | None:
    """The setting ``key`` of a player ``spec`` read as ``kind``, None when not given; a value that is
    not one names itself and what is ``allowed``.

    >>> _setting("depth=x", {"depth": "x"}, "depth", int, "a whole number of plies")
    Traceback (most recent call last):
    ...
    c4engine.errors.PlayerSpecError: player 'depth=x': depth is a whole number of plies, not 'x'
    """
    if key not in settings:
        return None
    try:
        return kind(settings[key])
    except ValueError:
        raise PlayerSpecError(f"player {echo(spec)}: {key} is {allowed}, not {echo(settings[key])}") from None


def _engine_from_settings(spec: str, text: str, seed: int | None) -> EnginePlayer:
    settings: dict[str, str] = {}
    for item in text.split(","):
        key, _, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if key not in _SETTINGS or not value:
            raise PlayerSpecError(
                f"unknown player {echo(spec)}: settings are {', '.join(_SETTINGS)} (key=value)"
            )
        settings[key] = value
    number = f"a level number {levels.LEVELS[0].number}..{levels.LEVELS[-1].number}"
    level = _setting(spec, settings, "level", int, number)
    depth = _setting(spec, settings, "depth", int, "a whole number of plies, at least 1")
    noise = _setting(spec, settings, "noise", float, "a probability 0..1")
    seconds = _setting(spec, settings, "time", float, "a number of seconds above 0")
    exact = _YES_NO.get(settings["exact"]) if "exact" in settings else None
    if "exact" in settings and exact is None:
        raise PlayerSpecError(f"player {echo(spec)}: exact is 1 or 0 (yes or no)")
    if noise is not None and not 0.0 <= noise <= 1.0:
        raise PlayerSpecError(f"player {echo(spec)}: noise is a probability 0..1, not {noise}")
    # the recipe: the level named, else the default one unless a depth is given (an engine alone)
    recipe = level if level is not None or depth is not None else DEFAULT_LEVEL
    try:
        limit: Limit | None = None
        if depth is not None or seconds is not None:
            # a depth keeps the recipe's time budget, a time replaces it (as deep as it allows)
            budget = levels.level(recipe).limit.time if recipe is not None else None
            limit = Limit(depth=depth, time=seconds if seconds is not None else budget)
        return EnginePlayer(
            recipe,
            limit=limit,
            evaluator=settings.get("evaluator"),
            noise=noise,
            exact=exact,
            seed=seed,
            name=spec.strip(),
        )
    except (TypeError, ValueError) as error:
        raise PlayerSpecError(f"player {echo(spec)}: {error}") from None


def parse_agent(spec: str, *, seed: int | None = None) -> Agent:
    """A player from a short description.

    * ``human``, ``random``, a level number (``5``) or ``perfect``;
    * an engine by its settings, ``key=value`` separated by commas: ``level``,
      ``depth``, ``evaluator`` (windows, areas, threat_distance), ``noise``
      (0..1), ``time`` (seconds a move), ``exact`` (1: the book and the exact
      solver first, see :class:`EnginePlayer`; the move says itself whether it
      is ``proven``), e.g. ``depth=8,evaluator=areas`` or
      ``level=7,noise=0.1`` (a level with settings overridden);
    * ``package.module:NAME``, an external player (see :func:`load_external_agent`);
    * ``weights:FILE.json[@DEPTH]`` (or just ``FILE.json``), the engine with tuned
      ``windows`` weights (see :func:`weights_player`).

    >>> parse_agent("5").name
    'computer, level 5 strong'
    >>> parse_agent("perfect").name
    'perfect'
    >>> player = parse_agent("depth=3,evaluator=areas,noise=0.1")
    >>> player.engine.limit.depth, player.noise
    (3, 0.1)
    """
    if _is_weights(spec):
        return weights_player(spec, seed=seed)
    if is_external(spec):
        return load_external_agent(spec, seed=seed)
    text = spec.strip().lower()
    if text in {"human", "you", "person"}:
        return HumanPlayer()
    if text == RANDOM:
        return RandomPlayer(seed=seed)
    if text.isdigit():
        if not any(int(text) == known.number for known in levels.LEVELS):
            raise LevelError(f"level {int(text)} does not exist; choose {LEVEL_CHOICES}")
        return EnginePlayer(level=int(text), seed=seed)
    if text == PERFECT:
        return PerfectPlayer(seed=seed)
    if "=" in text:
        return _engine_from_settings(spec, text, seed)
    raise PlayerSpecError(f"unknown player {echo(spec)}: use {SHORT_COMPUTER_FORMS}")
