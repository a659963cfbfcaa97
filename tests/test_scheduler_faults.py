"""Fault tests: a board that errs, stalls, cuts, deletes, confirms, throttles or fills up never
crashes the bot, never loses or doubles an answer, and each fault leaves a clear log line."""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from werkzeug.wrappers import Response

import poster.writer
import scraper.fetch
from board.admin import delete_post, open_thread
from engine.keys import JST
from engine.rules import REGISTRY
from scheduler import BotConfig, GameConfig, ThreadBot
from scraper.fetch import make_session
from scraper.gone import GONE_APART
from store.db import Store
from tests.bot_harness import BOT_NAME, BOT_TRIP, LocalBoard, check_dice_line


class Clock:
    def __init__(self) -> None:
        self.now = datetime.now(JST)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def make_bot(
    board: LocalBoard,
    tmp_path: Path,
    clock: Clock,
    dialect: str = "2ch",
    read: str = "raw",
    **options: object,
) -> ThreadBot:
    store = Store(tmp_path / "bot.sqlite")
    game = GameConfig("g", "dice", board.url(dialect), read=read, **options)
    bot = ThreadBot(game, BotConfig(name=BOT_NAME), store, make_session(), clock, registry=REGISTRY)
    bot.tick()  # joins: the commitment post
    return bot


def answers(board: LocalBoard, number: int) -> int:
    return len(board.replies_to(number))


def test_server_errors_on_read_are_logged_and_retried(board, tmp_path, caplog) -> None:
    clock = Clock()
    bot = make_bot(board, tmp_path, clock)
    number = board.post("dice1d6=")
    board.script.script("GET", "/test/dat/", lambda r, f: Response(b"oops", status=500))
    with caplog.at_level(logging.WARNING):
        assert bot.tick().read == "error"
    assert "could not read the thread" in caplog.text and "500" in caplog.text
    assert answers(board, number) == 0
    bot.tick()
    bot.tick()
    assert answers(board, number) == 1


def test_a_read_timeout_is_logged_and_nothing_is_lost(board, tmp_path, caplog, monkeypatch) -> None:
    clock = Clock()
    bot = make_bot(board, tmp_path, clock)
    number = board.post("dice1d6=")
    release = threading.Event()
    board.script.script("GET", "/test/dat/", lambda r, f: (release.wait(3), f())[1])
    monkeypatch.setattr(scraper.fetch, "TIMEOUT", (2, 0.3))
    with caplog.at_level(logging.WARNING):
        assert bot.tick().read == "error"
    release.set()
    assert "Timeout" in caplog.text
    bot.tick()
    assert answers(board, number) == 1


def test_a_cut_dat_is_completed_next_time(board, tmp_path, caplog) -> None:
    clock = Clock()
    bot = make_bot(board, tmp_path, clock)
    number = board.post("dice1d6=\n" + "長い本文" * 20)

    def cut(request, forward):  # the dat as a static server sends it while the post is being written
        answer = forward()
        data = answer.get_data()[:-30]
        start = int(answer.headers["Content-Range"].split()[1].split("-")[0])
        answer.set_data(data)
        answer.headers["Content-Range"] = f"bytes {start}-{start + len(data) - 1}/{start + len(data)}"
        return answer

    board.script.script("GET", "/test/dat/", cut)
    with caplog.at_level(logging.INFO):
        bot.tick()
    assert answers(board, number) == 0  # half a post is not a post
    assert "the dat ends in the middle of a line" in caplog.text
    bot.tick()
    bot.tick()
    assert answers(board, number) == 1


def test_a_deletion_that_shrinks_the_dat_answers_nothing_twice(board, tmp_path, caplog) -> None:
    clock = Clock()
    bot = make_bot(board, tmp_path, clock)
    first = board.post("dice1d6=\n" + "消される" * 30)
    bot.tick()
    assert answers(board, first) == 1
    delete_post(board.data, "test", board.key, first)
    second = board.post("dice1d6=")
    with caplog.at_level(logging.INFO):
        bot.tick()
        bot.tick()
    assert "full read" in caplog.text
    assert answers(board, second) == 1
    assert sum(1 for p in board.posts() if p.trip == BOT_TRIP) == 3  # commitment, two answers


def test_the_cookie_page_is_passed_once_per_session(board, tmp_path, caplog) -> None:
    clock = Clock()
    with caplog.at_level(logging.INFO):
        bot = make_bot(board, tmp_path, clock)
        for _ in range(3):
            number = board.post("dice1d6=")
            bot.tick()
            assert answers(board, number) == 1
    assert caplog.text.count("confirming the cookie page") == 1


