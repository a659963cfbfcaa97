"""`threadgm verify` recomputes every roll of a real bot thread, and catches tampering;
secret rolls stay hidden after the day's key is out, until revealed."""

from __future__ import annotations

import re
import shutil
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from scheduler import main
from tests.bot_harness import BOT_TRIP, LocalBoard
from tests.test_scheduler_faults import Clock, make_bot


@pytest.fixture
def played(tmp_path: Path):
    """A thread where the bot answered ordinary and secret dice, published the day's key the next day,
    and revealed the secret roll."""
    board = LocalBoard.start(tmp_path / "board")
    clock = Clock()
    bot = make_bot(board, tmp_path, clock)
    plain = board.post("dice2d47=\n2D6>=7 判定\nchoice[北,南]")
    table = board.post(
        "【通常戦闘ダイス】\n基準『東京』\ndice1d5=\n1.勝利\n2.敗北\n3.逃走\n4.手を組む\n5.相打ち"
    )
    secret = board.post("S2D6+1 GMだけが知る")
    bot.tick()
    clock.advance(timedelta(days=1, minutes=5).total_seconds())  # past midnight and the reveal's grace
    bot.tick()  # the day is over: its key is published
    queued = bot.queue_reveal(secret)
    bot.tick()
    yield board, bot, (plain, table, secret), queued
    board.close()


def saved_dat(board: LocalBoard, tmp_path: Path) -> Path:
    copy = tmp_path / f"{board.key}.dat"
    shutil.copy(board.data / "test" / "dat" / f"{board.key}.dat", copy)
    return copy


def verify(*args: str):
    return CliRunner().invoke(main, ["verify", *args])


def test_the_secret_result_is_hidden_until_revealed(played) -> None:
    board, _, (_, _, secret), queued = played
    answer, revealed = board.replies_to(secret)  # the answer, then the reveal
    assert revealed.split("\n")[1] == "【シークレットダイス公開】"
    assert "シークレットダイスを振りました" in answer and "[" not in answer
    assert re.search(rf"シークレット{secret}-0 鍵のハッシュ\(SHA-256\): [0-9a-f]{{64}}", answer)
    assert "【シークレットダイス公開】" in queued and re.search(
        r"\(2D6\+1\) ＞ \d+\[\d,\d\]\+1 ＞ \d+", queued
    )
    bodies = [p.body for p in board.posts() if p.trip == BOT_TRIP]
    assert any("【シークレットダイス公開】" in body for body in bodies)


def test_verify_a_saved_dat_and_the_thread_url(played, tmp_path: Path) -> None:
    board, *_ = played
    from_file = verify(str(saved_dat(board, tmp_path)))
    assert from_file.exit_code == 0, from_file.output
    assert f"ボット: ◆{BOT_TRIP}" in from_file.output
    assert (
        "回答 4 件を再計算: 一致 4 件、不一致 0 件" in from_file.output
    )  # 3 answers and the revealed secret
    assert "結果: すべて一致しました" in from_file.output
    from_url = verify(board.url())
    assert from_url.exit_code == 0 and "一致 4 件" in from_url.output
    rawmode = tmp_path / f"rawmode-{board.key}.txt"
    import requests

    rawmode.write_bytes(requests.get(f"{board.server.url}/bbs/rawmode.cgi/local/test/{board.key}/").content)
    assert "一致 4 件" in verify(str(rawmode)).output


@pytest.mark.parametrize("closed", [403, 302])
def test_a_thread_whose_dat_is_closed_is_verified_from_its_read_cgi_page(played, closed: int) -> None:
    """5ch gives no dat to a browser: a player verifying by the thread's URL is read its page instead."""
    from werkzeug.wrappers import Response

    board, *_ = played
    board.script.script(
        "GET",
        "/test/dat/",
        lambda request, forward: Response("", status=closed, headers={"Location": "http://example.invalid/"}),
        times=None,
    )
    from_url = verify(board.url())
    assert from_url.exit_code == 0, from_url.output
    assert "回答 4 件を再計算: 一致 4 件、不一致 0 件" in from_url.output
    assert any(path.startswith("/test/read.cgi/") for _, path, _ in board.script.seen)


def test_a_tampered_roll_is_caught(played, tmp_path: Path) -> None:
    board, _, (plain, *_), _ = played
    dat = saved_dat(board, tmp_path)
    text = dat.read_bytes().decode("cp932")
    match = re.search(rf"&gt;&gt;{plain}<br>dice2d47=(\d+) (\d+) \((\d+)\)", text)
    forged = f"&gt;&gt;{plain}<br>dice2d47={int(match[1]) % 47 + 1} {match[2]} ({(int(match[1]) % 47 + 1) + int(match[2])})"
    dat.write_bytes(text.replace(match[0], forged).encode("cp932"))
    result = verify(str(dat))
    assert result.exit_code == 1
    assert (
        f">>{plain} への回答が再計算と一致しません" in result.output
        and "結果: 一致しないものがあります" in result.output
    )


def test_a_tampered_key_is_caught(played, tmp_path: Path) -> None:
    board, *_ = played
    dat = saved_dat(board, tmp_path)
    text = dat.read_bytes().decode("cp932")
    key = re.search(r"鍵 \d{4}-\d{2}-\d{2}: ([0-9a-f]{64})", text)[1]
    dat.write_bytes(text.replace(key, "0" * 64).encode("cp932"))
    result = verify(str(dat))
    assert result.exit_code == 1 and "公開したハッシュと一致しません" in result.output


