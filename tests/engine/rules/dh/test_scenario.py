"""The scenario TOML: the packaged example, the defaults, every problem named, and the state's JSON
round trip (before and after a phase)."""

from __future__ import annotations

import json
import tomllib

import pytest

from engine.config import untripped_seats
from engine.rng import SeededSource
from engine.rules.dh.ruleset import RULESET
from engine.rules.dh.state import COUNTER, FIELD, PASSIVE, Options
from engine.ruleset import Order, RulesetError
from tests.engine.rules.dh.helpers import ARENA, EXAMPLE, arena

MINIMAL = """
[[sides]]
name = "A"
[[sides]]
name = "B"
[[characters]]
name = "一"
side = "A"
square = "A1"
"""


def test_the_packaged_example_reads_with_every_power_style() -> None:
    state = RULESET.initial_state(RULESET.read_scenario(EXAMPLE.read_text("utf-8")))
    assert [side.name for side in state.sides] == ["生徒会", "番長グループ"]
    assert state.walls == ["A4", "C4", "E4"] and state.rows == "ABCDE" and state.columns == 7
    styles = {power.style for c in state.characters.values() for power in c.powers}
    assert {PASSIVE, COUNTER, FIELD, "active"} <= styles
    assert not state.characters["新入り"].starter and state.characters["新入り"].square is None
    assert state.reinforcements[0].turn == 2


def test_the_defaults_of_a_minimal_scenario() -> None:
    state = RULESET.initial_state(RULESET.read_scenario(MINIMAL))
    assert state.options == Options()
    assert state.walls == ["A4", "C4", "E4"] and state.phase == 1 and state.dp == {"A": 0, "B": 0}
    options = Options()
    assert (options.dp_per_kill, options.ally_death_mind, options.turn_limit, options.move) == (1, 1, 8, 2)
    assert (options.late_first, options.late_per_minute) == (1, 1)
    assert options.mental_rates == [100, 50, 25] and options.dying
    assert not (options.first_penalty or options.half_hit or options.sure_hit or options.zoc_cancels)


def test_the_first_side_may_be_named() -> None:
    state = RULESET.initial_state(RULESET.read_scenario('[game]\nfirst = "B"\n' + MINIMAL))
    assert state.acting.name == "B"


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (('name = "B"', 'name = "A"\n[[sides]]\nname = "C"'), "ちょうど2つ"),
        (('name = "B"', 'name = "A"'), "同じ名前"),
        (('square = "A1"', 'square = "A4"'), '初期配置 "A4" はMAPの外か壁'),
        (('square = "A1"', 'square = "F1"'), "MAPの外か壁"),
        (('side = "A"', 'side = "C"'), "陣営 C は sides にありません"),
        (('name = "一"', 'name = "一 二"'), "空白"),
    ],
)
def test_every_problem_is_named(change: tuple[str, str], reason: str) -> None:
    with pytest.raises(RulesetError, match=reason):
        RULESET.read_scenario(MINIMAL.replace(*change))


@pytest.mark.parametrize(
    ("power", "reason"),
    [
        ('style = "魔法"', "スタイルは"),
        ('range = "遠く"', "範囲"),
        ('target = "猫"', "対象"),
        ('effects = [{ kind = "爆発" }]', '効果 "爆発" はありません'),
        ('effects = [{ kind = "能力値増減", value = 1 }]', "stat"),
        ('costs = [{ kind = "お金", value = 1 }]', '消費制約 "お金"'),
        ('style = "カウンター"\ncounter = "いつでも"', "カウンター条件"),
        ('colour = "red"', "知らない項目"),
        ("activation = -5", "0以上の整数"),
    ],
)
def test_a_power_is_checked(power: str, reason: str) -> None:
    text = MINIMAL + f'[[characters.powers]]\nname = "技"\n{power}\n'
    with pytest.raises(RulesetError, match=reason):
        RULESET.read_scenario(text)


def test_two_starters_may_not_share_a_square_at_placement_and_names_are_unique() -> None:
    second = '[[characters]]\nname = "二"\nside = "B"\nsquare = "A1"\n'
    with pytest.raises(RulesetError, match="1マスに1人"):
        RULESET.read_scenario(MINIMAL + second)
    with pytest.raises(RulesetError, match="2人います"):
        RULESET.read_scenario(MINIMAL + second.replace("二", "一").replace("A1", "B1"))


