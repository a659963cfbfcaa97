"""BPの用途: each of the five uses, paid by cutting one emotion of at least its cost."""

from __future__ import annotations

import pytest

from engine.rules.dystopia.grammar import BpUse, parse_command
from engine.rules.dystopia.state import DystopiaError
from tests.engine.rules.dystopia.helpers import AKIRA, GM, YUI, d6, play, start


def emotion(state, owner: str, to: str):
    link = state.sheets[owner].connection(to)
    assert link is not None
    return link


def test_chance_make_rerolls_and_cuts_the_named_emotion() -> None:
    state, _ = play(start(), "肉体判定 目標15", AKIRA, d6(1, 3, 3))
    state, answer = play(state, "チャンスメイク ユイ", AKIRA, d6(4, 4, 4))
    assert "ユイへの感情（強度4）を切りました（差分3BPは戻りません）" in answer.plain
    assert answer.plain.endswith("(3D6+6>=15) ＞ 12[4,4,4]+6 ＞ 18 ＞ 成功")
    assert emotion(state, "アキラ", "ユイ").used
    assert state.sheets["アキラ"].bp == 4  # ケン 1 + クロウ 3


def test_chance_make_never_twice_on_one_check() -> None:
    state, _ = play(start(), "肉体判定", AKIRA, d6(1, 3, 3))
    state, _ = play(state, "チャンスメイク ケン", AKIRA, d6(4, 4, 4))
    after, answer = play(state, "チャンスメイク クロウ", AKIRA)
    assert "同じ判定に2度チャンスメイクは使えません" in answer.plain
    assert not emotion(after, "アキラ", "クロウ").used  # a refused use cuts nothing
    state, _ = play(state, "肉体判定", AKIRA, d6(2, 2, 2))
    state, answer = play(state, "チャンスメイク クロウ", AKIRA, d6(5, 5, 5))  # a new check: allowed
    assert "15[5,5,5]" in answer.plain


def test_the_weakest_sufficient_unused_emotion_when_none_is_named() -> None:
    state, _ = play(start(), "肉体判定", AKIRA, d6(1, 3, 3))
    state, answer = play(state, "チャンスメイク", AKIRA, d6(2, 2, 2))
    assert "ケンへの感情（強度1）を切りました" in answer.plain


def test_strength_too_low_used_emotion_and_combining_are_refused() -> None:
    state, _ = play(start(), "肉体判定", AKIRA, d6(1, 3, 3))
    _, answer = play(state, "起死回生 ケン", AKIRA)
    assert "ケンへの感情の強度は1点です（3点以上の感情が必要）" in answer.plain
    with pytest.raises(DystopiaError, match="2つ以上の感情を同時に切ることはできません"):
        parse_command("不撓不屈 ケン クロウ")
    state, _ = play(state, "チャンスメイク ケン", AKIRA, d6(1, 1, 6))
    state, _ = play(state, "肉体判定", AKIRA, d6(1, 3, 3))
    _, answer = play(state, "チャンスメイク ケン", AKIRA)
    assert "ケンへの感情は使用済みです" in answer.plain
    _, answer = play(start(), "絶対回避", AKIRA)
    assert "強度5以上の未使用の感情がありません（感情を合わせて使うことはできません）" in answer.plain


def test_comeback_adds_2d6_right_after_the_check_only_once() -> None:
    state, _ = play(start(), "肉体判定 目標20", AKIRA, d6(2, 3, 4))
    state, answer = play(state, "起死回生 クロウ", AKIRA, d6(5, 6))
    assert answer.plain.endswith("(3D6+6>=20) ＞ 9[2,3,4]+6+11[5,6] ＞ 26 ＞ 成功")
    _, answer = play(state, "起死回生 ユイ", AKIRA)
    assert "この判定にはもう起死回生を使いました" in answer.plain
    state, _ = play(start(), "肉体判定", AKIRA, d6(2, 3, 4))
    state, _ = play(state, "肉体判定", YUI, d6(2, 3, 4))
    _, answer = play(state, "起死回生", AKIRA)
    assert "起死回生は判定直後に使います" in answer.plain


def test_comeback_changes_the_winner_of_an_opposed_check() -> None:
    state, answer = play(start(), "対決 ユイ 肉体", AKIRA, d6(2, 2, 2, 4, 4, 4))
    assert "勝者：ユイ" in answer.plain
    _, answer = play(state, "起死回生 クロウ", AKIRA, d6(6, 6))
    assert "対決の勝者：アキラ" in answer.plain


def test_fukutsu_only_when_down_and_fudou_restores_durability() -> None:
    _, answer = play(start(), "不屈の闘志", AKIRA)
    assert "不屈の闘志は[戦闘不能状態]を解除する用途です" in answer.plain
    state, _ = play(start(), "ダメージ アキラ 15", GM)
    state, answer = play(state, "不撓不屈 ユイ", AKIRA)
    assert "HPを耐久値8まで回復：5→8" in answer.plain and state.sheets["アキラ"].hp == 8


