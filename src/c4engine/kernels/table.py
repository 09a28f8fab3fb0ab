"""The transposition table's compiled code: hashing, probing, storing and growing a part.

This module is the table's machine code, what the search kernels inline;
the table itself -- its array, the sizes of its parts and how much of them
is in use, everything done to it from Python -- is
:class:`c4engine.kernels.transposition.Table`.  An entry's fields and their
shifts and masks are :mod:`c4engine.kernels.entry`.

A table is one uint64 array in two parts, each in buckets of two; every
function here works on one part, from its first entry (``base``), with the
``live`` in use for ``bits`` below:

A position's key is ``current + mask``: unique, and below ``2**key_bits``
with ``key_bits = width * (height + 1)`` (:func:`key_bits`).  It is scrambled
by an odd multiplier modulo ``2**key_bits`` -- a bijection on those words --
into ``h`` (``key_bits`` is at least the main part's ``bits``: both parts
share ``h``).  In a part of ``2**p`` entries, the top ``p - 1`` bits of
``h`` choose a bucket (two adjacent entries, 16 bytes: one cache line); an
entry stores the other ``tag_shift`` low bits of ``h`` at its top, so
bucket + stored bits give back
``h`` and hence the key exactly: no false hits.  The low ``64 - tag_shift``
bits (at least :data:`~c4engine.kernels.entry.DATA_BITS`, 19) hold the data
(:mod:`c4engine.kernels.entry`)::

    63 ........... 64 - tag_shift | 24..19 | 18..14 | 13..7      | 6..0
    low tag_shift bits of h       | work   | move+1 | upper + 64 | lower + 64

``lower``/``upper`` bound the exact score (strong-solver convention); a
lower field of 0 marks an empty entry.  ``move`` is the column that last
proved a lower bound (0 = none; columns past 30 are not kept), tried first
on the next visit.  ``work`` is the bit length of the number of nodes the
search below the position took, capped by the room left (up to 6 bits; none
when the key fills 64 bits and the table is small).

A store for a position already in its bucket merges the bounds.  Otherwise
the first entry of a bucket keeps the position that cost the most work and
the second takes everything else (always replaced): a new position with at
least the first entry's work takes the first place and the old one moves to
the second, else the new one takes the second.

On a board past 64 bits the key, ``h`` and an entry are 128-bit words
(:mod:`c4engine.kernels.wide`; the multiplier has 128 bits too) and an
entry takes two uint64 (a bucket 32 bytes): the same layout with 128 for 64,
so bucket + stored bits still give back the whole key -- exact whatever the
board, as the 64-bit table is (:meth:`Table.entry_parts` refuses a part too
small for that).  Threads sharing the table read and write each entry whole
(one atomic 16-byte access), so none ever sees half of one entry with half
of another.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit, types
from numba.extending import intrinsic

from c4engine.kernels.entry import (
    DATA_BITS,
    LOWER_SHIFT,
    MOVE_LIMIT,
    MOVE_MASK,
    MOVE_SHIFT,
    SCORE_MASK,
    SCORE_OFFSET,
    UPPER_SHIFT,
    WORK_BITS,
    WORK_SHIFT,
)
from c4engine.kernels.transposition import GROWTH_SHIFT, NEAR_GROWTH_SHIFT, START_BITS, TABLE_HEADER
from c4engine.kernels.wide import constant, load_entry, low, store_entry, word_bits

MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)
MULTIPLIER_HIGH = np.uint64(0xD6E8FEB86659FD93)  # the high half of a wide key's (odd) multiplier
# the layout's numbers as the uint64 the compiled code shifts and masks with
_DATA = np.uint64((1 << DATA_BITS) - 1)
_SCORE = np.uint64(SCORE_MASK)
_MOVE = np.uint64(MOVE_MASK)
_LOWER_AT = np.uint64(LOWER_SHIFT)
_UPPER_AT = np.uint64(UPPER_SHIFT)
_MOVE_AT = np.uint64(MOVE_SHIFT)
_WORK_AT = np.uint64(WORK_SHIFT)


@njit(cache=True)
def key_bits(width: int, height: int, bits: int) -> int:
    """Bits of the scrambled key: the board's ``width * (height + 1)``, at least ``bits``."""
    kb = width * (height + 1)
    return kb if kb > bits else bits


@njit(cache=True)
def tag_shift(kbits: int, bits: int) -> int:
    """How many low bits of ``h`` an entry stores (the others choose the bucket)."""
    return kbits - (bits - 1)


