"""Board answers are read into outcomes; posting goes through the cookie page on a real board."""

from __future__ import annotations

from pathlib import Path

import pytest
import requests
from werkzeug.wrappers import Response

from board.admin import open_thread
from board.server import make_app
from poster.writer import BoardWriter, board_reason, classify, is_confirmation
from scraper.refs import ThreadRef
from tests.conftest import shared_path
from tests.scripted import scripted_server


def captured(name: str) -> str:
    return shared_path("fixtures", "ex0ch", name).read_bytes().decode("cp932")


def test_captured_ex0ch_answers() -> None:
    assert classify(captured("bbs_cgi_success_reply.html")).kind == "posted"
    new = classify(captured("bbs_cgi_success_new_thread.html"))
    assert new.kind == "posted" and new.key == "1795954933"
    samba = classify(captured("bbs_cgi_error_593_samba.html"))
    assert samba.kind == "retry" and samba.retry_after == 11


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("<title>ＥＲＲＯＲ！</title><b>ＥＲＲＯＲ：連続投稿</b>連続投稿ですか？？", "wait_for_others"),
        ("<title>ＥＲＲＯＲ！</title>もうちょっと落ち着いて書きこみしてください。5秒ぐらい。", "retry"),
        ("<title>ＥＲＲＯＲ！</title>このスレッドは停止されてます。もう書けない。。。", "closed"),
        ("<title>ＥＲＲＯＲ！</title>1000を超えてます。このスレッドにはもう書けない。。。", "closed"),
        (
            "<title>ＥＲＲＯＲ！</title>書き込もうとしているスレッドは存在しないか、削除されています。。。",
            "closed",
        ),
        ("<title>ＥＲＲＯＲ！</title>二重かきこですか？？", "uncertain"),
        ("<title>ＥＲＲＯＲ！</title>現在この掲示板は読取専用です。", "retry"),
        ("<title>ＥＲＲＯＲ！</title>本文が長すぎます！", "rejected"),
        ("<title>ERROR!</title><h2>ERROR: 多重書き込みです。あと 26 秒お待ちください。</h2>", "retry"),
        ("<title>ERROR!</title><h2>ERROR: スレッドストップです。</h2>", "closed"),
        ("<html><title>書きこみました</title></html>", "posted"),
        # open2ch: the status is the first <font> element, under a title of its own
        ("<title>おーぷん2ちゃんねる</title><font size=+1 color=#FF0000>書きこみました。</font>", "posted"),
        ("<title>おーぷん</title><font color=red><b>ＥＲＲＯＲ：本文がありません！</b></font>", "rejected"),
        ("<html>何かのページ</html>", "uncertain"),  # neither success nor error: read the thread
        ("<title>エラー</title>何かのエラー", "rejected"),
    ],
)
def test_board_answers(text: str, kind: str) -> None:
    assert classify(text).kind == kind


def test_confirmation_pages_are_told_from_errors() -> None:
    assert is_confirmation(captured("bbs_cgi_cookie_confirm.html"))
    assert is_confirmation("<title>おーぷん</title><font size=4>書き込み確認します。</font>")
    assert not is_confirmation(captured("bbs_cgi_error_593_samba.html"))
    assert not is_confirmation("<title>ＥＲＲＯＲ！</title><font>ＥＲＲＯＲ：確認してください</font>")
    assert not is_confirmation(captured("bbs_cgi_success_reply.html"))


@pytest.fixture
def board(tmp_path: Path):
    app = make_app(tmp_path, ["test"], defaults={"BBS_SAMBATIME": "0", "timeclose": ""})
    key = open_thread(tmp_path, "test", "書き込み", "一番")
    server, script = scripted_server(app)
    yield server, script, key, tmp_path
    server.close()