def test_samba_holds_the_answer_for_the_seconds_the_board_names(board, tmp_path, caplog) -> None:
    clock = Clock()
    bot = make_bot(board, tmp_path, clock)
    number = board.post("dice1d6=")
    page = "<html><title>ＥＲＲＯＲ！</title><!-- 2ch_X:error -->ＥＲＲＯＲ - 593 10 sec たたないと書けません。(1回目、3 sec しかたってない)</html>"
    board.script.script("POST", "/test/bbs.cgi", lambda r, f: Response(page.encode("cp932")))
    with caplog.at_level(logging.WARNING):
        bot.tick()
    assert "retry" in caplog.text and "593" in caplog.text
    clock.advance(5)
    bot.tick()
    assert answers(board, number) == 0  # still inside the 11 s the bot waits
    clock.advance(7)
    bot.tick()
    assert answers(board, number) == 1


def test_renzoku_toukou_waits_until_someone_else_writes(board, tmp_path, caplog) -> None:
    clock = Clock()
    bot = make_bot(board, tmp_path, clock)
    number = board.post("dice1d6=")
    page = "<html><title>ＥＲＲＯＲ！</title><b>ＥＲＲＯＲ：連続投稿</b>連続投稿ですか？？</html>"
    board.script.script("POST", "/test/bbs.cgi", lambda r, f: Response(page.encode("cp932")))
    with caplog.at_level(logging.WARNING):
        bot.tick()
    assert "wait_for_others" in caplog.text
    clock.advance(600)
    bot.tick()
    assert answers(board, number) == 0  # time alone does not help
    other = board.post("雑談です")
    bot.tick()
    assert answers(board, number) == 1 and board.posts()[-1].number > other


def test_an_unanswered_post_stays_queued_when_the_thread_fills_up(tmp_path, caplog) -> None:
    board = LocalBoard.start(tmp_path / "board", BBS_THREAD_STOP="4")
    try:
        clock = Clock()
        bot = make_bot(board, tmp_path, clock, rollover_at=0)  # post 2: the commitment
        number = board.post("dice1d6=")  # post 3
        board.post("埋め")  # post 4: the thread is full, the 1001-style line follows
        with caplog.at_level(logging.ERROR):
            result = bot.tick()
        assert "the thread is closed" in caplog.text and "kept unsent" in caplog.text
        assert "4" in result.note or "超えて" in result.note
        assert answers(board, number) == 0
        assert len(bot.store.outbox(bot.thread_id, ["pending", "sending"])) == 1  # not lost
        assert bot.tick().note.startswith("thread is closed")  # and no more attempts
    finally:
        board.close()


def test_a_board_error_201_closes_the_thread(board, tmp_path, caplog) -> None:
    clock = Clock()
    bot = make_bot(board, tmp_path, clock, rollover_at=0)
    number = board.post("dice1d6=")
    page = "<html><title>ＥＲＲＯＲ！</title>1000を超えてます。このスレッドにはもう書けない。。。</html>"
    board.script.script("POST", "/test/bbs.cgi", lambda r, f: Response(page.encode("cp932")))
    with caplog.at_level(logging.ERROR):
        bot.tick()
    assert "the thread is closed" in caplog.text
    assert bot.store.thread(bot.thread_id).status == "closed"
    assert answers(board, number) == 0


def test_a_full_thread_rolls_over_and_the_answer_follows(board, tmp_path, caplog) -> None:
    clock = Clock()
    bot = make_bot(board, tmp_path, clock)
    old = bot.ref
    number = board.post("dice1d6=")
    page = "<html><title>ＥＲＲＯＲ！</title>1000を超えてます。このスレッドにはもう書けない。。。</html>"
    board.script.script(
        "POST",
        "/test/bbs.cgi",
        lambda r, f: Response(page.encode("cp932")),
        when=lambda r: "key=" in r.get_data().decode(),
    )
    with caplog.at_level(logging.INFO):
        bot.tick()  # refused with 201: the bot opens the next part and moves
        bot.tick()  # and answers there
    assert bot.ref.key != old.key and "now playing in" in caplog.text
    assert bot.store.thread(old.id).status == "moved"
    new_dat = (board.data / "test" / "dat" / f"{bot.ref.key}.dat").read_bytes().decode("cp932")
    assert new_dat.splitlines()[0].endswith("<>ダイススレ Part2") and f"前スレ: {old.read_url}" in new_dat
    # The answer points back at the old thread's post by its address: `>>3` here would be post 3 of
    # the new thread, which real read.cgi links to.
    assert f"前スレ {old.read_url}{number}<br>dice1d6=" in new_dat
    assert answers(board, number) == 0  # nothing more in the full thread


