"""ダイス: the plain dice thread, a game with no state of its own — every dice command answered at once.

The answers themselves (`answers.answer`, `answers.reveal`) are what every game's thread uses when
`dice = true`; this folder is also a game, so that a thread of nothing but dice is configured like any
other (`rules = "dice"`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engine.dice.answers import REVEAL_HEADING, SECRET_LABEL, answer, reveal, secret_label
from engine.dice.post import MAX_COMMANDS, MAX_POST_ANSWER, MAX_POST_DICE, MAX_POST_LINES
from engine.report import Report, report
from engine.rng import RandomSource
from engine.ruleset import ImmediateRuleset, Order, RulesetError, unknown_keys

HELP = f"""\
【ダイス】
レスに書いたダイスコマンドにその場で答えます。
・dice2d47= のような BBS 形式（ダイス1～10個、面1～9999。= まで続けて書きます。dice2d47 だけの行には書き方を返します）
・2D6>=7、1D100<=50、3B6、choice[A,B,C] など BCDice の共通コマンド（行頭に書く。全角も可）
・【表の名前】とコマンドと「1.勝利」「5-6.敗北」のような出目の行を並べた表
1レスのダイスは{MAX_COMMANDS}件・{MAX_POST_DICE}個まで、答えは{MAX_POST_LINES}行・{MAX_POST_ANSWER}文字まで
（ボットの書き込み2つ分。それを超える分は振らずにそう書きます）。
出目はその日（日本時間）の鍵から決まり、鍵のハッシュは前日までに、鍵そのものは翌日に公開します。
threadgm verify でスレッドの全ての出目を誰でも再計算できます。"""


class DiceRuleset(ImmediateRuleset[dict, None]):
    ID = "dice"
    NAME = "ダイス"
    HELP = HELP
    SUMMARY = "dice2d47= ／ 2D6>=7 ／ choice[北海道,沖縄] ／ 【表の名前】・dice1d5=・「1.勝利」の行を並べた表（行頭に書く）"
    steps: ClassVar[bool] = False  # nothing to undo: dice answers are final

    def initial_state(self, scenario: Mapping[str, Any]) -> dict:
        # the dice thread reads no scenario: a key written in one would change nothing, silently
        problems = unknown_keys(scenario, ())
        if problems:
            raise RulesetError("\n".join(problems))
        return {}

    def state_to_dict(self, state: dict) -> dict:
        return {}

    def state_from_dict(self, data: dict) -> dict:
        return {}

    def apply(self, state: dict, order: Order, source: RandomSource) -> tuple[dict, Report]:
        return state, report()  # never called: parse_post finds no command beyond the dice


RULESET = DiceRuleset()

__all__ = ["REVEAL_HEADING", "RULESET", "SECRET_LABEL", "DiceRuleset", "answer", "reveal", "secret_label"]
