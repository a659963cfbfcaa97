"""特殊能力の使用: the seed's procedures, by style.

- アクティブ / パッシブ: 1.対象決定 (no fitting target: cancelled, unless 空撃ち可能) → for each effect its
  発動処理: 2.発動判定 (発動率) → 3.成功判定 per target (成功率; a 精神攻撃 by the target's 精神) →
  4.効果の適用, to every target at once, deaths settled there (none when a 消費制約 can no longer be
  paid) → 5.制約の支払い・能力休み (paid as far as possible, once any 発動判定 succeeded) → 6.終了,
  after which 再行動 comes.
- カウンター: 発動判定 (no target) → カウンター待受状態 → 制約・能力休み; later, each time its condition
  is met (被攻撃 / 敵侵入) a 成功判定 and the effects on the one who met it.
- フィールド: 発動判定 → the field is placed on its squares → a 成功判定 for every enemy in it, then
  at each enemy's entry and at the start of each of its side's phases, with no new cost.
A power is cancelled before any roll when it is 特殊能力無効 or 能力休み, or its 制約 cannot be met.
"""

from __future__ import annotations

from engine.rules.dh.context import Context
from engine.rules.dh.effects import CATALOGUE, DELAYED
from engine.rules.dh.geometry import in_range, parse_range
from engine.rules.dh.state import (
    COUNTER,
    FIELD,
    Character,
    CostSpec,
    DHState,
    EffectSpec,
    Field,
    Power,
    Status,
)
from engine.rules.dh.stats import DISABLED, WAITING, holds, stat


def _until(ctx: Context, turns: int) -> int | None:
    return ctx.phase + 2 * turns if turns > 0 else None


def first_side_penalty(state: DHState, user: Character) -> bool:
    """先手ペナルティ applies to this user now (turn 1, the 先手 side)."""
    return state.options.first_penalty and state.turn == 1 and user.side == state.sides[0].name


def fits(ctx: Context, user: Character, power: Power, other: Character) -> bool:
    """Whether `other` is a fitting target: alive on the map, of the right kind, in range, of the
    restricted 性別, and (先手ペナルティ) no enemy unless the power is a 精神攻撃."""
    if not other.alive or other.square is None or user.square is None:
        return False
    enemy = other.side != user.side
    kind = power.target
    if (kind == "敵" and not enemy) or (kind == "味方" and enemy) or (kind == "自分" and other is not user):
        return False
    if power.gender and other.gender != power.gender:
        return False
    if enemy and first_side_penalty(ctx.state, user) and not power.mental:
        return False
    shape = parse_range(power.range) or ("同マス", 0)
    if not power.include_own and other.square == user.square and kind != "自分":
        return False
    return in_range(ctx.grid, user.square, other.square, shape)


def choose_targets(ctx: Context, user: Character, power: Power, named: str | None) -> list[Character] | None:
    """1.対象決定: the targets (empty: 空撃ち), or None when the power is cancelled (no fitting target,
    an unfit one among those named, or more named than the power takes)."""
    if power.target == "自分":
        return [user]
    if power.all_in_range:
        found = [c for c in ctx.state.on_map() if fits(ctx, user, power, c)]
    else:
        names = list(dict.fromkeys(name for name in (named or "").split("、") if name))
        if len(names) > power.targets:
            return None
        found = [ctx.state.characters[n] for n in names if n in ctx.state.characters]
        found = [c for c in found if fits(ctx, user, power, c)]
        found = found if len(found) == len(names) else []  # one unfit target: the use is unfit
    if found or power.empty_ok:
        return found
    return None


def payable(user: Character, costs: list[CostSpec]) -> bool:
    have = {"体力": user.hp, "精神": user.mind, "攻撃力": user.attack, "防御力": user.defense}
    return user.alive and all(cost.kind == "死亡" or have[cost.kind] >= cost.value for cost in costs)


