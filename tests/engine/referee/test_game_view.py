"""What every part of the referee asks of a game during a poll (engine/referee/game.py, ledger.py):
the setup the configuration and the store fix, who wrote a post (as a game knows players, and as the
board can tell writers apart), the keys and dice streams verify recomputes, the log overlaid with this
poll's decisions, and the state folded again from the log (refold) — snapshots are only a cache."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from engine import keys, referee
from engine.config import GameConfig
from engine.referee import Game, GameSetup, Ledger, PostView, refold
from engine.rng import SeededSource
from engine.rules import REGISTRY
from store.changes import DeleteResolution, SetOrderStatus
from store.records import OrderRecord, PeriodRecord, ResolutionRecord
from tests.referee_harness import GM_TRIP, START, THREAD, PureGame, posted

SECRET = bytes(range(32))


def test_a_configured_game_has_the_settings_the_configuration_and_the_store_give_it() -> None:
    config = GameConfig(
        "guess-1",
        "guess",
        THREAD.read_url,
        dice=False,
        gm_trips=(GM_TRIP,),
        schedule={"interval": "1h", "anchor": "2026-12-01 21:00"},
        cancel_words=("やめ",),
        ready_words=("完了",),
    )
    problem = lambda url: "no"  # noqa: E731
    setup = GameSetup.configured(config, REGISTRY.get("guess"), SECRET, START, "sides = 6\n", problem)
    assert (setup.id, setup.secret, setup.joined, setup.dice) == ("guess-1", SECRET, START, False)
    assert (setup.gm_trips, setup.cancel_words, setup.ready_words) == ((GM_TRIP,), ("やめ",), ("完了",))
    assert setup.scenario["sides"] == 6 and setup.thread_url_problem is problem
    assert setup.schedule is not None and setup.clocked
    # no scenario text: the ruleset's defaults; an immediate game has no schedule whatever is written
    bare = GameSetup.configured(config, REGISTRY.get("guess"), SECRET, START, None)
    assert bare.scenario == {} and bare.thread_url_problem("x") is None
    dice = GameSetup.configured(replace(config, rules="dice"), REGISTRY.get("dice"), SECRET, START, None)
    assert dice.schedule is None and not dice.clocked
    unscheduled = GameSetup.configured(
        replace(config, schedule=None), REGISTRY.get("guess"), SECRET, START, None
    )
    assert unscheduled.schedule is None


def test_the_keys_are_the_published_derivations_of_the_games_secret() -> None:
    setup = GameSetup("g", REGISTRY.get("guess"), SECRET, START)
    assert setup.day_key("2026-12-01") == keys.period_key(SECRET, "g", "2026-12-01")
    assert setup.period_key(2) == keys.clocked_period_key(SECRET, "g", 2) != setup.period_key(3)
    assert setup.rules_secret == keys.rules_secret(SECRET, "g")
    secret = setup.secret_keys("1764590400", 7)
    assert secret(1) == keys.secret_key(SECRET, "g", "1764590400", 7, 1) != secret(0)


def test_a_steps_dice_are_the_day_keys_streams_of_its_post_and_the_secret_ones_the_rules_secrets() -> None:
    # verify recomputes a step's dice from what the thread published: the day key, then the end's key
    setup = GameSetup("g", REGISTRY.get("dystopia"), SECRET, START)
    source = setup.step_source("1764590400", 7, "2026-12-01")
    public = SeededSource(setup.day_key("2026-12-01")).stream("1764590400/7/rules/check")
    hidden = SeededSource(setup.rules_secret).stream("1764590400/7/rules/secret/plot")
    check, plot = source.stream("check"), source.stream("secret/plot")
    assert [check.roll(100) for _ in range(8)] == [public.roll(100) for _ in range(8)]
    assert [plot.roll(100) for _ in range(8)] == [hidden.roll(100) for _ in range(8)]
    # another post, another thread or another day: other dice
    for thread, number, day in (
        ("1764590400", 8, "2026-12-01"),
        ("1764599999", 7, "2026-12-01"),
        ("1764590400", 7, "2026-12-02"),
    ):
        other = setup.step_source(thread, number, day).stream("check")
        assert [other.roll(10**9) for _ in range(4)] != [public.roll(10**9) for _ in range(4)]


def test_a_post_is_its_name_and_trip_to_the_game_and_its_trip_id_or_name_to_the_board() -> None:
    tripped = PostView(2, "アリス", "ywcchpZX7c", START, "x", poster_id="abc")
    assert (tripped.author, tripped.writer) == ("アリス◆ywcchpZX7c", "◆ywcchpZX7c")
    with_id = PostView(3, "アリス", None, START, "x", poster_id="Ab12Cd")
    assert (with_id.author, with_id.writer) == ("アリス", "ID:Ab12Cd")
    bare = PostView(4, "名無し", None, START, "x")
    assert (bare.author, bare.writer) == ("名無し", "名無し")


def test_a_gm_is_the_configured_trip_and_nothing_less() -> None:
    game = Game(
        GameSetup("g", REGISTRY.get("guess"), SECRET, START, gm_trips=(GM_TRIP,)), THREAD, None, START
    )  # type: ignore[arg-type]
    assert game.is_gm(f"GM◆{GM_TRIP}") and game.is_gm(f"だれでも◆{GM_TRIP}")
    assert not game.is_gm("GM") and not game.is_gm("GM◆aU.BpUgE0M") and not game.is_gm(GM_TRIP)
    nobody = replace(game, setup=replace(game.setup, gm_trips=()))
    assert not nobody.is_gm(f"GM◆{GM_TRIP}")


def test_the_clock_asks_for_a_poll_at_once_before_the_start_and_never_for_an_immediate_game() -> None:
    clocked = PureGame("guess", 'players = ["アリス"]\n')
    later = START + timedelta(minutes=7)
    assert referee.next_event(clocked.setup, THREAD, clocked.store, later) == later
    clocked.poll()
    assert referee.next_event(clocked.setup, THREAD, clocked.store, later) == START.replace(hour=21, minute=2)
    dice = PureGame("dice")
    assert referee.next_event(dice.setup, THREAD, dice.store, later) == later
    dice.poll()
    assert referee.next_event(dice.setup, THREAD, dice.store, later) == later


def _order(post: int, period: int = 1, status: str = "accepted") -> OrderRecord:
    return OrderRecord(
        "guess", THREAD.id, post, 0, "アリス", "アリス", period, "x", "x", "k", status, "", None, "o"
    )


def test_the_ledger_shows_the_store_overlaid_with_this_polls_decisions_and_writes_nothing() -> None:
    game = PureGame("guess", 'players = ["アリス"]\n')
    game.store.save_orders([_order(2)])
    book = Ledger(game.store, "guess")
    book.save_orders([_order(3), _order(4, period=2), _order(2)])  # 2 is stored already
    assert [o.post for o in book.orders()] == [2, 3, 4]
    assert [o.post for o in book.orders(1)] == [2, 3]
    stored = book.orders(1)[0]
    book.set_order_status(stored, "voided", "GMにより無効")
    assert book.changes[-1] == SetOrderStatus("guess", THREAD.id, 2, 0, "voided", "GMにより無効")
    assert [o.post for o in book.orders(1, ["accepted"])] == [3]
    assert [(o.post, o.reason) for o in book.orders(1, ["voided"])] == [(2, "GMにより無効")]
    book.set_order_status(book.orders(1)[1], "cancelled")
    assert book.orders(1, ["cancelled"])[0].reason == ""
    assert game.store.orders("guess")[0].status == "accepted"  # the store is as it was


def test_the_ledger_knows_resolutions_deleted_and_saved_in_this_poll() -> None:
    game = PureGame("guess", 'players = ["アリス"]\n')
    for period in (1, 2):
        game.store.save_resolution(
            ResolutionRecord("guess", period, "{}", f"P{period}", START.isoformat(), 0)
        )
    book = Ledger(game.store, "guess")
    book.delete_resolution(2)
    assert book.changes == [DeleteResolution("guess", 2)]
    assert book.resolution(2) is None and book.last_resolution().period == 1
    book.save_resolution(ResolutionRecord("guess", 2, "{}", "again", START.isoformat(), 0))
    book.save_resolution(ResolutionRecord("guess", 3, "{}", "P3", START.isoformat(), 0))
    assert book.last_resolution().outbox_id == "P3" and book.resolution(2).outbox_id == "again"
    book.save_period(PeriodRecord("guess", "2026-12-02", "c", "first", None))
    game.store.save_period(PeriodRecord("guess", "2026-12-01", "c", "x", None))
    assert [row.period for row in book.periods()] == ["2026-12-01", "2026-12-02"]
    assert book.period("2026-12-02").committed_in == "first" and book.period("2026-12-03") is None


def test_the_ledger_goes_back_to_a_mark_as_if_the_failed_step_had_never_begun() -> None:
    game = PureGame("guess", 'players = ["アリス"]\n')
    book = Ledger(game.store, "guess")
    book.save_orders([_order(2)])
    mark = book.mark()
    book.save_orders([_order(3)])
    book.set_order_status(book.orders()[0], "voided")
    book.log("ready", {"player": "アリス"}, START, period=1)
    book.save_resolution(ResolutionRecord("guess", 1, "{}", "P1", START.isoformat(), 0))
    book.save_period(PeriodRecord("guess", "2026-12-01", "c", "x", None))
    book.set_status("paused")
    book.set_started(START)
    book.restore(mark)
    assert [o.post for o in book.orders()] == [2] and book.orders()[0].status == "accepted"
    assert book.log_entries(["ready"]) == [] and book.resolution(1) is None and book.periods() == []
    assert (book.status(), book.started()) == ("running", None) and len(book.changes) == 1


def test_the_state_folded_again_from_the_log_is_every_stored_snapshot() -> None:
    clocked = PureGame("guess", 'players = ["アリス", "ボブ"]\nsides = 100\nrounds = 3\n')
    clocked.poll()
    clocked.poll([clocked.post("＜予想＞40", "アリス"), clocked.post("＜予想＞41", "ボブ")], minutes=5)
    clocked.poll([clocked.post("＜予想＞90", "ボブ")], minutes=60)
    clocked.poll(minutes=60)
    assert _folded(clocked, "guess") == {1: _stored(clocked, "guess", 1), 2: _stored(clocked, "guess", 2)}
    # an immediate game: its opening (step 1) and each post's step, each folded from its post
    steps = PureGame("dystopia")
    steps.poll()
    steps.poll([steps.post("判定 知識 目標12", "アリス"), steps.post("シーン", "GM", GM_TRIP)], minutes=1)
    assert [steps.store.resolution("dystopia", p).outbox_id for p in (1, 2, 3)] == [
        "opening",
        "post/2",
        "post/3",
    ]
    assert _folded(steps, "dystopia") == {p: _stored(steps, "dystopia", p) for p in (1, 2, 3)}


def test_the_fold_rolls_each_steps_dice_of_its_own_day_whenever_it_is_made() -> None:
    steps = PureGame("dystopia")
    assert _folded(steps, "dystopia") == {}  # nothing resolved: nothing to fold
    steps.poll()
    rolled = steps.poll([steps.post("クロウ: 肉体判定", "GM", GM_TRIP)], minutes=1)
    assert "クロウの肉体判定（C値18／F値5） (3D6+7) ＞ 9[1,4,4]+7 ＞ 16" in posted(rolled)[0]
    stored = {p: _stored(steps, "dystopia", p) for p in (1, 2)}
    for later in (timedelta(days=1), timedelta(days=40)):  # verify's replay, or the refold check, days later
        again = refold(Game(steps.setup, THREAD, Ledger(steps.store, "dystopia"), steps.now + later))
        assert again == stored


def test_a_step_whose_post_is_gone_or_predates_the_game_cannot_be_folded() -> None:
    steps = PureGame("dystopia")
    steps.poll()
    steps.poll([steps.post("判定 知識 目標12", "アリス")], minutes=1)
    steps.store.save_resolution(ResolutionRecord("dystopia", 3, "{}", "post/9", START.isoformat(), 1))
    with pytest.raises(LookupError, match="the post of step post/9 is not in thread local/test/1764590400"):
        _folded(steps, "dystopia")
    steps.store.delete_resolution("dystopia", 3)
    # board dates have whole seconds: a post stamped in the second before the game joined predates it
    written = steps.store.post(THREAD.id, 2).date
    for joined, predates in (
        (written + timedelta(seconds=1), True),
        (written, False),
        (START + timedelta(hours=1), True),
    ):
        game = Game(replace(steps.setup, joined=joined), THREAD, Ledger(steps.store, "dystopia"), steps.now)
        if predates:
            with pytest.raises(LookupError, match="post 2 predates the game"):
                refold(game)
        else:
            assert sorted(refold(game)) == [1, 2]


def _folded(game: PureGame, game_id: str) -> dict[int, str]:
    return refold(Game(game.setup, THREAD, Ledger(game.store, game_id), game.now))


def _stored(game: PureGame, game_id: str, period: int) -> str:
    return game.store.resolution(game_id, period).state
