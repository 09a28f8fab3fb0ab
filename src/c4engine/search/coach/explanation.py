"""The coach's answers: :func:`explain` (a position) and :func:`explain_move` (a move), with ``to_json``.

An :class:`Explanation` holds the facts a player reasons with -- the
threats, the immediate facts, the zugzwang, a proof by Allis' rules -- and
the solver's score, and renders its sentences only from those facts.  A
proof is shown only when the independent checker
(:mod:`c4engine.search.coach.checker`) accepts it *and* the exact score
agrees with its claim; ``proof_status`` says which of these failed
otherwise.  The score says whether it is proven.

>>> from c4engine.board import Board
>>> explanation = explain(Board.from_moves("34444445"))
>>> explanation.proof.claim, explanation.proof_status
('second player at least draws', 'confirmed')
>>> explanation.sentences[-1]
'Solver: draw (proven), for X to move.'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from c4engine.board import Board
from c4engine.player import Player
from c4engine.search.coach.checker import check_proof
from c4engine.search.coach.claims import Proof, claim_holds
from c4engine.search.coach.groups import Cell, square_name
from c4engine.search.coach.immediate import Immediate, immediate_facts
from c4engine.search.coach.proof import find_proof
from c4engine.search.coach.threats import Threat, find_threats
from c4engine.search.coach.zugzwang import Zugzwang, find_zugzwang
from c4engine.search.limit import UNLIMITED, Limit
from c4engine.search.results import Score

if TYPE_CHECKING:
    from c4engine.search.analysis.analyst import Analyst

__all__ = ["Change", "Explanation", "MoveExplanation", "ProofStatus", "explain", "explain_move"]

ProofStatus = Literal["confirmed", "none", "unconfirmed", "contradicted", "rejected"]
"""``confirmed``: checked and the exact score agrees (the proof is shown); ``none``: no proof by rules
found; ``unconfirmed``: the score is not proven, so the proof is not shown; ``contradicted``: the
exact score disagrees; ``rejected``: the checker found a fault (neither of these two should ever
happen: the tests and benchmarks/explain.py count them)."""


@dataclass(frozen=True)
class Explanation:
    """What the coach says of ``board``: its facts, the shown ``proof`` (None unless confirmed), the
    solver's ``score`` for the side to move (None when the game is over) and the ``sentences``."""

    board: Board
    threats: tuple[Threat, ...]
    immediate: tuple[Immediate, ...]
    zugzwang: Zugzwang
    proof: Proof | None
    proof_status: ProofStatus
    score: Score | None
    sentences: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """One object: ``position``, ``size``, ``connect``, ``to_move`` (1 or 2), ``threats``,
        ``immediate``, ``zugzwang``, ``proof`` (or null), ``proof_status``, ``score`` (or null) and
        ``sentences`` -- docs/explain.md."""
        board, score = self.board, self.score
        zugzwang = self.zugzwang.to_json()
        zugzwang["proven"] = self.proof is not None
        if self.proof is not None and self.proof.controller is not self.zugzwang.controller:
            zugzwang["controller"], zugzwang["reason"] = int(self.proof.controller), "proof"
        return {
            "position": board.move_string,
            "size": board.size,
            "connect": board.connect,
            "to_move": None if board.is_over else int(board.turn),
            "threats": [threat.to_json() for threat in self.threats],
            "immediate": [fact.to_json() for fact in self.immediate],
            "zugzwang": zugzwang,
            "proof": None if self.proof is None else self.proof.to_json(),
            "proof_status": self.proof_status,
            "score": None
            if score is None
            else {
                "value": int(score.value) if score.proven else round(score.value, 2),
                "proven": score.proven,
                "words": score.describe(),
            },
            "sentences": list(self.sentences),
        }


def _solve(board: Board, analyst: Analyst | None, limit: Limit | None) -> Score | None:
    if board.is_over:
        return None
    if analyst is None:
        from c4engine.search.analysis.analyst import shared_analyst

        analyst = shared_analyst()
    return analyst.solve(board, UNLIMITED if limit is None else limit).score


