"""Search: the front door to the opening book, the exact solver, the heuristic engine, the analysis
service over all of them, game review and the coach.

The names a user wants are here, each defined once in the module that holds its idea (the package
layout: docs/architecture.md); they load when first asked for, so importing this package costs
nothing:

>>> from c4engine.search import Analyst, Limit
>>> Limit(depth=4)
Limit(depth=4)

The vocabulary every search shares sits at the top of the package: :mod:`.limit` (how much a
question may cost), :mod:`.progress` (what a search under way knows), :mod:`.results` (the answers),
:mod:`.scale` (what a score means) and :mod:`.choice` (choosing among columns).  Each idea then has
a package of its own: :mod:`.book`, :mod:`.solver`, :mod:`.engine`, :mod:`.analysis`,
:mod:`.review`, :mod:`.coach`.

The coach's question is asked with the analyst as an argument, not of it --
``explain(board, analyst=analyst, limit=limit)`` -- because the coach asks
the analyst (its score, its refutation lines): an ``Analyst.explain`` would
tie the two modules in a circle.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from c4engine.kernels import on_compile

if TYPE_CHECKING:
    from c4engine.search.analysis.analyst import Analyst
    from c4engine.search.book.file import OpeningBook
    from c4engine.search.coach.explanation import Explanation, MoveExplanation, explain, explain_move
    from c4engine.search.engine.evaluators import Evaluator
    from c4engine.search.engine.negamax import Engine
    from c4engine.search.limit import Limit
    from c4engine.search.progress import Hook, Progress
    from c4engine.search.results import ColumnAnalysis, PlayResult, PositionAnalysis, Score
    from c4engine.search.review.answers import PlyReview, Review
    from c4engine.search.review.game import review_game

_HOMES = {
    "Analyst": "c4engine.search.analysis.analyst",
    "OpeningBook": "c4engine.search.book.file",
    "Explanation": "c4engine.search.coach.explanation",
    "MoveExplanation": "c4engine.search.coach.explanation",
    "explain": "c4engine.search.coach.explanation",
    "explain_move": "c4engine.search.coach.explanation",
    "Evaluator": "c4engine.search.engine.evaluators",
    "Engine": "c4engine.search.engine.negamax",
    "Limit": "c4engine.search.limit",
    "Hook": "c4engine.search.progress",
    "Progress": "c4engine.search.progress",
    "ColumnAnalysis": "c4engine.search.results",
    "PlayResult": "c4engine.search.results",
    "PositionAnalysis": "c4engine.search.results",
    "Score": "c4engine.search.results",
    "PlyReview": "c4engine.search.review.answers",
    "Review": "c4engine.search.review.answers",
    "review_game": "c4engine.search.review.game",
}
"""Each front-door name and the module that defines it."""

__all__ = [
    "Analyst",
    "ColumnAnalysis",
    "Engine",
    "Evaluator",
    "Explanation",
    "Hook",
    "Limit",
    "MoveExplanation",
    "OpeningBook",
    "PlayResult",
    "PlyReview",
    "PositionAnalysis",
    "Progress",
    "Review",
    "Score",
    "explain",
    "explain_move",
    "on_compile",
    "review_game",
]


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
