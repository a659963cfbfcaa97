"""One phase resolved, as a pure function of the state, the 行動提出 lines in posting order and the
period's random streams.

1. At the first phase only: パッシブ of every starter (ゲーム開始時), then the start of phase 1.
2. 遅刻ペナルティ: when the side was late (`late`, seconds: measured from the post times of its lines
   against the phase's deadline, or set by the GM), it loses `late_first` actions
   for the first second and `late_per_minute` more for every further minute; who loses them is drawn
   (stream label 遅刻) among the characters that could act, and stated.
3. The lines in the order they were written, each character's action whole (`action.py`), a 再行動
   right after the action that granted it; a character without a line waits (待機).
4. Victory (after every phase): a side whose enemy's starters are all gone (dead or 戦線離脱 for good)
   wins, both at once is a draw; after the last turn the side with more DP wins (equal: a draw).
5. The start of the next phase: timed states end (a 戦線離脱 character comes back to its square),
   fields end, 増援 of that side and turn arrive (drawn from its reserves, label 増援; their パッシブ on
   first appearance; they cannot act before two phases have passed), and the side's fields make their
   成功判定 on every enemy inside (自軍フェイズ開始時); victory is checked again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.rng import RandomSource
from engine.rules.dh.action import act, precondition
from engine.rules.dh.context import Context
from engine.rules.dh.control import speaks_for
from engine.rules.dh.grammar import Command
from engine.rules.dh.powers import cancelled, field_check, fire_counters, use_active
from engine.rules.dh.state import PASSIVE, Character, DHState, clone
from engine.rules.dh.stats import AWAY, WAITING, expire, holds, status_text


@dataclass
class Phase:
    """What a resolved phase produced, for the report and its JSON form."""

    phase: int
    side: str
    opening: list[str] = field(default_factory=list)
    actions: list[tuple[str, list[str]]] = field(default_factory=list)  # (key, lines)
    records: dict[str, dict[str, Any]] = field(default_factory=dict)
    closing: list[str] = field(default_factory=list)
    late_lost: list[str] = field(default_factory=list)
    void: list[tuple[str, str]] = field(default_factory=list)  # (line as written, why) of void lines


def _on_enter(ctx: Context) -> Callable[[Character, str, str | None], None]:
    """What watches a character coming into a square: enemy fields (entry into their range) and
    enemy counters waiting in that square (敵侵入)."""

    def entered(character: Character, square: str, came_from: str | None) -> None:
        for placed in list(ctx.state.fields):
            owner = ctx.state.characters.get(placed.owner)
            inside = square in placed.squares and came_from not in placed.squares
            if owner is not None and owner.side != character.side and inside:
                field_check(ctx, placed, character, "が範囲内へ侵入")
        for holder in ctx.state.on_map():
            if holder.side != character.side and holder.square == square and holds(holder, WAITING):
                fire_counters(ctx, holder, character, "敵侵入")

    return entered


def _passives(ctx: Context, characters: list[Character]) -> None:
    """パッシブ: once per character, at the start of the game or on its first appearance."""
    for character in characters:
        if character.passive_done:
            continue
        character.passive_done = True
        for power in [p for p in character.powers if p.style == PASSIVE]:
            if not character.alive:
                break
            ctx.say(f"{character.name} パッシブ「{power.name}」")
            why = cancelled(ctx, character, power)
            if why is not None:
                ctx.say(f"　{why}")
                continue
            use_active(ctx, character, power, None, None)


def _returns(ctx: Context, ended: list) -> None:
    for character, status in ended:
        if status.kind == AWAY and character.alive and character.away:
            character.square, character.away = character.away, None
            ctx.say(f"{character.name} 戦線離脱から復帰（{character.square}）")
            ctx.entered(character, character.square, None)
        elif status.kind != AWAY:
            ctx.say(f"{character.name}の{status_text(status)}が終了")


def _place(ctx: Context, arrivals: list[Character], zone: list[str]) -> None:
    taken = {c.square for c in ctx.state.on_map()}
    free = [s for s in zone if s not in taken] or zone
    for index, character in enumerate(arrivals):
        character.square, character.entered = free[index % len(free)], ctx.phase
        ctx.say(f"増援: {character.name} が {character.square} に登場")
        ctx.entered(character, character.square, None)


def _reinforcements(ctx: Context) -> None:
    state = ctx.state
    for wave in state.reinforcements:
        if wave.done or wave.side != state.acting.name or wave.turn != state.turn:
            continue
        wave.done = True
        pool = [c for c in state.characters.values() if c.side == wave.side and c.alive and c.entered is None]
        chosen: list[Character] = []
        for n in range(min(wave.count, len(pool))):
            chosen.append(pool.pop(ctx.pick("増援", f"増援{n + 1}人目", len(pool))))
        _place(ctx, chosen, wave.zone)
        _passives(ctx, chosen)


def start_phase(ctx: Context) -> None:
    """The start of the phase `ctx.state.phase`: states and fields end, 増援, own fields' checks."""
    state = ctx.state
    _returns(ctx, expire(state, state.phase))
    state.fields = [
        f
        for f in state.fields
        if (f.until is None or f.until > state.phase) and state.characters[f.owner].alive
    ]
    _reinforcements(ctx)
    for placed in [f for f in state.fields if state.characters[f.owner].side == state.acting.name]:
        for enemy in [
            c for c in state.on_map() if c.side != state.acting.name and c.square in placed.squares
        ]:
            field_check(ctx, placed, enemy, "（自軍フェイズ開始時）")
    ctx.settle()


