"""The count-based turn order (手番), the shared page's default for what the seed leaves to the book:
each character starts a round at its 行動値; the highest count acts and its action's cost is
subtracted (サブアクションの移動 3, メインアクションの移動 8, a skill's コスト, 行動放棄 10, とどめを刺す 10);
ties go to the higher `tie_stat` (敏捷), then PCs first, then the sheet order; the round ends when no
count is above 0, and the next starts at 行動値 again.

移動コスト: a change (`移動コスト ユイ -1`) applies to both the sub and the main move; of several
lowering changes the lowest applies, of several raising ones the highest (the seed's 下限値は最低値を、
上限値は最高値を), and no cost goes below 0. A [戦闘不能状態] character whose turn comes gives it up at
once (行動放棄、コスト10: rule 5); a dead one leaves the order.
"""

from __future__ import annotations

from engine.rules.dystopia.context import Context, require_up
from engine.rules.dystopia.sheets import number
from engine.rules.dystopia.state import DOWN, Combat, DystopiaError, Sheet, State

# The count costs: サブ移動, メイン移動, 行動放棄, and とどめを刺す (a main action of cost 10).
SUB_MOVE, MAIN_MOVE, GIVE_UP, FINISHING_BLOW = 3, 8, 10, 10
MAX_COST = 99


def move_cost(base: int, changes: list[int]) -> int:
    lowering = [c for c in changes if c < 0]
    raising = [c for c in changes if c > 0]
    return max(base + min(lowering, default=0) + max(raising, default=0), 0)


def _start_counts(state: State, names: list[str]) -> dict[str, int]:
    return {name: state.sheets[name].stats.get("行動値", 0) for name in names}


def next_actor(state: State) -> str | None:
    combat = state.combat
    if combat is None:
        return None
    order = list(state.sheets)
    ready = [n for n, count in combat.counts.items() if count > 0 and not state.sheets[n].dead]
    if not ready:
        return None
    tie = state.options.tie_stat

    def rank(name: str) -> tuple[int, int, bool, int]:
        sheet = state.sheets[name]
        return (-combat.counts[name], -sheet.stats.get(tie, 0), sheet.npc, order.index(name))

    return min(ready, key=rank)


def _advance(ctx: Context) -> None:
    """Forced 行動放棄 of downed characters, a new round when nobody is above 0, and who acts next."""
    state, combat = ctx.state, ctx.state.combat
    assert combat is not None
    for _ in range(MAX_COST * max(len(combat.counts), 1)):
        actor = next_actor(state)
        if actor is None:
            living = [n for n in combat.counts if not state.sheets[n].dead]
            if not living:
                ctx.say("戦闘に残っているキャラクターがいません")
                return
            combat.round += 1
            combat.counts = _start_counts(state, living)
            ctx.say(f"第{combat.round}ラウンド：カウントを行動値に戻しました")
            if next_actor(state) is None:
                ctx.say("行動値が0以下のため、誰も行動できません")
                return
            continue
        if state.sheets[actor].down:
            combat.counts[actor] -= GIVE_UP
            ctx.say(f"{actor}は[{DOWN}状態]のため強制的に行動放棄（コスト{GIVE_UP}）")
            continue
        ctx.say(f"次の手番：{actor}（カウント{combat.counts[actor]}）")
        return


def start(ctx: Context, names: tuple[str, ...]) -> None:
    """戦闘開始: counts at 行動値; refused when nobody could act (no 行動値 above 0), naming who has none."""
    state = ctx.state
    chosen = list(dict.fromkeys(names)) or [n for n, s in state.sheets.items() if not s.dead]
    for name in chosen:
        state.sheet(name)
    if not chosen:
        raise DystopiaError("戦闘に参加するキャラクターがいません")
    counts = _start_counts(state, chosen)
    lacking = [n for n in chosen if "行動値" not in state.sheets[n].stats]
    how = "（【キャラシート】に「行動値: 10」のように書くか、GMが 設定 で決めてください）"
    if all(count <= 0 for count in counts.values()):
        named = f"行動値がないキャラクター：{'、'.join(lacking)}" if lacking else "全員の行動値が0以下です"
        raise DystopiaError(f"戦闘を始められません。{named}{how}")
    state.combat = Combat(1, counts, {})
    ctx.say(f"戦闘開始（第1ラウンド）カウント：{'、'.join(f'{n}{c}' for n, c in counts.items())}")
    if lacking:
        ctx.say(f"行動値がないためカウント0（手番なし）：{'、'.join(lacking)}{how}")
    _advance(ctx)


