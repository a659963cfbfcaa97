"""The missing-order policy (`AssumesOrders`): a game that assumes an order for a player who sent none
gets it resolved with the period's orders, and the period's report names whom and what — the same
after a restart, since the assumption is made again from the stored log at the deadline."""

from __future__ import annotations

from dataclasses import replace

from engine.rules.guess.ruleset import GuessRuleset, GuessState
from engine.ruleset import AssumesOrders, OrderText
from tests.referee_harness import PureGame, posted


class Assuming(GuessRuleset, AssumesOrders[GuessState]):
    """数当て where a player who sent nothing guesses 50."""

    def missing(self, state: GuessState, player: str) -> OrderText | None:
        assumed = self.parse_line("＜予想＞50")
        assert isinstance(assumed, OrderText)
        return assumed if player != "カイ" else None  # カイ is assumed to do nothing


def game() -> PureGame:
    played = PureGame("guess", 'players = ["アリス", "ボブ", "カイ"]\n')
    played.setup = replace(played.setup, ruleset=Assuming())
    return played


def test_a_missing_order_is_assumed_resolved_and_named_in_the_report() -> None:
    played = game()
    played.poll()
    played.poll([played.post("＜予想＞7", "アリス")], minutes=10)
    report = "\n".join(posted(played.poll(minutes=55)))
    assert "命令がなかった人: ボブ（＜予想＞50）" in report
    assert "カイ（" not in report  # nothing assumed for him, so he is not named
    assert "ボブ: 50" in report and "アリス: 7" in report


def test_without_the_capability_nothing_is_assumed() -> None:
    played = PureGame("guess", 'players = ["アリス", "ボブ"]\n')
    played.poll()
    played.poll([played.post("＜予想＞7", "アリス")], minutes=10)
    report = "\n".join(posted(played.poll(minutes=55)))
    assert "命令がなかった人" not in report and "ボブ: " not in report
