"""Saved threads in each form read back into the same posts."""

from __future__ import annotations

import shutil
from pathlib import Path

from scraper.files import read_saved_thread, thread_key_in
from tests.conftest import shared_path


def test_the_captured_dat_and_page_read_back_alike(tmp_path: Path) -> None:
    dat = tmp_path / "1795954933.dat"
    shutil.copy(shared_path("fixtures", "ex0ch", "1795954933.dat"), dat)
    page = tmp_path / "read.html"
    shutil.copy(shared_path("fixtures", "ex0ch", "read_cgi.html"), page)
    from_dat, from_page = read_saved_thread(dat), read_saved_thread(page)
    assert [(p.number, p.body) for p in from_dat] == [(p.number, p.body) for p in from_page]
    assert thread_key_in(dat.name) == "1795954933" and thread_key_in("read.html") is None


def test_a_rawmode_file(tmp_path: Path) -> None:
    raw = tmp_path / "rawmode-1600000000.txt"
    raw.write_bytes(
        "1<>名無し<><>2016/05/30(月) 02:13:04<>一<>題<>abc\n3<>x<><>2016/05/30(月) 02:14:04<>三<><>def\n".encode(
            "euc_jp"
        )
    )
    assert [(p.number, p.body) for p in read_saved_thread(raw)] == [(1, "一"), (3, "三")]
    assert thread_key_in(raw.name) == "1600000000"


def test_a_key_is_ascii_digits() -> None:
    assert thread_key_in("１６００００００００.dat") is None
    assert thread_key_in("スレ１６００００００００-1600000000.dat") == "1600000000"
