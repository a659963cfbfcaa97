"""Each answer page a board gives to a post, read as what the bot does next: the outbox counts the post
(posted), rests and sends again (retry, `retry_after` seconds; `paced` tells the pacer the host's pace),
waits for another writer (wait_for_others), reads the thread before deciding (uncertain), tells the GM
the thread is over (closed) or drops the row with the board's reason (rejected). The message is what the
log, the row's last error and the GM's status line show: the board's own words.

Pages: the bytes an ex0ch board answered (../shared/fixtures/ex0ch, read in place), and the shapes
docs/bbs-protocol.md gives for 5ch (`2ch_X` markers), open2ch (the status in the first <font>) and
したらば (`ERROR:` pages, あと N 秒). HTTP-level answers go through a real server and requests."""

from __future__ import annotations

from pathlib import Path

import pytest
import requests
from werkzeug.wrappers import Response

from board.admin import open_thread
from board.server import make_app
from poster.writer import BoardWriter, WriteOutcome, classify, is_confirmation
from scraper.refs import ThreadRef
from tests.conftest import shared_path
from tests.scripted import scripted_server


def captured(name: str) -> str:
    return shared_path("fixtures", "ex0ch", name).read_bytes().decode("cp932")


def error_page(words: str) -> str:
    """ex0ch's error page (error_info.pl): the title, the 2ch_X marker, the heading in <b>, the text."""
    return f"<html><head><title>ＥＲＲＯＲ！</title></head><body><!-- 2ch_X:error -->{words}</body></html>"


def jbbs_page(words: str) -> str:
    """したらば's error page: ERROR in the title, the reason in the body."""
    return f"<html><head><title>ERROR!</title></head><body><h2>ERROR: {words}</h2></body></html>"


# -- success --------------------------------------------------------------------------------------


def test_the_boards_success_page_counts_the_post_and_names_the_thread_it_went_to() -> None:
    for name in ("bbs_cgi_success_reply.html", "bbs_cgi_success_new_thread.html"):
        assert classify(captured(name)) == WriteOutcome("posted", "書きこみました。", key="1795954933"), name


def test_a_key_in_the_success_page_is_ascii_digits() -> None:
    page = '<title>書きこみました。</title><meta http-equiv="Refresh" content="1;URL={}">'
    named = classify(page.format("../test/read.cgi/test/1795954933/"))
    assert named.key == "1795954933"
    assert classify(page.format("../test/read.cgi/test/１７９５９５４９３３/")).key is None


def test_a_board_that_says_2ch_x_true_has_written_the_post_whatever_its_title_says() -> None:
    # 5ch-style servers mark the answer for browsers (GK and JD test the marker); the title is theirs
    page = "<html><!-- 2ch_X:true --><head><title>投稿完了</title></head><body>完了</body></html>"
    assert classify(page) == WriteOutcome("posted", "投稿完了")
    assert classify(page.replace("2ch_X:true", "2ch_X:false")).kind == "uncertain"


def test_open2chs_status_is_its_first_font_element_in_any_case_and_over_lines() -> None:
    lines = "<TITLE>おーぷん2ちゃんねる</TITLE><FONT size=+1>\n<b>書きこみました。</b>\n</FONT><font>二つ目</font>"
    assert classify(lines) == WriteOutcome("posted", "おーぷん2ちゃんねる")
    # only the first <font> is the status: a later one saying 書きこみました is page text
    later = "<title>おーぷん</title><font>ＥＲＲＯＲ：本文がありません！</font><font>書きこみました</font>"
    assert classify(later).kind == "rejected"
    # the status is read without its markup: a tag inside the word does not hide it
    assert classify("<title>おーぷん</title><font><b>書きこみ</b>ました</font>").posted


def test_a_title_in_capitals_or_over_several_lines_is_still_the_title() -> None:
    assert classify("<HTML><TITLE>\n  書きこみました。\n</TITLE></HTML>") == WriteOutcome(
        "posted", "書きこみました。"
    )
    assert is_confirmation("<TITLE>■ 書き込み確認 ■</TITLE>")
    assert is_confirmation("<Title>\n■ 書き込み確認 ■\n</Title>")


# -- waits and sends again ------------------------------------------------------------------------


def test_samba_rests_the_seconds_it_names_and_one_more_and_tells_the_pacer() -> None:
    samba = captured("bbs_cgi_error_593_samba.html")
    assert classify(samba) == WriteOutcome(
        "retry",
        "ＥＲＲＯＲ - 593 10 sec たたないと書けません。(1回目、0 sec しかたってない) "
        "今のところ、キャップ以外に回避する方法はありません。 (Samba24-2.13互換) ex0ch BBS dev-r195 20250702",
        retry_after=11,
        paced=True,
    )


