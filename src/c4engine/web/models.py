"""The JSON API's inputs and outputs: the bodies it reads and answers (pydantic models, which the
OpenAPI schema at ``/openapi.json`` shows under their class names) and the query parameters its
routes share.

Columns and rows count from 1, rows from the bottom; positions are move strings.  The models
carry no docstrings on purpose: a docstring would become the schema's description.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import Query
from pydantic import BaseModel, ConfigDict, Field

from c4engine.geometry import MAX_SIZE
from c4engine.play import levels
from c4engine.search.coach.claims import Claim
from c4engine.search.coach.explanation import ProofStatus
from c4engine.search.coach.immediate import ImmediateKind
from c4engine.search.coach.rules import RuleName
from c4engine.search.coach.threats import Parity
from c4engine.search.coach.zugzwang import ControlReason

__all__ = [
    "AnalysisOut",
    "Cell",
    "ColumnOut",
    "ConnectQuery",
    "ErrorOut",
    "ExplanationOut",
    "HealthOut",
    "LevelNumber",
    "MoveIn",
    "MoveOut",
    "PlyOut",
    "PosQuery",
    "PositionOut",
    "PositionScoreOut",
    "PuzzleHintOut",
    "PuzzleOut",
    "PuzzleTryIn",
    "PuzzleTryOut",
    "RetryIn",
    "RetryOut",
    "ReviewIn",
    "ReviewOut",
    "ReviewSummaryOut",
    "SideSummaryOut",
    "SizeQuery",
]


class ErrorOut(BaseModel):
    error: str = Field(description="What was wrong, for a person to read.")


class Cell(BaseModel):
    column: int = Field(description="1-based, from the left")
    row: int = Field(description="1-based, from the bottom")


class PositionOut(BaseModel):
    pos: str = Field(description="The moves, as a move string")
    size: str = Field(examples=["7x6"])
    width: int
    height: int
    connect: int
    moves: int = Field(description="Stones on the board")
    grid: list[list[Literal["X", "O"] | None]] = Field(description="Rows, top row first; X moves first")
    to_move: Literal["X", "O"] | None = Field(description="The side to move; null once the game is over")
    winner: Literal["X", "O"] | None
    draw: bool
    over: bool
    result: str = Field(description='"1-0", "0-1", "1/2-1/2" or "*"')
    legal: list[int] = Field(description="Playable columns (1-based)")
    last_move: int | None = Field(description="The column of the last move (1-based)")
    winning_cells: list[Cell]


class ColumnOut(BaseModel):
    column: int = Field(description="1-based")
    lower: int = Field(
        description="The proven lower bound of the exact score (solver scale: positive = the side to "
        "move wins by playing here, (cells + 1 - stones before the winning stone) // 2; 0 = draw)"
    )
    upper: int = Field(description="The proven upper bound of the exact score; equal to lower when exact")
    score: int | None = Field(description="The exact score (solver scale); null when not proven")
    proven: bool
    estimate: float | None = Field(description="The engine's estimate (its own units); null when exact")
    pv: list[int] = Field(description="Best play starting with this column (1-based columns)")
    pv_complete: bool = Field(description="Whether pv reaches the end of the game")
    label: str = Field(
        examples=["win in 5", "at least a draw", "draw or loss", "loss in 8", "estimate, not proven"]
    )
    source: Literal["rules", "book", "solver", "engine"]
    outcome: Literal["win", "loss", "draw", "unknown"] = Field(description="unknown when not proven")
    moves: int | None = Field(description="When exact: the winner's moves to the end (win or loss)")
    moves_at_most: int | None = Field(
        description="When a win or a loss is proven but not its distance: the most moves its winner makes "
        "to the end"
    )
    lean: float | None = Field(
        description="Estimates only: the estimate on a human scale, -1 (clearly worse) to +1 (clearly better)"
    )


class PositionScoreOut(BaseModel):
    lower: int = Field(description="The proven lower bound of the position's own score (solver scale)")
    upper: int = Field(description="The proven upper bound; equal to lower when exact")
    score: int | None = Field(description="The exact score; null when not proven")
    proven: bool
    label: str = Field(examples=["win in 17", "at least a draw"])
    source: Literal["rules", "book", "solver", "engine"] = Field(
        description="book when the opening book holds the position, else the weakest source of the columns"
    )


class AnalysisOut(BaseModel):
    position: str = Field(description="The moves, as a move string")
    size: str
    connect: int
    to_move: Literal["X", "O"]
    position_score: PositionScoreOut = Field(
        description="The position's own score for the side to move: the opening book's, or the best column's"
    )
    columns: list[ColumnOut | None] = Field(description="One per column; null for a full column")
    best: list[int] = Field(
        description="The best column(s), 1-based, by dominance: never a column another is proven better than"
    )
    best_proven: bool = Field(description="Whether best is proven: its lower bound reaches every other upper")
    source: Literal["rules", "book", "solver", "engine"] = Field(description="The weakest source used")
    proven: bool = Field(description="Whether every score is proven (false: the time cap stopped a search)")
    move: int = Field(description="The recommended column: the most central of best")
    pv: list[int] = Field(description="The recommended column's line (1-based columns)")
    pv_proven: bool = Field(description="Whether pv is proven best play to the end of the game")
    time: float


LevelNumber = Annotated[int, Field(ge=1, le=len(levels.LEVELS), strict=True)]

CHOICES: dict[str, str] = {"level": f'a level number 1..{len(levels.LEVELS)} or "perfect"'}
"""What a field of several kinds allows, in words: its error names the value given and these
(pydantic's own words would name each kind it tried, ``level.constrained-int: ...``)."""


class MoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    pos: str = Field("", max_length=4096, description="The moves so far", examples=["4453"])
    size: str = Field("7x6", max_length=16, examples=["7x6"])
    connect: int = Field(4, ge=2, le=MAX_SIZE, strict=True)
    level: LevelNumber | Literal["perfect"] = Field(
        levels.DEFAULT_LEVEL,
        description="1 (beginner) to 7 (master), or perfect: the analysis service's best move, "
        "proven wherever the book or the solver can prove one within the time cap; refused (400) on "
        "boards the exact solver cannot hold (width * (height + 1) > 128)",
    )
    time: float | None = Field(
        None, gt=0, allow_inf_nan=False, strict=True, description="Seconds, at most the server's limit"
    )


class MoveOut(BaseModel):
    """The computer's move: :meth:`PlayResult.to_json <c4engine.search.results.PlayResult.to_json>`
    (the same fields, tests/test_web_api.py checks), with the position after it."""

    column: int = Field(description="The computer's column (1-based)")
    proven: bool = Field(
        description="Whether the move is proven best: the opening book's or the solver's, or the engine "
        "saw the end of the game"
    )
    score: int | None = Field(
        description="The position's exact score before the move (solver scale); null when not proven"
    )
    estimate: float | None = Field(description="The engine's value in its own units; null when exact or none")
    lower: int | None = Field(
        description="The proven lower bound of the position's score; null: nothing proven"
    )
    upper: int | None = Field(description="The proven upper bound; null: nothing proven")
    label: str = Field(examples=["win in 5 moves", "unknown (time limit): ...; estimate +3.5 (not proven)"])
    source: Literal["rules", "book", "solver", "engine"]
    pv: list[int] = Field(description="The expected play from this move on, 1-based")
    pv_complete: bool = Field(description="Whether pv reaches the end of the game")
    depth: int | None = Field(description="The engine's last depth completed; null when it did not choose")
    nodes: int
    stopped: str | None = Field(description="Why the search ended before it finished; null when it finished")
    complete: bool = Field(description="False when the time cap stopped the search before it finished")
    time: float = Field(description="Wall-clock seconds of the whole answer")
    pos: str = Field(description="The position after it")
    level: int | Literal["perfect"]
    position: PositionOut


class ReviewIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    moves: str = Field(max_length=4096, description="The game's moves, as a move string", examples=["44556"])
    size: str = Field("7x6", max_length=16, examples=["7x6"])
    connect: int = Field(4, ge=2, le=MAX_SIZE, strict=True)
    time_per_ply: float | None = Field(
        None,
        gt=0,
        allow_inf_nan=False,
        strict=True,
        description="Seconds for each ply's analysis, at most the server's time cap (default 1); "
        "less on long games, so the whole review stays within the server's review cap",
    )


class PlyOut(BaseModel):
    ply: int = Field(description="1-based")
    player: Literal[1, 2] = Field(description="1: the first player (X), 2: the second (O)")
    column: int = Field(description="The column played, 1-based")
    score_before: int | None = Field(
        description="The best score any column gets, the mover's view, solver scale; null when not proven"
    )
    score_after: int | None = Field(
        description="The score of the column played, the mover's view, solver scale; null when not proven"
    )
    proven: bool = Field(description="Whether both scores are proven")
    lower: int = Field(description="Proven lower bound of score_after")
    upper: int = Field(description="Proven upper bound of score_after")
    before_lower: int = Field(description="Proven lower bound of score_before")
    before_upper: int = Field(description="Proven upper bound of score_before")
    estimate: float | None = Field(description="The engine's estimate of the column played; null when exact")
    best_estimate: float | None = Field(
        description="The engine's estimate of the best column; null when exact"
    )
    words_before: str = Field(examples=["win in 5", "at least a draw", "≈ +3.5, not proven"])
    words_after: str = Field(examples=["draw"])
    best: list[int] = Field(description="The best columns, 1-based")
    best_proven: bool = Field(
        description="Whether the best columns are proven best (else the engine's choice)"
    )
    best_complete: bool = Field(
        description="Whether every column was compared within the ply's time (else best may miss some)"
    )
    verdict: Literal["best", "inaccuracy", "mistake", "blunder", "not proven", "not chosen"] = Field(
        description="best: kept the score; inaccuracy: same result, a slower win or a quicker loss; "
        "mistake: win to draw or draw to loss; blunder: win to loss; not proven: the time ran out first; "
        "not chosen: nobody chose the move (a match's random opening), judged for no one"
    )
    or_worse: bool = Field(description="The move is proven at least this bad, and may be worse")
    mark: Literal["", "?!", "?", "??"]
    pv: list[int] = Field(description="Where the move was not best: the best column's line (1-based columns)")
    pv_complete: bool = Field(description="Whether pv reaches the end of the game")
    chosen: bool = Field(description="False for a move nobody chose (a match's random opening)")
    why: str | None = Field(
        description="A mistake or a blunder: the coach's reasons -- what the move changed (threats, "
        "zugzwang, a proof by Allis' rules) and the solver's refutation; null for every other verdict"
    )


class SideSummaryOut(BaseModel):
    player: Literal[1, 2]
    moves: int
    best: int
    accuracy: float | None = Field(
        description="Share of best moves among the proven ones; null below 5 proven moves (too few to say)"
    )
    proven: int = Field(description="The side's moves with a proven verdict")
    inaccuracies: int
    mistakes: int
    blunders: int
    not_proven: int
    not_chosen: int = Field(description="The side's moves of a random opening, in no other count")
    turning_points: list[int] = Field(description="Plies where this side's move changed the result")


class ReviewSummaryOut(BaseModel):
    first: SideSummaryOut
    second: SideSummaryOut
    turning_points: list[int] = Field(description="Plies where a move is proven to have changed the result")


class ReviewOut(BaseModel):
    moves: str
    size: str = Field(examples=["7x6"])
    connect: int
    result: str = Field(description='"1-0", "0-1", "1/2-1/2" or "*" (unfinished)')
    result_words: str = Field(examples=["X won", "a draw", "unfinished, O to move"])
    result_reason: str | None = Field(description='How a game that did not end on the board ended ("time")')
    opening_plies: int = Field(description="The first plies, chosen by nobody (a random opening)")
    complete: bool = Field(
        description="False when the server's review cap stopped the review: "
        "plies then holds the game's last plies"
    )
    proven: bool = Field(description="Whether every ply was reviewed and proven")
    plies: list[PlyOut]
    summary: ReviewSummaryOut
    ply_time: float = Field(description="The seconds each ply's analysis was given")
    ply_nodes: int | None = Field(description="The nodes each ply's analysis was given; null: no node limit")
    advice: str | None = Field(
        description="What would prove the plies left not proven, where anything would; else null"
    )
    time: float


class PuzzleInfoOut(BaseModel):
    id: str = Field(description="The puzzle's name, for /api/puzzle/try and /api/puzzle/hint")
    position: str = Field(description="The moves leading to the puzzle, as a move string")
    size: str = Field(examples=["7x6"])
    connect: int
    goal: Literal["win", "draw"] = Field(description="What the side to move keeps with its only moves")
    theme: str | None = Field(examples=["double threat", "defence"])
    themes: list[str]
    length: int = Field(description="The solver's moves in the solution")
    tempting: int = Field(description="Wrong moves along the solution that do not lose at once")
    rating: int
    difficulty: Literal["easy", "medium", "hard"]
    source: dict[str, object] | None = Field(description="The game the puzzle comes from (docs/puzzles.md)")


class PuzzleOut(BaseModel):
    index: int = Field(description="The puzzle's place among those asked for, from 0 (easiest first)")
    count: int = Field(description="How many puzzles there are of the kind asked for")
    puzzle: PuzzleInfoOut = Field(description="The puzzle, without its solution")
    step: int = Field(description="The solver's move to find, from 0")
    position: PositionOut


class PuzzleTryIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(max_length=64, description="The puzzle's id (from /api/puzzle)")
    step: int = Field(ge=0, le=64, strict=True, description="The solver's move tried, from 0")
    column: int = Field(ge=1, le=MAX_SIZE, strict=True, description="The column tried, 1-based")


class PuzzleTryOut(BaseModel):
    step: int
    column: int
    right: bool = Field(description="Whether the column is the only one keeping the goal")
    solved: bool = Field(description="Whether that was the last move of the solution")
    reply: int | None = Field(description="After a right move short of the end: the opponent's reply")
    refutation: int | None = Field(description="After a wrong move: the opponent's best reply")
    outcome: str | None = Field(description="After a wrong move: what it leads to, the opponent's view")
    words: str = Field(examples=["X plays 3: X wins in 4 moves"])
    next_step: int = Field(description="The solver's move to find now")
    position: PositionOut = Field(description="The board the solver faces now (or the solution's end)")
    refuted: PositionOut | None = Field(
        description="After a wrong move: the board after it and its refutation"
    )
    solution: list[int] | None = Field(description="Once solved: the whole solution (1-based columns)")
    ends: Literal["win", "forced win", "draw held"] | None = Field(
        description="Once solved: how the solution ends (docs/puzzles.md)"
    )


class PuzzleHintOut(BaseModel):
    hint: str
    last: bool = Field(description="Whether this is the last hint (the move itself)")


class RetryIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    moves: str = Field(max_length=4096, description="The game's moves before the mistake", examples=["4455"])
    size: str = Field("7x6", max_length=16, examples=["7x6"])
    connect: int = Field(4, ge=2, le=MAX_SIZE, strict=True)
    column: int = Field(ge=1, le=MAX_SIZE, strict=True, description="The column tried instead, 1-based")


class RetryOut(BaseModel):
    column: int
    right: bool | None = Field(description="Whether it keeps the position's best outcome; null: not proven")
    outcome: str = Field(description="What the column tried gets, the mover's view", examples=["draw"])
    best_outcome: str = Field(description="What the best column gets", examples=["win in 5"])
    best: list[int] = Field(description="The best columns (1-based); empty when not proven")
    refutation: int | None = Field(description="After a wrong column: the opponent's best reply")
    words: str


# The coach's explanation (/api/explain): Explanation.to_json's shape, key for key (extra="forbid":
# the route checks every answer against these, so a key the coach adds must be added here too).


class ThreatOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    player: Literal[1, 2] = Field(description="1: the first player (X), 2: the second (O)")
    column: int = Field(description="1-based")
    row: int = Field(description="1-based, from the bottom")
    parity: Parity = Field(description="The row's parity (row 1, the bottom, is odd)")
    playable: bool = Field(description="Whether the cell is its column's lowest empty one: playable now")
    useless: bool = Field(
        description="Directly above an opponent's threat, or above another threat of the same player in "
        "its column"
    )
    groups: list[list[Cell]] = Field(description="The groups (lines of connect cells) the cell completes")


class ImmediateOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: ImmediateKind
    player: Literal[1, 2] = Field(description="Whose fact it is")
    columns: list[int] = Field(description="1-based")


class FollowUpOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    player: Literal[1, 2] = Field(description="The side answering in the same column (follow-up)")
    squares: list[Cell] = Field(description="The empty cells that follow-up gives it")
    opponent_squares: list[Cell] = Field(description="The empty cells it gives the other side")
    odd_columns: list[int] = Field(description="1-based columns with an odd number of empty cells")


class ZugzwangOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    controller: Literal[1, 2] | None = Field(description="Who controls the zugzwang; null: no one says")
    reason: ControlReason | Literal["proof"] = Field(description="proof: a confirmed proof says who")
    follow_up: FollowUpOut
    odd_threats: list[Cell]
    even_threats: list[Cell]
    proven: bool = Field(description="Whether a confirmed proof by Allis' rules settles the control")


class RuleOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rule: RuleName
    squares: list[Cell]
    refutes: list[list[Cell]] = Field(description="The opponent's groups this instance refutes")
    group: list[Cell] | None = Field(None, description="Aftereven and oddthreat: the rule's own group")


class PlanOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    pairs: list[list[Cell]] = Field(description="Column pairs [lower, upper] of the follow-up plan")
    across: list[list[Cell]] = Field(description="Pairs across two columns")
    threat: Cell | None = Field(description="The odd threat the plan wins with, or null")


class ProofOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    claim: Claim
    player: Literal[1, 2] = Field(description="Whose plan the proof is")
    move: int | None = Field(description="The column (1-based) the side to move plays first, or null")
    rules: list[RuleOut]
    plan: PlanOut | None = Field(
        description="The follow-up plan the rules come from; null for Allis' own combination of them"
    )


class ExplanationScoreOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    value: int | float = Field(description="Solver scale when proven, else the engine's estimate")
    proven: bool
    words: str = Field(examples=["draw", "win in 5 moves", "estimate +3.0 (not proven)"])


class ExplanationOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    position: str = Field(description="The moves, as a move string")
    size: str = Field(examples=["7x6"])
    connect: int
    to_move: Literal[1, 2] | None = Field(description="1 or 2; null once the game is over")
    threats: list[ThreatOut] = Field(description="Every empty cell that completes connect for a player")
    immediate: list[ImmediateOut] = Field(
        description="A win now, a forced block, a double threat, a move giving a win directly above"
    )
    zugzwang: ZugzwangOut
    proof: ProofOut | None = Field(
        description="A proof by Allis' rules, shown only when its checker accepts it and the exact score "
        "agrees; else null"
    )
    proof_status: ProofStatus = Field(
        description="confirmed: checked and the exact score agrees (shown); none: no proof by rules; "
        "unconfirmed: the score is not proven, so none is shown; contradicted, rejected: never expected"
    )
    score: ExplanationScoreOut | None = Field(description="The solver's score for the side to move")
    sentences: list[str] = Field(description="The explanation in words, each from a checked fact")
    time: float


class HealthOut(BaseModel):
    status: Literal["ok"]
    version: str
    workers: int = Field(description="Analysis processes")
    move_workers: int = Field(description="Processes playing moves")
    pending: int = Field(description="Analyses queued or running")
    pending_moves: int = Field(description="Moves queued or running")
    max_pending: int = Field(description="Per kind of work")


# The query parameters naming a position, shared by the routes that read one.
PosQuery = Annotated[
    str, Query(max_length=4096, description="The moves, e.g. 4453 (10,3,4 on boards wider than 9)")
]
SizeQuery = Annotated[str, Query(max_length=16, description="WIDTHxHEIGHT", examples=["7x6"])]
ConnectQuery = Annotated[int, Query(ge=2, le=MAX_SIZE, description="Stones in a row to win")]
