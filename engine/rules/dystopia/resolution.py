"""Checks, opposed checks, damage and healing, MP, 戦闘不能 and とどめを刺す — each a handler that changes
`Context.state` and says what happened (the BP uses are in bp.py).

戦闘不能 (the seed's eight rules): 1 HP to 0 (at once, also when put down with HP left); 2 every effect
cleared except those 「戦闘中～」, counters kept; 3 only BP uses; 4 moved to the rearmost row (最後列);
5 no checks, no escape, a forced 行動放棄 (コスト10) on its turn; 6 HP 1 at the result phase
(リザルトフェイズ); 7 no effects received but revival and とどめ; 8 とどめを刺す kills (PC: キャラロスト).
"""

from __future__ import annotations

from dataclasses import replace

from engine.rules.dystopia import combat
from engine.rules.dystopia.checks import (
    Check,
    bcdice,
    opposed_winner,
    roll_check,
)
from engine.rules.dystopia.context import Context, require_affectable, require_up
from engine.rules.dystopia.grammar import Amount, Opposed
from engine.rules.dystopia.state import DOWN, CheckRecord, DystopiaError, Options, Sheet

REAR_ROW = "最後列"


def label(record: CheckRecord) -> str:
    return f"{record.actor}の{record.stat}判定（C値{record.c}／F値{record.f}）"


def do_check(ctx: Context, check: Check) -> None:
    sheet = ctx.actor(check.actor)
    require_up(sheet, "判定")
    state = ctx.state
    state.checks_made += 1
    wins = state.options.fixed_cf_wins
    record = roll_check(
        sheet, check, ctx.dice("check"), state.checks_made, state.options.dice, fixed_wins=wins
    )
    state.last_checks[sheet.name] = record
    ctx.say(label(record), " ", bcdice(record))


def do_opposed(ctx: Context, command: Opposed) -> None:
    active = ctx.actor(command.actor)
    passive = ctx.state.sheet(command.target)
    if passive.name == active.name:
        raise DystopiaError(f"対決判定の相手は自分以外です（{active.name}対{passive.name}）")
    require_up(active, "判定")
    require_up(passive, "判定")
    opposed(ctx, active, command.check, passive, command.passive_stat)


def opposed(
    ctx: Context, active: Sheet, check: Check, passive: Sheet, passive_stat: str, handout: str = ""
) -> str:
    """An opposed check (対決判定): the passive side wins ties (受動側優先). Returns the winner.
    `handout`: the owner of the back handout an investigation's check decides (kept on both records,
    so that a BP reroll that turns the result settles the handout again)."""
    state = ctx.state
    state.checks_made += 1
    number, count, wins = state.checks_made, state.options.dice, state.options.fixed_cf_wins
    mine = roll_check(active, check, ctx.dice("active"), number, count, fixed_wins=wins)
    theirs = roll_check(
        passive, Check(passive.name, passive_stat), ctx.dice("passive"), number, count, fixed_wins=wins
    )
    mine = replace(mine, opponent=passive.name, handout=handout)
    theirs = replace(theirs, opponent=active.name, passive=True, handout=handout)
    state.last_checks[active.name], state.last_checks[passive.name] = mine, theirs
    winner = opposed_winner(mine, theirs)
    ctx.say("対決判定（同値は受動側の勝ち）")
    ctx.say(label(mine), " ", bcdice(mine))
    ctx.say(label(theirs), "（受動側） ", bcdice(theirs))
    ctx.say(f"勝者：{winner}")
    return winner


END_TIMING = ("まで", "終了", "解除")  # words that write when an effect ends (a 解除タイミング)


def survives_down(effect: str, options: Options) -> bool:
    """Rule 2's exception: 「戦闘中～ と書かれている効果は解除タイミングの記載がない限り解除されない」 —
    such an effect stays; with the scenario's combat_effect_timing, only while no end timing is written."""
    if not effect.startswith("戦闘中"):
        return False
    return not (options.combat_effect_timing and any(word in effect for word in END_TIMING))


