"""Fixtures of the poster tests: a store with the outbox tests' thread in it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from store.db import Store
from tests.poster.outbox_support import REF


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store(tmp_path / "bot.sqlite")
    opened.ensure_thread(REF.id, REF.read_url, "2ch", "g")
    yield opened
    opened.close()
