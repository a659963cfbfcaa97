"""判定: the grammar, 3D6 + stat + modifiers, C値/F値 at their edges, BCDice-style lines, 対決."""

from __future__ import annotations

import pytest

from engine.rules.dystopia.checks import CHANGES, FIXED, SETS, Check, threshold, thresholds
from engine.rules.dystopia.grammar import Opposed, parse_command
from engine.rules.dystopia.state import DystopiaError, Sheet
from tests.engine.rules.dystopia.helpers import AKIRA, GM, YUI, d6, play, start


@pytest.mark.parametrize(
    ("text", "stat", "modifier", "target"),
    [
        ("肉体判定", "肉体", 0, None),
        ("〈反射〉+2", "反射", 2, None),
        ("<集中>-1", "集中", -1, None),
        ("＜知識＞＋３", "知識", 3, None),
        ("判定 知識 目標12", "知識", 0, 12),
        ("肉体判定+1>=12", "肉体", 1, 12),
        ("肉体判定＋１＋２ 目標値１０", "肉体", 3, 10),
    ],
)
def test_check_forms(text: str, stat: str, modifier: int, target: int | None) -> None:
    check = parse_command(text)
    assert isinstance(check, Check)
    assert (check.stat, check.modifier, check.target) == (stat, modifier, target)


def test_c_and_f_effects_and_labels_are_read() -> None:
    check = parse_command("ユイ: 反射判定 C-1 C16 F固定7 [回避]")
    assert isinstance(check, Check)
    assert check.actor == "ユイ" and check.label == "回避"
    assert check.c_mods == ((CHANGES, -1), (SETS, 16)) and check.f_mods == ((FIXED, 7),)


def test_a_malformed_check_says_why() -> None:
    with pytest.raises(DystopiaError, match="読めません"):
        parse_command("肉体判定 がんばる")
    assert parse_command("判定はどうなった？") is None  # chat
    assert parse_command("今日の肉体労働") is None


def test_opposed_form() -> None:
    command = parse_command("対決 ユイ 反射 知識")
    assert isinstance(command, Opposed)
    assert (command.target, command.check.stat, command.passive_stat) == ("ユイ", "反射", "知識")


# -- C値/F値 -----------------------------------------------------------------------------------------


def test_lowest_c_and_highest_f_win() -> None:
    assert threshold(18, [(CHANGES, -1), (CHANGES, -2)], lowest=True) == 16
    assert threshold(18, [(SETS, 17), (CHANGES, +2)], lowest=True) == 17
    assert threshold(5, [(CHANGES, 1), (SETS, 3)], lowest=False) == 6
    assert threshold(18, [], lowest=True) == 18


def test_a_fixed_value_ignores_other_changes() -> None:
    assert threshold(18, [(CHANGES, -5), (FIXED, 17)], lowest=True) == 17
    assert threshold(18, [(FIXED, 17), (FIXED, 16)], lowest=True) == 16
    assert threshold(5, [(FIXED, 4), (FIXED, 7), (SETS, 9)], lowest=False) == 7


def test_the_seeds_example_beastman_dodge_under_suiryusen() -> None:
    """F値3 on 回避 (獣人) and 《水流閃》 fixing F at 7: the highest, 7."""
    beast = Sheet("獣人", overrides={"回避": {"F": 3}})
    check = Check(None, "反射", label="回避", f_mods=((FIXED, 7),))
    assert thresholds(beast, check) == (18, 7)
    assert thresholds(beast, Check(None, "反射", label="回避")) == (18, 3)


def test_critical_at_c_and_not_below() -> None:
    state = start()
    _, answer = play(state, "肉体判定 目標30", AKIRA, d6(6, 6, 6))
    assert "(3D6+6>=30) ＞ 18[6,6,6]+6 ＞ 24 ＞ クリティカル（自動成功）" in answer.plain
    _, answer = play(state, "肉体判定 目標30 C17", AKIRA, d6(6, 6, 5))
    assert "＞ 17[6,6,5]+6 ＞ 23 ＞ クリティカル" in answer.plain
    _, answer = play(state, "肉体判定 目標10", AKIRA, d6(6, 6, 5))
    assert answer.plain.endswith("＞ 17[6,6,5]+6 ＞ 23 ＞ 成功")


