"""`threadgm new` as a new GM uses it: the thread URL of a real board checked and written in its
canonical form, the next steps as they must be typed, and each new table a database of its own."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from scheduler import main


def _new(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["new", *args, "--gm", "#threadgm-test-key"])
    return result.exit_code, result.output


def _config(folder: Path) -> dict:
    return tomllib.loads((folder / "threadgm.toml").read_text("utf-8"))


@pytest.mark.parametrize(
    "url",
    [
        "https://egg.5ch.net/game/",
        "https://jbbs.shitaraba.net/game/12345/",
        "egg.5ch.net/test/read.cgi/game/1796000000/",
    ],
)
def test_a_url_that_names_no_thread_is_refused_before_any_file_is_written(tmp_path: Path, url: str) -> None:
    code, output = _new("dice", str(tmp_path / "a"), "--thread", url)
    assert code == 1
    assert "--thread: スレッドのURLではありません" in output and "スレッドのURLは https://" in output
    assert not (tmp_path / "a").exists()


@pytest.mark.parametrize(
    ("url", "written"),
    [
        (
            "https://egg.5ch.net/test/read.cgi/game/1796000000/l50#bottom",
            "https://egg.5ch.net/test/read.cgi/game/1796000000/",
        ),
        (
            "https://jbbs.shitaraba.net/bbs/read.cgi/game/12345/1796000000",
            "https://jbbs.shitaraba.net/bbs/read.cgi/game/12345/1796000000/",
        ),
    ],
)
def test_a_real_boards_thread_is_written_as_its_read_url_and_no_local_board_is_asked_for(
    tmp_path: Path, url: str, written: str
) -> None:
    code, output = _new("dice", str(tmp_path / "a"), "--thread", url)
    assert code == 0, output
    assert _config(tmp_path / "a")["game"][0]["thread"] == written
    assert output.rstrip().endswith(f"次に: threadgm run {tmp_path / 'a' / 'threadgm.toml'}")
    assert "threadgm board" not in output


def test_the_next_step_starts_the_local_board_where_new_opened_the_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, output = _new("dice", "a", "--origin", "http://127.0.0.1:18480", "--board", "game", "--data", "b")
    assert code == 0, output
    assert (
        "次に: threadgm board --port 18480 --data b --board game（ローカル掲示板）と threadgm run a/threadgm.toml"
        in output
    )
    assert _config(tmp_path / "a")["game"][0]["thread"].startswith(
        "http://127.0.0.1:18480/test/read.cgi/game/"
    )


def test_two_tables_of_one_game_get_two_databases(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With one database the second table's bot would play the first table's game on in the new thread:
    no opening, the first game's period and scores."""
    monkeypatch.chdir(tmp_path)
    url = "https://egg.5ch.net/test/read.cgi/game/1796000000/"
    assert _new("guess", "first", "--thread", url)[0] == 0
    assert _new("guess", "second", "--thread", url.replace("1796000000", "1796000001"))[0] == 0
    first, second = (_config(tmp_path / name)["bot"]["database"] for name in ("first", "second"))
    assert (first, second) == ("var/first.sqlite", "var/second.sqlite")
    (tmp_path / "var").mkdir()
    (tmp_path / "var" / "third.sqlite").write_bytes(b"")  # a table played before, its folder deleted
    assert _new("guess", "third", "--thread", url)[0] == 0
    assert _config(tmp_path / "third")["bot"]["database"] == "var/third-2.sqlite"


def test_verify_given_the_configuration_for_the_thread_says_where_each_goes(tmp_path: Path) -> None:
    config = tmp_path / "threadgm.toml"
    config.write_text("[bot]\n", "utf-8")
    result = CliRunner().invoke(main, ["verify", str(config)])
    assert result.exit_code == 1
    assert "は設定ファイルです。スレッドのURLか保存した dat を指定してください" in result.output
    assert f"threadgm verify URL --config {config}" in result.output


@pytest.mark.parametrize("encoding", ["utf-8-sig", "cp932"])
def test_a_game_is_added_to_a_configuration_saved_with_a_bom_or_in_shift_jis(
    tmp_path: Path, encoding: str
) -> None:
    url = "https://egg.5ch.net/test/read.cgi/game/1796000000/"
    assert _new("dice", str(tmp_path / "a"), "--thread", url)[0] == 0
    config = tmp_path / "a" / "threadgm.toml"
    config.write_bytes(config.read_text("utf-8").encode(encoding))  # the GM saved it from Notepad
    code, output = _new("guess", "--config", str(config), "--thread", url.replace("1796000000", "1796000001"))
    assert code == 0, output
    text = config.read_bytes().decode("utf-8-sig")  # one encoding, the GM's lines kept
    data = tomllib.loads(text)
    assert [game["id"] for game in data["game"]] == ["dice", "guess"]
    assert "# threadgm の設定（threadgm new が書いたもの）" in text
