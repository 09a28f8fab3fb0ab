"""A fuzz test of the whole ``c4`` command line: careless values for every option of every command.

The commands and their options are read from the argparse parser itself, so an option added
later is fuzzed too (and a new command fails :func:`test_every_command_has_a_base_invocation`
until it gets a base invocation below).  Each option gets the careless values of its kind
(empty, negative, zero, huge, NaN, inf, unicode, 100,000 characters, binary files,
directories, missing and unwritable paths, files of the wrong format).  The floor they must
meet:

* no traceback, ever;
* a value every reading of the option refuses exits with status 2 and at most 3 short lines
  (at most :data:`MAX_LINE` characters each) on standard error, the first
  ``c4 COMMAND: error: ...`` naming the option -- and *before any work starts*;
* any other value (zero, -1, huge numbers...) is either refused that way or accepted.

The commands run in this process (:func:`c4engine.cli.main.main`), with the entry of their
long work (the search, the games, the server...) replaced by a stub that raises
:class:`WorkStarted`: reaching it means the command accepted its options, so a refusal that
comes later would come after the work.  A few cases run through a real ``c4`` process too.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.cli.test_careless_input import assert_usage_error
from tests.conftest import c4_commands, run_c4

from c4engine.cli.main import main
from c4engine.cli.options import WorkerCount

EXIT_USAGE = 2
MAX_LINE = 200
MAX_LINES = 3
LONG = 100_000
"""Characters of the longest value tried."""


class WorkStarted(Exception):
    """Raised by the stubbed entry of a command's long work: the options were accepted."""


# ------------------------------------------------------------- the commands


COMMANDS = c4_commands()

# The argv each command starts from: valid, and quick to reach its (stubbed) work.  Paths are
# relative: every invocation runs in a fresh temporary folder holding the files of FIXTURES.
BASE: dict[tuple[str, ...], list[str]] = {
    ("play",): ["play"],
    ("perft",): ["perft", "--depth", "2"],
    ("solve",): ["solve", "4453"],
    ("analyze",): ["analyze", "4453"],
    ("bench",): ["bench", "good.txt"],
    ("move",): ["move", "4453"],
    ("book", "build"): ["book", "build", "--depth", "2", "--size", "4x4", "--connect", "3", "-o", "b.c4b"],
    ("book", "verify"): ["book", "verify"],
    ("book", "info"): ["book", "info"],
    ("match",): ["match", "1", "2", "--games", "2", "--db", "m.sqlite"],
    ("tune",): ["tune", "--db", "t.sqlite", "--out", "t.json"],
    ("dataset",): ["dataset", "-o", "d.csv"],
    ("serve",): ["serve"],
    ("review",): ["review", "4453"],
    ("puzzles",): ["puzzles", "good.txt", "-o", "p.jsonl"],
    ("puzzle",): ["puzzle"],
    ("explain",): ["explain", "4453"],
}

# Where each command's long work starts: (module, attribute) replaced by a stub raising WorkStarted.
WORK: list[tuple[str, str]] = [
    ("c4engine.cli.terminal.TerminalGame", "run"),
    ("c4engine.perft", "perft"),
    ("c4engine.search.analysis.analyst.Analyst", "solve"),
    ("c4engine.search.analysis.analyst.Analyst", "analyze"),
    ("c4engine.search.solver.exact", "Solver"),
    ("c4engine.cli.move", "AgentProgressLine"),
    ("c4engine.cli.book", "build_book"),
    ("c4engine.cli.book", "solve_positions"),
    ("c4engine.search.book.file.OpeningBook", "items"),
    ("c4engine.cli.match", "play_match"),
    ("c4engine.cli.tune", "tune"),
    ("c4engine.cli.dataset", "sample_positions"),
    ("c4engine.web.server", "serve"),
    ("c4engine.cli.review", "review_game"),
    ("c4engine.cli.terminal", "review_game"),
    ("c4engine.experiments.puzzles", "build_puzzles"),
    ("c4engine.cli.puzzle.PuzzleTerminal", "run"),
]

BINARY = bytes(range(256)) * 4


def write_fixtures(folder: Path) -> None:
    """The files the values below name, in ``folder``."""
    (folder / "good.txt").write_text("4453 -2\n")
    (folder / "junk.bin").write_bytes(BINARY)
    (folder / "junk.txt").write_text("this is not what the option reads\n" * 3)
    (folder / "junk.json").write_text('{"own": "many", "opponent": [1]}')
    (folder / "empty").write_text("")
    (folder / "a-dir").mkdir()
    (folder / "a-dir.json").mkdir()
    (folder / "read-only").mkdir()
    (folder / "read-only").chmod(stat.S_IRUSR | stat.S_IXUSR)


