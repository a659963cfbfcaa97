"""The scraper tests' board: the local board over HTTP with its scripted faults (test_fetch.Board)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.scraper.test_fetch import Board


@pytest.fixture
def board(tmp_path: Path) -> Iterator[Board]:
    running = Board(tmp_path)
    yield running
    running.server.close()
