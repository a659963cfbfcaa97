"""DH's scenario as a GM edits it (what `threadgm new dh` wrote): a key the reader does not take, at any
level, is refused by name with the key meant — never a game run on the default."""

from __future__ import annotations

import pytest

from engine.rules.dh import RULESET
from engine.ruleset import RulesetError

TEMPLATE = RULESET.template() or ""


def _refusal(text: str) -> list[str]:
    with pytest.raises(RulesetError) as refused:
        RULESET.read_scenario(text)
    return str(refused.value).splitlines()


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "[game]\n",
            "turn_limit = 3\n[game]\n",
            "シナリオに知らない項目「turn_limit」があります（使えるのは ",
        ),
        ("first = ", "frist = ", "[game]に知らない項目「frist」があります（「first」のことですか？"),
        ('rows = "ABCDE"', 'row = "ABCDE"', "[map]に知らない項目「row」があります（「rows」のことですか？"),
        ("sure_hit = false", "surehit = false", "[options]に知らない項目「surehit」があります（「sure_hit」"),
        (
            'name = "生徒会"\n',
            'name = "生徒会"\ntrip = []\n',
            "[[sides]] 1番目（生徒会）に知らない項目「trip」",
        ),
        ("turn = 2", "turns = 2", "[[reinforcements]] 1番目に知らない項目「turns」があります（「turn」"),
        (
            'name = "会長"\n',
            'name = "会長"\nmind2 = 1\n',
            "[[characters]] 1番目（会長）に知らない項目「mind2」",
        ),
        (
            "rest = 1 ",
            "rests = 1 ",
            "会長の能力「断罪」に知らない項目「rests」があります（「rest」のことですか？",
        ),
        (
            '{ kind = "体力ダメージ", value = 3 }',
            '{ kind = "体力ダメージ", valu = 3 }',
            "会長の能力「断罪」の effects 1番目に知らない項目「valu」があります（「value」のことですか？ 使えるのは kind、stat、turns、value）",
        ),
        (
            '{ kind = "精神", value = 1 }',
            '{ kind = "精神", value = 1, turns = 1 }',
            "会長の能力「断罪」の costs 1番目に知らない項目「turns」があります（使えるのは kind、value）",
        ),
    ],
)
def test_a_misspelt_key_is_refused_where_it_is(old: str, new: str, message: str) -> None:
    assert old in TEMPLATE
    problems = _refusal(TEMPLATE.replace(old, new, 1))
    assert len(problems) == 1 and problems[0].startswith(message), problems


def test_every_mistake_is_listed_at_once() -> None:
    text = TEMPLATE.replace('rows = "ABCDE"', 'row = "ABCDE"', 1).replace("rest = 1 ", "rests = 1 ", 1)
    assert [p.split("（")[0] for p in _refusal(text)] == [
        "[map]に知らない項目「row」があります",
        "会長の能力「断罪」に知らない項目「rests」があります",
    ]


def test_phase_minutes_still_says_what_became_of_it() -> None:
    text = TEMPLATE.replace("sure_hit = false", "sure_hit = false\nphase_minutes = 20", 1)
    assert _refusal(text)[0].startswith("シナリオ: options の phase_minutes はなくなりました")


def test_reserve_written_as_a_word_is_refused_not_read_as_true() -> None:
    assert 'square = "C1"' in TEMPLATE
    text = TEMPLATE.replace('square = "C1"', 'square = "C1"\nreserve = "false"', 1)
    assert _refusal(text) == ['シナリオ: 会長の reserve は true か false にしてください（"false"）']