def test_shitarabas_wait_is_a_pace_and_ex0chs_calm_down_is_not() -> None:
    jbbs = classify(jbbs_page("多重書き込みです。あと 26 秒お待ちください。"))
    assert jbbs == WriteOutcome(
        "retry", "ERROR: 多重書き込みです。あと 26 秒お待ちください。", retry_after=27, paced=True
    )
    # 503: the board is busy, not counting the bot's posts: the pacer is not told
    calm = classify(
        error_page(
            "<b>ＥＲＲＯＲ：書きこみが多すぎ</b>もうちょっと落ち着いて書きこみしてください。5秒ぐらい。"
        )
    )
    assert calm == WriteOutcome(
        "retry",
        "ＥＲＲＯＲ：書きこみが多すぎ もうちょっと落ち着いて書きこみしてください。5秒ぐらい。",
        retry_after=6,
    )


def test_a_read_only_board_is_tried_again_in_five_minutes() -> None:
    # a new ex0ch board is BBS_READONLY=caps until its owner opens it (error 203)
    page = error_page("<b>ＥＲＲＯＲ：読取専用</b>現在この掲示板は読取専用です。")
    assert classify(page) == WriteOutcome(
        "retry", "ＥＲＲＯＲ：読取専用 現在この掲示板は読取専用です。", retry_after=300
    )


def test_too_many_of_the_last_posts_waits_for_another_writer() -> None:
    page = error_page("<b>ＥＲＲＯＲ：連続投稿</b>連続投稿ですか？？")
    assert classify(page) == WriteOutcome("wait_for_others", "ＥＲＲＯＲ：連続投稿 連続投稿ですか？？")


# -- may have landed: read the thread first --------------------------------------------------------


@pytest.mark.parametrize(
    ("page", "words"),
    [
        (
            error_page("<b>ＥＲＲＯＲ：二重かきこ</b>二重かきこですか？？"),
            "ＥＲＲＯＲ：二重かきこ 二重かきこですか？？",
        ),
        (jbbs_page("多重書き込みです。"), "ERROR: 多重書き込みです。"),  # したらば without a wait
    ],
)
def test_a_post_the_board_calls_a_double_is_looked_for_in_the_thread(page: str, words: str) -> None:
    assert classify(page) == WriteOutcome("uncertain", words)


def test_a_page_that_is_neither_success_nor_error_is_looked_for_then_rested_on() -> None:
    assert classify("<html><body>メンテナンス中です</body></html>") == WriteOutcome(
        "uncertain", "an answer threadgm does not know: メンテナンス中です", retry_after=60
    )
    # an empty page says nothing: nothing is made up for it
    assert classify("") == WriteOutcome("uncertain", "an answer threadgm does not know: ", retry_after=60)
    assert classify("<!-- 2ch_X:true -->") == WriteOutcome("posted", "")
    # a page with nothing but a title is named by its title; a long page is cut for the log
    assert classify("<title>ようこそ</title>").message == "an answer threadgm does not know: ようこそ"
    long = classify("<p>" + "お知らせ" * 200 + "</p>").message
    assert long == ("an answer threadgm does not know: " + "お知らせ" * 200)[:300]
    # the confirmation page is not "unknown" to the sender (it is passed), but classify alone says so
    assert classify(captured("bbs_cgi_cookie_confirm.html")).kind == "uncertain"


# -- the thread is over, or the post is refused ----------------------------------------------------


@pytest.mark.parametrize(
    "words",
    [
        "このスレッドは停止されてます。もう書けない。。。",
        "1000を超えてます。このスレッドにはもう書けない。。。",
        "スレッドが移転されたようです。",
        "書き込もうとしているスレッドは存在しないか、削除されています。。。",
        "このスレッドはサイズが限界です。",
    ],
)
def test_a_closed_thread_is_told_to_the_gm_in_the_boards_words(words: str) -> None:
    assert classify(error_page(words)) == WriteOutcome("closed", words)
    assert classify(jbbs_page("スレッドストップです。")) == WriteOutcome(
        "closed", "ERROR: スレッドストップです。"
    )


def test_a_refusal_keeps_the_boards_words_or_else_its_title() -> None:
    assert classify(error_page("<b>ＥＲＲＯＲ：本文が長すぎます！</b>")) == WriteOutcome(
        "rejected", "ＥＲＲＯＲ：本文が長すぎます！"
    )
    # an error title over an empty page: the title is all the board said
    assert classify("<html><head><title>ＥＲＲＯＲ！</title></head><body></body></html>") == WriteOutcome(
        "rejected", "ＥＲＲＯＲ！"
    )
    # the error word in the title only, or in the words only, in any case and either width
    assert classify("<title>ＥＲＲＯＲ！</title>本文がありません！").kind == "rejected"
    assert classify("<title>おーぷん</title><p>Error: 本文がありません</p>").kind == "rejected"
    assert classify("<title>error</title><p>本文がありません</p>").kind == "rejected"
    assert classify("<title>エラー</title>").kind == "rejected"


