"""裏ハンドアウト: the commitment at the start, the seed's three paths with their refusals, checking."""

from __future__ import annotations

from engine.rules.dystopia import RULESET, verify_handout
from engine.rules.dystopia.handouts import commitment
from engine.rules.dystopia.state import State
from tests.engine.rules.dystopia.helpers import AKIRA, GM, KEN, YUI, d6, play, scenario, start

KEY = "00" * 32


def test_the_first_answer_commits_every_handout_without_its_text() -> None:
    state = RULESET.initial_state(scenario())
    faces = [(256, 1 + i % 256) for i in range(64)] + d6(1, 2, 3)
    state, answer = play(state, "肉体判定", AKIRA, faces)
    akira = state.handouts["アキラ"]
    assert akira.key == bytes(range(32)).hex()
    assert f"裏ハンドアウト アキラ コミットメント(HMAC-SHA256): {akira.commitment}" in answer.plain
    assert "密偵" not in answer.plain and akira.key not in answer.plain
    again, answer = play(state, "肉体判定", AKIRA, d6(1, 2, 3))
    assert "コミットメント" not in answer.plain and again.handouts["アキラ"].key == akira.key


def test_verify_accepts_the_published_text_and_key_and_nothing_else() -> None:
    committed = commitment(bytes(32), "アキラ", "アキラは密偵だ")
    assert verify_handout("アキラ", "アキラは密偵だ", KEY, committed)
    assert verify_handout("アキラ", "ｱｷﾗは密偵だ  ", KEY, committed)  # width and spacing as a board shows it
    assert not verify_handout("アキラ", "アキラは味方だ", KEY, committed)  # a tampered text
    assert not verify_handout("アキラ", "アキラは密偵だ", "01" * 32, committed)  # a tampered key
    assert not verify_handout("アキラ", "アキラは密偵だ", "zz", committed)


def published(answer_text: str, state: State, owner: str) -> None:
    handout = state.handouts[owner]
    assert handout.published and f"鍵 裏ハンドアウト {owner}: {handout.key}" in answer_text
    assert handout.text in answer_text


def test_path_1_show_needs_strength_4_and_consent() -> None:
    _, answer = play(start(), "裏ハンドアウト公開 ケン", AKIRA)
    assert "ケンへの感情の強度が4以上必要です（アキラ：1）" in answer.plain
    state, answer = play(start(), "裏ハンドアウト公開 ユイ", AKIRA)
    assert "ユイは「同意 アキラ」か「拒否 アキラ」" in answer.plain
    refused, answer = play(state, "拒否 アキラ", YUI)
    assert not refused.handouts["アキラ"].published and not refused.requests
    state, answer = play(state, "同意 アキラ", YUI)
    published(answer.plain, state, "アキラ")
    assert state.handouts["アキラ"].known_by == ["ユイ"]
    assert verify_handout("アキラ", state.handouts["アキラ"].text, KEY, state.handouts["アキラ"].commitment)


def test_path_2_investigation_agreed() -> None:
    _, answer = play(start(), "調査 ユイ", KEN)
    assert "ユイへの感情の強度が4以上必要です（ケン：0）" in answer.plain
    state, _ = play(start(), "調査 ユイ", AKIRA)
    state, answer = play(state, "同意 アキラ", YUI)
    published(answer.plain, state, "ユイ")
    assert state.handouts["ユイ"].known_by == ["アキラ"]


def test_path_2_refusal_rolls_the_stat_and_the_investigator_can_win() -> None:
    state, _ = play(start(), "調査 ユイ", AKIRA)
    state, answer = play(state, "拒否 アキラ", YUI, [(10, 6), *d6(4, 4, 4, 3, 3, 3)])
    assert "1D10 ＞ 6 ＞ 反射" in answer.plain and "勝者：アキラ" in answer.plain
    published(answer.plain, state, "ユイ")


def test_path_2_a_tie_goes_to_the_owner_who_then_cannot_show_it_this_scene() -> None:
    state, _ = play(start(), "調査 ユイ", AKIRA)
    state, answer = play(state, "拒否 アキラ", YUI, [(10, 1), *d6(3, 3, 3, 3, 3, 3)])
    assert "1D10 ＞ 1 ＞ 肉体" in answer.plain and "勝者：ユイ" in answer.plain
    assert not state.handouts["ユイ"].published
    _, answer = play(state, "裏ハンドアウト公開 アキラ", YUI)
    assert "このシーン中は裏ハンドアウトを見せられません（茶番判定の防止）" in answer.plain
    state, _ = play(state, "シーン ドラマ", GM)
    _, answer = play(state, "裏ハンドアウト公開 アキラ", YUI)
    assert "「同意 ユイ」" in answer.plain


