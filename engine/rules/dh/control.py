"""Who may submit for whom, and what a 行動提出 line is refused for when it is received.

A side's `trips` lists who submits for it (`名前◆TRIP` or `◆TRIP`: the trip decides, whatever the
name). Players are strangers on a public board, so a side that lists nobody takes lines from nobody —
unless the scenario says `[game] open = true` (anyone submits for a side that lists nobody). An author
of None is vouched for by whoever runs the rules (an orders file of the GM's, the simulation). Only the
side whose phase it is may submit; a line naming
an unknown character, a character of the other side, a square off the map, an attack on oneself or an
unknown power is refused in the receipt with the reason (condition 2 of 行動の前提条件: 敵は動かせない).
"""

from __future__ import annotations

import difflib
import unicodedata

from engine.rules.dh.grammar import ATTACK, POWER, Command
from engine.rules.dh.powers import first_side_penalty
from engine.rules.dh.state import DHState, Side
from engine.rules.dh.stats import present_since, why_cannot_act
from engine.ruleset import ANYONE, Author, Owners, may_act


def side_owners(side: Side, open_table: bool = False) -> Owners:
    """Who submits for a side: the trips it lists (the trip decides, whatever the name; an entry without
    a trip counts for nobody); a side that lists nobody: anyone at an open table, else nobody."""
    if not side.trips:
        return ANYONE if open_table else ()
    return [entry for entry in side.trips if Author.of(entry).trip]


def speaks_for(side: Side, author: str | None, open_table: bool = False) -> bool:
    """Whether `author` may submit for `side`: the one rule over `side_owners`; None (vouched for by
    whoever runs the rules) always."""
    return author is None or may_act(Author.of(author), side_owners(side, open_table))


def submitter_problem(state: DHState, author: str | None) -> str | None:
    """Why `author` may not submit in this phase (for the receipt), or None."""
    acting = state.acting
    if speaks_for(acting, author, state.open):
        return None
    if not acting.trips:
        return f"今は{acting.name}のフェイズです（{acting.name}の提出者がシナリオに書かれていないため受け付けません。GMに伝えてください）"
    return f"今は{acting.name}のフェイズです（{author}は{acting.name}の提出者ではありません）"


def ready_characters(state: DHState) -> list[str]:
    """The characters of the side whose phase it is that can act now: who must submit."""
    if state.winner is not None:
        return []
    side = state.acting.name
    return [
        c.name
        for c in state.characters.values()
        if c.side == side and why_cannot_act(c) is None and present_since(c, state.phase)
    ]


def no_character(state: DHState, names: list[str]) -> str:
    """キャラクター「…」はいません, with the character meant when one name is near (`会長さん`, `書紀`)."""
    known = list(state.characters)
    meant = []
    for name in names:
        plain = unicodedata.normalize("NFKC", name)
        begun = [k for k in known if len(plain) >= 2 and (k.startswith(plain) or plain.startswith(k))]
        near = difflib.get_close_matches(plain, known, n=1, cutoff=0.5)
        meant += begun[:1] if len(begun) == 1 else near
    hint = f"（もしかして: {'、'.join(meant)}）" if len(meant) == len(names) else ""
    return f"キャラクター「{'、'.join(names)}」はいません{hint}"


def _deed_problem(state: DHState, command: Command) -> str | None:
    character = state.characters[command.character]
    if command.deed == ATTACK:
        target = state.characters.get(command.target or "")
        if target is None:
            return no_character(state, [command.target or ""])
        if target is character:
            return "自分自身は通常攻撃できません"
        if target.side != character.side and first_side_penalty(state, character):
            return "先手ペナルティ：第1ターンの先手は敵を通常攻撃できません"
    if command.deed == POWER:
        if not character.powers:
            return f"{character.name}には特殊能力がありません"
        if command.power and all(p.name != command.power for p in character.powers):
            names = "、".join(p.name for p in character.powers)
            return f"{character.name}の特殊能力は「{names}」です"
        return _targets_problem(state, command)
    return None


def _targets_problem(state: DHState, command: Command) -> str | None:
    """A power's named targets: each a character (or one square), no more than the power takes."""
    names = [name for name in (command.target or "").split("、") if name]
    if len(names) == 1 and state.grid.contains(names[0]):
        return None
    character = state.characters[command.character]
    power = next((p for p in character.powers if p.name == command.power), character.powers[0])
    unknown = [name for name in names if name not in state.characters]
    if unknown:
        return no_character(state, unknown)
    if len(names) > power.targets:
        return f"「{power.name}」の対象は{power.targets}人までです"
    return None


def _square_problem(state: DHState, command: Command) -> str | None:
    grid = state.grid
    for square in (command.square, command.to):
        if square is not None and not grid.contains(square):
            return f"{square}はMAP（{state.rows[0]}～{state.rows[-1]} × 1～{state.columns}）の外です"
    return None


def check_order(state: DHState, command: Command, author: str | None) -> str | None:
    """Why a 行動提出 line cannot be taken from `author` now (for the receipt), or None."""
    if state.winner is not None:
        return "このゲームは終了しています"
    character = state.characters.get(command.character)
    if character is None:
        return no_character(state, [command.character])
    acting = state.acting
    if (problem := submitter_problem(state, author)) is not None:
        return problem
    if character.side != acting.name:
        return f"{character.name}は{character.side}のキャラクターです（敵は動かせません）"
    return _square_problem(state, command) or _deed_problem(state, command)