def test_scripts_and_styles_in_the_body_are_not_the_boards_words() -> None:
    # an ad or tracker script naming 連続投稿, or a style, must not change what the bot does or says
    page = (
        "<html><title>ＥＲＲＯＲ！</title><body><script>var note = '連続投稿';</script>"
        "<style>.stop:after { content: '停止されてます' }</style><b>ＥＲＲＯＲ：本文が長すぎます！</b></body></html>"
    )
    assert classify(page) == WriteOutcome("rejected", "ＥＲＲＯＲ：本文が長すぎます！")
    untitled = "<body><style>b{}</style><script>1</script>メンテナンス中です</body>"
    assert classify(untitled).message == "an answer threadgm does not know: メンテナンス中です"
    # a title outside <head> is the page's name, not its words
    assert classify("<title>ＥＲＲＯＲ！</title><b>ＥＲＲＯＲ：本文がありません！</b>").message == (
        "ＥＲＲＯＲ：本文がありません！"
    )


# -- HTTP answers, through a real server ------------------------------------------------------------


@pytest.fixture
def bbs(tmp_path: Path):
    """A writer for a thread of the local board, and a function scripting the next answer to bbs.cgi."""
    app = make_app(tmp_path, ["test"], defaults={"BBS_SAMBATIME": "0", "timeclose": ""})
    key = open_thread(tmp_path, "test", "書き込み", "一番")
    server, script = scripted_server(app)
    ref = ThreadRef.from_url(f"{server.url}/test/read.cgi/test/{key}/")
    writer = BoardWriter(requests.Session(), "ボット")

    def answer(body: bytes, status: int, **headers: str) -> WriteOutcome:
        script.script("POST", "/test/bbs.cgi", lambda r, f: Response(body, status=status, headers=headers))
        return writer.reply(ref, "本文")

    yield answer
    server.close()


def test_a_server_error_of_exactly_500_may_follow_a_written_post(bbs) -> None:
    refused = error_page("<b>ＥＲＲＯＲ：本文が長すぎます！</b>").encode("cp932")
    assert bbs(refused, 500) == WriteOutcome("uncertain", "the board answered HTTP 500", retry_after=60)
    # under 500 the page is read: the board's own refusal
    assert bbs(refused, 499) == WriteOutcome("rejected", "ＥＲＲＯＲ：本文が長すぎます！")


def test_a_redirect_that_names_no_page_is_looked_for_not_followed_or_crashed_on(bbs) -> None:
    # requests calls an answer a redirect only with a Location header: a bare 302 is its own case
    nowhere = bbs(b"", 302)
    assert nowhere == WriteOutcome(
        "uncertain", "the board answered HTTP 302 and named no page", retry_after=60
    )
    for status in (300, 399):  # 300 has no Location by nature; requests calls it no redirect
        assert bbs(b"", status).message == f"the board answered HTTP {status} and named no page"
    # 400 and up are pages again: the board's own words are read
    refused = error_page("<b>ＥＲＲＯＲ：本文が長すぎます！</b>").encode("cp932")
    assert bbs(refused, 400) == WriteOutcome("rejected", "ＥＲＲＯＲ：本文が長すぎます！")
    assert bbs(b"", 303, Location="http://portal.example/").message == (
        "redirected away from the board: 'http://portal.example/'"
    )


def test_a_success_page_under_another_status_is_looked_for(bbs) -> None:
    success = shared_path("fixtures", "ex0ch", "bbs_cgi_success_reply.html").read_bytes()
    assert bbs(success, 404) == WriteOutcome("uncertain", "a success page with HTTP 404", retry_after=60)
    assert bbs(success, 200).posted


def test_bytes_the_boards_encoding_lacks_do_not_hide_its_answer(bbs) -> None:
    # a page cut mid-character, or a byte no CP932 table holds: the rest is still read
    page = "<title>ＥＲＲＯＲ！</title><b>ＥＲＲＯＲ：本文が長すぎます！</b>".encode("cp932") + b"\x82"
    assert bbs(page, 200) == WriteOutcome("rejected", "ＥＲＲＯＲ：本文が長すぎます！ \ufffd")
    assert bbs(b"\xff" + "<title>書きこみました。</title>".encode("cp932"), 200).posted


def test_a_writer_given_no_mail_sends_an_empty_mail_field() -> None:
    # no mail is the board's default (the post ages the thread): the field is sent, empty
    from tests.poster.test_writer import REF, Answer, Session

    session = Session(Answer("<title>書きこみました。</title>"))
    assert BoardWriter(session, "ボット").reply(REF, "本文").posted  # type: ignore[arg-type]
    assert session.forms[0]["mail"] == ""
