"""How にじ野望 case files read (tests/case_files.py runs them). Every line not below is the shared
`path = value` form over the state's JSON (PRESTATE, POSTSTATE) or the result's (RESULTS).

PRESTATE   `give AREA to LORD`      the area, its livers and (if its lord is there) its country join LORD
           `stats LIVER A B C D`    統率 武勇 智略 政治
           `ally LORD LORD`         the two countries are allied
           `lead AREA LIVER(兵種) …` the area's designations (編成), replacing the old ones
           `troops AREA 足軽=N …`   the area's troops of those types
           `at LIVER AREA`          the liver stands in AREA (designations elsewhere dropped)
RESULTS    `battle AREA key=value …`  keys: occupier (a lord, `-`: none), initiative (lords, comma
           separated, in order), rounds, stat, relief (AREA:LIVER,…), captured (LIVER>LORD,…),
           losses (round 1's losses per army, `/` separated, in initiative order)
           `strike AREA N = LIVER(兵種)→LIVER(兵種) KILLS`   the Nth strike of the battle in AREA
           `sortie AREA stands|cancelled`   `nobattle AREA`
           `sortie_units AREA = LIVER(兵種N) …`   the units the sortie from AREA took
           `relief_units AREA = LIVER(兵種N) …`   the relief units of the battle in AREA
"""

from __future__ import annotations

from typing import Any

from engine.report import Report
from engine.rules.nijiyabou import changes
from engine.rules.nijiyabou.names import STATS, key
from engine.rules.nijiyabou.state import State
from engine.ruleset import Ruleset, result_data
from tests.case_files import FlatChecks, Period, _flat, _pair


def _give(state: State, area: str, lord: str) -> None:
    old = state.areas[area].owner
    state.areas[area].owner = lord
    for liver in state.livers_in(area):
        changes.change_country(state, liver, lord, area)
    if old in state.countries and not state.areas_of(old):
        changes.merge(state, old, lord)


def _lead(state: State, area: str, units: list[str]) -> None:
    leads = {}
    for unit in units:
        name, _, troop = unit.rstrip(")").partition("(")
        leads[troop] = key(name)
    state.areas[area].leads = leads


def _prestate_line(state: State, line: str) -> bool:
    head, *args = line.split()
    if head == "give":
        _give(state, args[0], key(args[2]))
    elif head == "stats":
        state.livers[key(args[0])].stats = dict(zip(STATS, map(int, args[1:]), strict=True))
    elif head == "ally":
        a, b = key(args[0]), key(args[1])
        state.countries[a].allies.append(b)
        state.countries[b].allies.append(a)
    elif head == "lead":
        _lead(state, args[0], args[1:])
    elif head == "troops":
        for pair in args[1:]:
            troop, _, amount = pair.partition("=")
            state.areas[args[0]].troops[troop] = int(amount)
    elif head == "at":
        liver = key(args[0])
        changes.forget(state, liver, state.livers[liver].area)
        state.livers[liver].area = args[1]
    else:
        return False
    return True


def _battle(result: dict, area: str) -> dict:
    found = [b for b in result["battles"] if b["area"] == area]
    assert found, f"no battle in {area}: {[b['area'] for b in result['battles']]}"
    return found[0]


def _battle_facts(battle: dict, name: Any) -> dict[str, str]:
    return {
        "occupier": battle["occupier"] or "-",
        "initiative": ",".join(battle["initiative"]),
        "rounds": str(len(battle["rounds"])),
        "stat": battle["stat"],
        "relief": ",".join(f"{a}:{b}" for a, b in battle["relief"]) or "-",
        "captured": ",".join(f"{a}>{b}" for a, b in battle["captured"]) or "-",
        "losses": "/".join(map(str, battle["rounds"][0])) if battle["rounds"] else "-",
    }


def _check_result(result: dict, line: str) -> bool:
    head, *args = line.split()
    if head == "battle":
        facts = _battle_facts(_battle(result, args[0]), args[0])
        for pair in args[1:]:
            name, _, value = pair.partition("=")
            assert facts[name] == value, f"RESULTS {line}: {name} is {facts[name]}"
    elif head == "strike":
        strikes = _battle(result, args[0])["strikes"]
        strike = strikes[int(args[1]) - 1]
        shown = f"{key(strike['liver'])}({strike['troop']})→{key(strike['target'])}({strike['target_troop']}) {strike['kills']}"
        assert shown == " ".join(args[3:]), f"RESULTS {line}: strike {args[1]} is {shown}"
    elif head == "sortie":
        sortie = next(s for s in result["sorties"] if s["area"] == args[0])
        assert ("cancelled" if sortie["cancelled"] else "stands") == args[1], f"RESULTS {line}: {sortie}"
    elif head == "sortie_units":
        sortie = next(s for s in result["sorties"] if s["area"] == args[0])
        shown = " ".join(f"{liver}({troop}{soldiers})" for liver, troop, soldiers in sortie["units"])
        assert shown == " ".join(args[2:]), f"RESULTS {line}: the sortie took {shown}"
    elif head == "relief_units":
        units = [
            u for army in _battle(result, args[0])["armies"] for u in army["units"] if u["role"] == "救援"
        ]
        shown = " ".join(f"{key(u['liver'])}({u['troop']}{u['start']})" for u in units)
        assert shown == " ".join(args[2:]), f"RESULTS {line}: the relief was {shown}"
    elif head == "nobattle":
        assert all(b["area"] != args[0] for b in result["battles"]), f"RESULTS {line}"
    else:
        return False
    return True


class NijiyabouChecks(FlatChecks):
    def prestate(self, ruleset: Ruleset, state: Any, lines: list[str]) -> Any:
        flat = [line for line in lines if not _prestate_line(state, line)]
        return super().prestate(ruleset, state, flat)

    def check(self, ruleset: Ruleset, period: Period, outcome: Report, state: Any) -> None:
        result = result_data(outcome)
        rest = [line for line in period.results if not _check_result(result, line)]
        flat = _flat(result)
        for line in rest:
            path, value = _pair(line)
            assert flat.get(path) == value, f"RESULTS {line}: the result says {flat.get(path)!r}"
        super().check(ruleset, Period([], [], [], period.events, period.poststate), outcome, state)


CHECKS = NijiyabouChecks()
