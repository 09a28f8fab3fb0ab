"""Opening books: the exact scores of every position up to some depth, read by binary search.

A book file holds, for one board size and connect-N, the score (the
solver's convention, :mod:`c4engine.search.solver.exact`) of every position reachable in
at most ``depth`` plies that is not already won, a position and its mirror
image sharing one entry.  Entries are sorted by
:meth:`~c4engine.board.Board.canonical_key`, so a lookup is a binary search
over a memory-mapped array (the way polyglot chess books are read) and
opening a book costs nothing however large it is.  Lookups read the map
with :mod:`struct` and :mod:`bisect`, not numpy: importing numpy would cost
a command answered from the book more than all the rest of its run.

File layout (little-endian), versions 1 and 2::

    offset  size  field
    0       8     magic b"C4BOOK\\x00\\x01"
    8       2     format version: 1 (keys of 8 bytes), 2 (keys of 16 bytes)
    10      1     width
    11      1     height
    12      1     connect
    13      1     depth (plies)
    14      1     score kind: 0 strong (exact scores), 1 weak (-1, 0, 1)
    15      1     sparse depth: entries deeper than ``depth``, up to this ply,
                  are a selection, not every position (0: none)
    16      8     entry count N
    24      K*N   canonical keys, strictly increasing: uint64 (K = 8, version 1)
                  or uint128 (K = 16, version 2: the low 8 bytes first)
    24+KN   N     scores, int8

A key has ``width * (height + 1)`` bits: a board that fits 64 bits is
written as version 1, byte for byte what c4engine always wrote (older
readers read it); a bigger one, up to the 128 bits the exact solver holds
(:func:`c4engine.geometry.solver_holds`), as version 2.

>>> import tempfile, pathlib
>>> from c4engine.board import Board
>>> path = pathlib.Path(tempfile.mkdtemp()) / "tiny.c4b"
>>> write_book(path, {Board(4, 4, 3).canonical_key(): 2}, width=4, height=4, connect=3, depth=0)
>>> book = OpeningBook.open(path)
>>> book.score(Board(4, 4, 3)), len(book)
(2, 1)
>>> book.score(Board.from_moves("1", 4, 4, 3)) is None   # deeper than the book
True
"""

from __future__ import annotations

import bisect
import mmap
import os
import struct
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from c4engine.board import Board
from c4engine.closing import Closing
from c4engine.errors import BookError
from c4engine.geometry import SOLVER_BITS, Geometry, fits_64_bits, solver_holds
from c4engine.lines import has_line
from c4engine.search.scale import win_score

if TYPE_CHECKING:  # numpy is imported only to write books and by keys_array / scores_array
    import numpy as np

__all__ = [
    "FORMAT_VERSION",
    "MAGIC",
    "BookHeader",
    "OpeningBook",
    "board_from_key",
    "default_book_path",
    "require_book_size",
    "write_book",
]

