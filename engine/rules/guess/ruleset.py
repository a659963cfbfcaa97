"""数当て: the tiny ruleset that exercises the periods machinery (and documents the ruleset shape).

Each period every player may post `＜予想＞N` (1–100 by default); at the update the bot rolls the
target with the period's dice and the closest guesses score a point. The last guess of a player in
a period counts; a player who sends none scores nothing (the missing-order policy). A scenario's `rounds` ends the game
after that many updates, the highest score winning (0: it never ends).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import regex

from engine.report import Report, heading, line, report, table
from engine.rng import RandomSource
from engine.rules.guess import verify
from engine.ruleset import (
    ANYONE,
    AnnotatesReceipts,
    Author,
    ClockedRuleset,
    Order,
    OrderText,
    Owners,
    Rejection,
    RulesetError,
    Settable,
    Setting,
    ShowsOpening,
    VerifiesPeriods,
    as_written,
    unknown_keys,
)
from parser.numbers import NotANumber, number_or_error, read_number

_ANCHOR = r"(?:>>\s*[0-9]{1,7}(?:\s*[-,、]\s*[0-9]{1,7})*(?![0-9])\s*)?"  # `>>12 ＜予想＞42`, `>>12-14 …`
_GUESS = regex.compile(rf"^\s*{_ANCHOR}<予想>\s*(.*?)\s*$")
# A guess written another way (`予想 42`, `【予想】42`, `＜よそう＞42`): the word, a mark or none, a number.
_NEAR = regex.compile(
    rf"^\s*{_ANCHOR}[<【\[「(『]?\s*(?:予想|よそう|ヨソウ)\s*[>】\]」)』:=]?\s*([0-9]+)\s*$"
)

_SCENARIO_KEYS = ("players", "sides", "rounds")


@dataclass(frozen=True)
class GuessState:
    sides: int = 100
    players: tuple[str, ...] | None = None  # None: anyone may guess
    round: int = 0
    scores: dict[str, int] = field(default_factory=dict)
    last_target: int | None = None
    rounds: int = 0  # the game ends after this many updates; 0: never


class GuessRuleset(
    ClockedRuleset[GuessState, int],
    AnnotatesReceipts[GuessState],
    Settable[GuessState],
    ShowsOpening[GuessState],
    VerifiesPeriods,
):
    ID = "guess"
    NAME = "数当て"
    HELP = """\