@pytest.mark.parametrize("dialect", ["2ch", "shitaraba"])
def test_replies_and_new_threads_on_the_local_board(board, dialect: str) -> None:
    server, script, key, data = board
    path = f"/test/read.cgi/test/{key}/" if dialect == "2ch" else f"/bbs/read.cgi/local/test/{key}/"
    ref = ThreadRef.from_url(server.url + path)
    writer = BoardWriter(requests.Session(), "ボット#tea", "sage")
    assert writer.reply(ref, "返信です\n二行目").posted
    assert writer.reply(ref, "二回目").posted
    lines = (data / "test" / "dat" / f"{key}.dat").read_bytes().decode("cp932").splitlines()
    assert [line.split("<>")[3] for line in lines[1:]] == ["返信です<br>二行目", "二回目"]
    assert lines[1].split("<>")[0] == "ボット </b>◆WokonZwxw2 <b>"
    confirms = 1 if dialect == "2ch" else 0  # the cookie page came once, then the cookies did
    posts = (
        script.count("POST", "/test/bbs.cgi") if dialect == "2ch" else script.count("POST", "/bbs/write.cgi")
    )
    assert posts == 2 + confirms
    opened = writer.new_thread(ref, "次スレ", "新しいスレ")
    assert opened.posted and opened.key and opened.key != key
    assert (data / "test" / "dat" / f"{opened.key}.dat").exists()
    # Each form says where it was filled in, as a browser would: the thread, or the board's page.
    referers = [headers.get("Referer") for method, _, headers in script.seen if method == "POST"]
    assert referers[: 2 + confirms] == [ref.read_url] * (2 + confirms)
    assert set(referers[2 + confirms :]) == {ref.board_url}


def test_unreachable_board_and_timeouts(board) -> None:
    server, script, key, _ = board
    ref = ThreadRef.from_url(f"{server.url}/test/read.cgi/test/{key}/")
    dead = ThreadRef.from_url(f"http://127.0.0.1:9/test/read.cgi/test/{key}/")
    writer = BoardWriter(requests.Session(), "ボット")
    assert writer.reply(dead, "x").kind == "retry"  # never connected: safe to send again
    script.script("POST", "/test/bbs.cgi", lambda r, f: Response(b"oops", status=502))
    assert writer.reply(ref, "x").kind == "uncertain"  # a proxy's 502 may follow a written post
    import poster.writer as module

    original = module.TIMEOUT
    module.TIMEOUT = (2, 0.3)
    try:
        import threading

        release = threading.Event()
        script.script("POST", "/test/bbs.cgi", lambda r, f: (release.wait(3), f())[1])
        assert writer.reply(ref, "届いたかも").kind == "uncertain"  # sent, no answer: read first
        release.set()
    finally:
        module.TIMEOUT = original


def test_refusals_in_a_few_words_and_never_with_the_trip_key(board) -> None:
    assert board_reason(
        "ＥＲＲＯＲ：スレッド立てすぎ スレッド立てすぎです。もうちょいもちついてください。"
    ) == ("スレッド立てすぎ")
    assert board_reason("ERROR: スレッドストップです。") == "ERROR: スレッドストップです。"
    assert board_reason("") == "掲示板の返答が読めません"
    # The local board's error page shows the form below the error, the name field's #key included.
    server, _, key, _ = board
    ref = ThreadRef.from_url(f"{server.url}/test/read.cgi/test/{key}/")
    refused = BoardWriter(requests.Session(), "ボット#秘密の鍵").reply(ref, "")
    assert refused.kind == "rejected" and "本文がありません" in refused.message
    assert "秘密の鍵" not in refused.message


def _redirect(location: str):
    return lambda request, forward: Response(status=302, headers={"Location": location})


@pytest.mark.parametrize("dialect", ["2ch", "shitaraba"])
def test_a_redirect_is_never_taken_for_a_written_post(board, dialect: str) -> None:
    # A captive portal or a login wall answers any form with a 302: counted as posted, the answer
    # was never looked for in the thread and was lost.
    server, script, key, _ = board
    path = f"/test/read.cgi/test/{key}/" if dialect == "2ch" else f"/bbs/read.cgi/local/test/{key}/"
    ref = ThreadRef.from_url(server.url + path)
    writes = "/test/bbs.cgi" if dialect == "2ch" else "/bbs/write.cgi/"
    writer = BoardWriter(requests.Session(), "ボット", "sage")
    script.script("POST", writes, _redirect("http://portal.example/login"))
    portal = writer.reply(ref, "ポータル")
    assert portal.kind == "uncertain" and portal.retry_after and "portal.example" in portal.message
    script.script("POST", writes, lambda request, forward: (forward(), _redirect(path)(request, forward))[1])
    itself = writer.reply(ref, "スレッドへ")
    assert itself.kind == "uncertain" and "redirected to the thread" in itself.message
    script.script("POST", writes, _redirect("/"))
    assert writer.reply(ref, "板の入口へ").kind == "uncertain"
    assert writer.reply(ref, "普通に").posted  # the board's own 200 書きこみました


