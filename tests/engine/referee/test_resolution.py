"""What the rules are handed when the pure referee resolves a period: the period's accepted orders as
stored (post, line, author, player, command, canonical form, the post's own date, whether the author is
a GM), the deadline as the players were given it (before the GM's 延長 of that period), and nothing of
an order whose stored form no longer reads (left out and logged). Who has sent is counted by the players
an author speaks for (`HoldsSeats`). The rules are the guess game's, watched."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest

from engine.rng import SeededSource
from engine.rules import REGISTRY
from engine.ruleset import AssumesOrders, HoldsSeats, Order
from store.records import OrderRecord
from tests.referee_harness import GM_TRIP, START, THREAD, PureGame, posted

GUESS = type(REGISTRY.get("guess"))


class _Watched(GUESS):  # type: ignore[misc, valid-type]
    """The guess game, keeping what each resolution was given."""

    def __init__(self) -> None:
        super().__init__()
        self.given: list[tuple[list[Order], object]] = []
        self.dice: list[tuple[int, int]] = []  # a public and a secret die of each resolution's source

    def resolve_timed(self, state, orders, source, deadline):  # type: ignore[no-untyped-def]
        self.given.append((list(orders), deadline))
        self.dice.append((source.stream("probe").roll(10**9), source.stream("secret/probe").roll(10**9)))
        return super().resolve_timed(state, orders, source, deadline)


class _Seats(_Watched, HoldsSeats):
    """…where a writer with the trip SEAT speaks for ボブ (as a lord for the island he holds)."""

    def players_of(self, state, author):  # type: ignore[no-untyped-def]
        return [state.players[-1]] if author.endswith("◆SEATSEATSE") else [author]

    def check(self, state, order):  # type: ignore[no-untyped-def]
        return None if order.author.endswith("◆SEATSEATSE") else super().check(state, order)


class _Defaults(_Watched, AssumesOrders):
    """…where a player who sends nothing guesses the middle of the range."""

    def missing(self, state, player):  # type: ignore[no-untyped-def]
        return self.parse_line(f"＜予想＞{state.sides // 2}")


def watched(rules: _Watched) -> PureGame:
    game = PureGame("guess", 'players = ["アリス", "ボブ"]\nsides = 100\nrounds = 3\n')
    game.setup = replace(game.setup, dice=False, ruleset=rules)
    game.poll()
    return game


def test_the_rules_get_each_accepted_order_with_its_post_line_author_date_and_gm_flag() -> None:
    rules = _Watched()
    game = watched(rules)
    alice = game.post("こんにちは\n＜予想＞40", "アリス")
    gm = game.post("＜予想＞41", "ボブ", GM_TRIP)
    game.poll([alice, gm, game.post("＜予想＞abc", "ボブ")], minutes=5)
    game.poll(minutes=65)
    ((orders, deadline),) = rules.given
    assert deadline == START.replace(hour=21)
    assert orders == [
        Order(2, 1, "アリス", "アリス", 40, "＜予想＞40", alice.date, False),
        Order(3, 0, f"ボブ◆{GM_TRIP}", f"ボブ◆{GM_TRIP}", 41, "＜予想＞41", gm.date, True),
    ]


def test_the_deadline_the_rules_get_is_the_one_given_before_the_gms_extension() -> None:
    rules = _Watched()
    game = watched(rules)
    game.poll([game.post("延長 30分", "GM", GM_TRIP), game.post("＜予想＞40", "アリス")], minutes=5)
    assert posted(game.poll(minutes=60)) == []  # 21:05: extended to 21:30, not yet
    game.poll(minutes=30)
    ((_, deadline),) = rules.given
    assert deadline == START.replace(hour=21)  # late lines are judged against 21:00


def test_an_order_whose_stored_form_no_longer_reads_is_left_out_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    rules = _Watched()
    game = watched(rules)
    game.poll([game.post("＜予想＞40", "アリス")], minutes=5)
    row = OrderRecord(
        "guess", THREAD.id, 9, 0, "ボブ", "ボブ", 1, "?", "壊れた命令", "ボブ", "accepted", "", None, "x"
    )
    late = OrderRecord(
        "guess",
        THREAD.id,
        10,
        0,
        "カレン",
        "カレン",
        1,
        "?",
        "＜予想＞41",
        "カレン",
        "accepted",
        "",
        None,
        "x",
    )
    refused = replace(
        row, post=11, author="デイブ", player="デイブ", order_key="デイブ", canonical="＜予想＞abc"
    )
    game.store.save_orders([row, late, refused])
    with caplog.at_level(logging.ERROR, logger="threadgm"):
        game.poll(minutes=65)
    ((orders, _),) = rules.given
    # カレン is no player of this game, but her stored order is the store's word: the rules get it
    assert [(o.post, o.player, o.written_at) for o in orders] == [
        (2, "アリス", START),  # the post's own date
        (10, "カレン", None),  # no date stored: none given
    ]
    assert "guess: stored order '壊れた命令' no longer parses; left out" in caplog.messages
    assert "guess: stored order '＜予想＞abc' no longer parses; left out" in caplog.messages


def test_a_writer_who_speaks_for_a_player_has_sent_that_players_orders() -> None:
    game = watched(_Seats())
    game.poll([game.post("＜予想＞40", "代理", "SEATSEATSE")], minutes=5)
    status = posted(game.poll([game.post("状態", "GM", GM_TRIP)], minutes=1))[0]
    assert status.split("\n")[1] == "【GM】ピリオド1・締切 12/01 21:00・未提出: アリス"
    # without the capability the same writer speaks for nobody but himself
    plain = watched(_Watched())
    plain.poll([plain.post("＜予想＞40", "アリス")], minutes=5)
    assert posted(plain.poll([plain.post("状態", "GM", GM_TRIP)], minutes=1))[0].split("\n")[1] == (
        "【GM】ピリオド1・締切 12/01 21:00・未提出: ボブ"
    )


def test_the_silent_play_the_rulesets_default_as_orders_of_post_zero_in_turn() -> None:
    rules = _Defaults()
    game = watched(rules)
    game.setup = replace(game.setup, scenario={**game.setup.scenario, "sides": 60})
    game.poll(minutes=65)
    ((orders, _),) = rules.given
    assert orders == [
        Order(0, 0, "アリス", "アリス", 30, "＜予想＞30"),
        Order(0, 1, "ボブ", "ボブ", 30, "＜予想＞30"),
    ]


def test_a_periods_dice_are_its_key_and_the_secret_ones_the_rules_secret(
    caplog: pytest.LogCaptureFixture,
) -> None:
    rules = _Watched()
    game = watched(rules)
    game.poll([game.post("＜予想＞40", "アリス")], minutes=5)
    with caplog.at_level(logging.INFO, logger="threadgm"):
        game.poll(minutes=65)
    public = SeededSource(game.setup.period_key(1)).stream("probe").roll(10**9)
    secret = SeededSource(game.setup.rules_secret).stream("secret/probe").roll(10**9)
    assert rules.dice == [(public, secret)]
    assert "guess: period 1 resolved with 1 order(s)" in caplog.messages
    # the stored state is JSON a person can read in the database: names as written
    assert '"アリス"' in game.store.resolution("guess", 1).state


def test_a_writer_who_speaks_for_a_player_makes_that_player_ready() -> None:
    rules = _Seats()
    game = watched(rules)
    ready = [
        game.post("＜予想＞40\n準備完了", "代理", "SEATSEATSE"),
        game.post("＜予想＞41\n準備完了", "アリス"),
    ]
    game.poll(ready, minutes=5)
    assert len(rules.given) == 1  # both players ready: the period closed at once


def test_each_period_is_resolved_with_its_own_accepted_orders_only() -> None:
    rules = _Watched()
    game = watched(rules)
    game.poll([game.post("＜予想＞40", "アリス"), game.post("＜予想＞0", "ボブ")], minutes=5)  # 0: refused
    game.poll(minutes=65)
    game.poll([game.post("＜予想＞41", "ボブ")], minutes=5)
    game.poll(minutes=60)
    assert [[(o.post, o.canonical) for o in orders] for orders, _ in rules.given] == [
        [(2, "＜予想＞40")],  # the refused guess is not the rules' to see
        [(4, "＜予想＞41")],  # アリス's guess of period 1 is not period 2's
    ]


def test_a_pause_moves_the_deadline_the_rules_get_as_it_moved_the_players() -> None:
    rules = _Watched()
    game = watched(rules)
    game.poll([game.post("停止", "GM", GM_TRIP)], minutes=10)  # 20:10, 50 minutes before the close
    game.poll([game.post("再開", "GM", GM_TRIP), game.post("＜予想＞40", "アリス")], minutes=60)
    game.poll(minutes=65)
    ((_, deadline),) = rules.given
    assert deadline == START.replace(hour=22)  # 21:00 + the hour the clock stood still