MAGIC: Final = b"C4BOOK\x00\x01"
FORMAT_VERSION: Final = 2
"""The newest format this c4engine reads and writes (it reads every older one)."""
NARROW_VERSION: Final = 1
"""The format of books whose keys fit 64 bits: written for every board that fits 64 bits."""
_HEADER = struct.Struct("<8sHBBBBBBQ")
_KEY_BYTES: Final = {NARROW_VERSION: 8, FORMAT_VERSION: SOLVER_BITS // 8}
_KEY_FORMATS: Final = {8: struct.Struct("<Q"), 16: struct.Struct("<QQ")}
"""A key in the file, by its bytes: one 64-bit word, or two (a 128-bit key, the low word first)."""
_SCORE = struct.Struct("<b")
_BLOCK = 8192  # entries read at a time by OpeningBook.items
HEADER_SIZE: Final = _HEADER.size
KIND_STRONG: Final = 0
KIND_WEAK: Final = 1
_KIND_NAMES: Final = {KIND_STRONG: "strong", KIND_WEAK: "weak"}

_DATA_DIR = Path(__file__).resolve().parents[2] / "data"  # c4engine/data: this file is search/book/file.py


def default_book_path(width: int = 7, height: int = 6, connect: int = 4) -> Path | None:
    """The book shipped with c4engine for this game, or None when there is none.

    >>> default_book_path().name
    'book-7x6.c4b'
    >>> default_book_path(6, 5) is None
    True
    """
    suffix = "" if connect == 4 else f"-c{connect}"
    path = _DATA_DIR / f"book-{width}x{height}{suffix}.c4b"
    return path if path.is_file() else None


@dataclass(frozen=True)
class BookHeader:
    """What a book file says about itself."""

    version: int
    width: int
    height: int
    connect: int
    depth: int
    weak: bool
    count: int
    sparse_depth: int = 0

    @property
    def reach(self) -> int:
        """The deepest ply the book holds entries for (``depth``, or ``sparse_depth`` beyond it)."""
        return max(self.depth, self.sparse_depth)

    @property
    def kind(self) -> str:
        """``"strong"`` (exact scores) or ``"weak"`` (win / draw / loss only)."""
        return "weak" if self.weak else "strong"

    @property
    def key_bytes(self) -> int:
        """The size of one key in the file: 8 bytes in version 1, 16 in version 2."""
        return _KEY_BYTES[self.version]

    def pack(self) -> bytes:
        return _HEADER.pack(
            MAGIC,
            self.version,
            self.width,
            self.height,
            self.connect,
            self.depth,
            KIND_WEAK if self.weak else KIND_STRONG,
            self.sparse_depth,
            self.count,
        )

    @classmethod
    def unpack(cls, data: bytes, source: str = "book") -> BookHeader:
        if len(data) < HEADER_SIZE:
            raise BookError(f"{source}: not a c4engine book (only {len(data)} bytes)")
        fields = _HEADER.unpack(data[:HEADER_SIZE])
        magic, version, width, height, connect, depth, kind, sparse, count = fields
        if magic != MAGIC:
            raise BookError(f"{source}: not a c4engine book (bad magic number)")
        if version not in _KEY_BYTES:
            raise BookError(
                f"{source}: book format version {version}; this c4engine reads versions "
                f"{NARROW_VERSION} to {FORMAT_VERSION}"
            )
        if kind not in _KIND_NAMES:
            raise BookError(f"{source}: unknown score kind {kind}")
        if width < 1 or height < 1 or width * (height + 1) > 8 * _KEY_BYTES[version]:
            raise BookError(f"{source}: impossible board size {width}x{height}")
        return cls(version, width, height, connect, depth, kind == KIND_WEAK, count, sparse)


def require_book_size(width: int, height: int) -> None:
    """Raise :class:`BookError` unless a book can hold positions of this size: the boards the exact
    solver holds (:func:`c4engine.geometry.solver_holds`), keys of up to 128 bits."""
    if not solver_holds(width, height):
        raise BookError(
            f"books need width * (height + 1) <= {SOLVER_BITS} bits, the boards the exact solver holds; "
            f"{width}x{height} needs {width * (height + 1)}"
        )


def format_version(width: int, height: int) -> int:
    """The format a book of this size is written in: version 1 (8-byte keys) while the keys fit
    64 bits, else version 2 (16-byte keys).

    >>> format_version(7, 6), format_version(10, 6)
    (1, 2)
    """
    return NARROW_VERSION if fits_64_bits(width, height) else FORMAT_VERSION


def write_book(
    path: str | os.PathLike[str],
    scores: Mapping[int, int],
    *,
    width: int,
    height: int,
    connect: int,
    depth: int,
    weak: bool = False,
    sparse_depth: int = 0,
) -> None:
    """Write ``scores`` (canonical key -> score) as a book file, atomically (a temporary file renamed).

    ``depth`` is the last ply every position of which is in ``scores``;
    ``sparse_depth`` (if deeper) the last ply of the selected positions beyond it.
    The same scores always give the same bytes.
    """
    require_book_size(width, height)
    import numpy as np

    ordered = sorted(scores)
    version = format_version(width, height)
    key_bytes = _KEY_BYTES[version]
    keys = b"".join(key.to_bytes(key_bytes, "little") for key in ordered)
    values = np.fromiter((scores[key] for key in ordered), dtype=np.int8, count=len(ordered))
    header = BookHeader(version, width, height, connect, depth, weak, len(ordered), sparse_depth)
    target = Path(path)
    temporary = target.with_name(target.name + ".tmp")
    with open(temporary, "wb") as handle:
        handle.write(header.pack())
        handle.write(keys)
        handle.write(values.tobytes())
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, target)


