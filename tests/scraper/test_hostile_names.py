"""Name fields written to fool a reader: a typed ◆ (raw or as a reference) on a board that did not
turn it into ◇, typed markup, `ID:` and `(主)` in a name, a host in the name field. Whatever the
dialect, the trip is only the board's, the ID only the date field's, and no forged name reads as
the GM's signature."""

from __future__ import annotations

import pytest

from scraper.dat import parse_dat_line
from scraper.html import parse_read_cgi
from scraper.post import Post
from scraper.rawmode import parse_rawmode_line

GM_TRIP = "SyRJNUqZWYMT"
GM_SIGNATURE = f"GM◆{GM_TRIP}"
DATE = "2026/11/29(日) 21:22:13 ID:eU4RU1Lw"

# Name fields as a board that escapes < > (every board does) but leaves ◆ and & alone would store them.
FORGED = {
    "raw ◆": f"GM◆{GM_TRIP}",
    "decimal reference": f"GM&#9670;{GM_TRIP}",
    "hex reference": f"GM&#x25C6;{GM_TRIP}",
    "typed markup": f"GM &lt;/b&gt;◆{GM_TRIP} &lt;b&gt;",
    "typed markup, escaped twice": f"GM &amp;lt;/b&amp;gt;&#9670;{GM_TRIP} &amp;lt;b&amp;gt;",
    "typed bold around a real trip's place": f"GM&lt;b&gt;&lt;/b&gt;◆{GM_TRIP}",
}


def _dat(name_field: str) -> Post:
    return parse_dat_line(2, f"{name_field}<>sage<>{DATE}<>本文<>")


def _rawmode(name_field: str) -> Post:
    post = parse_rawmode_line(f"2<>{name_field}<>sage<>2016/05/30(月) 02:13:04<>本文<><>eU4RU1Lw")
    assert post is not None
    return post


def _page(name_field: str) -> Post:
    # read.cgi shows the name field inside <b>, the server's trip markup closing and reopening it
    page = (
        "<html><div class='post'><span class='number'>2</span>"
        f"<span class='name'><b>{name_field}</b></span><span class='dateid'>{DATE}</span>"
        "<div class='message'>本文</div></div></html>"
    )
    (post,) = parse_read_cgi(page)
    return post


READERS = {"dat": _dat, "rawmode": _rawmode, "read.cgi": _page}


@pytest.mark.parametrize("reader", READERS.values(), ids=READERS.keys())
@pytest.mark.parametrize("field", FORGED.values(), ids=FORGED.keys())
def test_a_forged_trip_is_no_trip_and_no_signature_of_the_gm(reader, field: str) -> None:
    post = reader(field)
    assert post.trip is None
    assert post.signature != GM_SIGNATURE and "◆" not in post.signature
    assert GM_TRIP in post.name  # what was typed is kept, with ◇ as boards show a typed ◆


@pytest.mark.parametrize("reader", READERS.values(), ids=READERS.keys())
def test_a_real_trip_beside_a_forged_one_is_the_board_s(reader) -> None:
    post = reader("偽◆AAAAAAAAAA </b>◆WokonZwxw2 <b>")
    assert (post.trip, post.name) == ("WokonZwxw2", "偽◇AAAAAAAAAA")
    assert post.signature == "偽◇AAAAAAAAAA◆WokonZwxw2"


def test_a_forged_trip_after_the_board_s_markup_is_not_the_trip() -> None:
    post = _dat(f"名 </b>◆WokonZwxw2 <b>&#x25c6;{GM_TRIP}")
    assert (post.trip, post.name) == ("WokonZwxw2", f"名 ◇{GM_TRIP}")


@pytest.mark.parametrize("reader", [_dat, _page], ids=["dat", "read.cgi"])
def test_an_id_or_a_starter_mark_in_the_name_is_no_id(reader) -> None:
    post = reader("名無し ID:GMsOwnID(主)")
    assert post.id == "eU4RU1Lw" and post.name == "名無し ID:GMsOwnID(主)"


def test_a_rawmode_id_comes_from_its_own_field_only() -> None:
    post = _rawmode("名無し ID:GMsOwnID(主)")
    assert post.id == "eU4RU1Lw"


def test_a_host_in_the_name_field_is_shown_and_is_no_trip() -> None:
    # fusianasan: the board writes the writer's host inside its own markup
    post = _dat("名 </b>p1234-ipbf.tokyo.example.ne.jp<b>前")
    assert post.trip is None and "p1234-ipbf.tokyo.example.ne.jp" in post.name