def test_an_answer_without_a_reply_is_checked_before_sending_again(
    board, tmp_path, caplog, monkeypatch
) -> None:
    clock = Clock()
    bot = make_bot(board, tmp_path, clock)
    number = board.post("dice2d6=")
    release = threading.Event()
    board.script.script("POST", "/test/bbs.cgi", lambda r, f: (f(), release.wait(3))[0])
    monkeypatch.setattr(poster.writer, "TIMEOUT", (2, 0.3))
    bot.tick()  # written by the board, but the answer page never came back
    release.set()
    with caplog.at_level(logging.INFO):
        bot.tick()
        bot.tick()
    assert "had landed" in caplog.text
    assert answers(board, number) == 1
    check_dice_line(board.replies_to(number)[0].split("\n")[1], 2, 6)


@pytest.mark.parametrize(("dialect", "read"), [("shitaraba", "raw"), ("2ch", "html")])
def test_other_read_paths(board, tmp_path, dialect: str, read: str) -> None:
    clock = Clock()
    bot = make_bot(board, tmp_path, clock, dialect, read)
    number = board.post("dice1d6=", dialect=dialect)
    bot.tick()
    bot.tick()
    assert answers(board, number) == 1


def test_malformed_and_hostile_posts_get_a_clear_answer_or_none(board, tmp_path) -> None:
    clock = Clock()
    bot = make_bot(board, tmp_path, clock)
    out_of_range = board.post("dice11d6= と dice1d10000=")
    hostile = board.post("<script>alert(1)</script>\n" + "dice1d6= " * 25)
    chat = board.post("ただの雑談 dice と書いただけ")
    bot.tick()
    bot.tick()
    (refused,) = board.replies_to(out_of_range)
    assert "ダイスは10個まで、面数は1～9999までです" in refused
    (limited,) = board.replies_to(hostile)
    assert "21件目以降のダイスは無視しました" in limited
    assert board.replies_to(chat) == []


def test_a_passing_404_does_not_end_the_game_but_a_dat_drop_does(board, tmp_path, caplog) -> None:
    clock = Clock()
    bot = make_bot(board, tmp_path, clock)
    number = board.post("dice1d6=")
    board.script.script("GET", "/test/dat/", lambda r, f: Response(b"Not Found", status=404))
    with caplog.at_level(logging.WARNING):
        assert bot.tick().read == "error"  # subject.txt still lists it: a hiccup, not the end
    assert "trying again next poll" in caplog.text
    bot.tick()
    assert answers(board, number) == 1

    other = open_thread(board.data, "test", "別のスレ", "別")
    listing = f"{other}.dat<>別のスレ (1)\n".encode("cp932")
    board.script.script("GET", "/test/dat/", lambda r, f: Response(b"Not Found", status=404), times=2)
    board.script.script("GET", "/test/subject.txt", lambda r, f: Response(listing), times=2)
    with caplog.at_level(logging.WARNING):
        assert bot.tick().read == "error"  # seen once: looked at again later
        clock.advance(GONE_APART.total_seconds() + 1)
        assert bot.tick().read == "gone"
    assert "subject.txt no longer lists it" in caplog.text
    assert bot.store.thread(bot.thread_id).status == "gone"


BOGUS_LISTS = [
    b"",
    "<html>\n<head><title>メンテナンス中</title></head>\n</html>\n".encode("cp932"),
]
# a list in the board's own form that is not the board's: its thread was never there
STRANGER = {"2ch": b"1111111111.dat<>other (1)\n", "shitaraba": b"1111111111.cgi,other(1)\n" * 2}


@pytest.mark.parametrize("dialect", ["2ch", "shitaraba"])
def test_redirects_and_bogus_thread_lists_never_end_the_game(board, tmp_path, caplog, dialect: str) -> None:
    # One 302 on the dat plus one bogus 200 subject.txt stored `gone` and the game never read again.
    clock = Clock()
    bot = make_bot(board, tmp_path, clock, dialect=dialect)
    open_thread(board.data, "test", "別のスレ", "別")  # the board's list has more than our thread
    assert bot.tick().read != "error"  # a read that succeeds: the board's list as it is
    reads = "/test/dat/" if dialect == "2ch" else "/bbs/rawmode.cgi/"
    lists = "/test/subject.txt" if dialect == "2ch" else "/local/test/subject.txt"
    asked = []
    with caplog.at_level(logging.WARNING):
        for bogus in [*BOGUS_LISTS, STRANGER[dialect]]:
            portal = Response(status=302, headers={"Location": "http://portal.example/login"})
            board.script.script("GET", reads, lambda r, f, a=portal: a)
            assert bot.tick().read == "error"
            for _ in range(2):  # the sign twice, apart: only the list can make it proof
                board.script.script("GET", reads, lambda r, f: Response(b"Not Found", status=404))
                board.script.script("GET", lists, lambda r, f, b=bogus: Response(b))
                assert bot.tick().read == "error"
                clock.advance(GONE_APART.total_seconds() + 1)
            asked.append(board.post("dice1d6=", dialect=dialect))
    assert "redirected the read" in caplog.text and "no proof it is gone" in caplog.text
    bot.tick()
    assert bot.store.thread(bot.thread_id).status == "active"
    assert [answers(board, number) for number in asked] == [1, 1, 1]


