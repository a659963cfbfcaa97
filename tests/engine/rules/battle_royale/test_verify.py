"""verify recomputes a battle royale period from its key and the report as posted: every die's faces on
br/BATTLE/INDEX, their total, and the outcome the posted table lines give; a tampered face, total or
outcome is caught, and so are dice whose battle the report does not say."""

from __future__ import annotations

import hashlib
import tomllib

import pytest

from engine.rng import SeededDice, SeededSource, SplitSource
from engine.rules import REGISTRY
from engine.rules.battle_royale import verify
from engine.rules.battle_royale.events import DieRequest, Rolled
from engine.rules.battle_royale.report import render
from engine.rules.battle_royale.tables import count_table

RULESET = REGISTRY.get("battle-royale")
SECRET = hashlib.sha256(b"rules secret").digest()


def _scenario(**tables: dict) -> dict:
    scenario = tomllib.loads(RULESET.template() or "")
    for name, values in tables.items():
        scenario[name] = {**scenario.get(name, {}), **values}
    return scenario


def _game(scenario: dict, seed: str) -> list[tuple[bytes, list[str]]]:
    """A whole game, one battle a period: each period's key and its report's lines as posted."""
    state, periods = RULESET.initial_state(scenario), []
    for period in range(1, 400):
        key = hashlib.sha256(f"{seed}/{period}".encode()).digest()
        state, outcome = RULESET.resolve(state, [], SplitSource(SeededSource(key), SeededSource(SECRET)))
        periods.append((key, [f"【ピリオド{period} 更新】", *outcome.plain.split("\n")]))
        if RULESET.finished(state):
            return periods
    raise AssertionError("the game did not end")


