"""The count-based turn order (the shared page's default), 移動コスト, and 戦闘不能 in combat."""

from __future__ import annotations

from engine.rules.dystopia.combat import move_cost
from engine.rules.dystopia.state import State
from tests.engine.rules.dystopia.helpers import AKIRA, GM, KEN, YUI, play, start


def fighting(**counts: int) -> State:
    state = start()
    for name, value in counts.items():
        state.sheets[name].stats["行動値"] = value
    state, _answer = play(state, "戦闘開始 " + " ".join(counts), GM)
    return state


def test_the_highest_count_acts_and_pays_its_cost() -> None:
    state = fighting(アキラ=10, ユイ=12)
    assert state.combat is not None and state.combat.counts == {"アキラ": 10, "ユイ": 12}
    _, answer = play(state, "サブ移動", AKIRA)
    assert "今はユイの手番です" in answer.plain
    state, answer = play(state, "メイン移動", YUI)
    assert (
        "ユイ：メイン移動（コスト8）カウント12→4" in answer.plain
        and "次の手番：アキラ（カウント10）" in answer.plain
    )
    state, answer = play(state, "行動 7 スラッシュ", AKIRA)
    assert (
        "アキラ：スラッシュ（コスト7）カウント10→3" in answer.plain
        and "次の手番：ユイ（カウント4）" in answer.plain
    )


def test_the_round_ends_when_no_count_is_above_zero() -> None:
    state = fighting(アキラ=5, ユイ=3)
    state, _ = play(state, "行動放棄", AKIRA)
    state, answer = play(state, "サブ移動", YUI)
    assert (
        "第2ラウンド：カウントを行動値に戻しました" in answer.plain
        and "次の手番：アキラ（カウント5）" in answer.plain
    )
    assert state.combat is not None and state.combat.round == 2


def test_ties_go_to_the_tie_stat_then_pcs_first() -> None:
    state = start()
    for name in ("アキラ", "ユイ", "クロウ"):
        state.sheets[name].stats["行動値"] = 9
    state.sheets["ユイ"].stats["敏捷"] = 2
    state, answer = play(state, "戦闘開始 クロウ アキラ ユイ", GM)
    assert "次の手番：ユイ" in answer.plain
    state, answer = play(state, "サブ移動", YUI)
    assert "次の手番：アキラ" in answer.plain  # 9 each: the PC before the NPC


def test_move_cost_changes_apply_to_both_moves_never_below_zero() -> None:
    assert move_cost(3, [-1]) == 2 and move_cost(8, [-1]) == 7
    assert move_cost(3, [-1, -2]) == 1  # the lowest lowering applies, not the sum
    assert move_cost(8, [+1, +3, -1]) == 10
    assert move_cost(3, [-5]) == 0
    state = fighting(アキラ=10)
    state, answer = play(state, "移動コスト アキラ -1", AKIRA)
    assert "サブ2／メイン7" in answer.plain
    state, answer = play(state, "メイン移動", AKIRA)
    assert "コスト7" in answer.plain


def test_a_downed_character_gives_up_its_turn_and_todome_costs_10() -> None:
    state = fighting(アキラ=12, ケン=10)
    state, _ = play(state, "ダメージ アキラ 30", GM)
    assert state.combat is not None and state.combat.counts["アキラ"] == 12  # counters are kept
    state, answer = play(state, "とどめ アキラ", KEN)
    assert "アキラは[戦闘不能状態]のため強制的に行動放棄（コスト10）" in answer.plain
    assert "ケン：とどめを刺す（コスト10）カウント10→0" in answer.plain and state.sheets["アキラ"].dead
    assert "第2ラウンド" in answer.plain and "次の手番：ケン" in answer.plain  # the dead leave the order
    _, answer = play(state, "とどめ アキラ", YUI)
    assert "アキラはもう死亡しています" in answer.plain


def test_forced_give_up_when_the_downed_one_is_due() -> None:
    state = fighting(アキラ=10, ケン=12)
    state, _ = play(state, "ダメージ アキラ 30", GM)
    state, answer = play(state, "サブ移動", KEN)
    assert "アキラは[戦闘不能状態]のため強制的に行動放棄（コスト10）" in answer.plain
    assert "次の手番：ケン（カウント9）" in answer.plain


def test_combat_commands_need_combat_and_the_gm() -> None:
    _, answer = play(start(), "サブ移動", AKIRA)
    assert "戦闘中ではありません" in answer.plain
    _, answer = play(start(), "戦闘開始", AKIRA)
    assert "GMだけが使えます" in answer.plain
    state, answer = play(fighting(アキラ=3), "戦闘終了", GM)
    assert state.combat is None and "戦闘終了" in answer.plain