def test_fumble_at_f_and_not_above() -> None:
    state = start()
    _, answer = play(state, "肉体判定 目標3", AKIRA, d6(1, 2, 2))
    assert "(3D6+6>=3) ＞ 5[1,2,2]+6 ＞ 11 ＞ ファンブル（自動失敗）" in answer.plain
    _, answer = play(state, "肉体判定 目標3", AKIRA, d6(2, 2, 2))
    assert answer.plain.endswith("＞ 12 ＞ 成功")
    _, answer = play(state, "肉体判定 F7", AKIRA, d6(2, 2, 3))
    assert answer.plain.endswith("＞ 7[2,2,3]+6 ＞ 13 ＞ ファンブル（自動失敗）")


def test_plain_check_without_target_and_failure() -> None:
    state = start()
    _, answer = play(state, "〈反射〉-4", AKIRA, d6(3, 4, 4))
    assert answer.plain.endswith("(3D6) ＞ 11[3,4,4] ＞ 11")
    _, answer = play(state, "判定 知識 目標15", AKIRA, d6(3, 4, 4))
    assert answer.plain.endswith("(3D6+3>=15) ＞ 11[3,4,4]+3 ＞ 14 ＞ 失敗")


def test_opposed_tie_goes_to_the_passive_side() -> None:
    state = start()
    # アキラ 肉体6, ユイ 肉体6: the same dice give a tie
    _, answer = play(state, "対決 ユイ 肉体", AKIRA, d6(3, 3, 3, 3, 3, 3))
    assert "勝者：ユイ" in answer.plain
    _, answer = play(state, "対決 ユイ 肉体", AKIRA, d6(3, 3, 4, 3, 3, 3))
    assert "勝者：アキラ" in answer.plain


def test_opposed_critical_beats_a_higher_total_and_fumble_loses() -> None:
    state = start()
    _, answer = play(state, "対決 ユイ 肉体 C15", AKIRA, d6(5, 5, 5, 5, 5, 6))
    assert "勝者：アキラ" in answer.plain  # 15 ≥ C15: critical, against ユイ's 16 (not ≥ 18)
    _, answer = play(state, "対決 ユイ 肉体+10", AKIRA, d6(1, 1, 1, 2, 2, 2))
    assert "勝者：ユイ" in answer.plain  # a fumble loses whatever the total


def test_a_player_cannot_roll_for_someone_elses_pc() -> None:
    state = start()
    _, answer = play(state, "ユイ: 肉体判定", AKIRA)
    assert "ユイはあなたのキャラクターではありません" in answer.plain
    _, answer = play(state, "肉体判定", YUI, d6(1, 2, 3))
    assert "ユイの肉体判定" in answer.plain


def test_an_anchor_before_a_command_is_skipped_and_a_quote_is_not_a_command() -> None:
    from engine.rules.dystopia import RULESET

    assert parse_command(">>12 同意 アキラ") is not None
    assert parse_command("＞＞12-13 肉体判定") == Check(None, "肉体")
    assert RULESET.parse_post("> 肉体判定\n＞ 対決 ユイ 反射") is None


def test_without_gm_trips_nobody_runs_gm_commands_and_npcs_are_nobodys() -> None:
    state = start()
    _, answer = play(state, "ユイ: 肉体判定", AKIRA, gm_trips=())
    assert "ユイはあなたのキャラクターではありません" in answer.plain
    _, answer = play(state, "クロウ: 肉体判定", AKIRA, gm_trips=())
    assert "クロウはNPCです（NPCはGMだけが動かします）" in answer.plain
    for command in ("ダメージ アキラ 30", "シーン エンディング", "戦闘開始", "効果 アキラ 毒"):
        _, answer = play(state, command, "通りすがり", gm_trips=())
        assert "受け付けられません" in answer.plain, command
        _, answer = play(state, command, GM, gm_trips=())
        assert "受け付けられません" in answer.plain, command
    named = start()
    _, answer = play(named, "クロウ: 肉体判定", AKIRA)
    assert "クロウはNPCです" in answer.plain
    _, answer = play(named, "ユイ: 肉体判定", "GM◆GMTRIP", d6(1, 2, 3))
    assert "ユイの肉体判定" in answer.plain


