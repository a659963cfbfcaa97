"""The outbox under a board's 連投規制: the bot's share of the last posts, the notice that the game
waits on the last allowed post, and rows held until someone else writes."""

from __future__ import annotations

from datetime import datetime, timedelta

from poster.markup import PostLimits
from poster.writer import WriteOutcome
from store.db import PostRecord, Store
from tests.poster.outbox_support import JST, REF, T0, Writer, bot_posts, sender


def test_under_a_consecutive_limit_the_last_allowed_post_carries_what_fits_and_says_the_game_waits(
    store: Store,
) -> None:
    from poster.consecutive import HOLD_NOTICE, ConsecutiveLimit

    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    store.record_fetch(  # the opening post, then the bot's own twice: one post left of three in a row
        REF.id,
        size=0,
        last_modified=None,
        last_number=3,
        now=clock[0],
        posts=[PostRecord(REF.id, n, name="ボット" if n > 1 else "GM", body=f"{n}") for n in (1, 2, 3)],
        is_own=lambda post: post.number > 1,
    )
    writer = Writer(WriteOutcome("posted"), WriteOutcome("posted"))
    outbox = sender(store, writer, clock)
    bodies = {name: "\n".join([f"【{name}】", *["行"] * 9]) for name in "abc"}  # ten lines each
    for name, body in bodies.items():
        store.queue(name, REF.id, "report", body, clock[0])
    limit, limits = ConsecutiveLimit.of(3), PostLimits(lines=24)
    result = outbox.send(REF, REF.id, 3, lambda n: False, limits, limit)
    # a and b fit one post with the notice; c does not: it waits for someone else's post
    assert result.sent == 1 and "連投規制" in (result.waiting or "")
    assert writer.sent == ["\n\n".join([bodies["a"], bodies["b"], HOLD_NOTICE])]
    assert [row.id for row in store.outbox(REF.id, ["pending"])] == ["c"]
    assert store.outbox_item("a").sent_body == writer.sent[0]
    assert outbox.send(REF, REF.id, 3, lambda n: False, limits, limit).sent == 0  # never past it
    bot_posts(store, (4, "ボット", "x"), (5, "プレイヤー", "y"), own={4}, now=clock[0])
    # someone wrote: the bot goes on by itself; the game is over, so nothing is said about waiting
    assert outbox.send(REF, REF.id, 5, lambda n: True, limits, limit, game_over=True).sent == 1
    assert writer.sent[1] == bodies["c"]


def test_the_notice_never_makes_a_full_post_too_long_for_the_board(store: Store) -> None:
    from poster.consecutive import ConsecutiveLimit

    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    writer = Writer(WriteOutcome("posted"))
    outbox = sender(store, writer, clock)
    full = "\n".join(["【報告】", *["行"] * 23])  # 24 lines: all the board takes
    store.queue("a", REF.id, "report", full, clock[0])
    # the last post 連投規制 allows (one of one), but the row alone fills it: it goes, unchanged
    assert (
        outbox.send(REF, REF.id, 0, lambda n: False, PostLimits(lines=24), ConsecutiveLimit.of(1)).sent == 1
    )
    assert writer.sent == [full]


def test_under_a_consecutive_limit_a_game_going_on_says_it_waits_even_when_nothing_is_held(
    store: Store,
) -> None:
    from poster.consecutive import HOLD_NOTICE, ConsecutiveLimit

    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    writer = Writer(WriteOutcome("posted"))
    outbox = sender(store, writer, clock)
    store.queue("a", REF.id, "dice", ">>5\nx", clock[0])
    assert outbox.send(REF, REF.id, 0, lambda n: False, PostLimits(), ConsecutiveLimit.of(1)).sent == 1
    assert writer.sent == [f">>5\nx\n\n{HOLD_NOTICE}"]  # the next answer will have to wait


