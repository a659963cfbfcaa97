"""Lines that look like naval orders but that the grammar cannot read get an answer with the nearest
form (issue 25: no silent line); chat stays chat. Written from seed 002's words: its order form
`＜攻撃＞XYZ-F-B-01、UVW-CG-A-03`, its ids (島-種別-部隊-番号), its examples `1.ABC:＜攻撃＞…`."""

from __future__ import annotations

import pytest

from engine.rules.naval.grammar import NavalOrder, NavalOrderError, parse_order, parse_orders_file
from tests.referee_harness import PureGame, posted


@pytest.mark.parametrize(
    ("line", "answer"),
    [
        (
            "＜こうげき＞ABC-DD-A-01、XYZ-DD-X-01",
            "＜こうげき＞は＜攻撃＞と書いてください。もしかして: ＜攻撃＞ABC-DD-A-01、XYZ-DD-X-01",
        ),
        (
            "攻撃 ABC-DD-A-01 XYZ-DD-X-01",
            "命令として読めませんでした。もしかして: ＜攻撃＞ABC-DD-A-01、XYZ-DD-X-01",
        ),
        ("【攻撃】ABC-DD-A-01、XYZ-DD-X-01", "もしかして: ＜攻撃＞ABC-DD-A-01、XYZ-DD-X-01"),
        (
            "ＡＢＣ－ＤＤ－Ａ－０１でｘｙｚ－ｄｄ－ｘ－０１を攻撃",
            "もしかして: ＜攻撃＞ABC-DD-A-01、XYZ-DD-X-01",
        ),
        ("XYZ-DD-X-01をABC-DD-A-01で攻撃", "もしかして: ＜攻撃＞ABC-DD-A-01、XYZ-DD-X-01"),
        ("ABC-F-A-03 <ｲﾝﾀｰｾﾌﾟﾄ> XYZ-F-X-07", "もしかして: ＜インターセプト＞ABC-F-A-03、XYZ-F-X-07"),
        (
            "迎撃 ABC-F-A-03",
            "迎撃対象の戦闘機がありません。書き方：＜インターセプト＞ABC-F-A-03、迎撃対象の戦闘機",
        ),
        ("ABC-DD-A-01を(5,6)へ移動", "もしかして: ＜移動＞ABC-DD-A-01、(5,6)"),
        ("＜いどう＞ABC-DD-A-01", "＜いどう＞は＜移動＞と書いてください。移動先がありません"),
        (
            "＜偵察＞ABC-DD-A-01",
            "＜偵察＞という命令はありません（命令は＜攻撃＞＜インターセプト＞＜移動＞の3つです",
        ),
        (
            "ABC-DD-A-01、XYZ-DD-X-01",
            "命令の種類（＜攻撃＞＜インターセプト＞＜移動＞）がありません。もしかして: ＜攻撃＞ABC-DD-A-01、XYZ-DD-X-01",
        ),
        ("ABC-DD-A-01 (5,6)", "もしかして: ＜移動＞ABC-DD-A-01、(5,6)"),
    ],
)
def test_an_order_the_grammar_cannot_read_gets_the_nearest_form(line: str, answer: str) -> None:
    refused = parse_order(line)
    assert isinstance(refused, NavalOrderError)
    assert answer in refused.reason
    assert refused.raw == line


@pytest.mark.parametrize(
    "line",
    [
        ">>12 ＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05",
        "＞＞１２　＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05",
        ">>12-14 ＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05",
        ">>12,15 ＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05",
        "1.ABC:＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05",
        "ABC：＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05",
        "＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05\u200b",
        "\ufeff＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05",
    ],
)
def test_an_anchor_the_pages_numbering_and_island_may_come_before_the_order(line: str) -> None:
    order = parse_order(line)
    assert isinstance(order, NavalOrder)
    assert order.canonical == "＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05"
    assert order.raw == line


