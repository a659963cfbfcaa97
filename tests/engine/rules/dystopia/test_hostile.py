"""Hostile and odd input never raises out of the game: every crash input of the adversarial run (issue
24) is a refusal with its reason, and random posts (Unicode digits, huge numbers, controls, JSON of
wrong types, repeated command words) through `parse_post` and `apply` never raise."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.rng import SeededSource
from engine.rules.dystopia import RULESET
from engine.rules.dystopia.sheets import number
from engine.rules.dystopia.state import DystopiaError
from engine.ruleset import Order, OrderText, Rejection, RulesetError
from tests.engine.rules.dystopia.helpers import AKIRA, GM, play, start

UNICODE_DIGITS = ("\u1369", "\u19da", "\U00010a40", "\U00010e60", "٣", "३")  # ፩ ᧚ 𐩀 𐹠 and two Nd digits


def answer(state, body: str, author: str = GM) -> str:
    """The whole answer to a post (with real dice: only that it answers matters here)."""
    parsed = RULESET.parse_post(body)
    if parsed is None:
        return ""
    if isinstance(parsed, Rejection):
        return parsed.reason
    order = Order(2, 0, author, author, parsed.command, parsed.canonical)
    _, report = RULESET.apply(state, order, SeededSource(b"k" * 32))
    return report.plain


def refusal(state, body: str, author: str = GM) -> str:
    text = answer(state, body, author)
    assert "受け付けられません" in text or "読めません" in text or "整数" in text, text
    return text


@pytest.mark.parametrize("digit", UNICODE_DIGITS)
def test_money_sign_garbage_and_unicode_digits_on_a_sheet_are_refused(digit: str) -> None:
    state = start()
    text = refusal(state, "【キャラシート】\n名前: ジェイ\n所持金: +-100ND", AKIRA.replace("AKIRA", "JAY"))
    assert "所持金" in text
    text = refusal(state, f"【キャラシート】\n名前: ジェイ\n肉体: {digit}", AKIRA.replace("AKIRA", "JAY"))
    assert "肉体" in text


def test_the_number_reader_takes_ascii_digits_after_nfkc_only() -> None:
    assert number("１２", "x") == 12
    assert number("-3", "x") == -3
    assert number("+4", "x") == 4
    for bad in ("+-100", "--1", "\u1369", "٣", "1" * 400, "1e3", "", " "):
        with pytest.raises(DystopiaError):
            number(bad, "x")


@pytest.mark.parametrize(
    "data",
    [
        {"name": "ジェイ", "params": 5},
        {"name": "ジェイ", "status": "HP"},
        {"name": "ジェイ", "status": [{"label": "HP", "value": [1]}]},
        {"name": "ジェイ", "params": [{"label": "肉体", "value": {"a": 1}}]},
        {"name": ["ジェイ"]},
        {"name": "ジェイ", "initiative": "速い"},
        {"name": "ジェイ", "params": [{"label": "肉体", "value": "1" * 5000}]},
    ],
)
def test_ccfolia_json_of_wrong_types_is_refused(data: dict) -> None:
    body = json.dumps({"kind": "character", "data": data}, ensure_ascii=False)
    refusal(start(), body, AKIRA.replace("AKIRA", "JAY"))
    with pytest.raises(RulesetError):
        RULESET.import_character(body, "◆JAY")


@pytest.mark.parametrize("digit", UNICODE_DIGITS)
def test_unicode_digits_in_commands_are_refused_not_raised(digit: str) -> None:
    state, _ = play(start(), "戦闘開始")
    for body in (
        f"移動コスト アキラ {digit}",
        f"移動コスト アキラ -{digit}",
        f"アキラ: 行動 {digit}",
        f"ダメージ アキラ {digit}",
        f"アキラ: 肉体判定+{digit}",
    ):
        text = answer(state, body, AKIRA)
        assert text, body  # answered (refused), never silently dropped nor raised


def test_a_huge_number_is_refused() -> None:
    state, _ = play(start(), "戦闘開始")
    answer(state, "移動コスト アキラ " + "9" * 4400, AKIRA)
    answer(state, "設定 dummy", GM)
    with pytest.raises(RulesetError):
        RULESET.set_value(state, "sheets.アキラ.hp", "9" * 4400)


COMMAND_WORDS = (
    "肉体判定",
    "対決 ユイ 反射",
    "ダメージ",
    "回復",
    "MP消費",
    "チャンスメイク",
    "起死回生",
    "不撓不屈",
    "不屈の闘志",
    "絶対回避",
    "BP消費",
    "とどめ",
    "感情ロール",
    "感情上昇",
    "裏ハンドアウト公開",
    "調査",
    "伝達",
    "同意",
    "拒否",
    "シート確認",
    "状況",
    "サブ移動",
    "メイン移動",
    "行動放棄",
    "行動",
    "移動コスト",
    "戦闘開始",
    "戦闘終了",
    "シーン",
    "感情ロール許可",
    "リザルトフェイズ",
    "効果",
    "効果解除",
    "アキラ:",
    "【キャラシート】",
    '{"kind":"character","data":',
    "名前:",
    "所持金:",
    "コネクション:",
)
WORDS = st.one_of(
    st.sampled_from(COMMAND_WORDS),
    st.sampled_from(UNICODE_DIGITS),
    st.text(max_size=12),
    st.integers().map(str),
    st.sampled_from(
        (" ", "\n", "\u200b", "\x00", "\x1b", "ユイ", "アキラ", "クロウ", "+", "-", "C固定", "[", "]")
    ),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(WORDS, max_size=30))
@example(["【キャラシート】", "\n", "名前:", "ジェイ", "\n", "所持金:", "+-100ND"])
@example(['{"kind":"character","data":', '{"name":"ジェイ","params":5}}'])
def test_random_posts_never_raise(words: list[str]) -> None:
    body = " ".join(words)
    state = start()
    parsed = RULESET.parse_post(body)
    if isinstance(parsed, OrderText):
        for author in (GM, AKIRA, "通りすがり"):
            order = Order(2, 0, author, author, parsed.command, parsed.canonical)
            RULESET.apply(state, order, SeededSource(b"k" * 32))


def test_lines_past_the_limit_are_answered_not_dropped() -> None:
    body = "\n".join(["MP回復 1"] * 10)
    _, report = play(start(), body, AKIRA)
    assert (
        report.plain.count("MP回復") >= 8
        and "ここから先の2行は読みません（1つの書き込みに8行まで" in report.plain
    )


def test_import_character_answers_bad_input_in_japanese_never_a_traceback(tmp_path) -> None:
    from click.testing import CliRunner

    from scheduler import main

    for text in (
        '{"kind":"character","data":{"name":"ジェイ","params":5}}',
        '{"kind":"character","data":{"name":"ジェイ","status":[{"label":"HP","value":"+-100"}]}}',
        '{"kind":"character","data":{"name":"ジェイ","initiative":"\u1369"}}',
        "\xff\xfe not json",
    ):
        source = tmp_path / "bad.json"
        source.write_text(text, encoding="utf-8")
        result = CliRunner().invoke(main, ["import-character", "dystopia", str(source)])
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
        assert re.search(r"[ぁ-んァ-ン]", result.output), result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize(
    "body",
    [
        "名 " * 3000 + "肉体判定",
        "名:" * 3000 + "肉体判定",
        "状況" + "します" * 3000,
        "名 " * 3000 + "状況します",
    ],
    ids=["names", "colons", "endings", "both"],
)
def test_a_line_of_thousands_of_names_or_endings_is_read_in_a_few_steps(body: str) -> None:
    """A name before a command and a polite ending are each read once: a line of three thousand of
    them is chat, not a recursion three thousand deep (which raised before and stopped the post)."""
    assert RULESET.parse_post(body) is None


@pytest.mark.parametrize("depth", [5_000, 100_000])
def test_ccfolia_json_nested_past_the_decoders_depth_is_answered_not_raised(depth: int) -> None:
    """`{"kind":"character","data":[[[…]]]}` nested thousands deep raised RecursionError in the JSON
    decoder; it is a JSON that cannot be read, and the post is told so."""
    from engine.ruleset import Rejection

    body = '{"kind":"character","data":' + "[" * depth + "]" * depth + "}"
    answer = RULESET.parse_post(body)
    assert isinstance(answer, Rejection) and "JSONが読めません" in answer.reason