def explain(
    board: Board, *, analyst: Analyst | None = None, limit: Limit | None = None, score: Score | None = None
) -> Explanation:
    """The coach's explanation of ``board``.

    The score comes from ``analyst`` (default: the process's shared one) within ``limit`` (default:
    none, an exact score) unless ``score`` is given (the side to move's, e.g. from a review that has
    it).  Threats and immediate facts hold on any board; the zugzwang and the proofs by rules need an
    even height (Allis' parity).
    """
    threats = find_threats(board)
    immediate = immediate_facts(board, threats)
    zugzwang = find_zugzwang(board, threats)
    if score is None:
        score = _solve(board, analyst, limit)
    found = find_proof(board)
    status: ProofStatus = "none"
    if found is not None:
        if check_proof(board, found):
            status = "rejected"
        elif score is None or not score.proven or (score.weak and score.value == 0):
            status = "unconfirmed"
        else:
            first = int(score.value) if board.turn is Player.FIRST else -int(score.value)
            status = "confirmed" if claim_holds(found.claim, first) else "contradicted"
    proof = found if status == "confirmed" else None
    explanation = Explanation(board, threats, immediate, zugzwang, proof, status, score)
    return Explanation(
        board, threats, immediate, zugzwang, proof, status, score, tuple(_sentences(explanation))
    )


def _names(cells: Any, width: int) -> str:
    return ", ".join(square_name(cell, width) for cell in cells)


def _sentences(explanation: Explanation) -> list[str]:
    board = explanation.board
    width = board.width
    said: list[str] = []
    if board.is_over:
        winner = board.winner
        said.append(
            "The game is over: a draw." if winner is None else f"The game is over: {winner.symbol} won."
        )
        return said
    said.extend(fact.sentence(board) for fact in explanation.immediate)
    for player in (Player.FIRST, Player.SECOND):
        mine = [t for t in explanation.threats if t.player is player]
        if not mine:
            continue
        parts = []
        for threat in mine:
            notes = [threat.parity, "playable" if threat.playable else "not playable yet"]
            if threat.useless:
                notes.append("useless")
            parts.append(f"{threat.name(width)} ({', '.join(notes)})")
        said.append(f"{player.symbol} threatens at {'; '.join(parts)}.")
    said.append(explanation.zugzwang.sentence(board))
    proof = explanation.proof
    if proof is not None and proof.controller is not explanation.zugzwang.controller:
        said.append(f"The proof below settles it: {proof.controller.symbol} controls the zugzwang.")
    if proof is not None:
        said.extend(_proof_sentences(board, proof))
    elif explanation.proof_status == "unconfirmed":
        said.append("A proof by Allis' rules was found, but the solver has not confirmed it: not shown.")
    score = explanation.score
    if score is not None:
        proven = "proven" if score.proven else "not proven"
        words = score.describe() if not score.proven else f"{score.describe()} ({proven})"
        said.append(f"Solver: {words}, for {board.turn.symbol} to move.")
    return said


def _proof_sentences(board: Board, proof: Proof) -> list[str]:
    width = board.width
    who = proof.controller.symbol
    first = f"after {board.turn.symbol} plays column {proof.move + 1}, " if proof.move is not None else ""
    rules = ", ".join(proof.rule_names)
    said = [
        f"Proved by Allis' rules ({rules}) and confirmed by the solver: {first}the {proof.claim.split()[0]} "
        f"player {' '.join(proof.claim.split()[2:])}."
    ]
    claimevens = sorted(rule.squares[1] for rule in proof.rules if rule.rule == "claimeven")
    if claimevens:
        said.append(f"Claimeven: answering in the same column, {who} gets {_names(claimevens, width)}.")
    said.extend(rule.sentence(width, proof.controller) for rule in proof.rules if rule.rule != "claimeven")
    opponent = proof.controller.other.symbol
    said.append(f"Together they refute every group {opponent} could still complete.")
    return said


ChangeKind = Literal[
    "wins",
    "misses_win",
    "blocks",
    "ignores_threat",
    "lets_win_now",
    "under_opponent_threat",
    "under_own_threat",
    "opens_claimed_square",
    "hands_over_zugzwang",
    "takes_zugzwang",
    "breaks_proof",
    "keeps_proof",
    "gives_proof",
    "allows_double_threat",
]


@dataclass(frozen=True)
class Change:
    """One thing a move changes, ``kind`` and ``text``, and the 0-based ``cell`` it is about (if one)."""

    kind: ChangeKind
    text: str
    cell: tuple[int, int] | None = None

    def to_json(self) -> dict[str, Any]:
        cell = None if self.cell is None else {"column": self.cell[0] + 1, "row": self.cell[1] + 1}
        return {"kind": self.kind, "text": self.text, "cell": cell}