def test_an_island_before_the_order_must_be_the_acting_units() -> None:
    assert isinstance(parse_order("3.XYZ:＜攻撃＞XYZ-F-X-07、ABC-DD-A-01"), NavalOrder)
    refused = parse_order("3.ABC:＜攻撃＞XYZ-F-X-07、ABC-DD-A-01")
    assert isinstance(refused, NavalOrderError)
    assert "XYZ-F-X-07はXYZ島のユニットです" in refused.reason


@pytest.mark.parametrize(
    "line",
    [
        ">>3 1.ABC:＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05 → 無効：同海域にいないため攻撃できません",
        "1.ABC:＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05　→''[ABC]の乱数A''",
        "＜移動＞ABC-DD-A-01、(5,6) -> 移動",
    ],
)
def test_a_result_line_copied_into_a_post_is_not_an_order(line: str) -> None:
    """A line of the bot's report (or of the page's table) quoted without its ＞ is not a new order."""
    refused = parse_order(line)
    assert isinstance(refused, NavalOrderError)
    assert "結果の行" in refused.reason


@pytest.mark.parametrize(
    ("line", "nearest"),
    [
        ("＜移動＞ABC-DD-A-01→(5,6)", "＜移動＞ABC-DD-A-01、(5,6)"),
        ("＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05です", "＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05"),
        ("＜インターセプト＞ABC-F-A-03→XYZ-F-X-07", "＜インターセプト＞ABC-F-A-03、XYZ-F-X-07"),
        ("＜移動＞ABC-DD-A-01、5-6", "＜移動＞ABC-DD-A-01、(5,6)"),
        ("＜移動＞ABC-DD-A-01 (5 6)", "＜移動＞ABC-DD-A-01、(5,6)"),
        ("＜攻撃＞ABC-DD-A-01・XYZ-DD-X-05", "＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05"),
    ],
)
def test_a_refused_order_whose_operands_are_there_gets_the_line_the_grammar_takes(
    line: str, nearest: str
) -> None:
    refused = parse_order(line)
    assert isinstance(refused, NavalOrderError)
    assert refused.reason.endswith(f"。もしかして: {nearest}")
    assert isinstance(parse_order(nearest), NavalOrder)


@pytest.mark.parametrize(
    "line",
    ["＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05、XYZ-DD-X-06", "＜攻撃＞ABC-DD-A-01", "＜移動＞ABC-DD-A-01、北へ"],
)
def test_no_nearest_line_is_made_up_when_the_operands_are_not_there_or_too_many(line: str) -> None:
    refused = parse_order(line)
    assert isinstance(refused, NavalOrderError) and "もしかして" not in refused.reason


def test_the_gm_file_names_the_nearest_form_of_a_line_it_cannot_read() -> None:
    (refused,) = parse_orders_file("ABC:攻撃 ABC-DD-A-01 XYZ-DD-X-05\n")
    assert isinstance(refused, NavalOrderError)
    assert "もしかして: ＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05" in refused.reason


def test_each_order_like_line_of_a_post_gets_its_own_answer_in_the_thread() -> None:
    """A post with a good order, a second good one, a line without the tag's brackets and chat: the
    two orders are taken, the third line is answered with the nearest form, the chat is left alone."""
    game = PureGame("naval")
    game.poll()
    body = "\n".join(
        [
            "よろしくお願いします",
            "＜攻撃＞ABC-F-A-01、XYZ-DD-X-01",
            "＜移動＞ABC-DD-A-01、(6,3)",
            "攻撃 ABC-F-A-01 XYZ-CV-X-01",
            "次は＜攻撃＞するかも",
        ]
    )
    (receipt,) = posted(game.poll([game.post(body)]))
    game.close()
    assert ">>2 ＜攻撃＞ABC-F-A-01、XYZ-DD-X-01\n>>2 ＜移動＞ABC-DD-A-01、(6,3)\n" in receipt
    assert (
        "受け付けられなかった命令:\n>>2 攻撃 ABC-F-A-01 XYZ-CV-X-01 → 命令として読めませんでした。もしかして: ＜攻撃＞ABC-F-A-01、XYZ-CV-X-01"
        in receipt
    )
    assert "よろしく" not in receipt and "するかも" not in receipt
