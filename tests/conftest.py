"""Shared test helpers: where the shared fixtures live."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


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