def test_the_last_allowed_post_keeps_room_for_the_notice_and_a_game_over_says_nothing(store: Store) -> None:
    from poster.consecutive import HOLD_NOTICE, ConsecutiveLimit

    clock = [T0]
    writer = Writer(*[WriteOutcome("posted")] * 3)
    outbox = sender(store, writer, clock)
    eleven = {name: "\n".join([f"【{name}】", *["行"] * 10]) for name in "abc"}  # 11 lines each
    for name, body in eleven.items():
        store.queue(name, REF.id, "report", body, T0)
    # a and b would fill 23 of 24 lines; with the notice they would not fit: a goes alone with it
    outbox.send(REF, REF.id, 0, lambda n: False, PostLimits(lines=24), ConsecutiveLimit.of(1))
    assert writer.sent == [f"{eleven['a']}\n\n{HOLD_NOTICE}"]
    # the game is over, but rows are still held after this post: it still says the game waits
    bot_posts(store, (1, "ボット", "x"), (2, "名無し", "y"), own={1}, now=T0)
    limit = ConsecutiveLimit.of(1, 1)
    outbox.send(REF, REF.id, 2, lambda n: True, PostLimits(lines=24), limit, game_over=True)
    assert writer.sent[-1] == f"{eleven['b']}\n\n{HOLD_NOTICE}"
    bot_posts(store, (3, "ボット", "x"), (4, "名無し", "y"), own={3}, now=T0)
    outbox.send(REF, REF.id, 4, lambda n: True, PostLimits(lines=24), limit, game_over=True)
    assert writer.sent[-1] == eleven["c"]  # the game's last post: nothing more will come


def test_a_row_held_until_someone_else_writes_is_never_carried_by_an_earlier_post(store: Store) -> None:
    # "b" was refused as 連続投稿 after post 8; "a" is free to go. Under the board's pace the two would
    # fit one post — but that post would put "b" on the board before anyone else wrote.
    clock = [datetime(2026, 11, 29, 21, 0, tzinfo=JST)]
    writer = Writer(WriteOutcome("posted"), WriteOutcome("posted"))
    outbox = sender(store, writer, clock, pace=10)
    store.queue("a", REF.id, "dice", ">>7\ndice1d6=3 (3)", clock[0])
    store.queue("b", REF.id, "dice", ">>8\ndice1d6=4 (4)", clock[0])
    store.mark_unsent("b", "連続投稿ですか？？", wait_after=8)
    wrote_after = {8: False}
    result = outbox.send(REF, REF.id, 8, lambda n: wrote_after[n], PostLimits())
    assert result.sent == 1 and writer.sent == [">>7\ndice1d6=3 (3)"]
    assert "連続投稿" in (result.waiting or "")
    assert [row.id for row in store.outbox(REF.id, ["pending"])] == ["b"]
    wrote_after[8] = True  # a player wrote: "b" goes, at the board's pace
    clock[0] += timedelta(seconds=11)
    assert outbox.send(REF, REF.id, 9, lambda n: wrote_after[n], PostLimits()).sent == 1
    assert writer.sent[-1] == ">>8\ndice1d6=4 (4)"


def test_the_bots_opening_post_counts_toward_its_share_of_the_thread(store: Store) -> None:
    from poster.consecutive import ConsecutiveLimit

    clock = [T0]
    bot_posts(store, (1, "ボット", "開始"), (2, "ボット", "受付"), own={1, 2}, now=T0)
    writer = Writer()
    store.queue("a", REF.id, "dice", ">>2", T0)
    result = sender(store, writer, clock).send(
        REF, REF.id, 2, lambda n: False, PostLimits(), ConsecutiveLimit.of(2, 3)
    )
    assert result.waiting == "連投規制: the bot wrote its share of the last posts" and writer.sent == []


def test_rows_sent_together_count_as_one_post_toward_the_bots_share(store: Store) -> None:
    from poster.consecutive import ConsecutiveLimit

    clock = [T0]
    writer = Writer(WriteOutcome("posted"), WriteOutcome("posted"))
    outbox = sender(store, writer, clock, pace=10)
    store.queue("a", REF.id, "dice", ">>a", T0)
    store.queue("b", REF.id, "dice", ">>b", T0)
    limit = ConsecutiveLimit.of(3)
    assert outbox.send(REF, REF.id, 1, lambda n: True, PostLimits(), limit).sent == 1  # a and b, one post
    store.queue("c", REF.id, "dice", ">>c", T0)
    clock[0] += timedelta(seconds=11)
    outbox.send(REF, REF.id, 1, lambda n: True, PostLimits(), limit)
    assert writer.sent == [">>a\n\n>>b", ">>c"]  # one post written of three: no notice yet
