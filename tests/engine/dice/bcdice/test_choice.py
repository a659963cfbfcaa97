from __future__ import annotations


def test_space_separated_choice_picks_without_repeats(run) -> None:
    assert run("choice2 a b c", (3, 3), (2, 1)).text == "(choice2 a b c) ＞ c a"


def test_ranges_over_the_limit_are_refused_without_secret(run) -> None:
    result = run("Schoice[1-200]")
    assert result.text == "項目数は100以下としてください" and not result.secret
