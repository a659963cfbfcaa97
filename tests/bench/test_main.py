"""`python -m bench`: --help lists the benches and runs none; a bench's own --help shows its options;
options given to a bench that takes none are refused before anything runs."""

from __future__ import annotations

import pytest

from bench.__main__ import available, main


def test_help_lists_every_bench_and_runs_none(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: python -m bench")
    assert "== bench" not in out  # nothing ran
    for name in available():
        assert f"\n  {name} " in out


def test_a_bench_with_options_shows_its_own_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["battle_royale", "--help"]) == 0
    out = capsys.readouterr().out
    assert "usage: python -m bench battle_royale" in out and "--games" in out
    assert "games/CPU-s" not in out


def test_a_bench_without_options_says_so_on_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["trip", "--help"]) == 0
    assert "python -m bench trip: no options" in capsys.readouterr().out


def test_options_to_a_bench_that_takes_none_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["trip", "--games", "3"]) == 2
    out = capsys.readouterr().out
    assert "trip take(s) no options" in out and "== bench" not in out


def test_an_unknown_bench_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nosuch"]) == 2
    assert "unknown benchmark(s): nosuch" in capsys.readouterr().out
