"""Character intake: who may post a sheet, what a re-post changes, the breaches that stop one, and a
ココフォリア JSON pasted over several lines as a board forces (issues 24 and 25)."""

from __future__ import annotations

import json

from engine.rules.dystopia import RULESET
from engine.rules.dystopia.state import DOWN
from tests.engine.rules.dystopia.helpers import GM, KEN, YUI, play, start

JAY = "ジェイの中の人◆JAY"
SHEET = """【キャラシート】
名前: ジェイ
CL: 1
種族: 人間
クラス: ナイト/メイジ
肉体: 6
HP: 20
耐久値: 8
MP: 10
行動値: 9
スキル: スラッシュ/近接/メインアクション/単体/武器/3MP/3/SL20/ナイト
コネクション: アキラ/友情/3"""

CCFOLIA = {
    "kind": "character",
    "data": {
        "name": "ミオ",
        "initiative": 11,
        "status": [{"label": "HP", "value": 18, "max": 25}, {"label": "MP", "value": 9, "max": 9}],
        "params": [
            {"label": "肉体", "value": "4"},
            {"label": "反射", "value": "9"},
            {"label": "肉体その他補正", "value": "1"},
            {"label": "種族:肉体", "value": "3"},
        ],
        "commands": "3D6+{反射} 反射判定\n3D6+{肉体} 肉体判定",
        "memo": "長いメモ" * 30,
    },
}


def split(text: str, width: int) -> str:
    """A long line cut every `width` characters, as a player fits it under a board's line limit."""
    return "\n".join(text[i : i + width] for i in range(0, len(text), width))


def test_a_sheet_post_updates_the_named_fields_and_keeps_the_rest() -> None:
    state, _ = play(start(), SHEET, JAY)
    state, answer = play(state, "【キャラシート】\n名前: ジェイ\n肉体: 7", JAY)
    jay = state.sheets["ジェイ"]
    assert (
        jay.race == "人間"
        and jay.classes == ["ナイト", "メイジ"]
        and [s.name for s in jay.skills] == ["スラッシュ"]
    )
    assert jay.stats["肉体"] == 7 and jay.stats["行動値"] == 9 and jay.hp == 20
    assert "キャラシートを更新しました：ジェイ（◆JAY）— 肉体" in answer.plain
    _, answer = play(state, "シート確認", JAY)
    assert "違反なし" in answer.plain


def test_an_npc_belongs_to_the_gm() -> None:
    """The adversarial run replaced the boss's sheet (HP 80 → 1) with a sheet named after it."""
    state = start()
    for body in (
        "【キャラシート】\n名前: クロウ\nHP: 1",
        json.dumps({"kind": "character", "data": {"name": "クロウ"}}),
    ):
        after, answer = play(state, body, JAY)
        assert "クロウはNPCです。NPCのシートはGMだけが貼れます" in answer.plain
        assert after.sheets["クロウ"].hp == 30
    after, answer = play(state, "【キャラシート】\n名前: クロウ\nHP: 80", GM)
    assert after.sheets["クロウ"].hp == 80 and after.sheets["クロウ"].npc
    _, answer = play(state, "【キャラシート】\n名前: ガロ\nNPC: はい", JAY)
    assert "NPC の項目はGMだけが書けます" in answer.plain
    after, _ = play(state, "【キャラシート】\n名前: ガロ\nNPC: はい\nHP: 40", GM)
    assert after.sheets["ガロ"].npc and after.sheets["ガロ"].owner == ""


def test_the_owner_is_fixed_by_the_first_sheet_and_only_the_gm_replaces_it() -> None:
    state, _ = play(start(), SHEET, JAY)
    _, answer = play(state, SHEET, YUI)
    assert "ジェイは別のトリップのキャラクターです" in answer.plain
    _, answer = play(state, SHEET + "\nPL: ◆YUI", JAY)
    assert "PL の項目はGMだけが書けます" in answer.plain
    state, answer = play(state, "【キャラシート】\n名前: ジェイ\nPL: ◆NEWJAY", GM)
    assert state.sheets["ジェイ"].owner == "◆NEWJAY" and state.sheets["ジェイ"].hp == 20


def test_a_re_post_mid_session_changes_only_what_the_gm_allows() -> None:
    """Re-posting one's sheet mid-battle reset HP 2 → 10 and BP 2 → 17, and lifted an emotion to 4."""
    state, _ = play(start(), SHEET, JAY)
    state, _ = play(state, "ダメージ ジェイ 18", GM)
    assert state.sheets["ジェイ"].hp == 2 and state.sheets["ジェイ"].locked
    body = (
        SHEET.replace("HP: 20", "HP: 99").replace("アキラ/友情/3", "アキラ/友情/9")
        + "\n所持金: 500\n種族: 獣人"
    )
    state, answer = play(state, body, JAY)
    jay = state.sheets["ジェイ"]
    assert (jay.hp, jay.strength_to("アキラ"), jay.money, jay.race) == (2, 3, 0, "獣人")
    assert "変更しなかった項目：HP、コネクション、所持金" in answer.plain
    # a scenario PC is locked from the start: its owner cannot lift an emotion to unlock a handout
    state, answer = play(start(), "【キャラシート】\n名前: ケン\nコネクション: アキラ/尊敬/4\nMP: 99", KEN)
    assert state.sheets["ケン"].strength_to("アキラ") == 2 and state.sheets["ケン"].mp == 10
    # the GM changes anything
    state, _ = play(state, "【キャラシート】\n名前: ケン\nMP: 12", GM)
    assert state.sheets["ケン"].mp == 12


