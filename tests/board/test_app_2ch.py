"""The 2ch dialect of the local board, through its WSGI app: every endpoint, the write rules, errors."""

from __future__ import annotations

import re
import time
from urllib.parse import quote

from werkzeug.http import parse_date
from werkzeug.wrappers import Response

from board.admin import open_thread
from board.errors import PostError
from tests.board.conftest import BoardHarness, new_thread, post_2ch, sjis_form


def dat_lines(harness: BoardHarness, key: str) -> list[str]:
    response = harness.client().get(f"/test/dat/{key}.dat")
    assert response.status_code == 200
    data = response.get_data()
    response.close()  # a sent file stays open until its response is closed
    return data.decode("cp932").splitlines()


def test_new_thread_then_reply_gives_the_dat_lines_of_a_real_server(harness: BoardHarness) -> None:
    client = harness.client()
    key = new_thread(client, title="検証 <スレ>", message="一行目\n二行目")
    harness.clock.advance(12)
    response = post_2ch(client, key=key, FROM="", mail="sage", MESSAGE=">>1 安価 & <b>太字</b>")
    assert "<title>書きこみました。</title>" in response.get_data().decode("cp932")

    first, second = dat_lines(harness, key)
    name, mail, date_id, body, title = first.split("<>")
    assert (name, mail, title) == ("名無しさん", "", "検証 &lt;スレ&gt;")
    assert re.fullmatch(r"2026/11/29\(日\) 21:22:13 ID:[A-Za-z0-9+/]{8}\(主\)", date_id)
    assert body == "一行目<br>二行目"
    assert second.split("<>")[1] == "sage"
    assert second.split("<>")[3] == "&gt;&gt;1 安価 & &lt;b&gt;太字&lt;/b&gt;"
    assert second.split("<>")[4] == ""
    assert second.split("<>")[2].startswith("2026/11/29(日) 21:22:25 ID:")


