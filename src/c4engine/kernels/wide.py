"""A 128-bit unsigned word for numba: the bitboards of boards past 64 bits, as two 64-bit halves.

numba has no integer wider than 64 bits.  This module gives numba a type,
:data:`uint128`, whose value is a pair of LLVM ``i64`` (low, high), and
lowers each operator the kernels use on bitboards to operations on the
halves in the IR numba hands to LLVM: a shift is one of each half carried
across the split (``llvm.fshl``/``fshr``) and the halves chosen by the
amount's 64 bit, a sum carries from the low half (``add``/``adc``), a bit
count adds the halves' ``popcnt``.  LLVM's own ``i128`` would be split the
same way, but only when machine code is made, after the optimisations:
written in halves, the loops over the columns are vectorised and the
tests of a shift amount hoisted out of them -- the move ranking's inner
work takes 0.3 of the time it took on ``i128`` (docs/benchmarks-log.md,
"Boards past 64 bits").  The operators:

* ``& | ^ + - * << >>`` (and their in-place forms), ``~``, ``== != < <= > >=``
  (unsigned), truth (``if x:``, ``not x``), between two words or a word and any
  numba integer (widened: unsigned ones with zeros, signed ones with their sign);
* a variable may hold a uint64 at one point and a word at another (``out = U0``,
  then ``out |= word``): numba unifies the two as a word;
* :func:`word` builds one from two uint64 halves, :func:`low` and :func:`high` take
  them back (on a uint64, :func:`low` is the value itself and :func:`high` 0);
* :func:`constant` is a constant of a value's word type, :func:`word_bits` its bits;
* :func:`zero_of` is a zero of the word type an array holds (a uint64 array of
  one more dimension, the last of two: low and high half, holds words), and
  :func:`get`, :func:`put`, :func:`get1`, :func:`put1` read and write values of
  that type, so that one kernel source serves both: on uint64 arrays they are
  plain indexing, and the 64-bit kernels' code does not change;
* :func:`load_entry` and :func:`store_entry` read and write a transposition
  table entry, a uint64 or a 128-bit word whose type is the key's, whole: the
  128-bit ones as one atomic access (LLVM: one 16-byte vector move on a
  processor with AVX), so that threads sharing a table never see half of one
  entry and half of another.

The kernel source is the same for both words; the 64-bit one compiles as
before (docs/architecture.md, "Boards past 64 bits").  The overloads are
compiled as functions of their own, which LLVM inlines, as every kernel
function is (:mod:`c4engine.kernels.build`): inlined by numba at the IR
level (``inline="always"``), the same overload inlined several times into one
loop (the table's ``grow``) was seen to compute a different table than the
plain indexing it stands for.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import extending, types
from numba.core import imputils
from numba.core.datamodel import models
from numba.core.typing import templates

# numba's registration decorators, untyped for mypy
lower_builtin: Any = imputils.lower_builtin
lower_cast: Any = imputils.lower_cast
AbstractTemplate: Any = templates.AbstractTemplate
infer_global: Any = templates.infer_global
signature: Any = templates.signature
intrinsic: Any = extending.intrinsic
overload: Any = extending.overload
register_model: Any = extending.register_model
unliteral: Any = types.unliteral

__all__ = [
    "WORD_BITS",
    "constant",
    "get",
    "get1",
    "high",
    "load_entry",
    "low",
    "put",
    "put1",
    "store_entry",
    "uint128",
    "word",
    "word_bits",
    "zero_of",
]

WORD_BITS = 128
"""Bits of the wide word."""

_I128 = ir.IntType(128)
_I64 = ir.IntType(64)
_PAIR = ir.LiteralStructType([_I64, _I64])  # a word's value: its low and high halves


class UInt128(types.Type):
    """numba's type of a 128-bit unsigned word."""

    def __init__(self) -> None:
        super().__init__(name="uint128")

    def unify(self, typingctx: Any, other: types.Type) -> types.Type | None:
        """A word and an integer held by one variable: a word (the integer widened)."""
        if isinstance(other, types.Integer):
            return self
        return None

    def can_convert_from(self, typingctx: Any, other: types.Type) -> Any:
        """An integer passed where a word is expected widens safely."""
        from numba.core.typeconv.castgraph import Conversion

        if isinstance(other, types.Integer):
            return Conversion.safe
        return None


uint128 = UInt128()
"""The numba type of a 128-bit word."""


