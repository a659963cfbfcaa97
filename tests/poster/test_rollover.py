"""Rollover's choice of what ends in the old thread: the link to the next part always fits there, and a
report begun in the old thread ends there only when the room left holds its rest *and* the link."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from poster.outbox import OutboxSender
from poster.pacing import Pacer
from poster.rollover import Rollover
from poster.writer import WriteOutcome
from scraper.refs import ThreadRef
from store.db import Store

JST = timezone(timedelta(hours=9))
NOW = datetime(2026, 11, 29, 21, 0, tzinfo=JST)
OLD = ThreadRef.from_url("http://127.0.0.1:8380/test/read.cgi/test/1795954933/")


class Writer:
    def __init__(self) -> None:
        self.threads: list[tuple[str, str]] = []

    def new_thread(self, ref: ThreadRef, title: str, body: str) -> WriteOutcome:
        self.threads.append((title, body))
        return WriteOutcome("posted", key="1795960000")

    def reply(self, ref: ThreadRef, body: str) -> WriteOutcome:  # never reached: nothing is sent here
        raise AssertionError("rollover only queues; the outbox sends")


@pytest.fixture
def store(tmp_path: Path):
    opened = Store(tmp_path / "bot.sqlite")
    opened.ensure_thread(OLD.id, OLD.read_url, "2ch", "g")
    # A period report of three posts: the first is out in the old thread, two are owed.
    for index in range(3):
        opened.queue(f"g/report/{index}", OLD.id, "resolution", f"【ピリオド1 更新】その{index + 1}", NOW)
    opened.mark_sent(["g/report/0"], NOW, 900)
    yield opened
    opened.close()


def roll(store: Store, free: int) -> tuple[list[str], list[str]]:
    writer = Writer()
    sender = OutboxSender(store, writer, lambda: NOW, lambda post: False, Pacer(0))
    what, target, _ = Rollover("g", store, writer, sender).open_next(
        OLD, "数当て", NOW, old_writable=True, free=free
    )
    assert target is not None, what
    old = [row.id for row in store.outbox(OLD.id, ["pending"])]
    new = [row.id for row in store.outbox(target.id, ["pending"])]
    return old, new


def test_a_begun_report_ends_in_the_old_thread_when_its_rest_and_the_link_fit(store: Store) -> None:
    old, new = roll(store, free=3)  # two owed parts + the link
    assert old == ["g/report/1", "g/report/2", "g/1795954933/next/0"]
    assert new == []


def test_without_room_for_the_link_too_the_rest_goes_whole_to_the_new_thread(store: Store) -> None:
    old, new = roll(store, free=2)  # the two owed parts would fit, but then the link would not
    assert old == ["g/1795954933/next/0"]
    assert new == ["g/report/1", "g/report/2"]


# -- opening the next part -----------------------------------------------------------------------

NEW_KEY = "1795960000"


class Board:
    """A stand-in board: answers each new-thread request with the next outcome, and remembers it."""

    def __init__(self, *outcomes: WriteOutcome) -> None:
        self.outcomes = list(outcomes) or [WriteOutcome("posted", key=NEW_KEY)]
        self.asked: list[tuple[ThreadRef, str, str]] = []

    def new_thread(self, ref: ThreadRef, title: str, body: str) -> WriteOutcome:
        self.asked.append((ref, title, body))
        return self.outcomes.pop(0) if len(self.outcomes) > 1 else self.outcomes[0]


def rollover(store: Store, board: Board, pacer: Pacer | None = None, **title: str) -> Rollover:
    sender = OutboxSender(store, board, lambda: NOW, lambda post: False, pacer or Pacer(0))
    return Rollover("g", store, board, sender, **title)


def opening_post(store: Store, title: str) -> None:
    from store.db import PostRecord

    store.record_fetch(
        OLD.id,
        size=0,
        last_modified=None,
        last_number=1,
        now=NOW,
        posts=[PostRecord(OLD.id, 1, name="GM", body="開始", title=title)],
    )


def test_the_next_part_counts_the_old_titles_part_up_and_its_first_post_links_back(store: Store) -> None:
    opening_post(store, "数当てスレ Part3")
    board = Board()
    what, target, _ = rollover(store, board).open_next(OLD, "数当て", NOW, old_writable=True, free=10)
    assert target is not None and target.key == NEW_KEY and target.board == OLD.board, what
    ((ref, title, body),) = board.asked
    assert ref == OLD  # the new thread is asked of the old thread's board
    assert title == "数当てスレ Part4"
    assert body == f"数当ての続きです\n前スレ: {OLD.read_url}"
    assert what == f"moved to {target.read_url}"


def test_a_configured_title_wins_and_without_one_or_an_opening_title_the_game_names_the_thread(
    store: Store,
) -> None:
    opening_post(store, "数当てスレ Part3")
    board = Board()
    rollover(store, board, title="本スレ").open_next(OLD, "数当て", NOW, old_writable=False)
    assert board.asked[-1][1] == "本スレ Part2"
    bare = Board()
    other = OLD.with_key("1795954000")
    store.ensure_thread(other.id, other.read_url, "2ch", "g")  # no post of it read yet
    rollover(store, bare).open_next(other, "数当て", NOW, old_writable=False)
    assert bare.asked[-1][1] == "g Part2"


def test_the_old_thread_gets_the_link_and_the_log_says_where_the_game_went(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("INFO", logger="threadgm")
    _, target, _ = rollover(store, Board()).open_next(OLD, "数当て", NOW, old_writable=True, free=10)
    assert target is not None
    link = store.outbox_item("g/1795954933/next/0")
    assert (link.thread_id, link.kind, link.state) == (OLD.id, "next", "pending")
    assert link.body == f"次スレを立てました: {target.read_url}"
    moved = store.thread(target.id)
    assert (moved.url, moved.dialect, moved.game_id) == (target.read_url, "2ch", "g")
    assert [t.id for t in store.threads_of_game("g")] == [OLD.id, target.id]
    old = store.thread(OLD.id)  # it still owes the rest of the report and the link
    assert (old.status, old.status_note) == ("draining", f"次スレ: {target.read_url}")
    (entry,) = store.log_entries("g", ["next"])
    assert (entry.thread_id, entry.args) == (OLD.id, {"from": OLD.id, "to": target.id})
    assert f"g: now playing in {target.read_url}" in caplog.messages


def test_an_old_thread_that_owes_nothing_is_moved_away_from(store: Store) -> None:
    _, target, _ = rollover(store, Board()).open_next(OLD, "数当て", NOW, old_writable=False)
    assert target is not None
    assert store.thread(OLD.id).status == "moved"
    assert [row.id for row in store.outbox(target.id, ["pending"])] == ["g/report/1", "g/report/2"]


def test_a_report_not_begun_goes_whole_to_the_new_thread_though_there_is_room(store: Store) -> None:
    store.queue("g/later/0", OLD.id, "resolution", "【ピリオド2 更新】", NOW)
    old, new = roll(store, free=10)
    assert old == ["g/report/1", "g/report/2", "g/1795954933/next/0"]
    assert new == ["g/later/0"]


def test_a_part_in_flight_takes_room_in_the_old_thread(store: Store) -> None:
    # the second part left and its answer is not in yet: it stays, and takes a post of the room left
    store.mark_sending(["g/report/1"], 900)
    old, new = roll(store, free=2)  # in flight + the last part + the link would be three
    assert old == ["g/1795954933/next/0"] and new == ["g/report/2"]
    assert [row.id for row in store.outbox(OLD.id, ["sending"])] == ["g/report/1"]


def test_answers_moved_to_the_new_thread_point_back_at_the_old_threads_posts(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    from poster.markup import PostLimits

    store.queue("g/dice/0", OLD.id, "dice", ">>5\ndice1d6=3 (3)", NOW)
    store.queue("g/dice2/0", OLD.id, "dice", ">>6 " + "あ" * 30 + "\n二行目", NOW)
    target = OLD.with_key(NEW_KEY)
    moved = rollover(store, Board()).carry_over(OLD, target, NOW, PostLimits(columns=80))
    assert moved == 4
    assert store.outbox_item("g/dice/0").body == f"前スレ {OLD.read_url}5\ndice1d6=3 (3)"
    # the full address would make the line too long for the board: the post is named in words
    assert store.outbox_item("g/dice2/0").body == "前スレ6番 " + "あ" * 30 + "\n二行目"
    assert store.outbox_item("g/dice2/0").thread_id == target.id
    assert store.outbox(OLD.id, ["pending"]) == []
    assert f"g: 4 answer(s) the old thread could not take go to {target.read_url}" in caplog.messages


def test_the_gms_move_keeps_a_thread_with_a_post_in_flight_draining(store: Store) -> None:
    # a post whose answer was lost must still be looked for in the old thread
    store.mark_sending(["g/report/1", "g/report/2"], 900)
    target = OLD.with_key(NEW_KEY)
    rollover(store, Board()).move(OLD, target, "次スレ", NOW, keep_all=True)
    assert store.thread(OLD.id).status == "draining"
    assert [row.id for row in store.outbox(OLD.id, ["sending"])] == ["g/report/1", "g/report/2"]


def test_answers_moved_by_a_new_thread_fit_the_boards_limits(store: Store) -> None:
    from poster.markup import PostLimits

    store.queue("g/dice/0", OLD.id, "dice", ">>5 " + "あ" * 30, NOW)
    _, target, _ = rollover(store, Board()).open_next(
        OLD, "数当て", NOW, old_writable=False, limits=PostLimits(columns=80)
    )
    assert target is not None and store.outbox_item("g/dice/0").body == "前スレ5番 " + "あ" * 30


def test_the_board_refusing_a_new_thread_is_said_once_and_asked_again_later_and_later(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    refused = WriteOutcome("rejected", "ＥＲＲＯＲ：スレッド立てすぎです。 しばらく待ってください")
    board = Board(refused)
    roller = rollover(store, board)
    what, target, slot = roller.open_next(OLD, "数当て", NOW, old_writable=True)
    assert (target, slot) == (None, None) and "スレッド立てすぎ" in what
    notice = store.outbox_item("g/1795954933/next-failed/0")
    assert notice.thread_id == OLD.id and notice.kind == "next"
    assert notice.body.startswith("次スレを立てられませんでした（スレッド立てすぎです。）")
    assert any(
        "g: could not open the next thread (rejected: ＥＲＲＯＲ：スレッド立てすぎ" in m
        and m.endswith("trying again in 10 min")
        for m in caplog.messages
    )
    waits = []
    at = NOW
    for _ in range(6):
        retry_at = roller.retry[0] if roller.retry else None
        assert retry_at is not None
        held, _, _ = roller.open_next(OLD, "数当て", retry_at - timedelta(seconds=1), old_writable=True)
        assert held == f"next thread: trying again at {retry_at:%H:%M:%S}"
        asked = len(board.asked)
        roller.open_next(OLD, "数当て", retry_at, old_writable=True)  # due: the board is asked again
        assert len(board.asked) == asked + 1
        waits.append(retry_at - at)
        at = retry_at
    assert waits == [timedelta(minutes=m) for m in (10, 20, 40, 80, 120, 120)]
    # said once in the thread, however often the board refuses
    assert [row.id for row in store.outbox(OLD.id, ["pending"]) if "next-failed" in row.id] == [
        "g/1795954933/next-failed/0"
    ]


def test_after_a_thread_opened_a_later_refusal_waits_the_first_rest_again(store: Store) -> None:
    refused = WriteOutcome("rejected", "ＥＲＲＯＲ：スレッド立てすぎです。")
    board = Board(refused, WriteOutcome("posted", key=NEW_KEY), refused, refused)
    roller = rollover(store, board)
    roller.open_next(OLD, "数当て", NOW, old_writable=False)
    later = NOW + timedelta(minutes=10)
    assert roller.open_next(OLD, "数当て", later, old_writable=False)[1] is not None
    roller.open_next(OLD, "数当て", later, old_writable=False)
    assert roller.retry == (later + timedelta(minutes=10), timedelta(minutes=10))


def test_a_board_that_answers_without_the_new_threads_key_has_not_opened_it(store: Store) -> None:
    what, target, _ = rollover(store, Board(WriteOutcome("posted"))).open_next(
        OLD, "数当て", NOW, old_writable=False
    )
    assert target is None and what.startswith("next thread not opened")
    assert store.thread(OLD.id).status != "moved"


def test_a_new_thread_waits_for_the_boards_pace_and_paces_the_next_post(store: Store) -> None:
    pacer = Pacer(10)
    pacer.remember(OLD.origin, NOW - timedelta(seconds=5))  # the bot wrote there five seconds ago
    board = Board()
    what, target, slot = rollover(store, board, pacer).open_next(OLD, "数当て", NOW, old_writable=False)
    assert target is None and board.asked == [] and slot == NOW + timedelta(seconds=6)
    assert what == f"next thread: the board's pace allows it at {slot:%H:%M:%S}"
    _, target, _ = rollover(store, board, pacer).open_next(OLD, "数当て", slot, old_writable=False)
    assert target is not None
    # the clock of the sender says NOW: the pace counts from the board's answer to the new thread
    assert pacer.claim(OLD.origin, NOW + timedelta(seconds=10)) is not None
    assert pacer.claim(OLD.origin, NOW + timedelta(seconds=11)) is None
