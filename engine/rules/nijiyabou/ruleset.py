"""にじ野望 as a clocked ruleset: the adapter between the periods machinery and the pure season
(`resolution.py`), the receipt checks (`authority.py`), 設定, 状態 and the players of a season.

- Orders are keyed per author and area slot (one command, one 編成, one 救援, one 委任 per area; one
  of each act per liver), so a later line of the same author replaces the earlier one and another
  author's line never hides it; `resolve` keeps the controller's.
- `players` are the players of the lords and of the vassals with delegated areas (reminders name
  those who sent nothing); a missing area does nothing (no order is assumed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.report import Block, Report, heading, line, report
from engine.rng import RandomSource
from engine.rules.nijiyabou import authority, receipts, replay, sim, verify
from engine.rules.nijiyabou import report as season_report
from engine.rules.nijiyabou.grammar import Command, parse_line
from engine.rules.nijiyabou.help import HELP, SUMMARY
from engine.rules.nijiyabou.names import STATS, TROOPS, area_name, nfkc, quoted
from engine.rules.nijiyabou.picture import picture as draw
from engine.rules.nijiyabou.resolution import resolve_season
from engine.rules.nijiyabou.scenario import adjacency, read_toml
from engine.rules.nijiyabou.state import State, from_dict, initial_state, to_dict
from engine.ruleset import (
    AnnotatesReceipts,
    Author,
    ClockedRuleset,
    HoldsSeats,
    OfflineForms,
    Order,
    OrderText,
    Owners,
    Pictured,
    ReadsWithState,
    Rejection,
    ReplaysThread,
    RulesetError,
    Settable,
    Setting,
    ShowsOpening,
    Simulates,
    ThreadAudit,
    VerifiesPeriods,
)
from parser.numbers import NotANumber, read_number

SETTINGS: tuple[Setting, ...] = (
    Setting(
        "players.<ライバー>",
        "プレイヤーの割り当て（名前◆トリップ、外すときは なし）。ライバーは名前か最初のエリア名",
    ),
    Setting("areas.<エリア>.owner", "エリアを支配する国（君主のライバー名）"),
    Setting("areas.<エリア>.power", "エリアの国力（0以上の整数）", int),
    Setting("areas.<エリア>.troops.<兵種>", "エリアの兵数（0以上の整数）", int),
    Setting("livers.<ライバー>.<能力>", "ライバーの 統率・武勇・智略・政治（1～100）", int),
    Setting("livers.<ライバー>.area", "ライバーのいるエリア（自国のエリア）"),
    Setting(
        "countries.<君主>.allies",
        "同盟国（君主のライバー名を「,」区切りで。なしで解消）。相手の側も同じになります",
    ),
    Setting("adjacency.add", "隣接を足す（例：千葉-神奈川）"),
    Setting("adjacency.cut", "隣接を外す（例：北海道-青森）"),
)


def _liver_key(state: State, text: str) -> str:
    found = authority.claim_target(state, text)
    if found is None:
        raise RulesetError(f"ライバー「{text}」はいません")
    return found


def _number(value: Any, low: int, high: int | None = None) -> int:
    number = read_number(str(value), what="値", low=low, high=high)
    if isinstance(number, NotANumber):
        raise RulesetError(number.reason)
    return number


def _set_area(state: State, name: str, parts: list[str], value: Any) -> None:
    area = state.areas[name]
    if parts == ["owner"]:
        country = _liver_key(state, str(value))
        if country not in state.countries:
            raise RulesetError(f"{value}は君主ではありません")
        area.owner = country
    elif parts == ["power"]:
        area.power = _number(value, 0)
    elif len(parts) == 2 and parts[0] == "troops" and parts[1] in TROOPS:
        area.troops[parts[1]] = _number(value, 0)
    else:
        raise RulesetError("エリアで設定できるのは owner・power・troops.<兵種> です")


def _set_liver(state: State, liver: str, field: str, value: Any) -> None:
    found = state.livers[liver]
    if field in STATS:
        found.stats[field] = _number(value, 1, 100)
    elif field == "area" and (area := area_name(str(value))) is not None:
        found.area = area
    else:
        raise RulesetError("ライバーで設定できるのは 統率・武勇・智略・政治・area です")


def _set_allies(state: State, country: str, text: str) -> None:
    if country not in state.countries:
        raise RulesetError(f"{state.livers[country].name}は君主ではありません")
    names = (
        [] if text in ("なし", "無し", "-") else [n for n in text.replace("、", ",").split(",") if n.strip()]
    )
    allies = [_liver_key(state, name.strip()) for name in names]
    if any(ally not in state.countries or ally == country for ally in allies):
        raise RulesetError("同盟国は他国の君主にしてください")
    for other in state.countries.values():
        other.allies = [a for a in other.allies if a != country]
    state.countries[country].allies = allies
    for ally in allies:
        state.countries[ally].allies.append(country)


def set_value(state: State, path: str, value: Any) -> State:
    new = from_dict(to_dict(state))
    head, *parts = nfkc(path).split(".")
    text = str(value).strip()
    if head == "players" and len(parts) == 1:
        liver = _liver_key(new, parts[0])
        player = None if text in ("なし", "無し", "-") else nfkc(text)
        if player is not None and Author.of(player).trip is None:
            # A bare name is anyone's: whoever types it into the name field would command the country.
            raise RulesetError(
                f"プレイヤーは「名前◆トリップ」か「◆トリップ」で書いてください（{quoted(text)}）"
            )
        new.livers[liver].player = player
    elif head == "areas" and parts and area_name(parts[0]):
        _set_area(new, area_name(parts[0]) or "", parts[1:], value)
    elif head == "livers" and len(parts) == 2:
        _set_liver(new, _liver_key(new, parts[0]), parts[1], value)
    elif head == "countries" and len(parts) == 2 and parts[1] == "allies":
        _set_allies(new, _liver_key(new, parts[0]), text)
    elif head == "adjacency" and parts in (["add"], ["cut"]):
        links = {
            "links": {"land": [f"{a}-{b}" for a, b in new.rules.adjacency]},
            "kinds": ["land"],
            parts[0]: [text],
        }
        new.rules = replace(new.rules, adjacency=adjacency(links))
    else:
        known = "、".join(setting.path for setting in SETTINGS)
        raise RulesetError(f"{path} は設定できません（設定できるもの: {known}）")
    return new


def rules_in_force(state: State) -> list[str]:
    """The table this game is played by, one short phrase each (the opening's 設定 line)."""
    rules = state.rules
    seasons = "→".join(rules.seasons)
    limit = f"・{rules.max_seasons}季節まで" if rules.max_seasons else ""
    found = [f"{state.season_name()}から {seasons}{limit}"]
    found.append("出陣は隣接エリアへ" if rules.sortie_adjacent else "出陣はどのエリアへも")
    rate = f"{rules.casualty_rate:g}"
    found.append(f"損害 兵数×{rate}×倍率・最大{rules.max_rounds}回戦")
    found.append(
        "移動してきた兵は出陣・救援しない"
        if rules.moved_troops == "soldiers"
        else "移動してきた兵が加わった部隊は出陣・救援しない"
    )
    found.append(f"内政+{rules.domestic_power}（委任+{rules.delegated_power}）")
    return found


class NijiyabouRuleset(
    ClockedRuleset[State, Command],
    ReadsWithState[State],
    AnnotatesReceipts[State],
    HoldsSeats[State],
    Settable[State],
    ShowsOpening[State],
    OfflineForms[State],
    Pictured[State],
    Simulates[State],
    ReplaysThread,
    VerifiesPeriods,
):
    ID = "nijiyabou"
    TEMPLATE = "default.toml"  # the rule page's own game is the one `threadgm new` writes
    NAME = "にじ野望"
    HELP = HELP
    SUMMARY = SUMMARY
    settings: Sequence[Setting] = SETTINGS

    def picture(self, state: State, result: Mapping[str, Any] | None = None) -> str:
        return draw(state, result)

    def read_scenario(self, text: str) -> dict[str, Any]:
        return read_toml(text)

    def initial_state(self, scenario: Mapping[str, Any]) -> State:
        return initial_state(scenario)

    def state_to_dict(self, state: State) -> dict:
        return to_dict(state)

    def state_from_dict(self, data: dict) -> State:
        return from_dict(data)

    def parse_line(self, line: str) -> OrderText | Rejection | None:
        return parse_line(line)

    # A line headed by a liver's name is answered with where it stands now.
    def read_line(self, state: State | None, line: str) -> OrderText | Rejection | None:
        if state is None:
            return parse_line(line)
        stands = {k: liver.area for k, liver in state.livers.items() if liver.alive and liver.area}
        return parse_line(line, stands)

    def read_orders(self, state: State, text: str) -> list[Order]:
        """ORDERS.txt of `threadgm adjudicate`: a line without `名前:` is the GM's (the offline tool is
        the GM's own), who may order any area (the countries nobody has joined, too)."""
        orders = super().read_orders(state, text)
        return [replace(o, gm=True) if o.author == "GM" and o.player == "GM" else o for o in orders]

    def order_key(self, order: Order) -> str:
        return receipts.order_key(order)

    def void(self, state: State, order: Order, earlier: Sequence[Order]) -> str | None:
        return receipts.void(state, order, earlier)

    def remark(self, state: State, order: Order, earlier: Sequence[Order]) -> str | None:
        return receipts.remark(state, order, earlier)

    def check(self, state: State, order: Order) -> str | None:
        return authority.problem(state, order.command, order.author, gm=order.gm, intake=True)

    def resolve(self, state: State, orders: Sequence[Order], source: RandomSource) -> tuple[State, Report]:
        new, season = resolve_season(state, orders, source)
        return new, season_report.season_report(state, new, season)

    def players(self, state: State) -> list[str] | None:
        found = [
            liver.player
            for k, liver in state.livers.items()
            if liver.alive
            and liver.player
            and (k in state.countries or any(area.delegate == k for area in state.areas.values()))
        ]
        return found or None

    def owners(self, state: State, thing: str) -> Owners:
        """An area is ordered by the player of its controller (its delegate, else its country's lord),
        a liver by its player; a country nobody has joined by nobody in the thread (the GM's alone)."""
        if thing in state.areas:
            boss = authority.controller(state, thing)
            player = state.livers[boss].player if boss is not None else None
        else:
            liver = state.liver(thing)
            player = liver.player if liver is not None else None
        return (player,) if player else ()

    def players_of(self, state: State, author: str) -> list[str]:
        return [player for player in self.players(state) or () if authority.plays(player, author)]

    def set_value(self, state: State, path: str, value: Any) -> State:
        return set_value(state, path, value)

    def rules_in_force(self, state: State) -> list[str]:
        return rules_in_force(state)

    def status(self, state: State) -> Report:
        return self.period_status(state, ())

    def period_status(self, state: State, orders: Sequence[Order]) -> Report:
        """状態: the players (those whose claim this season is taken count, marked as settling at
        the deadline), the standings and the text map."""
        blocks: list[Block] = [heading(f"にじ野望 {state.season_name()}")]
        played = [
            f"{liver.name}={liver.player}" for liver in state.livers.values() if liver.alive and liver.player
        ]
        pending = [
            f"{state.livers[liver].name}={order.author}（参加受付済み）"
            for liver, order in receipts.claims(state, orders).items()
        ]
        joined = [*played, *pending]
        blocks.append(
            line(
                f"プレイヤー（{len(joined)}人）: " + "、".join(joined)
                if joined
                else "プレイヤー: まだいません"
            )
        )
        if pending:
            blocks.append(line("参加受付済みの人は、この季節の判定でプレイヤーに決まります"))
        blocks += season_report.standings(state) + season_report.text_map(state)
        return report(*blocks, kind="status")

    def finished(self, state: State) -> bool:
        limit = state.rules.max_seasons
        return state.winner is not None or (limit > 0 and state.season >= limit)

    def simulate(self, scenario: Mapping[str, Any], runs: int, seed: str, *, as_json: bool) -> str | None:
        return sim.simulate(scenario, runs, seed, as_json=as_json)

    def replay_thread(
        self,
        thread: Sequence[tuple[int, str, str, bool]],
        scenario: Mapping[str, Any],
        gm_trips: Sequence[str] | None = None,
    ) -> ThreadAudit:
        return replay.replay(self, thread, scenario, gm_trips)

    def read_period(self, lines: Sequence[str]) -> Mapping[str, Any] | None:
        return verify.read_period(lines)

    def verify_period(self, key: bytes, result: Mapping[str, Any]) -> list[str]:
        return verify.verify_period(key, result)


RULESET = NijiyabouRuleset()