VARIANTS = {
    "47 prefectures": {},
    "黒幕": {"mastermind": {"enabled": True}},
    "地区復活": {"revival": {"enabled": True}},
    "タッグマッチ": {"tag_match": {"enabled": True}},
    "5 battles a period": {"options": {"battles_per_period": 5}},
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_period_of_a_whole_game_recomputes(variant: str) -> None:
    for seed in ("a", "b"):
        periods = _game(_scenario(**VARIANTS[variant]), f"{variant}{seed}")
        dice = 0
        for key, lines in periods:
            result = RULESET.read_period(lines)
            assert result is not None
            dice += len(result["dice"])
            assert RULESET.verify_period(key, result) == [], "\n".join(lines)
        assert dice > len(periods)  # every period rolled something, and each die was read


def test_a_final_begun_in_the_period_before_says_where_its_dice_start() -> None:
    """A 黒幕決戦 opens when the battle before it ends, so its dice may fall in the next period: that
    report says which battle it continues and from which die, and those dice recompute."""
    for seed in "abcdefgh":
        periods = _game(_scenario(mastermind={"enabled": True}), seed)
        continued = [(key, lines) for key, lines in periods if "の続き：この戦闘の" in "\n".join(lines)]
        if continued:
            key, lines = continued[0]
            result = RULESET.read_period(lines)
            assert result is not None and result["dice"][0]["index"] == 0
            assert RULESET.verify_period(key, result) == []
            return
    pytest.fail("no game of eight had its final cross a period")


def _first_battle() -> tuple[bytes, list[str]]:
    return _game(_scenario(), "tamper")[0]


def _replace_once(lines: list[str], old: str, new: str, after: str = "") -> list[str]:
    start = lines.index(after) if after else 0
    index = next(i for i in range(start, len(lines)) if lines[i] == old or lines[i].startswith(old))
    return [*lines[:index], lines[index].replace(old, new, 1), *lines[index + 1 :]]


def test_a_tampered_face_is_caught() -> None:
    key, lines = _first_battle()
    line = next(text for text in lines if text.startswith("dice1d5="))
    face = int(line.split("=")[1].split()[0])
    other = face % 5 + 1
    forged = _replace_once(lines, line, f"dice1d5={other} ({other})")
    problems = RULESET.verify_period(key, RULESET.read_period(forged))
    assert any(
        "出目が再計算と一致しません" in text and f"投稿: {other} ／ 再計算: {face}" in text
        for text in problems
    )


def test_a_tampered_outcome_is_caught() -> None:
    key, lines = _first_battle()
    at = next(i for i, text in enumerate(lines) if text.startswith("dice1d5="))
    outcome = next(i for i in range(at, len(lines)) if lines[i].startswith("→ "))
    shown = lines[outcome][2:]
    forged_outcome = "逃走" if shown != "逃走" else "勝利"
    forged = [*lines[:outcome], f"→ {forged_outcome}", *lines[outcome + 1 :]]
    problems = RULESET.verify_period(key, RULESET.read_period(forged))
    assert any(f"結果「{forged_outcome}」が表の出目" in text for text in problems), problems


def test_a_tampered_selection_and_a_wrong_total_are_caught() -> None:
    key, lines = _first_battle()
    at = next(i for i, text in enumerate(lines) if text.startswith("dice2d47="))
    faces = [int(f) for f in lines[at].split("=")[1].split(" (")[0].split()]
    swapped = f"dice2d47={faces[1]} {faces[0]} ({sum(faces)})"
    problems = RULESET.verify_period(key, RULESET.read_period([*lines[:at], swapped, *lines[at + 1 :]]))
    assert any("【都道府県選択ダイス】の出目が再計算と一致しません" in text for text in problems)
    wrong_total = lines[at].replace(f"({sum(faces)})", f"({sum(faces) + 1})")
    problems = RULESET.verify_period(key, RULESET.read_period([*lines[:at], wrong_total, *lines[at + 1 :]]))
    assert problems == [
        f"第1戦の1個目のダイス【都道府県選択ダイス】の合計 ({sum(faces) + 1}) が出目の合計 ({sum(faces)}) と違います"
    ]


def test_another_periods_key_does_not_verify() -> None:
    key, lines = _first_battle()
    problems = RULESET.verify_period(hashlib.sha256(key).digest(), RULESET.read_period(lines))
    assert problems and all("第1戦" in text for text in problems)


def test_dice_whose_battle_the_report_does_not_say_are_not_passed() -> None:
    """A report that starts mid-battle without saying which (an old bot's, or an edited one) cannot be
    recomputed: it is a problem, never a silent match."""
    lines = ["【ピリオド5 更新】", "【通常戦闘ダイス】", "基準『大阪』", "dice1d5=1 (1)", "1.勝利", "→ 勝利"]
    problems = verify.verify_period(bytes(32), verify.read_period(lines))
    assert problems == ["【通常戦闘ダイス】（1）が何戦目のダイスか読めません"]


def test_the_stream_names_are_the_engines() -> None:
    assert verify.purpose(12, 3) == "br/12/3" and verify.purpose(verify.SETUP, 0) == "br/setup/0"


def test_a_long_count_table_posted_in_one_line_checks_the_count() -> None:
    """A count die of more than 12 faces is posted as one line 「1～15.1人～15人（出目の順）」: face n is n人."""
    key = hashlib.sha256(b"count key").digest()
    table = count_table("win_count", "＜団体用＞脱落人数ダイス", 1, 15)
    face = SeededDice(key, "br/3/4").roll(15)
    request = DieRequest(table, "", "", "", "br/3/4", "win_count")
    lines = ["【第3戦】", *render([Rolled(request, (face,), f"{face}人")]).plain.split("\n")]
    assert "1～15.1人～15人（出目の順）" in lines
    result = verify.read_period(lines)
    result["dice"][0]["index"] = 4  # the fifth die of battle 3, as if the four before had been read
    assert verify.verify_period(key, result) == []
    wrong = face % 15 + 1
    result["dice"][0]["outcome"] = f"{wrong}人"
    assert verify.verify_period(key, result) == [
        f"第3戦の5個目のダイス【＜団体用＞脱落人数ダイス】の結果「{wrong}人」が表の出目 {face}（{face}人）と違います"
    ]