def test_polls_back_off_while_reads_fail_and_not_after(board, tmp_path) -> None:
    clock = Clock()
    bot = make_bot(board, tmp_path, clock, poll_seconds=5, idle_seconds=120, idle_after=3600)
    board.post("dice1d6=")
    bot.tick()
    assert bot.interval(clock()) == 5
    board.script.script("GET", "/test/dat/", lambda r, f: Response(b"busy", status=503), times=5)
    seen = []
    for _ in range(5):
        bot.tick()
        seen.append(bot.interval(clock()))
    assert seen == [10, 20, 40, 80, 120]
    bot.tick()
    assert bot.interval(clock()) == 5


MAINTENANCE = (
    "<html>\n<head><title>メンテナンス中</title></head>\n<body>\nしばらくお待ちください\n</body>\n</html>\n"
)


@pytest.mark.parametrize("page", [MAINTENANCE.encode("cp932"), b""], ids=["maintenance page", "empty"])
def test_a_200_that_is_not_the_dat_loses_no_post(board, tmp_path, caplog, page: bytes) -> None:
    # Taken as the dat, the page's lines were posts 1-7: the real posts that later held those numbers
    # were marked handled without an answer.
    clock = Clock()
    bot = make_bot(board, tmp_path, clock)
    asked = [board.post("dice1d6=")]
    board.script.script("GET", "/test/dat/", lambda r, f: Response(page, content_type="text/html"), times=2)
    with caplog.at_level(logging.WARNING):
        assert bot.tick().read == "error"
        asked += [board.post(f"dice1d6= {n}") for n in range(6)]
        assert bot.tick().read == "error"
    assert "could not read the thread" in caplog.text and "not the dat of the thread" in caplog.text
    for _ in range(3):
        clock.advance(61)
        bot.tick()
    assert {number: answers(board, number) for number in asked} == dict.fromkeys(asked, 1)


def test_a_board_that_keeps_asking_to_confirm_gets_the_answer_later(board, tmp_path, caplog) -> None:
    # Dropped for good before: the player's dice were never answered.
    clock = Clock()
    bot = make_bot(board, tmp_path, clock)
    number = board.post("dice1d6=")
    page = (
        "<html><head><title>■ 書き込み確認 ■</title></head><!-- 2ch_X:cookie --><body><form>"
        "<input type=hidden name=bbs value=test></form></body></html>"
    ).encode("cp932")
    board.script.script("POST", "/test/bbs.cgi", lambda r, f: Response(page), times=4)
    with caplog.at_level(logging.WARNING):
        bot.tick()
    assert "confirmation twice" in caplog.text
    (row,) = bot.store.outbox(bot.thread_id, ["pending"])
    first_rest = datetime.fromisoformat(row.not_before) - clock.now
    assert first_rest >= timedelta(seconds=60)
    clock.advance(first_rest.total_seconds())
    bot.tick()  # asked twice again: a longer rest
    (row,) = bot.store.outbox(bot.thread_id, ["pending"])
    assert datetime.fromisoformat(row.not_before) - clock.now > first_rest
    assert not bot.store.outbox(bot.thread_id, ["dropped"])
    clock.advance(3600)
    bot.tick()
    assert answers(board, number) == 1