def test_absolute_evasion_and_a_skill_bp_cost_of_zero_still_cut_an_emotion() -> None:
    state, answer = play(start(), "絶対回避 アキラ", YUI)
    assert "その受ける攻撃の効果を全て無効" in answer.plain
    _, answer = play(start(), "絶対回避 ケン", YUI)
    assert "ケンへの感情の強度は3点です（5点以上の感情が必要）" in answer.plain
    command = parse_command("BP消費 0")
    assert command == BpUse(None, "BP消費", 0, None)
    state, answer = play(start(), "BP消費 0 ケン", AKIRA)
    assert "BP消費（0BP）— ケンへの感情（強度1）を切りました" in answer.plain
    assert emotion(state, "アキラ", "ケン").used


def test_six_uses_at_most_one_per_connection() -> None:
    state = start()
    connections = [{"to": f"相手{i}", "strength": 1} for i in range(6)]
    state.sheets["アキラ"].connections = []
    from engine.rules.dystopia.state import Connection

    state.sheets["アキラ"].connections = [Connection(c["to"], "", c["strength"]) for c in connections]
    for _ in range(6):
        state, answer = play(state, "BP消費 1", AKIRA)
        assert "切りました" in answer.plain
    _, answer = play(state, "BP消費 1", AKIRA)
    assert "未使用の感情がありません" in answer.plain


def test_the_passive_side_may_reroll_its_side_of_an_opposed_check() -> None:
    state, answer = play(start(), "対決 ユイ 肉体", AKIRA, d6(4, 4, 4, 2, 2, 2))
    assert "勝者：アキラ" in answer.plain
    state, answer = play(state, "チャンスメイク アキラ", YUI, d6(5, 5, 5))
    assert "ユイの肉体判定（C値18／F値5） (3D6+6) ＞ 15[5,5,5]+6 ＞ 21" in answer.plain
    assert "対決の勝者：ユイ" in answer.plain
    state, answer = play(state, "チャンスメイク ユイ", AKIRA, d6(4, 4, 4))
    assert "＞ 12[4,4,4]+6 ＞ 18" in answer.plain and "対決の勝者：ユイ" in answer.plain
    assert state.last_checks["アキラ"].total == 18 and state.last_checks["ユイ"].total == 21


def test_chance_make_only_on_the_current_check() -> None:
    """「チャンスメイク 判定を振り直す。」 — it worked on a check from scenes ago."""
    state, _ = play(start(), "肉体判定", AKIRA, d6(1, 2, 3))
    state, _ = play(state, "肉体判定", YUI, d6(1, 2, 3))
    state, _ = play(state, "シーン ドラマ", GM)
    _, answer = play(state, "チャンスメイク", AKIRA)
    assert "チャンスメイクは今の判定にだけ使えます" in answer.plain
    assert not any(c.used for c in state.sheets["アキラ"].connections)


def test_one_comeback_per_check_also_after_a_chance_make_reroll() -> None:
    """「起死回生 判定直後に使用。判定の達成値に+2D6。」 — it could be used again after a チャンスメイク reroll."""
    state, _ = play(start(), "肉体判定", AKIRA, d6(1, 2, 3))
    state, _ = play(state, "起死回生 クロウ", AKIRA, d6(1, 1))
    state, answer = play(state, "チャンスメイク ケン", AKIRA, d6(2, 2, 2))
    assert state.last_checks["アキラ"].revived and state.last_checks["アキラ"].total == 12
    _, answer = play(state, "起死回生 ユイ", AKIRA)
    assert "この判定にはもう起死回生を使いました" in answer.plain


def test_opposing_oneself_is_refused() -> None:
    """「対決判定(受動=調べられる側優先)」 takes two sides, an active and a passive one: `対決 アキラ 肉体`
    by アキラ was accepted."""
    _, answer = play(start(), "対決 アキラ 肉体", AKIRA)
    assert "対決判定の相手は自分以外です" in answer.plain


def test_fudou_above_durability_follows_the_option() -> None:
    """「不撓不屈 【HP】を【耐久値】の値まで回復。」 at HP above 耐久値: by default the emotion is cut and
    nothing heals (said so); with futou_refuse_above the use is refused before any emotion is cut."""
    state, answer = play(start(), "不撓不屈 ユイ", AKIRA)
    assert "（HPが耐久値以上のため回復なし）" in answer.plain and state.sheets["アキラ"].hp == 20
    state, answer = play(start(futou_refuse_above=True), "不撓不屈 ユイ", AKIRA)
    assert "耐久値8以上です" in answer.plain and not state.sheets["アキラ"].connection("ユイ").used
