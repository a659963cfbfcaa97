"""`threadgm board` and `threadgm board-admin` as a user runs them."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import requests
from click.testing import CliRunner

from board.settings import LOCAL_PLAY
from board.storage import BoardStore
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


def test_boards_for_play_on_one_machine_have_no_brakes_unless_asked(tmp_path: Path) -> None:
    from board.cli import new_board_settings
    from board.server import make_app

    assert new_board_settings(brakes=False, samba=None) == LOCAL_PLAY
    assert new_board_settings(brakes=True, samba=None) == {}  # a real ex0ch's: samba 10 s, 連投規制…
    assert new_board_settings(brakes=True, samba=5) == {"BBS_SAMBATIME": "5"}
    make_app(tmp_path / "local", ["play"], defaults=new_board_settings(False, None))
    setting = (tmp_path / "local" / "play" / "SETTING.TXT").read_text("cp932")
    assert "BBS_SAMBATIME=0" in setting and "timeclose=\n" in setting + "\n"
    make_app(tmp_path / "real", ["play"], defaults=new_board_settings(True, None) or None)
    assert "BBS_SAMBATIME=10" in (tmp_path / "real" / "play" / "SETTING.TXT").read_text("cp932")
