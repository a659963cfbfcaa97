"""The parts of 出陣・合戦 a case file cannot reach: who occupies after a battle whatever its course
(the joint army only when the sortie armies and the defending side are all gone), and the battle
arithmetic's edges (the cap on a strike, the smallest loss of a 下克上, more than two armies)."""

from __future__ import annotations

from engine.rules.nijiyabou.battle import ATTACK, DEFENSE, Army, Fight, Fighter, fight, multiplier
from engine.rules.nijiyabou.grammar import parse_line
from engine.rules.nijiyabou.names import TROOPS
from engine.rules.nijiyabou.war import ALLY_JOINT, GUARD, OWN_JOINT, RELIEVE, SORTIE_ROLE, occupier
from engine.ruleset import Rejection

STATS = {"統率": 50, "武勇": 50, "智略": 50, "政治": 50}


class Never:
    def roll(self, sides: int) -> int:
        raise AssertionError("no die expected")


def unit(role: str, soldiers: int, troop: str = "足軽", lead: int = 50) -> Fighter:
    return Fighter(role, role, troop, soldiers, {**STATS, "統率": lead}, "東京", role)


def after(*armies: tuple[str, str, list[Fighter]]) -> Fight:
    return Fight([Army(country, side, "", fighters) for country, side, fighters in armies])


def test_the_joint_army_occupies_only_when_the_sortie_armies_and_the_defenders_are_gone() -> None:
    gone = after(
        ("A", DEFENSE, [unit(GUARD, 0), unit(RELIEVE, 0)]),
        ("B", ATTACK, [unit(SORTIE_ROLE, 0)]),
        ("C", ATTACK, [unit(ALLY_JOINT, 300)]),
    )
    assert occupier(gone) == "C"
    sortie_left = after(
        ("A", DEFENSE, [unit(GUARD, 0)]),
        ("C", ATTACK, [unit(ALLY_JOINT, 300)]),
        ("B", ATTACK, [unit(SORTIE_ROLE, 1)]),
    )
    assert occupier(sortie_left) == "B"
    relief_left = after(
        ("A", DEFENSE, [unit(GUARD, 0), unit(RELIEVE, 5)]), ("B", ATTACK, [unit(SORTIE_ROLE, 900)])
    )
    assert occupier(relief_left) is None


def test_an_own_joint_unit_is_part_of_its_countrys_army_and_the_first_survivor_occupies() -> None:
    own = after(("A", DEFENSE, [unit(GUARD, 0)]), ("B", ATTACK, [unit(SORTIE_ROLE, 0), unit(OWN_JOINT, 10)]))
    assert occupier(own) == "B"
    several = after(
        ("A", DEFENSE, []), ("B", ATTACK, [unit(SORTIE_ROLE, 0)]), ("D", ATTACK, [unit(SORTIE_ROLE, 7)])
    )
    assert occupier(several) == "D"


def test_the_multipliers_of_the_seed() -> None:
    table = {(s, t): multiplier(s, t) for s in TROOPS for t in TROOPS}
    assert {t: table["鉄砲", t] for t in TROOPS} == dict.fromkeys(TROOPS, 2)
    assert {t: table["騎兵", t] for t in TROOPS} == {"足軽": 2, "騎兵": 1, "弓兵": 3, "鉄砲": 3}
    assert all(table["足軽", t] == table["弓兵", t] == 1 for t in TROOPS)


def test_a_strike_kills_at_most_the_target_and_a_revolt_kills_at_least_one() -> None:
    small = fight(
        [Army("A", ATTACK, "", [unit("a", 10000, "鉄砲", 90)]), Army("B", DEFENSE, "", [unit("b", 30)])],
        "統率",
        Never(),
        0.2,
        5,
    )
    assert small.strikes[0]["kills"] == 30 and len(small.rounds) == 1
    tiny = [Army("A", ATTACK, "", [unit("a", 4, lead=90)]), Army("B", DEFENSE, "", [unit("b", 4)])]
    assert fight(tiny, "統率", Never(), 0.2, 5).strikes[0]["kills"] == 0
    tiny = [Army("A", ATTACK, "", [unit("a", 4, lead=90)]), Army("B", DEFENSE, "", [unit("b", 4)])]
    ended = fight(tiny, "統率", Never(), 0.2, 10_000, least=1)
    assert ended.alive(ATTACK) != ended.alive(DEFENSE)


def test_three_armies_strike_in_initiative_order_phase_by_phase() -> None:
    armies = [
        Army("D", DEFENSE, "", [unit("d", 1000, "足軽", 60)]),
        Army("X", ATTACK, "", [unit("x", 500, "鉄砲", 70)]),
        Army("Y", ATTACK, "", [unit("y", 500, "弓兵", 50), unit("z", 500, "騎兵", 50)]),
    ]
    result = fight(armies, "統率", Never(), 0.2, 1)
    assert [a.country for a in result.armies] == ["X", "D", "Y"]
    assert [(s["liver"], s["troop"]) for s in result.strikes] == [
        ("x", "鉄砲"),
        ("y", "弓兵"),
        ("d", "足軽"),
        ("z", "騎兵"),
    ]


def test_a_sortie_cannot_take_koku_ryoku() -> None:
    parsed = parse_line("東京：出陣 神奈川 月ノ美兎(足軽) 国力3")
    assert isinstance(parsed, Rejection) and "国力ポイントを持っていくことはできません" in parsed.reason
