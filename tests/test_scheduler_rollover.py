"""Thread rollover end to end on the local board, in both dialects: the bot opens the next part
before the thread fills, says where in the old one, and the game goes on there; or it follows the
GM's 次スレ."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from werkzeug.wrappers import Response

from board.admin import open_thread, update_settings
from engine.rules import REGISTRY
from scraper.dat import parse_dat
from tests.bot_harness import BOT_TRIP
from tests.test_scheduler_periods import GM, Game


def dat_posts(game: Game, key: str):
    return parse_dat((game.board.data / "test" / "dat" / f"{key}.dat").read_bytes().decode("cp932"))


@pytest.mark.parametrize("dialect", ["2ch", "shitaraba"])
def test_the_game_moves_to_the_next_part_before_the_thread_fills(tmp_path: Path, dialect: str) -> None:
    game = Game(tmp_path, rollover_at=3)
    try:
        update_settings(game.board.data, "test", {"BBS_THREAD_STOP": "10"})
        if dialect == "shitaraba":
            game.config = type(game.config)(**{**game.config.__dict__, "thread": game.board.url("shitaraba")})
            game.bot = type(game.bot)(
                game.config, game.bot_config, game.store, game.bot.session, game.clock, registry=REGISTRY
            )
        first = game.bot.ref
        game.tick()  # post 2: the opening
        game.clock.at("20:10:00")
        for guess in ("＜予想＞1", "＜予想＞2", "雑談", "雑談"):
            game.post(guess)
        game.tick()  # posts 3-6 read, the receipt is post 7: 3 posts left → the next part is opened
        assert game.bot.ref.key != first.key
        old = dat_posts(game, first.key)
        assert old[-1].trip == BOT_TRIP and old[-1].body == f"次スレを立てました: {game.bot.ref.read_url}"
        new = dat_posts(game, game.bot.ref.key)
        assert new[0].title == "数当てスレ Part2" and f"前スレ: {first.read_url}" in new[0].body
        game.tick(
            "21:02:00"
        )  # the period ends: its report goes to the new thread, the orders of the old count
        report = dat_posts(game, game.bot.ref.key)[-1]
        assert report.trip == BOT_TRIP and report.body.startswith("【ピリオド1 更新】")
        assert "アリス: 2（差" in report.body
        assert game.store.thread(first.id).status == "moved"
    finally:
        game.close()


def test_the_game_follows_the_gms_next_thread(tmp_path: Path) -> None:
    game = Game(tmp_path)
    try:
        game.tick()
        key = open_thread(game.board.data, "test", "数当てスレ その2", "GMが立てました")
        url = f"{game.board.server.url}/test/read.cgi/test/{key}/"
        game.clock.at("20:10:00")
        game.post(f"次スレ {url}", name=GM)
        game.tick()
        assert game.bot.ref.key == key
        echo = [p for p in game.board.posts() if p.trip == BOT_TRIP][-1]
        assert re.search(r"【GM】次スレに移ります: .*" + key, echo.body)
        game.clock.at("20:20:00")
        game.board.key = key  # players now write in the new thread
        game.post("＜予想＞77", name="ボブ")
        game.tick()
        assert "＜予想＞77" in game.last()
    finally:
        game.close()


TATESUGI = (
    "<html><head><title>ＥＲＲＯＲ！</title></head><!-- 2ch_X:error --><body>"
    "<b>ＥＲＲＯＲ：スレッド立てすぎ</b><br>スレッド立てすぎです。もうちょいもちついてください。"
    "</body></html>"
).encode("cp932")


def test_a_refused_next_thread_is_said_once_retried_later_and_the_gm_can_point_the_way(
    tmp_path: Path,
) -> None:
    # ex0ch refuses a host's new thread until others have opened five (スレッド立てすぎ): the bot
    # must not hammer bbs.cgi every poll, and the players must hear why no next part came.
    game = Game(tmp_path, rollover_at=3)
    try:
        update_settings(game.board.data, "test", {"BBS_THREAD_STOP": "11"})
        opens = game.board.script.script(
            "POST",
            "/test/bbs.cgi",
            lambda request, forward: Response(TATESUGI, content_type="text/html; charset=Shift_JIS"),
            times=None,
            when=lambda request: b"subject=" in request.get_data(),
        )
        first = game.bot.ref
        game.tick()  # post 2: the opening
        game.clock.at("20:10:00")
        for text in ("＜予想＞1", "雑談", "雑談", "雑談", "雑談"):
            game.post(text)
        game.tick()  # the receipt leaves 3 posts: the next part is asked for, and refused
        assert opens.used == 1 and game.bot.ref == first
        for seconds in ("20:10:05", "20:10:10", "20:15:00"):
            game.tick(seconds)
        assert opens.used == 1  # no new attempt before the wait is over
        notices = [body for body in game.bot_posts() if body.startswith("次スレを立てられませんでした")]
        assert notices == [
            "次スレを立てられませんでした（スレッド立てすぎ）。しばらくして立て直します。"
            "GMさんが立てた場合は、このスレに「次スレ URL」と書き込んでください"
        ]
        game.tick("20:20:01")
        assert opens.used == 2  # tried again after 10 minutes; the next wait is 20
        game.tick("20:30:00")
        assert (
            opens.used == 2
            and len([b for b in game.bot_posts() if b.startswith("次スレを立てられませんでした")]) == 1
        )

        key = open_thread(game.board.data, "test", "数当てスレ その2", "GMが立てました")
        game.post(f"次スレ {game.board.server.url}/test/read.cgi/test/{key}/", name=GM)
        game.tick("20:31:00")
        assert game.bot.ref.key == key
    finally:
        game.close()


def test_a_passing_404_on_the_old_thread_does_not_take_its_link_away(tmp_path: Path) -> None:
    # Taken for the end of the old thread, one 404 moved what it still owed — the link to the next
    # part — out of it: its readers were never told where the game went.
    game = Game(tmp_path, rollover_at=3)
    try:
        update_settings(game.board.data, "test", {"BBS_THREAD_STOP": "10"})
        first = game.bot.ref
        dats = game.board.data / "test" / "dat"
        game.board.script.script(
            "GET",
            f"/test/dat/{first.key}.dat",
            lambda r, f: Response(b"Not Found", status=404),
            when=lambda r: len(list(dats.glob("*.dat"))) > 1,  # once the next part is open
        )
        game.tick()  # post 2: the opening
        game.clock.at("20:10:00")
        for guess in ("＜予想＞1", "＜予想＞2", "雑談", "雑談"):
            game.post(guess)
        game.tick()  # the next part opens; the old thread's read for its link answers 404
        assert game.bot.ref.key != first.key
        assert game.store.thread(first.id).status == "draining"
        game.tick()
        old = dat_posts(game, first.key)
        assert old[-1].trip == BOT_TRIP and old[-1].body == f"次スレを立てました: {game.bot.ref.read_url}"
        # the old thread is left once a read of it shows the link (the board's 書きこみました alone
        # is no proof the link is there), and the link is not sent again
        game.tick()
        assert game.store.thread(first.id).status == "moved"
        links = [post for post in dat_posts(game, first.key) if post.body.startswith("次スレを立てました")]
        assert len(links) == 1
    finally:
        game.close()
