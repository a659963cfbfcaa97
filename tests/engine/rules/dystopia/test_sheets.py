"""Sheets: the scenario's, a posted 【キャラシート】, and the creation checks as a list of breaches."""

from __future__ import annotations

from engine.rules.dystopia.creation import breaches, sl_total
from engine.rules.dystopia.sheets import apply_patch, posted_patch, scenario_sheet
from engine.rules.dystopia.state import Connection, Item, Sheet, Skill
from tests.engine.rules.dystopia.helpers import AKIRA, KEN, YUI, play, start

SHEET = """ケンです、よろしく
【キャラシート】
名前: ケン
CL: 1
種族: 人間
クラス: ナイト/ナイト
肉体: ８
集中: 5
反射: 6
知識: 4
幸運: 3
近接: 2
HP: 28
耐久値: 10
MP: 12
C値: 17
F値: 5
スキル: スラッシュ/近接/メインアクション/単体/武器/3MP/3/SL10/ナイト
スキル: 秘剣/秘/メインアクション/単体/武器/5MP/5/SL10/ナイト
武器: ロングソード 60
アイテム: ポーション 10, 毒消し 5
所持金: 25ND
コネクション: アキラ/友情/3
判定別: 回避/F/3
判定別: 回避/C固定/16"""


def posted_sheet(body: str, owner: str) -> Sheet:
    patch = posted_patch(body)
    return apply_patch(Sheet(name=patch["name"], owner=owner), patch)


def good_sheet() -> Sheet:
    return Sheet(
        "良い子",
        cl=1,
        race="人間",
        classes=["ナイト", "ナイト"],
        skills=[Skill("a", sl=0), Skill("b", kind="秘", sl=20, cls="ナイト"), Skill("自", sl=3, auto=True)],
        weapons=[Item("剣", 100)],
        armor=[Item("鎧", 30)],
        items=[Item("薬", 40)],
        connections=[Connection("x", "", 10), Connection("y", "", 10), Connection("z", "", 1)],
    )


def test_a_sheet_keeping_every_rule_has_no_breach() -> None:
    assert breaches(good_sheet()) == []
    assert sl_total(4) == 35  # the seed's example


def test_a_sheet_with_several_breaches_lists_each() -> None:
    sheet = Sheet(
        "悪い子",
        cl=2,
        race="",
        classes=["ナイト", "メイジ", "スカウト"],
        skills=[Skill("a", sl=-1), Skill("b", kind="秘", sl=5, cls="ナイト")],
        weapons=[Item("剣", 100), Item("槍", 20)],
        armor=[Item("鎧", 20)],
        accessories=[Item("指輪", 1)] * 4,
        items=[Item("薬", 41)],
        connections=[Connection(str(i), "", 4) for i in range(7)],
        bonus={"肉体": 1},
        race_stats={"肉体": 5},
        stats={"肉体": 5},
        slots=3,
    )
    found = breaches(sheet)
    for text in (
        "初期のCLは1です（CL2）",
        "種族は必ず1つです",
        "クラスは必ず2つです（3つ",
        "ボーナスポイントはCL点＝2点です（1点）",
        "肉体は[種族の基本能力値]+CL-1+[ボーナスポイント]+その他補正＝5+2-1+1+0＝7です（5）",
        "《a》のSLは0以上です",
        "《b》は種別：秘",
        "SL合計は[CL×5]+15＝25点です（4点）",
        "スキル取得枠が余っています（枠3、取得2）",
        "武器枠は1つです（2つ）",
        "アクセサリー枠は3つです（4つ）",
        "130NDまでです（144ND）",
        "40NDまでです（41ND）",
        "コネクションは6枠です（7）",
        "感情の強度の合計上限値は21です（28）",
    ):
        assert any(text in breach for breach in found), (text, found)
    assert len(found) == 15


def test_empty_slots_are_barehanded_and_plain_clothes() -> None:
    sheet = scenario_sheet({"name": "素手の人"}, npc=False)
    assert [i.name for i in sheet.weapons] == ["素手"] and [i.name for i in sheet.armor] == ["一般服"]
    assert sheet.c == 18 and sheet.f == 5 and sheet.stats["幸運"] == 0


def test_a_posted_sheet_reads_every_item() -> None:
    sheet = posted_sheet(SHEET, "◆KEN")
    assert (sheet.name, sheet.owner, sheet.cl, sheet.race, sheet.classes) == (
        "ケン",
        "◆KEN",
        1,
        "人間",
        ["ナイト", "ナイト"],
    )
    assert sheet.stats["肉体"] == 8 and sheet.stats["近接"] == 2
    assert (sheet.hp, sheet.hp_max, sheet.durability, sheet.mp, sheet.c, sheet.f) == (28, 28, 10, 12, 17, 5)
    assert sheet.skills[1] == Skill("秘剣", "秘", "メインアクション", "単体", "武器", "5MP", 5, 10, "ナイト")
    assert [(i.name, i.price) for i in sheet.items] == [("ポーション", 10), ("毒消し", 5)]
    assert sheet.money == 25 and sheet.connections == [Connection("アキラ", "友情", 3)]
    assert [i.name for i in sheet.armor] == ["一般服"]
    assert sheet.overrides == {"回避": {"F": 3, "C固定": 16}}


