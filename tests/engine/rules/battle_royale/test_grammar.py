"""Dice templates of the 都道府県バトロワ as players post them."""

from __future__ import annotations

from engine.rules.battle_royale.grammar import DieTemplate, find_die_templates


def test_a_full_template_with_base_and_plus_one() -> None:
    body = (
        "【＜団体戦用＞戦闘ダイス】\n基準『東京』\n基準側の人数が多い為、勝利＋1\ndice1d6=\n1～2.勝利\n3.敗北"
    )
    lines = ((1, 2, "勝利"), (3, 3, "敗北"))
    assert find_die_templates(body) == [
        DieTemplate("<団体戦用>戦闘ダイス", "東京", "勝利+1", 1, 6, 0, options=lines)
    ]


def test_full_width_commands_and_two_templates_in_one_post() -> None:
    body = "【都道府県選択ダイス】\nｄｉｃｅ２ｄ４７＝\n\n【戦闘方針ダイス】基準「大阪」 dice1d3=\n1.正面"
    first, second = find_die_templates(body)
    assert (first.table, first.count, first.sides, first.base) == ("都道府県選択ダイス", 2, 47, None)
    assert (second.table, second.base, second.sides, second.line) == ("戦闘方針ダイス", "大阪", 3, 3)


def test_text_without_dice_and_quoted_templates_are_not_templates() -> None:
    assert find_die_templates("次は【通常戦闘ダイス】だよね？") == []
    assert find_die_templates(">【通常戦闘ダイス】\n>dice1d5=") == []
    quoted_dice = find_die_templates("【通常戦闘ダイス】\n>dice1d5=\n基準『京都』")
    assert quoted_dice == []


def test_out_of_range_commands_keep_the_reason() -> None:
    (template,) = find_die_templates("【通常戦闘ダイス】\ndice1d99999=")
    assert template.sides is None and template.error is not None and "9999" in template.error