def test_path_3_passing_on_needs_knowledge_strength_5_and_no_veto() -> None:
    state, _ = play(start(), "調査 ユイ", AKIRA)
    state, _ = play(state, "同意 アキラ", YUI)
    _, answer = play(state, "伝達 ユイ ケン", AKIRA)
    assert "ケンへの感情の強度が5以上必要です（アキラ：1）" in answer.plain
    _, answer = play(state, "伝達 アキラ ケン", YUI)
    assert "ユイはアキラの裏ハンドアウトを知りません" in answer.plain
    state.sheets["アキラ"].connection("ケン").strength = 5
    asked, answer = play(state, "伝達 ユイ ケン", AKIRA)
    assert "GMは「却下 アキラ」で拒否できます" in answer.plain
    vetoed, _ = play(asked, "却下 アキラ", GM)
    _, answer = play(vetoed, "同意 アキラ", KEN)
    assert "申し出はありません" in answer.plain
    refused, answer = play(asked, "拒否 アキラ", KEN)
    assert (
        "ケン" not in refused.handouts["ユイ"].known_by and "無理やり見せることはできません" in answer.plain
    )
    state, answer = play(asked, "同意 アキラ", KEN)
    assert state.handouts["ユイ"].known_by == ["アキラ", "ケン"] and "本文は公開済み" in answer.plain


def test_npc_handouts_follow_the_scenario_option() -> None:
    data = scenario()
    data["npcs"][0]["handout"] = "クロウは黒幕"
    state = RULESET.initial_state(data)
    state.committed = True
    state.sheets["アキラ"].connection("クロウ").strength = 4
    _, answer = play(state, "調査 クロウ", AKIRA)
    assert "NPCの裏ハンドアウトにこのルールは使いません" in answer.plain
    state.options.npc_handouts = True
    _, answer = play(state, "調査 クロウ", AKIRA)
    assert "「同意 アキラ」" in answer.plain


def test_a_used_emotion_still_counts_toward_the_thresholds() -> None:
    state, _ = play(start(), "肉体判定", AKIRA, d6(1, 2, 3))
    state, _ = play(state, "チャンスメイク ユイ", AKIRA, d6(1, 2, 3))
    assert state.sheets["アキラ"].connection("ユイ").used
    _, answer = play(state, "調査 ユイ", AKIRA)
    assert "「同意 アキラ」" in answer.plain


def test_a_reroll_that_turns_the_investigation_publishes_and_lifts_the_bar() -> None:
    """「調査する側が勝利したらRHを確認できる」「対決判定で受動側が勝利した場合、そのシーン中に受動側がRHを
    見せることはできない」: after a チャンスメイク the winner was announced, but the handout stayed unpublished
    and the owner's bar stayed."""
    state, _ = play(start(), "調査 ユイ", AKIRA)
    state, answer = play(state, "拒否 アキラ", YUI, [(10, 1), *d6(3, 3, 3, 3, 3, 3)])
    assert state.handouts["ユイ"].barred_scene == state.scene_number
    state, answer = play(state, "チャンスメイク ケン", AKIRA, d6(6, 6, 5))
    assert "対決の勝者：アキラ" in answer.plain and "見せられない制限は解除" in answer.plain
    published(answer.plain, state, "ユイ")
    assert state.handouts["ユイ"].barred_scene == -1
    _, answer = play(state, "チャンスメイク ケン", YUI)
    assert "裏ハンドアウトはもう公開されました" in answer.plain


def test_a_comeback_that_turns_the_investigation_publishes() -> None:
    state, _ = play(start(), "調査 ユイ", AKIRA)
    state, _ = play(state, "拒否 アキラ", YUI, [(10, 1), *d6(3, 3, 3, 3, 3, 3)])
    state, answer = play(state, "起死回生 クロウ", AKIRA, d6(1, 1))
    published(answer.plain, state, "ユイ")


def test_a_show_offer_made_before_the_investigation_is_not_honoured_after_the_owner_won() -> None:
    """「対決判定で受動側が勝利した場合、そのシーン中に受動側がRHを見せることはできないものとする。(茶番判定の
    防止)」: a 裏ハンドアウト公開 offer waiting when the owner won the investigation was still honoured by 同意."""
    state, _ = play(start(), "裏ハンドアウト公開 アキラ", YUI)
    state, _ = play(state, "調査 ユイ", AKIRA)
    state, answer = play(state, "拒否 アキラ", YUI, [(10, 1), *d6(3, 3, 3, 3, 3, 3)])
    _, answer = play(state, "同意 ユイ", AKIRA)
    assert "受け付けられません" in answer.plain and not state.handouts["ユイ"].published