@dataclass(frozen=True)
class MoveExplanation:
    """What playing ``column`` (0-based) on ``board`` changes, and the solver's answer to it:
    ``reply``, the score after the move for the opponent, then to move (None when the move ends the
    game); ``best``, the position's score before it, for the mover; and ``line``, the refutation --
    best play from the opponent's reply on (0-based columns)."""

    board: Board
    column: int
    changes: tuple[Change, ...]
    reply: Score | None
    best: Score | None
    line: tuple[int, ...]
    after: Explanation

    @property
    def sentences(self) -> tuple[str, ...]:
        said = [change.text for change in self.changes]
        if self.reply is not None:
            proven = " (proven)" if self.reply.proven else ""
            said.append(f"After it, {self.board.turn.other.symbol} to move: {self.reply.describe()}{proven}.")
        if self.line:
            said.append(f"Refutation: {' '.join(str(column + 1) for column in self.line)}.")
        return tuple(said)

    def why(self) -> str:
        """The reasons in one string: what review prints after a mistake."""
        return " ".join(self.sentences)

    def to_json(self) -> dict[str, Any]:
        """``column`` (1-based), ``changes``, ``reply`` (the opponent's score after the move) and
        ``best`` (the mover's before it), each ``{"value", "proven", "words"}`` or null, ``line``
        (1-based) and ``sentences``."""

        def score_json(score: Score | None) -> dict[str, Any] | None:
            if score is None:
                return None
            value = int(score.value) if score.proven else round(score.value, 2)
            return {"value": value, "proven": score.proven, "words": score.describe()}

        return {
            "column": self.column + 1,
            "changes": [change.to_json() for change in self.changes],
            "reply": score_json(self.reply),
            "best": score_json(self.best),
            "line": [column + 1 for column in self.line],
            "sentences": list(self.sentences),
        }


def explain_move(
    board: Board,
    column: int,
    *,
    analyst: Analyst | None = None,
    limit: Limit | None = None,
    before: Explanation | None = None,
) -> MoveExplanation:
    """What the side to move's ``column`` (0-based) changes in the coach's facts, and the solver's
    refutation line.  ``before`` is :func:`explain` of ``board`` when the caller has it already."""
    if before is None:
        before = explain(board, analyst=analyst, limit=limit)
    child = board.copy()
    child.play(column)
    mover = board.turn
    cell = (column, board.column_height(column))
    changes = _immediate_changes(before, child, mover, cell)
    changes += _threat_changes(before, child, mover, cell)
    changes += _opened_claim_changes(before, mover, cell, board.width)
    after = explain(child, analyst=analyst, limit=limit)
    changes += _zugzwang_changes(before, after, child, mover)
    wins_now = [fact for fact in after.immediate if fact.kind == "win_now"]
    if wins_now and not any(change.kind in ("ignores_threat", "under_opponent_threat") for change in changes):
        changes.append(
            Change(
                "lets_win_now",
                f"It lets {mover.other.symbol} win at once in {_columns_text(wins_now[0].columns)}.",
            )
        )
    changes += _proof_changes(before, after, mover)
    line = _refutation(child, after, analyst, limit)
    if line and not any(change.kind in ("ignores_threat", "lets_win_now") for change in changes):
        changes += _double_threat_changes(child, line[0], mover)
    return MoveExplanation(board, column, tuple(changes), after.score, before.score, line, after)


def _immediate_changes(before: Explanation, child: Board, mover: Player, cell: Cell) -> list[Change]:
    """Whether the move wins, misses a win at once or ignores the opponent's threat to win next move."""
    column = cell[0]
    changes: list[Change] = []
    if child.winner is mover:
        changes.append(Change("wins", f"{mover.symbol} wins with column {column + 1}.", cell))
    for fact in before.immediate:
        if fact.kind == "win_now" and column not in fact.columns and child.winner is None:
            changes.append(Change("misses_win", f"It misses the win in {_columns_text(fact.columns)}."))
        if fact.kind == "forced_block" and column not in fact.columns:
            changes.append(
                Change(
                    "ignores_threat",
                    f"It does not block {mover.other.symbol}'s threat in {_columns_text(fact.columns)}: "
                    f"{mover.other.symbol} wins there next move.",
                )
            )
    return changes