class OpeningBook(Closing):
    """A book file opened for lookups (memory-mapped; :meth:`close` or ``with`` releases it).

    ``score(board)`` is the exact score of a position (None when the book
    does not hold it: deeper than the book, or already won);
    ``move_scores(board)`` scores every move the way
    :meth:`c4engine.search.solver.exact.Solver.analyze` does (None where the book
    lacks the child): every move of a position shallower than ``depth``,
    only some beyond it.
    """

    def __init__(self, path: Path, header: BookHeader, keys: _MappedColumn, scores: _MappedColumn) -> None:
        self.path = path
        self.header = header
        self._keys = keys
        self._scores = scores
        self._geometry = Geometry.of(header.width, header.height, header.connect)

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> OpeningBook:
        """Open a book file; a missing, truncated or foreign file is a :class:`BookError`."""
        source = Path(path)
        try:
            with open(source, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                head = handle.read(HEADER_SIZE)
                header = BookHeader.unpack(head, str(source))
                expected = HEADER_SIZE + (header.key_bytes + 1) * header.count
                if size != expected:
                    raise BookError(f"{source}: {size} bytes, but its header promises {expected} (damaged?)")
                mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        except OSError as error:
            raise BookError(f"cannot read the book {source}: {error.strerror}") from None
        keys = _MappedColumn(mapped, HEADER_SIZE, _KEY_FORMATS[header.key_bytes], header.count)
        scores = _MappedColumn(mapped, HEADER_SIZE + header.key_bytes * header.count, _SCORE, header.count)
        return cls(source, header, keys, scores)

    # --------------------------------------------------------------- header

    @property
    def width(self) -> int:
        return self.header.width

    @property
    def height(self) -> int:
        return self.header.height

    @property
    def connect(self) -> int:
        return self.header.connect

    @property
    def depth(self) -> int:
        """The last ply the book covers completely."""
        return self.header.depth

    @property
    def sparse_depth(self) -> int:
        """The last ply of the selected positions beyond ``depth`` (0: the book has none)."""
        return self.header.sparse_depth

    @property
    def weak(self) -> bool:
        return self.header.weak

    def fits(self, board: Board) -> bool:
        """Whether ``board`` has this book's size and connect-N."""
        return (board.width, board.height, board.connect) == (self.width, self.height, self.connect)

    def __len__(self) -> int:
        return self.header.count

    def __repr__(self) -> str:
        h = self.header
        return (
            f"OpeningBook({str(self.path)!r}, {h.width}x{h.height} connect {h.connect}, "
            f"depth {h.depth}, {h.kind}, {h.count} positions)"
        )

    # -------------------------------------------------------------- lookups

    def _check(self, board: Board) -> None:
        if not self.fits(board):
            raise BookError(
                f"this book is for {self.width}x{self.height} connect {self.connect}, not "
                f"{board.width}x{board.height} connect {board.connect}"
            )

    def lookup_key(self, key: int) -> int | None:
        """The score stored under a canonical key, or None."""
        if not 0 <= key < 1 << 8 * self.header.key_bytes:
            return None
        index = bisect.bisect_left(self._keys, key)
        if index < len(self._keys) and self._keys[index] == key:
            return self._scores[index]
        return None

    def score(self, board: Board) -> int | None:
        """The score of ``board`` for the side to move, or None if the book does not hold it.

        A board of another size or connect-N is a :class:`BookError`.
        """
        self._check(board)
        if board.move_count > self.header.reach or board.is_over:
            return None
        return self.lookup_key(board.canonical_key())

    def __contains__(self, board: object) -> bool:
        return isinstance(board, Board) and self.fits(board) and self.score(board) is not None

    def move_scores(self, board: Board) -> list[int | None]:
        """The score of each column for the side to move: None for a full column or one the book lacks.

        A move that wins at once scores directly, as does one filling the
        board (a draw); other moves are the negated book score of the child.
        """
        self._check(board)
        if board.is_over:
            return [None] * board.width
        cells = board.width * board.height
        stones = board.move_count
        win = 1 if self.weak else win_score(cells, stones)
        scores: list[int | None] = []
        child = board.copy()
        for column in range(board.width):
            if not board.can_play(column):
                scores.append(None)
            elif board.is_winning_move(column):
                scores.append(win)
            elif stones + 1 == cells:
                scores.append(0)
            else:
                child.play(column)
                found = self.score(child)
                child.undo()
                scores.append(None if found is None else -found)
        return scores

    def keeping_move(self, board: Board, score: int) -> int | None:
        """The most central move that the book shows keeps ``board``'s exact ``score``, or None.

        None when the book holds no such child: some move still keeps the
        score (when it is the position's), but the book cannot tell which.
        """
        scores = self.move_scores(board)
        return board.geometry.most_central([c for c, found in enumerate(scores) if found == score])

    def items(self) -> Iterator[tuple[int, int]]:
        """Every (canonical key, score), in key order."""
        yield from zip(self._keys.values(), self._scores.values(), strict=True)

    def keys_array(self) -> np.ndarray:
        """The sorted keys, as a read-only numpy array: of uint64, or of Python integers (``object``)
        when the keys are wider than numpy's integers (a board over 64 bits)."""
        if self.header.key_bytes == 8:
            return _array(self._keys, "<u8")
        import numpy as np

        keys = np.array(list(self._keys.values()), dtype=object)
        keys.flags.writeable = False
        return keys

    def entry(self, index: int) -> tuple[int, int]:
        """The ``index``-th (canonical key, score), in key order."""
        return self._keys[index], self._scores[index]

    def scores_array(self) -> np.ndarray:
        """The scores, in key order, as a read-only numpy array."""
        return _array(self._scores, "<i1")

    def board(self, key: int) -> Board:
        """A board (with a move history) for a canonical key of this book's geometry."""
        return board_from_key(key, self.width, self.height, self.connect)

    def close(self) -> None:
        """Release the memory map."""
        self._keys.mapped.close()  # the scores share it


class _MappedColumn:
    """``count`` little-endian numbers of one ``item`` format from ``offset`` of a memory-mapped file.

    Each index is unpacked when read (``bisect`` needs only a length and
    indexing), so a lookup touches only the pages its binary search visits.
    """

    def __init__(self, mapped: mmap.mmap, offset: int, item: struct.Struct, count: int) -> None:
        self.mapped = mapped
        self.offset = offset
        self.item = item
        self.count = count

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index: int, /) -> int:
        if not 0 <= index < self.count:
            raise IndexError(index)
        return _number(self.item.unpack_from(self.mapped, self.offset + index * self.item.size))

    def values(self) -> Iterator[int]:
        """Every number, in order, unpacked a block at a time from a copy of it.

        Copies, not views of the map: a view would keep the book from being
        closed while an iteration is left unfinished.
        """
        size = self.item.size
        for start in range(0, self.count, _BLOCK):
            stop = min(self.count, start + _BLOCK)
            block = self.mapped[self.offset + start * size : self.offset + stop * size]
            for parts in self.item.iter_unpack(block):
                yield _number(parts)

    def raw(self) -> bytes:
        """A copy of the column's bytes."""
        return self.mapped[self.offset : self.offset + self.count * self.item.size]


