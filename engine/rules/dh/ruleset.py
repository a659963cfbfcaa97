"""DH as a clocked ruleset: each phase is a period (phase p = turn (p + 1) // 2, 先手 when p is odd).

- An order line is one character's 行動; its player is the character, so reminders name the
  characters still without a line. Every line has a key of its own (`order_key`), and `submission.py`
  chooses the line that counts per character (and per 再行動) for the receipt (`remark`) and `resolve`. A side's submitter's ready word readies all its characters (`players_of`).
- `check` refuses at receipt what `control.check_order` names; `resolve` checks the author again
  (condition 2) and resolves the phase (`resolution.py`).
- ORDERS.txt for `threadgm adjudicate`: one line per order as posted, optionally headed by
  `[名前◆TRIP]` (who posted it, checked like a post's author; without one the GM's file vouches for
  the line, as the side's submitter).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import regex

from engine.clock.words import JST
from engine.report import Block, Report
from engine.rng import RandomSource
from engine.rules.dh import sim, verify
from engine.rules.dh.control import check_order, ready_characters, side_owners, speaks_for
from engine.rules.dh.forecast import forecast
from engine.rules.dh.grammar import Command, Refused, parse
from engine.rules.dh.help import HELP, SUMMARY
from engine.rules.dh.picture import picture as draw
from engine.rules.dh.reading import read_line
from engine.rules.dh.report import build_report, opening_blocks, status_report
from engine.rules.dh.resolution import resolve_phase
from engine.rules.dh.scenario import initial_state
from engine.rules.dh.state import DHState, clone, state_from_dict, state_to_dict
from engine.rules.dh.submission import SECOND_LINE_TEXT, choose, receipt_word, written
from engine.ruleset import (
    AnnotatesReceipts,
    ClockedRuleset,
    HoldsSeats,
    OfflineForms,
    Order,
    OrderText,
    Owners,
    Pictured,
    ReadsWithState,
    Rejection,
    RulesetError,
    Settable,
    Setting,
    ShowsOpening,
    Simulates,
    VerifiesPeriods,
)
from parser.numbers import DIGITS, number_or_error

_AUTHOR = regex.compile(r"^\s*\[([^\]]+)\]\s*(.*)$")
_DURATION = regex.compile(rf"^(?:({DIGITS}+)\s*分)?\s*(?:({DIGITS}+)\s*秒?)?$")
_STATS = ("hp", "mind", "attack", "defense", "square")


def _seconds(text: str) -> int:
    """`75`, `75秒`, `1分15秒` → 75."""
    match = _DURATION.match(unicodedata.normalize("NFKC", str(text)).strip())
    if match is None or not (match[1] or match[2]):
        raise ValueError(f"遅刻「{str(text)[:12]}」は秒数で書いてください（例：75 ／ 1分15秒）")
    minutes = number_or_error(match[1] or "0", what="遅刻の分", digits=4)
    return minutes * 60 + number_or_error(match[2] or "0", what="遅刻の秒", digits=6)


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "late",
        "このフェイズの陣営の遅刻（秒。書き込みの時刻より優先。例：late=75、late=1分15秒、late=0）",
        _seconds,
    ),
    Setting("winner", "勝者の陣営（降参など。引き分けも可）", str),
    Setting("dp.<陣営名>", "その陣営のDP（整数）", int),
    Setting(
        "characters.<名前>.hp", "キャラクターの体力・精神・攻撃力・防御力（hp・mind・attack・defense）", int
    ),
    Setting("characters.<名前>.square", "キャラクターのマス（例：C3）", str),
)


def _set_character(state: DHState, name: str, key: str, value: Any) -> None:
    character = state.characters.get(name)
    if character is None:
        raise ValueError(f"キャラクター「{name}」はいません")
    if key not in _STATS:
        raise ValueError(f"キャラクターの {key} は設定できません（{'・'.join(_STATS)}）")
    if key == "square":
        square = unicodedata.normalize("NFKC", str(value)).strip().upper()
        if not state.grid.open(square):
            raise ValueError(f"{value}はMAPの外か壁です")
        character.square = square
        return
    number = number_or_error(str(value), what=f"{name}の{key}", digits=6)
    setattr(character, key, number)
    if key == "hp" and number == 0:
        character.alive, character.square = False, None


def _as_order_text(parsed: Command | Refused | None) -> OrderText | Rejection | None:
    if parsed is None:
        return None
    if isinstance(parsed, Refused):
        return Rejection(parsed.text, parsed.reason)
    return OrderText(parsed, parsed.canonical, parsed.character)


def lateness(state: DHState, kept: Sequence[Order], deadline: datetime) -> tuple[int, str] | None:
    """Seconds the acting side's last counted line came after `deadline` (a started second counts),
    and the note saying so; None when none came late. Lines the GM vouched for are never late."""
    side = state.acting.name
    timed = [
        order
        for order in kept
        if order.written_at is not None
        and not order.gm
        and isinstance(order.command, Command)
        and state.characters.get(order.command.character) is not None
        and state.characters[order.command.character].side == side
    ]
    last = max(timed, key=lambda order: order.written_at, default=None)
    if last is None or last.written_at <= deadline:
        return None
    seconds = math.ceil((last.written_at - deadline).total_seconds())
    shown = f"締切 {_clock(deadline)}、{written(last)} {_clock(last.written_at)}"
    return seconds, f"（{shown}）"


def _clock(moment: datetime) -> str:
    return moment.astimezone(JST).strftime("%H:%M:%S")


def rules_in_force(state: DHState) -> list[str]:
    """The campaign options of this game, one short phrase each (the opening post)."""
    options = state.options
    first, second = (side.name for side in state.sides)
    found = [f"先手 {first}・後手 {second}", f"最終ターン {options.turn_limit}"]
    found += [
        name for name, on in (("先手ペナルティ", options.first_penalty), ("半必中", options.half_hit)) if on
    ]
    found += ["必中"] if options.sure_hit else []
    found += ["瀕死（体力1で移動不可）"] if options.dying else []
    found.append(f"DP 撃破1人{options.dp_per_kill}・味方死亡で精神-{options.ally_death_mind}")
    found += [f"増援 {w.side} 第{w.turn}ターン {w.count}人" for w in state.reinforcements]
    found.append(f"遅刻 最初{options.late_first}人＋1分ごと{options.late_per_minute}人")
    found.append(SECOND_LINE_TEXT[options.second_line])
    # The other options only where the scenario changed them (HELP names every default).
    found += [f"移動力 {options.move}"] if options.move != 2 else []
    found += ["ZoCで行動キャンセル"] if options.zoc_cancels else []
    found += ["発動失敗でも制約・能力休み"] if options.failed_activation_pays else []
    if options.mental_rates != [100, 50, 25]:
        rates = "・".join(f"精神{mind}→{rate}%" for mind, rate in enumerate(options.mental_rates))
        found.append(f"精神攻撃の成功率 {rates}")
    found += [f"ステータス上限 {options.stat_budget}"] if options.stat_budget else []
    found += [f"{side.name}は誰でも提出できます" for side in state.sides if state.open and not side.trips]
    return found


class DHRuleset(
    ClockedRuleset[DHState, Command],
    ReadsWithState[DHState],
    AnnotatesReceipts[DHState],
    HoldsSeats[DHState],
    Settable[DHState],
    ShowsOpening[DHState],
    OfflineForms[DHState],
    Pictured[DHState],
    Simulates[DHState],
    VerifiesPeriods,
):
    ID = "dh"
    NAME = "ダンゲロス・ハルマゲドン"
    HELP = HELP
    SUMMARY = SUMMARY
    settings: Sequence[Setting] = SETTINGS

    def picture(self, state: DHState, result: Mapping[str, Any] | None = None) -> str:
        return draw(state, result)

    def rules_in_force(self, state: DHState) -> list[str]:
        return rules_in_force(state)

    def opening_view(self, state: DHState) -> Sequence[Block]:
        """The starting position: the map with the starters and the table of every character."""
        return opening_blocks(state)

    def read_scenario(self, text: str) -> dict[str, Any]:
        data = super().read_scenario(text)
        initial_state(data)  # a scenario the rules cannot play is refused here, with why
        return data

    def initial_state(self, scenario: Mapping[str, Any]) -> DHState:
        return initial_state(scenario)

    def state_to_dict(self, state: DHState) -> dict:
        return state_to_dict(state)

    def state_from_dict(self, data: dict) -> DHState:
        return state_from_dict(data)

    def parse_line(self, line: str) -> OrderText | Rejection | None:
        return _as_order_text(parse(line))

    def read_line(self, state: DHState | None, line: str) -> OrderText | Rejection | None:
        """A line as it arrives, read with the characters' names (`reading.py`): an order-like line
        that cannot be read is answered with the nearest form; chat stays chat."""
        return _as_order_text(read_line(state, line))

    def order_key(self, order: Order) -> str:
        """One key per line: every accepted line reaches `resolve`, and `submission.choose` decides
        which one counts for its character (the option `second_line`, corrections by anchor)."""
        command = order.command
        key = command.key if isinstance(command, Command) else order.player
        return f"{key}@{order.post}.{order.line}"

    def void(self, state: DHState, order: Order, earlier: Sequence[Order]) -> str | None:
        """A second, different line for a character (second_line = "void"): refused at the receipt,
        with how to correct it — not taken, so 準備完了 beside it does not close the phase."""
        if not isinstance(order.command, Command):
            return None
        return choose(state, [*earlier, order]).void.get((order.post, order.line))

    def remark(self, state: DHState, order: Order, earlier: Sequence[Order]) -> str | None:
        """The receipt's promise: what becomes of the line among the character's lines, and what it
        will do at the deadline as things stand (`forecast.py`)."""
        if not isinstance(order.command, Command):
            return None
        chosen = choose(state, [*earlier, order])
        word = receipt_word(chosen, order)
        if (order.post, order.line) in chosen.void:
            return word
        ahead = forecast(state, [o.command for o in chosen.kept if o is not order] + [order.command])
        return "。".join(part for part in (word, ahead) if part) or None

    def check(self, state: DHState, order: Order) -> str | None:
        command = order.command
        author = None if order.gm else order.author
        return check_order(state, command, author) if isinstance(command, Command) else None

    def players(self, state: DHState) -> list[str] | None:
        return ready_characters(state) or None

    def seats(self, state: DHState) -> Sequence[str]:
        """Both sides: what someone submits for (`players` names only the acting side's characters)."""
        return [side.name for side in state.sides]

    def owners(self, state: DHState, thing: str) -> Owners:
        """A side's lines come from its submitters (`side_owners`); a character is its side's."""
        character = state.characters.get(thing)
        side = next((s for s in state.sides if s.name == (character.side if character else thing)), None)
        return side_owners(side, state.open) if side is not None else ()

    def players_of(self, state: DHState, author: str) -> list[str]:
        sides = {side.name for side in state.sides if side.trips and speaks_for(side, author)}
        return [c.name for c in state.characters.values() if c.side in sides]

    def read_orders(self, state: DHState, text: str) -> list[Order]:
        orders: list[Order] = []
        for number, raw in enumerate(text.splitlines(), start=1):
            if not raw.strip() or raw.lstrip().startswith("#"):
                continue
            match = _AUTHOR.match(raw)
            author, body = (match[1].strip(), match[2]) if match else (None, raw)
            parsed = self.read_line(state, body)
            if not isinstance(parsed, OrderText):
                why = parsed.reason if isinstance(parsed, Rejection) else "行動提出として読めません"
                raise RulesetError(f"{number}行目「{raw.strip()}」: {why}")
            command = parsed.command
            # A line without [名前◆TRIP] is the GM's file vouching for it (the side's submitter).
            orders.append(
                Order(
                    number, 0, author or "GM", command.character, command, parsed.canonical, gm=author is None
                )
            )
        return orders

    def resolve(
        self, state: DHState, orders: Sequence[Order], source: RandomSource
    ) -> tuple[DHState, Report]:
        chosen = choose(state, orders)
        lines = [(None if order.gm else order.author, order.command) for order in chosen.kept]
        after, phase, ctx = resolve_phase(state, lines, source)
        phase.void = [
            (f"{written(order)} {order.canonical}", chosen.void[(order.post, order.line)])
            for order in orders
            if (order.post, order.line) in chosen.void
        ]
        return after, build_report(state, after, phase, ctx)

    def resolve_timed(
        self, state: DHState, orders: Sequence[Order], source: RandomSource, deadline: datetime | None
    ) -> tuple[DHState, Report]:
        """遅刻ペナルティ measured: how long after the phase's deadline (as the side was given it) its
        last line that counts was posted — unless the GM set the lateness (設定 late=…, 0 included)."""
        if state.late is None and deadline is not None:
            measured = lateness(state, choose(state, orders).kept, deadline)
            if measured is not None:
                state = clone(state)
                state.late, state.late_note = measured
        return self.resolve(state, orders, source)

    def status(self, state: DHState) -> Report:
        return status_report(state)

    def finished(self, state: DHState) -> bool:
        return state.winner is not None

    def set_value(self, state: DHState, path: str, value: Any) -> DHState:
        new = state_from_dict(state_to_dict(state))
        path = unicodedata.normalize("NFKC", path)  # names are kept in NFKC (characters.ロボⅡ.hp)
        value = unicodedata.normalize("NFKC", str(value)).strip()
        parts = path.split(".")
        if path == "late":
            new.late = _seconds(str(value))
        elif path == "winner":
            if value not in [side.name for side in new.sides] + ["引き分け"]:
                raise ValueError(f"勝者は {'・'.join(s.name for s in new.sides)}・引き分け のどれかです")
            new.winner, new.reason = str(value), "GMの裁定"
        elif len(parts) == 2 and parts[0] == "dp" and parts[1] in new.dp:
            new.dp[parts[1]] = number_or_error(str(value), what=f"{parts[1]}のDP", digits=6)
        elif len(parts) == 3 and parts[0] == "characters":
            _set_character(new, parts[1], parts[2], value)
        else:
            known = "、".join(setting.path for setting in SETTINGS)
            raise ValueError(f"{path} は設定できません（設定できるもの: {known}）")
        return new

    def simulate(self, scenario: Mapping[str, Any], runs: int, seed: str, *, as_json: bool) -> str | None:
        return sim.simulate(scenario, runs, seed, as_json=as_json)

    def read_period(self, lines: Sequence[str]) -> dict[str, Any]:
        return verify.read_period(lines)

    def verify_period(self, key: bytes, result: Mapping[str, Any]) -> list[str]:
        return verify.verify_period(key, result)


RULESET = DHRuleset()
