"""戦闘不能状態: the seed's eight rules, とどめを刺す, and the result phase."""

from __future__ import annotations

from engine.rules.dystopia.state import State
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


def test_rule_1_put_down_with_hp_left_sets_hp_zero_on_every_path() -> None:
    """「【HP】が1以上のときに[戦闘不能状態]となった場合、直ちに【HP】を0にする」 and 「[戦闘不能状態]になった
    場合、直ちに自身に掛かっている効果(バッドステータス含む)を全て解除する」: `効果 アキラ 戦闘不能状態` only
    added a text mark, and `設定 sheets.アキラ.down=true` left HP 7, 毒 kept and the row unchanged."""
    from engine.rules.dystopia import RULESET

    ready = start()
    ready.sheets["アキラ"].effects = ["毒", "戦闘中：攻撃+2"]
    ready.sheets["アキラ"].hp = 7
    by_effect, answer = play(ready, "効果 アキラ 戦闘不能状態", GM)
    by_setting = RULESET.set_value(ready, "sheets.アキラ.down", "true")
    by_zero = RULESET.set_value(ready, "sheets.アキラ.hp", "0")
    for state in (by_effect, by_setting, by_zero):
        akira = state.sheets["アキラ"]
        assert (akira.hp, akira.down, akira.effects, akira.row) == (0, True, ["戦闘中：攻撃+2"], "最後列")
    assert (
        "アキラは[戦闘不能状態]（HP0、効果解除、最後列へ。BPの用途だけ使えます）（解除した効果：毒）"
        in answer.plain
    )
    _, answer = play(by_effect, "肉体判定", AKIRA)
    assert "判定できません" in answer.plain  # rule 5 follows
    _, answer = play(by_effect, "効果 アキラ 毒", GM)
    assert "解除する効果ととどめ以外の効果を受けません" in answer.plain  # rule 7
    up = RULESET.set_value(by_setting, "sheets.アキラ.down", "false")
    assert not up.sheets["アキラ"].down and up.sheets["アキラ"].hp == 1


def test_combat_effects_with_an_end_timing_follow_the_option() -> None:
    """「(例外として、戦闘中～ と書かれている効果は解除タイミングの記載がない限り解除されない。)」 — the
    default keeps every 「戦闘中」 effect; combat_effect_timing clears one that writes when it ends."""
    for option, kept in (
        (False, ["戦闘中：攻撃+2", "戦闘中：防御+1（ラウンド終了まで）"]),
        (True, ["戦闘中：攻撃+2"]),
    ):
        state = start(combat_effect_timing=option)
        state.sheets["アキラ"].effects = ["毒", "戦闘中：攻撃+2", "戦闘中：防御+1（ラウンド終了まで）"]
        state, _ = play(state, "ダメージ アキラ 30", GM)
        assert state.sheets["アキラ"].effects == kept, option


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


def test_absolute_evasion_against_todome_follows_the_option() -> None:
    """「[戦闘不能状態]では[BPの用途]と以外の全ての効果を使用できない」 and 「絶対回避 攻撃を受けるときに使用。
    その受ける攻撃の効果を全て無効にする」: by default a downed character's 絶対回避 is refused; with
    evade_todome it undoes the とどめ just dealt (the character stays down), and only right after it."""
    state, _ = play(downed(), "とどめ アキラ", YUI)
    _, answer = play(state, "絶対回避 ユイ", AKIRA)
    assert "死亡しています" in answer.plain
    state, _ = play(start(evade_todome=True), "ダメージ アキラ 25", GM)
    state.sheets["アキラ"].connection("ユイ").strength = 5
    state, answer = play(state, "とどめ アキラ", YUI)
    assert "直後に「絶対回避」でこのとどめを無効にできます" in answer.plain
    saved, answer = play(state, "絶対回避 ユイ", AKIRA)
    assert "とどめを刺す」の効果を全て無効" in answer.plain
    assert not saved.sheets["アキラ"].dead and saved.sheets["アキラ"].down
    late, _ = play(state, "肉体判定", YUI, d6(1, 2, 3))
    _, answer = play(late, "絶対回避 ユイ", AKIRA)
    assert "死亡しています" in answer.plain