【数当て】
各ピリオドに ＜予想＞42 のように数をひとつ書いてください（1～100）。
更新時にボットが目標の数を振り、いちばん近い人に1点。同じピリオドに何度書いても最後の予想が有効です。
取消 と書くとそのピリオドの予想を取り消せます。予想しなかった人は0点です。
「予想 42」「【予想】42」のように書いた行には、受け付けられる書き方（＜予想＞42）を返します。
シナリオの rounds 回（threadgm new の書くシナリオでは5回）の更新で終了し、点数がいちばん多い人が優勝です（同点なら全員。rounds = 0 なら終わりません）。"""
    SUMMARY = "＜予想＞42 のように1～100の数をひとつ（最後の予想が有効）。取消 で取り消し。"
    settings: Sequence[Setting] = (Setting("scores.<名前>", "その人の点数を直す（整数）", int),)

    def parse_line(self, text: str) -> OrderText | Rejection | None:
        flat = unicodedata.normalize("NFKC", text)
        match = _GUESS.match(flat)
        if not match:
            near = _NEAR.match(flat)
            if near is None:
                return None
            shown = read_number(near[1], what="予想", digits=6)
            example = f"＜予想＞{shown}" if isinstance(shown, int) else "＜予想＞42"
            return Rejection(text.strip(), f"読めませんでした。もしかして: {example}")
        value = read_number(match[1], what="予想", digits=6)
        if isinstance(value, NotANumber):
            return Rejection(text.strip(), f"{value.reason}（例：＜予想＞42）")
        return OrderText(value, f"＜予想＞{value}")

    def order_key(self, order: Order) -> str:
        return order.player

    def remark(self, state: GuessState, order: Order, earlier: Sequence[Order]) -> str | None:
        """The last guess counts: a guess after one of the same player's says which it replaces."""
        before = [o for o in earlier if o.player == order.player]
        if not before:
            return None
        return f"{order.player}の先の＜予想＞{before[-1].command}は取り消し。最後の予想が有効です"

    def check(self, state: GuessState, order: Order) -> str | None:
        """The receipt says at once what the update would say: a stranger's guess or one out of range
        counts for nothing, so it is refused when written, while the player can still fix it."""
        if not self._may_play(state, order.player):
            return f"{order.player}さんは参加者ではありません（参加者: {'、'.join(state.players or ())}）"
        if not 1 <= order.command <= state.sides:
            return f"予想は1～{state.sides}の数で書いてください"
        return None

    def initial_state(self, scenario: Mapping[str, Any]) -> GuessState:
        problems = unknown_keys(scenario, _SCENARIO_KEYS)
        if problems:
            raise RulesetError("\n".join(problems))
        players = scenario.get("players")
        if players is not None and (
            not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players)
        ):
            raise RulesetError('players は名前の並びにしてください（例：players = ["アリス◆TRIP"]）')
        sides, rounds = scenario.get("sides", 100), scenario.get("rounds", 0)
        if not _whole(sides) or sides < 2:
            raise RulesetError(f"sides は2以上の整数にしてください（{as_written(sides)}）")
        if not _whole(rounds) or rounds < 0:
            raise RulesetError(
                f"rounds は0以上の整数にしてください（0なら終わりません。{as_written(rounds)}）"
            )
        return GuessState(sides, tuple(players) if players else None, rounds=rounds)

    def resolve(
        self, state: GuessState, orders: Sequence[Order], source: RandomSource
    ) -> tuple[GuessState, Report]:
        target = source.stream(verify.PURPOSE).roll(state.sides)
        valid = [o for o in orders if self.check(state, o) is None]
        refused = [o for o in orders if o not in valid]
        best = min((abs(o.command - target) for o in valid), default=None)
        winners = sorted({o.player for o in valid if abs(o.command - target) == best})
        scores = dict(state.scores)
        for player in winners:
            scores[player] = scores.get(player, 0) + 1
        blocks = [heading(f"数当て 第{state.round + 1}回"), line(f"目標の数: {target}（1D{state.sides}）")]
        blocks += [line(f"{o.player}: {o.command}（差 {abs(o.command - target)}）") for o in valid]
        blocks += [line(f"{o.player}: {o.command} は{_void_reason(state, o)}のため無効") for o in refused]
        blocks.append(line("当たり: " + "、".join(winners) if winners else "予想はありませんでした"))
        new = replace(state, round=state.round + 1, scores=scores, last_target=target)
        result: dict[str, Any] = {"target": target, "winners": winners, "scores": scores}
        if self.finished(new):
            champions = _champions(scores)
            result["champions"] = champions
            blocks.append(line(_final_line(champions, scores)))
        return new, report(*blocks, kind="resolution", result=result)

    def finished(self, state: GuessState) -> bool:
        return state.rounds > 0 and state.round >= state.rounds

    def read_period(self, lines: Sequence[str]) -> Mapping[str, Any] | None:
        return verify.read_period(lines)

    def verify_period(self, key: bytes, result: Mapping[str, Any]) -> list[str]:
        return verify.verify_period(key, result)

    def rules_in_force(self, state: GuessState) -> list[str]:
        return [
            f"全{state.rounds}回で終了" if state.rounds else "終わりなし（rounds = 0）",
            f"1～{state.sides}",
        ]

    def players(self, state: GuessState) -> list[str] | None:
        return list(state.players) if state.players is not None else None

    def set_value(self, state: GuessState, path: str, value: Any) -> GuessState:
        head, _, player = path.partition(".")
        if head != "scores" or not player:
            raise ValueError(f"{path} は設定できません（設定できるもの: scores.<名前>）")
        score = number_or_error(str(value), what="点数", signed=True)
        return replace(state, scores={**state.scores, player: score})

    def state_to_dict(self, state: GuessState) -> dict:
        return {
            "sides": state.sides,
            "players": list(state.players) if state.players is not None else None,
            "round": state.round,
            "scores": dict(state.scores),
            "last_target": state.last_target,
            "rounds": state.rounds,
        }

    def state_from_dict(self, data: dict) -> GuessState:
        players = data.get("players")
        return GuessState(
            data["sides"],
            tuple(players) if players is not None else None,
            data["round"],
            dict(data["scores"]),
            data["last_target"],
            int(data.get("rounds", 0)),  # states saved before games could end have none
        )

    def status(self, state: GuessState) -> Report:
        rows = sorted(state.scores.items(), key=lambda item: (-item[1], item[0]))
        of = f"（全{state.rounds}回）" if state.rounds else ""
        blocks = [
            heading(f"数当て 第{state.round}回まで{of}"),
            table(((p, f"{s}点") for p, s in rows), header=("名前", "点数")),
        ]
        if self.finished(state):
            blocks.append(line(_final_line(_champions(state.scores), state.scores)))
        return report(*blocks)

    def owners(self, state: GuessState, thing: str) -> Owners:
        """Who may guess: the scenario's `players` (`名前◆TRIP`, `◆TRIP` or names), or anyone without a list."""
        return state.players if state.players is not None else ANYONE

    def _may_play(self, state: GuessState, player: str) -> bool:
        return self.may_act_for(state, Author.of(player), player)


def _whole(value: Any) -> bool:
    """An integer as TOML writes one (true and 2.5 are not: int() would take them as 1 and 2)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _void_reason(state: GuessState, order: Order) -> str:
    return "範囲外" if RULESET._may_play(state, order.player) else "参加者でない人の予想"


def _champions(scores: Mapping[str, int]) -> list[str]:
    best = max(scores.values(), default=0)
    return sorted(player for player, score in scores.items() if score == best and best > 0)


def _final_line(champions: list[str], scores: Mapping[str, int]) -> str:
    if not champions:
        return "【優勝】なし（誰も当たりませんでした）"
    return f"【優勝】{'、'.join(champions)}（{scores[champions[0]]}点）"


RULESET = GuessRuleset()
