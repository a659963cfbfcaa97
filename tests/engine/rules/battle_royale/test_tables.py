"""The dice tables of the 都道府県バトロワ against seed 000: names, sides, note lines and face → outcome."""

from __future__ import annotations

import re
import unicodedata

import pytest

from engine.rules.battle_royale import tables as t
from engine.rules.battle_royale.tables import same_prefecture
from tests.conftest import shared_path

SEED = ("seeds", "000_24cf679c072211d1.txt")


def outcomes(table: t.Table) -> list[str]:
    """The outcome of every face 1..sides, in order."""
    return [table.outcome(face) for face in range(1, table.sides + 1)]


@pytest.mark.parametrize(
    ("table", "name", "expected"),
    [
        (t.POLICY, "戦闘方針ダイス", ["正面", "正面", "奇襲"]),
        (t.NORMAL, "通常戦闘ダイス", ["勝利", "敗北", "逃走", "手を組む", "相打ち"]),
        (t.SURPRISE_CHECK, "奇襲判定ダイス", ["成功", "失敗"]),
        (
            t.SURPRISE_ADVANTAGE,
            "奇襲者（被奇襲者）有利ダイス",
            ["勝利"] * 4 + ["敗北"] * 2 + ["手を組む", "逃走"],
        ),
        (t.GROUP_BIGGER, "＜団体戦用＞戦闘ダイス", ["勝利", "勝利", "敗北", "逃走", "手を組む", "相打ち"]),
        (t.GROUP_SMALLER, "＜団体戦用＞戦闘ダイス", ["勝利", "敗北", "敗北", "逃走", "手を組む", "相打ち"]),
        (
            t.GROUP_SURPRISE_BIGGER,
            "＜団体戦用＞奇襲者（被奇襲者）有利ダイス",
            ["勝利"] * 5 + ["敗北"] * 2 + ["手を組む", "逃走"],
        ),
        (
            t.GROUP_SURPRISE_SMALLER,
            "＜団体戦用＞奇襲者（被奇襲者）有利ダイス",
            ["勝利"] * 4 + ["敗北"] * 3 + ["手を組む", "逃走"],
        ),
        (t.GROUP_DROPOUT_CHECK, "＜団体用＞脱落判定ダイス", ["いる", "いない"]),
        (t.GROUP_ESCAPE_CHECK, "＜団体用＞逃走判定ダイス", ["成功", "失敗"]),
        (t.PAIR_AFTER_LOSS, "＜二人組用＞敗北後ダイス", ["生存", "死亡", "手を組む"]),
        (t.INFIGHT, "仲間割れ判定ダイス", ["戦闘", "手を組む", "振り直し"]),
        (t.INFIGHT_AFTER, "仲間割れ戦闘後ダイス", ["団体行動続行", "団体の解散"]),
        (t.REVIVAL, "地区復活ダイス", ["失敗"] * 4 + ["成功"]),
    ],
)
def test_each_face_maps_to_the_seed_outcome(table: t.Table, name: str, expected: list[str]) -> None:
    assert table.name == name
    assert table.sides == len(expected)
    assert table.command == f"dice1d{len(expected)}="
    assert outcomes(table) == expected


def test_group_tables_carry_the_seed_note_lines() -> None:
    assert t.GROUP_BIGGER.note == t.GROUP_SURPRISE_BIGGER.note == "基準側の人数が多い為、勝利＋1"
    assert t.GROUP_SMALLER.note == t.GROUP_SURPRISE_SMALLER.note == "基準側の人数が少ない為、敗北＋1"
    assert "相打ち" not in outcomes(t.SURPRISE_ADVANTAGE) + outcomes(t.GROUP_SURPRISE_BIGGER)


def test_table_lines_use_the_seed_ranges() -> None:
    assert t.SURPRISE_ADVANTAGE.lines == ("1～4.勝利", "5～6.敗北", "7.手を組む", "8.逃走")
    assert t.INFIGHT.lines[2] == "3.都道府県選択ダイスの振り直し"
    with pytest.raises(ValueError, match="outside"):
        t.NORMAL.face(6)


def _seed_templates(text: str) -> list[tuple[str, str, int, list[tuple[int, int, str]]]]:
    """(name, note, sides, [(low, high, outcome)]) of every template in the seed's 使用ダイス一覧."""
    text = unicodedata.normalize("NFKC", text.split("使用ダイス一覧", 2)[2]).replace("〜", "~")
    found = []
    for block in re.split(r"\n(?=【)", text):
        head = re.match(r"【([^】]+)】", block)
        dice = re.search(r"dice1d(\d+)=", block)
        if not head or not dice:
            continue
        notes = [ln for ln in block.split("\n") if "+1" in ln]
        faces = [
            (int(a), int(b or a), o.strip())
            for a, b, o in re.findall(r"^(\d+)(?:~(\d+))?\.(.+)$", block, re.MULTILINE)
        ]
        if faces:  # the selection dice list the prefectures elsewhere (see the next test)
            found.append((head[1], notes[0] if notes else "", int(dice[1]), faces))
    return found


