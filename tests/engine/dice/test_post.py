from __future__ import annotations

from pathlib import Path

import pytest

from engine.dice.post import (
    IGNORED,
    MAX_COMMANDS,
    MAX_REPLY_CHARS,
    SECRET_NOTE,
    TABLE_DICE,
    answer_post,
    roll_command,
)
from engine.report import Blank, Heading, Section, Strong
from engine.rng import DiceError, RecordedDice, RecordedSource, SeededSource
from tests.conftest import FIXTURES, shared_path

TABLES = FIXTURES / "dice_tables"

# Each seed-000 table: its name, its die, and the outcome of every face, as the seed lists them.
SEED_TABLES: dict[str, tuple[str | None, int, dict[int, str]]] = {
    "03_sentou_houshin.txt": ("戦闘方針ダイス", 3, {1: "正面", 2: "正面", 3: "奇襲"}),
    "04_tsujou_sentou.txt": (
        "通常戦闘ダイス",
        5,
        {1: "勝利", 2: "敗北", 3: "逃走", 4: "手を組む", 5: "相打ち"},
    ),
    "05_kishuu_hantei.txt": ("奇襲判定ダイス", 2, {1: "成功", 2: "失敗"}),
    "06_kishuusha_yuuri.txt": (
        "奇襲者（被奇襲者）有利ダイス",
        8,
        {1: "勝利", 2: "勝利", 3: "勝利", 4: "勝利", 5: "敗北", 6: "敗北", 7: "手を組む", 8: "逃走"},
    ),
    "07_dantaisen_sentou_shouri_plus1.txt": (
        "＜団体戦用＞戦闘ダイス",
        6,
        {1: "勝利", 2: "勝利", 3: "敗北", 4: "逃走", 5: "手を組む", 6: "相打ち"},
    ),
    "08_dantaisen_sentou_haiboku_plus1.txt": (
        "＜団体戦用＞戦闘ダイス",
        6,
        {1: "勝利", 2: "敗北", 3: "敗北", 4: "逃走", 5: "手を組む", 6: "相打ち"},
    ),
    "09_dantaisen_kishuusha_yuuri_shouri_plus1.txt": (
        "＜団体戦用＞奇襲者（被奇襲者）有利ダイス",
        9,
        {
            1: "勝利",
            2: "勝利",
            3: "勝利",
            4: "勝利",
            5: "勝利",
            6: "敗北",
            7: "敗北",
            8: "手を組む",
            9: "逃走",
        },
    ),
    "10_dantaisen_kishuusha_yuuri_haiboku_plus1.txt": (
        "＜団体戦用＞奇襲者（被奇襲者）有利ダイス",
        9,
        {
            1: "勝利",
            2: "勝利",
            3: "勝利",
            4: "勝利",
            5: "敗北",
            6: "敗北",
            7: "敗北",
            8: "手を組む",
            9: "逃走",
        },
    ),
    "11_dantai_datsuraku_hantei.txt": ("＜団体用＞脱落判定ダイス", 2, {1: "いる", 2: "いない"}),
    "12_dantai_tousou_hantei.txt": ("＜団体用＞逃走判定ダイス", 2, {1: "成功", 2: "失敗"}),
    "13_futarigumi_haibokugo.txt": ("＜二人組用＞敗北後ダイス", 3, {1: "生存", 2: "死亡", 3: "手を組む"}),
    "14_nakamaware_hantei.txt": (
        "仲間割れ判定ダイス",
        3,
        {1: "戦闘", 2: "手を組む", 3: "都道府県選択ダイスの振り直し"},
    ),
    "15_nakamaware_sentougo.txt": ("仲間割れ戦闘後ダイス", 2, {1: "団体行動続行", 2: "団体の解散"}),
    "16_chiku_fukkatsu.txt": (None, 5, {1: "失敗", 2: "失敗", 3: "失敗", 4: "失敗", 5: "成功"}),
}


def post(body: str, *faces: tuple[int, int]):
    return answer_post(body, RecordedSource({"0": faces}))


def seed_cases() -> list:
    return [
        pytest.param(name, face, outcome, id=f"{name}-{face}")
        for name, (_, _, outcomes) in SEED_TABLES.items()
        for face, outcome in outcomes.items()
    ]


def test_every_seed_table_has_a_fixture() -> None:
    files = sorted(path.name for path in TABLES.glob("*.txt"))
    assert files == sorted([*SEED_TABLES, "01_todofuken_sentaku.txt", "02_taisen_todofuken_sentaku.txt"])


