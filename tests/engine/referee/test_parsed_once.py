"""An order is parsed once and carried as its typed command: the poll that reads a line resolves with
the command it read (its canonical form is not parsed again in that poll), a stored order is parsed
once a poll however many posts ask about its period — and everything stays derived from the stored
log: orders read in one poll and resolved in the next (a restart between them) give the period the
same report and the same state as orders read and resolved in one poll."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from engine.referee import PostView
from engine.rules.guess.ruleset import GuessRuleset, GuessState
from engine.ruleset import AnnotatesReceipts, OrderText, Rejection
from tests.referee_harness import START, PureGame, posted

GUESSES = ("＜予想＞7", "＜予想＞9")


class Counting(GuessRuleset, AnnotatesReceipts[GuessState]):
    """数当て that counts what its grammar reads, and weighs each receipt against the period's orders
    (so that every post with an order asks for the period's accepted orders)."""

    def __init__(self) -> None:
        self.parsed: list[str] = []

    def parse_line(self, text: str) -> OrderText | Rejection | None:
        self.parsed.append(text)
        return super().parse_line(text)


def guess_game() -> tuple[PureGame, Counting]:
    played = PureGame("guess", 'players = ["アリス", "ボブ", "カイ"]\n')
    counting = Counting()
    played.setup = replace(played.setup, ruleset=counting)
    return played, counting


def written(played: PureGame, body: str, name: str, minutes: float) -> PostView:
    """A post dated `minutes` after the start, whenever it is read."""
    played.number += 1
    return PostView(played.number, name, None, START + timedelta(minutes=minutes), body)


def test_lines_read_and_resolved_in_one_poll_are_parsed_once() -> None:
    played, counting = guess_game()
    played.poll()
    posts = [written(played, text, name, 10) for text, name in zip(GUESSES, ("アリス", "ボブ"), strict=True)]
    counting.parsed.clear()
    report = "\n".join(posted(played.poll(posts, minutes=63)))  # read after the deadline: resolved now
    assert "【ピリオド1 更新】" in report and "アリス: 7" in report and "ボブ: 9" in report
    assert counting.parsed == list(GUESSES)  # each line once, at intake; none again at the deadline


def test_a_stored_order_is_parsed_once_a_poll_whatever_asks_for_it() -> None:
    played, counting = guess_game()
    played.poll()
    played.poll([played.post(GUESSES[0], "アリス")], minutes=5)
    counting.parsed.clear()
    later = [played.post("＜予想＞9", "ボブ"), played.post("＜予想＞3", "カイ")]
    played.poll(later, minutes=5)  # each post's receipt weighs it against アリス's stored guess
    assert counting.parsed == ["＜予想＞9", "＜予想＞3", GUESSES[0]]
    counting.parsed.clear()
    report = "\n".join(posted(played.poll(minutes=53)))
    assert "アリス: 7" in report and "カイ: 3" in report
    # a new poll reads the stored log again: each stored order once
    assert sorted(counting.parsed) == sorted([GUESSES[0], "＜予想＞9", "＜予想＞3"])


# Written in the grace time after period 1's deadline, so it is period 2's and not checked when read
# (the state it will meet does not exist yet): its target is found missing at period 2's resolution.
NAVAL_POST = "＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05　まだいない敵\n＜移動＞XYZ-DD-X-01、(7,3)　一歩だけ"


def _naval_periods(read_early: bool) -> tuple[list[str], str]:
    played = PureGame("naval")
    played.poll()
    post = written(played, NAVAL_POST, "アリス", 61)
    if read_early:  # read in its own poll, resolved by a later one from the stored rows
        played.poll([post], minutes=61.5)
        decided = played.poll(minutes=61.5)
    else:  # read by the poll that resolves periods 1 and 2
        decided = played.poll([post], minutes=123)
    reports = [text for text in posted(decided) if text.startswith("【ピリオド2 更新】")]
    resolution = played.store.resolution("naval", 2)
    assert reports and resolution is not None
    return reports, resolution.state


def test_orders_resolved_in_the_poll_that_read_them_match_orders_read_back_from_the_store() -> None:
    reports, state = _naval_periods(read_early=False)
    assert (reports, state) == _naval_periods(read_early=True)
    # the period's report names each order by its canonical form, never the line's own words
    shown = "\n".join(reports)
    assert "＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05 → 無効" in shown and "まだいない敵" not in shown