@register_model(UInt128)
class _WordModel(models.PrimitiveModel):
    def __init__(self, dmm: Any, fe_type: types.Type) -> None:
        super().__init__(dmm, fe_type, _PAIR)  # type: ignore[no-untyped-call]


def _halves(builder: Any, value: Any) -> tuple[Any, Any]:
    """The (low, high) i64 halves of a word's value."""
    return builder.extract_value(value, 0), builder.extract_value(value, 1)


def _joined(builder: Any, low_bits: Any, high_bits: Any) -> Any:
    """The word's value of two i64 halves."""
    return builder.insert_value(builder.insert_value(ir.Constant(_PAIR, None), low_bits, 0), high_bits, 1)


def _to_i128(builder: Any, value: Any) -> Any:
    """A word's value as one LLVM ``i128`` (for the atomic 16-byte access)."""
    low_bits, high_bits = (builder.zext(half, _I128) for half in _halves(builder, value))
    return builder.or_(builder.shl(high_bits, _I128(64)), low_bits)


def _from_i128(builder: Any, value: Any) -> Any:
    """The word's value of an LLVM ``i128``."""
    return _joined(builder, builder.trunc(value, _I64), builder.trunc(builder.lshr(value, _I128(64)), _I64))


def _widen(builder: Any, value: Any, kind: types.Type) -> tuple[Any, Any]:
    """``value`` of numba type ``kind`` (a word or an integer) as (low, high) i64 halves."""
    if kind == uint128:
        return _halves(builder, value)
    if isinstance(kind, types.Boolean):
        return builder.zext(value, _I64), _I64(0)
    signed = kind.signed  # type: ignore[attr-defined]
    if kind.bitwidth < 64:  # type: ignore[attr-defined]
        value = builder.sext(value, _I64) if signed else builder.zext(value, _I64)
    return value, builder.ashr(value, _I64(63)) if signed else _I64(0)


@lower_cast(types.Integer, UInt128)  # type: ignore[untyped-decorator]
@lower_cast(types.IntegerLiteral, UInt128)  # type: ignore[untyped-decorator]
def _integer_to_word(context: Any, builder: Any, fromty: types.Type, toty: types.Type, value: Any) -> Any:
    return _joined(builder, *_widen(builder, value, fromty))


def _is_operand(kind: types.Type) -> bool:
    return kind == uint128 or isinstance(kind, types.Integer)


