"""The catalogue of effects (効果): one function each, named as scenarios write them. A campaign's new
effect is one more function in `CATALOGUE`.

An effect gets the phase context, the user, one target, its spec (value, stat, duration in turns) and
the destination square the order named (強制移動). A timed effect lasts `turns` turns: it ends at the
start of the phase 2 × turns after the one it began in; 0 turns means for good.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.rules.dh.context import Context
from engine.rules.dh.geometry import distances
from engine.rules.dh.state import STATS, Character, EffectSpec, Status
from engine.rules.dh.stats import AWAY, DISABLED, STAT, STUNNED, ZOC_FREE

Effect = Callable[[Context, Character, Character, EffectSpec, str | None], None]


def _until(ctx: Context, spec: EffectSpec) -> int | None:
    return ctx.phase + 2 * spec.turns if spec.turns > 0 else None


def _lasting(spec: EffectSpec) -> str:
    return f"（{spec.turns}ターン）" if spec.turns > 0 else "（永続）"


def hp_damage(ctx: Context, user: Character, target: Character, spec: EffectSpec, to: str | None) -> None:
    """体力ダメージ n."""
    ctx.damage(target, spec.value)
    ctx.say(f"　{target.name}に体力ダメージ{spec.value}（体力{target.hp}）")


def mind_damage(ctx: Context, user: Character, target: Character, spec: EffectSpec, to: str | None) -> None:
    """精神ダメージ n (精神 never below 0)."""
    target.mind = max(0, target.mind - spec.value)
    ctx.say(f"　{target.name}に精神ダメージ{spec.value}（精神{target.mind}）")


def instant_death(ctx: Context, user: Character, target: Character, spec: EffectSpec, to: str | None) -> None:
    """即死."""
    ctx.kill(target)
    ctx.say(f"　{target.name}は即死")


def near_death(ctx: Context, user: Character, target: Character, spec: EffectSpec, to: str | None) -> None:
    """瀕死: 体力 becomes 1."""
    target.hp = min(target.hp, 1)
    ctx.say(f"　{target.name}は瀕死（体力1）")


def heal(ctx: Context, user: Character, target: Character, spec: EffectSpec, to: str | None) -> None:
    """回復 n: 体力 back up to its starting value."""
    target.hp = min(target.max_hp, target.hp + spec.value)
    ctx.say(f"　{target.name}の体力{spec.value}回復（体力{target.hp}）")


def stat_change(ctx: Context, user: Character, target: Character, spec: EffectSpec, to: str | None) -> None:
    """能力値増減: 攻撃力 / 防御力 / 精神 / 移動力 ± n, for a time or for good (移動力増減 is this on 移動力)."""
    target.statuses.append(Status(STAT, spec.value, spec.stat, _until(ctx, spec), source=user.name))
    sign = "+" if spec.value >= 0 else ""
    ctx.say(f"　{target.name}の{STATS[spec.stat]}{sign}{spec.value}{_lasting(spec)}")


def _state(kind: str) -> Effect:
    def gain(ctx: Context, user: Character, target: Character, spec: EffectSpec, to: str | None) -> None:
        target.statuses.append(Status(kind, until=_until(ctx, spec), source=user.name))
        ctx.say(f"　{target.name}は{kind}{_lasting(spec)}")

    gain.__doc__ = f"{kind}: a state for a time or for good."
    return gain


def leave_battle(ctx: Context, user: Character, target: Character, spec: EffectSpec, to: str | None) -> None:
    """戦線離脱: off the map for a time (back on its square at the start of a phase once it ends) or for
    good; while away it counts as present on the map."""
    if target.square is None:
        return
    target.away, target.square = target.square, None
    target.statuses.append(Status(AWAY, until=_until(ctx, spec), source=user.name))
    ctx.say(f"　{target.name}は戦線離脱{_lasting(spec)}")


def forced_move(ctx: Context, user: Character, target: Character, spec: EffectSpec, to: str | None) -> None:
    """強制移動 n: the target goes to the square the order named (移動先), if it is at most n orthogonal
    steps away over open squares; entering a field's range there is an entry like any other."""
    if target.square is None or to is None or to not in distances(ctx.grid, target.square, spec.value):
        ctx.say(f"　{target.name}の強制移動: 移動先に届かないため効果なし")
        return
    start, target.square = target.square, to
    ctx.say(f"　{target.name}を強制移動 {start}→{to}")
    ctx.entered(target, to, start)


def act_again(ctx: Context, user: Character, target: Character, spec: EffectSpec, to: str | None) -> None:
    """再行動: the target may act once more, after the user's action ends (its 再行動 line)."""
    ctx.again.append(target.name)
    ctx.say(f"　{target.name}は再行動できる")


CATALOGUE: dict[str, Effect] = {
    "体力ダメージ": hp_damage,
    "精神ダメージ": mind_damage,
    "即死": instant_death,
    "瀕死": near_death,
    "回復": heal,
    "能力値増減": stat_change,
    "特殊能力無効": _state(DISABLED),
    "ZoC無視": _state(ZOC_FREE),
    "行動不能": _state(STUNNED),
    "戦線離脱": leave_battle,
    "強制移動": forced_move,
    "再行動": act_again,
}
DELAYED = frozenset({"再行動"})  # effects that come after the action ends, not at 4.効果の適用
