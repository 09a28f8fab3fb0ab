"""External players in their own process: moves, the move timeout, errors in one line, one host per player."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from c4engine.board import Board
from c4engine.errors import MoveTimeoutError, PlayerFailedError, PlayerSpecError
from c4engine.play import hosted
from c4engine.play.hosted import HostedPlayer, stop_hosts

BOTS = """
import time

def leftmost(board):
    return board.legal_moves()[0]

def sleepy(board):
    time.sleep(1000)

def broken(board):
    raise KeyError("no such thing")

class Seeded:
    def __init__(self, seed=None):
        self.seed, self.name, self.is_human = seed, "seeded", False

    def choose_move(self, board):
        return self.seed % board.width
"""


@pytest.fixture
def bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    (tmp_path / "hosted_bots.py").write_text(BOTS)
    monkeypatch.syspath_prepend(str(tmp_path))  # the host gets this process's sys.path
    yield "hosted_bots"
    stop_hosts()


def test_a_hosted_player_moves_like_the_function_and_times_its_own_cpu(bots: str) -> None:
    player = HostedPlayer(f"{bots}:leftmost", move_timeout=60)
    assert player.choose_move(Board.from_moves("111111")) == 1
    assert 0 <= player.last_cpu < 60
    assert HostedPlayer(f"{bots}:Seeded", seed=9, move_timeout=60).choose_move(Board()) == 2


def test_one_host_serves_every_game_of_a_player(bots: str) -> None:
    HostedPlayer(f"{bots}:leftmost", move_timeout=60).choose_move(Board())
    first = hosted._HOSTS.by_spec[f"{bots}:leftmost"].process.pid
    HostedPlayer(f"{bots}:leftmost", seed=3, move_timeout=60).choose_move(Board())
    assert hosted._HOSTS.by_spec[f"{bots}:leftmost"].process.pid == first


def test_a_player_over_its_time_loses_it_and_its_process_is_killed(bots: str) -> None:
    player = HostedPlayer(f"{bots}:sleepy", move_timeout=1)
    process = psutil.Process(hosted._HOSTS.by_spec[f"{bots}:sleepy"].process.pid)
    started = time.monotonic()
    with pytest.raises(MoveTimeoutError, match="no answer within 1 s"):
        player.choose_move(Board())
    assert time.monotonic() - started >= 1
    assert not process.is_running() or process.status() == psutil.STATUS_ZOMBIE
    # the next game gets a fresh process
    assert HostedPlayer(f"{bots}:leftmost", move_timeout=60).choose_move(Board()) == 0


def test_errors_of_the_player_come_back_in_one_line(bots: str) -> None:
    with pytest.raises(PlayerFailedError, match=r"^KeyError in hosted_bots.py line 11: 'no such thing'$"):
        HostedPlayer(f"{bots}:broken", move_timeout=60).choose_move(Board())
    with pytest.raises(PlayerSpecError, match="has no 'missing'"):
        HostedPlayer(f"{bots}:missing", move_timeout=60)


def test_the_host_ignores_ctrl_c_and_leaves_it_to_its_parent(bots: str) -> None:
    if sys.platform != "linux":
        pytest.skip("reads /proc")
    HostedPlayer(f"{bots}:leftmost", move_timeout=60)
    pid = hosted._HOSTS.by_spec[f"{bots}:leftmost"].process.pid
    ignored = int(Path(f"/proc/{pid}/status").read_text().split("SigIgn:")[1].split()[0], 16)
    assert ignored & (1 << (2 - 1))  # SIGINT is signal 2
