"""The changes of allegiance every rule shares: a liver moving to another country (and, when it is a
lord, the whole country with it: 君主の勢力は全滅させた側の勢力になります / 降伏), an area occupied
(占領: its reserve troops, livers and 国力 pass to the occupier; 処断 of a turncoat there), and
designations that no longer hold when a liver leaves an area."""

from __future__ import annotations

from engine.rules.nijiyabou.state import State


def forget(state: State, liver: str, area: str | None) -> None:
    """Drop the designations of `liver` in `area` (it left, changed sides or died)."""
    if area is None:
        return
    where = state.areas[area]
    where.leads = {troop: who for troop, who in where.leads.items() if who != liver}
    if where.relief == liver:
        where.relief = None
    if where.delegate == liver:
        where.delegate = None


def merge(state: State, country: str, into: str) -> None:
    """Every area and liver of `country` joins `into`; the country is gone, its lord a vassal."""
    if country == into or country not in state.countries:
        return
    for area in state.areas.values():
        if area.owner == country:
            area.owner = into
            if area.delegate == country:
                area.delegate = None
    for liver in state.livers.values():
        if liver.country == country:
            liver.country = into
    del state.countries[country]
    for other in state.countries.values():
        other.allies = [ally for ally in other.allies if ally != country]


def change_country(state: State, liver: str, country: str, area: str | None) -> None:
    """`liver` now serves `country`, standing in `area` (its designations stay when it stays); a lord
    brings the whole country."""
    found = state.livers[liver]
    old = found.country
    if area != found.area:
        forget(state, liver, found.area)
    elif area is not None and state.areas[area].delegate == liver:
        state.areas[area].delegate = None
    found.area = area
    if old is not None and old in state.countries and state.countries[old].lord == liver:
        merge(state, old, country)
    found.country = country


def execute(state: State, liver: str) -> None:
    """処断: the liver is out of the game."""
    found = state.livers[liver]
    forget(state, liver, found.area)
    found.alive = False
    found.area = None


def occupy(state: State, area: str, country: str) -> list[str]:
    """`country` takes `area` with what is in it; the turncoats of `country` there are 処断 (their keys)."""
    where = state.areas[area]
    where.owner = country
    where.relief = where.delegate = None
    executed = []
    for liver in state.livers_in(area):
        found = state.livers[liver]
        if found.former == country:  # even when a merge has just brought it back
            if liver in state.countries:  # an independent lord: his country goes to the occupier
                merge(state, liver, country)
            execute(state, liver)
            executed.append(liver)
        elif found.country != country:
            change_country(state, liver, country, area)
    where.leads = {t: who for t, who in where.leads.items() if state.livers[who].country == country}
    return executed


def drop_empty_countries(state: State) -> list[str]:
    """Countries left with no area and no living lord are gone (their keys)."""
    gone = []
    for country in list(state.countries):
        lord = state.livers[country]
        if not lord.alive or not state.areas_of(country):
            gone.append(country)
            del state.countries[country]
    for other in state.countries.values():
        other.allies = [ally for ally in other.allies if ally in state.countries]
    return gone
