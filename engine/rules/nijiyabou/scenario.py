"""The scenario of にじ野望: the packaged default (`scenarios/default.toml`, built from the seed) and a
GM's TOML, checked and turned into `Rules` (the constants a season is resolved with) and the starting
roster (areas, terrains, livers and their stats, free livers).

Adjacency: the packaged scenario embeds the land borders and the seed's sea links generated from
`../shared/data/prefecture-adjacency.tsv`; `[adjacency] file = "…tsv"` reads such a TSV instead (the
kinds listed in `kinds`), and `add` / `cut` change single links (`"千葉-神奈川"`).
"""

from __future__ import annotations

import csv
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from engine.rules.nijiyabou.names import PREFECTURES, STATS, TERRAIN_STAT, TROOPS, area_name, key
from engine.ruleset import RulesetError, as_written, table_of, tables_of, unknown_keys

DEFAULT_SCENARIO = "default.toml"
HAISHIN_FACES = ("機材トラブル", "能力アイテム", "選べる能力アイテム", "登用")
MOVED_TROOPS = ("soldiers", "unit")
# Every key the reader takes, table by table ([conscription] and stats name troops and stats, checked
# where they are read): a key not here would be a GM's typo run on the default.
_KEYS = {
    "": (
        "start_year", "seasons", "snow_season", "max_seasons", "conscription", "domestic", "combat",
        "haishin", "adjacency", "areas", "free_livers", "start",
    ),
    "domestic": ("power", "delegated_power"),
    "combat": ("casualty_rate", "max_rounds", "stat_step", "sortie_adjacent", "moved_troops"),
    "haishin": ("table",),
    "adjacency": ("kinds", "file", "links", "add", "cut"),
    "start": ("power", "troops"),
    "areas": ("name", "terrain", "snow", "liver", "stats"),
    "free_livers": ("name", "area", "stats"),
    "conscription": ("cost", "amount"),
}  # fmt: skip


@dataclass(frozen=True)
class Rules:
    """The constants of a game (every one a scenario key, named in HELP)."""

    start_year: int = 1615
    seasons: tuple[str, ...] = ("春", "夏", "秋", "冬")
    snow_season: str = "冬"
    max_seasons: int = 0
    conscription: tuple[tuple[str, int, int], ...] = (
        ("足軽", 1, 1000),
        ("弓兵", 1, 500),
        ("騎兵", 1, 500),
        ("鉄砲", 2, 500),
    )
    domestic_power: int = 3
    delegated_power: int = 4
    casualty_rate: float = 0.2
    max_rounds: int = 5
    stat_step: int = 5
    sortie_adjacent: bool = True  # a reading of §8: 出陣 only to an adjacent area (false: any area)
    # a reading of §7 「移動した部隊はそのターンには出陣・救援できません」: "soldiers" — the soldiers that
    # arrived stay, those already there go; "unit" — the whole troop type of the area they joined stays
    moved_troops: str = "soldiers"
    haishin: tuple[str, ...] = (
        "機材トラブル",
        "能力アイテム",
        "能力アイテム",
        "能力アイテム",
        "選べる能力アイテム",
        "登用",
    )
    adjacency: tuple[tuple[str, str], ...] = ()

    def cost(self, troop: str) -> tuple[int, int]:
        """(国力 per batch, soldiers per batch) of 徴兵."""
        for name, cost, amount in self.conscription:
            if name == troop:
                return cost, amount
        raise KeyError(troop)

    def neighbours(self) -> dict[str, tuple[str, ...]]:
        found: dict[str, list[str]] = {name: [] for name in PREFECTURES}
        for a, b in self.adjacency:
            found[a].append(b)
            found[b].append(a)
        return {name: tuple(sorted(near, key=PREFECTURES.index)) for name, near in found.items()}


@dataclass(frozen=True)
class Roster:
    """Who starts where: (area, terrain, snow, liver name, stats) in the scenario's order, and the free
    livers (name, area, stats) that 配信 may recruit."""

    areas: tuple[tuple[str, str, bool, str, dict[str, int]], ...]
    free: tuple[tuple[str, str, dict[str, int]], ...]
    power: int
    troops: dict[str, int]


def default_text() -> str:
    return (resources.files("engine.rules.nijiyabou") / "scenarios" / DEFAULT_SCENARIO).read_text("utf-8")