def test_unknown_options_and_a_bad_toml_are_refused() -> None:
    with pytest.raises(RulesetError, match="知らない項目"):
        RULESET.read_scenario("[options]\nspeed = 3\n" + MINIMAL)
    with pytest.raises(RulesetError, match="TOML"):
        RULESET.read_scenario("[[sides]")
    with pytest.raises(RulesetError, match="ちょうど2つ"):
        RULESET.read_scenario('[[sides]]\nname = "A"\n')


def test_the_state_goes_through_json_and_back_before_and_after_a_phase() -> None:
    state = arena()
    data = RULESET.state_to_dict(state)
    assert RULESET.state_from_dict(json.loads(json.dumps(data, ensure_ascii=False))) == state
    orders = RULESET.read_orders(state, "アリス C3移動\nハナ 能力 対象はボブ")
    after, _ = RULESET.resolve(state, orders, SeededSource(b"k" * 32))
    again = RULESET.state_from_dict(json.loads(json.dumps(RULESET.state_to_dict(after))))
    assert again == after and after.phase == 2


def test_the_arena_of_the_case_files_is_a_valid_scenario() -> None:
    assert tomllib.loads(ARENA.read_text("utf-8"))["sides"][0]["name"] == "赤"


def test_the_stat_budget_when_the_campaign_sets_one() -> None:
    strong = MINIMAL.replace('square = "A1"', 'square = "A1"\nattack = 10\nhp = 5')
    assert RULESET.read_scenario(strong)  # no limit by default
    assert RULESET.read_scenario("[options]\nstat_budget = 15\n" + strong)
    with pytest.raises(RulesetError, match="ステータス合計15が上限14"):
        RULESET.read_scenario("[options]\nstat_budget = 14\n" + strong)


NFKC_NAMES = """
[[sides]]
name = "Ａ"
trips = ["◆AAAAAAAAAA"]
[[sides]]
name = "B"
[[characters]]
name = "ロボⅡ"
side = "A"
attack = 9
hp = 5
square = "C1"
[[characters.powers]]
name = "ビームⅡ"
effects = [{ kind = "体力ダメージ", value = 1 }]
[[characters]]
name = "ＫＡＩ"
side = "B"
square = "C2"
[[characters]]
name = "ｶｲ"
side = "B"
square = "C3"
"""


def test_names_that_nfkc_changes_are_kept_as_lines_read_them_so_they_can_be_ordered_and_targeted() -> None:
    """Issue 24: the grammar reads a line in NFKC, so a scenario name like ロボⅡ, ＫＡＩ or ｶｲ loaded
    as written could never be ordered or targeted."""
    state = RULESET.initial_state(RULESET.read_scenario(NFKC_NAMES))
    assert list(state.characters) == ["ロボII", "KAI", "カイ"]
    assert state.sides[0].name == "A" and state.characters["ロボII"].powers[0].name == "ビームII"
    author = "名無し◆AAAAAAAAAA"
    for line in ("ロボⅡ C2移動 攻撃 ＫＡＩ", "ﾛﾎﾞⅡ: C2 攻撃 KAI", "ロボII 能力「ビームⅡ」 対象はｶｲ"):
        parsed = RULESET.parse_line(line)
        order = Order(1, 0, author, parsed.player, parsed.command, parsed.canonical)
        assert RULESET.check(state, order) is None, line
    parsed = RULESET.parse_line("ロボⅡ C2移動 攻撃 ＫＡＩ")
    after, outcome = RULESET.resolve(
        state, [Order(1, 0, author, parsed.player, parsed.command, parsed.canonical)], SeededSource(b"k" * 32)
    )
    assert outcome.meta["result"]["actions"]["ロボII"].get("target") == "KAI", outcome.meta["result"]
    assert after.characters["ロボII"].square == "C2"


