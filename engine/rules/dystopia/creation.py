"""The seed's キャラクター作成 rules, checked on a sheet: every breach listed for the GM (never a refusal
to play). A check that needs data the sheet does not have (the race's base stats, the number of skill
slots) is skipped, and says so.
"""

from __future__ import annotations

from engine.rules.dystopia.model import (
    BAREHANDED,
    BASE_STATS,
    MAX_CONNECTIONS,
    MAX_STRENGTH,
    MAX_TOTAL,
    PLAIN_CLOTHES,
    Sheet,
)

EQUIPMENT_BUDGET = 130  # 初期作の武器・防具・アクセサリー購入：130ND（持ち越せない）
ITEM_BUDGET = 40  # 初期作のアイテム購入：40ND（持ち越せる）
SLOTS = {"weapons": ("武器", 1), "armor": ("防具", 1), "accessories": ("アクセサリー", 3)}


def sl_total(cl: int) -> int:
    """SL合計 = CL×5 + 15."""
    return cl * 5 + 15


def _basics(sheet: Sheet, start_cl: int) -> list[str]:
    found = []
    if sheet.cl != start_cl:
        found.append(f"初期のCLは{start_cl}です（CL{sheet.cl}）")
    if not sheet.race.strip() or "/" in sheet.race:
        found.append(f"種族は必ず1つです（「{sheet.race}」）")
    if len(sheet.classes) != 2:
        found.append(f"クラスは必ず2つです（{len(sheet.classes)}つ：{'、'.join(sheet.classes) or 'なし'}）")
    return found


def _skills(sheet: Sheet) -> list[str]:
    found = []
    same = len(sheet.classes) == 2 and sheet.classes[0] == sheet.classes[1]
    for skill in sheet.skills:
        if skill.sl < 0:
            found.append(f"《{skill.name}》のSLは0以上です（SL{skill.sl}。SL0での取得は可能）")
        if skill.kind == "秘" and not (same and skill.cls == sheet.classes[0]):
            found.append(
                f"《{skill.name}》は種別：秘。同じクラスを2つ選んだときだけそのクラスの秘を取得できます"
            )
    chosen = [s for s in sheet.skills if not s.auto]
    total, wanted = sum(s.sl for s in chosen), sl_total(sheet.cl)
    if total != wanted:
        found.append(f"SL合計は[CL×5]+15＝{wanted}点です（{total}点）")
    if sheet.slots and len(chosen) < sheet.slots:
        found.append(f"スキル取得枠が余っています（枠{sheet.slots}、取得{len(chosen)}）")
    if sheet.slots and len(chosen) > sheet.slots:
        found.append(f"スキル取得枠を超えています（枠{sheet.slots}、取得{len(chosen)}）")
    return found


def _stats(sheet: Sheet) -> list[str]:
    found = []
    spent = sum(sheet.bonus.values())
    if sheet.bonus and spent != sheet.cl:
        found.append(f"ボーナスポイントはCL点＝{sheet.cl}点です（{spent}点）")
    for stat in BASE_STATS:
        if stat in sheet.race_stats:
            expected = sheet.race_stats[stat] + sheet.cl - 1 + sheet.bonus.get(stat, 0)
            if sheet.stats.get(stat, 0) < expected:
                found.append(
                    f"{stat}は[種族の基本能力値]+CL-1+[ボーナスポイント]＝{expected}以上です（{sheet.stats.get(stat, 0)}）"
                )
    return found


def _equipment(sheet: Sheet) -> list[str]:
    found = []
    for attribute, (label, limit) in SLOTS.items():
        items = getattr(sheet, attribute)
        if len(items) > limit:
            found.append(f"{label}枠は{limit}つです（{len(items)}つ）")
    free = {BAREHANDED, PLAIN_CLOTHES}
    bought = [i for i in (*sheet.weapons, *sheet.armor, *sheet.accessories) if i.name not in free]
    spent = sum(i.price for i in bought)
    if spent > EQUIPMENT_BUDGET:
        found.append(f"初期作の武器・防具・アクセサリーの購入は{EQUIPMENT_BUDGET}NDまでです（{spent}ND）")
    items = sum(i.price for i in sheet.items)
    if items > ITEM_BUDGET:
        found.append(f"初期作のアイテムの購入は{ITEM_BUDGET}NDまでです（{items}ND）")
    return found


def _connections(sheet: Sheet, max_total: int) -> list[str]:
    found = []
    if len(sheet.connections) > MAX_CONNECTIONS:
        found.append(f"コネクションは{MAX_CONNECTIONS}枠です（{len(sheet.connections)}）")
    for link in sheet.connections:
        if not 0 <= link.strength <= MAX_STRENGTH:
            found.append(f"{link.to}への感情の強度は0～{MAX_STRENGTH}点です（{link.strength}）")
    if sheet.emotion_total > max_total:
        found.append(f"感情の強度の合計上限値は{max_total}です（{sheet.emotion_total}）")
    return found


def breaches(sheet: Sheet, start_cl: int = 1, max_total: int = MAX_TOTAL) -> list[str]:
    """Every creation rule the sheet breaks, in the seed's order (empty: none)."""
    return [
        *_basics(sheet, start_cl),
        *_stats(sheet),
        *_skills(sheet),
        *_equipment(sheet),
        *_connections(sheet, max_total),
    ]


def unchecked(sheet: Sheet) -> list[str]:
    """What could not be checked for lack of data on the sheet."""
    notes = []
    if not sheet.race_stats:
        notes.append("種族の基本能力値がないため能力値の計算は確かめていません")
    if not sheet.slots:
        notes.append("スキル取得枠の数がないため枠の埋まり方は確かめていません")
    return notes
