"""The configuration file: what `threadgm run` accepts, and the clear refusals for what it does not."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.config import ConfigError
from scheduler import ThreadBot, load_config, main

GOOD = """
[bot]
name = "GMボット#secret"
mail = "sage"
database = "var/x.sqlite"

[[game]]
id = "dice-thread"
rules = "dice"
thread = "https://jbbs.shitaraba.net/bbs/read.cgi/game/12345/1600000000/"
poll_seconds = 3

[[game]]
id = "vip"
rules = "dice"
thread = "https://mi.5ch.net/test/read.cgi/news4vip/1700000000/"
read = "html"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "c.toml"
    path.write_text(text, "utf-8")
    return path


def test_a_full_configuration(tmp_path: Path) -> None:
    bot, games = load_config(write(tmp_path, GOOD))
    assert (bot.name, bot.mail, bot.database) == ("GMボット#secret", "sage", Path("var/x.sqlite"))
    assert [(g.id, g.poll_seconds, g.read) for g in games] == [
        ("dice-thread", 3, "raw"),
        ("vip", 5.0, "html"),
    ]


def test_gm_trips_may_be_written_with_the_diamond_as_the_readme_shows(tmp_path: Path) -> None:
    text = (
        "[[game]]\nid='a'\nrules='dice'\nthread='http://x/test/read.cgi/b/1700000000/'\n"
        "gm_trips = ['◆SyRJNUqZWYMT', ' WokonZwxw2 ']\n"
    )
    _, (game,) = load_config(write(tmp_path, text))
    assert game.gm_trips == ("SyRJNUqZWYMT", "WokonZwxw2")  # as the board's trip field holds them


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[bot\nname=1", "TOML の書き方"),
        ("[bot]\nname = 'x'\n", "[[game]] がひとつもありません"),
        (
            "[bot]\ncolour = 'red'\n[[game]]\nid='a'\nrules='dice'\nthread='http://x/test/read.cgi/b/1700000000/'",
            "知らない項目",
        ),
        ("[[game]]\nid='a'\nrules='dice'", "thread がありません"),
        (
            "[[game]]\nid='a'\nrules='chess'\nthread='http://x/test/read.cgi/b/1700000000/'",
            "rules = 'chess' はありません",
        ),
        ("[[game]]\nid='a'\nrules='dice'\nthread='http://example.com/'", "スレッドのURLではありません"),
        (
            "[[game]]\nid='a'\nrules='dice'\nthread='http://x/test/read.cgi/b/1700000000/'\nread='ftp'",
            "read は raw か html",
        ),
        (
            "[[game]]\nid='a'\nrules='dice'\nthread='http://x/test/read.cgi/b/1700000000/'\n"
            "[[game]]\nid='a'\nrules='dice'\nthread='http://x/test/read.cgi/b/1700000001/'",
            "id が重複",
        ),
    ],
)
def test_refusals_say_what_is_wrong(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        load_config(write(tmp_path, text))


def test_run_reports_a_bad_configuration_without_a_traceback(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["run", str(write(tmp_path, "[bot]\n"))])
    assert result.exit_code == 1
    assert "[[game]] がひとつもありません" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ('pace_seconds = "10"', "pace_seconds は 0 以上の秒数"),
        ("pace_margin = -1", "pace_margin は 0 以上の秒数"),
        ("workers = 0", "workers は 1～256 の整数"),
        ("per_host = 2.5", "per_host は 1～256 の整数"),
        ('consecutive_limit = "5"', "consecutive_limit は 0～1000 の整数"),
        (
            "consecutive_limit = 5\nconsecutive_window = 3",
            "consecutive_window（3）は consecutive_limit（5）以上",
        ),
    ],
)
def test_the_pace_and_loop_numbers_are_checked(tmp_path: Path, line: str, words: str) -> None:
    config = tmp_path / "bot.toml"
    config.write_text(
        f'[bot]\n{line}\n[[game]]\nid = "g"\nrules = "dice"\n'
        'thread = "http://127.0.0.1:8380/test/read.cgi/test/1700000000/"\n',
        "utf-8",
    )
    with pytest.raises(ConfigError, match=words):
        load_config(config)


def test_the_pace_and_loop_numbers_reach_the_bot(tmp_path: Path) -> None:
    config = tmp_path / "bot.toml"
    config.write_text(
        '[bot]\npace_seconds = 30\npace_margin = 2\nworkers = 16\nper_host = 2\n[[game]]\nid = "g"\n'
        'rules = "dice"\nthread = "http://127.0.0.1:8380/test/read.cgi/test/1700000000/"\n',
        "utf-8",
    )
    bot, _ = load_config(config)
    assert (bot.pace_seconds, bot.pace_margin, bot.workers, bot.per_host) == (30, 2, 16, 2)


def test_a_configured_consecutive_limit_holds_the_bot_where_the_board_publishes_none(
    tmp_path: Path, board
) -> None:
    from engine.rules import REGISTRY
    from poster.consecutive import ConsecutiveLimit
    from scraper.fetch import make_session
    from store.db import Store

    config = tmp_path / "bot.toml"
    config.write_text(
        f'[bot]\nconsecutive_limit = 5\nconsecutive_window = 7\n[[game]]\nid = "g"\nrules = "dice"\n'
        f'thread = "{board.url()}"\n',
        "utf-8",
    )
    bot, games = load_config(config)
    store = Store(tmp_path / "bot.sqlite")
    try:
        thread_bot = ThreadBot(games[0], bot, store, make_session(), registry=REGISTRY)
        thread_bot.tick()
        assert thread_bot._in_a_row() == ConsecutiveLimit(5, 7)  # the board's SETTING.TXT has none
    finally:
        store.close()