def test_sheet_breaches_that_break_play_are_refused() -> None:
    """HP −5 and an emotion of 999 spent as BP were listed as breaches but played on."""
    for line, why in (
        ("HP: -5", "HPは0以上です"),
        ("HP: 30/20", "HPが最大を超えています"),
        ("コネクション: ユイ/愛/999", "ユイへの感情の強度は0～10点です"),
        ("MP: -1", "MPは0以上です"),
    ):
        state, answer = play(start(), SHEET + "\n" + line, JAY)
        assert "ジェイ" not in state.sheets and why in answer.plain, (line, answer.plain)
    body = SHEET + "\nコネクション: ユイ/愛/10\nコネクション: ケン/愛/10"
    state, answer = play(start(), body, JAY)
    assert "感情の強度の合計上限値は21です（23）" in answer.plain and "ジェイ" not in state.sheets
    state, _ = play(start(), SHEET, JAY)
    _, answer = play(state, "BP消費 9 アキラ", JAY)
    assert "強度は3点です" in answer.plain


def test_a_ccfolia_json_split_over_lines_is_read_with_its_initiative() -> None:
    """The clipboard JSON is one line, which a board refuses: split anywhere (inside strings too)."""
    text = json.dumps(CCFOLIA, ensure_ascii=False)
    assert len(text) > 256
    for width in (3, 40, 77, 200):  # 3: even 「"kind"」 is cut
        state, answer = play(start(), split(text, width), "ミオの中の人◆MIO")
        mio = state.sheets["ミオ"]
        assert (mio.hp, mio.hp_max, mio.stats["反射"], mio.stats["行動値"]) == (18, 25, 9, 11), width
        assert mio.other == {"肉体": 1} and mio.race_stats == {"肉体": 3}
    state, answer = play(state, "戦闘開始 ミオ", GM)
    assert "ミオ11" in answer.plain and "次の手番：ミオ" in answer.plain


def test_import_character_prints_posts_the_board_takes_and_the_thread_reads() -> None:
    out = RULESET.import_character(json.dumps(CCFOLIA, ensure_ascii=False), "")
    post = out.split("\n\n")[0]
    lines = post.split("\n")
    assert lines[:2] == ["【キャラシート】", "名前: ミオ"] and "行動値: 11" in lines
    assert len(lines) <= 24 and max(map(len, lines)) <= 256 and len(post) <= 2048
    state, _ = play(start(), post, "ミオの中の人◆MIO")
    assert state.sheets["ミオ"].stats["行動値"] == 11 and state.sheets["ミオ"].other == {"肉体": 1}
    gm_post = RULESET.import_character(json.dumps(CCFOLIA, ensure_ascii=False), "◆MIO").split("\n\n")[0]
    state, _ = play(start(), gm_post, GM)
    assert state.sheets["ミオ"].owner == "◆MIO"


def test_combat_without_initiative_says_who_lacks_it_and_never_none() -> None:
    state, _ = play(start(), "【キャラシート】\n名前: ジェイ\nHP: 10", JAY)
    state, answer = play(state, "戦闘開始 ジェイ", GM)
    assert "誰も行動できません" not in answer.plain and "行動値" in answer.plain
    _, answer = play(state, "サブ移動", JAY)
    assert "None" not in answer.plain


def test_down_is_kept_by_a_re_post() -> None:
    state, _ = play(start(), SHEET, JAY)
    state, _ = play(state, "ダメージ ジェイ 30", GM)
    state, _ = play(state, SHEET, JAY)
    assert state.sheets["ジェイ"].down and state.sheets["ジェイ"].hp == 0, DOWN
    state, answer = play(state, "肉体判定", JAY)
    assert "判定できません" in answer.plain


def test_a_player_registers_one_pc_the_gm_any() -> None:
    state, _ = play(start(), SHEET, JAY)
    _, answer = play(state, SHEET.replace("名前: ジェイ", "名前: ジェイ2"), JAY)
    assert "あなたのPCはもういます（ジェイ）" in answer.plain
    state, _ = play(state, SHEET.replace("名前: ジェイ", "名前: ジェイ2") + "\nPL: ◆JAY", GM)
    assert state.sheets["ジェイ2"].owner == "◆JAY"
    _, answer = play(state, "ジェイ2: 肉体判定", JAY, [(6, 1)] * 3)
    assert "ジェイ2の肉体判定" in answer.plain


