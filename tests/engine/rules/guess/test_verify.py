"""verify recomputes a 数当て period from its key: the target, each guess's 差, and who was closest."""

from __future__ import annotations

import hashlib

from engine.rng import SeededDice, SeededSource
from engine.rules.guess import verify
from engine.rules.guess.ruleset import RULESET
from engine.ruleset import Order

KEY = hashlib.sha256(b"period key").digest()


def _posted() -> list[str]:
    state = RULESET.initial_state({})
    guesses = {"アリス◆abc": 10, "ボブ◆def": 60, "キャロル": 95}
    orders = [
        Order(n, 0, who, who, value, f"＜予想＞{value}") for n, (who, value) in enumerate(guesses.items(), 1)
    ]
    _, outcome = RULESET.resolve(state, orders, SeededSource(KEY))
    return ["【ピリオド1 更新】", *outcome.plain.split("\n")]


def test_a_posted_period_recomputes() -> None:
    result = RULESET.read_period(_posted())
    assert result is not None and len(result["guesses"]) == 3
    assert RULESET.verify_period(KEY, result) == []


def test_a_forged_target_difference_or_winner_is_caught() -> None:
    lines = _posted()
    target = next(text for text in lines if text.startswith("目標の数: "))
    value = int(target.split(": ")[1].split("（")[0])
    forged = [
        text.replace(f": {value}（", f": {value % 100 + 1}（") if text == target else text for text in lines
    ]
    assert any(
        "目標の数が再計算と一致しません" in p for p in RULESET.verify_period(KEY, RULESET.read_period(forged))
    )
    winners = next(text for text in lines if text.startswith("当たり: "))
    forged = [
        ("当たり: キャロル" if "キャロル" not in winners else "当たり: アリス◆abc") if t == winners else t
        for t in lines
    ]
    assert any("当たり" in p for p in RULESET.verify_period(KEY, RULESET.read_period(forged)))
    guess = next(text for text in lines if text.startswith("ボブ◆def: 60（差 "))
    forged = [text.replace("（差 ", "（差 1") if text == guess else text for text in lines]
    assert any("ボブ◆defの差" in p for p in RULESET.verify_period(KEY, RULESET.read_period(forged)))


def test_another_key_does_not_verify_and_a_report_without_a_target_is_unreadable() -> None:
    result = RULESET.read_period(_posted())
    assert result is not None
    other = next(
        key
        for key in (hashlib.sha256(bytes([n])).digest() for n in range(10))
        if SeededDice(key, verify.PURPOSE).roll(100) != result["target"]
    )
    assert any("目標の数が再計算と一致しません" in p for p in RULESET.verify_period(other, result))
    assert RULESET.verify_period(KEY, RULESET.read_period(["【ピリオド1 更新】"])) == [
        "目標の数の行が見つかりません"
    ]