def _number(words: tuple[int, ...]) -> int:
    """One number of the file from its little-endian words as :mod:`struct` reads them: a 128-bit
    key is two 64-bit words, the low one first."""
    return words[0] if len(words) == 1 else words[0] | words[1] << 64


def _array(column: _MappedColumn, dtype: str) -> np.ndarray:
    """A column as a read-only numpy array: a copy, so that the book can still be closed."""
    import numpy as np

    return np.frombuffer(column.raw(), dtype=dtype)


def board_from_key(key: int, width: int = 7, height: int = 6, connect: int = 4) -> Board:
    """A board whose :meth:`~c4engine.board.Board.key` is ``key``, with some legal move order leading to it.

    The stones are taken off from the top, the last mover's first, with
    backtracking; a key that no game reaches is a :class:`BookError`.

    >>> board_from_key(Board.from_moves("4453").key()).key() == Board.from_moves("4453").key()
    True
    """
    geometry = Geometry.of(width, height, connect)
    stride = geometry.column_stride
    column_bits = (1 << stride) - 1
    current = mask = 0
    for column in range(width):
        value = ((key >> (column * stride)) & column_bits) + 1
        stones = value.bit_length() - 1
        if stones > height:
            raise BookError(f"key {key} is not a {width}x{height} position")
        current |= (value - (1 << stones)) << (column * stride)
        mask |= ((1 << stones) - 1) << (column * stride)
    if current + mask != key:
        raise BookError(f"key {key} is not a {width}x{height} position")
    count = mask.bit_count()
    # ``current`` holds the stones of the side to move; the other side moved last.
    last_mover = current ^ mask
    if has_line(current, height, connect):
        raise BookError(f"key {key}: no game reaches this position")
    moves = _unplay(last_mover, current, mask, count, geometry, set())
    if moves is None:
        raise BookError(f"key {key}: no game reaches this position")
    return Board.from_moves(moves, width, height, connect)


def _top_stone(mask: int, column: int, geometry: Geometry) -> int:
    column_stones = mask & geometry.column_mask(column)
    return 1 << (column_stones.bit_length() - 1) if column_stones else 0


def _unplay(
    mover: int, other: int, mask: int, count: int, geometry: Geometry, dead: set[tuple[int, int]]
) -> list[int] | None:
    """A move order (0-based columns) building ``mover``/``other``; ``mover`` placed the last stone."""
    if count == 0:
        return []
    if (mover, mask) in dead:
        return None
    for column in geometry.center_order:
        top = _top_stone(mask, column, geometry)
        if not top or not mover & top:
            continue
        before = mover ^ top
        if has_line(before, geometry.height, geometry.connect):
            continue  # the game would have ended before this stone
        rest = _unplay(other, before, mask ^ top, count - 1, geometry, dead)
        if rest is not None:
            rest.append(column)
            return rest
    dead.add((mover, mask))
    return None
