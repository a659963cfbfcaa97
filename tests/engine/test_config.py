"""The configuration file as a GM writes it: the editors' encodings, and a clear refusal (never a
crash, never a game quietly played differently) for each mistake a GM makes in it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.thread_bot import thread_url_problem
from engine.config import ConfigError, load_config
from engine.rules import REGISTRY

THREAD = "https://egg.5ch.net/test/read.cgi/game/1796000000/"
GAME = f'[[game]]\nid = "g"\nrules = "dice"\nthread = "{THREAD}"\n'
BOT = '[bot]\nname = "ダイス係#ボットのキー"\ndatabase = "var/g.sqlite"\n'
GOOD = BOT + GAME + 'gm_trips = ["◆2T60kJhv4E"]\n'


def load(tmp_path: Path, text: str | bytes):
    path = tmp_path / "threadgm.toml"
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return load_config(path, REGISTRY, thread_url_problem)


@pytest.mark.parametrize(
    "encoded",
    [GOOD.encode("utf-8"), b"\xef\xbb\xbf" + GOOD.encode("utf-8"), GOOD.encode("cp932")],
    ids=["utf-8", "utf-8 with BOM (Notepad)", "Shift_JIS"],
)
def test_the_configuration_reads_in_every_encoding_a_windows_editor_saves(
    tmp_path: Path, encoded: bytes
) -> None:
    bot, (game,) = load(tmp_path, encoded)
    assert bot.name == "ダイス係#ボットのキー"
    assert game.gm_trips == ("2T60kJhv4E",)


def test_a_file_in_no_known_encoding_is_refused_by_its_encoding(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="文字コードが読めません（UTF-8 か Shift_JIS で保存してください）"):
        load(tmp_path, GOOD.encode("utf-8") + b"\x81\xff\xfe")


@pytest.mark.parametrize(
    ("written", "message"),
    [
        # a key where the trip belongs: the GM could never steer (no trip equals it), and the key
        # would sit in the file: the message names the command that gives the trip to write instead
        # (engine/ computes no trip: that is the board's algorithm, tests/architecture)
        ('"#gmkey"', "キーです。キーは設定に書かず、threadgm trip '#gmkey' が出すトリップを書いてください"),
        ('"GM#gmkey"', "threadgm trip '#gmkey' が出すトリップ"),
        ('"ＧＭ＃gmkey"', "threadgm trip '#gmkey' が出すトリップ"),
        ('"◇2T60kJhv4E"', "「◇2T60kJhv4E」はトリップではありません"),
        ('"◆2T60kJ"', "はトリップではありません（◆のあとの10文字か12文字"),
        ('""', "はトリップではありません"),
    ],
)
def test_a_gm_trip_that_no_post_can_carry_is_refused(tmp_path: Path, written: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace("[", r"\[")):
        load(tmp_path, BOT + GAME + f"gm_trips = [{written}]\n")


@pytest.mark.parametrize("written", ['"◆2T60kJhv4E"', "1", '["◆2T60kJhv4E", 5]'])
def test_gm_trips_not_a_list_of_strings_is_refused_not_split_into_letters(
    tmp_path: Path, written: str
) -> None:
    with pytest.raises(ConfigError, match=r"gm_trips は文字列のリストで書いてください"):
        load(tmp_path, BOT + GAME + f"gm_trips = {written}\n")


def test_full_width_trips_and_twelve_character_trips_are_taken(tmp_path: Path) -> None:
    _, (game,) = load(tmp_path, BOT + GAME + 'gm_trips = ["◆２Ｔ60kJhv4E", "◆SyRJNUqZWYMT"]\n')
    assert game.gm_trips == ("2T60kJhv4E", "SyRJNUqZWYMT")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('poll_seconds = "5"', "poll_seconds は 0 より大きい秒数です"),
        ("poll_seconds = 0", "poll_seconds は 0 より大きい秒数です"),
        ("idle_seconds = -1", "idle_seconds は 0 より大きい秒数です"),
        ("idle_after = true", "idle_after は 0 以上の秒数です"),
        ('dice = "yes"', "dice は true か false です"),
        ('open_table = "true"', "open_table は true か false です"),
        ("rollover_at = -5", "rollover_at は 0 以上の整数です"),
        ("seed = 5", "seed は文字列で書いてください"),
        ('ready_words = "OK"', "ready_words は文字列のリストで書いてください"),
    ],
)
def test_a_value_of_the_wrong_kind_is_refused_by_its_key(tmp_path: Path, line: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load(tmp_path, BOT + GAME + 'gm_trips = ["◆2T60kJhv4E"]\n' + line + "\n")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[game]]\nid = 1\nrules = "dice"\nthread = "' + THREAD + '"\n', "id は文字列で書いてください"),
        ("[[game]]\nid = 'g'\nrules = 'dice'\nthread = 1796000000\n", "thread は文字列で書いてください"),
        ("[bot]\ndatabase = 5\n" + GAME, r"\[bot\] database は文字列で書いてください"),
        ('bot = "ダイス係"\n' + GAME, r"\[bot\] は表にしてください"),
        ("[game]\nid = 'g'\nrules = 'dice'\nthread = '" + THREAD + "'\n", r"\[\[game\]\]（角かっこ二重）"),
    ],
)
def test_a_table_or_value_of_the_wrong_shape_is_a_message_not_a_crash(
    tmp_path: Path, text: str, message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        load(tmp_path, text)


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        (GOOD + "pol_seconds = 5\n", "pol_seconds（「poll_seconds」のことですか？）"),
        (GOOD.replace("database", "databse"), "databse（「database」のことですか？）"),
        (GOOD.replace('rules = "dice"', 'rules = "battle_royale"'), "（「battle-royale」のことですか？）"),
    ],
)
def test_a_misspelt_key_or_game_names_what_was_meant(tmp_path: Path, text: str, hint: str) -> None:
    with pytest.raises(ConfigError, match=hint):
        load(tmp_path, text)


@pytest.mark.parametrize(
    "url",
    [
        "https://egg.5ch.net/game/",
        "https://egg.5ch.net/test/read.cgi/game/",
        "https://jbbs.shitaraba.net/game/12345/",
        "egg.5ch.net/test/read.cgi/game/1796000000/",
    ],
)
def test_a_board_top_url_is_refused_with_the_shape_of_a_thread_url(tmp_path: Path, url: str) -> None:
    with pytest.raises(ConfigError, match=r"スレッドのURLは https://サーバー\.5ch\.net/test/read\.cgi/板/"):
        load(tmp_path, GOOD.replace(THREAD, url))


def test_a_gm_trip_copied_with_its_name_is_the_trip(tmp_path: Path) -> None:
    """`threadgm trip 'GM#key'` prints `GM◆TRIP`: a GM who pastes it whole means the trip."""
    _, (game,) = load(tmp_path, BOT + GAME + 'gm_trips = ["GM◆2T60kJhv4E", "GM ◆SyRJNUqZWYMT"]\n')
    assert game.gm_trips == ("2T60kJhv4E", "SyRJNUqZWYMT")