@pytest.mark.parametrize("dialect", ["2ch", "shitaraba"])
def test_a_new_thread_redirected_to_its_own_page_is_opened_and_elsewhere_is_not(board, dialect: str) -> None:
    server, script, key, _ = board
    path = f"/test/read.cgi/test/{key}/" if dialect == "2ch" else f"/bbs/read.cgi/local/test/{key}/"
    ref = ThreadRef.from_url(server.url + path)
    writes = "/test/bbs.cgi" if dialect == "2ch" else "/bbs/write.cgi/"
    writer = BoardWriter(requests.Session(), "ボット")
    page = "/test/read.cgi/test/1800000000/" if dialect == "2ch" else "/bbs/read.cgi/local/test/1800000000/"
    script.script("POST", writes, _redirect(page))
    opened = writer.new_thread(ref, "次スレ", "本文")
    assert opened.posted and opened.key == "1800000000"
    for elsewhere in ("http://portal.example" + page, "/test/read.cgi/other/1800000000/", "/login"):
        script.script("POST", writes, _redirect(elsewhere))
        assert not writer.new_thread(ref, "次スレ", "本文").posted, elsewhere


def test_a_success_page_counts_only_with_status_200(board) -> None:
    server, script, key, _ = board
    ref = ThreadRef.from_url(f"{server.url}/test/read.cgi/test/{key}/")
    success = shared_path("fixtures", "ex0ch", "bbs_cgi_success_reply.html").read_bytes()
    writer = BoardWriter(requests.Session(), "ボット")
    writer.session.cookies.set("NAME", "")
    writer.session.cookies.set("MAIL", "")
    script.script(
        "POST", "/test/bbs.cgi", lambda r, f: Response(success, status=200, content_type="text/html")
    )
    assert writer.reply(ref, "x").posted
    for status in (403, 404, 202):
        script.script("POST", "/test/bbs.cgi", lambda r, f, s=status: Response(success, status=s))
        assert writer.reply(ref, "x").kind == "uncertain", status


# -- without a board: the answers a board or the network may give --------------------------------

REF = ThreadRef.from_url("http://127.0.0.1:8380/test/read.cgi/test/1795954933/")


class Answer:
    def __init__(
        self, page: str = "", status: int = 200, location: str | None = None, encoding: str = "cp932"
    ) -> None:
        self.content = page.encode(encoding)
        self.status_code = status
        self.is_redirect = location is not None
        self.headers = {"Location": location} if location is not None else {}
        self.closed = False
        self.raw = _Raw(self.content)  # a streamed requests.Response is read from its raw answer

    def close(self) -> None:
        self.closed = True
        self.raw = _Raw(self.content)  # (a test may hand the same answer out twice)


class _Raw:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def read1(self, amt: int, decode_content: bool = True) -> bytes:
        part, self.data = self.data[:amt], self.data[amt:]
        return part


class Session:
    """Answers each POST with the next answer (or raises it), and keeps the forms it was sent."""

    def __init__(self, *answers: Answer | Exception, encoding: str = "cp932") -> None:
        self.answers = list(answers)
        self.encoding = encoding
        self.forms: list[dict[str, str]] = []

    def post(self, url: str, data: str, **options: object) -> Answer:
        from urllib.parse import parse_qsl

        self.options = options
        self.forms.append(dict(parse_qsl(data, keep_blank_values=True, encoding=self.encoding)))
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer


def test_a_connection_that_was_never_made_is_sent_again_and_one_that_broke_is_looked_for() -> None:
    from urllib3.exceptions import NewConnectionError, ProtocolError

    def outcome(error: Exception) -> str:
        return BoardWriter(Session(error), "ボット").reply(REF, "x").kind  # type: ignore[arg-type]

    refused = NewConnectionError(None, "Connection refused")  # type: ignore[arg-type]
    assert outcome(requests.ConnectionError(type("Max", (), {"reason": refused})())) == "retry"
    assert outcome(requests.ConnectTimeout("connect timed out")) == "retry"
    # the connection broke after the form left: the board may have written it
    reset = ProtocolError("Connection aborted.", ConnectionResetError(104, "reset"))
    assert outcome(requests.ConnectionError(reset)) == "uncertain"
    assert outcome(requests.ConnectionError()) == "uncertain"  # says nothing: only the thread can tell


