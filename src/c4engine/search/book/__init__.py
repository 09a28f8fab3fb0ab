"""Opening books: the exact scores of every position up to some depth, in one file a board.

:class:`~c4engine.search.book.file.OpeningBook` reads a book file by binary search over a memory map;
:func:`~c4engine.search.book.file.write_book` writes one (``c4 book build`` builds them,
:mod:`c4engine.experiments.book_builder`).
"""