def end(ctx: Context) -> None:
    if ctx.state.combat is None:
        raise DystopiaError("戦闘中ではありません")
    ctx.state.combat = None
    ctx.say("戦闘終了")


def _on_turn(ctx: Context, actor: str | None) -> Sheet:
    combat = ctx.state.combat
    if combat is None:
        raise DystopiaError("戦闘中ではありません（GMの「戦闘開始」で手番を数えます）")
    sheet = ctx.actor(actor)
    due = next_actor(ctx.state)
    if due is not None and ctx.state.sheets[due].down:
        _advance(ctx)  # the one due went down since: it gives its turn up first
        due = next_actor(ctx.state)
    if due is None:
        raise DystopiaError("今は手番のキャラクターがいません（全員のカウントが0以下です）")
    if sheet.name != due:
        raise DystopiaError(f"今は{due}の手番です")
    return sheet


def spend(ctx: Context, sheet: Sheet, cost: int, what: str) -> None:
    combat = ctx.state.combat
    assert combat is not None
    before = combat.counts[sheet.name]
    combat.counts[sheet.name] = before - cost
    ctx.say(f"{sheet.name}：{what}（コスト{cost}）カウント{before}→{before - cost}")
    _advance(ctx)


def act(ctx: Context, actor: str | None, word: str, args: tuple[str, ...]) -> None:
    """サブ移動 / メイン移動 / 行動 N [名前] / 行動放棄 by the character whose turn it is."""
    sheet = _on_turn(ctx, actor)
    combat = ctx.state.combat
    assert combat is not None
    changes = combat.move_changes.get(sheet.name, [])
    if word == "行動放棄":
        spend(ctx, sheet, GIVE_UP, "行動放棄")
        return
    require_up(sheet, word)
    if word in ("サブ移動", "メイン移動"):
        base = SUB_MOVE if word == "サブ移動" else MAIN_MOVE
        spend(ctx, sheet, move_cost(base, changes), word)
        return
    cost = number(args[0], "行動のコスト") if args else -1
    if not 0 <= cost <= MAX_COST:
        raise DystopiaError(
            f"行動 コスト [スキル名] と書いてください（コストは0～{MAX_COST}。例：行動 5 スラッシュ）"
        )
    spend(ctx, sheet, cost, " ".join(args[1:]) or "行動")


def change_move(ctx: Context, args: tuple[str, ...]) -> None:
    combat = ctx.state.combat
    if combat is None:
        raise DystopiaError("戦闘中ではありません")
    if len(args) != 2:
        raise DystopiaError("移動コスト 名前 -1 と書いてください")
    change = number(args[1], "移動コストの変更")
    if not -MAX_COST <= change <= MAX_COST:
        raise DystopiaError(f"移動コストの変更は-{MAX_COST}～+{MAX_COST}です（{change}）")
    sheet = ctx.actor(args[0])
    combat.move_changes.setdefault(sheet.name, []).append(change)
    changes = combat.move_changes[sheet.name]
    ctx.say(
        f"{sheet.name}の移動コスト：サブ{move_cost(SUB_MOVE, changes)}／メイン{move_cost(MAIN_MOVE, changes)}"
    )


def todome_turn(ctx: Context, attacker: Sheet) -> bool:
    """In combat, とどめを刺す is the attacker's main action on its turn: whether it is in combat."""
    if ctx.state.combat is None:
        return False
    _on_turn(ctx, attacker.name)
    return True
