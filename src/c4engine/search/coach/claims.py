"""What a proof by rules claims, and the proof itself: :class:`Proof`, its ``claim`` and its instances.

>>> claim_holds("second player at least draws", 0), claim_holds("first player wins", -2)
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from c4engine.player import Player
from c4engine.search.coach.rules import RULES, Plan, RuleInstance

__all__ = ["CLAIMS", "Claim", "Proof", "claim_holds"]

Claim = Literal[
    "first player wins",
    "first player at least draws",
    "draw",
    "second player at least draws",
    "second player wins",
]
CLAIMS: tuple[Claim, ...] = (
    "first player wins",
    "first player at least draws",
    "draw",
    "second player at least draws",
    "second player wins",
)


@dataclass(frozen=True)
class Proof:
    """``claim`` proved for ``controller`` by ``rules`` -- the instances of its follow-up ``plan`` that
    refute the opponent's groups -- after the side to move plays ``move`` (0-based; None: in the
    position itself, the controller not to move)."""

    claim: Claim
    controller: Player
    rules: tuple[RuleInstance, ...]
    plan: Plan | None
    """The follow-up plan; None for a combination of Allis' solutions
    (:mod:`~c4engine.search.coach.combination`), which leaves free squares to the zugzwang."""
    move: int | None = None

    def to_json(self) -> dict[str, Any]:
        """``claim``, ``player`` (1 or 2: whose plan), ``move`` (1-based column the side to move plays
        first, or null), the ``rules`` refuting the groups, and the whole follow-up ``plan``."""
        return {
            "claim": self.claim,
            "player": int(self.controller),
            "move": None if self.move is None else self.move + 1,
            "rules": [rule.to_json() for rule in self.rules],
            "plan": None if self.plan is None else self.plan.to_json(),
        }

    @property
    def rule_names(self) -> tuple[str, ...]:
        """The rules used, each once, in the order of Allis' list."""
        return tuple(name for name in RULES if any(rule.rule == name for rule in self.rules))


def claim_holds(claim: Claim, first_player_score: int) -> bool:
    """Whether an exact score -- the first player's, on the solver's scale -- agrees with ``claim``.

    >>> claim_holds("second player at least draws", 0), claim_holds("first player wins", -2)
    (True, False)
    """
    if claim == "first player wins":
        return first_player_score > 0
    if claim == "first player at least draws":
        return first_player_score >= 0
    if claim == "draw":
        return first_player_score == 0
    if claim == "second player at least draws":
        return first_player_score <= 0
    return first_player_score < 0
