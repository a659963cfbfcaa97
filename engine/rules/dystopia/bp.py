"""The BP uses of the seed's table (チャンスメイク 1, 不屈の闘志 2, 起死回生 3, 不撓不屈 4, 絶対回避 5) and a
skill's BP cost: one unused emotion of at least the cost is cut (no combining, the rest does not come
back), and the use takes effect.

The uses that change a check belong to that check: チャンスメイク rerolls the *current* check only (the
last one made, not one from scenes ago) and never twice on it; 起死回生 is for the check just made, once
per check (a チャンスメイク reroll keeps that mark). When the check is an investigation's opposed check,
the reroll's winner settles the handout again: the investigator's win publishes it and lifts the
owner's bar; the owner cannot turn a check whose handout the thread has already seen.

Readings the scenario chooses: `futou_refuse_above` (不撓不屈 at HP above 耐久値: by default the emotion
is cut and nothing heals; with the option it is refused), `evade_todome` (by default a [戦闘不能状態]
character's only BP use is 不屈の闘志; with the option, 絶対回避 right after a とどめ undoes the death).
"""

from __future__ import annotations

from dataclasses import replace

from engine.report import Line, line
from engine.rules.dystopia import handouts
from engine.rules.dystopia.checks import Check, bcdice, opposed_winner, roll_check, roll_dice
from engine.rules.dystopia.context import Context
from engine.rules.dystopia.grammar import BpUse
from engine.rules.dystopia.resolution import label
from engine.rules.dystopia.state import DOWN, CheckRecord, Connection, DystopiaError, Sheet


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
    return replace(record, dice=new.dice, total=sum(new.dice) + record.modifier, chance_made=True)


def _winner(ctx: Context, record: CheckRecord) -> tuple[CheckRecord, CheckRecord] | None:
    other = ctx.state.last_checks.get(record.opponent) if record.opponent else None
    if other is None or other.number != record.number:
        return None
    return (other, record) if record.passive else (record, other)


def _report_again(ctx: Context, record: CheckRecord, extra: list[int] | None = None) -> None:
    before = _winner(ctx, ctx.state.last_checks[record.actor])
    ctx.state.last_checks[record.actor] = record
    ctx.say(label(record), " ", bcdice(record, extra or ()))
    sides = _winner(ctx, record)
    if sides is None:
        return
    winner = opposed_winner(*sides)
    ctx.say(f"対決の勝者：{winner}（同値は受動側の勝ち）")
    if record.handout and before is not None and opposed_winner(*before) != winner:
        investigator = sides[0].actor
        handouts.settle(ctx, record.handout, investigator, won=winner == investigator)


def _current(ctx: Context, sheet: Sheet, use: str) -> CheckRecord:
    """The check a use changes: the sheet's, and the last one made (判定直後 / the current check)."""
    record = ctx.state.last_checks.get(sheet.name)
    if record is None:
        raise DystopiaError(f"{sheet.name}には{use}を使う判定がありません")
    if record.number != ctx.state.checks_made:
        when = "判定直後に使います" if use == "起死回生" else "今の判定にだけ使えます"
        raise DystopiaError(f"{use}は{when}（{sheet.name}の判定のあとに別の判定がありました）")
    if record.handout and record.actor == record.handout and ctx.state.handouts[record.handout].published:
        raise DystopiaError("この対決で裏ハンドアウトはもう公開されました（公開は取り消せません）")
    if use == "チャンスメイク" and record.chance_made:
        raise DystopiaError("同じ判定に2度チャンスメイクは使えません")
    if use == "起死回生" and record.revived:
        raise DystopiaError("この判定にはもう起死回生を使いました（1つの判定に1度）")
    return record


def _comeback(ctx: Context, sheet: Sheet) -> None:
    record = _current(ctx, sheet, "起死回生")
    extra = roll_dice(2, ctx.dice("comeback"))
    _report_again(ctx, replace(record, total=record.total + sum(extra), revived=True), extra)


def _use_effect(ctx: Context, sheet: Sheet, use: str) -> None:
    if use == "チャンスメイク":
        _report_again(ctx, _rerun(ctx, sheet, _current(ctx, sheet, use)))
    elif use == "起死回生":
        _comeback(ctx, sheet)
    elif use == "不屈の闘志":
        sheet.down, sheet.hp = False, 1
        ctx.say(f"{sheet.name}の[{DOWN}状態]を解除、HP1")
    elif use == "不撓不屈":
        before, sheet.hp = sheet.hp, max(sheet.hp, sheet.durability)
        wasted = "（HPが耐久値以上のため回復なし）" if before >= sheet.durability else ""
        ctx.say(f"{sheet.name}のHPを耐久値{sheet.durability}まで回復：{before}→{sheet.hp}{wasted}")
    elif use == "絶対回避":
        if sheet.dead:
            sheet.dead, ctx.state.todome_last = False, ""
            ctx.say(
                f"{sheet.name}は絶対回避で「とどめを刺す」の効果を全て無効にしました（[{DOWN}状態]のまま）"
            )
        else:
            ctx.say(f"{sheet.name}はその受ける攻撃の効果を全て無効にします")
    else:
        ctx.say(f"{sheet.name}のスキルの代償を支払いました")


def _evades_todome(ctx: Context, sheet: Sheet, use: str) -> bool:
    return use == "絶対回避" and ctx.state.options.evade_todome and ctx.state.todome_last == sheet.name


def _bp_allowed(ctx: Context, sheet: Sheet, use: str) -> None:
    """Whether the use can take effect now (checked before any emotion is cut)."""
    if use in ("チャンスメイク", "起死回生"):
        _current(ctx, sheet, use)
    if _evades_todome(ctx, sheet, use):
        return
    if sheet.dead:
        raise DystopiaError(f"{sheet.name}は死亡しています")
    if use == "不屈の闘志" and not sheet.down:
        raise DystopiaError(
            f"不屈の闘志は[{DOWN}状態]を解除する用途です（{sheet.name}は{DOWN}ではありません）"
        )
    if sheet.down and use != "不屈の闘志":
        evade = "、とどめの直後の絶対回避" if ctx.state.options.evade_todome else ""
        raise DystopiaError(f"[{DOWN}状態]では{use}は効果を持ちません（使えるのは不屈の闘志{evade}）")
    if use == "不撓不屈" and ctx.state.options.futou_refuse_above and sheet.hp >= sheet.durability:
        raise DystopiaError(
            f"{sheet.name}のHP{sheet.hp}は耐久値{sheet.durability}以上です（不撓不屈で回復するものがありません）"
        )


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