def test_a_fixed_f_against_a_worse_f_follows_the_option() -> None:
    """「C値やF値を固定する効果については、C値であれば最低値を、F値であれば最高値を参照し、この固定された値には
    C値やF値を操作する効果は影響しない」: a fixed F7 with another effect's F8 — by default the fixed 7
    (fixed_cf_wins); without it the highest F of all, 8. The seed's own example gives 7 either way."""
    _, answer = play(start(), "肉体判定 F固定7 F8", AKIRA, d6(1, 2, 3))
    assert "（C値18／F値7）" in answer.plain
    _, answer = play(start(fixed_cf_wins=False), "肉体判定 F固定7 F8", AKIRA, d6(1, 2, 3))
    assert "（C値18／F値8）" in answer.plain
    for fixed_wins in (True, False):  # 獣人 F3 and 《水流閃》 F固定7: F7
        _, answer = play(start(fixed_cf_wins=fixed_wins), "肉体判定 F3 F固定7", AKIRA, d6(1, 2, 3))
        assert "（C値18／F値7）" in answer.plain


def test_the_seeds_own_wording_reads_as_the_command() -> None:
    """「サブアクションで移動する場合の基本コストは3」「対決判定」「とどめを刺す」: written the seed's way."""
    from engine.rules.dystopia.grammar import Opposed, Words

    assert parse_command("サブアクションで移動") == Words(None, "サブ移動")
    assert parse_command("メインアクションで移動") == Words(None, "メイン移動")
    assert parse_command("とどめを刺す ユイ") == Words(None, "とどめ", ("ユイ",))
    assert parse_command("調べる ユイ") == Words(None, "調査", ("ユイ",))
    found = parse_command("対決判定 ユイ 反射")
    assert isinstance(found, Opposed) and found.target == "ユイ"


HONEST = (  # the seed's commands as a player writes them: each read as a command
    "肉体判定",
    "〈反射〉+2",
    "判定 知識 目標12",
    "対決 ユイ 反射",
    "対決判定 ユイ 反射 知識",
    "チャンスメイク",
    "起死回生 ユイ",
    "不屈の闘志",
    "不撓不屈",
    "絶対回避",
    "BP消費 2 ユイ",
    "とどめを刺す クロウ",
    "感情ロール ユイ",
    "感情上昇 ユイ 3",
    "裏ハンドアウト公開 ユイ",
    "調査 ユイ",
    "伝達 ユイ ケン",
    "同意 ケン",
    "拒否 ケン",
    "サブアクションで移動",
    "メイン移動",
    "行動放棄",
    "行動 5 スラッシュ",
    "移動コスト ユイ -1",
    "ダメージ ユイ 8",
    "MP消費 3",
    "アキラ: 肉体判定",
    ">>12 同意 アキラ",
    "ＭＰ消費　３",
)
CHAT = (
    "こんばんは",
    "よろしくお願いします",
    "アキラ「行くぞ！」",
    "今日は判定がよく回るね",
    "> 肉体判定",
    "ユイかわいい",
    "https://example.com/sheet",
    "（ダイス目がひどい）",
    "戦闘楽しみ",
    "チャンスメイクしたい",
    "アキラの裏ハンドアウト見せて",
    "裏ハンドアウトってどうなるの",
    "調査中です",
    "同意します",
    "",
    "効果音",
    "今日 肉体判定 やる？",
    "ユイ かわいい",
    "1.5倍",
)


def test_honest_lines_are_read_and_chat_is_left_alone() -> None:
    for text in HONEST:
        assert parse_command(text.removeprefix("> ")) is not None, text
    from engine.rules.dystopia import RULESET

    for text in CHAT:
        assert RULESET.parse_post(text) is None, text


