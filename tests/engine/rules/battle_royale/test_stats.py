"""Many simulated battles of the 都道府県バトロワ against the seed's tables: chi-square at a fixed seed,
compared with the tabulated critical value at p = 0.001 for the table's degrees of freedom. Expected
probabilities are written from the seed text here, not read from the engine's own tables."""

from __future__ import annotations

import hashlib
from collections import Counter
from fractions import Fraction

import pytest

from engine.rng import SeededSource
from engine.rules import battle_royale as br
from engine.rules.battle_royale.events import Rolled
from engine.rules.battle_royale.resolution import apply_roll_events
from engine.rules.battle_royale.sim import roll_request
from engine.rules.battle_royale.state import State
from tests.engine.rules.battle_royale.helpers import play_recorded, prepared

# χ² critical values at p = 0.001 (upper tail), by degrees of freedom.
CRITICAL_0_001 = {1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467}

SEED_ODDS = {
    "戦闘方針ダイス": {"正面": Fraction(2, 3), "奇襲": Fraction(1, 3)},
    "奇襲判定ダイス": {"成功": Fraction(1, 2), "失敗": Fraction(1, 2)},
    "通常戦闘ダイス": {o: Fraction(1, 5) for o in ("勝利", "敗北", "逃走", "手を組む", "相打ち")},
    "奇襲者有利": {
        "勝利": Fraction(4, 8),
        "敗北": Fraction(2, 8),
        "手を組む": Fraction(1, 8),
        "逃走": Fraction(1, 8),
    },
    "団体戦 勝利＋1": {
        "勝利": Fraction(2, 6),
        "敗北": Fraction(1, 6),
        "逃走": Fraction(1, 6),
        "手を組む": Fraction(1, 6),
        "相打ち": Fraction(1, 6),
    },
    "団体戦 敗北＋1": {
        "勝利": Fraction(1, 6),
        "敗北": Fraction(2, 6),
        "逃走": Fraction(1, 6),
        "手を組む": Fraction(1, 6),
        "相打ち": Fraction(1, 6),
    },
    "団体奇襲 勝利＋1": {
        "勝利": Fraction(5, 9),
        "敗北": Fraction(2, 9),
        "手を組む": Fraction(1, 9),
        "逃走": Fraction(1, 9),
    },
    "団体奇襲 敗北＋1": {
        "勝利": Fraction(4, 9),
        "敗北": Fraction(3, 9),
        "手を組む": Fraction(1, 9),
        "逃走": Fraction(1, 9),
    },
}


def chi_square(observed: Counter[str], odds: dict[str, Fraction]) -> float:
    total = sum(observed.values())
    assert set(observed) <= set(odds), set(observed) - set(odds)
    return sum((observed[k] - total * float(p)) ** 2 / (total * float(p)) for k, p in odds.items())


def assert_fits(observed: Counter[str], odds: dict[str, Fraction]) -> None:
    statistic = chi_square(observed, odds)
    assert statistic < CRITICAL_0_001[len(odds) - 1], (statistic, dict(observed))


def source(label: str, run: int) -> SeededSource:
    return SeededSource(hashlib.sha256(f"chi|{label}|{run}".encode()).digest())


def first_battles(runs: int) -> dict[str, Counter[str]]:
    """Play the first battle of many fresh 47-prefecture games and tally every die by table."""
    start = br.initial_state({})
    tally: dict[str, Counter[str]] = {}
    for run in range(runs):
        state, dice = start, source("first", run)
        while state.battles == 0:
            request = br.next_die(state)
            assert request is not None
            state, events = apply_roll_events(state, roll_request(request, dice), request)
            for event in events:
                if isinstance(event, Rolled) and not event.automatic:
                    tally.setdefault(event.request.name, Counter())[event.result] += 1
    return tally


def test_whole_first_battles_follow_policy_surprise_and_battle_tables() -> None:
    tally = first_battles(2400)
    assert_fits(tally["戦闘方針ダイス"], SEED_ODDS["戦闘方針ダイス"])
    assert_fits(tally["奇襲判定ダイス"], SEED_ODDS["奇襲判定ダイス"])
    assert_fits(tally["通常戦闘ダイス"], SEED_ODDS["通常戦闘ダイス"])
    assert_fits(tally["奇襲者（被奇襲者）有利ダイス"], SEED_ODDS["奇襲者有利"])
    # Every battle used exactly one battle die, and the surprise table only after a 奇襲.
    assert sum(tally["奇襲者（被奇襲者）有利ダイス"].values()) == tally["戦闘方針ダイス"]["奇襲"]
    assert sum(tally["通常戦闘ダイス"].values()) == tally["戦闘方針ダイス"]["正面"]
    # The test has power: the plain table's counts are far from the group table's odds.
    assert chi_square(tally["通常戦闘ダイス"], SEED_ODDS["団体戦 勝利＋1"]) > CRITICAL_0_001[4]