@pytest.mark.parametrize(("name", "face", "outcome"), seed_cases())
def test_seed_table_face(name: str, face: int, outcome: str) -> None:
    title, sides, _ = SEED_TABLES[name]
    answer = post((TABLES / name).read_text(encoding="utf-8"), (sides, face))
    (answered,) = answer.blocks
    rolled = answered.blocks[-1]
    assert rolled.plain == f"dice1d{sides}={face} ({face}) ＞ {outcome}"
    assert rolled.spans[-1] == Strong(outcome)
    if title is not None:
        assert answered.blocks[0] == Heading(title)


@pytest.mark.parametrize(
    ("name", "count"), [("01_todofuken_sentaku.txt", 2), ("02_taisen_todofuken_sentaku.txt", 1)]
)
def test_seed_selection_dice_are_named_rolls(name: str, count: int) -> None:
    faces = [(47, face) for face in (47, 3)[:count]]
    answer = post((TABLES / name).read_text(encoding="utf-8"), *faces)
    shown = " ".join(str(face) for _, face in faces)
    expected = f"dice{count}d47={shown} ({sum(face for _, face in faces)})"
    assert answer.plain.split("\n")[1] == expected


def test_seed_notes_are_echoed_with_the_reference_prefecture() -> None:
    body = (TABLES / "07_dantaisen_sentou_shouri_plus1.txt").read_text(encoding="utf-8")
    answer = post(body.replace("基準『』", "基準『東京』"), (6, 6))
    assert answer.plain.split("\n") == [
        "【＜団体戦用＞戦闘ダイス】",
        "基準『東京』",
        "基準側の人数が多い為、勝利＋1",
        "dice1d6=6 (6) ＞ 相打ち",
    ]


def test_named_rolls_answer_any_command_under_their_name() -> None:
    assert post("【行き先】\nchoice[東京,大阪]", (2, 1)).plain == "【行き先】\n(choice[東京,大阪]) ＞ 東京"
    secret = post("【内緒】\nS1D6", (6, 4))
    assert secret.plain == f"【内緒】\nS1D6 ＞ {SECRET_NOTE}"
    assert secret.meta["secret"] == {0: "【内緒】\n(1D6) ＞ 4"}
    assert post("【無効】\n0TY6") is None


def test_bbs_dice_reply() -> None:
    assert post("dice2d47=", (47, 12), (47, 35)).plain == "dice2d47=12 35 (47)"
    assert post("ｄｉｃｅ１ｄ６＝ お願いします", (6, 4)).plain == "dice1d6=4 (4)"


def test_bbs_and_bcdice_errors_are_answered_with_reasons() -> None:
    assert post("dice11d6=").plain == "dice11d6= ＞ ダイスは10個まで、面数は1～9999までです"
    huge = "dice" + "9" * 4400 + "d6="  # a count of 4,400 digits is told the range, not ignored
    assert post(huge).plain == "dice99999999999999999999…999d6= ＞ ダイスは10個まで、面数は1～9999までです"
    assert post("dice2d99999999999999999999=").plain.endswith("＞ ダイスは10個まで、面数は1～9999までです")
    assert "ダイスが多すぎます" in post("10001D6").plain


@pytest.mark.parametrize(
    ("command", "faces", "answer", "written"),
    [
        (
            "2D6 >= 7",
            ((6, 2), (6, 3)),
            "(2D6) ＞ 5[2,3] ＞ 5",
            "「>= 7」は式に入れていません。2D6>=7 のように",
        ),
        (
            "3d6 + 1",
            ((6, 1), (6, 1), (6, 1)),
            "(3D6) ＞ 3[1,1,1] ＞ 3",
            "「+ 1」は式に入れていません。3D6+1 のように",
        ),
        (
            "１Ｄ１００　＜＝　５０",
            ((100, 7),),
            "(1D100) ＞ 7",
            "「<= 50」は式に入れていません。1D100<=50 のように",
        ),
    ],
)
def test_a_comparison_or_sum_written_after_a_space_is_rolled_without_it_and_said(
    command: str, faces: tuple, answer: str, written: str
) -> None:
    """BCDice reads a command up to its first space, so `2D6 >= 7` is 2D6 alone: the answer is the
    same, and says what was left out and how to write it, instead of a roll the player misreads."""
    rolled = post(command, *faces).plain.split("\n")
    assert rolled[0] == answer and written in rolled[1] and "続けて書いてください" in rolled[1]


@pytest.mark.parametrize(
    ("command", "faces"),
    [
        ("1D100 ここで判定", ((100, 1),)),
        ("2d6 1回目", ((6, 1), (6, 1))),
        ("choice[東京,大阪] >1", ((2, 1),)),
        ("2D6>=7 成功", ((6, 1), (6, 1))),
    ],
)
def test_a_remark_after_a_command_draws_no_note(command: str, faces: tuple) -> None:
    assert "式に入れていません" not in post(command, *faces).plain


