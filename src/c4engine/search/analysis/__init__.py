"""The analysis service: one place that answers every question about a position.

Every front-end asks :class:`~c4engine.search.analysis.analyst.Analyst`; it chooses among the rules,
the opening book, the exact solver and the heuristic engine.  Its parts: every column's answer while
an analysis builds it (:mod:`.columns`), the book's probes under a limit (:mod:`.book_probes`), the
engine's estimates of unproven columns (:mod:`.estimates`), the most central move keeping the score
(:mod:`.keeping`) and a chosen move's answer (:mod:`.answers`).
"""