def pay(ctx: Context, user: Character, power: Power) -> None:
    """5.制約の支払い・能力休み: every cost as far as it can be paid, and the power rests."""
    for cost in power.costs:
        if cost.kind == "体力":
            ctx.damage(user, min(cost.value, user.hp))
        elif cost.kind == "精神":
            user.mind -= min(cost.value, user.mind)
        elif cost.kind == "攻撃力":
            user.attack -= min(cost.value, user.attack)
        elif cost.kind == "防御力":
            user.defense -= min(cost.value, user.defense)
        else:
            ctx.kill(user)
    if power.costs:
        paid = "、".join(f"{c.kind}{c.value}" if c.kind != "死亡" else "死亡" for c in power.costs)
        ctx.say(f"　制約の支払い: {paid}（{user.name} 体力{user.hp} 精神{user.mind}）")
    own_next = ctx.phase + (2 if ctx.state.acting.name == user.side else 1)
    user.rested[power.name] = own_next + 2 * power.rest
    if power.rest:
        ctx.say(f"　{power.name}は能力休み（{power.rest}フェイズ）")
    ctx.settle()


def success_rate(ctx: Context, power: Power, target: Character) -> int:
    """成功率: the power's, or for a 精神攻撃 the campaign's rate for the target's 精神."""
    if not power.mental:
        return power.success
    rates = ctx.state.options.mental_rates
    mind = stat(target, "mind")
    return rates[mind] if mind < len(rates) else 0


def apply_effects(
    ctx: Context,
    user: Character,
    power: Power,
    targets: list[Character],
    effects: list[EffectSpec],
    to: str | None,
) -> None:
    """3.成功判定 per target, then 4.効果の適用 to all who were hit at once."""
    hit = []
    for target in targets:
        check = ctx.check(user.name, f"成功判定({target.name})", success_rate(ctx, power, target))
        ctx.say(f"　{check.text}")
        hit += [target] if check.ok else []
    for target in hit:
        for effect in effects:
            CATALOGUE[effect.kind](ctx, user, target, effect, to)
    ctx.settle()


def cancelled(ctx: Context, user: Character, power: Power) -> str | None:
    """Why the power cannot even be tried now (None: it can)."""
    if holds(user, DISABLED):
        return "特殊能力無効のため使えない"
    if user.rested.get(power.name, 0) > ctx.phase:
        return f"能力休み中（フェイズ{user.rested[power.name]}から使用可）"
    if not payable(user, power.costs):
        return "消費制約を支払えないため発動キャンセル"
    return None


def _activate(ctx: Context, user: Character, power: Power) -> bool:
    check = ctx.check(user.name, "発動判定", power.activation)
    ctx.say(f"　{check.text}")
    return check.ok


def _process(
    ctx: Context,
    user: Character,
    power: Power,
    targets: list[Character],
    effect: EffectSpec | None,
    to: str | None,
) -> bool:
    """One effect's 発動処理 (2.発動判定 → 3.成功判定 → 4.効果の適用): whether its 発動判定 succeeded."""
    if not _activate(ctx, user, power):
        ctx.say("　何も起こらない")
        return False
    if effect is None:
        return True
    if not payable(user, power.costs):
        ctx.say("　消費制約を支払えなくなったため効果は現れない")
    else:
        apply_effects(ctx, user, power, targets, [effect], to)
    return True


def use_active(ctx: Context, user: Character, power: Power, named: str | None, to: str | None) -> None:
    """アクティブ and パッシブ: each effect's 発動処理 (its 1.対象決定 first), then 制約・能力休み, then
    再行動-like effects once the use has ended."""
    targets = choose_targets(ctx, user, power, named)
    if targets is None:
        dead = [
            n for n in (named or "").split("、") if n in ctx.state.characters and not ctx.character(n).alive
        ]
        why = f"{'、'.join(dead)}は死亡している" if dead else "対象が不適正の"
        ctx.say(f"　{why}ため発動キャンセル（待機）")
        return
    if not targets:
        ctx.say("　対象なし（空撃ち）")
    fired = False
    for index, effect in enumerate([e for e in power.effects if e.kind not in DELAYED] or [None]):
        if not user.alive:
            break
        if index:
            again = choose_targets(ctx, user, power, named)  # 1.対象決定 of the next effect
            if again is None:
                ctx.say(f"　効果{index + 1}は対象がいないためキャンセル")
                continue
            targets = again
        fired = _process(ctx, user, power, targets, effect, to) or fired
    if user.alive and (fired or ctx.state.options.failed_activation_pays):
        pay(ctx, user, power)
    delayed = [e for e in power.effects if e.kind in DELAYED]
    if fired and delayed and user.alive:
        apply_effects(ctx, user, power, targets, delayed, to)