def test_commands_in_reading_order_each_with_its_own_stream() -> None:
    source = RecordedSource({"0": [(6, 1), (6, 2)], "1": [(2, 2)], "2": [(6, 6)]})
    answer = answer_post("　２Ｄ６＞＝７ 判定\n> 1D6 引用\nchoice[東京,大阪]\n\ndice1d6=", source)
    assert answer.plain == "(2D6>=7) ＞ 3[1,2] ＞ 3 ＞ 失敗\n(choice[東京,大阪]) ＞ 大阪\ndice1d6=6 (6)"
    assert all(isinstance(block, Section) for block in answer.blocks)


def test_streams_are_recomputable_from_the_key() -> None:
    body = "2D6\nchoice[a,b,c]\ndice3d6="
    key = b"k" * 32
    once = answer_post(body, SeededSource(key)).plain
    assert answer_post(body, SeededSource(key)).plain == once
    # The answer is the key's: other keys give other answers (an answer that ignored the key would not).
    others = {answer_post(body, SeededSource(bytes([n]) * 32)).plain for n in range(8)}
    assert len(others | {once}) > 1
    # ... and it is exactly what the published streams give, face for face.
    expected = [SeededSource(key).stream(str(index)) for index in range(3)]
    two = [expected[0].roll(6), expected[0].roll(6)]
    assert once.startswith(f"(2D6) ＞ {sum(two)}[{two[0]},{two[1]}] ＞ {sum(two)}\n")
    third = [expected[2].roll(6) for _ in range(3)]
    assert once.endswith(f"dice3d6={third[0]} {third[1]} {third[2]} ({sum(third)})")


def test_posts_without_commands_get_nothing() -> None:
    assert answer_post("こんにちは\n3人で行く\n>2D6", SeededSource(b"k")) is None
    assert answer_post("0TY6", SeededSource(b"k")) is None


def test_thousands_of_commands_are_answered_up_to_the_limit() -> None:
    purposes: list[str] = []

    class Counting:
        def stream(self, purpose: str):
            purposes.append(purpose)
            return RecordedDice([(6, 1)])

    answer = answer_post("\n".join(["1D6"] * 5000), Counting())
    assert purposes == [str(i) for i in range(MAX_COMMANDS)]
    lines = answer.plain.split("\n")
    assert lines == ["(1D6) ＞ 1"] * MAX_COMMANDS + [IGNORED]


def test_secret_results_stay_out_of_the_report() -> None:
    source = RecordedSource({"0": [(6, 5), (6, 4)], "1": [(6, 3)]})
    answer = answer_post("S2D6 内緒\n1D6", source)
    assert answer.plain == f"S2D6 ＞ {SECRET_NOTE}\n(1D6) ＞ 3"
    assert answer.meta["secret"] == {0: "(2D6) ＞ 9[5,4] ＞ 9"}
    assert "9[5,4]" not in answer.plain


def test_secret_table_hides_the_outcome_too() -> None:
    answer = post("【判定】\nS1D2\n1:成功\n2:失敗", (2, 2))
    assert answer.plain == f"【判定】\nS1D2 ＞ {SECRET_NOTE}"
    assert answer.meta["secret"] == {0: "【判定】\n(1D2) ＞ 2 ＞ 失敗"}


def test_bcdice_table_commands_and_d66_tables() -> None:
    assert post("1D5\n1～4.失敗\n5.成功", (5, 5)).plain == "(1D5) ＞ 5 ＞ 成功"
    assert post("2D6+1\n3-7:低い\n8-13:高い", (6, 6), (6, 6)).plain == "(2D6+1) ＞ 12[6,6]+1 ＞ 13 ＞ 高い"
    d66 = "D66A\n" + "\n".join(f"{a}{b}:{a}と{b}" for a in range(1, 7) for b in range(a, 7))
    assert post(d66, (6, 5), (6, 2)).plain == "(D66A) ＞ 25 ＞ 2と5"


def test_broken_tables_name_the_faces_and_roll_nothing() -> None:
    # No recorded faces: any roll would raise DiceError.
    empty = RecordedSource({"0": []})
    body = "【壊れた表】\ndice1d8=\n1～4.勝利\n4～6.敗北\n9.逃走"
    assert answer_post(body, empty).plain == (
        "【壊れた表】\n表を振れません：出目7～8に当たる結果がありません。"
        "出目4の結果が重複しています。出目9はこのダイスでは出ません"
    )
    assert "「3～1」は範囲が逆です" in answer_post("dice1d3=\n3～1.x", empty).plain
    assert answer_post("【選択】\nchoice[a,b]\n1.a\n2.b", empty).plain == f"【選択】\n{TABLE_DICE}"
    with pytest.raises(DiceError):
        answer_post("dice1d2=\n1.a\n2.b", empty)