def test_the_answer_to_a_post_is_the_page_werkzeug_would_send_with_the_remembered_cookies(
    harness: BoardHarness,
) -> None:
    name = '名前 "x"; y=1 ◆#鍵'
    client = harness.client()
    key = new_thread(client)
    answer = post_2ch(client, key=key, FROM=name, mail="sage", MESSAGE="本文")
    body = answer.get_data()
    assert "書きこみました".encode("cp932") in body
    expected = Response(body, content_type="text/html; charset=Shift_JIS")
    expected.set_cookie("NAME", quote(name), max_age=30 * 24 * 3600, path="/")
    expected.set_cookie("MAIL", "sage", max_age=30 * 24 * 3600, path="/")

    def shape(headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
        return [(header, re.sub(r"Expires=[^;]+", "Expires=…", value)) for header, value in headers]

    assert shape(list(answer.headers.items())) == shape(list(expected.headers.items()))
    assert client.get_cookie("NAME").value == quote(name)
    assert client.get_cookie("MAIL").value == "sage"
    expires = re.search(r"Expires=([^;]+)", answer.headers.getlist("Set-Cookie")[0])[1]
    assert abs(parse_date(expires).timestamp() - time.time() - 30 * 24 * 3600) < 5


def test_subject_txt_and_setting_txt_are_cp932_in_the_documented_shape(harness: BoardHarness) -> None:
    client = harness.client()
    first = new_thread(client, title="一つ目")
    harness.clock.advance(1)
    second = new_thread(harness.client("192.0.2.2"), title="二つ目")  # one host may not open both
    harness.clock.advance(1)
    post_2ch(client, key=first, MESSAGE="age")  # aged: back to the top
    harness.clock.advance(1)
    post_2ch(client, key=second, MESSAGE="sage", mail="sage")  # not aged: stays second

    subject = client.get("/test/subject.txt")
    assert subject.headers["Content-Type"] == "text/plain; charset=Shift_JIS"
    assert subject.get_data().decode("cp932") == f"{first}.dat<>一つ目 (2)\n{second}.dat<>二つ目 (2)\n"
    subject.close()
    setting_response = client.get("/test/SETTING.TXT")
    setting = setting_response.get_data().decode("cp932")
    setting_response.close()
    assert "BBS_NONAME_NAME=名無しさん\n" in setting
    assert "BBS_THREAD_STOP=1000\n" in setting


def test_first_post_of_a_new_client_gets_the_cookie_confirmation_page(harness: BoardHarness) -> None:
    client = harness.client()
    response = post_2ch(client, confirm=False, subject="クッキー", MESSAGE="本文 <&>", FROM="名前")
    page = response.get_data().decode("cp932")
    assert "<!-- 2ch_X:cookie -->" in page
    assert "<title>■ 書き込み確認 ■</title>" in page
    assert '<input type=hidden name="MESSAGE" value="本文 &lt;&amp;&gt;">' in page
    assert '<input type=hidden name="subject" value="クッキー">' in page
    assert all(
        client.get_cookie(name) is not None for name in ("NAME", "MAIL", "securitykey", "countsession")
    )
    assert harness.board.threads() == []  # nothing written before confirmation

    again = post_2ch(client, confirm=False, subject="クッキー", MESSAGE="本文 <&>", FROM="名前")
    assert "書きこみました" in again.get_data().decode("cp932")
    assert len(harness.board.threads()) == 1


def test_a_client_without_cookies_sees_the_confirmation_every_time(harness: BoardHarness) -> None:
    for _ in range(2):
        response = harness.client().post(
            "/test/bbs.cgi",
            data=sjis_form(bbs="test", subject="s", MESSAGE="m"),
            content_type="application/x-www-form-urlencoded",
        )
        assert "2ch_X:cookie" in response.get_data().decode("cp932")


def test_read_cgi_ranges_and_the_first_post(harness: BoardHarness) -> None:
    client = harness.client()
    key = new_thread(client)
    for number in range(2, 61):
        harness.clock.advance(1)
        post_2ch(client, key=key, MESSAGE=f"レス{number}")

    def numbers(option: str) -> list[int]:
        page = client.get(f"/test/read.cgi/test/{key}/{option}").get_data().decode("cp932")
        return [int(n) for n in re.findall(r'<span class="number">(\d+)</span>', page)]

    assert numbers("") == list(range(1, 61))
    assert numbers("l50") == [1, *range(11, 61)]
    assert numbers("l10n") == list(range(51, 61))
    assert numbers("5") == [1, 5]
    assert numbers("5-7") == [1, 5, 6, 7]
    assert numbers("58-") == [1, 58, 59, 60]
    assert numbers("-3") == [1, 2, 3]
    assert client.get(f"/test/read.cgi/test/{key}/x5").status_code == 404


def test_read_cgi_page_escapes_everything_a_poster_typed(harness: BoardHarness) -> None:
    client = harness.client()
    key = new_thread(client, title="<script>alert(1)</script>", message="<script>alert('本文')</script>")
    harness.clock.advance(1)
    post_2ch(
        client,
        key=key,
        FROM="<img src=x onerror=alert(1)>",
        MESSAGE="&lt;script&gt;x&lt;/script&gt; &#9829; >>1",
    )
    page = client.get(f"/test/read.cgi/test/{key}/").get_data().decode("cp932")
    assert "<script>" not in page
    assert "<img" not in page
    assert "&lt;script&gt;alert(&#39;本文&#39;)&lt;/script&gt;" in page
    assert "♥" in page or "&#9829;" in page  # a numeric reference shows as its character
    assert f'<a class="reply_link" href="/test/read.cgi/test/{key}/1">&gt;&gt;1</a>' in page


def test_name_field_rules(harness: BoardHarness) -> None:
    client = harness.client()
    key = new_thread(client)
    names = {
        "偽◆トリップ": "偽◇トリップ",
        "キャップ★": "キャップ☆",
        "管理": "”管理”",
        "削除人": "”削除”人",
        "&#9670;参照": "◇参照",
        '"引用"': "&quot;引用&quot;",
        " 先頭空白": "先頭空白",
    }
    for typed in names:
        harness.clock.advance(1)
        post_2ch(client, key=key, FROM=typed, MESSAGE="名前テスト")
    stored = [line.split("<>")[0] for line in dat_lines(harness, key)[1:]]
    assert stored == list(names.values())


def test_tripcodes_in_the_name_field(harness: BoardHarness) -> None:
    client = harness.client()
    key = new_thread(client, FROM="トリップ#tea")
    harness.clock.advance(1)
    post_2ch(client, key=key, FROM="GM#threadgm-test-key", MESSAGE="長いトリップ")
    harness.clock.advance(1)
    post_2ch(client, key=key, FROM="全角＃tea", MESSAGE="全角シャープ")
    harness.clock.advance(1)
    post_2ch(client, key=key, FROM="参照&#9829;だけ", MESSAGE="キーではない")
    names = [line.split("<>")[0] for line in dat_lines(harness, key)]
    assert names == [
        "トリップ </b>◆WokonZwxw2 <b>",
        "GM </b>◆SyRJNUqZWYMT <b>",
        "全角 </b>◆WokonZwxw2 <b>",
        "参照&#9829;だけ",
    ]


def test_mail_field_never_stores_a_cap_password(harness: BoardHarness) -> None:
    client = harness.client()
    key = new_thread(client)
    harness.clock.advance(1)
    post_2ch(client, key=key, mail="sage#secret", MESSAGE="x")
    assert dat_lines(harness, key)[1].split("<>")[1] == "sage"


def test_ids_differ_by_client_and_by_day_and_mark_the_starter(harness: BoardHarness) -> None:
    starter, other = harness.client("192.0.2.1"), harness.client("192.0.2.2")
    key = new_thread(starter)
    harness.clock.advance(1)
    post_2ch(other, key=key, MESSAGE="他人")
    harness.clock.advance(1)
    post_2ch(starter, key=key, MESSAGE="主")
    harness.clock.advance(24 * 3600)
    post_2ch(starter, key=key, MESSAGE="翌日")
    ids = [line.split("<>")[2].split(" ID:")[1] for line in dat_lines(harness, key)]
    assert ids[0].endswith("(主)") and ids[2] == ids[0]
    assert not ids[1].endswith("(主)") and ids[1] != ids[0].removesuffix("(主)")
    assert ids[3].removesuffix("(主)") != ids[0].removesuffix("(主)")  # a new day, a new ID


def error_of(response) -> str:
    page = response.get_data().decode("cp932")
    assert "<!-- 2ch_X:error -->" in page and "<title>ＥＲＲＯＲ！</title>" in page
    return page


def test_setting_txt_limits_give_the_real_error_pages(harness: BoardHarness) -> None:
    harness.board.update_settings(
        {
            "BBS_LINE_NUMBER": "2",
            "BBS_MESSAGE_COUNT": "40",
            "BBS_COLUMN_NUMBER": "20",
            "BBS_NAME_COUNT": "8",
            "BBS_MAIL_COUNT": "4",
            "BBS_SUBJECT_COUNT": "6",
        }
    )
    client = harness.client()
    key = new_thread(client, title="短い")
    cases = {
        "本文長すぎ": {"MESSAGE": "あ" * 41},
        "改行多すぎ": {"MESSAGE": "\n".join("x" * 5)},
        "1行長すぎ": {"MESSAGE": "x" * 21},
        "名前長すぎ": {"FROM": "あ" * 9, "MESSAGE": "x"},
        "メール長すぎ": {"mail": "sagex", "MESSAGE": "x"},
        "本文が無い": {"MESSAGE": " \n \n"},
    }
    for subject, fields in cases.items():
        assert f"ＥＲＲＯＲ：{subject}" in error_of(post_2ch(client, key=key, **fields))
    assert "ＥＲＲＯＲ：サブジェクト長すぎ" in error_of(
        post_2ch(client, subject="長すぎる題名です", MESSAGE="x")
    )
    assert "ＥＲＲＯＲ：タイトルが無い" in error_of(post_2ch(client, subject="", MESSAGE="x"))
    assert len(dat_lines(harness, key)) == 1


def test_missing_stopped_and_malformed_threads(harness: BoardHarness) -> None:
    client = harness.client()
    key = new_thread(client)
    assert "書き込もうとしているスレッドは存在しないか" in error_of(
        post_2ch(client, key="1234567890", MESSAGE="x")
    )
    assert "スレッドキーに数字以外" in error_of(post_2ch(client, key="12ab", MESSAGE="x"))
    harness.board.stop(key)
    assert "このスレッドは停止されてます。もう書けない。。。" in error_of(
        post_2ch(client, key=key, MESSAGE="x")
    )
    assert "このスレッドにはもう書き込めません" in client.get(
        f"/test/read.cgi/test/{key}/"
    ).get_data().decode("cp932")


def test_read_only_board(harness: BoardHarness) -> None:
    harness.board.update_settings({"BBS_READONLY": "caps"})
    page = error_of(post_2ch(harness.client(), subject="x", MESSAGE="x"))
    assert "現在この掲示板は読取専用です。" in page


def test_samba_refuses_quick_posts_with_the_seconds_to_wait(harness: BoardHarness) -> None:
    harness.board.update_settings({"BBS_SAMBATIME": "10"})
    client = harness.client()
    key = new_thread(client)
    assert "書きこみました" in post_2ch(client, key=key, MESSAGE="一回目").get_data().decode("cp932")
    harness.clock.advance(3)
    page = error_of(post_2ch(client, key=key, MESSAGE="早すぎ"))
    assert "ＥＲＲＯＲ - 593 10 sec たたないと書けません。(1回目、3 sec しかたってない)" in page
    harness.clock.advance(2)
    page = error_of(post_2ch(client, key=key, MESSAGE="まだ早い"))
    assert "(2回目、2 sec しかたってない)" in page  # every attempt restarts the wait, as on ex0ch
    assert "書きこみました" in post_2ch(
        harness.client("192.0.2.9"), key=key, MESSAGE="他人"
    ).get_data().decode("cp932")
    harness.clock.advance(10)
    assert "書きこみました" in post_2ch(client, key=key, MESSAGE="待った").get_data().decode("cp932")


def test_one_host_opens_one_of_the_last_five_threads(harness: BoardHarness) -> None:
    # ex0ch's defaults: BBS_THREAD_TATESUGI=5, BBS_TATESUGI_COUNT2=1.
    opener = harness.client("192.0.2.1")
    new_thread(opener, title="一つ目")
    page = error_of(post_2ch(opener, subject="二つ目", MESSAGE="もう一つ"))
    assert "ＥＲＲＯＲ：スレッド立てすぎ" in page and "もうちょいもちついてください。" in page
    assert "書きこみました" in post_2ch(
        opener, key=new_thread(harness.client("192.0.2.9")), MESSAGE="返信はいい"
    ).get_data().decode("cp932")
    for host in range(2, 6):  # four more hosts open threads: the first one has left the last five
        harness.clock.advance(1)
        new_thread(harness.client(f"192.0.2.{host}"), title=f"{host}番目")
    assert "書きこみました" in post_2ch(opener, subject="また立てる", MESSAGE="本文").get_data().decode(
        "cp932"
    )
    # The board's owner is not held to it, and the limit is a setting.
    open_thread(harness.data, "test", "管理人", "管理人のスレ")
    open_thread(harness.data, "test", "管理人2", "管理人のスレ")
    harness.board.update_settings({"BBS_THREAD_TATESUGI": "0"})
    assert "書きこみました" in post_2ch(opener, subject="設定で解除", MESSAGE="本文").get_data().decode(
        "cp932"
    )


def test_the_last_hours_limit_counts_every_host(harness: BoardHarness) -> None:
    harness.board.update_settings(
        {"BBS_THREAD_TATESUGI": "0", "BBS_TATESUGI_HOUR": "1", "BBS_TATESUGI_COUNT": "3"}
    )
    for host in range(1, 4):
        new_thread(harness.client(f"192.0.2.{host}"), title=f"{host}")
    assert "ＥＲＲＯＲ：スレッド立てすぎ" in error_of(
        post_2ch(harness.client("192.0.2.7"), subject="4", MESSAGE="x")
    )
    harness.clock.advance(3601)
    assert "書きこみました" in post_2ch(
        harness.client("192.0.2.7"), subject="4", MESSAGE="x"
    ).get_data().decode("cp932")


def test_consecutive_posts_rule_waits_for_others(harness: BoardHarness) -> None:
    harness.board.update_settings({"timecount": "7", "timeclose": "5"})
    bot, player = harness.client("192.0.2.1"), harness.client("192.0.2.2")
    key = new_thread(player)
    for _ in range(5):
        harness.clock.advance(1)
        assert "書きこみました" in post_2ch(bot, key=key, MESSAGE="bot").get_data().decode("cp932")
    harness.clock.advance(1)
    assert "ＥＲＲＯＲ：連続投稿" in error_of(post_2ch(bot, key=key, MESSAGE="bot"))
    harness.clock.advance(1)
    for _ in range(3):  # 5 of the last 7 were the bot's: three others must write first
        post_2ch(player, key=key, MESSAGE="人間")
    harness.clock.advance(1)
    assert "書きこみました" in post_2ch(bot, key=key, MESSAGE="bot").get_data().decode("cp932")


def test_the_thousandth_post_brings_the_1001_line_and_then_error_201(harness: BoardHarness) -> None:
    harness.board.update_settings({"BBS_THREAD_STOP": "5"})
    client = harness.client()
    key = new_thread(client)
    for _ in range(4):
        harness.clock.advance(1)
        post_2ch(client, key=key, MESSAGE="埋め")
    lines = dat_lines(harness, key)
    assert len(lines) == 6
    assert lines[5] == (
        "６<><>Over 5 Thread<>このスレッドは５を超えました。<br>"
        "もう書けないので、新しいスレッドを立ててくださいです。。。<>"
    )
    assert "5を超えてます。このスレッドにはもう書けない。。。" in error_of(
        post_2ch(client, key=key, MESSAGE="x")
    )
    assert harness.board.threads()[0].count == 6


def test_the_default_limit_is_one_thousand(harness: BoardHarness) -> None:
    client = harness.client()
    key = new_thread(client)
    board = harness.board
    path = board.dat_path(key)
    with path.open("ab") as dat:  # 998 more posts without 998 requests
        dat.write("名無しさん<><>2026/11/29(日) 21:22:13 ID:abcdefgh<>埋め<>\n".encode("cp932") * 998)
    assert "書きこみました" in post_2ch(client, key=key, MESSAGE="千").get_data().decode("cp932")
    lines = dat_lines(harness, key)
    assert len(lines) == 1001 and lines[-1].startswith("１００１<><>Over 1000 Thread<>")
    assert "1000を超えてます。" in error_of(post_2ch(client, key=key, MESSAGE="x"))


def test_deletion_keeps_the_numbering(harness: BoardHarness) -> None:
    client = harness.client()
    key = new_thread(client)
    for number in (2, 3):
        harness.clock.advance(1)
        post_2ch(client, key=key, MESSAGE=f"レス{number}")
    harness.board.delete_post(key, 2)
    lines = dat_lines(harness, key)
    assert lines[1] == "あぼーん<>あぼーん<>あぼーん<>あぼーん<>あぼーん"
    assert lines[2].split("<>")[3] == "レス3"
    assert harness.board.threads()[0].count == 3


def test_unknown_board_and_bad_paths_are_refused(harness: BoardHarness) -> None:
    client = harness.client()
    assert client.get("/nosuch/subject.txt").status_code == 404
    assert client.get("/test/dat/../SETTING.TXT").status_code == 404
    assert client.get("/test/dat/..%2fSETTING.TXT").status_code == 404
    assert client.get("/test/dat/abc.dat").status_code == 404
    assert client.get("/test/read.cgi/test/123/").status_code == 404
    page = post_2ch(client, bbs="nosuch", subject="x", MESSAGE="x").get_data().decode("cp932")
    assert "フォーム情報が正しく読めないです。" in page


def test_request_bodies_are_size_limited(harness: BoardHarness) -> None:
    client = harness.client()
    response = client.post(
        "/test/bbs.cgi",
        data=b"bbs=test&MESSAGE=" + b"a" * (300 * 1024),
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 413
    assert harness.board.threads() == []


def test_multipart_forms_decode_as_cp932(harness: BoardHarness) -> None:
    client = harness.client()
    key = new_thread(client)
    harness.clock.advance(1)
    boundary = "----threadgm"
    parts = [("bbs", "test"), ("key", key), ("FROM", "多部"), ("mail", ""), ("MESSAGE", "マルチパート①")]
    body = b"".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode("ascii")
        + value.encode("cp932")
        + b"\r\n"
        for name, value in parts
    ) + f"--{boundary}--\r\n".encode("ascii")
    client.post("/test/bbs.cgi", data=body, content_type=f"multipart/form-data; boundary={boundary}")
    assert dat_lines(harness, key)[1].split("<>")[:4:3] == ["多部", "マルチパート①"]


def test_error_texts_match_ex0ch() -> None:
    assert (
        PostError(593, samba=10, count=3, waited=7).message
        == "10 sec たたないと書けません。(3回目、7 sec しかたってない)"
    )
    assert PostError(201, res_max=1000).message == "1000を超えてます。このスレッドにはもう書けない。。。"
    assert PostError(501).message == "連続投稿ですか？？"