def test_the_cookie_page_is_passed_with_the_boards_own_hidden_fields() -> None:
    confirm = (
        "<html><!-- 2ch_X:cookie --><title>書き込む前に</title><form>"
        "<input type=hidden name=bbs value=test><input type=hidden name=key value=1795954933>"
        "<input type=HIDDEN name=feature value=confirmed><input type=hidden name=empty>"
        "<input type=hidden value=nameless><input type=text name=shown value=visible>"
        "<input type=submit value=上記全てを承諾して書き込む></form></html>"
    )
    session = Session(Answer(confirm), Answer("<title>書きこみました。</title>"))
    assert BoardWriter(session, "ボット").reply(REF, "本文").posted  # type: ignore[arg-type]
    first, second = session.forms
    assert first["MESSAGE"] == "本文"
    assert second == {
        **first,  # the bot's own fields, as it sent them
        "feature": "confirmed",
        "empty": "",
        "submit": "上記全てを承諾して書き込む",
    }


def test_a_confirmation_page_cannot_change_what_the_bot_posts_or_where() -> None:
    hostile = (
        "<html><!-- 2ch_X:cookie --><title>■ 書き込み確認 ■</title><form>"
        "<input type=hidden name=bbs value=other><input type=hidden name=key value=1111111111>"
        "<input type=hidden name=FROM value='偽物#鍵'><input type=hidden name=mail value=age>"
        "<input type=hidden name=MESSAGE value='宣伝です'><input type=hidden name=token value=t1>"
        "</form></html>"
    )
    session = Session(Answer(hostile), Answer("<title>書きこみました。</title>"))
    assert BoardWriter(session, "ボット#tea", "sage").reply(REF, "本文").posted  # type: ignore[arg-type]
    first, second = session.forms
    assert {key: second[key] for key in first if key != "submit"} == {
        key: value for key, value in first.items() if key != "submit"
    }
    assert (second["MESSAGE"], second["FROM"], second["key"], second["token"]) == (
        "本文",
        "ボット#tea",
        "1795954933",
        "t1",
    )


def test_a_page_with_the_cookie_marker_is_the_confirmation_whatever_its_title() -> None:
    assert is_confirmation("<html><!-- 2ch_X:cookie --><title>書き込む前に</title></html>")
    assert not is_confirmation("<html><!-- 2ch_X:true --><title>書き込む前に</title></html>")


def test_a_refusal_is_the_boards_words_without_its_page_or_the_form_copied_below() -> None:
    page = (
        "<html><head>ヘッダの文字<title>ＥＲＲＯＲ！</title><style>b{color:red}</style></head><body>"
        "<script>var x = 1;</script><b>ＥＲＲＯＲ：本文が長すぎます！</b>\n  短くしてください"
        "<form>名前：<input name=FROM value='ボット#鍵'> 名前：もう一度</form></body></html>"
    )
    assert classify(page).message == "ＥＲＲＯＲ：本文が長すぎます！ 短くしてください"
    long = classify("<title>ＥＲＲＯＲ！</title>" + "長" * 600)
    assert long.kind == "rejected" and long.message == "長" * 500
    assert board_reason("掲示板が何か言っています" * 10) == ("掲示板が何か言っています" * 4)[:40]


def test_where_a_redirect_goes_decides_what_it_means() -> None:
    from poster.writer import redirected

    form = {"bbs": "test", "key": "1795954933"}
    url = "http://127.0.0.1:8380/test/bbs.cgi"
    there = redirected(url, REF.read_url, REF.read_url + "l50", form)
    assert there.kind == "uncertain" and there.retry_after is None  # looked for in the thread at once
    for elsewhere in ("/test/login.php", "http://example.jp/test/read.cgi/test/1795954933/"):
        away = redirected(url, REF.read_url, elsewhere, form)  # another page, or another host
        assert (away.kind, away.retry_after) == ("uncertain", 60), elsewhere
    new = {"bbs": "test", "subject": "題"}
    opened = redirected(url, REF.read_url, "/test/read.cgi/test/1795954999/", new)
    assert (opened.kind, opened.key) == ("posted", "1795954999")
    wide = redirected(url, REF.read_url, "/test/read.cgi/test/１７９５９５４９９９/", new)  # no key of ours
    assert (wide.kind, wide.key) == ("uncertain", None)
    huge = redirected(url, REF.read_url, "http://portal.example/" + "a" * 400, form)
    assert huge.message == f"redirected away from the board: {('http://portal.example/' + 'a' * 400)[:200]!r}"


