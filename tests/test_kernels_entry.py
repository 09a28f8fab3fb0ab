"""The table entry's bit layout (:mod:`c4engine.kernels.entry`) against the table's compiled code.

The fields must tile the word from bit 0 without overlapping, leave the
tag its top bits as :mod:`c4engine.kernels.table` documents, and be where
``store`` puts each value and ``probe`` finds it.
"""

from __future__ import annotations

import numpy as np
import pytest

from c4engine.kernels import entry, table
from c4engine.kernels.transposition import MIN_TABLE_BITS, Table


def _field(word: int, name: str) -> int:
    shift, bits = entry.FIELDS[name]
    return (word >> shift) & ((1 << bits) - 1)


def test_fields_tile_the_data_from_bit_zero_without_overlap() -> None:
    taken = 0
    end = 0
    for name, (shift, bits) in sorted(entry.FIELDS.items(), key=lambda item: item[1][0]):
        field = ((1 << bits) - 1) << shift
        assert not taken & field, name  # no two fields share a bit
        assert shift == end, name  # and none is left between them
        taken |= field
        end = shift + bits
    assert entry.FIELDS["work"][0] == entry.DATA_BITS  # the data: every field below the work
    assert taken == (1 << (entry.DATA_BITS + entry.WORK_BITS)) - 1
    assert (entry.SCORE_MASK, entry.MOVE_MASK) == ((1 << entry.SCORE_BITS) - 1, (1 << entry.MOVE_BITS) - 1)
    # every score of the scale (|score| <= 63) and the empty mark fit a bound's field
    assert -63 + entry.SCORE_OFFSET > 0 and 63 + entry.SCORE_OFFSET <= entry.SCORE_MASK


@pytest.mark.parametrize(
    ("width", "height", "bits"), [(7, 6, 16), (7, 6, 23), (8, 7, 20), (4, 4, 12), (6, 5, 18)]
)
def test_tag_data_and_work_fill_the_word(width: int, height: int, bits: int) -> None:
    """The tag takes the top bits, the data the bottom ones, the work what is left (at most its field)."""
    kbits = table.key_bits(width, height, bits)
    shift = table.tag_shift(kbits, bits)
    work_bits = int(table.work_limit(shift, kbits)).bit_length()
    assert work_bits == min(entry.WORK_BITS, 64 - shift - entry.DATA_BITS)
    assert shift + work_bits + entry.DATA_BITS <= 64
    if work_bits < entry.WORK_BITS:
        assert shift + work_bits + entry.DATA_BITS == 64  # a short work field: the word is full


@pytest.mark.parametrize(
    ("lower", "upper", "move", "work"), [(-63, 63, 30, 63), (0, 0, -1, 0), (-1, 21, 0, 5), (12, 12, 6, 40)]
)
def test_store_writes_each_field_where_the_layout_says(lower: int, upper: int, move: int, work: int) -> None:
    bits = MIN_TABLE_BITS
    t = np.asarray(Table.with_parts(bits).array)
    kbits = table.key_bits(7, 6, bits)
    shift = table.tag_shift(kbits, bits)
    most = table.work_limit(shift, kbits)
    h = np.uint64(table.scramble(np.uint64(0x1234_5678_9AB), kbits))
    table.store(t, np.uint64(0), h, shift, lower, upper, move, work, most)
    held = np.flatnonzero(t)
    assert len(held) == 1 and held[0] == 2 * (int(h) >> shift)  # the first entry of h's bucket
    word = int(t[held[0]])
    assert _field(word, "lower") == lower + entry.SCORE_OFFSET
    assert _field(word, "upper") == upper + entry.SCORE_OFFSET
    assert _field(word, "move") == move + 1
    assert _field(word, "work") == min(work, most)
    assert word >> (64 - shift) == int(h) & ((1 << shift) - 1)  # the tag: h's low bits, on top
    tag = ((1 << shift) - 1) << (64 - shift)
    assert (word & ~tag) >> (entry.DATA_BITS + entry.WORK_BITS) == 0  # nothing between work and tag
    data = table.probe(t, np.uint64(0), h, shift)
    assert int(data) == word & ((1 << entry.DATA_BITS) - 1)
    assert (table.data_lower(data), table.data_upper(data), table.data_move(data)) == (lower, upper, move)


def test_a_column_past_the_move_field_is_not_kept() -> None:
    bits = MIN_TABLE_BITS
    t = np.asarray(Table.with_parts(bits).array)
    kbits = table.key_bits(31, 1, bits)
    shift = table.tag_shift(kbits, bits)
    h = np.uint64(table.scramble(np.uint64(77), kbits))
    table.store(t, np.uint64(0), h, shift, 1, 2, entry.MOVE_LIMIT, 0, table.work_limit(shift, kbits))
    assert table.data_move(table.probe(t, np.uint64(0), h, shift)) == -1
    table.store(t, np.uint64(0), h, shift, 1, 2, entry.MOVE_LIMIT - 1, 0, table.work_limit(shift, kbits))
    assert table.data_move(table.probe(t, np.uint64(0), h, shift)) == entry.MOVE_LIMIT - 1
