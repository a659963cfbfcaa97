"""The 行動提出 grammar in the forms players post, and the receipt's refusals."""

from __future__ import annotations

import pytest

from engine.rules.dh.grammar import ATTACK, POWER, WAIT, Command, Refused, parse
from engine.rules.dh.ruleset import RULESET
from engine.ruleset import Order, OrderText, Rejection
from tests.engine.rules.dh.helpers import arena

AKA, AO = "赤の人◆AKA0000000", "青の人◆AO00000000"


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("名前 C7移動", Command("名前", "C7")),
        ("名前: C3 攻撃 相手", Command("名前", "C3", ATTACK, "相手")),
        ("名前：C3 攻撃 相手", Command("名前", "C3", ATTACK, "相手")),
        ("名前: D3で能力使用 対象は相手", Command("名前", "D3", POWER, "相手")),
        ("名前 待機", Command("名前")),
        ("名前　Ｃ４移動　攻撃　相手", Command("名前", "C4", ATTACK, "相手")),
        ("名前 c4へ移動 相手を攻撃", Command("名前", "C4", ATTACK, "相手")),
        ("名前：C3へ移動し、相手に攻撃", Command("名前", "C3", ATTACK, "相手")),
        ("名前 C3移動→相手を攻撃", Command("名前", "C3", ATTACK, "相手")),
        ("名前 C3 通常攻撃 相手", Command("名前", "C3", ATTACK, "相手")),
        ("名前 能力「結界」 対象はＣ４", Command("名前", None, POWER, "C4", "結界")),
        ("名前 C3 能力 対象は相手 移動先はC5", Command("名前", "C3", POWER, "相手", None, "C5")),
        ("名前: 相手に能力使用", Command("名前", None, POWER, "相手")),
        ("名前 再行動 C4 攻撃 相手", Command("名前", "C4", ATTACK, "相手", again=True)),
        ("名前 C3", Command("名前", "C3", WAIT)),
        ("・名前 C3移動", Command("名前", "C3", WAIT)),
        ("名前 C3に移動して相手を攻撃", Command("名前", "C3", ATTACK, "相手")),
        ("名前 C3で攻撃 相手", Command("名前", "C3", ATTACK, "相手")),
        ("名前 C3まで移動、待機", Command("名前", "C3", WAIT)),
        ("- 名前 待機", Command("名前")),
    ],
)
def test_the_forms_players_post(text: str, command: Command) -> None:
    assert parse(text) == command


@pytest.mark.parametrize("text", ["よろしくお願いします", "今日は C4 が熱い", "", "名前"])
def test_chat_is_not_an_order(text: str) -> None:
    assert parse(text) is None


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("名前 移動", "移動先のマスを C4 のように"),
        ("名前 C3 攻撃", "動作が読めません"),
        ("名前 C3 ほげほげ 待機", "動作が読めません"),
        ("名前 攻撃 C4", "通常攻撃の対象はキャラクターの名前で"),
    ],
)
def test_an_order_line_that_cannot_be_read_is_refused_with_why(text: str, reason: str) -> None:
    parsed = parse(text)
    assert isinstance(parsed, Refused) and reason in parsed.reason


def test_the_canonical_form_reads_back_to_the_same_command() -> None:
    for text in (
        "名前: D3で能力使用 対象は相手",
        "名前 能力「結界」 対象はC4 移動先はC5",
        "名前 再行動 C4 攻撃 相手",
    ):
        command = parse(text)
        assert isinstance(command, Command) and parse(command.canonical) == command


def test_parse_line_gives_the_character_as_the_player_and_one_key_per_character() -> None:
    first, again = RULESET.parse_line("アリス C3移動"), RULESET.parse_line("アリス 再行動 C3移動")
    assert isinstance(first, OrderText) and first.player == "アリス"
    assert isinstance(again, OrderText)
    keys = {
        RULESET.order_key(Order(1, i, AKA, "アリス", t.command, t.canonical))
        for i, t in enumerate((first, again))
    }
    assert keys == {"アリス@1.0", "アリス/再行動@1.1"}  # a key per line: the rules choose (submission.py)
    assert isinstance(RULESET.parse_line("アリス 移動"), Rejection)


def _check(text: str, author: str = AKA, state=None) -> str | None:
    parsed = RULESET.parse_line(text)
    assert isinstance(parsed, OrderText)
    order = Order(1, 0, author, parsed.command.character, parsed.command, parsed.canonical)
    return RULESET.check(state or arena(), order)


@pytest.mark.parametrize(
    ("text", "author", "reason"),
    [
        ("幽霊 C3移動", AKA, "キャラクター「幽霊」はいません"),
        ("アリス C9移動", AKA, "C9はMAP（A～E × 1～7）の外です"),
        ("アリス F1移動", AKA, "F1はMAP（A～E × 1～7）の外です"),
        ("カイ C5移動", AKA, "カイは青のキャラクターです（敵は動かせません）"),
        ("カイ C5移動", AO, "今は赤のフェイズです（青の人◆AO00000000は赤の提出者ではありません）"),
        ("アリス 攻撃 アリス", AKA, "自分自身は通常攻撃できません"),
        ("アリス 攻撃 幽霊", AKA, "キャラクター「幽霊」はいません"),
        ("アリス 攻撃 ボブさん", AKA, "キャラクター「ボブさん」はいません（もしかして: ボブ）"),
        ("アリス 能力 対象はカイ、ハナコ", AKA, "キャラクター「ハナコ」はいません（もしかして: ハナ）"),
        ("アリス 能力「雷」", AKA, "アリスの特殊能力は「火球」です"),
        ("ボブ 能力 移動先はZ9", AKA, "Z9はMAP"),
    ],
)
def test_the_receipt_refuses_with_the_reason(text: str, author: str, reason: str) -> None:
    assert reason in (_check(text, author) or "")


def test_the_receipt_takes_a_sides_line_from_its_trip_whatever_the_name() -> None:
    assert _check("アリス C4移動", "別名◆AKA0000000") is None  # a wall: the seed cancels it at resolution
    assert _check("アリス 攻撃 カイ") is None


def test_first_side_penalty_is_refused_at_receipt() -> None:
    state = arena()
    state.options.first_penalty = True
    assert "先手ペナルティ" in (_check("アリス 攻撃 カイ", state=state) or "")
    assert _check("アリス 攻撃 ボブ", state=state) is None


def test_nothing_is_taken_once_the_game_is_over() -> None:
    state = arena(winner="赤")
    assert _check("アリス C3移動", state=state) == "このゲームは終了しています"


def test_who_must_submit_and_whom_a_poster_speaks_for() -> None:
    state = arena()
    assert RULESET.players(state) == ["アリス", "ボブ", "フウ", "ハナ"]
    assert RULESET.players_of(state, AKA) == ["アリス", "ボブ", "フウ", "ハナ"]
    assert RULESET.players_of(state, "通りすがり") == []
    state.phase = 2
    assert RULESET.players(state) == ["カイ", "デン", "エマ"]


def test_a_powers_targets_are_checked_at_receipt() -> None:
    assert "キャラクター「幽霊」はいません" in (_check("アリス 能力 対象は幽霊") or "")
    assert _check("アリス 能力 対象はＣ３") is None
    assert "「火球」の対象は1人までです" in (_check("アリス 能力 対象はカイ、エマ") or "")
    assert parse("名前 能力 対象はカイ，エマ 移動先はC5") == Command(
        "名前", None, POWER, "カイ、エマ", None, "C5"
    )
