"""The seed's キャラクター作成 rules, checked on a sheet: every breach listed for the GM (never a refusal
to play). A check that needs data the sheet does not have (the race's base stats, the number of skill
slots) is skipped, and says so. The purchase budgets (130 ND, 40 ND) are the seed's 初期作 rules: they
are checked only for a first character (the scenario's start_cl 1), not a continuing one.

`play_breaches` is apart: what would break play (HP or MP below 0 or above the maximum, emotions
outside the seed's limits) — a sheet with any of them is refused, not listed.
"""

from __future__ import annotations

from engine.rules.dystopia.state import (
    BAREHANDED,
    BASE_STATS,
    MAX_CONNECTIONS,
    MAX_STRENGTH,
    PLAIN_CLOTHES,
    Options,
    Sheet,
)

EQUIPMENT_BUDGET = 130  # 初期作の武器・防具・アクセサリー購入：130ND（持ち越せない）
ITEM_BUDGET = 40  # 初期作のアイテム購入：40ND（持ち越せる）
SLOTS = {"weapons": ("武器", 1), "armor": ("防具", 1), "accessories": ("アクセサリー", 3)}


def sl_total(cl: int) -> int:
    """SL合計 = CL×5 + 15."""
    return cl * 5 + 15


def first_character(options: Options) -> bool:
    """初期作: a character made for its first session (the seed's 初期のCLは1)."""
    return options.start_cl <= 1


def _basics(sheet: Sheet, start_cl: int) -> list[str]:
    found = []
    if sheet.cl != start_cl:
        found.append(f"初期のCLは{start_cl}です（CL{sheet.cl}）")
    if not sheet.race.strip():
        found.append("種族は必ず1つです（種族が書かれていません）")
    elif "/" in sheet.race or "、" in sheet.race:
        found.append(f"種族は必ず1つです（{sheet.race}）")
    if not sheet.classes:
        found.append("クラスは必ず2つです（クラスが書かれていません）")
    elif len(sheet.classes) != 2:
        found.append(f"クラスは必ず2つです（{len(sheet.classes)}つ：{'、'.join(sheet.classes)}）")
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


def expected_stat(sheet: Sheet, stat: str) -> int:
    """基本能力値：[種族の基本能力値]+CL-1+[ボーナスポイント]+その他補正."""
    return sheet.race_stats[stat] + sheet.cl - 1 + sheet.bonus.get(stat, 0) + sheet.other.get(stat, 0)


def _bonus(sheet: Sheet, options: Options) -> tuple[list[str], list[str]]:
    """ボーナスポイント（CL点）: (breaches, warnings). Fewer than CL allocated is a breach, or with the
    scenario's bonus_partial_warning only a warning; more is always a breach."""
    spent = sum(sheet.bonus.values())
    if not sheet.bonus or spent == sheet.cl:
        return [], []
    text = f"ボーナスポイントはCL点＝{sheet.cl}点です（{spent}点）"
    if spent < sheet.cl and options.bonus_partial_warning:
        return [], [f"{text}。振り残しは注意だけ（シナリオの読み）"]
    return [text], []


def _stats(sheet: Sheet, options: Options) -> list[str]:
    found = _bonus(sheet, options)[0]
    for stat in BASE_STATS:
        if stat in sheet.race_stats:
            expected = expected_stat(sheet, stat)
            if sheet.stats.get(stat, 0) != expected:
                found.append(
                    f"{stat}は[種族の基本能力値]+CL-1+[ボーナスポイント]+その他補正＝"
                    f"{_formula(sheet, stat)}＝{expected}です（{sheet.stats.get(stat, 0)}）"
                )
    return found


def _formula(sheet: Sheet, stat: str) -> str:
    return f"{sheet.race_stats[stat]}+{sheet.cl}-1+{sheet.bonus.get(stat, 0)}+{sheet.other.get(stat, 0)}"


def _equipment(sheet: Sheet, first: bool) -> list[str]:
    found = []
    for attribute, (label, limit) in SLOTS.items():
        items = getattr(sheet, attribute)
        if len(items) > limit:
            found.append(f"{label}枠は{limit}つです（{len(items)}つ）")
    if not first:
        return found
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


def breaches(sheet: Sheet, options: Options | None = None) -> list[str]:
    """Every creation rule the sheet breaks, in the seed's order (empty: none)."""
    options = options or Options()
    return [
        *_basics(sheet, options.start_cl),
        *_stats(sheet, options),
        *_skills(sheet),
        *_equipment(sheet, first_character(options)),
        *_connections(sheet, options.max_total),
    ]


def play_breaches(sheet: Sheet, options: Options) -> list[str]:
    """What no sheet may hold and be played: resources out of their range, emotions past the seed's
    limits (各コネクションに最大10点、合計上限値、コネクション6枠)."""
    found = []
    for label, now, most in (("HP", sheet.hp, sheet.hp_max), ("MP", sheet.mp, sheet.mp_max)):
        if now < 0 or most < 0:
            found.append(f"{label}は0以上です（{now}/{most}）")
        elif now > most:
            found.append(f"{label}が最大を超えています（{now}/{most}）")
    if sheet.durability < 0:
        found.append(f"耐久値は0以上です（{sheet.durability}）")
    if sheet.cl < 1:
        found.append(f"CLは1以上です（CL{sheet.cl}）")
    if sheet.money < 0:
        found.append(f"所持金は0ND以上です（{sheet.money}ND）")
    return found + _connections(sheet, options.max_total)


def unchecked(sheet: Sheet, options: Options | None = None) -> list[str]:
    """What could not be checked for lack of data on the sheet, or because the rule does not apply."""
    options = options or Options()
    notes = []
    warnings = _bonus(sheet, options)[1]
    notes += warnings
    if not first_character(options):
        notes.append(
            f"継続のキャラクター（初期CL{options.start_cl}）のため初期作の購入（{EQUIPMENT_BUDGET}ND・{ITEM_BUDGET}ND）は確かめていません"
        )
    if not sheet.race_stats:
        notes.append("種族の基本能力値がないため能力値の計算は確かめていません")
    if not sheet.slots:
        notes.append("スキル取得枠の数がないため枠の埋まり方は確かめていません")
    return notes
