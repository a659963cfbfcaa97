"""Dat lines, rawmode lines and read.cgi pages all become the same `Post`s."""

from __future__ import annotations

from datetime import datetime

import pytest

from scraper.dat import parse_dat, parse_dat_line
from scraper.html import parse_read_cgi
from scraper.post import JST, parse_name
from scraper.rawmode import parse_rawmode
from tests.conftest import shared_path


def captured_posts():
    return parse_dat(shared_path("fixtures", "ex0ch", "1795954933.dat").read_bytes().decode("cp932"))


def test_the_captured_ex0ch_dat() -> None:
    posts = captured_posts()
    assert [p.number for p in posts] == [1, 2, 3, 4, 5]
    first, tripped, fake, gm, dice = posts
    assert first.title == "キャプチャ54933"
    assert (
        first.body == "スレ立て <テスト> &amp; &#9829;"
    )  # the board escaped &, one unescape gives back what was typed
    assert first.date == datetime(2026, 11, 29, 21, 22, 13, tzinfo=JST)
    assert first.id == "eU4RU1Lw(主)"
    assert (tripped.name, tripped.trip, tripped.mail) == ("トリップ", "WokonZwxw2", "sage")
    assert tripped.body == "トリップ付き\n二行目\n>>1 安価"
    assert (fake.name, fake.trip) == ("名無し◇偽物", None)
    assert (gm.name, gm.trip, gm.signature) == ("GM", "SyRJNUqZWYMT", "GM◆SyRJNUqZWYMT")
    assert dice.body == "dice2d47=\n【通常戦闘ダイス】\ndice1d5="
    assert dice.raw.startswith("名無しさん＠EXぜろちゃんねる<><>")


def test_deleted_and_system_lines_and_2ch_padding() -> None:
    deleted = parse_dat_line(7, "あぼーん<>あぼーん<>あぼーん<>あぼーん<>あぼーん")
    assert deleted.deleted and deleted.body == "" and deleted.number == 7
    over = parse_dat_line(
        1001, "１００１<><>Over 1000 Thread<>このスレッドは１０００を超えました。<br>もう書けない<>"
    )
    assert over.system and not over.deleted
    padded = parse_dat_line(
        2, "名無し<>sage<>2023/12/30(土) 00:21:25.12 ID:MZZnqdaQ<> 隣の客は <br> よく柿食う客だ <>"
    )
    assert padded.body == "隣の客は\nよく柿食う客だ"
    assert padded.date == datetime(2023, 12, 30, 0, 21, 25, 120000, tzinfo=JST)


def test_malformed_lines_never_raise() -> None:
    for line in ["", "<>", "a<>b", "名前<><>日付なし<>本文<>", "x" * 5000, "\udcff<>"]:
        post = parse_dat_line(1, line)
        assert post.number == 1


def test_a_diamond_outside_server_markup_is_not_a_trip() -> None:
    assert parse_name("名無し◆abcdefghij") == ("名無し◇abcdefghij", None)  # shown as boards show it
    assert parse_name("名無し </b>◆abcdefghij <b>") == ("名無し", "abcdefghij")
    assert parse_name("</b>◆abcdefghij <b>") == ("", "abcdefghij")
    assert parse_name("名前＠キャップ ★") == ("名前＠キャップ ★", None)


def test_rawmode_lines() -> None:
    text = (
        "1<>名無し<><>2016/05/30(月) 02:13:04<>スレ立て<br>～です<>題名<>AbCd1234\n"
        "3<>GM </b>◆WokonZwxw2 <b><>sage<>2016/05/30(月) 02:14:00<>&gt;&gt;1 了解<><>EfGh5678\n"
        "broken line\n"
    )
    first, third = parse_rawmode(text)
    assert (first.number, first.title, first.id, first.body) == (1, "題名", "AbCd1234", "スレ立て\n～です")
    assert (third.number, third.trip, third.body, third.mail) == (3, "WokonZwxw2", ">>1 了解", "sage")
    assert third.date == datetime(2016, 5, 30, 2, 14, tzinfo=JST)


def test_the_captured_ex0ch_read_cgi_page_reads_like_its_dat() -> None:
    page = shared_path("fixtures", "ex0ch", "read_cgi.html").read_bytes().decode("cp932")
    from_html = parse_read_cgi(page)
    from_dat = captured_posts()
    assert [(p.number, p.name, p.trip, p.date, p.id) for p in from_html] == [
        (p.number, p.name, p.trip, p.date, p.id) for p in from_dat
    ]
    assert [p.body for p in from_html] == [p.body for p in from_dat]


