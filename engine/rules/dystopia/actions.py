"""Checks, opposed checks, damage and healing, MP, the BP uses of the seed's table, 戦闘不能 and
とどめを刺す — each a handler that changes `Context.state` and says what happened.

戦闘不能 (the seed's eight rules): 1 HP to 0 (at once, also when put down with HP left); 2 every effect
cleared except those 「戦闘中～」, counters kept; 3 only BP uses; 4 moved to the rearmost row (最後列);
5 no checks, no escape, a forced 行動放棄 (コスト10) on its turn; 6 HP 1 at the result phase
(リザルトフェイズ); 7 no effects received but revival and とどめ; 8 とどめを刺す kills (PC: キャラロスト).
"""

from __future__ import annotations

from dataclasses import replace

from engine.report import Line, line
from engine.rules.dystopia import combat
from engine.rules.dystopia.checks import (
    Check,
    bcdice,
    opposed_winner,
    roll_check,
    roll_dice,
)
from engine.rules.dystopia.context import Context, require_affectable, require_up
from engine.rules.dystopia.grammar import Amount, BpUse, Opposed
from engine.rules.dystopia.model import DOWN, CheckRecord, Connection, DystopiaError, Sheet

REAR_ROW = "最後列"


def _label(record: CheckRecord) -> str:
    return f"{record.actor}の{record.stat}判定（C値{record.c}／F値{record.f}）"


def do_check(ctx: Context, check: Check) -> None:
    sheet = ctx.actor(check.actor)
    require_up(sheet, "判定")
    state = ctx.state
    state.checks_made += 1
    record = roll_check(sheet, check, ctx.dice("check"), state.checks_made, state.options.dice)
    state.last_checks[sheet.name] = record
    ctx.say(_label(record), " ", bcdice(record))


def do_opposed(ctx: Context, command: Opposed) -> None:
    active = ctx.actor(command.actor)
    passive = ctx.state.sheet(command.target)
    require_up(active, "判定")
    require_up(passive, "判定")
    opposed(ctx, active, command.check, passive, command.passive_stat)


def opposed(ctx: Context, active: Sheet, check: Check, passive: Sheet, passive_stat: str) -> str:
    """An opposed check (対決判定): the passive side wins ties (受動側優先). Returns the winner."""
    state = ctx.state
    state.checks_made += 1
    number, count = state.checks_made, state.options.dice
    mine = roll_check(active, check, ctx.dice("active"), number, count)
    theirs = roll_check(passive, Check(passive.name, passive_stat), ctx.dice("passive"), number, count)
    mine, theirs = replace(mine, opponent=passive.name), replace(theirs, opponent=active.name, passive=True)
    state.last_checks[active.name], state.last_checks[passive.name] = mine, theirs
    winner = opposed_winner(mine, theirs)
    ctx.say("対決判定（同値は受動側の勝ち）")
    ctx.say(_label(mine), " ", bcdice(mine))
    ctx.say(_label(theirs), "（受動側） ", bcdice(theirs))
    ctx.say(f"勝者：{winner}")
    return winner


def go_down(sheet: Sheet) -> None:
    """戦闘不能 rules 1, 2 and 4."""
    sheet.hp = 0
    sheet.down = True
    sheet.effects = [e for e in sheet.effects if e.startswith("戦闘中")]
    sheet.row = REAR_ROW


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
            go_down(sheet)
            ctx.say(f"{sheet.name}は[{DOWN}状態]（HP0、効果解除、{REAR_ROW}へ。BPの用途だけ使えます）")
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


# -- BP -------------------------------------------------------------------------------------------


def emotion_to_cut(sheet: Sheet, cost: int, named: str | None) -> Connection:
    """The one emotion paying a BP use: strength ≥ the cost, not used before. Unnamed: the weakest
    unused emotion that suffices (the first of them on the sheet)."""
    if named is not None:
        link = sheet.connection(named)
        if link is None:
            raise DystopiaError(f"{sheet.name}に{named}へのコネクションはありません")
        if link.used:
            raise DystopiaError(f"{named}への感情は使用済みです（切った感情は戻りません）")
        if link.strength < cost:
            raise DystopiaError(f"{named}への感情の強度は{link.strength}点です（{cost}点以上の感情が必要）")
        return link
    usable = [c for c in sheet.connections if not c.used and c.strength >= cost]
    if not usable:
        raise DystopiaError(
            f"{sheet.name}には強度{cost}以上の未使用の感情がありません（感情を合わせて使うことはできません）"
        )
    return min(usable, key=lambda c: c.strength)


def _rerun(ctx: Context, sheet: Sheet, record: CheckRecord) -> CheckRecord:
    check = Check(sheet.name, record.stat, record.modifier - sheet.stats.get(record.stat, 0), record.target)
    new = roll_check(sheet, check, ctx.dice("chance"), record.number, len(record.dice))
    return replace(
        new, c=record.c, f=record.f, chance_made=True, opponent=record.opponent, passive=record.passive
    )