def test_a_long_import_is_split_into_posts_the_board_takes_and_together_make_the_sheet() -> None:
    params = [
        {"label": stat, "value": str(n)} for n, stat in enumerate(("肉体", "集中", "反射", "知識", "幸運"), 3)
    ]
    params += [{"label": f"{stat}ボーナス", "value": "1"} for stat in ("肉体", "集中")]
    params += [{"label": f"種族:{stat}", "value": "2"} for stat in ("肉体", "集中", "反射", "知識", "幸運")]
    data = {"name": "ロン", "initiative": 7, "params": params}
    data["status"] = [{"label": "HP", "value": 20, "max": 24}, {"label": "MP", "value": 5}]
    data["params"] += [{"label": f"メモ{i}", "value": "x"} for i in range(40)]  # not read: listed
    out = RULESET.import_character(json.dumps({"kind": "character", "data": data}, ensure_ascii=False), "")
    posts = [part for part in out.split("\n\n") if part.startswith("【キャラシート】")]
    assert posts and all(len(p.split("\n")) <= 24 and len(p) <= 2048 for p in posts)
    state = start()
    for post in posts:
        state, _ = play(state, post, "ロンの中の人◆RON")
    ron = state.sheets["ロン"]
    assert (ron.stats["肉体"], ron.stats["幸運"], ron.stats["行動値"], ron.hp, ron.hp_max) == (
        3,
        7,
        7,
        20,
        24,
    )
    assert ron.bonus == {"肉体": 1, "集中": 1} and ron.race_stats["知識"] == 2
    assert "メモ0" in out


def test_sheet_posts_split_long_sheets_under_the_limits() -> None:
    from engine.rules.dystopia.sheets import sheet_posts

    skills = [f"スキル: 技{i}/近接/メインアクション/単体/武器/1MP/1/SL1/ナイト" for i in range(15)]
    items = [f"アイテム: 薬{i} 1" for i in range(15)]
    posts = sheet_posts(
        ["名前: ロン", "CL: 1", *skills, *items], max_lines=24, max_columns=256, max_chars=2048
    )
    assert len(posts) == 2 and all(p.startswith("【キャラシート】\n名前: ロン\n") for p in posts)
    assert all(len(p.split("\n")) <= 24 for p in posts)
    state = start()
    for post in posts:  # each post's スキル (or アイテム) lines are all of them: nothing is lost
        state, _ = play(state, post, "ロンの中の人◆RON")
    assert len(state.sheets["ロン"].skills) == 15 and len(state.sheets["ロン"].items) == 15


def test_a_ccfolia_update_keeps_race_classes_and_skills() -> None:
    """Split by hand, the JSON went through but replaced the sheet, wiping 種族, クラス and skills
    (シート確認 then listed 違反3件)."""
    state, _ = play(start(), SHEET, JAY)
    update = {
        "kind": "character",
        "data": {"name": "ジェイ", "initiative": 10, "params": [{"label": "肉体", "value": "6"}]},
    }
    state, answer = play(state, split(json.dumps(update, ensure_ascii=False), 30), JAY)
    jay = state.sheets["ジェイ"]
    assert (
        jay.race == "人間"
        and jay.classes == ["ナイト", "メイジ"]
        and [s.name for s in jay.skills] == ["スラッシュ"]
    )
    assert jay.stats["行動値"] == 10 and "キャラシートを更新しました：ジェイ（◆JAY）— 行動値" in answer.plain
    _, answer = play(state, "シート確認", JAY)
    assert "違反なし" in answer.plain


def test_a_player_with_a_pc_cannot_claim_another_unowned_one() -> None:
    state = RULESET.initial_state(RULESET.read_scenario(RULESET.template() or ""))
    state.committed = True  # the opening's commitments are not what this test is about
    state, _ = play(state, "【キャラシート】\n名前: アキラ", JAY)
    assert state.sheets["アキラ"].owner == "◆JAY"
    state, answer = play(state, "【キャラシート】\n名前: ユイ", JAY)
    assert "あなたのPCはもういます（アキラ）" in answer.plain and state.sheets["ユイ"].owner == ""


def test_a_name_the_grammar_cannot_address_is_refused() -> None:
    """「名前: 肉体判定」 reads a name of up to 24 characters without spaces: a sheet named otherwise
    could never be played or targeted."""
    for name in ("ジェイ ソン", "ア" * 25, "ジェ:イ"):
        state, answer = play(start(), f"【キャラシート】\n名前: {name}", JAY)
        assert "名前は空白と「:」のない24文字までです" in answer.plain and len(state.sheets) == 4, name


def test_a_sheet_the_gm_posted_is_locked_like_the_scenarios() -> None:
    state, _ = play(start(), SHEET + "\nPL: ◆JAY", GM)
    state, answer = play(state, "【キャラシート】\n名前: ジェイ\nHP: 99\nコネクション: アキラ/友情/9", JAY)
    assert state.sheets["ジェイ"].hp == 20 and "変更しなかった項目：HP、コネクション" in answer.plain


def test_a_sheet_that_made_a_check_is_in_play() -> None:
    state, _ = play(start(), SHEET, JAY)
    state, _ = play(state, "肉体判定", JAY, [(6, 1)] * 3)
    state, answer = play(state, "【キャラシート】\n名前: ジェイ\n肉体: 12", JAY)
    assert state.sheets["ジェイ"].stats["肉体"] == 6 and "変更しなかった項目：肉体" in answer.plain