def test_a_bad_sheet_line_says_why() -> None:
    import pytest

    from engine.rules.dystopia.state import DystopiaError

    for line, why in (
        ("判定別: 回避/X/3", "判定別は"),
        ("好物: りんご", "「好物」は使えません"),
        ("コネクション: a/b", "相手/感情/強度"),
    ):
        with pytest.raises(DystopiaError, match=why):
            posted_sheet(f"【キャラシート】\n名前: ミナ\n{line}", "◆M")
    with pytest.raises(DystopiaError, match="「名前: …」がありません"):
        posted_sheet("【キャラシート】\nCL: 1", "◆M")


def test_posting_a_sheet_registers_it_and_lists_the_breaches() -> None:
    state, answer = play(start(), SHEET.replace("名前: ケン", "名前: ジン"), "ジンの中の人◆JIN")
    assert "キャラシートを登録しました：ジン（◆JIN）" in answer.plain
    assert "違反なし" in answer.plain  # 秘 with the same class twice, SL 20 = 1×5+15, 70ND of 130
    assert state.sheets["ジン"].owner == "◆JIN"
    state, answer = play(state, "肉体判定", "ジンの中の人◆JIN", [(6, 1), (6, 1), (6, 1)])
    assert "ジンの肉体判定（C値17／F値5）" in answer.plain
    _, answer = play(state, "反射判定 [回避] C-5", "ジンの中の人◆JIN", [(6, 1), (6, 1), (6, 1)])
    assert "ジンの反射判定（C値16／F値3）" in answer.plain  # the sheet's fixed C ignores the -5


def test_updating_keeps_the_used_emotions_and_refuses_another_trip() -> None:
    state = start()
    state.sheets["ケン"].connection("アキラ").used = True
    state, answer = play(state, SHEET, KEN)
    assert "更新しました" in answer.plain and state.sheets["ケン"].connection("アキラ").used
    _, answer = play(state, SHEET, YUI)
    assert "ケンは別のトリップのキャラクターです" in answer.plain
    _, answer = play(start(), SHEET, "名無し")
    assert "トリップ付きの名前" in answer.plain


def test_sheet_check_command() -> None:
    _, answer = play(start(), "シート確認", AKIRA)
    assert "キャラクター作成のチェック（アキラ）：違反1件" in answer.plain  # SL 0 of 20
    _, answer = play(start(), "シート確認 ユイ", AKIRA)
    assert "（ユイ）" in answer.plain


CCFOLIA = {
    "kind": "character",
    "data": {
        "name": "ミオ",
        "status": [
            {"label": "HP", "value": 18, "max": 25},
            {"label": "MP", "value": 9, "max": 9},
            {"label": "耐久値", "value": 7},
        ],
        "params": [
            {"label": "肉体", "value": "4"},
            {"label": "反射", "value": "９"},
            {"label": "C値", "value": "17"},
            {"label": "魅力", "value": "3"},
        ],
        "commands": "3D6+{反射} 反射判定",
    },
}


def test_a_ccfolia_character_pasted_in_a_post_is_imported() -> None:
    import json

    body = "駒を貼ります\n" + json.dumps(CCFOLIA, ensure_ascii=False)
    state, answer = play(start(), body, "ミオの中の人◆MIO")
    mio = state.sheets["ミオ"]
    assert (mio.hp, mio.hp_max, mio.mp, mio.durability, mio.c, mio.owner) == (18, 25, 9, 7, 17, "◆MIO")
    assert mio.stats["反射"] == 9 and mio.stats["集中"] == 0
    assert "読まなかった項目：魅力" in answer.plain and "キャラクター作成のチェック（ミオ）" in answer.plain
    state.sheets["ミオ"].connections = [Connection("アキラ", "友情", 3, used=True)]
    state, answer = play(state, json.dumps(CCFOLIA, ensure_ascii=False), "ミオの中の人◆MIO")
    assert "更新しました" in answer.plain and state.sheets["ミオ"].connections == [
        Connection("アキラ", "友情", 3, True)
    ]


def test_json_that_is_not_a_ccfolia_character_is_chat_and_a_cut_one_is_answered() -> None:
    from engine.rules.dystopia import RULESET
    from engine.ruleset import Rejection

    assert RULESET.parse_post('{"kind": "item", "data": {}}') is None
    cut = RULESET.parse_post('{"kind": "character", "data": {"name": "ミオ", "params": [')
    assert isinstance(cut, Rejection) and "途中で切れている" in cut.reason  # answered, not taken for chat