def _register_binary(ops: tuple[Any, ...], emit: Any, result: types.Type) -> None:
    """Type and lower ``ops`` on (word or integer, word or integer), one of them a word: both
    widened to (low, high) halves, combined by ``emit(builder, a, b)``, the result of type
    ``result`` (a word is returned by ``emit`` as its two halves)."""

    class Template(AbstractTemplate):  # type: ignore[misc]
        def generic(self, args: tuple[types.Type, ...], kws: dict[str, Any]) -> Any:
            if len(args) != 2 or kws or uint128 not in args or not all(_is_operand(a) for a in args):
                return None
            return signature(result, *(unliteral(a) for a in args))

    def lower(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        a, b = (_widen(builder, v, k) for v, k in zip(args, sig.args, strict=True))
        made = emit(builder, a, b)
        return _joined(builder, *made) if result == uint128 else made

    for op in ops:
        infer_global(op)(type(f"Word_{op.__name__}", (Template,), {"key": op}))
        for pair in ((UInt128, UInt128), (UInt128, types.Integer), (types.Integer, UInt128)):
            lower_builtin(op, *pair)(lower)


def _add(builder: Any, a: Any, b: Any) -> tuple[Any, Any]:
    low_bits = builder.add(a[0], b[0])
    carry = builder.zext(builder.icmp_unsigned("<", low_bits, a[0]), _I64)
    return low_bits, builder.add(builder.add(a[1], b[1]), carry)


def _sub(builder: Any, a: Any, b: Any) -> tuple[Any, Any]:
    borrow = builder.zext(builder.icmp_unsigned("<", a[0], b[0]), _I64)
    return builder.sub(a[0], b[0]), builder.sub(builder.sub(a[1], b[1]), borrow)


def _mul(builder: Any, a: Any, b: Any) -> tuple[Any, Any]:
    # modulo 2**128: low * low in full (one 64x64->128 multiply), the cross terms' low halves
    full = builder.mul(builder.zext(a[0], _I128), builder.zext(b[0], _I128))
    high_bits = builder.trunc(builder.lshr(full, _I128(64)), _I64)
    high_bits = builder.add(high_bits, builder.add(builder.mul(a[0], b[1]), builder.mul(a[1], b[0])))
    return builder.trunc(full, _I64), high_bits


def _funnel(builder: Any, name: str, high_bits: Any, low_bits: Any, amount: Any) -> Any:
    kind = ir.FunctionType(_I64, [_I64, _I64, _I64])
    return builder.call(builder.module.declare_intrinsic(name, [_I64], kind), [high_bits, low_bits, amount])


def _shift(left: bool) -> Any:
    """A shift by ``b``'s low half (below 128, as for an ``i128``): a shift of each half by it
    modulo 64 carried across the split (a funnel shift), the halves swapped when it is 64 or more."""

    def emit(builder: Any, a: Any, b: Any) -> tuple[Any, Any]:
        amount = builder.and_(b[0], _I64(63))
        past = builder.icmp_unsigned("!=", builder.and_(b[0], _I64(64)), _I64(0))
        zero = _I64(0)
        if left:
            moved = builder.shl(a[0], amount)
            carried = _funnel(builder, "llvm.fshl", a[1], a[0], amount)
            return builder.select(past, zero, moved), builder.select(past, moved, carried)
        moved = builder.lshr(a[1], amount)
        carried = _funnel(builder, "llvm.fshr", a[1], a[0], amount)
        return builder.select(past, moved, carried), builder.select(past, zero, moved)

    return emit


def _compare(predicate: str) -> Any:
    """Unsigned ``predicate``: the high halves decide unless equal, then the low ones."""
    strict = {"<=": "<", ">=": ">"}.get(predicate, predicate)

    def emit(builder: Any, a: Any, b: Any) -> Any:
        if predicate in ("==", "!="):
            low_bits = builder.icmp_unsigned(predicate, a[0], b[0])
            high_bits = builder.icmp_unsigned(predicate, a[1], b[1])
            both = builder.and_ if predicate == "==" else builder.or_  # equal: both halves; unequal: either
            return both(low_bits, high_bits)
        by_high = builder.icmp_unsigned(strict, a[1], b[1])
        by_low = builder.icmp_unsigned(predicate, a[0], b[0])
        return builder.select(builder.icmp_unsigned("==", a[1], b[1]), by_low, by_high)

    return emit


def _halfwise(method: str) -> Any:
    return lambda builder, a, b: tuple(getattr(builder, method)(x, y) for x, y in zip(a, b, strict=True))


_register_binary((operator.and_, operator.iand), _halfwise("and_"), uint128)
_register_binary((operator.or_, operator.ior), _halfwise("or_"), uint128)
_register_binary((operator.xor, operator.ixor), _halfwise("xor"), uint128)
_register_binary((operator.add, operator.iadd), _add, uint128)
_register_binary((operator.sub, operator.isub), _sub, uint128)
_register_binary((operator.mul, operator.imul), _mul, uint128)
_register_binary((operator.lshift, operator.ilshift), _shift(left=True), uint128)
_register_binary((operator.rshift, operator.irshift), _shift(left=False), uint128)
for _op, _predicate in (
    (operator.eq, "=="),
    (operator.ne, "!="),
    (operator.lt, "<"),
    (operator.le, "<="),
    (operator.gt, ">"),
    (operator.ge, ">="),
):
    _register_binary((_op,), _compare(_predicate), types.boolean)


def _register_unary(ops: tuple[Any, ...], emit: Any, result: types.Type) -> None:
    class Template(AbstractTemplate):  # type: ignore[misc]
        def generic(self, args: tuple[types.Type, ...], kws: dict[str, Any]) -> Any:
            if len(args) == 1 and not kws and args[0] == uint128:
                return signature(result, uint128)
            return None

    def lower(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        return emit(builder, *_halves(builder, args[0]))

    for op in ops:
        if op is not bool:  # bool(x) is typed by numba through operator.truth
            infer_global(op)(type(f"Word_{op.__name__}", (Template,), {"key": op}))
        lower_builtin(op, UInt128)(lower)


_register_unary((operator.invert,), lambda b, x, y: _joined(b, b.not_(x), b.not_(y)), uint128)
_register_unary(
    (operator.truth, bool), lambda b, x, y: b.icmp_unsigned("!=", b.or_(x, y), _I64(0)), types.boolean
)
_register_unary((operator.not_,), lambda b, x, y: b.icmp_unsigned("==", b.or_(x, y), _I64(0)), types.boolean)


def word_bit_count(builder: Any, name: str, value: Any, zero_poison: bool | None) -> Any:
    """LLVM bit-count intrinsic ``name`` (``llvm.ctpop``, ``llvm.cttz``, ``llvm.ctlz``, with its
    ``zero_poison`` flag, None for ctpop) of a word's value, an i64, from its halves."""
    low_bits, high_bits = _halves(builder, value)
    if name == "llvm.ctpop":
        return builder.add(builder.ctpop(low_bits), builder.ctpop(high_bits))
    # trailing zeros are counted from the low half, leading zeros from the high; the other half's
    # count, plus 64, when the first is 0
    first, second = (low_bits, high_bits) if name == "llvm.cttz" else (high_bits, low_bits)
    count = builder.module.declare_intrinsic(name, [_I64, ir.IntType(1)])
    in_first = builder.call(count, [first, ir.IntType(1)(0)])
    in_second = builder.add(builder.call(count, [second, ir.IntType(1)(int(bool(zero_poison)))]), _I64(64))
    return builder.select(builder.icmp_unsigned("==", first, _I64(0)), in_second, in_first)


@intrinsic  # type: ignore[untyped-decorator]
def word(typingctx: Any, high_half: types.Type, low_half: types.Type) -> Any:
    """The 128-bit word of two uint64 halves: ``high_half * 2**64 + low_half``."""
    if high_half != types.uint64 or low_half != types.uint64:
        return None

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        high_bits, low_bits = args
        return _joined(builder, low_bits, high_bits)

    return uint128(types.uint64, types.uint64), codegen


def _half128(index: int) -> Any:
    """An intrinsic giving half ``index`` of a 128-bit word (0 the low 64 bits, 1 the high) as a
    uint64."""

    @intrinsic  # type: ignore[untyped-decorator]
    def half(typingctx: Any, value: types.Type) -> Any:
        if value != uint128:
            return None

        def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
            return builder.extract_value(args[0], index)

        return types.uint64(uint128), codegen

    return half


_low128 = _half128(0)
_high128 = _half128(1)


def low(value: Any) -> Any:
    """The low 64 bits of a word, as a uint64 (an integer of 64 bits: itself)."""
    raise NotImplementedError("compiled only")


def high(value: Any) -> Any:
    """The high 64 bits of a word, as a uint64 (a uint64: 0)."""
    raise NotImplementedError("compiled only")


def word_bits(value: Any) -> Any:
    """Bits of ``value``'s word type: 64 or 128, a constant once compiled."""
    raise NotImplementedError("compiled only")


def constant(like: Any, high_half: Any, low_half: Any) -> Any:
    """A constant of ``like``'s word type: ``low_half`` for a uint64, the word of both halves for a
    128-bit one."""
    raise NotImplementedError("compiled only")


def zero_of(array: Any) -> Any:
    """A zero of the word type ``array`` holds (see the module's doc)."""
    raise NotImplementedError("compiled only")


def get(array: Any, i: Any, j: Any) -> Any:
    """The word ``[i, j]`` of a 2-D array of words."""
    raise NotImplementedError("compiled only")


def put(array: Any, i: Any, j: Any, value: Any) -> None:
    """Set the word ``[i, j]`` of a 2-D array of words."""
    raise NotImplementedError("compiled only")


def get1(array: Any, i: Any) -> Any:
    """The word ``[i]`` of a 1-D array of words."""
    raise NotImplementedError("compiled only")


def put1(array: Any, i: Any, value: Any) -> None:
    """Set the word ``[i]`` of a 1-D array of words."""
    raise NotImplementedError("compiled only")


def load_entry(table: Any, index: Any, key: Any) -> Any:
    """Table entry ``index`` of ``table`` (uint64 words), of ``key``'s word type, read whole."""
    raise NotImplementedError("compiled only")


def store_entry(table: Any, index: Any, key: Any, value: Any) -> None:
    """Write ``value`` as table entry ``index`` of ``table`` whole (``key`` gives the word type)."""
    raise NotImplementedError("compiled only")


@overload(low)
def _low_overload(value):  # type: ignore[no-untyped-def]
    if value == uint128:
        return lambda value: _low128(value)
    if isinstance(value, types.Integer):  # a uint64, or an int64 as a caller from Python passes one
        return lambda value: value
    return None


@overload(high)
def _high_overload(value):  # type: ignore[no-untyped-def]
    if value == uint128:
        return lambda value: _high128(value)
    if value == types.uint64:
        return lambda value: np.uint64(0)
    return None


@overload(word_bits)
def _word_bits_overload(value):  # type: ignore[no-untyped-def]
    bits = WORD_BITS if value == uint128 else 64
    return lambda value: bits


@overload(constant)
def _constant_overload(like, high_half, low_half):  # type: ignore[no-untyped-def]
    if like == uint128:
        return lambda like, high_half, low_half: word(high_half, low_half)
    return lambda like, high_half, low_half: low_half


def _is_wide(array: types.Type, ndim: int) -> bool:
    """Whether ``array`` holds words of 128 bits, where one of 64 would have ``ndim`` dimensions."""
    return isinstance(array, types.Array) and array.ndim == ndim + 1


@overload(zero_of)
def _zero_of_overload(array):  # type: ignore[no-untyped-def]
    if not isinstance(array, types.Array):
        return None
    if array.ndim == 3:
        return lambda array: word(np.uint64(0), np.uint64(0))
    return lambda array: np.uint64(0)


@overload(get)
def _get_overload(array, i, j):  # type: ignore[no-untyped-def]
    if _is_wide(array, 2):
        return lambda array, i, j: word(array[i, j, 1], array[i, j, 0])
    return lambda array, i, j: array[i, j]


@overload(put)
def _put_overload(array, i, j, value):  # type: ignore[no-untyped-def]
    if _is_wide(array, 2):

        def put_wide(array, i, j, value):  # type: ignore[no-untyped-def]
            array[i, j, 0] = low(value)
            array[i, j, 1] = high(value)

        return put_wide

    def put_narrow(array, i, j, value):  # type: ignore[no-untyped-def]
        array[i, j] = value

    return put_narrow


@overload(get1)
def _get1_overload(array, i):  # type: ignore[no-untyped-def]
    if _is_wide(array, 1):
        return lambda array, i: word(array[i, 1], array[i, 0])
    return lambda array, i: array[i]


@overload(put1)
def _put1_overload(array, i, value):  # type: ignore[no-untyped-def]
    if _is_wide(array, 1):

        def put_wide(array, i, value):  # type: ignore[no-untyped-def]
            array[i, 0] = low(value)
            array[i, 1] = high(value)

        return put_wide

    def put_narrow(array, i, value):  # type: ignore[no-untyped-def]
        array[i] = value

    return put_narrow


def _entry_pointer(context: Any, builder: Any, array_type: types.Type, array: Any, index: Any) -> Any:
    """The address of 128-bit entry ``index`` (two uint64 words from word ``2 * index``) as an i128*."""
    structure = context.make_array(array_type)(context, builder, array)
    pointer = builder.gep(structure.data, [builder.shl(index, ir.Constant(index.type, 1))])
    return builder.bitcast(pointer, _I128.as_pointer())


@intrinsic  # type: ignore[untyped-decorator]
def _load128(typingctx: Any, table: types.Type, index: types.Type) -> Any:
    if not isinstance(table, types.Array) or not isinstance(index, types.Integer):
        return None

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        pointer = _entry_pointer(context, builder, sig.args[0], *args)
        return _from_i128(builder, builder.load_atomic(pointer, "monotonic", 16))

    return uint128(table, index), codegen


@intrinsic  # type: ignore[untyped-decorator]
def _store128(typingctx: Any, table: types.Type, index: types.Type, value: types.Type) -> Any:
    if not isinstance(table, types.Array) or not isinstance(index, types.Integer) or value != uint128:
        return None

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        pointer = _entry_pointer(context, builder, sig.args[0], args[0], args[1])
        builder.store_atomic(_to_i128(builder, args[2]), pointer, "monotonic", 16)
        return context.get_dummy_value()

    return types.void(table, index, uint128), codegen


@overload(load_entry)
def _load_entry_overload(table, index, key):  # type: ignore[no-untyped-def]
    if key == uint128:
        return lambda table, index, key: _load128(table, index)
    return lambda table, index, key: table[index]


@overload(store_entry)
def _store_entry_overload(table, index, key, value):  # type: ignore[no-untyped-def]
    if key == uint128:

        def store_wide(table, index, key, value):  # type: ignore[no-untyped-def]
            _store128(table, index, value | (key ^ key))  # an integer 0 as a word

        return store_wide

    def store_narrow(table, index, key, value):  # type: ignore[no-untyped-def]
        table[index] = value

    return store_narrow
