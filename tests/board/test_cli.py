"""`threadgm board` and `threadgm board-admin` as a user runs them."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
from click.testing import CliRunner

from board.settings import LOCAL_PLAY, load
from board.storage import BoardStore
from bot.runner import Runner
from scheduler import main


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_board_admin_opens_deletes_stops_and_sets(tmp_path: Path) -> None:
    runner = CliRunner()
    data = str(tmp_path)
    opened = runner.invoke(
        main, ["board-admin", "--data", data, "new-thread", "demo", "管理スレ", "本文", "--name", "GM#tea"]
    )
    assert opened.exit_code == 0, opened.output
    key, twoch, shitaraba = opened.output.strip().split("\n")
    assert twoch.endswith(f"http://127.0.0.1:8380/test/read.cgi/demo/{key}/")
    assert shitaraba.endswith(f"http://127.0.0.1:8380/bbs/read.cgi/local/demo/{key}/")
    board = BoardStore(tmp_path).open("demo")
    assert board.posts(key)[0].name == "GM </b>◆WokonZwxw2 <b>"

    assert runner.invoke(main, ["board-admin", "--data", data, "delete", "demo", key, "1"]).exit_code == 0
    assert board.posts(key)[0].body == "あぼーん"
    missing = runner.invoke(main, ["board-admin", "--data", data, "delete", "demo", key, "9"])
    assert missing.exit_code == 1 and "削除できません" in missing.output

    assert runner.invoke(main, ["board-admin", "--data", data, "stop", "demo", key]).exit_code == 0
    assert BoardStore(tmp_path).open("demo").is_stopped(key)

    changed = runner.invoke(
        main, ["board-admin", "--data", data, "set", "demo", "BBS_SAMBATIME=0", "BBS_TITLE=遊び場"]
    )
    assert changed.exit_code == 0
    assert BoardStore(tmp_path).open("demo").settings.get("BBS_TITLE") == "遊び場"
    bad = runner.invoke(main, ["board-admin", "--data", data, "set", "demo", "NOEQUALS"])
    assert bad.exit_code == 2


def test_threadgm_board_serves_both_dialects_until_interrupted(tmp_path: Path) -> None:
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "scheduler",
        "board",
        "--port",
        str(port),
        "--data",
        str(tmp_path),
        "--board",
        "demo",
        "--board",
        "play",
        "--samba",
        "0",
    ]
    # A runner that ignores SIGINT passes that on to its children; the board must hear it all the same.
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                answer = requests.get(f"http://127.0.0.1:{port}/", timeout=1)
                break
            except requests.ConnectionError:
                assert time.monotonic() < deadline, "the board did not start"
                time.sleep(0.1)
        assert answer.status_code == 200 and "/play/" in answer.content.decode("cp932")
        assert requests.get(f"http://127.0.0.1:{port}/demo/subject.txt").status_code == 200
        assert requests.get(f"http://127.0.0.1:{port}/local/play/subject.txt").status_code == 200
        assert "BBS_SAMBATIME=0" in requests.get(f"http://127.0.0.1:{port}/demo/SETTING.TXT").content.decode(
            "cp932"
        )
    finally:
        output = stop(process)
    assert process.returncode == 0, output
    assert f"http://127.0.0.1:{port}/demo/" in output and "掲示板を停止しました" in output


def stop(process: subprocess.Popen) -> str:
    """Ctrl-C, as a user stops the board; if that is not enough, terminate, then kill: never leak it."""
    process.send_signal(signal.SIGINT)
    try:
        return process.communicate(timeout=15)[0]
    except subprocess.TimeoutExpired:
        process.terminate()
        try:
            return process.communicate(timeout=5)[0]
        except subprocess.TimeoutExpired:
            process.kill()
            return process.communicate()[0]


def board_made_by(path: str, tmp_path: Path, brakes: bool, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Make board `play` under `tmp_path` the way a user would along `path`; returns its SETTING.TXT."""
    import board.cli
    import board.server

    data = str(tmp_path)
    extra = ["--brakes"] if brakes else []
    commands = {
        "board": ["board", "--data", data, "--board", "play", *extra],
        "board-admin new-board": ["board-admin", "--data", data, "new-board", "play", *extra],
        "board-admin new-thread": ["board-admin", "--data", data, "new-thread", "play", "題", "本文", *extra],
    }
    commands["new"] = ["new", "dice", str(tmp_path / "game"), "--data", data, "--board", "play", *extra]
    # `demo` makes its board under DATA/board, always named demo
    commands["demo"] = [
        "demo",
        "--port",
        "0",
        "--data",
        str(tmp_path.parent / f"{tmp_path.name}-demo"),
        *extra,
    ]
    monkeypatch.setattr(board.server, "serve", lambda *args, **kwargs: None)  # `board` would serve forever
    monkeypatch.setattr(Runner, "run_until_signalled", Runner.stop)  # and so would `demo`
    result = CliRunner().invoke(main, commands[path])
    assert result.exit_code == 0, result.output
    if path == "demo":
        return tmp_path.parent / f"{tmp_path.name}-demo" / "board" / "demo" / "SETTING.TXT"
    return tmp_path / "play" / "SETTING.TXT"


PATHS = ["board", "board-admin new-board", "board-admin new-thread", "new", "demo"]


@pytest.mark.parametrize("path", PATHS)
def test_every_board_made_on_this_machine_has_no_brakes_unless_asked(
    path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    local = load(board_made_by(path, tmp_path / "local", False, monkeypatch))
    assert local.number("BBS_SAMBATIME", -1) == 0
    assert local.number("timeclose") == 0 and local.number("BBS_THREAD_TATESUGI") == 0
    assert {key: local.get(key) for key in LOCAL_PLAY} == LOCAL_PLAY
    real = load(board_made_by(path, tmp_path / "real", True, monkeypatch))
    assert real.number("BBS_SAMBATIME") == 10 and real.number("timeclose") == 5
    assert real.number("BBS_THREAD_TATESUGI") == 5


def test_a_board_is_made_once_and_keeps_its_settings(tmp_path: Path) -> None:
    runner = CliRunner()
    data = str(tmp_path)
    made = runner.invoke(main, ["board-admin", "--data", data, "new-board", "play", "--samba", "3"])
    assert made.exit_code == 0 and "規制なし" in made.output
    again = runner.invoke(main, ["board-admin", "--data", data, "new-board", "play", "--brakes"])
    assert again.exit_code == 1 and "もうあります" in again.output
    assert load(tmp_path / "play" / "SETTING.TXT").number("BBS_SAMBATIME") == 3
    # `set` on a board that is not there yet makes it for play on one machine, then sets
    assert (
        runner.invoke(main, ["board-admin", "--data", data, "set", "other", "BBS_TITLE=遊び場"]).exit_code
        == 0
    )
    other = load(tmp_path / "other" / "SETTING.TXT")
    assert other.get("BBS_TITLE") == "遊び場" and other.number("BBS_SAMBATIME", -1) == 0