def repeated(state: State, label: str, runs: int) -> Counter[str]:
    """Roll the next die of `state` many times on seeded streams; tally what the rules made of it."""
    request = br.next_die(state)
    assert request is not None
    tally: Counter[str] = Counter()
    for run in range(runs):
        _, events = apply_roll_events(state, roll_request(request, source(label, run)), request)
        tally[next(e.result for e in events if isinstance(e, Rolled))] += 1
    return tally


def at_group_battle(base_group: int, opponent_group: int, surprise: bool) -> State:
    """A position at the battle die: 北海道 (in a group of `base_group`) against 青森's side."""
    names = ["北海道", "青森", "岩手", "宮城", "秋田", "山形", "福島", "茨城"]
    mine = names[2 : 2 + base_group - 1]
    theirs = names[5 : 5 + opponent_group - 1]
    groups = [g for g in (["北海道", *mine], ["青森", *theirs]) if len(g) > 1]
    state = prepared(names, groups=groups)
    rands = [(8, 1), (8, 2), (3, 3 if surprise else 1)] + ([(2, 1)] if surprise else [])
    state, _, _ = play_recorded(state, rands)
    return state


@pytest.mark.parametrize(
    ("base_group", "opponent_group", "surprise", "odds", "table"),
    [
        (3, 1, False, "団体戦 勝利＋1", "＜団体戦用＞戦闘ダイス"),
        (1, 2, False, "団体戦 敗北＋1", "＜団体戦用＞戦闘ダイス"),
        (3, 2, True, "団体奇襲 勝利＋1", "＜団体戦用＞奇襲者（被奇襲者）有利ダイス"),
        (2, 3, True, "団体奇襲 敗北＋1", "＜団体戦用＞奇襲者（被奇襲者）有利ダイス"),
        (2, 2, False, "通常戦闘ダイス", "通常戦闘ダイス"),
    ],
)
def test_group_battles_follow_their_tables(
    base_group: int, opponent_group: int, surprise: bool, odds: str, table: str
) -> None:
    state = at_group_battle(base_group, opponent_group, surprise)
    request = br.next_die(state)
    assert request is not None and request.name == table
    assert_fits(repeated(state, odds, 1500), SEED_ODDS[odds])


def test_drop_out_and_special_dice_follow_their_tables() -> None:
    names = ["北海道", "青森", "岩手", "宮城", "秋田"]
    infight = prepared(names, groups=[["北海道", "青森", "岩手"]])
    infight, _, _ = play_recorded(infight, [(5, 1), (5, 2)])
    assert_fits(
        repeated(infight, "infight", 1200),
        {"戦闘": Fraction(1, 3), "手を組む": Fraction(1, 3), "都道府県選択ダイスの振り直し": Fraction(1, 3)},
    )
    pair = prepared(names, groups=[["青森", "岩手"]])
    pair, _, _ = play_recorded(pair, [(5, 1), (5, 2), (3, 1), (6, 1)])
    assert br.next_die(pair).name == "＜二人組用＞敗北後ダイス"  # type: ignore[union-attr]
    assert_fits(
        repeated(pair, "pair", 1200),
        {"生存": Fraction(1, 3), "死亡": Fraction(1, 3), "手を組む": Fraction(1, 3)},
    )
    loss = prepared(names, groups=[["青森", "岩手", "宮城", "秋田"]])
    loss, _, _ = play_recorded(loss, [(5, 1), (5, 2), (3, 1), (6, 1)])
    assert_fits(repeated(loss, "loss", 1600), {f"{n}人": Fraction(1, 4) for n in range(4)})
    revival = prepared(
        ["北海道", "青森", "岩手", "宮城"],
        revival={"enabled": True, "representatives": 1},
        regions={"北": ["北海道", "青森"], "南": ["岩手", "宮城"]},
    )
    revival, _, _ = play_recorded(revival, [(2, 1), (2, 1), (2, 1), (2, 2), (3, 1), (5, 1)])
    assert br.next_die(revival).name == "地区復活ダイス"  # type: ignore[union-attr]
    assert_fits(repeated(revival, "revival", 1500), {"失敗": Fraction(4, 5), "成功": Fraction(1, 5)})