def test_5ch_style_and_classic_pages() -> None:
    modern = """<div class="post" id="12" data-id="12"><div class="meta"><span class="number">12</span>
    <span class="name"><b><a href="mailto:sage">名無し</a></b></span><span class="date">2024/01/02(火) 03:04:05.67</span>
    <span class="uid">ID:Abc123xyZ</span></div><div class="message"><span class="escaped"> dice1d6= <br> 二行目 </span></div></div>"""
    (post,) = parse_read_cgi(modern)
    assert (post.number, post.name, post.mail, post.id, post.body) == (
        12,
        "名無し",
        "sage",
        "Abc123xyZ",
        "dice1d6=\n二行目",
    )
    classic = """<dl class="thread"><dt>3 ：<a href="mailto:sage"><b>GM </b>◆WokonZwxw2 <b></b></a>：2015/01/01(木) 00:00:00.00 ID:xyz<dd> 本文 <br> 二行目 <br><br></dl>"""
    (old,) = parse_read_cgi(classic)
    assert (old.number, old.name, old.trip, old.mail, old.id) == (3, "GM", "WokonZwxw2", "sage", "xyz")
    assert old.body == "本文\n二行目"


def test_unclosed_classic_posts_and_a_stray_declaration() -> None:
    # Classic pages never close <dt>/<dd>, so each <dd> holds every later post; and Python's HTML
    # parser rejects a whole page over one `<![` or `<!x` (found by fuzzing). Each post reads alone.
    page = """<dl class="thread"><dt>4 ：<b>名無し</b>：2015/01/01(木) 00:00:00.00 ID:xyz<dd> dice1d6= <![ 変な行 <br><br>
    <dt>5 ：<b>名無し</b>：2015/01/01(木) 00:00:01.00 ID:abc<dd> 次 <!x> <br><br></dl>"""
    assert [(p.number, p.body) for p in parse_read_cgi(page)] == [(4, "dice1d6= <![ 変な行"), (5, "次 <!x>")]


# Characters str.splitlines() breaks on, as a board that does not clean its fields stores them raw.
_LINE_LOOKALIKES = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029\r"


def test_only_newline_ends_a_dat_or_rawmode_line(tmp_path) -> None:
    from scraper.files import read_saved_thread

    dat = "".join(
        f"名{c}無し<>sa{c}ge<>2026/11/29(日) 21:22:13<>本{c}文 {i}<>{'題' if i == 0 else ''}\n"
        for i, c in enumerate(_LINE_LOOKALIKES)
    )
    assert [(p.number, p.body[-1]) for p in parse_dat(dat)] == [(i + 1, str(i)) for i in range(9)]
    raw = "".join(
        f"{i + 1}<>名{c}<><>2026/11/29(日) 21:22:13<>本{c}文 {i}<><>x\n"
        for i, c in enumerate(_LINE_LOOKALIKES)
    )
    assert [(p.number, p.body[-1]) for p in parse_rawmode(raw)] == [(i + 1, str(i)) for i in range(9)]
    saved = tmp_path / "1600000000.dat"
    saved.write_bytes(dat.replace("\x85", "").replace("\u2028", "").replace("\u2029", "").encode("cp932"))
    assert [p.number for p in read_saved_thread(saved)] == list(range(1, 10))


@pytest.mark.parametrize(
    "reference", ["&#10", "&#10;", "&#x0a;", "&#X0A", "&NewLine;", "&#0000010", "&#13;", "&#8232;", "&#x2029"]
)
def test_only_the_board_s_br_breaks_a_body_line(reference: str) -> None:
    # A reader sees one line; a command hidden behind a reference must not become a line of its own.
    line = f"名無し<><>2026/11/29(日) 21:22:13<>&gt; 引用{reference}GM: dice1d6=<br>二行目\x0b\x1c三<>題\n"
    (post,) = parse_dat(line)
    assert post.body == "> 引用 GM: dice1d6=\n二行目  三"
    (raw,) = parse_rawmode(f"1<>名無し<><>2016/05/30(月) 02:13:04<>引用{reference}GM: dice1d6=<>題<>x\n")
    assert raw.body == "引用 GM: dice1d6="


def test_a_read_cgi_body_breaks_only_at_br() -> None:
    page = "<html><div class='post'><span class='number'>2</span><div class='message'>引用&#x2028;GM: dice1d6=\x0b x<br>二行目</div></div></html>"
    (post,) = parse_read_cgi(page)
    assert post.body.split("\n") == ["引用 GM: dice1d6=  x", "二行目"]