def use_counter(ctx: Context, user: Character, power: Power) -> None:
    """カウンター: for each effect its 発動処理 (1.発動判定 → 2.カウンター待受状態), then 3.制約・能力休み.
    Each effect that activated waits on its own (the status's `value` is the effect's index)."""
    fired = False
    for index in range(max(1, len(power.effects))):
        if not _activate(ctx, user, power):
            ctx.say("　何も起こらない")
            continue
        fired = True
        status = Status(WAITING, index, until=_until(ctx, power.wait), power=power.name, source=user.name)
        user.statuses.append(status)
        which = f"効果{index + 1}" if len(power.effects) > 1 else ""
        ctx.say(f"　{user.name}はカウンター待受状態{which}（{power.counter}）")
    if fired or ctx.state.options.failed_activation_pays:
        pay(ctx, user, power)


def use_field(ctx: Context, user: Character, power: Power, centre: str | None) -> None:
    """フィールド: 発動判定, the field placed, a 成功判定 for every enemy in it, 制約・能力休み."""
    assert user.square is not None
    centre = centre or user.square
    enemies_there = [c for c in ctx.state.on_map() if c.side != user.side and c.square == centre]
    if not ctx.grid.open(centre) or (enemies_there and first_side_penalty(ctx.state, user)):
        ctx.say("　フィールドを置けないマスのため発動キャンセル（待機）")
        return
    if not _activate(ctx, user, power):
        ctx.say("　何も起こらない")
        if ctx.state.options.failed_activation_pays:
            pay(ctx, user, power)
        return
    shape = parse_range(power.range) or ("同マス", 0)
    squares = [s for s in ctx.grid.squares() if in_range(ctx.grid, centre, s, shape)]
    ctx.state.fields.append(Field(user.name, power.name, squares, _until(ctx, power.wait)))
    ctx.say(f"　フィールド「{power.name}」設置: {'・'.join(squares)}")
    inside = [c for c in ctx.state.on_map() if c.side != user.side and c.square in squares]
    if inside and payable(user, power.costs):
        apply_effects(ctx, user, power, inside, power.effects, None)
    pay(ctx, user, power)


def use_power(ctx: Context, user: Character, power: Power, named: str | None, to: str | None) -> None:
    """The deed 特殊能力の使用 of one character's power, by its style."""
    ctx.say(f"　能力「{power.name}」")
    why = cancelled(ctx, user, power)
    if why is not None:
        ctx.say(f"　{why}（待機）")
        return
    if power.style == COUNTER:
        use_counter(ctx, user, power)
    elif power.style == FIELD:
        square = named if named and ctx.grid.contains(named) else None
        if named and square is None and named in ctx.state.characters:
            square = ctx.state.characters[named].square
        if named and square is None:
            ctx.say("　フィールドを置くマスが不適正のため発動キャンセル（待機）")
            return
        use_field(ctx, user, power, square)
    else:
        use_active(ctx, user, power, named, to)


def fire_counters(ctx: Context, holder: Character, trigger: Character, condition: str) -> None:
    """A waiting counter of `holder` whose condition `trigger` met: a 成功判定, then its effects."""
    if not holder.alive or holds(holder, DISABLED):
        return
    for status in [s for s in holder.statuses if s.kind == WAITING]:
        power = next((p for p in holder.powers if p.name == status.power), None)
        if power is None or power.counter != condition or not trigger.alive:
            continue
        ctx.say(f"　{holder.name}のカウンター「{power.name}」（{condition}: {trigger.name}）")
        effects = power.effects[status.value : status.value + 1]
        apply_effects(ctx, holder, power, [trigger], effects, None)


def field_check(ctx: Context, field: Field, enemy: Character, why: str) -> None:
    """A field's 成功判定 for one enemy in its range (entry, or the start of its side's phase)."""
    owner = ctx.state.characters.get(field.owner)
    power = next((p for p in owner.powers if p.name == field.power), None) if owner else None
    if owner is None or power is None or not owner.alive or not enemy.alive:
        return
    ctx.say(f"　フィールド「{power.name}」（{owner.name}）: {enemy.name}{why}")
    apply_effects(ctx, owner, power, [enemy], power.effects, None)