def test_very_long_answers_are_cut_and_say_so() -> None:
    body = "x100 choice[" + ",".join(f"item{n}" for n in range(99)) + "]"
    answer = answer_post(body, SeededSource(b"k"))
    assert len(answer.plain) <= MAX_REPLY_CHARS + 40
    assert answer.plain.endswith("文字）") and "長いため以下省略" in answer.plain
    assert answer.plain.startswith("#1\n(choice[item0,")


def test_repeat_answers_keep_their_blank_lines() -> None:
    answer = post("x2 1D6", (6, 1), (6, 2))
    (answered,) = answer.blocks
    assert answered.blocks[2] == Blank()
    assert answer.plain == "#1\n(1D6) ＞ 1\n\n#2\n(1D6) ＞ 2"


def test_roll_command_answers_bcdice_then_bbs() -> None:
    assert roll_command("2D6", RecordedDice([(6, 1), (6, 2)])).text == "(2D6) ＞ 3[1,2] ＞ 3"
    bbs = roll_command("dice2d6=", RecordedDice([(6, 1), (6, 2)]))
    assert (bbs.text, bbs.rolls, bbs.total) == ("dice2d6=1 2 (3)", ((6, 1), (6, 2)), 3)
    assert roll_command("dice0d6=", RecordedDice([])).refused
    assert roll_command("こんにちは", RecordedDice([])) is None


def test_fixture_files_are_the_seed_text() -> None:
    seed = shared_path("seeds", "000_24cf679c072211d1.txt").read_text(encoding="utf-8")
    files = sorted(Path(TABLES).glob("*.txt"))
    assert len(files) == len(SEED_TABLES) + 2  # every table of the seed, and the two prefecture lists
    for path in files:
        assert path.read_text(encoding="utf-8") in seed + "\n", path.name


def test_one_post_cannot_make_the_bot_post_dozens_of_times() -> None:
    from poster.markup import render_posts

    flood = "\n".join(["x100 10D100"] * 24)
    answer = answer_post(flood, SeededSource(b"k" * 32))
    assert answer is not None
    assert "振りませんでした（1レスへの答えは48行・4000文字まで）" in answer.plain
    assert "ここまでにしました" in answer.plain
    assert len(render_posts([answer])) <= 3  # was 91 posts
    table = "\n".join(["2D6"] * 20)  # a real table's busiest post is answered whole
    whole = answer_post(table, SeededSource(b"k" * 32))
    assert whole is not None and "振りませんでした" not in whole.plain and whole.plain.count("(2D6)") == 20


def test_one_post_rolls_at_most_its_dice_budget() -> None:
    from engine.dice.post import MAX_POST_DICE

    class Counting:
        rolled = 0

        def stream(self, purpose: str) -> Counting:
            return self

        def roll(self, sides: int) -> int:
            Counting.rolled += 1
            return 1

    answer = answer_post("1D6\nx100 100D1000\n2D6", Counting())  # 10,000 dice in the middle line
    assert answer is not None
    assert Counting.rolled == MAX_POST_DICE
    assert answer.plain.startswith("(1D6) ＞ 1")  # the command before is answered as usual
    assert (
        "ダイスが多すぎるため、2件目以降の2件は振りませんでした（1レスで振るダイスは1000個まで）"
        in answer.plain
    )
    assert "(2D6)" not in answer.plain and "#1" not in answer.plain
    Counting.rolled = 0
    whole = answer_post("x10 100D6", Counting())  # exactly the budget: every die rolled
    assert whole is not None and "多すぎる" not in whole.plain and Counting.rolled == MAX_POST_DICE


class _OneByOne:
    """The streams of `source` with only `roll`: what a post answers when no xDy is drawn whole."""

    def __init__(self, source: SeededSource) -> None:
        self.source = source

    def stream(self, purpose: str) -> _OneByOne:
        self.dice = self.source.stream(purpose)
        return self

    def roll(self, sides: int) -> int:
        return self.dice.roll(sides)


@pytest.mark.parametrize(
    "body",
    [
        "2D6\n1D100\n10D6+3\ndice3d47=\n2B6\nx3 2D6",
        "1D6\nx100 100D1000\n2D6",  # over the budget in the middle: the same refusal and the same rest
        "x10 100D6",  # exactly the budget
        "x9 100D6\n99D6\n2D6",  # the budget ends inside an xDy: that command is the one refused
    ],
)
def test_a_post_s_dice_drawn_whole_are_the_dice_drawn_one_by_one(body: str) -> None:
    key = bytes(range(32))
    batched = answer_post(body, SeededSource(key))
    one_by_one = answer_post(body, _OneByOne(SeededSource(key)))
    assert batched is not None and one_by_one is not None
    assert batched.plain == one_by_one.plain and batched.meta == one_by_one.meta
