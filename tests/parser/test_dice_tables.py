from __future__ import annotations

import pytest

from parser.bbs_dice import BbsDice, BbsDiceError
from parser.dice_tables import (
    BcdiceLine,
    DiceTable,
    Outcome,
    command_lines,
    find_post_dice,
    parse_outcome,
)


@pytest.mark.parametrize(
    ("text", "first", "last", "outcome"),
    [
        ("1.勝利", 1, 1, "勝利"),
        ("1～4.勝利", 1, 4, "勝利"),
        ("1〜4.失敗", 1, 4, "失敗"),
        ("5-6.敗北", 5, 6, "敗北"),
        ("7:手を組む", 7, 7, "手を組む"),
        ("１．勝利", 1, 1, "勝利"),
        ("２〜３：敗北", 2, 3, "敗北"),
        ("  8. 逃走 ", 8, 8, "逃走"),
        ("3:選ばれし者の知的飲料", 3, 3, "選ばれし者の知的飲料"),
        ("10－12、大成功", 10, 12, "大成功"),
        ("2)都道府県選択ダイスの振り直し", 2, 2, "都道府県選択ダイスの振り直し"),
    ],
)
def test_outcome_line_forms(text: str, first: int, last: int, outcome: str) -> None:
    assert parse_outcome(text, 4) == Outcome(first, last, outcome, 4)


@pytest.mark.parametrize(
    "text", ["1勝利", "基準『東京』", "1.", "1234567890.x", "勝利.1", "ダイスの目は1〜4が失敗"]
)
def test_not_outcome_lines(text: str) -> None:
    assert parse_outcome(text, 0) is None


def test_command_lines_take_a_leading_bcdice_command_and_any_bbs_dice() -> None:
    line = "  2D6 で判定 dice1d6="
    assert command_lines(line, 3) == [BcdiceLine("2D6 で判定 dice1d6=", 3), BbsDice(1, 6, 3)]
    assert command_lines("これは2D6です", 0) == []
    assert command_lines("3人で行く", 0) == []
    assert command_lines("ｄｉｃｅ１ｄ６＝", 2) == [BbsDice(1, 6, 2)]


def test_a_seed_table_is_one_item() -> None:
    body = "【通常戦闘ダイス】\n基準『東京』\ndice1d5=\n1.勝利\n2.敗北\n3.逃走\n4.手を組む\n5.相打ち"
    (table,) = find_post_dice(body)
    assert table == DiceTable(
        "通常戦闘ダイス",
        ("基準『東京』",),
        BbsDice(1, 5, 2),
        (
            Outcome(1, 1, "勝利", 3),
            Outcome(2, 2, "敗北", 4),
            Outcome(3, 3, "逃走", 5),
            Outcome(4, 4, "手を組む", 6),
            Outcome(5, 5, "相打ち", 7),
        ),
        0,
    )


def test_tables_split_at_blank_lines_and_at_new_names() -> None:
    body = "【A】\ndice1d2=\n1.x\n2.y\n【B】\n1D2\n1:p\n2:q\n\ndice1d2=\n1.s\n2.t"
    tables = find_post_dice(body)
    assert [t.name for t in tables] == ["A", "B", None]
    assert isinstance(tables[1].command, BcdiceLine)
    assert [o.text for o in tables[2].outcomes] == ["s", "t"]


def test_a_name_alone_makes_a_named_roll_and_its_trailing_text_is_read() -> None:
    assert find_post_dice("【都道府県選択ダイス】\ndice2d47=") == [
        DiceTable("都道府県選択ダイス", (), BbsDice(2, 47, 1), (), 0)
    ]
    (table,) = find_post_dice("【判定】基準『大阪』\n1D6")
    assert table.notes == ("基準『大阪』",)
    (inline,) = find_post_dice("【判定】1D6")
    assert inline.command == BcdiceLine("1D6", 0)


def test_blocks_with_several_commands_or_no_label_are_plain_commands() -> None:
    assert find_post_dice("dice1d6=\n2D6\n1.x\n2.y") == [BbsDice(1, 6, 0), BcdiceLine("2D6", 1)]
    assert find_post_dice("東京の番\ndice1d6=") == [BbsDice(1, 6, 1)]


def test_quoted_lines_are_never_commands_and_split_blocks() -> None:
    assert find_post_dice(">2D6\n＞dice1d6=\n>>3\n1D6") == [BcdiceLine("1D6", 3)]
    (table,) = find_post_dice("dice1d2=\n1.a\n2.b\n> 3.c")
    assert len(table.outcomes) == 2


def test_out_of_range_bbs_dice_are_kept_with_their_reason() -> None:
    (error,) = find_post_dice("dice11d6=")
    assert isinstance(error, BbsDiceError) and "10個まで" in error.reason


@pytest.mark.parametrize("line", ["dice1d6", "dice 1d6=", "ｄｉｃｅ１ｄ６", "DICE1D6 ＝", "  dice1 d 6  "])
def test_a_bbs_dice_written_nearly_on_its_own_line_says_how_to_write_it(line: str) -> None:
    """Seed 000: 「dice(数字1～10)d(数字1～9999)=」でダイスが振れます — a line of just `dice1d6` (the = left
    out, spaces put in) is told the form, not left silent."""
    (error,) = find_post_dice(line)
    assert isinstance(error, BbsDiceError)
    assert error.reason == "ダイスを振るには dice1d6= のように = まで続けて書いてください"


@pytest.mark.parametrize("line", ["dice2d\u1369=", "dice\u0663d6=", "dice2d\u0663", "dice 1 d \u1369 ="])
def test_a_bbs_dice_with_digits_of_another_script_says_how_to_write_it(line: str) -> None:
    """A digit NFKC leaves as it is (Ethiopic ፩, Arabic-Indic ٣; a board shows
    `&#4969;` as ፩) cannot be a count or a number of sides; the line is answered, not left silent."""
    (error,) = find_post_dice(line)
    assert isinstance(error, BbsDiceError)
    assert error.reason == "ダイスの個数と面数は数字（0～9）で書いてください（例: dice2d6=）"


@pytest.mark.parametrize("line", ["dice2d47で決めよう", "次はdice1d6かな", "dice"])
def test_dice_named_in_a_sentence_is_chat(line: str) -> None:
    assert find_post_dice(line) == []


@pytest.mark.parametrize(
    ("line", "joined"), [("2D6>= 7", "2D6>=7"), ("３ｄ６＋ １", "3D6+1"), ("1D100< 50 判定", "1D100<50")]
)
def test_a_bcdice_command_cut_by_a_space_after_its_operator_says_how_to_write_it(
    line: str, joined: str
) -> None:
    (error,) = find_post_dice(line)
    assert isinstance(error, BbsDiceError)
    assert error.reason == f"空白で式が切れています。{joined} のように続けて書いてください"


@pytest.mark.parametrize("line", ["あ= 1", "今日は雨> 3日目", "x= 5"])
def test_chat_with_an_operator_is_chat(line: str) -> None:
    assert find_post_dice(line) == []


def test_limit_stops_reading() -> None:
    body = "\n".join(["1D6"] * 5000)
    found = find_post_dice(body, limit=21)
    assert len(found) == 21 and found[-1] == BcdiceLine("1D6", 20)