def test_tables_match_the_seed_dice_list() -> None:
    seed = shared_path(*SEED).read_text(encoding="utf-8")
    templates = _seed_templates(seed)
    assert len(templates) == 13  # every 1dN template of 使用ダイス一覧 (the two selection dice are 2d/1d47)
    for name, note, sides, faces in templates:
        ours = [
            table
            for table in t.SEED_TABLES
            if t.canonical_name(table.name) == t.canonical_name(name)
            and (not note or unicodedata.normalize("NFKC", table.note) == note)
        ]
        assert len(ours) == 1, (name, note)
        table = ours[0]
        assert table.sides == sides, name
        want = [(f.low, f.high, f.label or f.outcome) for f in table.faces]
        assert want == faces, name


def test_selection_dice_match_the_seed_commands() -> None:
    seed = shared_path(*SEED).read_text(encoding="utf-8")
    names = tuple(str(n) for n in range(1, 48))
    assert f"【{t.selection_table(names).name}】\n{t.selection_table(names).command}" in seed
    assert f"【{t.opponent_table(names).name}】\n{t.opponent_table(names).command}" in seed


def test_revival_die_matches_the_special_rule_text() -> None:
    seed = shared_path(*SEED).read_text(encoding="utf-8")
    section = seed.split("地区復活ダイス", 1)[1]
    assert "dice1d5=\n1〜4.失敗\n5.成功" in section
    assert [(f.low, f.high, f.outcome) for f in t.REVIVAL.faces] == [(1, 4, "失敗"), (5, 5, "成功")]


@pytest.mark.parametrize(
    ("surprise", "base", "opponent", "expected"),
    [
        (False, 1, 1, t.NORMAL),
        (False, 3, 3, t.NORMAL),  # 団体同士同数は【通常戦闘ダイス】
        (False, 2, 1, t.GROUP_BIGGER),  # 団体者が基準
        (False, 1, 2, t.GROUP_SMALLER),  # 単独者が基準
        (False, 4, 2, t.GROUP_BIGGER),  # 人数の多い方が基準
        (False, 2, 4, t.GROUP_SMALLER),  # 人数が少ない方が基準
        (True, 1, 1, t.SURPRISE_ADVANTAGE),
        (True, 2, 2, t.SURPRISE_ADVANTAGE),
        (True, 3, 1, t.GROUP_SURPRISE_BIGGER),
        (True, 1, 3, t.GROUP_SURPRISE_SMALLER),
    ],
)
def test_battle_table_follows_sides_and_policy(
    surprise: bool, base: int, opponent: int, expected: t.Table
) -> None:
    assert t.battle_table(surprise, base, opponent) is expected


def test_final_table_adds_one_defeat_per_prefecture_and_one_win_per_collaborator() -> None:
    table = t.final_table(3, 2)
    assert table.sides == 10
    assert outcomes(table) == ["勝利", "敗北", "逃走", "手を組む", "相打ち"] + ["敗北"] * 3 + ["勝利"] * 2
    assert table.lines[-2:] == ("6～8.敗北", "9～10.勝利")
    assert outcomes(t.final_table(1, 0)) == ["勝利", "敗北", "逃走", "手を組む", "相打ち", "敗北"]


def test_dynamic_tables_number_members_and_counts() -> None:
    pick = t.pick_table("pick", "脱落者決定ダイス", ("東京", "千葉", "埼玉"))
    assert pick.lines == ("1.『東京』", "2.『千葉』", "3.『埼玉』") and pick.outcome(2) == "千葉"
    count = t.count_table("loss_count", "x", 0, 3)
    assert count.sides == 4 and [f.label for f in count.faces] == ["0人", "1人", "2人", "3人"]
    select = t.selection_table(("北海道", "青森"))
    assert select.command == "dice2d2=" and select.outcome(2) == "青森"
    assert t.opponent_table(("北海道", "青森", "岩手")).command == "dice1d3="
    assert t.camp_table(5).outcome(4) == "4" and t.camp_table(5).face(4).label == "4人（協力者3人）"


def test_canonical_name_ignores_brackets_width_and_spaces() -> None:
    assert t.canonical_name("【＜団体戦用＞奇襲者（被奇襲者）有利ダイス】") == t.canonical_name(
        "<団体戦用>奇襲者(被奇襲者)有利ダイス"
    )
    assert t.canonical_name(" 通常戦闘ダイス ") == "通常戦闘ダイス"


def test_seed_note_lines_are_kept_word_for_word() -> None:
    seed = unicodedata.normalize("NFKC", shared_path(*SEED).read_text(encoding="utf-8"))
    for table in t.SEED_TABLES:
        if table.note:
            assert unicodedata.normalize("NFKC", f"【{table.name}】\n") in seed
            assert unicodedata.normalize("NFKC", table.note) in seed, table.name


@pytest.mark.parametrize(
    ("given", "name", "same"),
    [
        ("岩手県", "岩手", True),
        ("東京都", "東京", True),
        ("大阪府", "大阪", True),
        ("北海道", "北海道", True),
        ("岩手", "岩手県", True),
        ("岩手市", "岩手", False),
        ("宮城", "岩手", False),
        ("県", "", False),
    ],
)
def test_a_prefecture_is_named_with_or_without_its_suffix(given: str, name: str, same: bool) -> None:
    assert same_prefecture(given, name) is same
