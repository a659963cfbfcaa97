"""GM override lines, command by command: every command in its Japanese, ASCII and full-width forms,
and the canonical spellings that read back as the same command (parser/gm.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from parser.gm import (
    Extend,
    GmCommand,
    NextThread,
    Pause,
    ResolveNow,
    Resume,
    Reveal,
    Rollback,
    SetValue,
    Status,
    Void,
    parse_gm_line,
)
from parser.gm_time import ClockTime

MINUTES_30 = Extend(duration=timedelta(minutes=30))


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # 停止
        ("停止", Pause()),
        ("一時停止", Pause()),
        ("更新停止", Pause()),
        ("【停止】", Pause()),
        ("【 停止 】", Pause()),
        ("[停止]", Pause()),
        ("［停止］", Pause()),
        ("停止します", Pause()),
        ("停止します。", Pause()),
        ("停止しました", Pause()),
        ("停止！", Pause()),
        ("  停止", Pause()),
        ("\u3000停止\u3000", Pause()),
        ("!gm pause", Pause()),
        ("！ｇｍ　ｐａｕｓｅ", Pause()),
        ("!GM PAUSE", Pause()),
        ("!gm pause。", Pause()),
        # 再開
        ("再開", Resume()),
        ("更新再開", Resume()),
        ("再開します", Resume()),
        ("【再開】", Resume()),
        ("!gm resume", Resume()),
        ("！ＧＭ　ＲＥＳＵＭＥ", Resume()),
        # 即時更新
        ("即時更新", ResolveNow()),
        ("ピリオド更新", ResolveNow()),
        ("即時更新します", ResolveNow()),
        ("即時更新をお願いします", ResolveNow()),
        ("ピリオド更新を行います", ResolveNow()),
        ("【ピリオド更新】", ResolveNow()),
        ("!gm now", ResolveNow()),
        # 状態
        ("状態", Status()),
        ("状態表示", Status()),
        ("ステータス", Status()),
        ("【状態】", Status()),
        ("!gm status", Status()),
        ("!gm STATUS", Status()),
    ],
)
def test_commands_without_arguments(line: str, expected: GmCommand) -> None:
    assert parse_gm_line(line) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("延長 30分", MINUTES_30),
        ("延長　３０分", MINUTES_30),
        ("延長30分", MINUTES_30),
        ("延長：30分", MINUTES_30),
        ("延長 +30分", MINUTES_30),
        ("延長します 30分", MINUTES_30),
        ("締切延長 30分", MINUTES_30),
        ("締め切り延長 30分", MINUTES_30),
        ("【延長】30分", MINUTES_30),
        ("延長 30m", MINUTES_30),
        ("延長 30分 (回線トラブルのため)", MINUTES_30),
        ("延長 30分。回線トラブルのため", MINUTES_30),
        ("30分延長", MINUTES_30),
        ("30分延長します", MINUTES_30),
        ("30分延長します。すみません", MINUTES_30),
        ("!gm extend 30m", MINUTES_30),
        ("!gm extend 30分", MINUTES_30),
        ("！ｇｍ　ｅｘｔｅｎｄ　３０ｍ", MINUTES_30),
        ("延長 2時間", Extend(duration=timedelta(hours=2))),
        ("延長 1時間30分", Extend(duration=timedelta(minutes=90))),
        ("延長 1時間半", Extend(duration=timedelta(minutes=90))),
        ("延長 90m", Extend(duration=timedelta(minutes=90))),
        ("延長 2h", Extend(duration=timedelta(hours=2))),
        ("延長 1h30m", Extend(duration=timedelta(minutes=90))),
        ("延長 1日", Extend(duration=timedelta(days=1))),
        ("延長 1d", Extend(duration=timedelta(days=1))),
        ("!GM EXTEND 2H", Extend(duration=timedelta(hours=2))),
        ("延長 22:00", Extend(at=ClockTime(22, 0))),
        ("延長 ２２：００", Extend(at=ClockTime(22, 0))),
        ("延長 23時", Extend(at=ClockTime(23, 0))),
        ("延長 23時30分", Extend(at=ClockTime(23, 30))),
        ("延長 22時まで", Extend(at=ClockTime(22, 0))),
        ("延長 11/30 22:00", Extend(at=ClockTime(22, 0, month=11, day=30))),
        ("延長 １１／３０　２２：００", Extend(at=ClockTime(22, 0, month=11, day=30))),
        ("延長 2026-11-30 22:00", Extend(at=ClockTime(22, 0, 2026, 11, 30))),
        ("延長 明日22時", Extend(at=ClockTime(22, 0, relative=1))),
        ("22時まで延長", Extend(at=ClockTime(22, 0))),
        ("22時まで延長します", Extend(at=ClockTime(22, 0))),
        ("明日22時まで延長します", Extend(at=ClockTime(22, 0, relative=1))),
        ("午後10時まで延長", Extend(at=ClockTime(22, 0))),
        ("!gm extend 2026-11-30 22:00", Extend(at=ClockTime(22, 0, 2026, 11, 30))),
        ("!gm extend tomorrow 22:00", Extend(at=ClockTime(22, 0, relative=1))),
    ],
)
def test_extend(line: str, expected: Extend) -> None:
    assert parse_gm_line(line) == expected


@pytest.mark.parametrize(
    ("line", "posts"),
    [
        ("無効 >>12", (12,)),
        ("無効 ＞＞１２", (12,)),
        ("無効>>12", (12,)),
        ("無効 ≫12", (12,)),
        ("無効化 >>12", (12,)),
        ("【無効】>>12", (12,)),
        ("無効 >>12-14", (12, 13, 14)),
        ("無効 >>12－14", (12, 13, 14)),
        ("無効 >>12～14", (12, 13, 14)),
        ("無効 >>12〜>>14", (12, 13, 14)),
        ("無効 >>12 >>15", (12, 15)),
        ("無効 >>15 >>12 >>12", (12, 15)),
        ("無効 >>12、>>15", (12, 15)),
        ("無効 >>12,15", (12, 15)),
        ("無効 >>12-13 >>20-21", (12, 13, 20, 21)),
        ("無効 >>12 二重投稿のため", (12,)),
        ("無効 >>12（二重投稿）", (12,)),
        ("!gm void 12", (12,)),
        ("!gm void 12 15-17", (12, 15, 16, 17)),
        ("!gm void >>12", (12,)),
        ("！ｇｍ　ｖｏｉｄ　１２", (12,)),
        ("無効 >>1-1000", tuple(range(1, 1001))),
    ],
)
def test_void(line: str, posts: tuple[int, ...]) -> None:
    assert parse_gm_line(line) == Void(posts)


@pytest.mark.parametrize(
    ("line", "redo"),
    [
        ("巻き戻し", True),
        ("巻戻し", True),
        ("巻き戻す", True),
        ("巻き戻します", True),
        ("巻き戻します。処理ミスのため", True),
        ("ロールバック", True),
        ("ロールバックします", True),
        ("【巻き戻し】", True),
        ("巻き戻し 再処理", True),
        ("巻き戻し 再実行", True),
        ("巻き戻し 保留", False),
        ("巻き戻し　保留", False),
        ("巻き戻し(保留)", False),
        ("巻き戻し（保留）", False),
        ("巻き戻し保留", False),
        ("巻き戻し 停止", False),
        ("ロールバック 保留", False),
        ("【巻き戻し】保留", False),
        ("巻き戻し (処理ミス)", True),
        ("!gm rollback", True),
        ("!gm rollback redo", True),
        ("!gm rollback hold", False),
        ("!GM ROLLBACK HOLD", False),
        ("！ｇｍ　ｒｏｌｌｂａｃｋ　ｈｏｌｄ", False),
    ],
)
def test_rollback(line: str, redo: bool) -> None:
    assert parse_gm_line(line) == Rollback(redo)


@pytest.mark.parametrize(
    ("line", "path", "value"),
    [
        ("設定 teams.A.name=赤軍", "teams.A.name", "赤軍"),
        ("設定 teams.A.name＝赤軍", "teams.A.name", "赤軍"),
        ("設定 teams.A.name = 赤軍", "teams.A.name", "赤軍"),
        ("設定 teams.A.name：赤軍", "teams.A.name", "赤軍"),
        ("設定 teams.A.name: 赤軍", "teams.A.name", "赤軍"),
        ("設定：teams.A.name=赤軍", "teams.A.name", "赤軍"),
        ("設定teams.A.name=赤軍", "teams.A.name", "赤軍"),
        ("設定変更 teams.A.name=赤軍", "teams.A.name", "赤軍"),
        ("【設定】teams.A.name=赤軍", "teams.A.name", "赤軍"),
        ("設定 units.ABC-DD-A-01.hex=(5,6)", "units.ABC-DD-A-01.hex", "(5,6)"),
        # The value is the raw text as written (trimmed); the path is read after NFKC.
        ("設定 ｔｅａｍｓ．Ａ．ｎａｍｅ＝Ｔｅａｍ　赤 ", "teams.A.name", "Ｔｅａｍ　赤"),
        ("設定：units.ABC-DD-A-01.hex：（５，６）", "units.ABC-DD-A-01.hex", "（５，６）"),
        ("設定 teams.A.motto=a=b: c", "teams.A.motto", "a=b: c"),
        ("!gm set teams.A.name=赤軍", "teams.A.name", "赤軍"),
        ("!gm set teams.A.name = Red Army", "teams.A.name", "Red Army"),
        ("！ｇｍ　ｓｅｔ　ｔｅａｍｓ．Ａ．ｎａｍｅ＝赤", "teams.A.name", "赤"),
        ("設定 rules.deadline=22:00", "rules.deadline", "22:00"),
    ],
)
def test_set(line: str, path: str, value: str) -> None:
    assert parse_gm_line(line) == SetValue(path, value)


@pytest.mark.parametrize(
    ("line", "post"),
    [
        ("公開 >>12", 12),
        ("公開>>12", 12),
        ("公開 ＞＞１２", 12),
        ("公開します >>12", 12),
        ("【公開】>>12", 12),
        ("!gm reveal 12", 12),
        ("!gm reveal >>12", 12),
    ],
)
def test_reveal(line: str, post: int) -> None:
    assert parse_gm_line(line) == Reveal(post)


URL = "https://jbbs.shitaraba.jp/bbs/read.cgi/game/12345/1700000000/"


@pytest.mark.parametrize(
    ("line", "url"),
    [
        (f"次スレ {URL}", URL),
        (f"次スレ: {URL}", URL),
        (f"次スレ：{URL}", URL),
        (f"次スレ→{URL}", URL),
        (f"次スレ ⇒ {URL}", URL),
        (f"次スレ->{URL}", URL),
        (f"次スレ{URL}", URL),
        (f"次スレッド {URL}", URL),
        (f"次スレは {URL}", URL),
        (f"次スレです {URL}", URL),
        (f"次スレです。{URL}", URL),
        (f"次スレはこちら {URL}", URL),
        (f"次スレ立てました {URL}", URL),
        (f"【次スレ】{URL}", URL),
        (f"次スレ {URL} よろしく", URL),
        (f"次スレ {URL}。", URL),
        ("次スレ http://127.0.0.1:8080/test/read.cgi/news/1/", "http://127.0.0.1:8080/test/read.cgi/news/1/"),
        ("次スレ HTTPS://Example.COM/a?b=1#c", "HTTPS://Example.COM/a?b=1#c"),
        ("次スレ ｈｔｔｐｓ：／／ｅｘａｍｐｌｅ．ｃｏｍ／", "https://example.com/"),
        # 2ch habit of dropping the h so the URL is not linked: the h comes back.
        ("次スレ ttp://example.com/test/read.cgi/x/1/", "http://example.com/test/read.cgi/x/1/"),
        ("次スレ ttps://example.com/", "https://example.com/"),
        (f"!gm next {URL}", URL),
    ],
)
def test_next_thread(line: str, url: str) -> None:
    assert parse_gm_line(line) == NextThread(url)


@pytest.mark.parametrize(
    "command",
    [
        Pause(),
        Resume(),
        ResolveNow(),
        Status(),
        Extend(duration=timedelta(minutes=30)),
        Extend(duration=timedelta(days=1, hours=2, minutes=5)),
        Extend(at=ClockTime(22, 0)),
        Extend(at=ClockTime(25, 30)),
        Extend(at=ClockTime(22, 0, relative=1)),
        Extend(at=ClockTime(22, 0, month=11, day=30)),
        Extend(at=ClockTime(22, 0, 2026, 11, 30)),
        Void((12,)),
        Void((12, 13, 14, 20, 22, 23)),
        Rollback(True),
        Rollback(False),
        SetValue("teams.A.name", "赤軍 (第1師団)"),
        SetValue("units.ABC-DD-A-01.hex", "(5,6)"),
        Reveal(12),
        NextThread(URL),
    ],
)
def test_canonical_and_ascii_forms_read_back_as_the_same_command(command: GmCommand) -> None:
    assert parse_gm_line(command.canonical) == command
    assert parse_gm_line(command.ascii) == command
    assert command.ascii.startswith("!gm ")


@pytest.mark.parametrize(
    ("command", "canonical", "ascii"),
    [
        (Pause(), "停止", "!gm pause"),
        (Extend(duration=timedelta(minutes=90)), "延長 1時間30分", "!gm extend 1h30m"),
        (Extend(at=ClockTime(22, 0, relative=1)), "延長 明日 22:00", "!gm extend tomorrow 22:00"),
        (Void((12, 13, 14, 20)), "無効 >>12-14 >>20", "!gm void 12-14 20"),
        (Rollback(False), "巻き戻し 保留", "!gm rollback hold"),
        (SetValue("teams.A.name", "赤軍"), "設定 teams.A.name=赤軍", "!gm set teams.A.name=赤軍"),
        (Reveal(7), "公開 >>7", "!gm reveal 7"),
    ],
)
def test_canonical_spellings(command: GmCommand, canonical: str, ascii: str) -> None:
    assert (command.canonical, command.ascii) == (canonical, ascii)


def test_extend_takes_exactly_one_of_duration_and_time() -> None:
    with pytest.raises(ValueError):
        Extend()
    with pytest.raises(ValueError):
        Extend(duration=timedelta(minutes=5), at=ClockTime(22, 0))


def test_shinkou_runs_the_next_step_now() -> None:
    from parser.gm import ResolveNow, parse_gm_line

    assert parse_gm_line("進行") == ResolveNow()
    assert parse_gm_line("【進行】") == ResolveNow()
    assert parse_gm_line("進行中のゲーム") is None  # chat