def _threat_changes(before: Explanation, child: Board, mover: Player, cell: Cell) -> list[Change]:
    """Whether the move blocks a threat of the opponent's, or plays under one (the opponent's or its own)."""
    column, row = cell
    width = child.width
    threats = {(t.player, t.column, t.row) for t in before.threats}
    changes: list[Change] = []
    if (mover.other, column, row) in threats and child.winner is None:
        changes.append(
            Change("blocks", f"It blocks {mover.other.symbol}'s threat at {square_name(cell, width)}.", cell)
        )
    above = (column, row + 1)
    if (mover.other, column, row + 1) in threats:
        changes.append(
            Change(
                "under_opponent_threat",
                f"It plays under {mover.other.symbol}'s threat at {square_name(above, width)}: "
                f"{mover.other.symbol} can now win there.",
                above,
            )
        )
    if (mover, column, row + 1) in threats:
        changes.append(
            Change(
                "under_own_threat",
                f"It fills the square under {mover.symbol}'s own threat at {square_name(above, width)}: "
                f"{mover.other.symbol} can block it now, so the threat is given up.",
                above,
            )
        )
    return changes


def _opened_claim_changes(before: Explanation, mover: Player, cell: Cell, width: int) -> list[Change]:
    """Whether the move takes the lower square of a pair of the mover's own proof, giving up its upper."""
    proof = before.proof
    if proof is None or proof.controller is not mover or proof.move is not None:
        return []
    # the mover's own plan had the opponent open every pair: taking a lower cell gives up its upper
    above = (cell[0], cell[1] + 1)
    return [
        Change(
            "opens_claimed_square",
            f"It plays the lower square of its own {rule.rule} {square_name(cell, width)}-"
            f"{square_name(above, width)}: {mover.other.symbol} can now claim "
            f"{square_name(above, width)}.",
            above,
        )
        for rule in proof.rules
        if rule.rule in ("claimeven", "vertical") and rule.squares[0] == cell
    ]


def _zugzwang_changes(before: Explanation, after: Explanation, child: Board, mover: Player) -> list[Change]:
    """Whether the move hands the zugzwang's control over to the opponent, or takes it."""
    control_before, control_after = before.zugzwang.controller, after.zugzwang.controller
    if control_before is mover and control_after is not mover:
        return [
            Change(
                "hands_over_zugzwang",
                f"It hands over the zugzwang control ({after.zugzwang.sentence(child)})",
            )
        ]
    if control_before is not mover and control_after is mover:
        return [Change("takes_zugzwang", f"It takes the zugzwang control ({after.zugzwang.sentence(child)})")]
    return []


def _proof_changes(before: Explanation, after: Explanation, mover: Player) -> list[Change]:
    """Whether the move gives the opponent a proof by rules, and keeps or breaks the mover's own."""
    changes: list[Change] = []
    given = after.proof
    if given is not None and given.controller is mover.other:
        first = "" if given.move is None else f"{mover.other.symbol} plays column {given.move + 1} and "
        changes.append(
            Change(
                "gives_proof",
                f"After it, {first}Allis' rules ({', '.join(given.rule_names)}) prove that "
                f"the {given.claim}.",
            )
        )
    proof = before.proof
    if proof is not None and proof.controller is mover:
        if given is not None and given.controller is mover and given.move is None:
            changes.append(
                Change("keeps_proof", f"It keeps {mover.symbol}'s proof by rules: the {given.claim}.")
            )
        else:
            kept = "" if proof.move is None else f" (column {proof.move + 1} kept it)"
            changes.append(
                Change(
                    "breaks_proof",
                    f"It breaks {mover.symbol}'s proof by rules that the {proof.claim}{kept}.",
                )
            )
    return changes


def _refutation(
    child: Board, after: Explanation, analyst: Analyst | None, limit: Limit | None
) -> tuple[int, ...]:
    """The solver's best line from the opponent's reply on, when the score after the move is proven."""
    if child.is_over or after.score is None or not after.score.proven:
        return ()
    if analyst is None:
        from c4engine.search.analysis.analyst import shared_analyst

        analyst = shared_analyst()
    return analyst.solve(child, UNLIMITED if limit is None else limit, line=True).line


def _double_threat_changes(child: Board, reply_column: int, mover: Player) -> list[Change]:
    """Whether the opponent's best reply makes two threats to win at once, which one move cannot stop."""
    reply = child.copy()
    reply.play(reply_column)
    double = reply.winning_columns(mover.other) if not reply.is_over else []
    if len(double) < 2:
        return []
    return [
        Change(
            "allows_double_threat",
            f"{mover.other.symbol} answers in column {reply_column + 1} with a double threat "
            f"({_columns_text(tuple(double))}): one move cannot stop both.",
        )
    ]


def _columns_text(columns: tuple[int, ...]) -> str:
    names = [str(column + 1) for column in columns]
    return f"column {names[0]}" if len(names) == 1 else f"columns {', '.join(names[:-1])} and {names[-1]}"
