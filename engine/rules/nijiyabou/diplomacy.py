"""外交 and the two-sided acts: 同盟, 降伏, 引き抜き/寝返り, and 下克上 (a battle inside one area).

- **同盟**: both countries send 外交 同盟 naming each other in the same season.
- **降伏**: one sends 外交 降伏させる, the other 外交 降伏する, naming each other; the surrendering
  country's livers, troops, areas and 国力 become the accepting country's, its lord a vassal.
  A country that sends 降伏する cannot sortie that season.
- **引き抜き・寝返り**: the vassal's player sends `寝返り 家臣 新しい君主` and that lord's player
  `引き抜き 家臣`; the vassal leaves with the unit it leads (halved, rounded down) for the area of its
  new lord, and remembers its old country (処断 if that country occupies an area where it stands).
- **下克上**: a vassal with a player takes the unit it leads, halved, and fights the other generals'
  units in its area until one side is gone (every strike kills at least one). Won: the area is its
  own new country, and the generals it destroyed serve it. Lost: it dies.
"""

from __future__ import annotations

from engine.rng import RandomSource
from engine.rules.nijiyabou import changes
from engine.rules.nijiyabou.battle import ATTACK, DEFENSE, Army, Fight, Fighter, fight
from engine.rules.nijiyabou.grammar import ALLY, DEMAND, YIELD, Act, AreaOrder
from engine.rules.nijiyabou.names import area_name, key
from engine.rules.nijiyabou.state import Country, State

REVOLT_ROUNDS = 10_000


def country_named(state: State, text: str | None) -> str | None:
    """The country an order names: by one of its areas, or by its lord (or any of its livers)."""
    area = area_name(text or "")
    if area is not None:
        return state.areas[area].owner
    liver = state.liver(text or "")
    return liver.country if liver is not None else None


def diplomacy(state: State, orders: list[AreaOrder]) -> tuple[list[str], set[str]]:
    """同盟 and 降伏 of the season: what happened, and the areas of countries that sent 降伏する."""
    said: dict[tuple[str, str], set[str]] = {}
    for order in orders:
        mine, other = state.areas[order.area].owner, country_named(state, order.target)
        if mine and other and mine != other and order.act in (ALLY, DEMAND, YIELD):
            said.setdefault((mine, other), set()).add(order.act or "")
    events: list[str] = []
    yielding = {a for (mine, _), acts in said.items() if YIELD in acts for a in state.areas_of(mine)}
    for (a, b), acts in said.items():
        label = f"{state.country_label(a)}→{state.country_label(b)}"
        if ALLY in acts:
            if ALLY in said.get((b, a), ()):
                if b not in state.countries[a].allies:
                    state.countries[a].allies.append(b)
                    state.countries[b].allies.append(a)
                    events.append(f"同盟成立：{state.country_label(a)}と{state.country_label(b)}")
            else:
                events.append(f"同盟 {label}：相手の同盟コマンドがないため成立せず")
        if DEMAND in acts:
            events.append(_surrender(state, a, b, YIELD in said.get((b, a), ())))
    return events, yielding


def _surrender(state: State, taker: str, giver: str, agreed: bool) -> str:
    label = f"{state.country_label(giver)}が{state.country_label(taker)}に"
    if not agreed or taker not in state.countries or giver not in state.countries:
        return f"降伏 {label}：両国の降伏コマンドがそろわないため成立せず"
    changes.merge(state, giver, taker)
    return f"降伏成立：{label}降伏（ライバー・兵力・国力・エリアは{state.country_label(taker)}のものに）"


def betrayals(state: State, acts: list[tuple[Act, str]]) -> list[str]:
    """引き抜き・寝返り: both sides must have sent theirs (each act with the liver its author plays)."""
    poaches = {(key(a.liver), lord) for a, lord in acts if a.kind == "引き抜き"}
    events = []
    for act, _ in acts:
        if act.kind != "寝返り":
            continue
        liver, lord = key(act.liver), key(act.other or "")
        if (liver, lord) not in poaches:
            events.append(f"寝返り {act.liver}→{act.other}：引き抜きのコマンドがないため成立せず")
            continue
        events.append(_defect(state, liver, lord))
    return events


def _defect(state: State, liver: str, lord: str) -> str:
    found = state.livers[liver]
    if not found.alive or lord not in state.countries or found.country in (None, lord) or found.area is None:
        return f"寝返り {found.name}：成立しません（相手の国がないか、既に同じ国です）"
    area = state.areas[found.area]
    troop = state.lead_type(found.area, liver)
    taken = area.troops[troop] // 2 if troop else 0
    destination = state.lord_area(lord) or found.area
    if troop:
        area.troops[troop] = 0
        state.areas[destination].troops[troop] += taken
    old = found.country
    changes.change_country(state, liver, lord, destination)
    found.former = old
    unit = f"（{troop}は半減して{taken}）" if troop else ""
    return f"寝返り成立：{found.name}が{state.country_label(lord)}に寝返り、{destination}へ{unit}"


def revolt(state: State, act: Act, source: RandomSource) -> tuple[str, Fight | None]:
    liver = key(act.liver)
    found = state.livers[liver]
    area = found.area
    troop = state.lead_type(area, liver) if area else None
    if not found.alive or area is None or troop is None or state.areas[area].troops[troop] <= 0:
        return f"下克上 {act.liver}：率いる兵のいる部隊がないため起こせません", None
    where = state.areas[area]
    old = where.owner or ""
    rebel = Fighter(liver, found.name, troop, where.troops[troop] // 2, dict(found.stats), area, "下克上")
    where.troops[troop] = 0
    guards = []
    for kind, who in where.leads.items():
        if who != liver and where.troops[kind] > 0:
            other = state.livers[who]
            guards.append(Fighter(who, other.name, kind, where.troops[kind], dict(other.stats), area, "守備"))
            where.troops[kind] = 0
    armies = [Army(liver, ATTACK, "下克上", [rebel])] + (
        [Army(old, DEFENSE, "守備", guards)] if guards else []
    )
    result = fight(
        armies,
        state.battle_stat(area),
        source.stream(f"niji/revolt/{area}"),
        state.rules.casualty_rate,
        REVOLT_ROUNDS,
        least=1,
    )
    for fighter in [*guards, rebel]:
        where.troops[fighter.troop] += fighter.soldiers
    if rebel.soldiers == 0:
        changes.execute(state, liver)
        return f"下克上 {found.name}（{area}）：{len(result.rounds)}回戦で敗れて死亡", result
    state.countries[liver] = Country(liver)
    changes.forget(state, liver, area)
    found.country, found.former = liver, old
    where.leads[troop] = liver
    for fighter in guards:
        if fighter.soldiers == 0:
            changes.change_country(state, fighter.liver, liver, area)
    changes.occupy(state, area, liver)
    return (
        f"下克上 {found.name}（{area}）：{len(result.rounds)}回戦で勝利、{area}は{found.name}の国に",
        result,
    )