def go_down(sheet: Sheet, options: Options) -> str:
    """The one way into [戦闘不能状態] — damage, a 戦闘不能 effect or the GM's 設定 alike: rule 1 (HP to 0,
    also from 1 or more), rule 2 (every effect cleared but the 「戦闘中～」 ones, counters kept), rule 4
    (the rearmost row). Rules 3, 5, 6, 7 and 8 follow from `down`. Returns the line that says so."""
    sheet.hp = 0
    sheet.down = True
    cleared = [e for e in sheet.effects if not survives_down(e, options)]
    sheet.effects = [e for e in sheet.effects if survives_down(e, options)]
    sheet.row = REAR_ROW
    gone = f"（解除した効果：{'、'.join(cleared)}）" if cleared else ""
    return f"{sheet.name}は[{DOWN}状態]（HP0、効果解除、{REAR_ROW}へ。BPの用途だけ使えます）{gone}"


def _amount_target(ctx: Context, command: Amount) -> Sheet:
    """MP is spent and restored only on one's own characters; damage and healing may name anyone, by
    a GM or a player of the table (for their character's attack or healing), never by a stranger."""
    if command.word in ("MP消費", "MP回復"):
        return ctx.actor(command.target or command.actor)
    if command.target is None:
        return ctx.actor(command.actor)
    if command.actor is not None:
        ctx.actor(command.actor)
    elif not ctx.is_gm and not ctx.owned():
        raise DystopiaError(
            f"{command.word}を書けるのはGMとPCの持ち主だけです（【キャラシート】を貼ってください）"
        )
    return ctx.state.sheet(command.target)


def do_amount(ctx: Context, command: Amount) -> None:
    sheet = _amount_target(ctx, command)
    if command.word == "MP消費":
        require_up(sheet, "スキルの代償を支払うことは")
    require_affectable(sheet)
    amount = command.amount
    if command.word == "ダメージ":
        sheet.hp -= amount
        ctx.say(f"{sheet.name}に{amount}ダメージ：HP{sheet.hp + amount}→{max(sheet.hp, 0)}")
        if sheet.hp <= 0:
            ctx.say(go_down(sheet, ctx.state.options))
    elif command.word == "回復":
        before, sheet.hp = sheet.hp, min(sheet.hp + amount, sheet.hp_max or sheet.hp + amount)
        ctx.say(f"{sheet.name}のHP回復：{before}→{sheet.hp}")
    elif command.word == "MP消費":
        if amount == 0:
            ctx.say("代償0MPは「代償：なし」と同じです")
            return
        if amount > sheet.mp:
            raise DystopiaError(f"{sheet.name}のMPが足りません（MP{sheet.mp}、代償{amount}）")
        sheet.mp -= amount
        ctx.say(f"{sheet.name}のMP消費{amount}：MP{sheet.mp + amount}→{sheet.mp}")
    else:
        before, sheet.mp = sheet.mp, min(sheet.mp + amount, sheet.mp_max or sheet.mp + amount)
        ctx.say(f"{sheet.name}のMP回復：{before}→{sheet.mp}")


def todome(ctx: Context, actor: str | None, target_name: str) -> None:
    if not ctx.state.options.todome:
        raise DystopiaError("このシナリオではGMが「とどめを刺す」を禁止しています")
    attacker = ctx.actor(actor)
    require_up(attacker, "とどめを刺す")
    target = ctx.state.sheet(target_name)
    if target.dead:
        raise DystopiaError(f"{target.name}はもう死亡しています")
    if not target.down:
        raise DystopiaError(
            f"とどめを刺せるのは[{DOWN}状態]の対象だけです（{target.name}は{DOWN}ではありません）"
        )
    in_combat = combat.todome_turn(ctx, attacker)
    target.dead = True
    ctx.state.todome_last = target.name
    lost = "（キャラロスト）" if not target.npc else ""
    ctx.say(
        f"{attacker.name}が{target.name}にとどめを刺しました（メインアクション、コスト{combat.FINISHING_BLOW}）"
    )
    ctx.say(f"{target.name}は死亡{lost}。ダメージロールは発生しないため《カバーリング》などは使えません")
    if ctx.state.options.evade_todome:
        ctx.say(f"（{target.name}は直後に「絶対回避」でこのとどめを無効にできます）")
    if in_combat:
        combat.spend(ctx, attacker, combat.FINISHING_BLOW, "とどめを刺す")


def result_phase(ctx: Context) -> None:
    """戦闘不能 rule 6: at the result phase every downed (living) character stands up at HP 1."""
    raised = [s for s in ctx.state.sheets.values() if s.down and not s.dead]
    for sheet in raised:
        sheet.down, sheet.hp = False, 1
    names = "、".join(s.name for s in raised) or "なし"
    ctx.say(f"リザルトフェイズ：[{DOWN}状態]を解除してHP1（{names}）")
