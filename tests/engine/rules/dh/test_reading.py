"""No silent line (issue 25): a line meant as an order gets exactly one answer — read, or not read with
why and the nearest form — and chat gets none. The honest lines use the seed's own words for the
deeds (移動・通常攻撃・特殊能力の使用・待機) and seed-gaps.md's forms (`名前 C7移動`, `名前: D3で能力使用
対象は名前`); the chat includes the seed's own sentences, which name every deed."""

from __future__ import annotations

import pytest

from engine.rules.dh.ruleset import RULESET
from engine.ruleset import Order, OrderText, Rejection
from tests.engine.rules.dh.helpers import EXAMPLE

STATE = RULESET.initial_state(RULESET.read_scenario(EXAMPLE.read_text("utf-8")))
SUBMITTER = "生徒会の人"

# (line, the canonical line taken)
TAKEN = [
    ("会長 C3移動", "会長 C3移動 待機"),
    ("会長: C3 攻撃 番長", "会長 C3移動 攻撃 番長"),
    ("会長 C3へ移動して番長に通常攻撃", "会長 C3移動 攻撃 番長"),
    ("会長：Ｃ３　通常攻撃　番長", "会長 C3移動 攻撃 番長"),
    ("会長: C2で能力使用 対象は番長", "会長 C2移動 能力 対象は番長"),
    ("会長 C2で特殊能力の使用 対象は番長", "会長 C2移動 能力 対象は番長"),
    ("会長 特殊能力「断罪」を使用 対象は番長", "会長 能力「断罪」 対象は番長"),
    ("会長 番長に特殊能力", "会長 能力 対象は番長"),
    ("書記 能力「守護結界」 対象はB3", "書記 能力「守護結界」 対象はB3"),
    ("会長 待機", "会長 待機"),
    ("・会長 C2移動", "会長 C2移動 待機"),
    ("1. 会長 C2移動", "会長 C2移動 待機"),
    ("１．会長　Ｃ２移動", "会長 C2移動 待機"),
    ("【会長】C3移動 攻撃 番長", "会長 C3移動 攻撃 番長"),
    ("「会長」C2へ移動", "会長 C2移動 待機"),
    ("会長は C2へ移動", "会長 C2移動 待機"),
    (">>1 会長 D1移動", ">>1 会長 D1移動 待機"),
    ("＞＞１　会長　Ｄ１移動", ">>1 会長 D1移動 待機"),
    ("会長 再行動 C2 攻撃 番長", "会長 再行動 C2移動 攻撃 番長"),
]

# (line, what its refusal says): not read, or not taken — each answered once, with why
REFUSED = [
    ("会長 B100移動", "B100はMAP（A～E × 1～7）の外です"),
    ("会長 C٣移動", "「٣」は数字（0～9）で書いてください"),
    ("会長 C99999999移動", "大きすぎます"),
    ("会長 B4 に行きたいなあ", "読めませんでした。もしかして: 会長 B4移動"),
    ("会長 C5へ向かう", "読めませんでした。もしかして: 会長 C5移動"),
    ("会長、番長をぶっ倒せ", "読めませんでした。もしかして: 会長 攻撃 番長"),
    ("会長 断罪で番長を", "読めませんでした。もしかして: 会長 能力 対象は番長"),
    ("移動 会長 C3", "読めませんでした。もしかして: 会長 C3移動"),  # written backwards
    ("C2移動 会長", "読めませんでした。もしかして: 会長 C2移動"),  # the square first
    ("C2へ移動 会長 攻撃 番長", "読めませんでした。もしかして: 会長 C2移動 攻撃 番長"),
    ("攻撃 番長を会長で", "読めませんでした。もしかして: 会長 攻撃 番長"),  # the acting side's character acts
    ("会長 移動", "移動先のマスを C4 のように書いてください"),
    ("会長 C3 攻撃", "動作が読めません"),
    ("会長 攻撃 C4", "通常攻撃の対象はキャラクターの名前で"),
    ("会長さん C2移動", "キャラクター「会長さん」はいません。もしかして: 会長 C2移動"),
    ("番長 C5移動", "番長は番長グループのキャラクターです（敵は動かせません）"),
    ("幽霊 C2移動", "キャラクター「幽霊」はいません"),
    ("会長 C2移動 攻撃 会長", "自分自身は通常攻撃できません"),
]

CHAT = [
    "よろしくお願いします",
    "今日は C4 が熱い",
    "会長つよすぎｗ",
    "番長かっこいい",
    "C4って壁だっけ？",
    "次は攻撃かな",
    "攻撃しよう",
    "待機でいいかな",
    "C4に番長いるよね",
    "移動は会長が先かな",
    "移動と動作の間に他のキャラクターの行動を挟むことはできません",
    "既にキャラクターが居るマスに移動することも可能です(1マスに何人でも入れる)",
    "斜めのマスに移動するには2マス分移動が必要です(縦横1歩ずつ)",
    "同マスのキャラクター1人に攻撃を仕掛けます",
    "味方を攻撃することも可能ですが、自分自身に対しては不可能です",
    "特殊能力は発動判定と成功判定の両方に成功することで効果が現れます",
    "動作において「通常攻撃」も「特殊能力の使用」も行わない場合、待機を選んだことになります",
    "",
    "ｗｗｗ",
    "【会長】よろしく",
    "1. よろしく",
]


def _answer(text: str) -> tuple[str, str] | None:
    """What the receipt says of one line: ("taken", canonical) or ("refused", why); None: chat."""
    read = RULESET.read_line(STATE, text)
    if read is None:
        return None
    if isinstance(read, Rejection):
        return "refused", read.reason
    assert isinstance(read, OrderText)
    why = RULESET.check(STATE, Order(1, 0, SUBMITTER, read.player, read.command, read.canonical, gm=True))
    return ("refused", why) if why else ("taken", read.canonical)


@pytest.mark.parametrize(("text", "canonical"), TAKEN)
def test_an_order_in_the_seeds_words_is_taken(text: str, canonical: str) -> None:
    assert _answer(text) == ("taken", canonical)


@pytest.mark.parametrize(("text", "why"), REFUSED)
def test_an_order_that_cannot_be_taken_is_answered_with_why(text: str, why: str) -> None:
    answer = _answer(text)
    assert answer is not None and answer[0] == "refused" and why in answer[1], answer


@pytest.mark.parametrize("text", CHAT)
def test_chat_gets_no_answer(text: str) -> None:
    assert RULESET.read_line(STATE, text) is None


def test_the_canonical_form_of_every_line_taken_reads_back_without_the_state() -> None:
    """Stored lines are read back with parse_line at the deadline: the canonical form must need no names."""
    for text, _ in TAKEN:
        read = RULESET.read_line(STATE, text)
        if isinstance(read, OrderText):
            again = RULESET.parse_line(read.canonical)
            assert isinstance(again, OrderText) and again.command == read.command, text
