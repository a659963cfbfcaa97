"""A posted sheet (a 【キャラシート】 block or a ココフォリア character JSON) taken into the state: who may post
it, what it may change, and the breaches that stop it.

- A new character belongs to its first sheet's poster (the GM may name another with `PL: ◆TRIP`, or
  make it an NPC with `NPC: はい`); a player registers one PC this way (a second one is the GM's to
  register), so a stranger cannot fill the table with characters; a scenario PC without an owner goes to the first player who posts
  its sheet. After that only the owner and the GM post its sheet; NPCs are the GM's alone.
- A post names the fields it changes and keeps the rest. Once a sheet is locked — it comes from the
  scenario or the GM's post, or play has changed it — a player's re-post changes only the scenario's `sheet_fields`
  (by default the description: 種族, クラス, skills, equipment, items…, never HP, MP, 耐久値, emotions,
  money, CL, stats or C値/F値); the answer lists what it left unchanged. The GM's post changes anything.
- A sheet that would break play (HP or MP below 0 or above its maximum, an emotion outside 0–10, the
  emotions over the total, more than six connections) is refused whole, with every reason.
"""

from __future__ import annotations

from typing import Any

from engine.report import Block, line
from engine.rules.dystopia.ccfolia import ccfolia_patch
from engine.rules.dystopia.context import Context, plain_trip
from engine.rules.dystopia.creation import breaches, play_breaches, unchecked
from engine.rules.dystopia.sheets import Patch, apply_patch, attribute_label, changed_labels, posted_patch
from engine.rules.dystopia.state import DystopiaError, Options, Sheet

GM_FIELDS = ("owner", "npc")  # PL and NPC: only the GM writes them


def sheet_report(sheet: Sheet, options: Options) -> list[Block]:
    found = breaches(sheet, options)
    blocks: list[Block] = [
        line(
            f"キャラクター作成のチェック（{sheet.name}）：" + (f"違反{len(found)}件" if found else "違反なし")
        )
    ]
    blocks += [line(f"・{text}") for text in found]
    blocks += [line(f"（{text}）") for text in unchecked(sheet, options)]
    return blocks


def _kept_back(old: Sheet, patch: Patch, allowed: list[str]) -> tuple[Patch, list[str]]:
    """The part of a player's re-post the sheet_fields allow, and the labels it changes but may not."""
    taken: Patch = {}
    refused: list[str] = []
    for attribute, value in patch.items():
        if attribute == "stats":
            stats = {k: v for k, v in value.items() if k in allowed or "能力値" in allowed}
            refused += [k for k, v in value.items() if k not in stats and old.stats.get(k) != v]
            if stats:
                taken["stats"] = stats
            continue
        label = attribute_label(attribute)
        if attribute == "name" or label in allowed:
            taken[attribute] = value
        elif apply_patch(old, {attribute: value}).to_dict() != old.to_dict() and label not in refused:
            refused.append(label)
    return taken, refused


def _owner(ctx: Context, old: Sheet | None, patch: Patch) -> str:
    if "owner" in patch:
        owner = plain_trip(str(patch["owner"]))
        return f"◆{owner}" if owner else ""
    if old is not None and (old.owner or old.npc or ctx.is_gm):
        return old.owner
    if patch.get("npc"):
        return ""
    return f"◆{ctx.trip}"


def _allowed(ctx: Context, old: Sheet | None, patch: Patch) -> tuple[Patch, list[str]]:
    """What of the patch the author may post (refused outright when nothing), and what it holds back."""
    if ctx.is_gm:
        return patch, []
    if not ctx.trip:
        raise DystopiaError("キャラシートはトリップ付きの名前（名前#キー）で貼ってください")
    named = [attribute_label(a) for a in GM_FIELDS if a in patch]
    if named:
        raise DystopiaError(f"{'・'.join(named)} の項目はGMだけが書けます")
    name = patch["name"]
    if old is None or not (old.owner or old.npc):  # a new PC, or claiming one nobody owns yet
        if ctx.owned():
            mine = "、".join(s.name for s in ctx.owned())
            raise DystopiaError(
                f"あなたのPCはもういます（{mine}）。2人目のPCはGMが「PL: ◆トリップ」を書いたシートで登録します"
            )
        if old is None:
            return patch, []
    assert old is not None
    if old.npc:
        raise DystopiaError(f"{name}はNPCです。NPCのシートはGMだけが貼れます")
    if old.owner and not ctx.may_act(old):  # the one rule (engine.ruleset.may_act) over the sheet's owner
        raise DystopiaError(f"{name}は別のトリップのキャラクターです（持ち主を変えられるのはGMだけです）")
    return _kept_back(old, patch, ctx.state.options.sheet_fields) if old.locked else (patch, [])


def take_sheet(ctx: Context, posted: tuple[str, Any]) -> None:
    """A 【キャラシート】 block or a ココフォリア character JSON: adds or updates a sheet."""
    kind, content = posted
    patch, skipped = (posted_patch(content), []) if kind == "sheet" else ccfolia_patch(content)
    name = patch["name"]
    old = ctx.state.sheets.get(name)
    patch, refused = _allowed(ctx, old, patch)
    base = old if old is not None else Sheet(name=name)
    sheet = apply_patch(base, {k: v for k, v in patch.items() if k not in GM_FIELDS})
    sheet.owner = _owner(ctx, old, patch)
    sheet.npc = bool(patch.get("npc", old.npc if old is not None else False))
    sheet.locked = sheet.locked or ctx.is_gm  # a sheet the GM posted is the GM's data, like the scenario's
    for link in sheet.connections:
        before = old.connection(link.to) if old is not None else None
        link.used = bool(before and before.used)
    problems = play_breaches(sheet, ctx.state.options)
    if problems:
        raise DystopiaError(f"{name}のシートはこのままでは遊べません：" + "／".join(problems))
    ctx.state.sheets[name] = sheet
    who = "NPC" if sheet.npc else sheet.owner or "持ち主なし"
    changed = [label for label in changed_labels(base, sheet) if label != "名前"]
    if old is None:
        ctx.say(f"キャラシートを登録しました：{name}（{who}）")
    else:
        ctx.say(f"キャラシートを更新しました：{name}（{who}）— " + ("、".join(changed) or "変更なし"))
    if refused:
        ctx.say(
            f"変更しなかった項目：{'、'.join(refused)}（遊んでいるシートのこの項目はGMの「設定」でだけ変わります）"
        )
    if skipped:
        ctx.say(f"読まなかった項目：{'、'.join(skipped)}")
    ctx.blocks += sheet_report(sheet, ctx.state.options)
