"""What a 行動提出 line will do at the deadline as things stand: the receipt's promise (issue 25).

A line the grammar and `control.check_order` accept can still come to nothing when the phase is
resolved: its square is a wall or out of reach (「移動不可能なマスを指定した場合、そのキャラクターのこの
ターンの行動はキャンセルされます」), ZoC stops it short, its target is in another square or dead, its power
is resting. The receipt says so now, from the state and the lines that count before it (their moves
walked in order, as `resolution.py` will): 「壁のため移動できません（このままなら待機）」.

Only what the map and the states decide is foretold; dice (hits, counters, fields on the way, deaths)
are not, so a promise holds "as things stand". The test over a played game checks each receipt
against the report.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.rules.dh.action import attack_problem
from engine.rules.dh.context import Context
from engine.rules.dh.geometry import plan_move
from engine.rules.dh.grammar import ATTACK, POWER, Command
from engine.rules.dh.powers import cancelled, choose_targets, first_side_penalty
from engine.rules.dh.resolution import begin_game
from engine.rules.dh.state import FIELD, Character, DHState, Power, clone
from engine.rules.dh.stats import AWAY, ZOC_FREE, dying, holds, move_points, present_since, why_cannot_act

STAYS = "（このままなら待機）"


class _Rolled(Exception):
    """A forecast reached a die: what follows depends on it, so it is not foretold."""


class _NoDice:
    """Forecasts roll nothing: a die asked for ends that part of the forecast (`_Rolled`)."""

    def stream(self, purpose: str):
        raise _Rolled(purpose)


def _begun(state: DHState) -> DHState:
    """The state as the first phase will begin it: the starters' パッシブ that need no die (a 発動率
    and 成功率 of 100) and the start of phase 1; the state as it is when a die would decide."""
    if state.started:
        return state
    begun = clone(state)
    try:
        begin_game(Context(begun, _NoDice()))
    except _Rolled:
        return state
    return begun


def _move(state: DHState, character: Character, goal: str | None) -> tuple[str | None, str | None]:
    """Where the character ends its move, and what to say (None, why: the action is cancelled)."""
    start = character.square
    assert start is not None
    if goal is None or goal == start:
        return start, None
    grid = state.grid
    if goal in grid.walls:
        return None, "壁のため移動できません"
    if dying(character, state.options):
        return None, "瀕死（体力1）のため移動できません"
    enemies = frozenset(c.square for c in state.on_map() if c.side != character.side and c.square)
    points = move_points(character, state.options)
    zoc = not holds(character, ZOC_FREE)
    plan = plan_move(grid, start, goal, points, enemies, zoc=zoc, zoc_cancels=state.options.zoc_cancels)
    if plan is None:
        if zoc and plan_move(grid, start, goal, points, enemies, zoc=False) is not None:
            return None, f"{goal}へのどの道も敵のマスを通るため移動できません（ZoC）"
        return None, f"{goal}へは移動力{points}では届かないため移動できません"
    if plan.zoc_stop:
        return plan.end, f"ZoCにより{plan.end}で止まります"
    return plan.end, None


def _power_problem(ctx: Context, user: Character, power: Power, command: Command) -> str | None:
    why = cancelled(ctx, user, power)
    if why is not None:
        return why
    named = command.target
    if power.style == FIELD:
        square = named if named and ctx.grid.contains(named) else None
        if named and square is None and named in ctx.state.characters:
            square = ctx.character(named).square
        if named and square is None:
            return "フィールドを置くマスが不適正のため発動キャンセル"
        centre = square or user.square
        enemies = [c for c in ctx.state.on_map() if c.side != user.side and c.square == centre]
        if not ctx.grid.open(centre or "") or (enemies and first_side_penalty(ctx.state, user)):
            return "フィールドを置けないマスのため発動キャンセル"
        return None
    if power.style != "active" and power.style != "passive":
        return None  # a counter takes no target
    if choose_targets(ctx, user, power, named) is None:
        dead = [
            n for n in (named or "").split("、") if n in ctx.state.characters and not ctx.character(n).alive
        ]
        return (
            f"{'、'.join(dead)}は死亡しているため発動キャンセル"
            if dead
            else "対象が不適正のため発動キャンセル"
        )
    return None


def _cannot_act(character: Character, phase: int) -> str | None:
    """行動の前提条件 3 and 4 as the receipt words them (None: the character may act)."""
    if why_cannot_act(character) is None:
        return (
            None
            if present_since(character, phase)
            else "2つ前のフェイズからMAP上にいないため行動できません（条件3）"
        )
    if not character.alive:
        return "死亡しているため行動できません"
    if character.square is None:
        return (
            "戦線離脱中のため行動できません" if holds(character, AWAY) else "MAP上にいないため行動できません"
        )
    return "行動不能のため行動できません（条件4）"


def _foretell(state: DHState, command: Command) -> tuple[str | None, list[str]]:
    """Walk one line on `state` (its move only); the square it ends on and what to say."""
    character = state.characters.get(command.character)
    if character is None or character.side != state.acting.name or command.again:
        return None, []
    why = _cannot_act(character, state.phase)
    if why is not None:
        return None, [why]
    end, said = _move(state, character, command.square)
    if end is None:
        return None, [f"{said}{STAYS}"]
    character.square = end
    notes = [said] if said else []
    if command.deed == ATTACK:
        problem = attack_problem(state, character, command.target)
        if problem is not None:
            notes.append(f"{problem}ため通常攻撃できません{STAYS}")
    elif command.deed == POWER:
        power = (
            next((p for p in character.powers if p.name == command.power), None) if command.power else None
        )
        power = power or (character.powers[0] if character.powers and not command.power else None)
        if power is not None:
            problem = _power_problem(Context(state, _NoDice()), character, power, command)
            if problem is not None:
                notes.append(f"{problem}{STAYS}")
    return end, notes


def forecast(state: DHState, lines: Sequence[Command]) -> str | None:
    """What the receipt says of the last of `lines` (the lines that count, in posting order), given
    the moves of those before it; None when it will run as written."""
    if not lines:
        return None
    ahead = _begun(state)
    ahead = clone(ahead) if ahead is state else ahead
    for command in lines[:-1]:
        _foretell(ahead, command)
    _, notes = _foretell(ahead, lines[-1])
    return "。".join(notes) or None
