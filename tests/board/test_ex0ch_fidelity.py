"""The captured ex0ch thread, replayed against the local board: the same dat lines come out.

The five posts of `../shared/fixtures/ex0ch/1795954933.dat` were typed into a real ex0ch board with
default settings; typed into this board with the same settings, the dat must match byte for byte
except the ID (a per-board secret) — and the subject.txt and read.cgi landmarks must match too.
"""

from __future__ import annotations

import re

from board.storage import BoardStore
from tests.board.conftest import BoardHarness, post_2ch
from tests.conftest import shared_path

TYPED = [
    {"subject": "キャプチャ54933", "FROM": "", "mail": "", "MESSAGE": "スレ立て <テスト> &amp; &#9829;"},
    {"FROM": "トリップ#tea", "mail": "sage", "MESSAGE": "トリップ付き\n二行目\n>>1 安価"},
    {"FROM": "名無し◆偽物", "mail": "sage", "MESSAGE": "偽トリップ"},
    {"FROM": "GM#threadgm-test-key", "mail": "sage", "MESSAGE": "長いトリップ"},
    {"FROM": "", "mail": "", "MESSAGE": "dice2d47=\n【通常戦闘ダイス】\ndice1d5="},
]
SECONDS = [0, 12, 23, 34, 45]  # 21:22:13, :25, :36, :47, :58 as captured
EX0CH_SETTINGS = {"BBS_NONAME_NAME": "名無しさん＠EXぜろちゃんねる", "BBS_UNICODE": "change"}


def without_id(line: str) -> str:
    return re.sub(r" ID:[A-Za-z0-9+/.]{8}", " ID:********", line)


def replay(harness: BoardHarness) -> str:
    harness.board.update_settings(EX0CH_SETTINGS)
    client = harness.client()
    key = ""
    for seconds, fields in zip(SECONDS, TYPED, strict=True):
        harness.clock.advance(seconds - (harness.clock.mono - 1000.0))
        if key:
            fields = {**fields, "key": key}
        page = post_2ch(client, **fields).get_data().decode("cp932")
        assert "書きこみました" in page, page
        key = key or harness.board.threads()[0].key
    return key


def test_the_captured_thread_replays_to_the_same_dat(harness: BoardHarness) -> None:
    captured = shared_path("fixtures", "ex0ch", "1795954933.dat").read_bytes().decode("cp932")
    key = replay(harness)
    ours = harness.board.dat_path(key).read_bytes().decode("cp932")
    ours = ours.replace(f"<>{TYPED[0]['subject']}\n", "<>キャプチャ54933\n")
    assert [without_id(line) for line in ours.splitlines()] == [
        without_id(line) for line in captured.splitlines()
    ]


def test_subject_line_has_the_captured_shape(harness: BoardHarness) -> None:
    captured = shared_path("fixtures", "ex0ch", "subject.txt").read_bytes().decode("cp932").splitlines()[0]
    key = replay(harness)
    ours = (harness.data / "test" / "subject.txt").read_bytes().decode("cp932").splitlines()[0]
    assert ours == captured.replace("1795954933", key)


def test_setting_txt_of_a_real_board_is_read_as_the_board_reads_its_own(harness: BoardHarness) -> None:
    path = harness.data / "test" / "SETTING.TXT"
    path.write_bytes(shared_path("fixtures", "ex0ch", "SETTING.TXT").read_bytes())
    board = BoardStore(harness.data).open("test")
    assert board.settings.get("BBS_NONAME_NAME") == "名無しさん＠EXぜろちゃんねる"
    assert board.settings.res_max == 1000  # BBS_RES_MAX= is empty there
    assert board.settings.number("timecount") == 7 and board.settings.number("timeclose") == 0


def test_read_cgi_keeps_the_landmarks_of_ex0ch_pages(harness: BoardHarness) -> None:
    captured = shared_path("fixtures", "ex0ch", "read_cgi.html").read_bytes().decode("cp932")
    key = replay(harness)
    ours = harness.client().get(f"/test/read.cgi/test/{key}/").get_data().decode("cp932")
    for landmark in ('<dl class="thread">', 'class="post" data-id="5"', '<span class="number">5</span>'):
        assert landmark in captured and landmark in ours
    assert re.search(r'<span class="dateid">2026/11/29\(日\) 21:22:58 ID:\S{8}\(主\)</span>', ours)