@pytest.mark.parametrize(
    ("first", "second"), [("ＫＡＩ", "KAI"), ("ｶｲ", "カイ"), ("ロボⅡ", "ロボII"), ("ｶｲ", "ｶｲ")]
)
def test_two_names_nfkc_makes_one_are_refused_naming_both(first: str, second: str) -> None:
    text = MINIMAL.replace('name = "一"', f'name = "{first}"') + (
        f'[[characters]]\nname = "{second}"\nside = "B"\nsquare = "B1"\n'
    )
    with pytest.raises(RulesetError, match="2人います") as refused:
        RULESET.read_scenario(text)
    assert first in str(refused.value) and second in str(refused.value)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("sides = [1, 2]\n", "sides は表の並び"),
        (MINIMAL + "[options]\nmove = 'fast'\n", "move は0以上の整数"),
        (MINIMAL + "[options]\ndying = 1\n", "dying は true か false"),
        (MINIMAL + "[options]\nmental_rates = [100, 'x']\n", "整数の並び"),
        (MINIMAL + "[map]\ncolumns = 100000000\n", "columns は1～99"),
        (MINIMAL + "[map]\nrows = ''\n", "rows は A～Z"),
        (MINIMAL.replace('square = "A1"', 'square = "A1"\npowers = [1]'), "powers は表の並び"),
        ("map = 3\n" + MINIMAL, r"\[map\] は表"),
    ],
)
def test_a_scenario_of_the_wrong_shape_is_refused_with_the_key(text: str, reason: str) -> None:
    with pytest.raises(RulesetError, match=reason):
        RULESET.read_scenario(text)


def test_a_time_limit_in_the_scenario_is_refused_since_the_schedule_sets_it() -> None:
    with pytest.raises(RulesetError, match="phase_minutes はなくなりました"):
        RULESET.read_scenario(MINIMAL + "[options]\nphase_minutes = 20\n")


def test_a_state_stored_with_the_dropped_time_limit_still_reads() -> None:
    data = RULESET.state_to_dict(arena())
    data["options"]["phase_minutes"] = 20
    assert RULESET.state_from_dict(data).options == arena().options


def test_a_side_that_lists_nobody_takes_lines_from_nobody_unless_the_table_is_open() -> None:
    """Players are strangers: a side without trips took lines from anyone."""
    closed = RULESET.initial_state(RULESET.read_scenario(MINIMAL))
    parsed = RULESET.parse_line("一 A2移動")
    stranger = Order(1, 0, "通りすがり", parsed.player, parsed.command, parsed.canonical)
    assert "提出者がシナリオに書かれていないため受け付けません" in RULESET.check(closed, stranger)
    opened = RULESET.initial_state(RULESET.read_scenario("[game]\nopen = true\n" + MINIMAL))
    assert RULESET.check(opened, stranger) is None
    with pytest.raises(RulesetError, match="トリップがありません"):
        RULESET.read_scenario(MINIMAL.replace('name = "A"', 'name = "A"\ntrips = ["会長"]'))
    with pytest.raises(RulesetError, match="open は true か false"):
        RULESET.read_scenario('[game]\nopen = "yes"\n' + MINIMAL)


def test_only_the_listed_trip_submits_whatever_the_name() -> None:
    state = arena()
    parsed = RULESET.parse_line("アリス C2移動")
    for author, taken in (("誰か◆AKA0000000", True), ("アリス", False), ("◆AKA000000", False), ("赤", False)):
        order = Order(1, 0, author, parsed.player, parsed.command, parsed.canonical)
        assert (RULESET.check(state, order) is None) == taken, author


@pytest.mark.parametrize("name", [">>1", "・会長", "C4", "ｃ４"])
def test_a_name_a_line_would_read_as_something_else_is_refused(name: str) -> None:
    with pytest.raises(RulesetError, match="始められず"):
        RULESET.read_scenario(MINIMAL.replace('name = "一"', f'name = "{name}"'))


def test_both_sides_are_seats_and_an_open_table_is_warned_about() -> None:
    """Issue 24: the warning at start names every side anyone may submit for (the first side's
    characters alone were the default seats)."""
    closed = RULESET.initial_state(RULESET.read_scenario(MINIMAL))
    assert RULESET.seats(closed) == ["A", "B"] and untripped_seats(RULESET, closed) == []
    opened = RULESET.initial_state(RULESET.read_scenario("[game]\nopen = true\n" + MINIMAL))
    assert untripped_seats(RULESET, opened) == [
        "「A」は誰でも（トリップなしでも）出せます",
        "「B」は誰でも（トリップなしでも）出せます",
    ]
