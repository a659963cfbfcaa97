"""The readings of unclear seed text, as scenario options: each value played (the default first)."""

from __future__ import annotations

import pytest

from engine.rules import battle_royale as br
from engine.rules.battle_royale.state import State
from tests.engine.rules.battle_royale.helpers import alive, prepared


def face_of(request: br.DieRequest, outcome: str) -> int:
    return next(face for face in range(1, request.table.sides + 1) if request.table.outcome(face) == outcome)


def roll(state: State, *faces: int) -> State:
    return br.apply_roll(state, faces if len(faces) > 1 else faces[0])[0]


def asked(state: State) -> str:
    request = br.next_die(state)
    assert request is not None
    return request.table.name


@pytest.mark.parametrize(
    ("reading", "table"),
    [("plain", "奇襲者（被奇襲者）有利ダイス"), ("group", "＜団体戦用＞奇襲者（被奇襲者）有利ダイス")],
)
def test_a_successful_surprise_between_equal_groups(reading: str, table: str) -> None:
    names = ["北海道", "青森", "岩手", "宮城"]
    state = prepared(
        names, groups=[["北海道", "青森"], ["岩手", "宮城"]], options={"surprise_equal_groups": reading}
    )
    state = roll(state, 1, 3)  # 北海道 (with 青森) against 岩手 (with 宮城): two against two
    request = br.next_die(state)
    assert request is not None and request.table.name == "戦闘方針ダイス"
    state = roll(state, face_of(request, "奇襲"))
    request = br.next_die(state)
    assert request is not None and request.table.name == "奇襲判定ダイス"
    state = roll(state, face_of(request, "成功"))
    assert asked(state) == table


@pytest.mark.parametrize(("reading", "left"), [("pair", {"宮城", "秋田"}), ("group", {"秋田"})])
def test_mutual_kill_inside_an_infight(reading: str, left: set[str]) -> None:
    names = ["北海道", "青森", "宮城", "秋田"]
    state = prepared(names, groups=[["北海道", "青森", "宮城"]], options={"infight_mutual": reading})
    state = roll(state, 1, 2)  # 北海道 and 青森, both of the group: an infight
    request = br.next_die(state)
    assert request is not None and request.table.name == "仲間割れ判定ダイス"
    state = roll(state, face_of(request, "戦闘"))
    request = br.next_die(state)
    assert request is not None and request.table.name == "通常戦闘ダイス"
    state = roll(state, face_of(request, "相打ち"))
    assert alive(state) == left


def test_the_readings_are_named_in_help_with_their_defaults() -> None:
    for text in ("surprise_equal_groups", "infight_mutual"):
        assert text in br.HELP
    options = br.initial_state({"prefectures": [{"name": n} for n in ("北海道", "青森", "岩手")]}).options
    assert (options.surprise_equal_groups, options.infight_mutual) == ("plain", "pair")


def final_battle(**mastermind: object) -> State:
    """A game at its final: the mastermind (北海道, no collaborators) against 青森 and 岩手."""
    state = prepared(
        ["北海道", "青森", "岩手", "宮城"], mastermind={"enabled": True, "lives": 1, **mastermind}
    )
    for _ in range(200):
        request = br.next_die(state)
        assert request is not None
        if request.table.name == "黒幕決戦ダイス":
            return state
        state = roll(state, *_quiet_faces(state, request))
    raise AssertionError("no final")


def _quiet_faces(state: State, request: br.DieRequest) -> tuple[int, ...]:
    """Faces that bring the game to its final: the mastermind alone, picked first; no battle losses."""
    name = request.table.name
    if request.secret:
        return (1,) * request.table.count  # the mastermind is the first prefecture, and has no camp
    if name == "都道府県選択ダイス":
        return (1, 2)
    if name.endswith("戦闘ダイス"):
        return (face_of(request, "逃走"),)
    return (1,)


@pytest.mark.parametrize(
    ("options", "outcome", "asked_again", "ending"),
    [
        ({}, "逃走", True, None),
        ({"final_escape": "mastermind_flees"}, "逃走", False, None),
        ({}, "相打ち", True, None),
        ({"final_mutual": "all_fall"}, "相打ち", False, "fallen"),
        ({}, "手を組む", False, "reconciled"),
        ({"final_alliance": "reroll"}, "手を組む", True, None),
    ],
)
def test_the_final_battle_readings(
    options: dict[str, str], outcome: str, asked_again: bool, ending: str | None
) -> None:
    state = final_battle(**options)
    request = br.next_die(state)
    assert request is not None
    state = roll(state, face_of(request, outcome))
    again = br.next_die(state)
    assert (again is not None and again.table.name == "黒幕決戦ダイス") == asked_again
    assert (state.ending.kind if state.ending else None) == ending
    if options.get("final_escape") == "mastermind_flees":
        assert state.mastermind is not None and state.mastermind.defeated and len(alive(state)) >= 2


SIX = ("北海道", "青森", "岩手", "宮城", "秋田", "山形")


def test_a_newcomer_joins_between_battles_and_the_next_battle_reports_it() -> None:
    from engine.rng import SeededSource
    from engine.rules.battle_royale import AUTOMATIC

    state = AUTOMATIC.initial_state({"prefectures": [{"name": n} for n in SIX]})
    state, _ = AUTOMATIC.resolve(state, [], SeededSource(bytes(32)))  # the first battle
    assert state.ending is None
    joined = AUTOMATIC.set_value(state, "newcomer", "沖縄")
    assert joined.status["沖縄"] == "alive" and joined.table[-1] == "沖縄" and "沖縄" not in state.table
    after, report = AUTOMATIC.resolve(joined, [], SeededSource(bytes(32)))
    assert report.plain.split("\n")[0] == f"新規参入：『沖縄』が{len(joined.table)}番で参戦"
    assert after.ending is not None or "沖縄" in after.table


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("北海道", "すでに参加者の表にいます"),
        ("岩手県", "『岩手県』はすでに参加者の表にいます（『岩手』として）"),  # the same prefecture
        ("", "1～20文字"),
        ("『沖縄』", "『』"),
    ],
)
def test_a_newcomer_that_cannot_join_is_refused_with_the_reason(name: str, why: str) -> None:
    from engine.rng import SeededSource
    from engine.rules.battle_royale import AUTOMATIC

    state = AUTOMATIC.initial_state({"prefectures": [{"name": n} for n in SIX]})
    state, _ = AUTOMATIC.resolve(state, [], SeededSource(bytes(32)))
    with pytest.raises(br.BattleRoyaleError, match=why):
        AUTOMATIC.set_value(state, "newcomer", name)


def test_the_survivor_table_of_47_fits_in_a_few_lines_by_region() -> None:
    from engine.rules.battle_royale.common_steps import survivor_table
    from engine.rules.battle_royale.report import render

    state = br.initial_state({})  # the packaged 47 prefectures, in 8 regions
    lines = render([survivor_table(state, (), ())]).plain.split("\n")
    rows = [text for text in lines if "：" in text and text[0] != "【"]
    assert len(rows) <= 12 and rows[0] == "北海道：1北海道" and rows[1].startswith("東北：2青森 3岩手")
    assert sum(text.count(" ") + 1 for text in rows) == 47  # every survivor once
    regions = [text.split("：")[0] for text in rows]
    assert len(regions) == len(set(regions)) == 8  # a region of 9 (中部) on one line, not 8 and 1
    assert "中部：15新潟 16富山 17石川 18福井 19山梨 20長野 21岐阜 22静岡 23愛知" in rows
