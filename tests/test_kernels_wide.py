"""The 128-bit word of :mod:`c4engine.kernels.wide` against Python integers, on random values.

Every operator the kernels use, shifts across the 64-bit split, mixed with
uint64 and int64 operands, the truth value, the bit counts, the halves, the
arrays of words and the whole-entry loads and stores; and the transposition
table's code (:mod:`c4engine.kernels.table`) on 128-bit keys and entries.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from numba import njit

from c4engine.kernels import table
from c4engine.kernels.bitboard import bit_length, lowest_bit_index, popcount
from c4engine.kernels.transposition import MIN_TABLE_BITS, START_BITS, TABLE_HEADER, Table
from c4engine.kernels.wide import get, get1, high, load_entry, low, put, put1, store_entry, word, zero_of

MASK = (1 << 128) - 1


def halves(value: int) -> tuple[np.uint64, np.uint64]:
    """(high, low) uint64 halves of a Python integer below 2**128."""
    return np.uint64(value >> 64), np.uint64(value & (2**64 - 1))


def joined(high_half: int, low_half: int) -> int:
    return (int(high_half) << 64) | int(low_half)


@njit(cache=True)
def _binary(a_high, a_low, b_high, b_low, shift):  # type: ignore[no-untyped-def]
    a = word(a_high, a_low)
    b = word(b_high, b_low)
    results = np.zeros((10, 2), dtype=np.uint64)
    for i, value in enumerate((a & b, a | b, a ^ b, a + b, a - b, a * b, a << shift, a >> shift, ~a, a)):
        results[i, 0] = high(value)
        results[i, 1] = low(value)
    in_place = a
    in_place ^= b
    in_place -= a_low
    in_place <<= np.uint64(1)
    in_place |= np.uint64(1)
    results[9, 0] = high(in_place)
    results[9, 1] = low(in_place)
    return results


@njit(cache=True)
def _compare(a_high, a_low, b_high, b_low):  # type: ignore[no-untyped-def]
    a = word(a_high, a_low)
    b = word(b_high, b_low)
    truth = 0
    if a:
        truth = 1
    return (a == b, a != b, a < b, a <= b, a > b, a >= b, truth, not a)


@njit(cache=True)
def _mixed(a_high, a_low, small, signed):  # type: ignore[no-untyped-def]
    a = word(a_high, a_low)
    out = np.zeros((7, 2), dtype=np.uint64)
    values = (a & small, small | a, a - small, a + signed, small - a, a ^ signed, a * small)
    for i, value in enumerate(values):
        out[i, 0] = high(value)
        out[i, 1] = low(value)
    return out, a == small, a != small


@njit(cache=True)
def _unified(a_high, a_low, flag):  # type: ignore[no-untyped-def]
    # a variable holding a uint64, then a word; a conditional of the two
    acc = np.uint64(0)
    for _ in range(3):
        acc |= word(a_high, a_low) >> np.uint64(1)
    choice = word(a_high, a_low) if flag else np.uint64(7)
    return high(acc), low(acc), high(choice), low(choice)


@njit(cache=True)
def _counts(a_high, a_low):  # type: ignore[no-untyped-def]
    a = word(a_high, a_low)
    return popcount(a), lowest_bit_index(a), bit_length(a)


@njit(cache=True)
def _arrays(wide2, wide1, narrow2, table, a_high, a_low):  # type: ignore[no-untyped-def]
    a = word(a_high, a_low)
    put(wide2, 1, 2, a)
    put1(wide1, 3, get(wide2, 1, 2) + np.uint64(1))
    put(narrow2, 0, 1, a_low)
    store_entry(table, 1, a, a ^ zero_of(wide2))
    entry = load_entry(table, 1, a)
    narrow = zero_of(narrow2) | a_low
    return high(get1(wide1, 3)), low(get1(wide1, 3)), get(narrow2, 0, 1), high(entry), low(entry), narrow


def random_words(rng: random.Random, count: int) -> list[int]:
    """Random values below 2**128, many near the 64-bit split and the ends."""
    special = [0, 1, 2**64 - 1, 2**64, 2**64 + 1, 2**127, MASK, MASK - 1, 2**63, 2**65 - 1]
    return special + [rng.getrandbits(rng.choice([64, 65, 100, 128])) for _ in range(count)]


def test_binary_operators_match_python_integers() -> None:
    rng = random.Random(34)
    values = random_words(rng, 60)
    for a in values:
        b = rng.choice(values)
        for shift in (0, 1, 7, 63, 64, 65, 100, 127, rng.randrange(128)):
            got = [joined(*row) for row in _binary(*halves(a), *halves(b), np.uint64(shift))]
            in_place = (((a ^ b) - (a & (2**64 - 1))) << 1 | 1) & MASK
            want = [a & b, a | b, a ^ b, (a + b) & MASK, (a - b) & MASK, (a * b) & MASK]
            want += [(a << shift) & MASK, a >> shift, MASK ^ a, in_place]
            assert got == want, (a, b, shift)


def test_comparisons_and_truth_match_python_integers() -> None:
    rng = random.Random(35)
    values = random_words(rng, 40)
    for a in values:
        for b in (a, a + 1 & MASK, rng.choice(values), a ^ 2**64, a ^ 1):
            got = _compare(*halves(a), *halves(b))
            want = (a == b, a != b, a < b, a <= b, a > b, a >= b, a != 0, a == 0)
            assert tuple(bool(x) for x in got) == want


def test_mixed_with_uint64_and_int64() -> None:
    rng = random.Random(36)
    for a in random_words(rng, 40):
        small = rng.getrandbits(64)
        signed = rng.randrange(-(2**63), 2**63)
        rows, equal, unequal = _mixed(*halves(a), np.uint64(small), np.int64(signed))
        want = [a & small, small | a, (a - small) & MASK, (a + signed) & MASK, (small - a) & MASK]
        want += [(a ^ signed) & MASK, (a * small) & MASK]  # a signed integer widens with its sign
        assert [joined(*row) for row in rows] == want
        assert (equal, unequal) == (a == small, a != small)


def test_a_variable_unifies_uint64_and_word() -> None:
    a = 2**100 + 2**64 + 6
    high_half, low_half, choice_high, choice_low = _unified(*halves(a), True)
    assert joined(high_half, low_half) == a >> 1
    assert joined(choice_high, choice_low) == a
    assert joined(*_unified(*halves(a), False)[2:]) == 7


def test_bit_counts_of_words() -> None:
    rng = random.Random(37)
    for a in random_words(rng, 60):
        if a == 0:
            continue
        count, lowest, length = _counts(*halves(a))
        assert (count, lowest, length) == (a.bit_count(), (a & -a).bit_length() - 1, a.bit_length())


def test_arrays_of_words_and_whole_entries() -> None:
    a = 2**127 + 2**64 + 2**63 + 5
    wide2 = np.zeros((2, 3, 2), dtype=np.uint64)
    wide1 = np.zeros((4, 2), dtype=np.uint64)
    narrow2 = np.zeros((1, 2), dtype=np.uint64)
    table = np.zeros(8, dtype=np.uint64)
    got = _arrays(wide2, wide1, narrow2, table, *halves(a))
    assert joined(got[0], got[1]) == a + 1
    assert got[2] == a & (2**64 - 1)
    assert joined(got[3], got[4]) == a
    assert got[5] == a & (2**64 - 1)
    assert list(table[2:4]) == [a & (2**64 - 1), a >> 64]  # entry 1: words 2 and 3, low first
    assert joined(wide2[1, 2, 1], wide2[1, 2, 0]) == a


@pytest.mark.parametrize("value", [0, 2**64, MASK])
def test_halves_round_trip(value: int) -> None:
    assert joined(*_unified(*halves(value), True)[2:]) == value


@njit(cache=True)
def _scramble(key_high, key_low, kbits):  # type: ignore[no-untyped-def]
    h = table.scramble(word(key_high, key_low), kbits)
    return high(h), low(h)


@njit(cache=True)
def _store(t, h_high, h_low, tshift, lower, upper, move, work, most):  # type: ignore[no-untyped-def]
    table.store(t, np.uint64(0), word(h_high, h_low), tshift, lower, upper, move, work, most)


@njit(cache=True)
def _probe(t, h_high, h_low, tshift):  # type: ignore[no-untyped-def]
    return table.probe(t, np.uint64(0), word(h_high, h_low), tshift)


@njit(cache=True)
def _grow(t, live, kbits):  # type: ignore[no-untyped-def]
    table.grow(t, 0, live, kbits, word(np.uint64(0), np.uint64(0)))


def _wide_table(bits: int) -> np.ndarray:
    """The array of a table of ``2**bits`` two-word entries (one part)."""
    wide = Table.with_parts(bits + 1)
    wide.use_entry_words(2)
    assert wide.array.address % 16 == 0  # entries are read whole, 16 bytes at a time
    assert wide.entry_parts(72) == (bits, 0, False)
    return np.asarray(wide.array)


@pytest.mark.parametrize(("kbits", "shift", "most"), [(72, 53, 63), (120, 101, 63), (128, 109, 0)])
def test_wide_keys_in_the_table_are_told_apart_exactly(kbits: int, shift: int, most: int) -> None:
    """Keys of an 8x8 board, and longer ones whose stored part crosses the entry's 64-bit split (of 128
    bits: no room left for the work)."""
    bits = MIN_TABLE_BITS
    t = _wide_table(bits)
    assert (table.tag_shift(kbits, bits), table.work_limit(shift, kbits)) == (shift, most)
    h = joined(*_scramble(*halves(2**71 + 2**64 + 12345), kbits))
    assert 2**64 <= h < 2**kbits
    _store(t, *halves(h), shift, 3, 40, 2, 10, most)
    data = _probe(t, *halves(h), shift)
    assert (table.data_lower(data), table.data_upper(data), table.data_move(data)) == (3, 40, 2)
    _store(t, *halves(h), shift, -63, 5, -1, 1, most)  # merged: the lower bound and move stay
    data = _probe(t, *halves(h), shift)
    assert (table.data_lower(data), table.data_upper(data), table.data_move(data)) == (3, 5, 2)
    # keys of the same bucket differing in the lowest or highest bit the entry keeps: not the same
    for other in (h ^ 1, h ^ 1 << (shift - 1)):
        assert other >> shift == h >> shift
        assert _probe(t, *halves(other), shift) == 0
    _store(t, *halves(h ^ 1), shift, -7, 7, 1, 2, most)
    assert table.data_lower(_probe(t, *halves(h ^ 1), shift)) == -7
    assert table.data_lower(_probe(t, *halves(h), shift)) == 3
    assert _probe(t, *halves(h ^ 1 << (shift - 1)), shift) == 0


def test_a_wide_table_grows_keeping_its_entries() -> None:
    bits, kbits = MIN_TABLE_BITS, 70
    t = _wide_table(bits)
    live = table.first_bits(bits, kbits, START_BITS)
    shift = table.tag_shift(kbits, live)
    rng = random.Random(8)
    hashes = [joined(*_scramble(*halves(rng.getrandbits(kbits)), kbits)) for _ in range(3 << live)]
    for i, h in enumerate(hashes):
        _store(t, *halves(h), shift, -(i % 21), i % 21, i % 7, i % 40, table.work_limit(shift, kbits))
    before = [_probe(t, *halves(h), shift) for h in hashes]
    assert 0 < sum(1 for data in before if data) < len(hashes)
    _grow(t, live, kbits)
    assert [_probe(t, *halves(h), shift - 1) for h in hashes] == before
    held = np.flatnonzero(t[: t.shape[0] - TABLE_HEADER])
    assert held.max() < 2 * (2 << live)  # two words an entry