# ------------------------------------------------------------- the values


@dataclass(frozen=True)
class Values:
    """Careless values of one kind of option: ``refused`` by every reading of it, ``either`` may pass."""

    refused: tuple[str, ...]
    either: tuple[str, ...] = ()


HUGE_INT = "1" + "0" * 30
UNWRITABLE = "/sys/c4-fuzz.out" if os.geteuid() == 0 else "read-only/x.out"
"""A path in a folder no one may write (root may write a read-only folder, but not /sys)."""

JUNK_TEXT = ("", " ", "\u00fc\u00f1\u00ef\u00e7\u00f8d\u00e9", "\u202e\u200b", "-", "x" * LONG)
INTEGER = Values(
    ("", "abc", "1.5", "nan", "inf", "0x10", "\u00fc", "9" * LONG, "1e3", HUGE_INT),
    ("-1", "0", "1", "-" + HUGE_INT),
)
HUGE_OK = {"seed", "workers", "threads", "limit", "sample", "min_ply", "batch", "queue"}
"""Whole-number options for which any size means something (a seed; at most all; capped with a note).

Every other one must refuse 10**30: a count that large is a search or a loop without end.
"""
INTEGER_ANY_SIZE = Values(
    tuple(value for value in INTEGER.refused if value != HUGE_INT), (*INTEGER.either, HUGE_INT)
)
NUMBER = Values(
    ("", "abc", "nan", "-nan", "inf", "-inf", "1e308", "9" * LONG, "\u00fc", "1,5"),
    ("-1", "0", "1e-300", "1"),
)
SIZE = Values(("", "abc", "0x0", "-7x6", "7x", "x6", "1000000x6", "7x6x5", "nanxnan", "7x6" * (LONG // 3)))
CHOICE = Values(("", "nope", "\u00fc", "x" * LONG))
OUTPUT = Values(
    ("", ".", "a-dir", "no-such-dir/x.out", "good.txt/x.out", UNWRITABLE, "x" * LONG),
    ("junk.bin", "\u00fcn\u00ef.csv"),  # a file of another kind: overwritten, or refused if it is kept
)
INPUT = Values(
    ("", "a-dir", "no-such-file", "no-such-file.json", "junk.bin", "junk.txt", "empty", "x" * LONG, "\u00fc")
)
POSITION = Values(("0", "8", "x", "4444444", "4" * LONG, "\u00fc", "4,x", "\u0664"), ("",))
PLAYER = Values(("", "0", "99", "-1", "nope", "\u00fc", "x" * LONG, "no_such_module:choose", "os:nope"))
LEVEL = Values(("", "0", "-1", "99", "nope", "\u00fc", "x" * LONG, "nan"))
TEXT = Values((), (*JUNK_TEXT, "junk.json", "a-dir.json", "junk.bin"))


def kind(command: tuple[str, ...], action: argparse.Action) -> Values | None:
    """The careless values of an option (None for a flag, which takes no value)."""
    if action.nargs == 0:
        return None
    name = action.dest
    type_name = getattr(action.type, "__name__", "")
    if action.choices is not None and not isinstance(action, argparse._SubParsersAction):
        return CHOICE
    if name in {"output", "out", "db", "checkpoint", "svg"}:
        return OUTPUT
    if name in {"weights", "file", "files", "data"}:
        return INPUT
    if name in {"position", "moves"}:
        return POSITION
    if name in {"a", "b"}:
        return PLAYER
    if name == "size":
        return SIZE
    if "level" in name:
        return LEVEL if command == ("play",) else PLAYER
    if action.type is int or isinstance(action, WorkerCount):
        return INTEGER_ANY_SIZE if name in HUGE_OK else INTEGER
    if action.type is float or type_name == "table_mb":
        return NUMBER
    return TEXT


def cases() -> Iterator[tuple[tuple[str, ...], argparse.Action, Values]]:
    for command, parser in COMMANDS.items():
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            values = kind(command, action)
            if values is not None:
                yield command, action, values


def label(action: argparse.Action) -> str:
    return action.option_strings[-1] if action.option_strings else action.dest


# xfail(strict=True) for a failure in an area another helper of issue 26 fixes.
OTHERS: dict[tuple[tuple[str, ...], str], str] = {}

CASES = [
    pytest.param(
        command,
        action,
        values,
        id=f"{' '.join(command)} {label(action)}",
        marks=[pytest.mark.xfail(strict=True, reason=OTHERS[command, label(action)])]
        if (command, label(action)) in OTHERS
        else [],
    )
    for command, action, values in cases()
]


# ------------------------------------------------------------- running c4


@dataclass(frozen=True)
class Outcome:
    """How one in-process invocation ended: its status (``"work"`` if the work began) and output."""

    argv: tuple[str, ...]
    status: int | str
    stdout: str
    stderr: str


def _short(argv: Sequence[str]) -> str:
    return " ".join(repr(arg) if len(arg) < 40 else f"<{len(arg)} chars>" for arg in argv)


@contextlib.contextmanager
def stubbed_work(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    def start(*args: object, **kwargs: object) -> None:
        raise WorkStarted

    for target, attribute in WORK:
        monkeypatch.setattr(f"{target}.{attribute}", start)
    yield


def invoke(argv: Sequence[str], stdin: str = "") -> Outcome:
    """``c4 ARGV`` in this process: the exit status (or ``"work"``) and what it printed.

    A traceback -- any exception but :class:`WorkStarted` -- is returned as status
    ``"traceback"`` with the exception in ``stderr``.
    """
    out, err = io.StringIO(), io.StringIO()
    status: int | str
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(list(argv))
            except SystemExit as exit_:
                status = exit_.code if isinstance(exit_.code, int) else 1 if exit_.code else 0
            except WorkStarted:
                status = "work"
            except Exception as error:  # the floor: none may escape
                status = "traceback"
                print(f"{type(error).__name__}: {str(error)[:300]}", file=err)
    finally:
        sys.stdin = old_stdin
    return Outcome(tuple(argv), status, out.getvalue(), err.getvalue())


def refusal_problem(outcome: Outcome, command: tuple[str, ...], names: Sequence[str]) -> str | None:
    """What is wrong with ``outcome`` as a refusal naming one of ``names``; None if nothing."""
    if outcome.status != EXIT_USAGE:
        return f"status {outcome.status!r}, not {EXIT_USAGE}: {outcome.stderr.strip()[:300]!r}"
    lines = outcome.stderr.strip().splitlines()
    if not lines or len(lines) > MAX_LINES:
        return f"{len(lines)} lines on stderr: {outcome.stderr[:300]!r}"
    if any(len(line) > MAX_LINE for line in lines):
        return f"a line of {max(map(len, lines))} characters: {outcome.stderr[:300]!r}"
    prefix = f"c4 {' '.join(command)}: error: "
    if not lines[0].startswith(prefix):
        return f"does not start with {prefix!r}: {lines[0]!r}"
    said = _plain(outcome.stderr)
    if names and not any(name in outcome.stderr or _plain(name) in said for name in names if len(name) > 1):
        return f"names none of {list(names)}: {lines[0]!r}"
    return None


def _plain(text: str) -> str:
    """``text`` lower-case with ``-`` and ``_`` as blanks: ``--random-plies`` is named as "random plies"."""
    return text.lower().replace("-", " ").replace("_", " ")


def with_value(command: tuple[str, ...], action: argparse.Action, value: str) -> list[str]:
    """The base invocation of ``command`` with ``value`` for ``action`` (replaced, else added)."""
    argv = list(BASE[command])
    if action.option_strings:
        for index, word in enumerate(argv):
            if word in action.option_strings:
                argv[index + 1] = value
                return argv
        return [*argv, action.option_strings[-1], value]
    positionals = [a for a in COMMANDS[command]._actions if not a.option_strings and a.nargs != 0]
    given = argv[len(command) :]
    first_option = next((i for i, word in enumerate(given) if word.startswith("-")), len(given))
    words = given[:first_option]
    index = positionals.index(action)
    if index < len(words):
        words[index] = value
    else:
        words.append(value)
    # after "--": a value that starts with "-" is still the positional
    return [*command, *given[first_option:], "--", *words]


@pytest.fixture
def fuzz_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], Path]]:
    """Stubs the work; each call makes a fresh folder with the fixtures and goes into it."""
    monkeypatch.setenv("NO_COLOR", "1")
    folders = iter(range(10**9))

    def fresh() -> Path:
        folder = tmp_path / str(next(folders))
        folder.mkdir()
        write_fixtures(folder)
        os.chdir(folder)
        return folder

    monkeypatch.chdir(tmp_path)
    with stubbed_work(monkeypatch):
        yield fresh
    for folder in tmp_path.iterdir():  # let pytest remove them
        if (folder / "read-only").exists():
            (folder / "read-only").chmod(stat.S_IRWXU)


# ------------------------------------------------------------- the tests


INVOCATIONS: list[int] = []


def test_every_command_has_a_base_invocation() -> None:
    assert sorted(BASE) == sorted(COMMANDS), "give each command of c4 a base invocation in BASE"


def test_the_base_invocations_reach_the_work(fuzz_folder: Callable[[], Path]) -> None:
    for command in COMMANDS:
        fuzz_folder()
        outcome = invoke(BASE[command])
        assert outcome.status == "work", (command, outcome)


@pytest.mark.parametrize(("command", "action", "values"), CASES)
def test_careless_values_are_refused_in_one_short_line(
    fuzz_folder: Callable[[], Path], command: tuple[str, ...], action: argparse.Action, values: Values
) -> None:
    # An option is named as given (-o, --size) or by its name (board size ...); a positional by its place.
    names = [*action.option_strings, *(spelling.lstrip("-") for spelling in action.option_strings)]
    problems = []
    for value, must_refuse in [*((v, True) for v in values.refused), *((v, False) for v in values.either)]:
        argv = with_value(command, action, value)
        fuzz_folder()
        outcome = invoke(argv)
        if outcome.status == "traceback":
            problems.append(f"{_short(argv)}: traceback {outcome.stderr.strip()[-300:]!r}")
            continue
        if not must_refuse and outcome.status in ("work", 0, 1):
            continue
        problem = refusal_problem(outcome, command, names)
        if problem:
            problems.append(f"{_short(argv)}: {problem}")
    assert not problems, "\n".join(problems)


BATCH_JUNK = ("x", "0", "8", "4444444", "4" * LONG, "\x80\x81", "\u00fc", "9,9", "4" * 50 + "x")
"""Batch lines (standard input) that are no position: each is refused on its own line."""


@pytest.mark.parametrize(
    "command",
    [c for c, p in COMMANDS.items() if any(a.dest == "position" and a.nargs == "?" for a in p._actions)],
    ids=" ".join,
)
def test_careless_batch_lines_are_refused_one_by_one(
    fuzz_folder: Callable[[], Path], command: tuple[str, ...]
) -> None:
    fuzz_folder()
    outcome = invoke(list(command), stdin="".join(line + "\n" for line in BATCH_JUNK))
    assert outcome.status == 1, (outcome.status, outcome.stderr[-300:])
    lines = outcome.stderr.strip().splitlines()
    assert [line.split(":")[0] for line in lines] == [f"line {n}" for n in range(1, len(BATCH_JUNK) + 1)]
    assert max(map(len, lines)) <= MAX_LINE, lines
    assert outcome.stdout == "\n" * len(BATCH_JUNK)


# Random words in random places: the floor holds for inputs nobody listed.
WORDS = st.one_of(
    st.sampled_from(["", "-1", "0", "nan", "inf", HUGE_INT, "x" * 500, "a-dir", "junk.bin", "--", "-"]),
    st.text(max_size=12),
)


@settings(
    derandomize=True,
    deadline=None,
    max_examples=150,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_random_words_never_give_a_traceback(fuzz_folder: Callable[[], Path], data: st.DataObject) -> None:
    fuzz_folder()
    command = data.draw(st.sampled_from(sorted(COMMANDS)))
    options = [s for a in COMMANDS[command]._actions for s in a.option_strings if s not in ("-h", "--help")]
    words = data.draw(st.lists(st.one_of(st.sampled_from(options), WORDS), max_size=6))
    outcome = invoke([*BASE[command], *words])
    assert outcome.status != "traceback", (outcome.argv, outcome.stderr)
    if outcome.status == EXIT_USAGE:
        assert refusal_problem(outcome, command, []) is None, (outcome.argv, outcome.stderr)


# ------------------------------------------------------------- a real process

REAL = [
    (("solve", "4453", "extra"), ("solve",), "extra"),
    (("dataset", "-o", "", "--count", "2"), ("dataset",), "-o"),
    (("move", "4453", "--depth", "1000"), ("move",), "--depth"),
    (("bench", "junk.bin"), ("bench",), "junk.bin"),
    (("dataset", "-o", "d.csv", "--bias", "nan"), ("dataset",), "--bias"),
    (("tune", "--out", UNWRITABLE, "--games-budget", "400"), ("tune",), "--out"),
]


@pytest.mark.parametrize(("argv", "command", "word"), REAL, ids=[" ".join(r[0]) for r in REAL])
def test_a_real_process_refuses_in_one_line(
    tmp_path: Path, argv: tuple[str, ...], command: tuple[str, ...], word: str
) -> None:
    write_fixtures(tmp_path)
    result = run_c4(*argv, cwd=tmp_path)
    assert_usage_error(result, " ".join(command), word)
    assert len(result.stderr.strip()) <= MAX_LINE, result.stderr
