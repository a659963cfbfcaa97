"""Thread URLs of every supported form become one `ThreadRef` that knows the other URLs."""

from __future__ import annotations

import pytest

from scraper.refs import Dialect, NotAThreadURL, ThreadRef


@pytest.mark.parametrize(
    "url",
    [
        "https://mi.5ch.net/test/read.cgi/news4vip/1700000000/",
        "https://mi.5ch.net/test/read.cgi/news4vip/1700000000/l50",
        "https://mi.5ch.net/test/read.cgi/news4vip/1700000000",
        "https://mi.5ch.net/news4vip/dat/1700000000.dat",
        "https://mi.5ch.net/news4vip/oyster/1700/1700000000.dat",
    ],
)
def test_2ch_forms(url: str) -> None:
    ref = ThreadRef.from_url(url)
    assert (ref.dialect, ref.origin, ref.board, ref.key) == (
        Dialect.TWOCH,
        "https://mi.5ch.net",
        "news4vip",
        "1700000000",
    )
    assert ref.read_url == "https://mi.5ch.net/test/read.cgi/news4vip/1700000000/"
    assert ref.dat_url == "https://mi.5ch.net/news4vip/dat/1700000000.dat"
    assert ref.setting_url == "https://mi.5ch.net/news4vip/SETTING.TXT"
    assert ref.write_url == "https://mi.5ch.net/test/bbs.cgi"
    assert ref.encoding == "cp932"


@pytest.mark.parametrize(
    "url",
    [
        "https://jbbs.shitaraba.net/bbs/read.cgi/game/12345/1600000000/",
        "https://jbbs.shitaraba.net/bbs/read.cgi/game/12345/1600000000/l50",
        "https://jbbs.shitaraba.net/bbs/rawmode.cgi/game/12345/1600000000/10-",
        "http://jbbs.livedoor.jp/bbs/read.cgi/game/12345/1600000000/",
    ],
)
def test_shitaraba_forms(url: str) -> None:
    ref = ThreadRef.from_url(url)
    assert ref.dialect is Dialect.SHITARABA
    assert ref.board == "game/12345" and ref.key == "1600000000"
    assert ref.rawmode_url(7).endswith("/bbs/rawmode.cgi/game/12345/1600000000/7-")
    assert ref.subject_url.endswith("/game/12345/subject.txt")
    assert ref.setting_url.endswith("/bbs/api/setting.cgi/game/12345/")
    assert ref.write_url.endswith("/bbs/write.cgi/game/12345/1600000000/")
    assert ref.new_thread_url.endswith("/bbs/write.cgi/game/12345/new/")
    assert ref.encoding == "euc_jp"


def test_local_board_in_both_dialects() -> None:
    twoch = ThreadRef.from_url("http://127.0.0.1:8380/test/read.cgi/demo/1795954933/")
    jbbs = ThreadRef.from_url("http://127.0.0.1:8380/bbs/read.cgi/local/demo/1795954933/")
    assert twoch.origin == jbbs.origin == "http://127.0.0.1:8380"
    assert twoch.board == "demo" and jbbs.board == "local/demo"
    assert jbbs.subject_url == "http://127.0.0.1:8380/local/demo/subject.txt"
    assert twoch.with_key("1795999999").dat_url == "http://127.0.0.1:8380/demo/dat/1795999999.dat"


@pytest.mark.parametrize(
    "url",
    [
        "",
        "ftp://x/test/read.cgi/a/1700000000/",
        "https://5ch.net/",
        "https://x/test/read.cgi/a/12/",
        "not a url",
    ],
)
def test_refused(url: str) -> None:
    with pytest.raises(NotAThreadURL):
        ThreadRef.from_url(url)
