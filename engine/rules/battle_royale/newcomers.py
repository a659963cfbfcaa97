"""新規参入者 (「シーズンによっては…新規参入者あり」): the GM adds a prefecture to a running game between
battles with `設定 newcomer=沖縄`. It joins alone, alive, with the next number of the table, and the next
battle's report opens with its entry, like any other event of the game.
"""

from __future__ import annotations

import unicodedata

from engine.rules.battle_royale.common_steps import AutoFn, BattleRoyaleError, Events, push
from engine.rules.battle_royale.events import Said
from engine.rules.battle_royale.scenario import default_scenario
from engine.rules.battle_royale.state import ALIVE, Prefecture, State, Step, clone
from engine.rules.battle_royale.tables import same_prefecture

_MAX_NAME = 20


def add_newcomer(state: State, name: str) -> State:
    """The game with `name` entered; BattleRoyaleError (Japanese) when it cannot join now."""
    clean = unicodedata.normalize("NFKC", name).strip()
    if not clean or len(clean) > _MAX_NAME or any(ch in clean for ch in "『』\n"):
        raise BattleRoyaleError(f"新規参入の名前は1～{_MAX_NAME}文字で『』や改行を含まない名前にしてください")
    if state.options.tag_match:
        raise BattleRoyaleError("タッグマッチでは途中参加できません（チームは開始時に結成済み）")
    if state.ending is not None:
        raise BattleRoyaleError("このバトロワは決着しています")
    if not state.setup_done or state.battle is not None:
        raise BattleRoyaleError(
            "新規参入は戦闘と戦闘の間にだけできます（開始前なら参加者の表に入れてください）"
        )
    known = next((p.name for p in state.roster if same_prefecture(clean, p.name)), None)
    if known is not None:
        also = "" if known == clean else f"（『{known}』として）"
        raise BattleRoyaleError(f"『{clean}』はすでに参加者の表にいます{also}")
    new = clone(state)
    new.roster = (*state.roster, Prefecture(clean, "", _home_region(clean)))
    new.status[clean] = ALIVE
    new.table.append(clean)
    push(new, Step("newcomer", {"name": clean, "number": len(new.table)}))
    return new


def _home_region(name: str) -> str:
    """The region of a prefecture of the packaged 47 (for 地区復活), else none."""
    known = {p.get("name"): p.get("region", "") for p in default_scenario().get("prefectures", [])}
    return str(known.get(name, ""))


def _announce(state: State, step: Step, events: Events) -> None:
    events.append(Said(f"新規参入：『{step.data['name']}』が{step.data['number']}番で参戦"))


AUTO_STEPS: dict[str, AutoFn] = {"newcomer": _announce}
