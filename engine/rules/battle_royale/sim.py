"""Automatic play of the 都道府県バトロワ: the bot rolls every die itself (`play_step`, `play_game`), and
whole games offline for `threadgm simulate battle-royale` (win shares, battles per game, rule events).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.report import Report
from engine.rng import RandomSource, SeededSource
from engine.rules.battle_royale.common_steps import BattleRoyaleError
from engine.rules.battle_royale.events import DieRequest
from engine.rules.battle_royale.fast_sim import QuickDice, play_position, play_quick, start_position
from engine.rules.battle_royale.report import render
from engine.rules.battle_royale.resolution import apply_roll_events, initial_state, next_die
from engine.rules.battle_royale.state import State

MAX_DICE_PER_GAME = 200_000

# Counter keys shown by the simulation, with the Japanese label printed next to them.
EVENT_LABELS = (
    ("encounters", "対戦の組み合わせ"),
    ("surprises", "奇襲"),
    ("surprise_failures", "奇襲失敗（基準移行）"),
    ("escapes", "逃走"),
    ("escape_failures", "団体逃走の失敗"),
    ("alliances", "手を組む（団体結成・合流）"),
    ("pair_betrayals", "二人組の相方が勝者側へ"),
    ("mutual_kills", "相打ち"),
    ("infights", "仲間割れ"),
    ("infight_battles", "仲間割れの戦闘"),
    ("reconciliations", "仲間割れの和解"),
    ("dissolutions", "団体の解散"),
    ("reselections", "仲間割れからの選び直し"),
    ("dead_picks", "脱落済みの選出"),
    ("renumberings", "都道府県表の作り直し"),
    ("rerolls", "適用外の目の振り直し"),
    ("revivals", "地区復活"),
    ("revival_failures", "地区復活の失敗"),
    ("tag_wipes", "タッグ全滅"),
    ("mastermind_designations", "黒幕の指定"),
    ("mastermind_lives_lost", "黒幕の残機減少"),
    ("mastermind_fake_deaths", "黒幕の死んだふり"),
    ("final_battles", "黒幕決戦"),
)


def roll_request(request: DieRequest, source: RandomSource) -> tuple[int, ...]:
    """Roll what a request asks for on its own stream (purpose `br/{battle}/{step}`)."""
    dice = source.stream(request.purpose)
    return tuple(dice.roll(request.sides) for _ in range(request.count))


def play_step(state: State, source: RandomSource) -> tuple[State, DieRequest, tuple[int, ...], Report]:
    """One die of automatic play: which die, its faces, the new state and the report to post."""
    request = next_die(state)
    if request is None:
        raise BattleRoyaleError("このゲームは既に終了しています")
    faces = roll_request(request, source)
    new, events = apply_roll_events(state, faces, request)
    return new, request, faces, render(events)


def play_game(state: State, source: RandomSource, *, max_dice: int = MAX_DICE_PER_GAME) -> State:
    """Play to the end without building reports (simulations, benchmarks)."""
    for _ in range(max_dice):
        request = next_die(state)
        if request is None:
            return state
        state, _ = apply_roll_events(state, roll_request(request, source), request, narrate=False)
    raise BattleRoyaleError(f"{max_dice}個のダイスを振っても決着しませんでした")


def run_key(seed: str, run: int) -> bytes:
    return hashlib.sha256(f"simulate|{seed}|{run}".encode()).digest()


@dataclass
class SimulationResult:
    runs: int
    seed: str
    roster: list[str]
    wins: Counter[str] = field(default_factory=Counter)
    endings: Counter[str] = field(default_factory=Counter)
    battles: list[int] = field(default_factory=list)
    dice: list[int] = field(default_factory=list)
    events: Counter[str] = field(default_factory=Counter)
    quick: bool = False  # the fast PRNG of fast_sim.py, not the HMAC streams
    origin: str = ""  # where the games started, when not at the beginning

    def to_dict(self) -> dict[str, Any]:
        battles = self.battles or [0]
        return {
            "ruleset": "battle-royale",
            "runs": self.runs,
            "seed": self.seed,
            "random": "quick" if self.quick else "hmac",
            "origin": self.origin,
            "win_share": {name: self.wins[name] / self.runs for name in self.roster},
            "endings": dict(self.endings),
            "battles": {"mean": sum(battles) / len(battles), "min": min(battles), "max": max(battles)},
            "dice_per_game": sum(self.dice) / max(1, len(self.dice)),
            "events": {key: self.events.get(key, 0) for key, _ in EVENT_LABELS},
        }


def simulate(scenario: dict[str, Any], runs: int, seed: str, *, quick: bool = False) -> SimulationResult:
    """`runs` whole games, run r on the key sha256("simulate|{seed}|{r}"): the HMAC streams the bot
    uses, or with `quick` a fast PRNG seeded by that key (`fast_sim.py`: not verifiable, far faster)."""
    if runs < 1:
        raise BattleRoyaleError("runs は1以上にしてください")
    start = initial_state(scenario)
    if quick:
        return simulate_from(start, runs, seed)
    result = SimulationResult(runs, seed, [p.name for p in start.roster])
    for run in range(runs):
        final = play_game(start, SeededSource(run_key(seed, run)))
        assert final.ending is not None
        result.endings[final.ending.kind] += 1
        for name in final.ending.winners:
            result.wins[name] += 1
        result.battles.append(final.battles)
        result.dice.append(final.dice_total)
        result.events.update(final.counters)
    return result


def simulate_from(state: State, runs: int, seed: str) -> SimulationResult:
    """`runs` quick games from `state` (a new game or a stored position), run r on the fast PRNG seeded
    by sha256("simulate|{seed}|{r}"). The counters count from the start of the game, as the state does."""
    if runs < 1:
        raise BattleRoyaleError("runs は1以上にしてください")
    result = SimulationResult(runs, seed, [p.name for p in state.roster], quick=True)
    if state.battles or state.dice_total:
        result.origin = f"第{state.battles}戦終了時点（ダイス{state.dice_total}個目）から"
    ready = start_position(state)
    for run in range(runs):
        dice = QuickDice(int.from_bytes(run_key(seed, run), "big"))
        end = play_position(ready, dice.random) if ready is not None else play_quick(state, dice)
        result.endings[end.kind] += 1
        for name in end.winners:
            result.wins[name] += 1
        result.battles.append(end.battles)
        result.dice.append(end.dice)
        result.events.update(end.counters)
    return result


def format_result(result: SimulationResult, *, as_json: bool = False) -> str:
    data = result.to_dict()
    if as_json:
        return json.dumps(data, ensure_ascii=False, indent=2)
    lines = [f"battle-royale: {result.runs}回シミュレーション（seed={result.seed}）"]
    if result.origin:
        lines.append(f"開始局面: {result.origin}")
    if result.quick:
        lines.append("乱数: 高速な疑似乱数（シミュレーション専用。検証できるダイスではありません）")
    battles = data["battles"]
    lines.append(
        f"1ゲームの戦闘数: 平均 {battles['mean']:.1f} / 最少 {battles['min']} / 最多 {battles['max']}"
    )
    lines.append(f"1ゲームのダイス数: 平均 {data['dice_per_game']:.1f}")
    endings = {"winner": "優勝者あり", "mastermind": "黒幕の勝利", "reconciled": "和解エンド"}
    lines.append("結末: " + "、".join(f"{endings.get(k, k)} {n}" for k, n in sorted(result.endings.items())))
    lines.append("優勝率（勝った側に入ったゲームの割合）:")
    ranked = sorted(result.roster, key=lambda name: (-result.wins[name], result.roster.index(name)))
    for name in ranked:
        lines.append(f"  {name}\t{data['win_share'][name] * 100:5.1f}%\t({result.wins[name]})")
    lines.append("ルール上の出来事（全ゲーム合計 / 1ゲーム平均）:")
    for key, label in EVENT_LABELS:
        total = data["events"][key]
        if total:
            lines.append(f"  {label}\t{total}\t{total / result.runs:.2f}")
    return "\n".join(lines)