def _report_again(ctx: Context, record: CheckRecord, extra: list[int] | None = None) -> None:
    ctx.state.last_checks[record.actor] = record
    ctx.say(_label(record), " ", bcdice(record, extra or ()))
    other = ctx.state.last_checks.get(record.opponent) if record.opponent else None
    if other is not None and other.number == record.number:
        active, passive = (other, record) if record.passive else (record, other)
        ctx.say(f"対決の勝者：{opposed_winner(active, passive)}（同値は受動側の勝ち）")


def _chance_record(ctx: Context, sheet: Sheet) -> CheckRecord:
    record = ctx.state.last_checks.get(sheet.name)
    if record is None:
        raise DystopiaError(f"{sheet.name}には振り直す判定がありません")
    if record.chance_made:
        raise DystopiaError("同じ判定に2度チャンスメイクは使えません")
    return record


def _comeback_record(ctx: Context, sheet: Sheet) -> CheckRecord:
    record = ctx.state.last_checks.get(sheet.name)
    if record is None or record.number != ctx.state.checks_made:
        raise DystopiaError(f"起死回生は判定直後に使います（直前の判定が{sheet.name}のものではありません）")
    if record.revived:
        raise DystopiaError("この判定にはもう起死回生を使いました")
    return record


def _chance_make(ctx: Context, sheet: Sheet) -> None:
    _report_again(ctx, _rerun(ctx, sheet, _chance_record(ctx, sheet)))


def _comeback(ctx: Context, sheet: Sheet) -> None:
    record = _comeback_record(ctx, sheet)
    extra = roll_dice(2, ctx.dice("comeback"))
    new = replace(record, total=record.total + sum(extra), revived=True)
    _report_again(ctx, new, extra)


def _use_effect(ctx: Context, sheet: Sheet, use: str) -> None:
    if use == "チャンスメイク":
        _chance_make(ctx, sheet)
    elif use == "起死回生":
        _comeback(ctx, sheet)
    elif use == "不屈の闘志":
        sheet.down, sheet.hp = False, 1
        ctx.say(f"{sheet.name}の[{DOWN}状態]を解除、HP1")
    elif use == "不撓不屈":
        before, sheet.hp = sheet.hp, max(sheet.hp, sheet.durability)
        ctx.say(f"{sheet.name}のHPを耐久値{sheet.durability}まで回復：{before}→{sheet.hp}")
    elif use == "絶対回避":
        ctx.say(f"{sheet.name}はその受ける攻撃の効果を全て無効にします")
    else:
        ctx.say(f"{sheet.name}のスキルの代償を支払いました")


def _bp_allowed(ctx: Context, sheet: Sheet, use: str) -> None:
    """Whether the use can take effect now (checked before any emotion is cut)."""
    if use == "チャンスメイク":
        _chance_record(ctx, sheet)
    elif use == "起死回生":
        _comeback_record(ctx, sheet)
    if sheet.dead:
        raise DystopiaError(f"{sheet.name}は死亡しています")
    if use == "不屈の闘志" and not sheet.down:
        raise DystopiaError(
            f"不屈の闘志は[{DOWN}状態]を解除する用途です（{sheet.name}は{DOWN}ではありません）"
        )
    if sheet.down and use != "不屈の闘志":
        raise DystopiaError(f"[{DOWN}状態]では{use}は効果を持ちません（使えるのは不屈の闘志）")


def do_bp(ctx: Context, command: BpUse) -> None:
    """A BP use: cut one emotion of at least its cost (no combining, the rest does not come back)."""
    sheet = ctx.actor(command.actor)
    _bp_allowed(ctx, sheet, command.use)
    link = emotion_to_cut(sheet, command.cost, command.emotion)
    link.used = True
    ctx.blocks.append(_cut_line(sheet, link, command))
    _use_effect(ctx, sheet, command.use)


def _cut_line(sheet: Sheet, link: Connection, command: BpUse) -> Line:
    waste = link.strength - command.cost
    note = f"（差分{waste}BPは戻りません）" if waste > 0 else ""
    return line(
        f"{sheet.name}：{command.use}（{command.cost}BP）— {link.to}への感情（強度{link.strength}）を切りました{note}"
        f" 残りBP{sheet.bp}"
    )


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
    lost = "（キャラロスト）" if not target.npc else ""
    ctx.say(
        f"{attacker.name}が{target.name}にとどめを刺しました（メインアクション、コスト{combat.FINISHING_BLOW}）"
    )
    ctx.say(f"{target.name}は死亡{lost}。ダメージロールは発生しないため《カバーリング》などは使えません")
    if in_combat:
        combat.spend(ctx, attacker, combat.FINISHING_BLOW, "とどめを刺す")


def result_phase(ctx: Context) -> None:
    """戦闘不能 rule 6: at the result phase every downed (living) character stands up at HP 1."""
    raised = [s for s in ctx.state.sheets.values() if s.down and not s.dead]
    for sheet in raised:
        sheet.down, sheet.hp = False, 1
    names = "、".join(s.name for s in raised) or "なし"
    ctx.say(f"リザルトフェイズ：[{DOWN}状態]を解除してHP1（{names}）")