def test_answers_of_a_day_whose_key_is_not_out_are_not_yet_checkable(tmp_path: Path) -> None:
    board = LocalBoard.start(tmp_path / "board")
    try:
        bot = make_bot(board, tmp_path, Clock())
        board.post("dice1d6=")
        bot.tick()
        result = verify(board.url())
        assert result.exit_code == 3  # nothing could be compared yet: neither a match nor a mismatch
        assert (
            "再計算できる回答はありませんでした" in result.output and "まだ公開されていない" in result.output
        )
        assert "すべて一致" not in result.output
    finally:
        board.close()


def test_reveal_command_queues_for_the_running_bot(tmp_path: Path) -> None:
    from tests.bot_harness import write_config

    board = LocalBoard.start(tmp_path / "board")
    try:
        clock = Clock()
        bot = make_bot(board, tmp_path, clock)
        secret = board.post("Schoice[赤,青,黄]")
        plain = board.post("dice1d6=")
        bot.tick()
        # the running bot's own game: its secret rolled the dice (another id is refused on its thread)
        config = write_config(tmp_path / "c.toml", tmp_path / "bot.sqlite", board.url(), game_id=bot.game.id)
        bot.store.close()
        result = CliRunner().invoke(main, ["reveal", str(config), str(secret)])
        assert result.exit_code == 0, result.output
        assert "【シークレットダイス公開】" in result.output and re.search("(赤|青|黄)", result.output)
        nothing = CliRunner().invoke(main, ["reveal", str(config), str(plain)])
        assert nothing.exit_code == 1 and "シークレットダイスはありません" in nothing.output
    finally:
        board.close()


def test_the_gm_reveals_a_secret_roll_with_a_signed_post(tmp_path: Path) -> None:
    board = LocalBoard.start(tmp_path / "board")
    try:
        clock = Clock()
        bot = make_bot(board, tmp_path, clock, gm_trips=("SyRJNUqZWYMT",))
        secret = board.post("S1D100<=30 隠れて調べる")
        bot.tick()
        assert "シークレットダイスを振りました" in board.replies_to(secret)[0]
        impostor = board.post(f"公開 >>{secret}", name="GM◆SyRJNUqZWYMT")  # typed ◆: no trip
        bot.tick()
        assert len(board.replies_to(secret)) == 1 and "GMのトリップではない" in board.replies_to(impostor)[0]
        order = board.post(f"公開 >>{secret}", name="GM#threadgm-test-key")
        bot.tick()
        bot.tick()
        assert f"【GM】>>{secret} のシークレットダイスを公開します" in board.replies_to(order)[0]
        _, revealed = board.replies_to(secret)  # the answer, then the reveal
        assert revealed.split("\n")[1] == "【シークレットダイス公開】"
        assert re.search(r"\(1D100<=30\) ＞ \d+ ＞ (成功|失敗)", revealed)
    finally:
        board.close()


def test_verify_takes_the_bots_trip_from_its_configuration(played, tmp_path: Path) -> None:
    from tests.bot_harness import write_config

    board, *_ = played
    config = write_config(tmp_path / "bot.toml", tmp_path / "x.sqlite", board.url())
    named = verify(board.url(), "--config", str(config))
    assert named.exit_code == 0, named.output
    assert f"ボット: ◆{BOT_TRIP}" in named.output and "一致 4 件" in named.output
    untripped = tmp_path / "plain.toml"
    untripped.write_text(config.read_text("utf-8").replace("#threadgm-test-bot", ""), "utf-8")
    refused = verify(board.url(), "--config", str(untripped))
    assert refused.exit_code == 1 and "トリップ（#キー）がない" in refused.output


def test_without_an_identity_several_bot_like_trips_are_listed_and_no_verdict_is_given(
    played, tmp_path: Path
) -> None:
    """A stranger who posts a 【ダイス検証】 of his own: plain verify cannot know which trip is the bot,
    so it says what the thread holds under each and exits 4 — never 「すべて一致」."""
    board, *_ = played
    board.post("【ダイス検証】\n2026-12-01 鍵のハッシュ(SHA-256): " + "0" * 64, name="偽物#not-the-bot")
    plain = verify(str(saved_dat(board, tmp_path)))
    assert plain.exit_code == 4, plain.output
    assert f"◆{BOT_TRIP} をボットとした場合" in plain.output and plain.output.count("をボットとした場合") == 2
    assert "すべて一致" not in plain.output and "ボットのトリップが一つに決まりません" in plain.output
    named = verify(str(saved_dat(board, tmp_path)), "--trip", BOT_TRIP)
    assert named.exit_code == 0 and "すべて一致しました" in named.output


def test_with_one_bot_like_trip_it_is_the_bot(played, tmp_path: Path) -> None:
    board, *_ = played
    alone = verify(str(saved_dat(board, tmp_path)))
    assert alone.exit_code == 0 and "すべて一致しました" in alone.output


def test_the_bots_trip_may_be_given_as_the_thread_shows_it_with_its_name(played, tmp_path: Path) -> None:
    board, *_ = played
    result = verify(str(saved_dat(board, tmp_path)), "--trip", f"ダイス係 ◆{BOT_TRIP}")
    assert result.exit_code == 0, result.output
    assert f"ボット: ◆{BOT_TRIP}" in result.output and "一致 4 件" in result.output