def test_a_command_word_used_wrongly_is_answered_with_its_form() -> None:
    import pytest

    from engine.rules.dystopia.grammar import EXAMPLES, PLAYER_WORDS
    from engine.rules.dystopia.state import DystopiaError

    assert set(EXAMPLES) == set(PLAYER_WORDS)
    for text, form in (
        ("感情上昇 ユイ", "感情上昇 ユイ 3"),
        ("伝達 ユイ", "伝達 ユイ ケン"),
        ("状況 全部", "状況"),
    ):
        with pytest.raises(DystopiaError, match=f"もしかして: {form}$"):
            parse_command(text)
    for word, example in EXAMPLES.items():
        assert parse_command(example) is not None, word


def test_a_command_word_written_another_way_is_answered_with_the_form_meant() -> None:
    """No silent line: a first word that is a command word written otherwise — the handout commands
    by the seed's own 「裏ハンドアウト」/「RH」, a check in kana, a typo, a mark at the end — gets an answer
    (or is read), never the silence of chat."""
    import pytest

    from engine.rules.dystopia.state import DystopiaError

    for text, form in (
        ("裏ハンドアウト ユイ", "裏ハンドアウト公開 ユイ ／ 調査 ユイ"),
        ("ＲＨ公開 ユイ", "裏ハンドアウト公開 ユイ"),
        ("裏ハンドアウト確認 アキラ", "調査 アキラ"),
        ("肉体はんてい", "肉体判定"),
        ("チャンスメーク", "チャンスメイク"),
        ("不屈の闘士", "不屈の闘志"),
        ("感情ロル ユイ", "感情ロール ユイ"),
        ("アキラ: 裏ハンドアウト ユイ", "裏ハンドアウト公開 ユイ ／ 調査 ユイ"),
        ("ユイ 調査", "調査 ユイ"),
        ("ケン 同意", "同意 ケン"),
        ("感情上 ユイ 3", "感情上昇 ユイ 3"),
        ("肉体判", "肉体判定"),
    ):
        with pytest.raises(DystopiaError, match=f"もしかして: {form}$"):
            parse_command(text)
    assert parse_command("チャンスメイク！") == parse_command("チャンスメイク")
    assert parse_command("状況？") == parse_command("状況")
    # a list marker, brackets, a polite ending, a name and a space where the colon goes
    assert parse_command("1. 調査 ユイ") == parse_command("調査 ユイ")
    assert parse_command("・肉体判定") == parse_command("肉体判定")
    assert parse_command("【状況】") == parse_command("状況")
    assert parse_command("状況お願いします") == parse_command("状況")
    assert parse_command("絶対回避します") == parse_command("絶対回避")
    assert parse_command("アキラ 肉体判定") == parse_command("アキラ: 肉体判定")
    assert parse_command("アキラ 肉体判定+2") == parse_command("アキラ: 肉体判定+2")
    for mark in ("、", "→", "は", "が", "/", ">"):
        assert parse_command(f"アキラ{mark}調査 ユイ") == parse_command("アキラ: 調査 ユイ"), mark
    # a colon or brackets after the command word, a counter after the number
    assert parse_command("判定：肉体") == parse_command("判定 肉体")
    assert parse_command("シーン：ドラマ") == parse_command("シーン ドラマ")
    assert parse_command("感情ロール：ユイ") == parse_command("感情ロール ユイ")
    assert parse_command("チャンスメイク(ユイ)") == parse_command("チャンスメイク ユイ")
    assert parse_command("ダメージ ユイ 8点") == parse_command("ダメージ ユイ 8")
    assert parse_command("ユイ(かわいい)") is None


def test_a_bracketed_stat_that_is_none_is_answered() -> None:
    import pytest

    from engine.rules.dystopia.state import DystopiaError

    with pytest.raises(DystopiaError, match="「筋力」は能力値ではありません"):
        parse_command("〈筋力〉+2")
    assert parse_command("〈反射〉+2") == Check(None, "反射", 2)
