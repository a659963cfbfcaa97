"""Quick play (`fast_sim.py`) against the rules' own step machine: the same random sequence through both
must give the same game — winners, battles, dice, who fell in which order, every counter."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.rules import battle_royale as br
from engine.rules.battle_royale.chances import STATUS_RUNS_SPECIAL, position_seed, status_blocks, status_runs
from engine.rules.battle_royale.fast_sim import (
    Outcome,
    QuickDice,
    can_start,
    outcome_of,
    play_position,
    play_quick,
    position,
    start_position,
)
from engine.rules.battle_royale.ruleset import AUTOMATIC
from engine.rules.battle_royale.sim import run_key, simulate, simulate_from
from engine.rules.battle_royale.state import State, state_to_dict
from scheduler import main
from tests.engine.rules.battle_royale.helpers import prepared

SIX = ("北海道", "青森", "岩手", "宮城", "秋田", "山形")
SMALL = {"prefectures": [{"name": n, "region": "東北"} for n in SIX]}
PLAIN_SEASONS = [
    {},
    SMALL,
    {"options": {"renumber_after_dead_picks": 0}},
    {"options": {"infight_mutual": "group", "surprise_equal_groups": "group"}},
    {**SMALL, "options": {"renumber_after_dead_picks": 1, "infight_mutual": "group"}},
]
TWO_REGIONS = [{"name": n, "region": "北" if i < 3 else "南"} for i, n in enumerate(SIX)]
MASTERMIND_READINGS = {
    "lives": 2,
    "death_costs_life": False,
    "collaborators_add_wins": False,
    "collaborators_count_as_defeats": False,
    "final_alliance": "reroll",
    "final_escape": "mastermind_flees",
    "final_mutual": "all_fall",
}
SPECIAL_SEASONS = [
    {**SMALL, "mastermind": {"enabled": True, "lives": 3}},
    {"mastermind": {"enabled": True}},
    {**SMALL, "options": {"renumber_after_dead_picks": 0}, "mastermind": {"enabled": True, "camp_die": 1}},
    {"mastermind": {"enabled": True, **MASTERMIND_READINGS}},
    {"prefectures": TWO_REGIONS, "revival": {"enabled": True, "representatives": 1}},
    {"revival": {"enabled": True}},
    {"revival": {"enabled": True, "representatives": 1}, "options": {"renumber_after_dead_picks": 0}},
    {"revival": {"enabled": True}, "mastermind": {"enabled": True, "lives": 4}},
    {
        "revival": {"enabled": True},
        "mastermind": {"enabled": True, **MASTERMIND_READINGS},
        "options": {"renumber_after_dead_picks": 0, "infight_mutual": "group"},
    },
    {**SMALL, "tag_match": {"enabled": True}},
    {"tag_match": {"enabled": True}},
    {
        "prefectures": [{"name": n} for n in (*SIX, "福島")],  # a lone team
        "tag_match": {"enabled": True, "ally_inapplicable": "escape"},
        "options": {"renumber_after_dead_picks": 0, "surprise_equal_groups": "group"},
    },
]
# What each rule does must happen in these games, so that the comparison reaches it.
SPECIAL_EVENTS = {
    "mastermind": ("mastermind_designations", "mastermind_fake_deaths", "final_battles"),
    "revival": ("revivals", "revival_failures"),
    "tag_match": ("tag_wipes", "alliances", "rerolls"),
}


def by_the_rules(state: State, dice: QuickDice, stop_after: int | None = None) -> State:
    """The bot's own path: `apply_roll_events` (a copy per die), faces from `dice`."""
    rolled = 0
    while (request := br.next_die(state)) is not None and rolled != stop_after:
        faces = tuple(dice.roll(request.sides) for _ in range(request.count))
        state, _ = br.apply_roll_events(state, faces, request, narrate=False)
        rolled += 1
    return state


@pytest.mark.parametrize("season", PLAIN_SEASONS + SPECIAL_SEASONS)
def test_quick_play_is_the_rules_game_for_game(season: dict) -> None:
    start = br.initial_state(season)
    assert start_position(start) is not None  # the quick game plays it from the set-up on
    games = [
        (outcome_of(by_the_rules(start, QuickDice(r))), play_quick(start, QuickDice(r))) for r in range(40)
    ]
    assert all(rules == quick for rules, quick in games)
    assert len({rules.winners for rules, _ in games}) > 1  # the seeds do give different games
    seen = {key for rules, _ in games for key in rules.counters}
    for rule, events in SPECIAL_EVENTS.items():
        if season.get(rule):
            assert set(events) <= seen, set(events) - seen


