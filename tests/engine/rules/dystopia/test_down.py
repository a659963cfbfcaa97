"""戦闘不能状態: the seed's eight rules, とどめを刺す, and the result phase."""

from __future__ import annotations

from engine.rules.dystopia.model import State
from tests.engine.rules.dystopia.helpers import AKIRA, GM, YUI, d6, play, start


def downed() -> State:
    state = start()
    akira = state.sheets["アキラ"]
    akira.effects = ["毒", "戦闘中：攻撃+2"]
    akira.counters = {"チャージ": 2}
    state, _ = play(state, "ダメージ アキラ 25", GM)
    return state


def test_rule_1_hp_to_zero_and_down() -> None:
    state = downed()
    assert state.sheets["アキラ"].hp == 0 and state.sheets["アキラ"].down
    _, answer = play(start(), "ダメージ アキラ 20", GM)
    assert "HP20→0" in answer.plain and "[戦闘不能状態]" in answer.plain
    state, _ = play(start(), "ダメージ アキラ 19", GM)
    assert not state.sheets["アキラ"].down and state.sheets["アキラ"].hp == 1


def test_rule_1_put_down_with_hp_left_sets_hp_zero() -> None:
    from engine.rules.dystopia.actions import go_down

    sheet = start().sheets["アキラ"]
    go_down(sheet)
    assert sheet.hp == 0 and sheet.down


def test_rule_2_effects_cleared_but_in_combat_ones_and_counters_kept() -> None:
    akira = downed().sheets["アキラ"]
    assert akira.effects == ["戦闘中：攻撃+2"] and akira.counters == {"チャージ": 2}


def test_rule_3_only_bp_uses_and_rule_5_no_checks() -> None:
    state = downed()
    for body in ("肉体判定", "MP消費 2", "対決 ユイ 反射", "とどめ ユイ", "チャンスメイク ユイ"):
        _, answer = play(state, body, AKIRA)
        assert "受け付けられません" in answer.plain, body
    _, answer = play(state, "対決 アキラ 反射", YUI)
    assert "アキラは[戦闘不能状態]のため判定できません" in answer.plain


def test_rule_4_moved_to_the_rearmost_row() -> None:
    assert downed().sheets["アキラ"].row == "最後列"


def test_rule_6_result_phase_stands_up_at_hp_1() -> None:
    state, answer = play(downed(), "リザルトフェイズ", GM)
    assert not state.sheets["アキラ"].down and state.sheets["アキラ"].hp == 1
    assert "（アキラ）" in answer.plain
    _, answer = play(downed(), "リザルトフェイズ", AKIRA)
    assert "GMだけが使えます" in answer.plain


def test_rule_7_no_effects_but_revival() -> None:
    state = downed()
    for body in ("ダメージ アキラ 3", "回復 アキラ 3", "効果 アキラ 毒"):
        after, answer = play(state, body, GM)
        assert "受け付けられません" in answer.plain, body
        assert after.sheets["アキラ"].hp == 0
    state, answer = play(state, "不屈の闘志 ユイ", AKIRA)
    assert not state.sheets["アキラ"].down and state.sheets["アキラ"].hp == 1
    state, _ = play(state, "回復 アキラ 3", GM)  # standing again: effects apply
    assert state.sheets["アキラ"].hp == 4


def test_rule_8_todome_kills_a_downed_target_only() -> None:
    _, answer = play(start(), "とどめ アキラ", YUI)
    assert "とどめを刺せるのは[戦闘不能状態]の対象だけです" in answer.plain
    state, answer = play(downed(), "とどめを刺す アキラ", YUI)
    assert state.sheets["アキラ"].dead
    assert (
        "死亡（キャラロスト）" in answer.plain
        and "《カバーリング》" in answer.plain
        and "コスト10" in answer.plain
    )
    _, answer = play(state, "不屈の闘志 ユイ", AKIRA)
    assert "アキラは死亡しています" in answer.plain


def test_the_gm_may_forbid_todome() -> None:
    state = downed()
    state.options.todome = False
    _, answer = play(state, "とどめ アキラ", YUI)
    assert "GMが「とどめを刺す」を禁止しています" in answer.plain


def test_hp_and_mp_never_below_zero_and_zero_mp_is_no_cost() -> None:
    state, answer = play(start(), "MP消費 11", AKIRA)
    assert "MPが足りません" in answer.plain and state.sheets["アキラ"].mp == 10
    state, answer = play(start(), "MP消費 0", AKIRA)
    assert "代償0MPは「代償：なし」と同じ" in answer.plain
    state, _ = play(start(), "MP消費 4", AKIRA)
    state, _ = play(state, "MP回復 9", AKIRA)
    assert state.sheets["アキラ"].mp == 10  # not past the maximum
    _ = d6


def test_gm_effects_and_the_in_combat_ones_surviving_a_fall() -> None:
    state, _ = play(start(), "効果 アキラ 毒", GM)
    state, answer = play(state, "効果 アキラ 戦闘中：攻撃+2", GM)
    assert "アキラの効果：毒、戦闘中:攻撃+2" in answer.plain
    _, answer = play(state, "効果 アキラ 毒", AKIRA)
    assert "GMだけが使えます" in answer.plain
    fallen, _ = play(state, "ダメージ アキラ 99", GM)
    assert fallen.sheets["アキラ"].effects == ["戦闘中:攻撃+2"]
    state, answer = play(state, "効果解除 アキラ 毒", GM)
    assert state.sheets["アキラ"].effects == ["戦闘中:攻撃+2"]
    state, _ = play(state, "効果解除 アキラ", GM)
    assert state.sheets["アキラ"].effects == []
