"""数当て's scenario as a GM writes it: what `threadgm new guess` wrote, edited — a misspelt key is
refused by name (with the key meant), never run on the default."""

from __future__ import annotations

import pytest

from engine.rules.guess import RULESET
from engine.ruleset import RulesetError


def _start(text: str):
    return RULESET.initial_state(RULESET.read_scenario(text))


def test_the_template_starts_a_five_round_open_game() -> None:
    state = _start(RULESET.template() or "")
    assert (state.sides, state.players, state.rounds) == (100, None, 5)


@pytest.mark.parametrize(
    ("typo", "named", "hint"),
    [
        ("bogus_key = 1", "「bogus_key」", ""),
        ("round = 3", "「round」", "「rounds」のことですか？"),
        ("side = 10", "「side」", "「sides」のことですか？"),
        ('player = ["アリス"]', "「player」", "「players」のことですか？"),
    ],
)
def test_a_key_the_game_does_not_read_is_refused_by_name(typo: str, named: str, hint: str) -> None:
    with pytest.raises(RulesetError) as refused:
        _start((RULESET.template() or "") + typo + "\n")
    message = str(refused.value)
    assert f"シナリオに知らない項目{named}があります" in message
    assert hint in message
    assert "使えるのは players、rounds、sides" in message


def test_every_misspelt_key_is_named_at_once() -> None:
    with pytest.raises(RulesetError) as refused:
        _start("round = 3\nsidez = 10\n")
    assert str(refused.value).splitlines() == [
        "シナリオに知らない項目「round」があります（「rounds」のことですか？ 使えるのは players、rounds、sides）",
        "シナリオに知らない項目「sidez」があります（「sides」のことですか？ 使えるのは players、rounds、sides）",
    ]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ('players = "アリス"', "players は名前の並びにしてください"),  # was read as ア、リ、ス
        ("players = [1]", "players は名前の並びにしてください"),
        ('sides = "十"', 'sides は2以上の整数にしてください（"十"）'),  # quoted as the GM wrote it
        ("sides = true", "sides は2以上の整数にしてください（true）"),
        ("sides = 1", "sides は2以上の整数にしてください（1）"),
        ("rounds = 2.5", "rounds は0以上の整数にしてください"),  # was 2 rounds
        ("rounds = -1", "rounds は0以上の整数にしてください"),
    ],
)
def test_a_value_of_the_wrong_kind_is_refused_not_bent(value: str, message: str) -> None:
    with pytest.raises(RulesetError, match=message.replace("(", r"\(")):
        _start(value + "\n")