def default_roster() -> list[tuple[str, str]]:
    """(area, liver) of the packaged scenario: the seed's list."""
    return [(str(entry["name"]), str(entry["liver"])) for entry in tomllib.loads(default_text())["areas"]]


def read_toml(text: str) -> dict[str, Any]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RulesetError(f"シナリオのTOMLが読めません：{error}") from error
    build(data)
    return data


def build(data: Mapping[str, Any]) -> tuple[Rules, Roster]:
    """The rules and roster of a scenario (an empty one is the packaged default)."""
    if not data:
        data = tomllib.loads(default_text())
    problems = _unknown(data)
    if problems:
        raise RulesetError("\n".join(problems))
    try:
        return _rules(data), _roster(data)
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, RulesetError):
            raise
        raise RulesetError(f"シナリオが読めません：{error}") from error


def _unknown(data: Mapping[str, Any]) -> list[str]:
    """A message for each key of the scenario, at any level, that the reader does not take."""
    problems = unknown_keys(data, _KEYS[""])
    for name in ("domestic", "combat", "haishin", "adjacency", "start"):
        problems += unknown_keys(data.get(name), _KEYS[name], f"[{name}]")
    adjacency = table_of(data.get("adjacency"))
    kinds = adjacency.get("kinds", ("land", "sea_seed"))
    if isinstance(kinds, list | tuple):
        # a kind of links not listed in `kinds` would be left out without a word
        problems += unknown_keys(adjacency.get("links"), map(str, kinds), "[adjacency.links]")
    problems += unknown_keys(table_of(data.get("start")).get("troops"), TROOPS, "[start.troops]")
    for troop, entry in table_of(data.get("conscription")).items():
        problems += unknown_keys(entry, _KEYS["conscription"], f"[conscription.{troop}]")
    for name in ("areas", "free_livers"):
        for number, entry in enumerate(tables_of(data.get(name)), start=1):
            of = f"（{entry['name']}）" if "name" in entry else ""
            problems += unknown_keys(entry, _KEYS[name], f"[[{name}]] {number}番目{of}")
    return problems


