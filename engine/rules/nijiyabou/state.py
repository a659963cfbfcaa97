"""The state of にじ野望 between seasons, its JSON form, and the questions every rule asks of it.

- A **liver** (`Liver`, keyed by `names.key` of its name) has four stats, stands in an area, serves a
  country (None: a free liver 配信 may recruit), may have a player (`名前◆トリップ`), and remembers the
  country it left by 寝返り or 下克上 (`former`, for 処断).
- An **area** (`Area`) has its terrain, its owner (a country), its troops by type, its 国力 stock, and
  the free designations: which liver leads which troop type (`leads`), the relief unit (`relief`), the
  vassal liver it is delegated to (`delegate`). A unit is a liver and the whole of the troop type it
  leads in its area.
- A **country** (`Country`) is keyed by its lord's liver key and has its allies.
- `season` counts the seasons resolved; `Rules` (scenario constants) travel with the state.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.rules.nijiyabou.names import SNOW, STATS, TERRAIN_STAT, TROOPS, key
from engine.rules.nijiyabou.scenario import Roster, Rules, build


@dataclass
class Liver:
    name: str
    stats: dict[str, int]
    area: str | None
    country: str | None
    player: str | None = None
    former: str | None = None
    alive: bool = True


@dataclass
class Area:
    name: str
    terrain: str
    snow: bool
    owner: str | None
    troops: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TROOPS, 0))
    power: int = 0
    leads: dict[str, str] = field(default_factory=dict)  # troop type -> liver key
    relief: str | None = None
    delegate: str | None = None


@dataclass
class Country:
    lord: str
    allies: list[str] = field(default_factory=list)


@dataclass
class State:
    rules: Rules
    areas: dict[str, Area]
    livers: dict[str, Liver]
    countries: dict[str, Country]
    season: int = 0
    winner: str | None = None

    # -- the calendar ------------------------------------------------------------------------------

    def season_name(self, offset: int = 0) -> str:
        index = self.season + offset
        seasons = self.rules.seasons
        return f"{self.rules.start_year + index // len(seasons)}年{seasons[index % len(seasons)]}"

    def is_snow_season(self) -> bool:
        seasons = self.rules.seasons
        return seasons[self.season % len(seasons)] == self.rules.snow_season

    def terrain(self, area: str) -> str:
        """The terrain a battle in `area` is fought on this season (雪地 in winter for snow areas)."""
        where = self.areas[area]
        return SNOW if where.snow and self.is_snow_season() else where.terrain

    def battle_stat(self, area: str) -> str:
        return TERRAIN_STAT[self.terrain(area)]

    # -- who and where ----------------------------------------------------------------------------

    def liver(self, name: str) -> Liver | None:
        found = self.livers.get(key(name))
        return found if found is not None and found.alive else None

    def livers_in(self, area: str) -> list[str]:
        return [k for k, liver in self.livers.items() if liver.alive and liver.area == area]

    def areas_of(self, country: str) -> list[str]:
        return [name for name, area in self.areas.items() if area.owner == country]

    def lord_area(self, country: str) -> str | None:
        return self.livers[self.countries[country].lord].area

    def allied(self, a: str | None, b: str | None) -> bool:
        return a is not None and b is not None and a != b and b in self.countries[a].allies

    def country_label(self, country: str | None) -> str:
        return self.livers[country].name if country in self.livers else "なし"

    def lead_type(self, area: str, liver: str) -> str | None:
        """The troop type `liver` leads in `area` (None: it leads nothing there)."""
        return next((troop for troop, who in self.areas[area].leads.items() if who == liver), None)

    def neighbours(self, area: str) -> tuple[str, ...]:
        return _neighbours(self.rules)[area]

    def sortie_targets(self, area: str) -> tuple[str, ...]:
        """Where `area` may sortie to: its neighbours (or anywhere, when the scenario says so)."""
        return (
            self.neighbours(area) if self.rules.sortie_adjacent else tuple(a for a in self.areas if a != area)
        )


_NEAR: dict[Rules, dict[str, tuple[str, ...]]] = {}


def _neighbours(rules: Rules) -> dict[str, tuple[str, ...]]:
    if rules not in _NEAR:
        _NEAR[rules] = rules.neighbours()
    return _NEAR[rules]


def initial_state(scenario: Mapping[str, Any]) -> State:
    rules, roster = build(scenario)
    return from_roster(rules, roster)


def from_roster(rules: Rules, roster: Roster) -> State:
    areas, livers, countries = {}, {}, {}
    for name, terrain, snow, liver, stats in roster.areas:
        lord = key(liver)
        troops = {troop: roster.troops.get(troop, 0) for troop in TROOPS}
        leads = {troop: lord for troop in TROOPS if troops[troop] > 0}
        areas[name] = Area(name, terrain, snow, lord, troops, roster.power, leads)
        livers[lord] = Liver(liver, dict(stats), name, lord)
        countries[lord] = Country(lord)
    for name, area, stats in roster.free:
        livers[key(name)] = Liver(name, dict(stats), area, None)
    return State(rules, areas, livers, countries)


def clone(state: State) -> State:
    return copy.deepcopy(state)


def _lists(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_lists(item) for item in value]
    return value


def to_dict(state: State) -> dict[str, Any]:
    rules = {name: _lists(value) for name, value in asdict(state.rules).items()}
    return {
        "rules": rules,
        "season": state.season,
        "winner": state.winner,
        "areas": {name: asdict(area) for name, area in state.areas.items()},
        "livers": {k: asdict(liver) for k, liver in state.livers.items()},
        "countries": {k: asdict(country) for k, country in state.countries.items()},
    }


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


def from_dict(data: Mapping[str, Any]) -> State:
    rules = Rules(**{name: _tuples(value) for name, value in data["rules"].items()})
    areas = {}
    for name, area in data["areas"].items():
        troops = {troop: int(area["troops"].get(troop, 0)) for troop in TROOPS}
        areas[name] = Area(**{**area, "troops": troops, "leads": dict(area["leads"])})
    livers = {
        k: Liver(**{**liver, "stats": {s: int(liver["stats"][s]) for s in STATS}})
        for k, liver in data["livers"].items()
    }
    countries = {k: Country(c["lord"], list(c["allies"])) for k, c in data["countries"].items()}
    return State(rules, areas, livers, countries, int(data["season"]), data.get("winner"))
