"""The build backend (build_backend.py): what the wheel's build step takes of the early kernels' build."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _backend() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_backend", ROOT / "build_backend.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


backend = _backend()


def _early(folder: Path, python: str = sys.executable, statuses: tuple[str | None, ...] = ("0", "0")) -> Path:
    """An early build's folder as :func:`backend.start_early` leaves it when its processes have ended
    with ``statuses`` (None: not ended), every library there."""
    early = folder / "early"
    early.mkdir(parents=True)
    (early / "state.json").write_text(json.dumps({"python": python, "batches": backend.BATCHES}))
    for number, (names, status) in enumerate(zip(backend.BATCHES, statuses, strict=True)):
        (early / f"{number}.log").write_text(f"built {names}\n")
        if status is not None:
            (early / f"{number}.done").write_text(status)
        (early / str(number)).mkdir()
        for name in names:
            (early / str(number) / f"c4solve-{name}-0123abcd.so").write_bytes(b"\x7fELF")
    return early


def test_without_an_early_build_every_batch_is_left_to_build(tmp_path: Path) -> None:
    assert backend.take_early(tmp_path / "into", print, tmp_path / "none") == backend.BATCHES


def test_an_early_build_of_another_build_environment_is_not_taken(tmp_path: Path) -> None:
    early = _early(tmp_path, python="/elsewhere/bin/python")
    assert backend.take_early(tmp_path / "into", print, early) == backend.BATCHES
    assert not (tmp_path / "into").exists()


def test_the_libraries_of_the_batches_that_were_built_are_taken(tmp_path: Path) -> None:
    early = _early(tmp_path, statuses=("0", "1"))
    said: list[str] = []
    left = backend.take_early(tmp_path / "into", said.append, early)
    assert left == [backend.BATCHES[1]]  # its process failed: built again by the wheel's step
    taken = sorted(path.name.split("-")[1] for path in (tmp_path / "into").iterdir())
    assert taken == sorted(backend.BATCHES[0])
    assert any("built" in line for line in said)
    assert not early.exists()


def test_a_process_that_does_not_end_in_time_leaves_its_batch_to_build(tmp_path: Path) -> None:
    early = _early(tmp_path, statuses=("0", None))
    assert backend.take_early(tmp_path / "into", print, early, wait=0.3) == [backend.BATCHES[1]]


def test_nothing_starts_early_when_the_kernels_are_not_to_be_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("C4ENGINE_BUILD_KERNELS", "0")
    backend.start_early(tmp_path / "early")
    assert not (tmp_path / "early").exists()


def test_the_early_command_writes_its_exit_status(tmp_path: Path) -> None:
    """The status file is written whatever the build's end: here a library name there is none of."""
    import subprocess

    done = tmp_path / "done"
    command = backend.build_command(["no-such-library"], ["--into", str(tmp_path / "out")], str(done))
    subprocess.run(command, capture_output=True, timeout=120, check=False)
    assert done.read_text() not in ("", "0")
