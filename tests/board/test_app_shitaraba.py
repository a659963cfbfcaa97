"""The したらば dialect of the local board: subject.txt, setting.cgi, rawmode.cgi, read.cgi, write.cgi."""

from __future__ import annotations

import re

from tests.board.conftest import BoardHarness, new_thread, post_2ch, post_jbbs


def text(response) -> str:
    return response.get_data().decode("euc_jp")


def open_jbbs_thread(
    harness: BoardHarness, title: str = "したらばスレ", message: str = "一番", address: str = "192.0.2.1"
) -> str:
    response = post_jbbs(
        harness.client(address), "test", None, SUBJECT=title, NAME="", MAIL="", MESSAGE=message
    )
    page = text(response)
    assert "<title>書きこみました</title>" in page, page
    return re.search(r"/bbs/read.cgi/local/test/(\d+)/", page)[1]


def test_write_cgi_opens_threads_and_replies_without_a_cookie_page(harness: BoardHarness) -> None:
    key = open_jbbs_thread(harness, message="スレ立て～です")
    harness.clock.advance(1)
    response = post_jbbs(
        harness.client(), "test", key, KEY=key, NAME="名前#tea", MAIL="sage", MESSAGE="返信\n二行"
    )
    assert response.status_code == 200 and "書きこみました" in text(response)
    lines = harness.board.posts(key)
    assert lines[1].name == "名前 </b>◆WokonZwxw2 <b>"
    assert lines[1].body == "返信<br>二行"


def test_subject_txt_repeats_its_first_line_at_the_end(harness: BoardHarness) -> None:
    first = open_jbbs_thread(harness, "一つ目")
    harness.clock.advance(1)
    second = open_jbbs_thread(harness, "二つ目", address="192.0.2.2")  # one host may not open both
    response = harness.client().get("/local/test/subject.txt")
    assert response.headers["Content-Type"] == "text/plain; charset=EUC-JP"
    assert text(response) == f"{second}.cgi,二つ目(1)\n{first}.cgi,一つ目(1)\n{second}.cgi,二つ目(1)\n"


def test_setting_cgi(harness: BoardHarness) -> None:
    body = text(harness.client().get("/bbs/api/setting.cgi/local/test/"))
    assert "BBS=test\n" in body and "DIR=local\n" in body
    assert "BBS_THREAD_STOP=1000\n" in body and "BBS_NONAME_NAME=名無しさん\n" in body


def test_rawmode_has_seven_fields_and_gaps_for_deleted_posts(harness: BoardHarness) -> None:
    client = harness.client()
    key = new_thread(client, title="生データ", message="最初")
    for number in range(2, 6):
        harness.clock.advance(1)
        post_2ch(client, key=key, FROM="GM#tea" if number == 3 else "", MESSAGE=f"レス{number}")
    harness.board.delete_post(key, 4)

    lines = text(client.get(f"/bbs/rawmode.cgi/local/test/{key}/")).splitlines()
    assert [line.split("<>")[0] for line in lines] == ["1", "2", "3", "5"]
    number, name, mail, date, body, title, poster_id = lines[0].split("<>")
    assert (number, name, mail, body, title) == ("1", "名無しさん", "", "最初", "生データ")
    assert re.fullmatch(r"2026/11/29\(日\) 21:22:13", date)
    assert re.fullmatch(r"[A-Za-z0-9+/]{8}", poster_id)
    assert lines[1].split("<>")[5] == ""  # the title only on post 1
    assert lines[2].split("<>")[1] == "GM </b>◆WokonZwxw2 <b>"

    def numbers(option: str) -> list[str]:
        return [
            line.split("<>")[0]
            for line in text(client.get(f"/bbs/rawmode.cgi/local/test/{key}/{option}")).splitlines()
        ]

    assert numbers("3-") == ["3", "5"]
    assert numbers("2-3") == ["2", "3"]
    assert numbers("5") == ["5"]
    assert numbers("l2") == ["5"]
    assert numbers("6-") == []
    assert client.get("/bbs/rawmode.cgi/local/test/1234567890/").status_code == 404


def test_rawmode_leaves_out_the_1001_line_and_shows_euc_numeric_references(harness: BoardHarness) -> None:
    harness.board.update_settings({"BBS_THREAD_STOP": "3"})
    client = harness.client()
    key = new_thread(client, message="波ダッシュ～")
    for _ in range(2):
        harness.clock.advance(1)
        post_2ch(client, key=key, MESSAGE="埋め")
    raw = client.get(f"/bbs/rawmode.cgi/local/test/{key}/").get_data()
    assert raw.count(b"\n") == 3
    assert "波ダッシュ&#65374;".encode("euc_jp") in raw  # ～ (U+FF5E) is not in EUC-JP
    subject = text(client.get("/local/test/subject.txt"))
    assert subject.startswith(f"{key}.cgi,テストスレ(3)\n")


def test_write_cgi_errors_use_shitaraba_wording(harness: BoardHarness) -> None:
    harness.board.update_settings({"BBS_SAMBATIME": "30"})
    key = open_jbbs_thread(harness)
    harness.clock.advance(1)
    client = harness.client()
    assert post_jbbs(client, "test", key, KEY=key, MESSAGE="一回目").status_code == 200
    harness.clock.advance(4)
    refused = post_jbbs(client, "test", key, KEY=key, MESSAGE="早い")
    assert refused.status_code == 403
    assert "多重書き込みです。あと 26 秒お待ちください。" in text(refused)
    harness.board.stop(key)
    harness.clock.advance(60)
    stopped = post_jbbs(client, "test", key, KEY=key, MESSAGE="止まった")
    assert "スレッドストップです" in text(stopped) and "ERROR" in text(stopped)


def test_read_cgi_in_euc_jp_with_a_write_cgi_form(harness: BoardHarness) -> None:
    key = open_jbbs_thread(harness, message="<b>太字</b>のつもり")
    response = harness.client().get(f"/bbs/read.cgi/local/test/{key}/")
    assert response.headers["Content-Type"] == "text/html; charset=EUC-JP"
    page = text(response)
    assert f'action="/bbs/write.cgi/local/test/{key}/"' in page and 'accept-charset="EUC-JP"' in page
    assert "&lt;b&gt;太字&lt;/b&gt;のつもり" in page and "<b>太字" not in page