def begin_game(ctx: Context) -> None:
    """At the first phase only: パッシブ of every starter (ゲーム開始時), then the start of phase 1."""
    state = ctx.state
    ctx.on_enter = ctx.on_enter or _on_enter(ctx)
    if not state.started:
        state.started = True
        _passives(ctx, [c for c in state.characters.values() if c.starter])
        start_phase(ctx)


def late_penalty(ctx: Context) -> list[str]:
    """遅刻ペナルティ: the characters that lose their action, drawn among those that could act."""
    state, options = ctx.state, ctx.state.options
    late, note = state.late or 0, state.late_note
    state.late, state.late_note = None, ""  # the next phase's lateness is its own
    if late <= 0:
        return []
    count = options.late_first + options.late_per_minute * ((late - 1) // 60)
    pool = [c.name for c in state.characters.values() if c.side == state.acting.name]
    pool = [name for name in pool if precondition(ctx, state.characters[name], False) is None]
    lost = [pool.pop(ctx.pick("遅刻", f"遅刻{n + 1}人目", len(pool))) for n in range(min(count, len(pool)))]
    ctx.say(f"遅刻{late}秒{note}: {count}人の行動が失われる → {'、'.join(lost) or 'なし'}")
    ctx.lost.update(lost)
    return lost


def _gone(state: DHState, side: str) -> bool:
    starters = [c for c in state.characters.values() if c.side == side and c.starter]
    return all(not c.alive or any(s.kind == AWAY and s.until is None for s in c.statuses) for c in starters)


def victory(state: DHState, last: bool) -> None:
    """勝利判定: after every phase, and by DP after the last turn."""
    if state.winner is not None:
        return
    first, second = (side.name for side in state.sides)
    gone = {name: _gone(state, name) for name in (first, second)}
    if gone[first] and gone[second]:
        state.winner, state.reason = "引き分け", "両陣営のスタメンが全滅"
    elif gone[first] or gone[second]:
        loser = first if gone[first] else second
        state.winner, state.reason = state.enemy_of(loser), f"{loser}のスタメンが全滅"
    elif last:
        a, b = state.dp.get(first, 0), state.dp.get(second, 0)
        state.winner = first if a > b else second if b > a else "引き分け"
        state.reason = f"最終ターン終了、DP {first}{a}・{second}{b}"


def _act_one(ctx: Context, result: Phase, command: Command, key: str) -> None:
    character = ctx.character(command.character)
    why = precondition(ctx, character, command.again)
    if why is None and command.again and character.name not in ctx.again:
        why = "再行動は得ていない"
    if why is not None:
        result.actions.append((key, [f"{command.canonical}", f"　{why}"]))
        result.records[key] = {"line": command.canonical, "cancelled": why, "deed": "待機"}
        return
    if command.again:
        ctx.again.remove(character.name)
    ctx.lines = [command.canonical]
    result.records[key] = act(ctx, command)
    result.actions.append((key, ctx.lines))


def _run(ctx: Context, result: Phase, commands: list[Command]) -> None:
    again_lines = {c.character: c for c in commands if c.again}
    for command in [c for c in commands if not c.again]:
        _act_one(ctx, result, command, command.character)
        while ctx.again and ctx.state.winner is None:
            name = ctx.again[0]
            if name not in again_lines:
                ctx.again.pop(0)
                result.actions.append(
                    (f"{name}/再行動", [f"{name} 再行動", "　再行動の行動提出がないため待機"])
                )
                continue
            _act_one(ctx, result, again_lines.pop(name), f"{name}/再行動")
    for name, command in again_lines.items():
        why = "再行動は得ていない"
        result.actions.append((f"{name}/再行動", [command.canonical, f"　{why}"]))
        result.records[f"{name}/再行動"] = {"line": command.canonical, "cancelled": why, "deed": "待機"}


def _waiting(ctx: Context, result: Phase) -> None:
    for character in ctx.state.characters.values():
        mine = character.side == ctx.state.acting.name and character.name not in ctx.acted
        mine = mine and character.name not in result.records
        if mine and precondition(ctx, character, False) is None:
            result.actions.append((character.name, [f"{character.name} 待機（行動提出なし）"]))
            result.records[character.name] = {"line": f"{character.name} 待機", "deed": "待機", "none": True}


def _controlled(state: DHState, lines: Sequence[tuple[str, Command]], result: Phase) -> list[Command]:
    """The lines of characters the author's side controls (condition 2); the others are void, said so."""
    kept = []
    for author, command in lines:
        character = state.characters.get(command.character)
        if character is None:
            why = "そのキャラクターはいない"
        elif not speaks_for(state.acting, author) or character.side != state.acting.name:
            why = "操作権がないため無効（条件2）"
        else:
            kept.append(command)
            continue
        result.actions.append((command.character, [command.canonical, f"　{why}"]))
        result.records[command.character] = {"line": command.canonical, "cancelled": why, "deed": "待機"}
    return kept


def resolve_phase(
    state: DHState, lines: Sequence[tuple[str, Command]], source: RandomSource
) -> tuple[DHState, Phase, Context]:
    """The phase of `state` with the (author, command) lines in posting order."""
    state = clone(state)
    ctx = Context(state, source)
    result = Phase(state.phase, state.acting.name)
    begin_game(ctx)
    result.late_lost = late_penalty(ctx)
    result.opening, ctx.lines = ctx.lines, []
    _run(ctx, result, _controlled(state, lines, result))
    _waiting(ctx, result)
    ctx.lines = []
    last = state.phase >= 2 * state.options.turn_limit
    victory(state, last)
    if state.winner is None:
        state.phase += 1
        start_phase(ctx)
        victory(state, False)
    result.closing = ctx.lines
    return state, result, ctx