def _int(value: Any, what: str, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise RulesetError(f"シナリオの{what}は{low}以上の整数にしてください（{as_written(value)}）")
    return value


def _flag(value: Any, what: str) -> bool:
    # bool("false") is True: a quoted word would turn the rule the other way without a word
    if not isinstance(value, bool):
        raise RulesetError(f"シナリオの{what}は true か false にしてください（{as_written(value)}）")
    return value


def _choice(value: Any, what: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise RulesetError(
            f"シナリオの{what}は {'・'.join(choices)} のどれかにしてください（{as_written(value)}）"
        )
    return str(value)


def _rules(data: Mapping[str, Any]) -> Rules:
    domestic = data.get("domestic", {})
    combat = data.get("combat", {})
    table = tuple(data.get("haishin", {}).get("table", Rules.haishin))
    if len(table) != 6 or any(face not in HAISHIN_FACES for face in table):
        raise RulesetError(f"配信の表は6つで、それぞれ {'・'.join(HAISHIN_FACES)} のどれかにしてください")
    conscription = []
    for troop, entry in data.get("conscription", {}).items():
        if troop not in TROOPS:
            raise RulesetError(f"徴兵の兵種「{troop}」はありません（{'・'.join(TROOPS)}）")
        conscription.append(
            (troop, _int(entry["cost"], f"{troop}の費用", 1), _int(entry["amount"], f"{troop}の数", 1))
        )
    seasons = tuple(data.get("seasons", Rules.seasons))
    rate = float(combat.get("casualty_rate", Rules.casualty_rate))
    if not 0 < rate <= 1:
        raise RulesetError("combat.casualty_rate は0より大きく1以下にしてください")
    return Rules(
        start_year=_int(data.get("start_year", Rules.start_year), "start_year"),
        seasons=seasons,
        snow_season=str(data.get("snow_season", Rules.snow_season)),
        max_seasons=_int(data.get("max_seasons", 0), "max_seasons"),
        conscription=tuple(conscription) or Rules.conscription,
        domestic_power=_int(domestic.get("power", Rules.domestic_power), "domestic.power"),
        delegated_power=_int(
            domestic.get("delegated_power", Rules.delegated_power), "domestic.delegated_power"
        ),
        casualty_rate=rate,
        max_rounds=_int(combat.get("max_rounds", Rules.max_rounds), "combat.max_rounds", 1),
        stat_step=_int(combat.get("stat_step", Rules.stat_step), "combat.stat_step"),
        sortie_adjacent=_flag(combat.get("sortie_adjacent", True), "combat.sortie_adjacent"),
        moved_troops=_choice(
            combat.get("moved_troops", Rules.moved_troops), "combat.moved_troops", MOVED_TROOPS
        ),
        haishin=table,
        adjacency=adjacency(data.get("adjacency", {})),
    )


def _pair(text: str) -> tuple[str, str]:
    left, sep, right = str(text).partition("-")
    a, b = area_name(left), area_name(right)
    if not sep or a is None or b is None or a == b:
        raise RulesetError(f"隣接「{text}」は「東京-神奈川」の形で2つのエリアを書いてください")
    return (a, b) if PREFECTURES.index(a) < PREFECTURES.index(b) else (b, a)


def read_tsv(path: Path, kinds: tuple[str, ...]) -> list[tuple[str, str]]:
    """The links of `prefecture-adjacency.tsv` (its `a_seed`, `b_seed`, `kind` columns) of these kinds."""
    rows = [row for row in path.read_text("utf-8").splitlines() if row and not row.startswith("#")]
    return [
        _pair(f"{r['a_seed']}-{r['b_seed']}")
        for r in csv.DictReader(rows, delimiter="\t")
        if r["kind"] in kinds
    ]


def adjacency(table: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    kinds = tuple(table.get("kinds", ("land", "sea_seed")))
    if "file" in table:
        path = Path(str(table["file"]))
        if not path.is_file():
            raise RulesetError(f"隣接のファイルがありません：{path}")
        links = read_tsv(path, kinds)
    else:
        embedded = table.get("links", {})
        links = [_pair(text) for kind in kinds for text in embedded.get(kind, ())]
    found = dict.fromkeys(links)
    for text in table.get("add", ()):
        found[_pair(text)] = None
    for text in table.get("cut", ()):
        found.pop(_pair(text), None)
    return tuple(found)


def _stats(entry: Mapping[str, Any], who: str) -> dict[str, int]:
    given = entry.get("stats", {})
    unknown = [name for name in given if name not in STATS]
    if unknown:
        raise RulesetError(f"{who}の能力「{'・'.join(unknown)}」はありません（{'・'.join(STATS)}）")
    return {name: min(100, _int(given.get(name, 50), f"{who}の{name}", 1)) for name in STATS}


def _roster(data: Mapping[str, Any]) -> Roster:
    areas, seen, names = [], set(), set()
    for entry in data.get("areas", ()):
        name = area_name(str(entry["name"]))
        if name is None or name in seen:
            raise RulesetError(f"エリア「{entry['name']}」は都道府県でないか、2回書かれています")
        if entry["terrain"] not in TERRAIN_STAT or entry["terrain"] == "雪地":
            raise RulesetError(
                f"{name}の地形「{entry['terrain']}」は 平地・森林・山地 のどれかにしてください"
            )
        liver = str(entry["liver"]).strip()
        if key(liver) in names:
            raise RulesetError(f"ライバー「{liver}」が2回書かれています")
        seen.add(name)
        names.add(key(liver))
        areas.append(
            (
                name,
                entry["terrain"],
                _flag(entry.get("snow", False), f"{name}の snow"),
                liver,
                _stats(entry, liver),
            )
        )
    if len(areas) != len(PREFECTURES):
        raise RulesetError(f"エリアは47都道府県すべてを書いてください（{len(areas)}件）")
    free = []
    for entry in data.get("free_livers", ()):
        name, area = str(entry["name"]).strip(), area_name(str(entry["area"]))
        if area is None or key(name) in names:
            raise RulesetError(f"登用できるライバー「{name}」のエリアか名前が正しくありません")
        names.add(key(name))
        free.append((name, area, _stats(entry, name)))
    start = data.get("start", {})
    troops = {troop: _int(start.get("troops", {}).get(troop, 0), f"start.troops.{troop}") for troop in TROOPS}
    if not data.get("start", {}).get("troops"):
        troops["足軽"] = 5000
    return Roster(tuple(areas), tuple(free), _int(start.get("power", 5), "start.power"), troops)