@njit(cache=True)
def entry_bits(kbits: int) -> int:
    """Bits of an entry of a table for keys of ``kbits``: a uint64, or two past 64 bits (a 128-bit
    word, :mod:`c4engine.kernels.wide`)."""
    return 64 if kbits <= 64 else 128


@njit(cache=True)
def work_limit(tshift: int, kbits: int) -> int:
    """The largest ``work`` value an entry can hold with this ``tag_shift``."""
    room = entry_bits(kbits) - tshift - DATA_BITS
    if room > WORK_BITS:
        room = WORK_BITS
    if room < 0:  # a part too small for these keys, which no position uses (Table.entry_parts)
        room = 0
    return (1 << room) - 1


@njit(cache=True)
def scramble(key: Any, kbits: int) -> Any:
    """``key`` times an odd constant modulo ``2**kbits`` (a word of the key's type)."""
    every = ~(key ^ key)
    return (key * constant(key, MULTIPLIER_HIGH, MULTIPLIER)) & (every >> np.uint64(word_bits(key) - kbits))


@njit(cache=True)
def probe(table: np.ndarray, base: np.uint64, h: Any, tshift: int) -> np.uint64:
    """The data bits (bounds and move) of the entry for scrambled key ``h`` in the part at ``base``,
    0 when absent."""
    dw = np.uint64(word_bits(h) - tshift)
    index = base + (low(h >> np.uint64(tshift)) << np.uint64(1))
    tag = h << dw
    entry = load_entry(table, index, h)
    if (entry ^ tag) >> dw == np.uint64(0):
        return low(entry & _DATA)  # type: ignore[no-any-return]
    entry = load_entry(table, index + np.uint64(1), h)
    if (entry ^ tag) >> dw == np.uint64(0):
        return low(entry & _DATA)  # type: ignore[no-any-return]
    return np.uint64(0)


@njit(cache=True)
def data_lower(data: np.uint64) -> int:
    """The lower bound of a probe's ``data``."""
    return int((data >> _LOWER_AT) & _SCORE) - SCORE_OFFSET


@njit(cache=True)
def data_upper(data: np.uint64) -> int:
    """The upper bound of a probe's ``data``."""
    return int((data >> _UPPER_AT) & _SCORE) - SCORE_OFFSET


@njit(cache=True)
def data_move(data: np.uint64) -> int:
    """The move (a column, -1 none) of a probe's ``data``."""
    return int((data >> _MOVE_AT) & _MOVE) - 1


@njit(cache=True)
def _work(entry: Any, max_work: int) -> int:
    # through np.int64: numba types int() of a uint64 as uint64, and a uint64 meeting an
    # int64 in store() would make ``work`` a float
    return int(np.int64(low(entry >> _WORK_AT) & np.uint64(max_work)))


@njit(cache=True)
def store(
    table: np.ndarray,
    base: np.uint64,
    h: Any,
    tshift: int,
    lower: int,
    upper: int,
    move: int,
    work: int,
    max_work: int,
) -> None:
    """Record ``lower <= score <= upper``, the best ``move`` (or -1) and the ``work`` spent for ``h``
    in the part at ``base``.

    Bounds already known for the same position are merged in.
    """
    dw = np.uint64(word_bits(h) - tshift)
    index = base + (low(h >> np.uint64(tshift)) << np.uint64(1))
    tag = h << dw
    if work > max_work:
        work = max_work
    slot = index
    entry = load_entry(table, slot, h)
    found = (entry ^ tag) >> dw == np.uint64(0) and low(entry) & (_SCORE << _LOWER_AT)
    if not found:
        slot = index + np.uint64(1)
        entry = load_entry(table, slot, h)
        found = (entry ^ tag) >> dw == np.uint64(0) and low(entry) & (_SCORE << _LOWER_AT)
    if found:
        data = low(entry)  # the data bits are in the low word
        old_lower = data_lower(data)
        old_upper = data_upper(data)
        if old_lower > lower:
            lower = old_lower
        if old_upper < upper:
            upper = old_upper
        if move < 0:
            move = data_move(data)
        old_work = _work(entry, max_work)
        if old_work > work:
            work = old_work
    if move >= MOVE_LIMIT:
        move = -1
    new = (
        tag
        | (np.uint64(lower + SCORE_OFFSET) << _LOWER_AT)
        | (np.uint64(upper + SCORE_OFFSET) << _UPPER_AT)
        | (np.uint64(move + 1) << _MOVE_AT)
        | (np.uint64(work) << _WORK_AT)
    )
    if found:
        store_entry(table, slot, h, new)
        return
    first = load_entry(table, index, h)
    if work >= _work(first, max_work):
        store_entry(table, index + np.uint64(1), h, first)
        store_entry(table, index, h, new)
    else:
        store_entry(table, index + np.uint64(1), h, new)


