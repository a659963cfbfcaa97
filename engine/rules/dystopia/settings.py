"""設定 PATH=VALUE (the engine's GM command, checked against the GM trips of the configuration):
the scene, the options, a sheet's numbers, an emotion's strength, the emotion rolls left."""

from __future__ import annotations

from typing import Any

from engine.rules.dystopia.creation import play_breaches
from engine.rules.dystopia.help import OPTION_NAMES
from engine.rules.dystopia.resolution import go_down
from engine.rules.dystopia.scenes import enter_scene
from engine.rules.dystopia.sheets import nfkc, number
from engine.rules.dystopia.state import DystopiaError, Sheet, State
from engine.ruleset import Setting

SETTINGS = (
    Setting("scene", "シーン（オープニング・ドラマ・クライマックス・エンディング）。例：設定 scene=ドラマ"),
    Setting(
        "options.<名前>",
        "emotion_rolls・short_session・todome・npc_handouts・start_cl・max_total・bonus_partial_warning・"
        "fixed_cf_wins・futou_refuse_above・combat_effect_timing・evade_todome。例：設定 options.todome=false",
    ),
    Setting(
        "sheets.<名前>.<項目>",
        "hp・hp_max・mp・mp_max・durability・c・f・cl・money・row・down・owner。例：設定 sheets.ユイ.hp=12"
        "（hp=0 と down=true は戦闘不能のルールどおりHP0・効果解除・最後列、down=false はHP1以上で解除）",
    ),
    Setting("sheets.<名前>.stats.<能力値>", "能力値。例：設定 sheets.ユイ.stats.肉体=9"),
    Setting("sheets.<名前>.connections.<相手>.strength", "感情の強度（0～10）"),
    Setting("emotion_left.<名前>", "残りの感情ロールの回数（感情ロールの残り.<名前> とも）"),
)
EMOTIONS_LEFT = "感情ロールの残り"
# An option may be named as HELP names it (`設定 options.とどめを刺す=false`): the names the thread sees.
_OPTION_KEYS = {name: key for key, name in OPTION_NAMES.items()}

_SHEET_INTS = ("hp", "hp_max", "mp", "mp_max", "durability", "c", "f", "cl", "money")
_OPTION_INTS = ("emotion_rolls", "start_cl", "max_total")
_OPTION_BOOLS = (
    *("short_session", "todome", "npc_handouts", "bonus_partial_warning", "fixed_cf_wins"),
    *("futou_refuse_above", "combat_effect_timing", "evade_todome"),
)


def _bool(value: Any) -> bool:
    text = nfkc(str(value)).strip().lower()
    if text in ("true", "1", "yes", "はい", "あり", "on"):
        return True
    if text in ("false", "0", "no", "いいえ", "なし", "off"):
        return False
    raise DystopiaError(f"true か false で指定してください（{value}）")


def _option(state: State, written: str, value: Any) -> None:
    name = _OPTION_KEYS.get(written, written)
    if name in _OPTION_INTS:
        setattr(state.options, name, number(value, name))
    elif name in _OPTION_BOOLS:
        setattr(state.options, name, _bool(value))
    else:
        known = "・".join(OPTION_NAMES[key] for key in (*_OPTION_INTS, *_OPTION_BOOLS))
        raise DystopiaError(f"options.{written} は設定できません（設定できる選択：{known}）")


def _sheet_value(state: State, sheet: Sheet, name: str, value: Any) -> None:
    """A number of the sheet, or `down`: HP 0 and down=true take the one downing path (rule 1: 【HP】が
    0以下になった場合／1以上のときに[戦闘不能状態]となった場合), down=false stands up at HP 1 or more."""
    if name == "down":
        if _bool(value) and not sheet.down:
            go_down(sheet, state.options)
        elif not _bool(value) and sheet.down:
            sheet.down, sheet.hp = False, max(sheet.hp, 1)
        return
    setattr(sheet, name, max(number(value, name), 0))
    if name == "hp" and sheet.hp == 0 and not sheet.down and not sheet.dead:
        go_down(sheet, state.options)


def _sheet(state: State, parts: list[str], value: Any) -> None:
    sheet = state.sheet(parts[0])
    rest = parts[1:]
    if len(rest) == 1 and rest[0] in (*_SHEET_INTS, "down"):
        _sheet_value(state, sheet, rest[0], value)
    elif rest == ["row"]:
        sheet.row = str(value)
    elif rest == ["owner"]:
        trip = nfkc(str(value)).strip().lstrip("◆").strip()
        sheet.owner = f"◆{trip}" if trip else ""
    elif len(rest) == 2 and rest[0] == "stats":
        sheet.stats[rest[1]] = number(value, rest[1])
    elif len(rest) == 3 and rest[0] == "connections" and rest[2] == "strength":
        link = sheet.connection(rest[1])
        if link is None:
            raise DystopiaError(f"{sheet.name}に{rest[1]}へのコネクションはありません")
        strength = number(value, "感情の強度")
        if not 0 <= strength <= 10:
            raise DystopiaError("感情の強度は0～10です")
        link.strength = strength
    else:
        raise DystopiaError(
            f"sheets.{'.'.join(parts)} は設定できません（ヘルプ全文の「設定」を見てください）"
        )
    problems = play_breaches(sheet, state.options)
    if problems:
        raise DystopiaError(f"{sheet.name}のシートが遊べなくなります：" + "／".join(problems))


def set_path(state: State, path: str, value: Any) -> State:
    new = state.copy()
    parts = nfkc(path).strip().split(".")
    head = parts[0]
    if parts == ["scene"]:
        enter_scene(new, nfkc(str(value)).strip())
    elif head == "options" and len(parts) == 2:
        _option(new, parts[1], value)
    elif head == "sheets" and len(parts) >= 3:
        _sheet(new, parts[1:], value)
    elif head in ("emotion_left", EMOTIONS_LEFT) and len(parts) == 2:
        new.sheet(parts[1])
        new.emotion_left[parts[1]] = max(number(value, "回数"), 0)
    else:
        raise DystopiaError(
            f"{path} は設定できません（scene、options.<選択の名前>、sheets.<名前>.<項目>、{EMOTIONS_LEFT}.<名前>）"
        )
    return new
