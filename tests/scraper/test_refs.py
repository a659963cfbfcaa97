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


@pytest.mark.parametrize(
    "url",
    [
        "https://itest.5ch.net/egg/test/read.cgi/game/1234567890",
        "https://itest.5ch.net/egg/test/read.cgi/game/1234567890/",
        "https://itest.5ch.net/egg/test/read.cgi/game/1234567890/l50",
        "https://itest.5ch.net/egg/test/read.cgi/game/1234567890#res12",
        "http://itest.5ch.net/egg/test/read.cgi/game/1234567890/",
    ],
)
def test_5ch_smartphone_links_name_the_pc_thread(url: str) -> None:
    ref = ThreadRef.from_url(url)
    assert ref.read_url.removeprefix("https://").removeprefix("http://") == (
        "egg.5ch.net/test/read.cgi/game/1234567890/"
    )
    assert ref.dat_url.endswith("://egg.5ch.net/game/dat/1234567890.dat")
    assert ref.write_url.endswith("://egg.5ch.net/test/bbs.cgi")
    assert ref.id == ThreadRef.from_url(ref.read_url).id  # one thread, one game, whichever URL names it


@pytest.mark.parametrize(
    "url",
    [
        "https://itest.5ch.net/test/read.cgi/game/1234567890/",
        "https://itest.5ch.net/game/dat/1234567890.dat",
    ],
)
def test_a_smartphone_link_without_its_server_is_refused_with_the_pc_form(url: str) -> None:
    with pytest.raises(NotAThreadURL) as refused:
        ThreadRef.from_url(url)
    assert "サーバー名.5ch.net" in str(refused.value) and "PC" in str(refused.value)


def test_smartphone_links_of_the_other_domains() -> None:
    io = ThreadRef.from_url("https://itest.5ch.io/hayabusa9/test/read.cgi/news/1764539868/l50")
    assert io.read_url == "https://hayabusa9.5ch.io/test/read.cgi/news/1764539868/"
    pink = ThreadRef.from_url("https://itest.bbspink.com/mercury/test/read.cgi/pinkcafe/1764539868")
    assert pink.dat_url == "https://mercury.bbspink.com/pinkcafe/dat/1764539868.dat"
    with pytest.raises(NotAThreadURL, match=r"サーバー名\.5ch\.io"):
        ThreadRef.from_url("https://itest.5ch.io/test/read.cgi/news/1764539868/")


@pytest.mark.parametrize(
    "url",
    [
        "https://egg.5ch.net/test/read.cgi/game/１２３４５６７８９０/",
        "https://egg.5ch.net/game/dat/１２３４５６７８９０.dat",
        "https://egg.5ch.net/game/oyster/１２３４/1234567890.dat",
        "https://egg.5ch.net/test/read.cgi/game/١٢٣٤٥٦٧٨٩٠/",
        "https://jbbs.shitaraba.net/bbs/read.cgi/game/12345/１２３４５６７８９０/",
        "https://egg.5ch.net/test/read.cgi/ｇａｍｅ/1234567890/",
    ],
)
def test_keys_and_boards_are_ascii(url: str) -> None:
    with pytest.raises(NotAThreadURL):
        ThreadRef.from_url(url)


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/bbs/test/read.cgi/board/1234567890/",
        "https://example.com/bbs/test/read.cgi/board/1234567890/l50",
        "https://example.com/bbs/test/read.cgi/board/1234567890",
        "https://example.com/bbs/board/dat/1234567890.dat",
    ],
)
def test_a_board_installed_in_a_folder_keeps_it_in_every_url(url: str) -> None:
    ref = ThreadRef.from_url(url)
    assert (ref.origin, ref.board, ref.key) == ("https://example.com", "board", "1234567890")
    assert ref.read_url == "https://example.com/bbs/test/read.cgi/board/1234567890/"
    assert ref.dat_url == "https://example.com/bbs/board/dat/1234567890.dat"
    assert ref.write_url == ref.new_thread_url == "https://example.com/bbs/test/bbs.cgi"
    assert ref.setting_url == "https://example.com/bbs/board/SETTING.TXT"
    assert ref.subject_url == "https://example.com/bbs/board/subject.txt"
    assert ref.with_key("1234599999").dat_url == "https://example.com/bbs/board/dat/1234599999.dat"


def test_a_board_two_folders_down() -> None:
    ref = ThreadRef.from_url("http://example.com:8080/a/b-c/test/read.cgi/board/1234567890/")
    assert ref.read_url == "http://example.com:8080/a/b-c/test/read.cgi/board/1234567890/"
    assert ref.dat_url == "http://example.com:8080/a/b-c/board/dat/1234567890.dat"


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/../test/read.cgi/board/1234567890/",
        "https://example.com/./test/read.cgi/board/1234567890/",
        "https://example.com//test/read.cgi/board/1234567890/",
    ],
)
def test_a_folder_must_be_a_plain_name(url: str) -> None:
    with pytest.raises(NotAThreadURL):
        ThreadRef.from_url(url)


def test_an_archived_dat_in_a_folder_is_the_threads_own() -> None:
    from scraper.answer_checks import archived_at

    ref = ThreadRef.from_url("https://example.com/bbs/test/read.cgi/board/1234567890/")
    assert archived_at(ref, "https://example.com/bbs/board/kako/1234/12345/1234567890.dat")
    assert archived_at(ref, "https://example.com/bbs/board/oyster/1234/1234567890.dat")
    assert not archived_at(ref, "https://example.com/board/kako/1234/12345/1234567890.dat")


@pytest.mark.parametrize(
    "url",
    [
        "https://jbbs.shitaraba.net/bbs/read.cgi/game/12345/1234567890/",
        "https://jbbs.shitaraba.net/bbs/read.cgi/game/12345/1234567890/l50",
        "https://jbbs.shitaraba.net/bbs/read.cgi/game/12345/1234567890/-100",
        "https://jbbs.shitaraba.net/bbs/read.cgi/game/12345/1234567890/#12",
        "https://jbbs.shitaraba.net/bbs/read.cgi/game/12345/1234567890#12",
        "https://jbbs.shitaraba.net/bbs/read.cgi/game/12345/1234567890/50-",
    ],
)
def test_shitaraba_suffixes(url: str) -> None:
    ref = ThreadRef.from_url(url)
    assert ref.read_url == "https://jbbs.shitaraba.net/bbs/read.cgi/game/12345/1234567890/"
    assert ref.rawmode_url(3) == "https://jbbs.shitaraba.net/bbs/rawmode.cgi/game/12345/1234567890/3-"