@pytest.mark.parametrize("season", [{}, *SPECIAL_SEASONS[1::2]])
def test_quick_play_from_positions_inside_a_battle_and_with_groups(season: dict) -> None:
    """Mid-battle (and mid-set-up) positions are taken by the step machine to one the quick game reads,
    then played quickly; the same from every position reached by a game of the season."""
    checked, first = 0, br.initial_state(season)
    for r in range(20):
        length = by_the_rules(first, QuickDice(f"pre{r}")).dice_total
        start = by_the_rules(first, QuickDice(f"pre{r}"), stop_after=length * (r + 1) // 21)
        assert start.ending is None  # positions from the set-up to the last battle
        checked += not can_start(start)
        rules = outcome_of(by_the_rules(start, QuickDice(r)))
        assert play_quick(start, QuickDice(r)) == rules
    assert checked > 5  # most of these positions were inside a battle


def test_quick_play_with_newcomers_between_battles() -> None:
    """新規参入者 (a GM's 設定 newcomer=…) join the table; their entry is settled once, then played quickly."""
    for season in ({}, {"revival": {"enabled": True}}, {"mastermind": {"enabled": True}}):
        start = by_the_rules(br.initial_state(season), QuickDice("newcomers"), stop_after=40)
        while not can_start(start):
            start = by_the_rules(start, QuickDice(len(start.eliminated)), stop_after=1)
        for name in ("沖縄", "樺太"):
            if any(p.name == name for p in start.roster):
                continue
            start = br.add_newcomer(start, name)
        assert not can_start(start) and start_position(start) is not None
        settled, _ = br.settle(start)  # as the bot does before the next die
        games = [
            (outcome_of(by_the_rules(settled, QuickDice(r))), play_quick(start, QuickDice(r)))
            for r in range(30)
        ]
        assert all(rules == quick for rules, quick in games)
        assert simulate_from(start, 30, "n").wins == simulate_from(settled, 30, "n").wins
        assert any("樺太" in rules.winners or "樺太" in rules.eliminated for rules, _ in games)


@pytest.mark.parametrize("season", [{}, {"mastermind": {"enabled": True, "lives": 3}}])
def test_quick_play_from_prepared_groups(season: dict) -> None:
    grouped = prepared(SIX, dead=["山形"], groups=[["北海道", "青森"], ["岩手", "宮城"]], **season)
    while not grouped.setup_done:  # the 黒幕's camp, secretly chosen
        grouped = by_the_rules(grouped, QuickDice(len(grouped.pending)), stop_after=1)
    assert can_start(grouped) and grouped.groups
    for r in range(30):
        assert play_quick(grouped, QuickDice(r)) == outcome_of(by_the_rules(grouped, QuickDice(r)))


def test_quick_play_leaves_the_position_as_it_was() -> None:
    start = by_the_rules(br.initial_state(SMALL), QuickDice("x"), stop_after=9)
    before = state_to_dict(start)
    play_quick(start, QuickDice(1))
    play_position(
        position(by_the_rules(br.initial_state(SMALL), QuickDice(2), stop_after=0)), QuickDice(3).random
    )
    assert state_to_dict(start) == before


def test_a_finished_game_simulates_to_its_own_result_and_bad_positions_are_refused() -> None:
    end = by_the_rules(br.initial_state(SMALL), QuickDice(5))
    assert end.ending is not None
    assert play_quick(end, QuickDice(9)) == Outcome(
        "winner", tuple(end.ending.winners), end.battles, end.dice_total, tuple(end.eliminated),
        {k: v for k, v in end.counters.items() if v},
    )  # fmt: skip
    inside = by_the_rules(br.initial_state(SMALL), QuickDice(5), stop_after=2)
    assert inside.battle is not None
    with pytest.raises(ValueError, match="戦闘と戦闘の間"):
        position(inside)
    tag = by_the_rules(
        br.initial_state({**SMALL, "tag_match": {"enabled": True}}), QuickDice(5), stop_after=3
    )
    assert can_start(tag)
    broken = br.state_from_dict({**state_to_dict(tag), "teams": {"1": ["沖縄"]}})  # edited by hand
    with pytest.raises(br.BattleRoyaleError, match="状態データが壊れています"):
        simulate_from(broken, 5, "x")


def test_quick_simulation_is_deterministic_says_so_and_adds_up() -> None:
    first, again = simulate(SMALL, 50, "q", quick=True), simulate(SMALL, 50, "q", quick=True)
    assert first.to_dict() == again.to_dict() != simulate(SMALL, 50, "r", quick=True).to_dict()
    data = first.to_dict()
    assert data["random"] == "quick" and simulate(SMALL, 2, "q").to_dict()["random"] == "hmac"
    assert sum(first.wins.values()) == 50 and data["endings"] == {"winner": 50}
    text = br.sim.format_result(first)
    assert "検証できるダイスではありません" in text
    cli = CliRunner().invoke(main, ["simulate", "--help"])
    assert "not verifiable" in " ".join(cli.output.split())


def after_battles(count: int, season: dict | None = None) -> State:
    state = br.initial_state(season or {})
    dice = QuickDice("position")
    while state.battles < count:
        state = by_the_rules(state, dice, stop_after=1)
    return state


def test_status_shows_who_is_likely_to_win_the_same_way_every_time() -> None:
    state = after_battles(12)
    body = AUTOMATIC.status(state).plain
    assert "【優勝予想（この局面から1,000ゲームを試算）】" in body and "検証用の乱数ではありません" in body
    assert body == AUTOMATIC.status(state).plain  # the seed comes from the position
    assert position_seed(state) != position_seed(after_battles(13))
    rows = status_blocks(state)[1].rows
    assert len(rows) == 11 and rows[-1][1].startswith("その他")
    assert not any(name in state.eliminated for _, name, _ in rows)
    shares = [float(share.rstrip("%")) for _, _, share in rows]
    assert shares[:10] == sorted(shares[:10], reverse=True) and abs(sum(shares) - 100) < 0.2
    assert status_blocks(br.initial_state({})) == []  # before the first battle everyone stands alike
    hidden = after_battles(2, {**SMALL, "mastermind": {"enabled": True}})
    assert "優勝予想" not in AUTOMATIC.status(hidden).plain  # it would point at the 黒幕
    assert "検証できる乱数ではない" in AUTOMATIC.HELP and "1,000ゲーム" in AUTOMATIC.HELP


def test_status_answers_without_the_table_when_the_position_cannot_be_played_on(monkeypatch) -> None:
    state = after_battles(3)

    def refuse(*args: object) -> None:
        raise br.BattleRoyaleError("決着しませんでした")

    monkeypatch.setattr("engine.rules.battle_royale.chances.simulate_from", refuse)
    body = AUTOMATIC.status(state).plain
    assert "【生き残り表】" in body and "優勝予想" not in body


def test_cli_simulates_from_a_stored_state(tmp_path: Path) -> None:
    state = after_battles(20)
    stored = tmp_path / "state.json"
    stored.write_text(json.dumps(state_to_dict(state), ensure_ascii=False), "utf-8")
    runner = CliRunner()
    out = runner.invoke(main, ["simulate", "battle-royale", "--from", str(stored), "--runs", "60", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["origin"].startswith("第20戦終了時点") and data["battles"]["min"] > 20
    assert all(data["win_share"][name] == 0 for name in state.eliminated)
    assert data == json.loads(json.dumps(simulate_from(state, 60, "0").to_dict()))
    wrapped = tmp_path / "wrapped.json"
    wrapped.write_text(json.dumps({"state": state_to_dict(state)}, ensure_ascii=False), "utf-8")
    text = runner.invoke(main, ["simulate", "battle-royale", "--from", str(wrapped), "--runs", "20"])
    assert text.exit_code == 0 and "開始局面: 第20戦終了時点" in text.output
    broken = tmp_path / "broken.json"
    broken.write_text('{"version": 1}', "utf-8")
    bad = runner.invoke(main, ["simulate", "battle-royale", "--from", str(broken)])
    assert bad.exit_code != 0 and "状態データが壊れています" in bad.output
    both = runner.invoke(
        main, ["simulate", "battle-royale", "--from", str(stored), "--scenario", str(stored)]
    )
    assert both.exit_code != 0 and "どちらか一方" in both.output


@pytest.mark.parametrize(
    ("season", "battles"), [({"tag_match": {"enabled": True}}, 30), ({"revival": {"enabled": True}}, 12)]
)
def test_status_in_a_special_season_shows_the_step_machine_s_games(season: dict, battles: int) -> None:
    """状態's 優勝予想 in a タッグマッチ or 地区復活 season: its games are the quick game's, and they are
    the games the step machine plays on the same dice."""
    state = after_battles(battles, season)
    runs, seed = status_runs(state), position_seed(state)
    assert runs == STATUS_RUNS_SPECIAL and start_position(state) is not None
    wins = Counter(
        name
        for run in range(runs)
        for name in by_the_rules(state, QuickDice(int.from_bytes(run_key(seed, run), "big"))).ending.winners
    )
    assert simulate_from(state, runs, seed).wins == wins
    body = AUTOMATIC.status(state).plain
    assert "【優勝予想（この局面から200ゲームを試算）】" in body
    top = sorted((p.name for p in state.roster if wins[p.name]), key=lambda name: -wins[name])[0]
    assert f"\n1 {top} {wins[top] * 100 / runs:.1f}%\n" in body  # the table's first row