@njit(cache=True)
def first_bits(bits: int, kbits: int, start: int) -> int:
    """The size (``2**first_bits`` entries) a part of ``2**bits`` starts from: ``2**start``, or
    more where a key of ``kbits`` needs a larger part to leave the data its room."""
    least = kbits - (entry_bits(kbits) - DATA_BITS) + 1
    if start < least:
        start = least
    return bits if bits < start else start


@njit(cache=True)
def growth_nodes(live: int, bits: int, shift: int) -> int:
    """After how many nodes of one position's search a part of ``2**live`` entries doubles:
    ``2**(live + shift)`` (never, once it has all its ``2**bits``)."""
    if live >= bits:
        return (1 << 62) - 1
    return 1 << (live + shift)


@njit(cache=True)
def part_in_use(table: np.ndarray, slot: int, bits: int, kbits: int) -> int:
    """``live`` of the part of ``2**bits`` entries whose header word is ``table[slot]``: as recorded,
    or, in a fresh table, its :func:`first_bits` (recorded now)."""
    live = int(np.int64(table[slot]))
    if live == 0:
        live = first_bits(bits, kbits, START_BITS)
        table[slot] = live
    return live


@njit(cache=True)
def part_shape(live: int, bits: int, kbits: int, growth_shift: int) -> tuple[int, int, int]:
    """(tag shift, work limit, :func:`growth_nodes`) of a part using ``2**live`` of its ``2**bits``
    entries."""
    tshift = tag_shift(kbits, live)
    return tshift, work_limit(tshift, kbits), growth_nodes(live, bits, growth_shift)


@njit(cache=True)
def grow_part(table: np.ndarray, slot: int, base: int, live: int, kbits: int, zero: Any) -> int:
    """:func:`grow` the part at ``base`` and record its new ``live``, which it returns, in
    ``table[slot]``."""
    grow(table, base, live, kbits, zero)
    table[slot] = live + 1
    return live + 1


class Part(NamedTuple):
    """A part of the table as a probe or a store takes it."""

    base: Any
    """Its first entry (a uint64)."""
    shift: int
    """The tag shift of its size in use (:func:`tag_shift`)."""
    most: int
    """The largest work its entries hold (:func:`work_limit`)."""


class Parts(NamedTuple):
    """A table's two parts as a search uses them: their sizes in use and when each doubles."""

    main: Part
    near: Part
    """The near-end part (the main one again when the table has none)."""
    near_from: int
    """Positions of this many stones or more are in the near-end part."""
    live: int
    """The main part has ``2**live`` entries in use."""
    near_live: int
    grow_at: int
    """The main part doubles once the search has this many nodes (:func:`growth_nodes`)."""
    near_grow_at: int
    next_growth: int
    """The first of ``grow_at`` and ``near_grow_at``."""


@njit(cache=True)
def parts_in_use(
    table: np.ndarray, bits: int, near_bits: int, near_from: int, kbits: int, cells: int
) -> Parts:
    """The :class:`Parts` of ``table`` (main part ``2**bits`` entries, near-end part ``2**near_bits``,
    none when 0) as its header records them, for a board of ``cells`` and keys of ``kbits``."""
    live_at = table.shape[0] - TABLE_HEADER
    live = part_in_use(table, live_at, bits, kbits)
    tshift, max_work, grow_at = part_shape(live, bits, kbits, GROWTH_SHIFT)
    near_base = np.uint64(1) << np.uint64(bits)
    if near_bits:
        near_live = part_in_use(table, live_at + 1, near_bits, kbits)
        near_tshift, near_max_work, near_grow_at = part_shape(near_live, near_bits, kbits, NEAR_GROWTH_SHIFT)
    else:
        near_from = cells + 1  # no near-end part: every position in the main one
        near_live, near_tshift, near_max_work, near_grow_at = 0, tshift, max_work, growth_nodes(0, 0, 0)
    if table[live_at + 2]:  # threads share the table: their owner grows it (Table.hold_growth)
        grow_at = near_grow_at = growth_nodes(0, 0, 0)
    return Parts(
        Part(np.uint64(0), tshift, max_work),
        Part(near_base, near_tshift, near_max_work),
        near_from,
        live,
        near_live,
        grow_at,
        near_grow_at,
        min(grow_at, near_grow_at),
    )


