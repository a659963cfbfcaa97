"""Control characters in posts cannot shift post numbers (issue 11).

A dat line ends at `\\n` and nowhere else. Every C0 and C1 control and the Unicode line separators,
typed raw or as a numeric reference, go through both dialects' forms in every field; the board, the
bot's reading (scraper over HTTP) and `threadgm verify`'s file reader must then agree on every post's
number, and the board must have stored no control character but the line ends.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import requests

from board.storage import BoardStore
from scraper.fetch import FetchState, fetch, make_session
from scraper.files import read_saved_thread
from scraper.refs import ThreadRef

CONTROLS = [chr(c) for c in range(0x20) if c != 0x0A] + [chr(c) for c in range(0x7F, 0xA0)]
CONTROLS += ["\u2028", "\u2029"]
# What a browser sends for a character the page's charset lacks, and the forms a hostile poster types.
REFERENCES = ["&#11;", "&#x1c;", "&#12", "&#133;", "&#8232;", "&#x2029", "&NewLine;", "&#0000010", "&#10"]


def _post(board, dialect: str, name: str, mail: str, message: str) -> None:
    if dialect == "2ch":
        fields = {"bbs": "test", "key": board.key, "FROM": name, "mail": mail, "MESSAGE": message}
        url, encoding, cookies = f"{board.server.url}/test/bbs.cgi", "cp932", {"NAME": "", "MAIL": ""}
    else:
        fields = {"DIR": "local", "BBS": "test", "KEY": board.key, "NAME": name, "MAIL": mail}
        fields["MESSAGE"] = message
        url, encoding, cookies = f"{board.server.url}/bbs/write.cgi/local/test/{board.key}/", "euc_jp", {}
    body = "&".join(
        f"{key}={requests.utils.quote(value.encode(encoding, errors='xmlcharrefreplace'))}"
        for key, value in fields.items()
    )
    page = requests.post(
        url, data=body, cookies=cookies, headers={"Content-Type": "application/x-www-form-urlencoded"}
    )
    assert "書きこみました" in page.content.decode(encoding, errors="replace"), page.text


def _hostile_posts(board) -> list[str]:
    """Posts every control through both dialects; returns the marker each post's body starts with."""
    markers = []
    for dialect in ("2ch", "shitaraba"):
        for index, text in enumerate(CONTROLS + REFERENCES):
            marker = f"{dialect}{index}"
            _post(board, dialect, f"名{text}前", f"sa{text}ge", f"{marker}番{text}後\n二行目{text}")
            markers.append(marker)
    return markers


def _numbered(posts) -> dict[int, str]:
    return {post.number: post.body.split("番", 1)[0] for post in posts if post.number > 1}


def test_controls_in_every_field_shift_no_post_number(board, tmp_path: Path) -> None:
    markers = _hostile_posts(board)
    expected = {number: marker for number, marker in enumerate(markers, start=2)}

    stored = BoardStore(board.data).open("test")
    assert len(stored.posts(board.key)) == len(markers) + 1 == stored.count(board.key)
    dat = (board.data / "test" / "dat" / f"{board.key}.dat").read_bytes()
    text = dat.decode("cp932")
    assert not [c for c in [*CONTROLS, "\r"] if c in text], "the board stored control characters"

    for dialect in ("2ch", "shitaraba"):
        read = fetch(make_session(), ThreadRef.from_url(board.url(dialect)), FetchState())
        assert _numbered(read.posts) == expected, dialect

    saved_dat = tmp_path / f"{board.key}.dat"
    saved_dat.write_bytes(dat)
    assert _numbered(read_saved_thread(saved_dat)) == expected
    raw = requests.get(f"{board.server.url}/bbs/rawmode.cgi/local/test/{board.key}/").content
    saved_raw = tmp_path / f"rawmode-{board.key}.txt"
    saved_raw.write_bytes(raw)
    assert _numbered(read_saved_thread(saved_raw)) == expected


def test_what_the_bot_reads_is_one_line_where_readers_see_one(board) -> None:
    _hostile_posts(board)
    posts = fetch(make_session(), ThreadRef.from_url(board.url("2ch")), FetchState()).posts
    for post, text in zip(posts[1:], CONTROLS + REFERENCES, strict=False):
        # the one newline the poster typed; a lone CR is a newline to the board, as CRLF is
        assert post.body.count("\n") == (2 if text == "\r" else 1), repr(post.body)
        # a C1 character sent as a reference shows as HTML shows it (`&#130;` is "‚"); nothing else stays
        assert post.name[:: len(post.name) - 1] == "名前" and post.mail[:: len(post.mail) - 1] == "se", (
            post.raw
        )
        assert len(post.name) <= 3, repr(post.raw)
        assert not [c for c in CONTROLS if c in post.body + post.name + post.mail], repr(post.raw)


@pytest.mark.parametrize("dialect", ["2ch", "shitaraba"])
def test_a_title_with_controls_keeps_the_thread_listed(board, dialect: str) -> None:
    stored = BoardStore(board.data).open("test")
    path = stored.path / "subject.txt"
    line = path.read_bytes().decode("cp932")
    # A thread list written before the board cleaned titles: the thread must still be listed.
    path.write_bytes(line.replace("ダイススレ", "ダイス\x1cスレ\x0b").encode("cp932"))
    assert [entry.key for entry in stored.threads()] == [board.key]
    _post(board, dialect, "名無し", "", "本文")
    assert [entry.key for entry in stored.threads()] == [board.key]
    assert stored.threads()[0].count == 2


def test_a_dat_holding_raw_controls_keeps_its_numbers_on_the_board(board) -> None:
    stored = BoardStore(board.data).open("test")
    path = stored.dat_path(board.key)
    # Lines written by an older board that did not clean fields: \x0b \x0c \x1c… inside one post.
    with path.open("ab") as dat:
        dat.write("名無し<><>2026/11/29(日) 21:22:13<>本\x0b\x0c\x1c\x1d\x1e文<>\n".encode("cp932"))
    _post(board, "2ch", "名無し", "", "三番目")
    assert len(stored.posts(board.key)) == stored.count(board.key) == 3
    assert stored.posts(board.key)[2].body == "三番目"
    stored.delete_post(board.key, 2)
    assert [post.body for post in stored.posts(board.key)][1:] == ["あぼーん", "三番目"]
