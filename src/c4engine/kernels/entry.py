"""A transposition-table entry's bit layout: each field's shift and width, named once.

An entry is one word: a uint64, or on a board past 64 bits a 128-bit word
(:mod:`c4engine.kernels.wide`) with the same layout, 128 for 64.  Its
fields, from the lowest bit up::

    bit  63 ......... 64 - tag_shift | ...... 25 | 24 ...... 19 | 18 ... 14 | 13 ..... 7 | 6 ...... 0
         tag: low tag_shift bits of h | (no use)  | work         | move + 1  | upper + 64 | lower + 64
                                                    WORK_SHIFT     MOVE_SHIFT  UPPER_SHIFT  LOWER_SHIFT

``lower`` and ``upper`` bound the exact score (each stored plus
:data:`SCORE_OFFSET`: 0 in the lower field marks an empty entry); ``move``
is the column that last proved a lower bound, plus one (0: none); ``work``
is the bit length of the nodes the position's search took, as many of its
:data:`WORK_BITS` bits as the tag leaves.  The tag is the part of the
scrambled key ``h`` that the entry's bucket does not tell
(:mod:`c4engine.kernels.table`: ``tag_shift`` bits, from the word's top
bit down).  The fields below the work are the entry's data
(:data:`DATA_BITS`), what a probe returns.

Nothing here imports numba or numpy: :mod:`c4engine.kernels.transposition`
sizes its parts from :data:`DATA_BITS` without them.

>>> [(name, FIELDS[name]) for name in ("lower", "upper", "move", "work")]
[('lower', (0, 7)), ('upper', (7, 7)), ('move', (14, 5)), ('work', (19, 6))]
"""

from __future__ import annotations

from typing import Final

SCORE_BITS: Final = 7
"""Bits of a bound: a score of -64..63 plus :data:`SCORE_OFFSET`."""
SCORE_MASK: Final = (1 << SCORE_BITS) - 1
SCORE_OFFSET: Final = 64
"""Added to a bound to store it (so that a stored lower bound is never 0 but in an empty entry)."""
LOWER_SHIFT: Final = 0
UPPER_SHIFT: Final = LOWER_SHIFT + SCORE_BITS
MOVE_SHIFT: Final = UPPER_SHIFT + SCORE_BITS
MOVE_BITS: Final = 5
"""Bits of the move field: a column plus one, 0 for none."""
MOVE_MASK: Final = (1 << MOVE_BITS) - 1
MOVE_LIMIT: Final = MOVE_MASK
"""Columns from this one on are not kept (their ``move + 1`` would not fit)."""
WORK_SHIFT: Final = MOVE_SHIFT + MOVE_BITS
WORK_BITS: Final = 6
"""At most this many bits of work, fewer where the tag leaves less room."""
DATA_BITS: Final = WORK_SHIFT
"""Bits of an entry that are neither its tag nor its work: the bounds and the move."""

FIELDS: Final = {
    "lower": (LOWER_SHIFT, SCORE_BITS),
    "upper": (UPPER_SHIFT, SCORE_BITS),
    "move": (MOVE_SHIFT, MOVE_BITS),
    "work": (WORK_SHIFT, WORK_BITS),
}
"""Each field below the tag: (shift, bits)."""
