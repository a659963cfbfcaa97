"""A whole read that shows another post at a number the store holds: the board took a line out (an
admin's removal, a thread rewound), so every post after it moved up one. A post the store held moves
with its handled flag — never answered twice — and a post the store never held, even at a number it
knows, is new: answered, never taken for the one that stood there."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from store.db import PostRecord, Store

NOW = datetime.fromisoformat("2026-11-29T21:00:00+09:00")


def _post(number: int, body: str, minute: int, **fields: object) -> PostRecord:
    return PostRecord("T", number, "名無し", date=NOW + timedelta(minutes=minute), body=body, **fields)


def _read(store: Store, *posts: PostRecord) -> list[PostRecord]:
    return store.record_fetch(
        "T",
        size=1,
        last_modified=None,
        last_number=posts[-1].number,
        posts=list(posts),
        now=NOW,
        is_own=lambda post: post.trip == "abcdefghij",
    )


@pytest.fixture
def store(tmp_path: Path) -> Store:
    opened = Store(tmp_path / "t.sqlite")
    opened.ensure_thread("T", "http://x/test/read.cgi/b/1700000000/", "2ch", "g")
    _read(opened, _post(1, "一", 1), _post(2, "二", 2), _post(3, "三", 3), _post(4, "四", 4))
    with opened.transaction():
        opened.mark_handled("T", [1, 2, 3, 4])
    return opened


def test_a_post_at_a_number_that_held_another_is_new(store: Store, caplog: pytest.LogCaptureFixture) -> None:
    # post 2 taken out: 三 and 四 move up, and a player's new command lands at number 4
    fresh = _read(store, _post(1, "一", 1), _post(2, "三", 3), _post(3, "四", 4), _post(4, "攻撃 A", 5))
    assert [(post.number, post.body) for post in fresh] == [(4, "攻撃 A")]
    assert [post.number for post in store.unhandled_posts("T")] == [4]
    assert [store.post("T", n).body for n in (2, 3, 4)] == ["三", "四", "攻撃 A"]
    assert "not the post held there" in caplog.text


def test_a_moved_post_of_the_bot_stays_the_bot_s(store: Store) -> None:
    _read(store, _post(5, "受付", 6, trip="abcdefghij"))
    fresh = _read(
        store, _post(1, "一", 1), _post(2, "三", 3), _post(3, "四", 4), _post(4, "受付", 6, trip="abcdefghij")
    )
    assert fresh == [] and store.post("T", 4).own and store.post("T", 4).handled


def test_a_whole_read_that_shows_the_same_posts_or_a_deletion_changes_no_flag(store: Store) -> None:
    assert _read(store, _post(1, "一", 1), _post(2, "二", 2), _post(3, "三", 3), _post(4, "四", 4)) == []
    assert _read(store, _post(1, "一", 1), PostRecord("T", 2, deleted=True), _post(3, "三", 3)) == []
    assert store.unhandled_posts("T") == []


def test_a_partial_read_showing_a_held_post_otherwise_only_updates_it(store: Store) -> None:
    # rawmode's self-healing: the board's copy of the post held last, read again from that post
    assert _read(store, _post(4, "四（正しい写し）", 4)) == []
    assert store.post("T", 4).body == "四（正しい写し）" and store.post("T", 4).handled