@pytest.mark.parametrize("dialect", ["2ch", "shitaraba"])
def test_the_forms_are_the_fields_each_boards_cgi_reads(dialect: str) -> None:
    import time

    url = REF.read_url if dialect == "2ch" else "http://jbbs.example/bbs/read.cgi/game/12345/1795954933/"
    ref = ThreadRef.from_url(url)
    encoding = "cp932" if dialect == "2ch" else "euc_jp"
    session = Session(*[Answer("<title>書きこみました。</title>", encoding=encoding)] * 2, encoding=encoding)
    writer = BoardWriter(session, "ボット◆", "sage")  # type: ignore[arg-type]
    before = int(time.time())
    assert writer.reply(ref, "返信").posted and writer.new_thread(ref, "次スレ", "本文").posted
    reply, opening = session.forms
    assert before <= int(reply.pop("time" if dialect == "2ch" else "TIME")) <= time.time()
    assert before <= int(opening.pop("time" if dialect == "2ch" else "TIME")) <= time.time()
    if dialect == "2ch":
        who = {"FROM": "ボット◆", "mail": "sage"}
        assert reply == {"bbs": "test", "key": "1795954933", **who, "MESSAGE": "返信", "submit": "書き込む"}
        assert opening == {
            "bbs": "test",
            "subject": "次スレ",
            **who,
            "MESSAGE": "本文",
            "submit": "新規スレッド作成",
        }
    else:
        where, who = {"DIR": "game", "BBS": "12345"}, {"NAME": "ボット◆", "MAIL": "sage"}
        assert reply == {**where, "KEY": "1795954933", **who, "MESSAGE": "返信", "submit": "書き込む"}
        assert opening == {**where, "SUBJECT": "次スレ", **who, "MESSAGE": "本文", "submit": "新規書き込み"}


def test_a_form_says_what_it_is_and_where_it_was_filled_in_and_keeps_what_the_encoding_lacks() -> None:
    session = Session(Answer("<title>書きこみました。</title>"))
    assert BoardWriter(session, "ボット").reply(REF, "🎲 ダイス").posted  # type: ignore[arg-type]
    assert session.forms[0]["MESSAGE"] == "&#127922; ダイス"  # cp932 has no 🎲: the board shows it anyway
    assert session.options["headers"] == {
        "Content-Type": "application/x-www-form-urlencoded",
        "Referer": REF.read_url,
    }
    assert session.options["allow_redirects"] is False


def test_unreachable_and_unanswered_are_said_with_the_reason_and_the_rest() -> None:
    from urllib3.exceptions import NewConnectionError

    refused = NewConnectionError(None, "Connection refused")  # type: ignore[arg-type]
    never = requests.ConnectionError(type("Max", (), {"reason": refused})())
    retry = BoardWriter(Session(never), "ボット").reply(REF, "x")  # type: ignore[arg-type]
    assert (retry.kind, retry.retry_after, retry.message) == (
        "retry",
        30,
        f"could not reach the board: {never}",
    )
    lost = requests.ReadTimeout("read timed out")
    silent = BoardWriter(Session(lost), "ボット").reply(REF, "x")  # type: ignore[arg-type]
    assert (silent.kind, silent.message) == ("uncertain", "no answer from the board: read timed out")


def test_a_cookie_page_twice_is_a_retry_with_growing_rests(caplog: pytest.LogCaptureFixture) -> None:
    cookie = "<html><!-- 2ch_X:cookie --><title>書き込み確認</title></html>"
    caplog.set_level("INFO", logger="poster.writer")
    outcome = BoardWriter(Session(Answer(cookie), Answer(cookie)), "ボット").reply(REF, "x")  # type: ignore[arg-type]
    assert (outcome.kind, outcome.retry_after, outcome.backoff) == ("retry", 60, True)
    assert outcome.message == "the board asked for cookie confirmation twice"
    assert f"{REF.read_url}: confirming the cookie page" in caplog.messages