@njit(cache=True)
def grown(
    table: np.ndarray, parts: Parts, nodes: int, bits: int, near_bits: int, kbits: int, zero: Any
) -> Parts:
    """``parts`` after doubling each whose growth ``nodes`` has reached (:func:`grow_part`)."""
    live_at = table.shape[0] - TABLE_HEADER
    main, near, live, near_live = parts.main, parts.near, parts.live, parts.near_live
    grow_at, near_grow_at = parts.grow_at, parts.near_grow_at
    if nodes >= grow_at:
        live = grow_part(table, live_at, 0, live, kbits, zero)
        tshift, max_work, grow_at = part_shape(live, bits, kbits, GROWTH_SHIFT)
        main = Part(main.base, tshift, max_work)
    if nodes >= near_grow_at:
        near_live = grow_part(table, live_at + 1, int(near.base), near_live, kbits, zero)
        near_tshift, near_max_work, near_grow_at = part_shape(near_live, near_bits, kbits, NEAR_GROWTH_SHIFT)
        near = Part(near.base, near_tshift, near_max_work)
    return Parts(
        main, near, parts.near_from, live, near_live, grow_at, near_grow_at, min(grow_at, near_grow_at)
    )


@njit(cache=True)
def part_of(parts: Parts, stones: int) -> Part:
    """The part that holds the positions of ``stones`` stones."""
    return parts.near if stones >= parts.near_from else parts.main


@njit(cache=True)
def grow(table: np.ndarray, base: int, live: int, kbits: int, zero: Any) -> None:
    """Double the part at ``base`` in use from ``2**live`` entries to ``2**(live + 1)``.

    A scrambled key's bucket gains its next bit, which is the top bit of
    the entry's tag: each entry moves to one of two buckets and keeps the
    rest of its tag; the first place keeps its precedence.  Buckets are
    moved from the last down, so that none is overwritten before it moves.
    Entries are words of ``zero``'s type.
    """
    old_shift = tag_shift(kbits, live)
    bits = word_bits(zero)
    keep = ((zero | np.uint64(1)) << np.uint64(bits - old_shift)) - np.uint64(1)  # data and work
    tags = ~zero << np.uint64(bits - (old_shift - 1))
    for bucket in range((1 << (live - 1)) - 1, -1, -1):
        index = base + 2 * bucket
        first = load_entry(table, index, zero)
        second = load_entry(table, index + 1, zero)
        store_entry(table, index, zero, zero)
        store_entry(table, index + 1, zero, zero)
        _move_entry(table, first, base + 4 * bucket, keep, tags)
        _move_entry(table, second, base + 4 * bucket, keep, tags)


@njit(cache=True)
def _move_entry(table: np.ndarray, entry: Any, target: int, keep: Any, tags: Any) -> None:
    # the two buckets an old one splits into are at ``target`` and ``target + 2``
    if low(entry) & (_SCORE << _LOWER_AT):
        target += 2 * int(low(entry >> np.uint64(word_bits(entry) - 1)))
        moved = ((entry << np.uint64(1)) & tags) | (entry & keep)
        if load_entry(table, target, entry) == 0:
            store_entry(table, target, entry, moved)
        else:
            store_entry(table, target + 1, entry, moved)


@intrinsic
def _prefetch_intrinsic(typingctx, array, index):  # type: ignore[no-untyped-def]
    """Ask the CPU to bring ``array[index]`` into its caches (LLVM ``prefetch``); no effect otherwise."""
    if not isinstance(array, types.Array) or index != types.uint64:
        return None
    sig = types.void(array, index)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        array_value, index_value = args
        structure = context.make_array(signature.args[0])(context, builder, array_value)
        pointer = builder.gep(structure.data, [index_value])
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = builder.module.declare_intrinsic("llvm.prefetch", [i8p], fnty)
        builder.call(fn, [builder.bitcast(pointer, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen


_prefetch: Any = _prefetch_intrinsic  # typed by numba at the call


@njit(cache=True)
def prefetch(table: np.ndarray, base: np.uint64, h: Any, tshift: int) -> None:
    """Start loading the bucket of scrambled key ``h`` in the part at ``base``: a later
    :func:`probe` of it finds it cached."""
    words = np.uint64(word_bits(h) // 64)  # of an entry
    _prefetch(table, (base + (low(h >> np.uint64(tshift)) << np.uint64(1))) * words)
