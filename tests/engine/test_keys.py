"""The keys and stream names derived from a game's seed: JST days, the day a key's period ends, and
the purposes a post's commands roll on (one stream per command of each post, or a route of its own)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engine.keys import (
    JST,
    PrefixedSource,
    RoutedSource,
    day_end,
    day_of,
    game_seed,
    next_day,
    purpose_prefix,
)
from engine.rng import RecordedDice, RecordedSource


def test_a_day_is_a_jst_day_whatever_clock_gives_the_moment() -> None:
    late_utc = datetime(2026, 11, 29, 15, 30, tzinfo=UTC)  # 00:30 the next day in Japan
    assert day_of(late_utc) == "2026-11-30"
    assert day_of(datetime(2026, 11, 29, 14, 59, tzinfo=UTC)) == "2026-11-29"
    assert day_of(datetime(2026, 11, 30, 0, 0, tzinfo=JST)) == "2026-11-30"


def test_the_next_day_and_when_a_day_ends() -> None:
    assert next_day("2026-11-30") == "2026-12-01" and next_day("2026-12-31") == "2027-01-01"
    end = day_end("2026-11-29")
    assert end == datetime(2026, 11, 30, 0, 0, tzinfo=JST)
    assert end.utcoffset() == timedelta(hours=9)
    assert day_of(end - timedelta(microseconds=1)) == "2026-11-29" and day_of(end) == "2026-11-30"


def test_a_fixed_seed_is_the_hash_of_its_text() -> None:
    # SHA-256 of "threadgm-seed|web-guess" (sha256sum)
    assert game_seed("web-guess").hex() == "11dd0f2ed16eb3ae87520682dd5b226573e5995313cd9700d93c21aee6633e97"
    assert game_seed("a") != game_seed("b") and len(game_seed("a")) == 32


def test_a_posts_commands_roll_on_its_own_purposes() -> None:
    seen: list[str] = []

    class Source:
        def stream(self, purpose: str):
            seen.append(purpose)
            return RecordedDice([(6, 1)])

    prefixed = PrefixedSource(Source(), purpose_prefix("1795954933", 5))
    prefixed.stream("0").roll(6)
    prefixed.stream("rules/battle").roll(6)
    assert seen == ["1795954933/5/0", "1795954933/5/rules/battle"]


def test_routed_purposes_roll_on_their_own_sources() -> None:
    default = RecordedSource({"a": [(6, 1)], "b": [(6, 2)]})
    routed = RoutedSource(default, {"b": RecordedSource({"b": [(6, 5)]})})
    assert routed.stream("a").roll(6) == 1
    assert routed.stream("b").roll(6) == 5
