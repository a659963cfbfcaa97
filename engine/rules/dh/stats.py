"""What a character's states (状態) make of it now: its effective 攻撃力 / 防御力 / 移動力 (a stat never
below 0), whether it may act, use powers, ignore ZoC or move, and the states that end at a phase."""

from __future__ import annotations

from engine.rules.dh.state import Character, DHState, Options, Status

DISABLED = "特殊能力無効"
ZOC_FREE = "ZoC無視"
STUNNED = "行動不能"
AWAY = "戦線離脱"
WAITING = "カウンター待受"
STAT = "能力値"


def holds(character: Character, kind: str) -> bool:
    return any(status.kind == kind for status in character.statuses)


def stat(character: Character, name: str, options: Options | None = None) -> int:
    """A stat with every timed or lasting change of a state applied, never below 0."""
    base = {
        "attack": character.attack,
        "defense": character.defense,
        "mind": character.mind,
        "hp": character.hp,
        "move": options.move if options else 2,
    }[name]
    change = sum(s.value for s in character.statuses if s.kind == STAT and s.stat == name)
    return max(0, base + change)


def dying(character: Character, options: Options) -> bool:
    """瀕死 (the optional rule): at 体力 1 a character cannot move."""
    return options.dying and character.alive and character.hp == 1


def move_points(character: Character, options: Options) -> int:
    return 0 if dying(character, options) else stat(character, "move", options)


def why_cannot_act(character: Character) -> str | None:
    """Condition 4 of 行動の前提条件: dead, 行動不能 or away cannot act (None: it can)."""
    if not character.alive:
        return "死亡しています"
    if character.square is None:
        return "MAP上にいません" if not holds(character, AWAY) else "戦線離脱中です"
    if holds(character, STUNNED):
        return "行動不能です"
    return None


def present_since(character: Character, phase: int) -> bool:
    """Condition 3: on the map since two phases before this one (starters count from phase 0, and a
    戦線離脱 character counts as present while away)."""
    return character.entered is not None and (character.entered == 0 or character.entered <= phase - 2)


def expire(state: DHState, phase: int) -> list[tuple[Character, Status]]:
    """Remove the states that end at the start of `phase`; what ended, for the report."""
    ended: list[tuple[Character, Status]] = []
    for character in state.characters.values():
        keep = []
        for status in character.statuses:
            if status.until is not None and status.until <= phase:
                ended.append((character, status))
            else:
                keep.append(status)
        character.statuses = keep
    return ended


def status_text(status: Status) -> str:
    names = {"attack": "攻撃力", "defense": "防御力", "mind": "精神", "move": "移動力"}
    if status.kind == STAT:
        sign = "+" if status.value >= 0 else ""
        return f"{names.get(status.stat, status.stat)}{sign}{status.value}"
    if status.kind == WAITING:
        return f"カウンター待受({status.power})"
    return status.kind