def test_another_threads_dat_answered_for_ours_loses_no_post(board, tmp_path, caplog) -> None:
    # A well-formed dat, but of another thread (a misrouted cache, a board that lost ours): its post 1
    # is not the post 1 the bot already holds, so the read is a fault, and nothing is taken from it.
    clock = Clock()
    bot = make_bot(board, tmp_path, clock)
    first = board.post("dice1d6=")
    bot.tick()
    other = "名無し<>sage<>2026/12/01(火) 20:00:00 ID:zzz<> 別のスレの一番 <>別のスレ\n" * 5
    board.script.script(
        "GET", "/test/dat/", lambda r, f: Response(other.encode("cp932"), content_type="text/plain"), times=1
    )
    board.data.joinpath("test", "dat", f"{board.key}.dat").touch()  # the bot reads it whole again
    later = board.post("dice1d6= もう一度")
    with caplog.at_level(logging.WARNING):
        bot.store.db["threads"].update(bot.thread_id, {"size": 0, "last_modified": None})  # a whole read
        assert bot.tick().read == "error"
    assert "could not read the thread" in caplog.text
    for _ in range(3):
        clock.advance(61)
        bot.tick()
    assert answers(board, first) == 1 and answers(board, later) == 1


@pytest.mark.parametrize("dialect", ["2ch", "shitaraba"])
def test_a_portal_redirect_on_the_first_post_loses_neither_the_commitment_nor_an_answer(
    board, tmp_path, caplog, dialect: str
) -> None:
    # A 302 to a login page was taken for success: the day's 【ダイス検証】 commitment and the
    # answers after it were marked sent and never appeared, and that day's rolls could not be verified.
    clock = Clock()
    writes = "/test/bbs.cgi" if dialect == "2ch" else "/bbs/write.cgi/"
    portal = lambda r, f: Response(status=302, headers={"Location": "http://portal.example/login"})  # noqa: E731
    number = board.post("dice1d6=", dialect=dialect)
    board.script.script("POST", writes, portal, times=3)
    store = Store(tmp_path / "bot.sqlite")
    game = GameConfig("g", "dice", board.url(dialect))
    bot = ThreadBot(game, BotConfig(name=BOT_NAME), store, make_session(), clock, registry=REGISTRY)
    with caplog.at_level(logging.WARNING):
        for _ in range(8):  # the rests grow: 60 s, 120 s, 240 s
            bot.tick()
            clock.advance(250)
    assert "portal.example" in caplog.text
    bot_posts = [p for p in board.posts() if p.trip == BOT_TRIP]
    assert sum("【ダイス検証】" in p.body for p in bot_posts) == 1
    assert answers(board, number) == 1


@pytest.mark.parametrize("dialect", ["2ch", "shitaraba"])
def test_a_garbled_trip_never_makes_the_bot_answer_itself(board, tmp_path, dialect: str) -> None:
    # Every read shows the bot's trip one character off (consistently, so every proof of the read
    # holds): recognised by the trip alone, each of its answers was a command to answer again.
    reads = "/test/dat/" if dialect == "2ch" else "/bbs/rawmode.cgi/"

    def garble(request, forward):
        answer = forward()
        answer.set_data(answer.get_data().replace(BOT_TRIP.encode(), BOT_TRIP[:-1].encode() + b"Z"))
        return answer

    board.script.script("GET", reads, garble, times=None)
    clock = Clock()
    bot = make_bot(board, tmp_path, clock, dialect=dialect)
    asked = []
    for n in range(4):
        asked.append(board.post(f"dice1d6= {n}", dialect=dialect))
        bot.tick()
        clock.advance(61)
    own = [p.number for p in board.posts() if p.trip == BOT_TRIP]
    assert [answers(board, number) for number in asked] == [1, 1, 1, 1]
    assert not [number for number in own if board.replies_to(number)], "the bot answered itself"
    assert all(post.own for post in bot.store.posts_after(bot.thread_id, 0) if post.number in own)


@pytest.mark.parametrize("charset", ["utf-8", "cp932"])
def test_a_re_encoded_read_after_an_unclear_answer_doubles_nothing_on_shitaraba(
    board, tmp_path, charset: str
) -> None:
    # The answer was written but the board's reply lost (504); the next read came re-encoded, the
    # bot's post in it no longer matched what it sent, and it was sent again.
    clock = Clock()
    bot = make_bot(board, tmp_path, clock, dialect="shitaraba")
    number = board.post("dice1d6=", dialect="shitaraba")

    def written_then_504(request, forward):
        forward()
        return Response(b"Gateway Timeout", status=504)

    def reencoded(request, forward):
        answer = forward()
        answer.set_data(answer.get_data().decode("euc_jp").encode(charset, errors="replace"))
        return answer

    bot_form = lambda r: "threadgm-test-bot" in r.get_data().decode("ascii")  # noqa: E731
    board.script.script("POST", "/bbs/write.cgi/", written_then_504, when=bot_form)
    bot.tick()  # answered; the board's reply lost
    board.script.script("GET", "/bbs/rawmode.cgi/", reencoded, times=3)
    for _ in range(5):
        clock.advance(61)
        bot.tick()
    assert answers(board, number) == 1
