"""GM override lines that are not commands as given: chat that is not a command, malformed commands
and their reasons, and the remarks a command may carry (parser/gm.py)."""

from __future__ import annotations

import pytest

from parser.gm import (
    MAX_VOID_POSTS,
    GmError,
    Pause,
    parse_gm_line,
)


@pytest.mark.parametrize(
    "line",
    [
        # keywords at the start of longer words or sentences
        "停止線で止まった",
        "停止中です",
        "停止?",
        "停止するかも",
        "更新停止中",
        "再開は明日です",
        "再開発の話",
        "即時更新されないの？",
        "状態異常",
        "状態は良好",
        "延長戦",
        "延長してほしい",
        "延長線上",
        "1時間延長してほしい",
        "30分延長でお願いできますか",
        "無効です",
        "無効票",
        "無効にします",
        "巻き戻しは困る",
        "ロールバックって何？",
        "設定いいね",
        "設定値=100にしました",
        "設定しました",
        "公開処刑",
        "次スレは？",
        "次スレ立て乙",
        "次スレは>>980が立ててください",
        # keywords not at the start of the line
        "この設定いいね",
        "ゲームを停止します",
        "今から再開",
        "締切を30分延長します",
        "2時間前に停止した",
        # quoted lines are never commands
        ">停止",
        "＞停止",
        "> 延長 30分",
        ">無効 >>12",
        "＞！ｇｍ　ｐａｕｓｅ",
        ">>12 停止",  # a line that starts with an anchor is a reply, not a command
        # other things that begin with "!"
        "!gmx",
        "!cancel",
        "!ready",
        "!pause",
        # nothing
        "",
        "   ",
        "\u3000",
    ],
)
def test_chat_is_not_a_command(line: str) -> None:
    assert parse_gm_line(line) is None


@pytest.mark.parametrize(
    ("line", "command", "reason_part"),
    [
        ("延長 あとで", "延長", "「あとで」は延長の長さ・時刻として読めません"),
        ("延長", "延長", "延長する長さ"),
        ("延長します", "延長", "延長する長さ"),
        ("延長 30", "延長", "単位"),
        ("延長 0分", "延長", "0です"),
        ("延長 100日", "延長", "31日まで"),
        ("延長 25:61", "延長", "時刻はありません"),
        ("延長 2/30 22:00", "延長", "日付はありません"),
        ("延長 30日22時", "延長", "月がありません"),
        ("延長 30分 22時", "延長", "「22時」が読めません"),
        ("延長 30分だけ", "延長", "「だけ」が読めません"),
        ("延長 11/3022:00", "延長", "読めません"),
        ("30日22時まで延長", "延長", "月がありません"),
        ("締め切り延長 あとで", "延長", "読めません"),  # errors name the canonical keyword
        ("巻き戻します 明日", "巻き戻し", "「再処理」か「保留」"),
        ("!gm extend", "!gm extend", "延長する長さ"),
        ("!gm extend soon", "!gm extend", "読めません"),
        ("無効", "無効", "アンカー"),
        ("無効 ", "無効", "アンカー"),
        ("無効 あいつ", "無効", "アンカーとして読めません"),
        ("無効 >>abc", "無効", "アンカーとして読めません"),
        ("無効 >>12, >>abc", "無効", "「>>abc」が読めません"),
        ("無効 >>12-", "無効", "「-」が読めません"),
        ("無効 >>14-12", "無効", "逆です"),
        ("無効 >>13-12", "無効", "逆です"),  # reversed by one: still not the one post >>12
        ("無効 >>0", "無効", "1～"),
        ("無効 >>1-5000", "無効", f"{MAX_VOID_POSTS}レスまで"),
        ("!gm void", "!gm void", "アンカー"),
        ("公開", "公開", "公開する投稿"),
        ("公開 >>12 >>13", "公開", "1つの投稿"),
        ("公開 >>12-13", "公開", "1つの投稿"),
        ("公開 だれか", "公開", "アンカーとして読めません"),
        ("巻き戻し 明日やる", "巻き戻し", "「再処理」か「保留」"),
        ("!gm rollback later", "!gm rollback", "「再処理」か「保留」"),
        ("設定 なにか", "設定", "「項目=値」の形"),
        ("設定", "設定", "「項目=値」"),
        ("設定 teams.A.name=", "設定", "値がありません"),
        ("設定 units.ABC-DD-A-01.hex=", "設定", "値がありません（units.ABC-DD-A-01.hex=値 の形で"),  # its own path
        ("設定 teams..name=赤", "設定", "項目名「teams..name」が読めません"),
        ("設定 =赤", "設定", "「項目=値」の形"),
        ("!gm set", "!gm set", "「項目=値」"),
        ("次スレ", "次スレ", "URLを書いてください"),
        ("次スレ立てました", "次スレ", "URLを書いてください"),
        ("次スレ ftp://example.com/", "次スレ", "http(s)のURLではありません"),
        ("次スレ あとで立てます", "次スレ", "http(s)のURLではありません"),
        ("次スレ https://", "次スレ", "URLとして読めません"),
        ("次スレ https://exa_mple.com/", "次スレ", "URLとして読めません"),
        ("次スレ https://example.com:port/", "次スレ", "URLとして読めません"),
        ("次スレ https://a.example/ https://b.example/", "次スレ", "「https://b.example/」が読めません"),
        # zero-argument commands refuse what looks like an argument rather than drop it
        ("再開 21時", "再開", "「21時」が読めません"),
        ("【停止】21時から", "停止", "「21時から」が読めません"),
        ("停止 >>12", "停止", "読めません"),
        ("!gm pause for maintenance", "!gm pause", "「for maintenance」が読めません"),
        ("!gm", "!gm", "コマンドがありません"),
        ("!gm foo", "!gm", "「!gm foo」というコマンドはありません"),
        ("!gm 停止", "!gm", "「!gm 停止」というコマンドはありません"),
        ("!gm extend30m", "!gm", "「!gm extend30m」"),
    ],
)
def test_malformed_commands_say_why(line: str, command: str, reason_part: str) -> None:
    result = parse_gm_line(line)
    assert isinstance(result, GmError), result
    assert result.command == command
    assert reason_part in result.reason
    assert result.text == line.strip()


def test_reasons_are_short_even_for_long_input() -> None:
    result = parse_gm_line("延長 " + "あ" * 5000)
    assert isinstance(result, GmError)
    assert len(result.reason) < 120


@pytest.mark.parametrize(
    "line",
    [
        "停止。しばらくお待ちください",
        "停止します、すみません",
        "停止 (メンテナンス)",
        "停止（メンテナンス）",
        "【停止】システム不具合のため",
        "【停止】 システム不具合のため",
        "停止: メンテナンス",
        "停止 メンテナンスのため",
        "停止。21時に再開します",
    ],
)
def test_remarks_after_a_command_are_allowed(line: str) -> None:
    assert parse_gm_line(line) == Pause()
