"""Shared test helpers: where the shared fixtures live."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# ../shared is beside the checkout; `make mutate` runs the suite from a copy one level down (mutants/)
SHARED = (ROOT.parent.parent if ROOT.name == "mutants" else ROOT.parent) / "shared"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under `make mutate` (mutmut sets MUTANT_UNDER_TEST), a mutant's tests run fastest first, by the
    durations mutmut measured: mutmut stops at the first failure (-x), so a killed mutant costs its
    quickest failing test instead of whatever slow property test happened to come first."""
    stats = ROOT / "mutmut-stats.json"
    if "MUTANT_UNDER_TEST" not in os.environ or not stats.exists():
        return
    durations = json.loads(stats.read_text())["duration_by_test"]
    items.sort(key=lambda item: durations.get(item.nodeid, 0.0))


def shared_path(*parts: str) -> Path:
    """A file under ../shared, or skip the test saying why when the checkout has no ../shared."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent: ../shared (fixtures, seeds, BCDice data) is not beside this checkout")
    return path


@pytest.fixture
def board(tmp_path: Path):
    """The local board with one dice thread, behind a scripted server (tests/bot_harness.LocalBoard)."""
    from tests.bot_harness import LocalBoard

    running = LocalBoard.start(tmp_path / "board")
    yield running
    running.close()


@pytest.fixture(autouse=True)
def every_game_refolds(monkeypatch: pytest.MonkeyPatch):
    """Every game the suite plays: when its store closes, each stored period's state is folded again
    from the scenario and the log and must be byte for byte the snapshot (the snapshot is a cache);
    and no post it wrote told a secret before its time (tests/secrets_watch.py), nor showed a Python
    value, a configuration key or a file path (tests/leaks_watch.py)."""
    import scheduler
    from store.db import Store
    from tests.leaks_watch import LeaksWatch
    from tests.secrets_watch import SecretsWatch

    bots: list = []
    secrets, leaks = SecretsWatch(), LeaksWatch()
    original_init, original_close = scheduler.ThreadBot.__init__, Store.close

    def track(self, *args, **kwargs) -> None:
        original_init(self, *args, **kwargs)
        bots.append(self)

    def close(store: Store) -> None:
        for bot in [b for b in bots if b.store is store]:
            bots.remove(bot)
            _check_refold(bot)
        original_close(store)

    monkeypatch.setattr(scheduler.ThreadBot, "__init__", track)
    secrets.install(monkeypatch, bots)
    leaks.install(monkeypatch, bots)
    monkeypatch.setattr(Store, "close", close)
    yield
    for bot in bots:  # stores a test never closed
        _check_refold(bot)
    assert secrets.told == [], "\n".join(secrets.told)
    assert leaks.told == [], "\n".join(leaks.told)


def _check_refold(bot) -> None:
    import sqlite3

    try:
        stored = {
            r["period"]: r["state"]
            for r in bot.store.db["resolutions"].rows_where("game_id = ?", [bot.game.id])
        }
    except sqlite3.ProgrammingError:
        return  # closed behind our back (a crash test's store): nothing to read
    if stored:
        assert bot.refolded() == stored, f"{bot.game.id}: the stored states are not the fold of the log"
