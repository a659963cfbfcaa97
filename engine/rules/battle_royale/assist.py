"""Assisted play of the 都道府県バトロワ: checking a die a player posted against the one the rules need,
naming tag teams, and the opening / next-die / GM reports around the step machine.
"""

from __future__ import annotations

import unicodedata

from engine.report import Report, line, report
from engine.rules.battle_royale.common_steps import BattleRoyaleError, entrants
from engine.rules.battle_royale.grammar import DieTemplate
from engine.rules.battle_royale.report import render, request_report
from engine.rules.battle_royale.resolution import next_die
from engine.rules.battle_royale.state import State, clone, is_alive, team_name
from engine.rules.battle_royale.tables import (
    BATTLE_TABLES,
    BOT_TABLE_NAMES,
    SECRET_TABLE_NAMES,
    SEED_TABLES,
    SELECTION_NAMES,
    canonical_name,
    same_prefecture,
)
from parser.numbers import NotANumber, read_number

_MAX_TEAM_NAME = 20
_BATTLE_NAMES = {canonical_name(t.name) for t in BATTLE_TABLES} | {canonical_name("戦闘ダイス")}
_ALIASES = {
    canonical_name("奇襲者有利ダイス"): canonical_name("奇襲者（被奇襲者）有利ダイス"),
    canonical_name("被奇襲者有利ダイス"): canonical_name("奇襲者（被奇襲者）有利ダイス"),
    canonical_name("団体戦用奇襲者有利ダイス"): canonical_name("＜団体戦用＞奇襲者（被奇襲者）有利ダイス"),
    canonical_name("対戦相手選択ダイス"): canonical_name("対戦都道府県選択ダイス"),
}
_KNOWN = {canonical_name(t.name) for t in SEED_TABLES} | {
    canonical_name(n) for n in (*SELECTION_NAMES, *BOT_TABLE_NAMES, *SECRET_TABLE_NAMES, "戦闘ダイス")
}


def _plus(text: str) -> str:
    """Which +1 a group table's note line speaks of ("勝利" / "敗北"), if any."""
    flat = unicodedata.normalize("NFKC", text)
    for word in ("勝利", "敗北"):
        if f"{word}+1" in flat:
            return word
    return ""


def check_table(
    state: State,
    table_name: str,
    sides: int,
    *,
    count: int | None = None,
    base: str | None = None,
    variant: str | None = None,
) -> str | None:
    """None when a player's die fits what the rules need now; otherwise the Japanese explanation of the
    right table. `count` is N of dNdM, `base` the name in 基準『』, `variant` the note line (勝利＋1…)."""
    request = next_die(state)
    if request is None:
        return "このバトロワは既に決着がついています"
    if request.secret:
        return "次のダイスは非公開です（ダイス民ボットが振ります）"
    expected = f"【{request.name}】（{request.command}）"
    given = canonical_name(table_name)
    given = _ALIASES.get(given, given)
    wanted = canonical_name(request.name)
    same = (
        given == wanted
        or (given == canonical_name("戦闘ダイス") and wanted in _BATTLE_NAMES)
        or _renamed(given, wanted)
    )
    if not same:
        if names_a_die(table_name):
            return f"今振るのは【{table_name.strip('【】')}】ではなく{expected}です。理由：{request.reason}"
        return f"【{table_name.strip('【】')}】というダイスはありません。今振るのは{expected}です。理由：{request.reason}"
    if sides != request.sides or (count is not None and count != request.count):
        given_command = f"dice{count if count is not None else request.count}d{sides}="
        why = "（都道府県表の番号が作り直されています）" if request.step.startswith("select") else ""
        return f"{expected}の振り方は {request.command} です（{given_command} ではありません）{why}。理由：{request.reason}"
    if base is not None and request.base and not _same_name(base, request.base):
        return f"{expected}の基準は『{request.base}』です（『{base}』ではありません）。理由：{request.reason}"
    if variant is not None and request.note and _plus(variant) and _plus(variant) != _plus(request.note):
        return f"{expected}は「{request.note}」の方です。理由：{request.reason}"
    return None


def check_template(state: State, template: DieTemplate) -> str | None:
    """`check_table` for a template found in a post by `engine.rules.battle_royale.grammar.find_die_templates`."""
    if template.error is not None or template.sides is None:
        return f"【{template.table}】のダイスが振れません：{template.error}"
    return check_table(
        state,
        template.table,
        template.sides,
        count=template.count,
        base=template.base,
        variant=template.variant,
    )


