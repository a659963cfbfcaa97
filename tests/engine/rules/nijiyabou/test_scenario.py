"""The packaged scenario is the seed's: 47 areas with their terrain and liver, 北海道〜福井 snowing in
winter, the shared adjacency (land + the seed's sea links), and every default of seed-gaps.md."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest

from engine.rules.nijiyabou import RULESET
from engine.rules.nijiyabou.names import PREFECTURES, TROOPS
from engine.rules.nijiyabou.scenario import adjacency, build, default_text, read_tsv
from engine.ruleset import RulesetError
from tests.conftest import shared_path

SEED = ("seeds", "003_1fea95549221d2d6.txt")


def seed_roster() -> list[tuple[str, str, str]]:
    lines = shared_path(*SEED).read_text("utf-8").splitlines()
    start = next(i for i, text in enumerate(lines) if text.startswith("北海道 山地"))
    return [tuple(text.split(" ", 2)) for text in lines[start : start + 47]]


def test_the_areas_are_the_seeds_list_with_its_terrain_and_liver() -> None:
    state = RULESET.initial_state({})
    shown = [(a.name, a.terrain, state.livers[a.owner or ""].name) for a in state.areas.values()]
    assert shown == [(area, terrain, liver.strip("\u3000 ")) for area, terrain, liver in seed_roster()]


def test_the_first_eighteen_of_the_seeds_list_snow_in_winter() -> None:
    state = RULESET.initial_state({})
    snowy = [name for name, area in state.areas.items() if area.snow]
    assert snowy == [area for area, _, _ in seed_roster()[:18]]
    assert snowy[-1] == "福井" and "東京" not in snowy and "山梨" in snowy
    state.season = 3
    assert state.season_name() == "1615年冬" and state.terrain("埼玉") == "雪地"
    assert state.battle_stat("埼玉") == "政治" and state.battle_stat("東京") == "統率"


def test_the_embedded_adjacency_is_the_shared_tsvs_land_and_seed_sea_links() -> None:
    tsv = shared_path("data", "prefecture-adjacency.tsv")
    state = RULESET.initial_state({})
    assert set(state.rules.adjacency) == set(read_tsv(tsv, ("land", "sea_seed")))
    assert len(state.rules.adjacency) == 92
    assert ("千葉", "神奈川") not in state.rules.adjacency  # Aqua-Line: not in the seed


def test_the_adjacency_file_key_reads_the_tsv_and_add_cut_change_links() -> None:
    tsv = shared_path("data", "prefecture-adjacency.tsv")
    links = adjacency({"file": str(tsv), "kinds": ["land"], "add": ["神奈川-千葉"], "cut": ["東京-埼玉"]})
    assert ("千葉", "神奈川") in links and ("埼玉", "東京") not in links and ("北海道", "青森") not in links
    with pytest.raises(RulesetError, match="隣接のファイルがありません"):
        adjacency({"file": "/nonexistent.tsv"})


def test_every_area_reaches_every_other() -> None:
    state = RULESET.initial_state({})
    seen, todo = {"北海道"}, deque(["北海道"])
    while todo:
        for near in state.neighbours(todo.popleft()):
            if near not in seen:
                seen.add(near)
                todo.append(near)
    assert seen == set(PREFECTURES)


def test_the_defaults_of_the_seed_and_of_seed_gaps() -> None:
    rules, roster = build({})
    assert (roster.power, roster.troops) == (5, {"足軽": 5000, "騎兵": 0, "弓兵": 0, "鉄砲": 0})
    assert {t: rules.cost(t) for t in TROOPS} == {
        "足軽": (1, 1000),
        "騎兵": (1, 500),
        "弓兵": (1, 500),
        "鉄砲": (2, 500),
    }
    assert (rules.domestic_power, rules.delegated_power, rules.casualty_rate, rules.max_rounds) == (
        3,
        4,
        0.2,
        5,
    )
    assert rules.haishin[0] == "機材トラブル" and rules.haishin[5] == "登用" and rules.stat_step == 5
    assert (rules.start_year, rules.seasons) == (1615, ("春", "夏", "秋", "冬"))
    assert all(stats == {"統率": 50, "武勇": 50, "智略": 50, "政治": 50} for *_, stats in roster.areas)


def test_a_gms_scenario_changes_what_it_names_and_bad_ones_are_refused(tmp_path: Path) -> None:
    text = (
        default_text()
        .replace("max_rounds = 5", "max_rounds = 3")
        .replace('liver = "月ノ美兎"\nstats = { "統率" = 50', 'liver = "月ノ美兎"\nstats = { "統率" = 90')
    )
    state = RULESET.initial_state(RULESET.read_scenario(text))
    assert state.rules.max_rounds == 3 and state.livers["月ノ美兎"].stats["統率"] == 90
    with pytest.raises(RulesetError, match="TOML"):
        RULESET.read_scenario("areas = [")
    with pytest.raises(RulesetError, match="地形"):
        RULESET.read_scenario(default_text().replace('terrain = "平地"', 'terrain = "海"', 1))
    with pytest.raises(RulesetError, match="配信の表"):
        RULESET.read_scenario(default_text().replace('"登用"]', '"大当たり"]'))


def test_a_scenario_may_let_sorties_go_to_any_area() -> None:
    from engine.rules.nijiyabou.grammar import parse_line
    from engine.ruleset import Order

    parsed = parse_line("東京：出陣 大阪")
    far = Order(1, 0, "GM", "GM", parsed.command, parsed.canonical)
    adjacent = RULESET.initial_state({})
    assert "隣接エリアではありません" in RULESET.check(adjacent, far)
    text = default_text().replace("sortie_adjacent = true", "sortie_adjacent = false")
    anywhere = RULESET.initial_state(RULESET.read_scenario(text))
    assert RULESET.check(anywhere, far) is None and anywhere.neighbours("東京") == adjacent.neighbours("東京")


def test_the_readme_names_every_key_of_the_packaged_scenario_and_help_none() -> None:
    """Every scenario key is explained for the GM (the template's comments, the README's table); HELP,
    which players read in the thread, names the defaults without the keys (issue 25)."""
    import tomllib
    from pathlib import Path

    from engine.rules.nijiyabou.help import HELP

    data = tomllib.loads(default_text())
    readme = (Path(__file__).parents[4] / "engine" / "rules" / "nijiyabou" / "README.md").read_text("utf-8")
    keys = [name for name, value in data.items() if not isinstance(value, dict | list)]
    keys += [name for table in ("combat", "domestic", "start", "haishin") for name in data[table]]
    keys += ["conscription", "adjacency", "areas.stats", "areas.snow", "free_livers"]
    missing = [name for name in keys if name not in readme]
    assert missing == [], missing
    assert [name for name in keys if "_" in name and name in HELP] == []
