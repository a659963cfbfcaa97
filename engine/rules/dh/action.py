"""One character's 行動: 移動 then 動作, nothing in between.

- 行動の前提条件: 1. its side's phase, 2. its side controls it (the author's trip: `resolution.py`), 3. on the
  map since two phases before (starters exempt at the start; a 戦線離脱 character counts as present),
  4. able to act, 5. not yet acted this phase (a 再行動 is the exception it grants).
- 移動: up to 2 squares (移動力), a diagonal costing 2, walls impassable, any number in a square; entering
  an enemy's square ends the move (ZoC, unless ZoC無視); a square it cannot reach cancels the whole
  action (0 squares, then 待機). 瀕死 cannot move.
- 動作: 通常攻撃 on one other character in the same square (allies allowed, never oneself), hit on
  d100 ≤ (攻撃力 − 防御力) × 5 + 50, damage 攻撃力 − 防御力 but at least 1 (半必中: a miss still deals 1;
  必中: no roll); 特殊能力の使用 (`powers.py`); 待機.
"""

from __future__ import annotations

from typing import Any

from engine.rules.dh.context import Context
from engine.rules.dh.geometry import plan_move
from engine.rules.dh.grammar import ATTACK, POWER, Command
from engine.rules.dh.powers import fire_counters, first_side_penalty, use_power
from engine.rules.dh.state import Character, DHState, Power
from engine.rules.dh.stats import ZOC_FREE, holds, move_points, present_since, stat, why_cannot_act


def hit_chance(attack: int, defense: int) -> int:
    """命中率 = (攻撃力 − 防御力) × 5 + 50."""
    return (attack - defense) * 5 + 50


def damage_of(attack: int, defense: int) -> int:
    """ダメージ = 攻撃力 − 防御力, at least 1."""
    return max(1, attack - defense)


def precondition(ctx: Context, character: Character, again: bool) -> str | None:
    """Why `character` may not act now (conditions 1, 3, 4 and 5), or None."""
    if character.side != ctx.state.acting.name:
        return f"{ctx.state.acting.name}のフェイズではないため行動できない（条件1）"
    why = why_cannot_act(character)
    if why is not None:
        return f"{why}（条件4）"
    if not present_since(character, ctx.phase):
        return "2つ前のフェイズからMAP上にいないため行動できない（条件3）"
    if character.name in ctx.lost:
        return "遅刻ペナルティにより行動できない"
    if character.name in ctx.acted and not again:
        return "このフェイズには行動済み（条件5）"
    return None


def _enemy_squares(ctx: Context, character: Character) -> frozenset[str]:
    return frozenset(
        c.square for c in ctx.state.on_map() if c.side != character.side and c.square is not None
    )


def move(ctx: Context, character: Character, goal: str | None, record: dict[str, Any]) -> bool:
    """移動: False when the square cannot be reached (the action is cancelled)."""
    start = character.square
    assert start is not None
    record["from"] = start
    if goal is None or goal == start:
        record["to"], record["moved"] = start, 0
        return True
    options = ctx.state.options
    plan = plan_move(
        ctx.grid,
        start,
        goal,
        move_points(character, options),
        _enemy_squares(ctx, character),
        zoc=not holds(character, ZOC_FREE),
        zoc_cancels=options.zoc_cancels,
    )
    if plan is None:
        record.update(to=start, moved=0, cancelled="移動不可能なマス")
        ctx.say(f"　{goal}へは移動できないため行動キャンセル（0マス移動・待機）")
        return False
    for previous, square in zip(plan.path, plan.path[1:], strict=False):
        character.square = square
        ctx.entered(character, square, previous)
        if not character.alive or character.square != square:
            break
    record.update(to=character.square, moved=plan.cost, zoc=plan.zoc_stop)
    stop = f"（ZoCにより{plan.end}で停止）" if plan.zoc_stop else ""
    ctx.say(f"　移動 {'→'.join(plan.path)}{stop}")
    return True


def attack_problem(state: DHState, user: Character, name: str | None) -> str | None:
    """Why `user` (where it stands now) cannot normal-attack `name`, or None: 「同マスのキャラクター1人
    に攻撃を仕掛けます」「自分自身に対しては不可能です」 — a dead or absent target is said to be so."""
    target = state.characters.get(name or "")
    if target is None:
        return f"{name}はいない"
    if target is user:
        return "自分自身は攻撃できない"
    if not target.alive:
        return f"{name}は死亡している"
    if target.square is None:
        return f"{name}はMAP上にいない"
    if target.square != user.square:
        return f"{name}は同マスにいない"
    if target.side != user.side and first_side_penalty(state, user):
        return "先手ペナルティにより第1ターンは敵を通常攻撃できない"
    return None


def attack(ctx: Context, user: Character, name: str | None, record: dict[str, Any]) -> None:
    """通常攻撃: 1.対象決定 → 2.命中判定 → 3.ダメージ処理 → 4.終了; then the target's counters."""
    why = attack_problem(ctx.state, user, name)
    if why is not None:
        record["outcome"] = "キャンセル"
        ctx.say(f"　通常攻撃 → {why}ため待機")
        return
    target = ctx.state.characters[name or ""]
    power, guard = stat(user, "attack"), stat(target, "defense")
    chance = hit_chance(power, guard)
    options = ctx.state.options
    hit = ctx.check(user.name, f"命中判定({target.name})", 100 if options.sure_hit else chance)
    amount = damage_of(power, guard) if hit.ok else (1 if options.half_hit else 0)
    record.update(target=target.name, chance=chance, outcome="命中" if hit.ok else "回避", damage=amount)
    verdict = "命中" if hit.ok else ("回避（半必中で1ダメージ）" if amount else "回避")
    ctx.say(f"　通常攻撃 {target.name} 命中率{chance}% {hit.text} → {verdict}")
    if amount:
        ctx.damage(target, amount)
        ctx.say(f"　{target.name}に{amount}ダメージ（体力{target.hp}）")
    ctx.settle()
    fire_counters(ctx, target, user, "被攻撃")


def _power_of(character: Character, name: str | None) -> Power | None:
    if name is None:
        return character.powers[0] if character.powers else None
    return next((p for p in character.powers if p.name == name), None)


def act(ctx: Context, command: Command) -> dict[str, Any]:
    """One whole 行動 of a character whose preconditions hold: its move, then its deed."""
    character = ctx.character(command.character)
    record: dict[str, Any] = {"deed": command.deed, "line": command.canonical}
    ctx.acted.add(character.name)
    if not move(ctx, character, command.square, record):
        record["deed"] = "待機"
        return record
    if not character.alive:
        record["outcome"] = "死亡"
        return record
    if command.deed == ATTACK:
        attack(ctx, character, command.target, record)
    elif command.deed == POWER:
        power = _power_of(character, command.power)
        if power is None:
            ctx.say("　その特殊能力はないため待機")
        else:
            record["power"] = power.name
            use_power(ctx, character, power, command.target, command.to)
    else:
        ctx.say("　待機")
    return record