def test_without_gm_trips_no_one_overwrites_another_trips_sheet() -> None:
    _, answer = play(start(), SHEET, YUI, gm_trips=())
    assert "ケンは別のトリップのキャラクターです" in answer.plain


def test_threadgm_import_character_writes_a_sheet_post_the_thread_reads(tmp_path) -> None:
    import json

    from click.testing import CliRunner

    from scheduler import main

    exported = tmp_path / "mio.json"
    exported.write_text(json.dumps(CCFOLIA, ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(main, ["import-character", "dystopia", str(exported)])
    assert result.exit_code == 0, result.output
    post, note = result.output.split("\n\n")
    assert post.startswith("【キャラシート】\n名前: ミオ\n") and "読まなかった項目：魅力" in note
    assert len(post.split("\n")) <= 24 and max(len(x) for x in post.split("\n")) <= 256
    state, _ = play(start(), post, "ミオの中の人◆MIO")
    mio = state.sheets["ミオ"]
    assert (mio.name, mio.owner, mio.hp, mio.hp_max, mio.mp, mio.durability, mio.c) == (
        "ミオ",
        "◆MIO",
        18,
        25,
        9,
        7,
        17,
    )
    assert mio.stats["反射"] == 9
    other = tmp_path / "note.txt"
    other.write_text("ただのメモ", encoding="utf-8")
    refused = CliRunner().invoke(main, ["import-character", "dystopia", str(other)])
    assert refused.exit_code == 1 and "ココフォリアのキャラクターJSON" in refused.output
    naval = CliRunner().invoke(main, ["import-character", "naval", str(exported)])
    assert naval.exit_code == 1 and "キャラクターの取り込みがありません" in naval.output


def test_the_stat_formula_is_computed_exactly_with_its_other_modifier() -> None:
    """「基本能力値：[種族の基本能力値]+CL-1+[ボーナスポイント]+その他補正」: a 知識 of 5 where the formula
    gives 4 passed when the check was "at least"."""
    from engine.rules.dystopia.state import Options

    sheet = good_sheet()
    sheet.cl, sheet.race_stats, sheet.bonus = 1, {"知識": 4}, {"肉体": 1}
    sheet.stats = {"知識": 5}
    assert any("知識は" in b and "＝4+1-1+0+0＝4です（5）" in b for b in breaches(sheet, Options()))
    sheet.other = {"知識": 1}
    assert not any("知識" in b for b in breaches(sheet, Options()))
    state, answer = play(
        start(), "【キャラシート】\n名前: ジン\n種族能力値: 知識4\nその他補正: 知識+1\n知識: 5", "ジ◆JIN"
    )
    assert state.sheets["ジン"].other == {"知識": 1} and "知識は" not in answer.plain


def test_bonus_points_left_over_are_a_breach_or_with_the_option_a_warning() -> None:
    """「ボーナスポイントは、CL点(つまりCLが1上がる度に1点)任意の基本能力値に割り振れる」 — two of three
    allocated: a breach by default (the bot's reading), only a warning with bonus_partial_warning."""
    from engine.rules.dystopia.creation import unchecked
    from engine.rules.dystopia.state import Options

    sheet = good_sheet()
    sheet.cl, sheet.bonus = 3, {"肉体": 1, "知識": 1}
    assert "ボーナスポイントはCL点＝3点です（2点）" in breaches(sheet, Options())
    lenient = Options(bonus_partial_warning=True)
    assert not any("ボーナス" in b for b in breaches(sheet, lenient))
    assert any(
        "ボーナスポイントはCL点＝3点です（2点）。振り残しは注意だけ" in n for n in unchecked(sheet, lenient)
    )
    sheet.bonus = {"肉体": 4}
    assert any("ボーナス" in b for b in breaches(sheet, lenient))  # more than CL is always a breach


def test_the_purchase_budgets_are_for_a_first_character_only() -> None:
    """「初期作での武器、防具、アクセサリーの購入は130NDとなる」「初期作でのアイテムの購入は40NDから」: a
    continuing character (start_cl 4) was still held to them."""
    from engine.rules.dystopia.creation import unchecked
    from engine.rules.dystopia.state import Options

    sheet = good_sheet()
    sheet.cl, sheet.weapons, sheet.items = 4, [Item("大剣", 300)], [Item("薬", 90)]
    assert any("130NDまで" in b for b in breaches(sheet, Options(start_cl=1)))
    continuing = Options(start_cl=4)
    assert not any("ND" in b for b in breaches(sheet, continuing))
    assert any("継続のキャラクター（初期CL4）" in n for n in unchecked(sheet, continuing))


def test_a_sheet_without_race_or_classes_says_so_in_words() -> None:
    """The check read 「クラスは必ず2つです（0つ：なし）」 and 「種族は必ず1つです（「」）」."""
    found = breaches(Sheet("空"))
    assert "種族は必ず1つです（種族が書かれていません）" in found
    assert "クラスは必ず2つです（クラスが書かれていません）" in found
    assert not any("0つ" in b or "「」" in b for b in found)
