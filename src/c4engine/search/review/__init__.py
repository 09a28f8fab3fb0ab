"""Game review: every move of a game scored, mistakes marked, the better line shown.

:func:`~c4engine.search.review.game.review_game` reviews a game ply by ply (:mod:`.ply`), proving a
position's columns the cheap way where it can (:mod:`.columns`), with the work nobody waits for in a
thread beside it (:mod:`.lines`); a move's verdict (:mod:`.verdicts`); the answers (:mod:`.answers`)
and their graph (:mod:`.graph`).
"""
