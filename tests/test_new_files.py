"""`threadgm new GAME DIR` writes files that run as written: for every registered game, the config
loads, the bot starts on the thread `new` opened on the local board, and its first poll goes out; the
games that play themselves play to their end from those files, and `threadgm verify` passes."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from board.server import BoardServer, make_app
from board.settings import LOCAL_PLAY
from engine.rules import REGISTRY
from scheduler import ThreadBot, load_config, main
from scraper.dat import parse_dat
from scraper.fetch import make_session
from store.db import Store


@pytest.fixture
def served(tmp_path: Path):
    server = BoardServer(make_app(tmp_path / "board", ["demo"], defaults=LOCAL_PLAY)).start()
    yield server, tmp_path
    server.close()


@pytest.mark.parametrize("game", REGISTRY.ids())
def test_the_written_files_run_as_written(game: str, served, monkeypatch: pytest.MonkeyPatch) -> None:
    server, tmp_path = served
    monkeypatch.chdir(tmp_path)  # the config's database path is relative to where the bot runs
    args = ["new", game, "mine", "--data", "board", "--origin", server.url]
    written = CliRunner().invoke(main, args)
    assert written.exit_code == 0, written.output
    assert "次に: threadgm board" in written.output
    bot_config, (config,) = load_config(Path("mine/threadgm.toml"))
    assert config.rules == game and config.thread.startswith(server.url)
    assert (config.scenario is not None) == (REGISTRY.get(game).template() is not None)
    os.makedirs(bot_config.database.parent, exist_ok=True)
    store = Store(bot_config.database)
    try:
        bot = ThreadBot(config, bot_config, store, make_session(), registry=REGISTRY)
        for _ in range(3):  # the bot's first polls: the dice keys, then the game's opening
            bot.tick()
    finally:
        store.close()
    key = config.thread.rstrip("/").rsplit("/", 1)[1]
    posts = parse_dat((tmp_path / "board" / "demo" / "dat" / f"{key}.dat").read_bytes().decode("cp932"))
    bot_posts = [p.body for p in posts[1:]]
    assert bot_posts, "the bot's first poll posted nothing"
    assert not any("受け付けられなかった" in body for body in bot_posts)  # nothing refused
    if not REGISTRY.get(game).immediate:
        name = REGISTRY.get(game).NAME
        opening = next(body for body in bot_posts if body.startswith(f"【{name} 開始】"))
        assert "ヘルプ と書くと" in opening
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 1 and "はもうあります" in again.output  # never overwrites a GM's files


# The games whose written scenario plays itself to the end with no player posting: the battle royale's
# dice and DH's phases (the others wait for their players' orders and are played in their own tests).
SELF_PLAYING = ("battle-royale", "dh")


@pytest.mark.parametrize("game", SELF_PLAYING)
def test_a_game_from_the_written_files_plays_to_its_end_and_verifies(
    game: str, served, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import datetime, timedelta

    from engine.keys import JST

    server, tmp_path = served
    monkeypatch.chdir(tmp_path)
    written = CliRunner().invoke(main, ["new", game, "mine", "--data", "board", "--origin", server.url])
    assert written.exit_code == 0, written.output
    bot_config, (config,) = load_config(Path("mine/threadgm.toml"))
    os.makedirs(bot_config.database.parent, exist_ok=True)
    now = [datetime.now(JST)]
    key = config.thread.rstrip("/").rsplit("/", 1)[1]
    dat = tmp_path / "board" / "demo" / "dat" / f"{key}.dat"
    store = Store(bot_config.database)
    try:
        bot = ThreadBot(config, bot_config, store, make_session(), clock=lambda: now[0], registry=REGISTRY)
        for _ in range(200):  # ten-minute periods, an hour a tick
            bot.tick()
            now[0] += timedelta(hours=1)
            if "【ゲーム終了】" in dat.read_bytes().decode("cp932"):
                break
        now[0] += timedelta(days=2)  # the days' keys come out once the days are over
        for _ in range(3):
            bot.tick()
    finally:
        store.close()
    bodies = [p.body for p in parse_dat(dat.read_bytes().decode("cp932"))[1:]]
    assert sum("【ゲーム終了】" in body for body in bodies) == 1
    assert not any("受け付けられなかった" in body for body in bodies)
    checked = CliRunner().invoke(main, ["verify", str(dat), "--config", "mine/threadgm.toml"])
    assert checked.exit_code == 0, checked.output
    assert "結果: すべて一致しました" in checked.output and "公開された鍵" in checked.output
    recomputed = re.search(r"ピリオド (\d+) 件の結果を再計算: 一致 (\d+) 件", checked.output)
    assert recomputed and recomputed[1] == recomputed[2] and int(recomputed[1]) > 1, checked.output
    if game == "battle-royale":  # a face forged in a posted period report fails verify
        text = dat.read_bytes().decode("cp932")
        real = re.search(r"dice1d5=(\d) \(\d\)", text)
        assert real is not None
        other = int(real[1]) % 5 + 1
        forged = tmp_path / f"forged-{key}.dat"
        forged.write_bytes(text.replace(real[0], f"dice1d5={other} ({other})", 1).encode("cp932"))
        caught = CliRunner().invoke(main, ["verify", str(forged), "--config", "mine/threadgm.toml"])
        assert caught.exit_code == 1, caught.output
        assert f"出目が再計算と一致しません（投稿: {other} ／ 再計算: {real[1]}）" in caught.output
