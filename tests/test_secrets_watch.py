"""The secrets watch every bot test runs under (tests/secrets_watch.py) flags what it must: a period's
key before the period is resolved, today's key before the day is over, the secret dice's key before
the end, the seed ever — and lets through what the thread may know."""

from __future__ import annotations

from datetime import datetime, timedelta
from types import SimpleNamespace

from engine.clock.schedule import parse_schedule
from engine.keys import JST
from engine.referee import GameSetup
from engine.rules import REGISTRY
from store.db import Store
from store.records import ResolutionRecord
from tests.secrets_watch import SecretsWatch

NOW = datetime(2026, 12, 1, 20, 30, tzinfo=JST)


def bot(store: Store, rules: str, schedule: dict | None):
    setup = GameSetup(
        "g",
        REGISTRY.get(rules),
        bytes(range(32)),
        NOW - timedelta(hours=1),
        schedule=parse_schedule(schedule) if schedule else None,
    )
    store.game("g", rules, "local/test/1", NOW, secret=setup.secret)
    return SimpleNamespace(setup=setup, store=store, clock=lambda: NOW)


def test_a_clocked_games_keys_are_told_only_once_resolved() -> None:
    store = Store(":memory:")
    played = bot(store, "guess", {"interval": "1h", "anchor": "2026-12-01 21:00"})
    watch = SecretsWatch()
    watch.check(played, f"鍵のハッシュ {'0' * 64}")
    assert watch.told == []
    watch.check(played, f"鍵 ピリオド1: {played.setup.period_key(1).hex()}")
    assert watch.told == ["g at 2026-12-01 20:30:00: a post told period 1's key"]
    store.save_resolution(ResolutionRecord("g", 1, "{}", "g/P1/0/0", NOW.isoformat(), 1))
    watch.told.clear()
    watch.check(played, f"鍵 ピリオド1: {played.setup.period_key(1).hex()}")
    watch.check(played, f"ピリオド2: {played.setup.period_key(2).hex().upper()}")
    assert watch.told == ["g at 2026-12-01 20:30:00: a post told period 2's key"]
    watch.told.clear()
    watch.check(played, played.setup.secret.hex() + " " + played.setup.rules_secret.hex())
    assert sorted(watch.told) == [
        "g at 2026-12-01 20:30:00: a post told the game's seed",
        "g at 2026-12-01 20:30:00: a post told the secret dice's key",
    ]
    store.close()


def test_a_days_key_is_told_only_once_the_day_is_over() -> None:
    store = Store(":memory:")
    played = bot(store, "dice", None)
    watch = SecretsWatch()
    watch.check(played, played.setup.day_key("2026-11-30").hex())  # yesterday: out
    assert watch.told == []
    watch.check(played, played.setup.day_key("2026-12-01").hex())
    watch.check(played, played.setup.day_key("2026-12-02").hex())
    assert watch.told == [
        "g at 2026-12-01 20:30:00: a post told the key of 2026-12-01",
        "g at 2026-12-01 20:30:00: a post told the key of 2026-12-02",
    ]
    store.close()
