"""The naval order grammar: the forms players type, rejections with reasons, and the GM's file forms."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rules.naval import grammar
from engine.rules.naval.grammar import (
    NavalOrder,
    NavalOrderError,
    RandomsFileError,
    find_naval_orders,
    parse_order,
    parse_orders_file,
    parse_randoms_file,
)


@pytest.mark.parametrize(
    "line",
    [
        "＜攻撃＞XYZ-F-B-01、UVW-CG-A-03",
        "<攻撃>XYZ-F-B-01、UVW-CG-A-03",
        "<攻撃>XYZ-F-B-01,UVW-CG-A-03",
        "＜攻撃＞XYZ-F-B-01，UVW-CG-A-03",
        "＜攻撃＞XYZ-F-B-01 UVW-CG-A-03",
        "＜攻撃＞ XYZ-F-B-01 、 UVW-CG-A-03 ",
        "　＜ 攻撃 ＞XYZ-F-B-01、UVW-CG-A-03",
        "＜攻撃＞ＸＹＺ－Ｆ－Ｂ－０１、ＵＶＷ－ＣＧ－Ａ－０３",
        "＜攻撃＞xyz-f-b-01、uvw-cg-a-03",
        "＜攻撃＞XYZーFーBー01、UVW−CG−A−03",
        "＜攻撃＞XYZ-F-B-01、UVW-CG-A-03　よろしくお願いします",
        "＜攻撃＞XYZ-F-B-01、UVW-CG-A-03。",  # a sentence's full stop
        "＜攻撃＞XYZ-F-B-01、UVW-CG-A-03！",
    ],
)
def test_attack_in_the_forms_players_type(line: str) -> None:
    order = parse_order(line)
    assert order == NavalOrder("attack", "XYZ-F-B-01", target="UVW-CG-A-03", raw=line)
    assert order.raw == line
    assert order.canonical == "＜攻撃＞XYZ-F-B-01、UVW-CG-A-03"


@pytest.mark.parametrize(
    "line",
    [
        "＜インターセプト＞ABC-F-A-03、XYZ-F-X-07",
        "<ｲﾝﾀｰｾﾌﾟﾄ>ABC-F-A-03,XYZ-F-X-07",
        "＜迎撃＞ABC-F-A-03、XYZ-F-X-07",
    ],
)
def test_interception(line: str) -> None:
    order = parse_order(line)
    assert isinstance(order, NavalOrder)
    assert (order.kind, order.unit, order.target) == ("intercept", "ABC-F-A-03", "XYZ-F-X-07")
    assert order.canonical == "＜インターセプト＞ABC-F-A-03、XYZ-F-X-07"


@pytest.mark.parametrize(
    ("line", "to_hex"),
    [
        ("＜移動＞ABC-DD-A-01、(5,6)", (5, 6)),
        ("＜移動＞ABC-DD-A-01、（５，６）", (5, 6)),
        ("<移動>ABC-DD-A-01 5,6", (5, 6)),
        ("＜移動＞ABC-DD-A-01、5、6", (5, 6)),
        ("＜移動＞ABC-DD-A-01、( 12 , 0 )", (12, 0)),
    ],
)
def test_move_to_a_hex(line: str, to_hex: tuple[int, int]) -> None:
    order = parse_order(line)
    assert isinstance(order, NavalOrder)
    assert (order.kind, order.unit, order.to_hex, order.target) == ("move", "ABC-DD-A-01", to_hex, None)
    assert order.canonical == f"＜移動＞ABC-DD-A-01、({to_hex[0]},{to_hex[1]})"


def test_move_to_a_base_island_or_carrier() -> None:
    to_island = parse_order("＜移動＞ABC-F-A-05、ＡＢＣ")
    to_carrier = parse_order("＜移動＞ABC-F-A-05、abc-cv-a-02")
    assert isinstance(to_island, NavalOrder) and isinstance(to_carrier, NavalOrder)
    assert (to_island.target, to_island.to_hex) == ("ABC", None)
    assert to_carrier.target == "ABC-CV-A-02"


@pytest.mark.parametrize(
    "line",
    [
        "攻撃するぞ",
        "次は＜攻撃＞するかも",
        "＞＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05",
        ">>12 了解です",
        "ABC-DD-A-01がやられた",  # units named with no order word (test_near_miss: with one)
        "ABC-DD-A-01とXYZ-DD-X-01が同じ海域にいる",
        "＞攻撃 ABC-DD-A-01 XYZ-DD-X-01",
        "移動は(5,6)まで",
        "",
    ],
)
def test_chat_lines_are_not_orders(line: str) -> None:
    assert parse_order(line) is None


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("＜攻撃＞", "＜攻撃＞の後に攻撃命令を与えるユニットと攻撃目標ユニットがありません"),
        ("＜攻撃＞ABC-DD-A-01", "「、」で区切って2つ書いてください"),
        ("＜攻撃＞ABC-DD-A-01、XYZ", "ユニット名「XYZ」の形式が違います"),
        ("＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05です", "ユニット名「XYZ-DD-X-05です」の形式が違います"),
        ("＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05、XYZ-DD-X-06", "1行に書ける命令は1つ"),
        ("＜攻撃＞ABC-DD-A-01 XYZ-DD-X-05 XYZ-DD-X-06", "1行に書ける命令は1つ"),
        ("＜攻撃＞ABC-DD-A-01、ABC-DD-A-01", "同じユニットABC-DD-A-01が2回指定されています"),
        ("＜インターセプト＞ABC-F-A-03", "迎撃する戦闘機と迎撃対象の戦闘機"),
        ("＜移動＞", "移動するユニットと移動先がありません"),
        ("＜移動＞ABC-DD-A-01", "移動先がありません"),
        ("＜移動＞ABC-DD-A-01、5", "移動先「5」が読めません"),
        ("＜移動＞ABC-DD-A-01、北へ", "移動先「北へ」が読めません"),
        ("＜移動＞ABC-DD-A-01、ABC-DD-A-01", "移動先に移動するユニット自身が指定されています"),
        ("＜移動＞駆逐艦、(1,2)", "ユニット名「駆逐艦」の形式が違います"),
    ],
)
def test_malformed_orders_are_rejected_with_a_reason(line: str, reason: str) -> None:
    rejection = parse_order(line)
    assert isinstance(rejection, NavalOrderError)
    assert reason in rejection.reason
    assert rejection.raw == line


def test_orders_in_a_post_body_keep_their_line() -> None:
    body = (
        "よろしく\n＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05\n＞＜攻撃＞ABC-DD-A-02、XYZ-DD-X-06\n＜攻撃＞ABC-DD-A-03"
    )
    found = find_naval_orders(body)
    assert len(found) == 2
    assert isinstance(found[0], NavalOrder) and found[0].unit == "ABC-DD-A-01"
    assert isinstance(found[1], NavalOrderError) and found[1].line == 4


def test_orders_file_with_the_seed_numbering_and_islands() -> None:
    text = (
        "# 第3ピリオド\n"
        "1.ABC:＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05\n"
        "\n"
        "２．ＸＹＺ：＜攻撃＞XYZ-F-X-07、ABC-DD-A-01\n"
        "ABC：＜インターセプト＞ABC-F-A-03、XYZ-F-X-07\n"
        "＜移動＞XYZ-DD-X-06、(4,4)\n"
    )
    orders = parse_orders_file(text)
    assert [(o.island, o.kind, o.unit) for o in orders if isinstance(o, NavalOrder)] == [
        ("ABC", "attack", "ABC-DD-A-01"),
        ("XYZ", "attack", "XYZ-F-X-07"),
        ("ABC", "intercept", "ABC-F-A-03"),
        (None, "move", "XYZ-DD-X-06"),
    ]
    assert orders[1].raw == "２．ＸＹＺ：＜攻撃＞XYZ-F-X-07、ABC-DD-A-01"


def test_orders_file_keeps_a_rejection_for_every_unreadable_line() -> None:
    orders = parse_orders_file(
        "ABC:＜攻撃＞ABC-DD-A-01\nABC:こんにちは\nABC:＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05\n"
    )
    assert [type(o) for o in orders] == [NavalOrderError, NavalOrderError, NavalOrder]
    first, second = orders[0], orders[1]
    assert isinstance(first, NavalOrderError) and isinstance(second, NavalOrderError)
    assert (first.island, first.line) == ("ABC", 1)
    assert "命令として読めません" in second.reason and second.line == 2


def test_randoms_file() -> None:
    text = "# 第3ピリオドの乱数\nABC: 50 60 80 51 33 90\nＸＹＺ：４５，１５、70\n[DEF] 100 1\n"
    assert parse_randoms_file(text) == {"ABC": [50, 60, 80, 51, 33, 90], "XYZ": [45, 15, 70], "DEF": [100, 1]}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ABC: 50 0", "乱数ファイル1行目：「0」は1～100の整数ではありません"),
        ("ABC: 50 101", "「101」は1～100の整数ではありません"),
        ("# 乱数\nABC: 50 x", "乱数ファイル2行目：「x」は1～100の整数ではありません"),
        ("ABC: 50\nABC: 60", "乱数ファイル2行目：島ABCの乱数が2回書かれています"),
        ("ABC:", "島ABCの乱数がありません"),
        ("50 60 70", "乱数ファイル1行目「50 60 70」が読めません"),
    ],
)
def test_randoms_file_errors_name_the_line(text: str, message: str) -> None:
    with pytest.raises(RandomsFileError) as error:
        parse_randoms_file(text)
    assert message in str(error.value)


def test_a_line_pasted_from_the_pages_table_keeps_its_order() -> None:
    (order,) = parse_orders_file("1.ABC:＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05　→''[ABC]の乱数A''")
    assert isinstance(order, NavalOrder)
    assert (order.island, order.unit, order.target) == ("ABC", "ABC-DD-A-01", "XYZ-DD-X-05")


# --- the one-match path of the ordinary line, against the general reading ---------------------------

_IDS = [
    "ABC-DD-A-01",
    "P0001-F-A-02",
    "abc-dd-a-01",
    "ＡＢＣ－ＤＤ－Ａ－０１",
    "ABCーDDーAー01",
    "ABC-DD-A-01X",
]
# An order line in slots (prefix, bracket, keyword, bracket, unit, separator, operand, trailing), each
# with the variants that make the general path read it otherwise or refuse it.
_SLOTS = [
    ["", "1.", "P0001:", "12.P0001:", " ", "p0001:", "　", "#", "1 . P0001 : ", "P0001-:"],
    ["<", "＜", "〈", "< "],
    ["攻撃", "インターセプト", "迎撃", "移動", "ｲﾝﾀｰｾﾌﾟﾄ", "攻撃\u3099", "攻 撃"],
    [">", "＞", " ＞ ", "》"],
    _IDS,
    ["、", ",", "，", " ", " 、 ", "、、", "", "\t", "･"],
    [*_IDS, "(5,6)", "(1000,0)", "(12345,1)", "(0005,12)", "ABC", "（５，６）", "(5、6)", "(5,6", "5,6"],
    ["", " ", "\t", "　", " 了解", "、XYZ-DD-X-05", "\u0301", "X", "\x85"],
]
_BASES = [
    ["P0001:", "＜", "攻撃", "＞", "ABC-DD-A-01", "、", "XYZ-DD-X-05", ""],
    ["", "<", "インターセプト", ">", "P0001-F-A-02", ",", "XYZ-F-X-07", ""],
    ["3.", "＜", "移動", "＞", "ABC-DD-A-01", "、", "(5,6)", ""],
]
# Free lines of the same pieces in any order and number (chat lines, two orders on a line...).
_LINES = st.lists(st.sampled_from(sorted({piece for slot in _SLOTS for piece in slot})), max_size=9).map(
    "".join
)
_ONE_SLOT_VARIED = [
    "".join([*base[:slot], variant, *base[slot + 1 :]])
    for base in _BASES
    for slot, variants in enumerate(_SLOTS)
    for variant in variants
]


def _assert_the_paths_agree(line: str) -> None:
    fast = grammar._fast_file_line(line)
    if fast is not None:
        assert fast == grammar._file_line(1, line)
    matched = grammar._FAST_ORDER.fullmatch(line)
    if matched is not None:
        read = grammar._fast_order(line, None, *matched.groups())
        if read is not None:
            assert read == grammar._parse_normalized(line, grammar.normalize(line))


@pytest.mark.parametrize("line", _ONE_SLOT_VARIED)
def test_the_one_match_reading_agrees_with_the_general_one(line: str) -> None:
    """Whatever the fast path reads, the general path reads the same (it leaves the rest alone)."""
    _assert_the_paths_agree(line)


@settings(max_examples=500, deadline=None)
@given(st.one_of(_LINES, st.tuples(*map(st.sampled_from, _SLOTS)).map("".join)))
def test_the_one_match_reading_agrees_on_any_line(line: str) -> None:
    _assert_the_paths_agree(line)


def test_the_ordinary_lines_of_a_big_period_take_the_one_match_path() -> None:
    lines = [
        "P0001:＜攻撃＞P0001-DD-A-01、Q0001-DD-A-01",
        "12.Q0001:<インターセプト>Q0001-F-A-01,P0001-F-A-02",
        "＜移動＞Q0001-CV-A-01、(7,2)",
    ]
    for line in lines:
        assert grammar._fast_file_line(line) == grammar._file_line(1, line)
        assert grammar._fast_file_line(line) is not None
    assert parse_orders_file("\n".join(lines)) == [grammar._file_line(1, line) for line in lines]
