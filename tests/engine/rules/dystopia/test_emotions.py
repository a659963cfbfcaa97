"""感情ロール and scenes: permission, 1D6/1D10, the raise of 0 to the roll, the caps 10 and 21."""

from __future__ import annotations

from engine.rules.dystopia.state import Connection
from tests.engine.rules.dystopia.helpers import AKIRA, GM, play, start


def opened(**options):
    state, _answer = play(start(**options), "感情ロール許可", GM)
    return state


def test_only_when_the_gm_allows() -> None:
    _, answer = play(start(), "感情ロール ユイ", AKIRA)
    assert "GMが許可したとき" in answer.plain
    _, answer = play(start(), "感情ロール許可", AKIRA)
    assert "GMだけが使えます" in answer.plain


def test_roll_then_raise_by_zero_to_the_roll() -> None:
    state, answer = play(opened(), "感情ロール ユイ", AKIRA, [(6, 3)])
    assert "1D6 ＞ 3（残り5回）" in answer.plain
    _, answer = play(state, "感情上昇 ユイ 4", AKIRA)
    assert "出目の3点まで" in answer.plain
    state, answer = play(state, "感情上昇 ユイ 3", AKIRA)
    assert state.sheets["アキラ"].connection("ユイ").strength == 7
    assert "強度4→7" in answer.plain
    _, answer = play(state, "感情上昇 ユイ 0", AKIRA)
    assert "感情ロールはありません" in answer.plain  # one raise per roll


def test_zero_raise_is_allowed_and_short_sessions_roll_1d10() -> None:
    state, answer = play(opened(short_session=True), "感情ロール ケン", AKIRA, [(10, 9)])
    assert "1D10 ＞ 9" in answer.plain
    state, _ = play(state, "感情上昇 ケン 0", AKIRA)
    assert state.sheets["アキラ"].connection("ケン").strength == 1


def test_ten_on_one_connection_and_21_in_all_are_refused_not_clamped() -> None:
    state = opened()
    state.sheets["アキラ"].connections = [
        Connection("ユイ", "", 9),
        Connection("ケン", "", 10),
        Connection("クロウ", "", 1),
    ]
    state, _ = play(state, "感情ロール ユイ", AKIRA, [(6, 2)])
    _, answer = play(state, "感情上昇 ユイ 2", AKIRA)
    assert "1つのコネクションは10点まで" in answer.plain
    state, _ = play(state, "感情上昇 ユイ 1", AKIRA)  # 10 + 10 + 1 = 21
    state, _ = play(state, "感情ロール クロウ", AKIRA, [(6, 1)])
    _, answer = play(state, "感情上昇 クロウ 1", AKIRA)
    assert "合計は21まで" in answer.plain


def test_the_number_of_rolls_is_the_gms_six_by_default() -> None:
    state = opened(emotion_rolls=1)
    state, _ = play(state, "感情ロール ユイ", AKIRA, [(6, 1)])
    state, _ = play(state, "感情上昇 ユイ 0", AKIRA)
    _, answer = play(state, "感情ロール ユイ", AKIRA)
    assert "感情ロールは残っていません（1回まで）" in answer.plain
    assert start().options.emotion_rolls == 6


def test_a_scene_move_closes_the_rolls() -> None:
    state, answer = play(opened(), "シーン クライマックス", GM)
    assert state.scene == "クライマックス" and state.scene_number == 1 and not state.emotion_open
    _, answer = play(state, "シーン 休憩", GM)
    assert "シーンはオープニング・ドラマ・クライマックス・エンディングのどれか" in answer.plain
    state, _ = play(state, "シーン ED", GM)
    assert state.scene == "エンディング"


def test_the_gm_may_allow_only_some_pcs_and_change_the_total_cap() -> None:
    state, answer = play(start(), "感情ロール許可 ユイ", GM)
    assert "感情ロールを許可（ユイ、1D6）" in answer.plain
    _, answer = play(state, "感情ロール ユイ", AKIRA)
    assert "GMはアキラの感情ロールを許可していません" in answer.plain
    state = opened(max_total=9)
    state, _ = play(state, "感情ロール ユイ", AKIRA, [(6, 2)])
    _, answer = play(state, "感情上昇 ユイ 2", AKIRA)  # 4 + 1 + 3 + 2 = 10 > 9
    assert "合計は9まで" in answer.plain
    state, _ = play(state, "感情上昇 ユイ 1", AKIRA)
    assert state.sheets["アキラ"].emotion_total == 9


def test_the_first_scene_is_scene_1_and_a_move_says_only_what_it_closed() -> None:
    """Players met 「シーン2」 for the first scene and 「（感情ロールは締め切り、裏ハンドアウトの申し出は
    取り消し）」 on every scene although nothing was open."""
    state, answer = play(start(), "シーン オープニング", GM)
    assert "シーン1：オープニング" in answer.plain and "（" not in answer.plain
    state, answer = play(state, "シーン ドラマ", GM)
    assert answer.plain.strip().endswith("シーン2：ドラマ")
    state, _ = play(state, "感情ロール許可", GM)
    _, answer = play(state, "シーン クライマックス", GM)
    assert "シーン3：クライマックス（感情ロールは締め切り）" in answer.plain


def test_help_speaks_to_players_not_of_the_project() -> None:
    from engine.rules.dystopia import RULESET

    for word in ("シードにない", "共有ページ", "seed"):
        assert word not in RULESET.HELP + RULESET.SUMMARY, word