def names_a_die(table_name: str) -> bool:
    """Whether a 【name】 is one of the game's dice, as the page writes it or renamed (`_renamed`)."""
    given = canonical_name(table_name)
    given = _ALIASES.get(given, given)
    return given in _KNOWN or given in _BATTLE_NAMES or any(_renamed(given, known) for known in _KNOWN)


def _renamed(given: str, wanted: str) -> bool:
    """A die renamed as the page allows (「名称とかも、各々使いやすいように好きに改変してください」): a name
    that is part of the wanted die's name (【戦闘方針】, 【奇襲判定】, 【脱落判定】) and not itself the name
    of another die; the command and the 基準 are still checked after it."""
    short = given.removesuffix("ダイス")
    if len(short) < 2:
        return False
    full = f"{short}ダイス"
    if full == wanted:
        return True
    return not (given in _KNOWN or full in _KNOWN or full in _BATTLE_NAMES) and short in wanted


def _same_name(given: str, wanted: str) -> bool:
    flat = unicodedata.normalize("NFKC", given).strip().strip("『』")
    return same_prefecture(flat, unicodedata.normalize("NFKC", wanted))  # 基準『滋賀県』 for 滋賀


def set_team_name(state: State, team: str, name: str) -> tuple[State, Report]:
    """タッグマッチのチーム名 (decided by 安価, entered by the GM): `team` is the team number or its name."""
    if not state.options.tag_match:
        raise BattleRoyaleError("タッグマッチではないのでチーム名はありません")
    if not state.setup_done:
        raise BattleRoyaleError("チームはまだ結成されていません（タッグ結成ダイスの後で決めてください）")
    key = _team_key(state, team)
    if key is None:
        raise BattleRoyaleError(f"チーム「{team}」が見つかりません（番号か今のチーム名で指定してください）")
    clean = unicodedata.normalize("NFKC", name).strip()
    if not clean or len(clean) > _MAX_TEAM_NAME or any(ch in clean for ch in "『』\n"):
        raise BattleRoyaleError(f"チーム名は1～{_MAX_TEAM_NAME}文字で『』や改行を含まない名前にしてください")
    for other in state.teams:
        if other != key and team_name(state, other) == clean:
            raise BattleRoyaleError(f"チーム名「{clean}」は既に{other}番のチームが使っています")
    old = team_name(state, key)
    new = clone(state)
    new.team_names[key] = clean
    members = "".join(f"『{m}』" for m in new.teams[key])
    return new, report(line(f"チーム名決定：{old} → 『{clean}』{members}"))


def _team_key(state: State, team: str) -> str | None:
    text = unicodedata.normalize("NFKC", team).strip()
    if text in state.teams:
        return text
    number = read_number(text, low=1, high=len(state.table))
    if not isinstance(number, NotANumber):
        return state.table[number - 1]
    for key in state.teams:
        if team_name(state, key) == text:
            return key
    return None


def opening_report(state: State) -> Report:
    """What to post when the game opens: the title, the rules in effect and the numbered table (or, when
    set-up dice are still to come, which ones)."""
    if state.setup_done:
        return render([entrants(state)])
    request = next_die(state)
    what = f"【{request.name}】" if request else ""
    return report(line(f"{state.options.title}：開始前の準備ダイス{what}から始めます"))


def next_die_report(state: State) -> Report:
    """Which die comes next, as the template to copy (assisted play); secret dice are only announced."""
    request = next_die(state)
    if request is None:
        return report(line("このバトロワは決着しました"))
    if request.secret:
        return report(line("非公開のダイスをダイス民ボットが振ります"), kind="prompt")
    return request_report(request)


def gm_report(state: State) -> Report:
    """For the GM's eyes only: the mastermind, its lives and collaborators (kind "secret")."""
    mm = state.mastermind
    if mm is None:
        return report(line("（GM）黒幕なし"), kind="secret")
    if not mm.name:
        return report(line("（GM）黒幕はまだ決まっていません"), kind="secret")
    status = "撃破済み" if mm.defeated else ("死んだふり中" if mm.hidden else "表向き生存")
    collaborators = "".join(f"『{c}』{'' if is_alive(state, c) else '（脱落）'}" for c in mm.collaborators)
    return report(
        line(f"（GM）黒幕『{mm.name}』：残機{mm.lives}、{status}"),
        line(f"（GM）協力者：{collaborators or 'なし'}"),
        kind="secret",
    )
