"""Seasons of random orders of every kind (claims, every command, designations, two-sided acts) never
fail and leave a consistent state: every area held by a living country, every liver of a country
standing in an area, no negative troops or 国力, lords that lead their own country, and the JSON
round trip exact."""

from __future__ import annotations

import json
import random

from engine.rng import SeededSource
from engine.rules.nijiyabou import RULESET
from engine.rules.nijiyabou.grammar import parse_line
from engine.rules.nijiyabou.state import State
from engine.ruleset import Order, OrderText

TEMPLATES = (
    "{a}：出陣 {n}",
    "{a}：出陣 {n} {l}(足軽) {l2}(騎兵500)",
    "{a}：出陣 {n} 共同 {o} {l2}",
    "{a}：外交 同盟 {n}",
    "{a}：外交 共同攻撃 {n} {o} {l}",
    "{a}：外交 降伏させる {n}",
    "{a}：外交 降伏する {n}",
    "{a}：内政",
    "{a}：徴兵 足軽2000 騎兵500 鉄砲500",
    "{a}：移動 {o} {l} 足軽1000 国力1",
    "{a}：配信 {l} 武勇",
    "{a}：編成 {l}(騎兵) {l2}(足軽)",
    "{a}：救援 {l}",
    "{a}：委任 {l2}",
    "引き抜き {l2}",
    "寝返り {l2} {l}",
    "下克上 {l2}",
    "参加 {a}",
)


def random_orders(state: State, rng: random.Random, authors: list[str]) -> list[Order]:
    names = [liver.name for liver in state.livers.values() if liver.alive]
    orders = []
    for number in range(120):
        area = rng.choice(list(state.areas))
        near = rng.choice(state.neighbours(area) or (area,))
        text = rng.choice(TEMPLATES).format(
            a=area, n=near, o=rng.choice(list(state.areas)), l=rng.choice(names), l2=rng.choice(names)
        )
        parsed = parse_line(text)
        if isinstance(parsed, OrderText):
            author = rng.choice(authors)
            orders.append(
                Order(number, 0, author, author, parsed.command, parsed.canonical, gm=author == "GM")
            )
    return orders


def assert_consistent(state: State) -> None:
    for area in state.areas.values():
        assert area.owner in state.countries, area
        assert area.power >= 0 and all(n >= 0 for n in area.troops.values()), area
    for key, liver in state.livers.items():
        if liver.alive and liver.country is not None:
            assert liver.country in state.countries and liver.area in state.areas, (key, liver)
    for key, country in state.countries.items():
        assert state.livers[key].alive and state.livers[key].country == key, key
        assert all(ally in state.countries for ally in country.allies)
    data = json.loads(json.dumps(RULESET.state_to_dict(state), ensure_ascii=False))
    assert RULESET.state_to_dict(RULESET.state_from_dict(data)) == data


def test_random_seasons_keep_the_state_consistent() -> None:
    rng = random.Random(15)
    authors = [f"P{n}◆T{n}" for n in range(8)] + ["GM"]
    state = RULESET.initial_state({})
    for season in range(40):
        state, outcome = RULESET.resolve(
            state, random_orders(state, rng, authors), SeededSource(bytes([season]) * 32)
        )
        assert_consistent(state)
        assert outcome.meta["result"]["season"]
    assert state.season == 40
