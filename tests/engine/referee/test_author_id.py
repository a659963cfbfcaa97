"""The post's board ID reaches the rules as `Author.id` (`Order.by`) where the board shows one — for an
order taken in the poll that read it and for the same order read back from the store at the deadline
(the ID comes from the stored post, never from the stored order) — and goes nowhere the thread did
not show it: not into a post of the bot's, nor a stored order, nor the game's state."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta

from engine.referee import PostView
from engine.report import Report, report
from engine.rng import RandomSource
from engine.rules.guess.ruleset import GuessRuleset, GuessState
from engine.ruleset import Author, ImmediateRuleset, Order, OrderText, Rejection
from store.changes import SaveOrders
from tests.referee_harness import START, THREAD, PureGame, posted

SHOWN = "eU4RU1Lw(主)"  # as the dat's date field shows it: ID:eU4RU1Lw(主)
ID = "eU4RU1Lw"


class Watching(GuessRuleset):
    """数当て that notes who the rules were told wrote each order, at intake and at the deadline."""

    def __init__(self) -> None:
        self.checked: list[Author] = []
        self.resolved: list[Author] = []

    def check(self, state: GuessState, order: Order) -> str | None:
        self.checked.append(order.by)
        return super().check(state, order)

    def resolve(self, state: GuessState, orders: Sequence[Order], source: RandomSource):
        self.resolved += [order.by for order in orders]
        return super().resolve(state, orders, source)


def test_an_order_carries_the_posts_id_from_intake_to_the_deadline_and_stores_none() -> None:
    played = PureGame("guess", 'players = ["アリス", "ボブ"]\n')
    watching = Watching()
    played.setup = replace(played.setup, ruleset=watching)
    out = posted(played.poll())
    played.number += 1
    with_id = PostView(played.number, "アリス", None, START + timedelta(minutes=5), "＜予想＞7", SHOWN)
    without = replace(played.post("＜予想＞9", "ボブ"), date=START + timedelta(minutes=5))
    out += posted(played.poll([with_id, without], minutes=5))
    assert [(a.name, a.id) for a in watching.checked] == [("アリス", ID), ("ボブ", None)]
    out += posted(played.poll(minutes=58))  # the deadline, in a new poll: read back from the store
    assert [(a.name, a.id) for a in watching.resolved] == [("アリス", ID), ("ボブ", None)]
    assert any("アリス: 7" in text for text in out)
    assert not any(ID in text for text in out)  # the bot never repeats it
    stored = played.store.orders("guess")
    assert stored and not any(ID in json.dumps(row.__dict__, ensure_ascii=False) for row in stored)
    resolution = played.store.resolution("guess", 1)
    assert resolution is not None and ID not in resolution.state


class Steps(ImmediateRuleset):
    """An immediate game that notes who wrote each step."""

    ID = "steps"
    NAME = "手番"
    HELP = "足す N"

    def __init__(self) -> None:
        self.authors: list[Author] = []

    def parse_post(self, body: str) -> OrderText | Rejection | None:
        return OrderText(int(body[3:]), body) if body.startswith("足す ") else None

    def initial_state(self, scenario):
        return {"total": 0}

    def state_to_dict(self, state):
        return state

    def state_from_dict(self, data):
        return data

    def apply(self, state, order: Order, source: RandomSource) -> tuple[dict, Report]:
        self.authors.append(order.by)
        return {"total": state["total"] + order.command}, report(kind="answer")


def test_an_immediate_step_carries_the_posts_id() -> None:
    played = PureGame("dice", "")
    steps = Steps()
    played.setup = replace(played.setup, ruleset=steps)
    played.number += 1
    post = PostView(played.number, "GM", "GMGMGMGMGM", played.now, "足す 2", "Zz9Zz9Zz0")
    played.poll([post])
    assert steps.authors == [Author("GM", "GMGMGMGMGM", "Zz9Zz9Zz0", gm=True)]
    assert played.store.poster_ids(THREAD.id)[post.number] == "Zz9Zz9Zz0"  # the post as the board showed it


def test_a_diamond_in_a_name_is_no_trip() -> None:
    """A board that leaves a typed ◆ in the name field (boards turn it into ◇; the scraper takes a
    trip only from the board's markup) must not let `名無し◆<the GM's trip>` pass for the GM."""
    played = PureGame("guess", 'players = ["アリス"]\n')
    forged = PostView(2, "名無し◆GMGMGMGMGM", None, START, "＜予想＞7")
    game_author = forged.author
    assert game_author == "名無し◇GMGMGMGMGM" and Author.of(game_author).trip is None
    decided = played.poll([forged])
    assert not any("GMGMGMGMGM" in text and "◆" in text for text in posted(decided))
    rows = [row for change in decided.changes if isinstance(change, SaveOrders) for row in change.rows]
    assert [(row.author, row.status) for row in rows] == [("名無し◇GMGMGMGMGM", "rejected")]  # not the GM's


def test_the_id_of_a_post_is_the_stored_posts_and_none_for_a_post_the_store_does_not_hold() -> None:
    from engine.referee import Game, Ledger

    played = PureGame("guess", 'players = ["アリス"]\n')
    played.number += 1
    played.poll(
        [PostView(played.number, "アリス", None, START, "こんにちは", SHOWN), played.post("やあ", "ボブ")]
    )
    later = Game(played.setup, THREAD, Ledger(played.store, "guess"), played.now)  # a later poll
    assert [later.author_id(THREAD.id, number) for number in (2, 3, 99)] == [ID, None, None]
