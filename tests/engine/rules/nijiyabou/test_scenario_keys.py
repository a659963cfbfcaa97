"""にじ野望's scenario as a GM edits it (what `threadgm new nijiyabou` wrote): a key the reader does not
take, at any level, is refused by name with the key meant — never a game run on the default."""

from __future__ import annotations

import pytest

from engine.rules.nijiyabou import RULESET
from engine.ruleset import RulesetError

TEMPLATE = RULESET.template() or ""


def _refusal(text: str) -> list[str]:
    with pytest.raises(RulesetError) as refused:
        RULESET.initial_state(RULESET.read_scenario(text))
    return str(refused.value).splitlines()


def test_the_template_reads_and_starts_the_rule_pages_game() -> None:
    state = RULESET.initial_state(RULESET.read_scenario(TEMPLATE))
    assert len(state.areas) == 47 and state.rules.max_rounds == 5


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            ("max_seasons = 0", "max_season = 8\nmax_seasons = 0"),
            "シナリオに知らない項目「max_season」があります（「max_seasons」のことですか？ 使えるのは",
        ),
        (
            ("[combat]\n", "[combat]\nmax_round = 3\n"),
            "[combat]に知らない項目「max_round」があります（「max_rounds」のことですか？ 使えるのは "
            "casualty_rate、max_rounds、moved_troops、sortie_adjacent、stat_step）",
        ),
        (
            ("delegated_power = 4", "delegate_power = 4"),
            "[domestic]に知らない項目「delegate_power」があります（「delegated_power」のことですか？",
        ),
        (("table = [", "tables = []\ntable = ["), "[haishin]に知らない項目「tables」があります（「table」"),
        (("[start]\n", "[start]\npowers = 7\n"), "[start]に知らない項目「powers」があります（「power」"),
        (
            ('troops = { "足軽" = 5000 }', 'troops = { "足軽" = 5000, "弓" = 100 }'),
            "[start.troops]に知らない項目「弓」があります（使えるのは",
        ),
        (
            ('"鉄砲" = { cost = 2, amount = 500 }', '"鉄砲" = { cost = 2, amounts = 500 }'),
            "[conscription.鉄砲]に知らない項目「amounts」があります（「amount」のことですか？",
        ),
        (("kinds = [", "kind = []\nkinds = ["), "[adjacency]に知らない項目「kind」があります（「kinds」"),
        (("[adjacency.links]\n", "[adjacency.links]\nsea = []\n"), "[adjacency.links]に知らない項目「sea」"),
        (
            ('[[areas]]\nname = "北海道"', '[[areas]]\nname = "北海道"\nlivers = "x"'),
            "[[areas]] 1番目（北海道）に知らない項目「livers」があります（「liver」のことですか？",
        ),
    ],
)
def test_a_misspelt_key_is_refused_where_it_is(edit: tuple[str, str], message: str) -> None:
    old, new = edit
    assert old in TEMPLATE
    problems = _refusal(TEMPLATE.replace(old, new, 1))
    assert len(problems) == 1 and problems[0].startswith(message), problems


def test_a_free_liver_with_a_misspelt_key_is_named_with_its_number() -> None:
    text = TEMPLATE.replace(
        "[adjacency]\n", '[[free_livers]]\nname = "新人"\narea = "東京"\nstat = {}\n\n[adjacency]\n', 1
    )
    assert _refusal(text) == [
        "[[free_livers]] 1番目（新人）に知らない項目「stat」があります（「stats」のことですか？ 使えるのは area、name、stats）"
    ]


def test_every_mistake_is_listed_at_once() -> None:
    text = TEMPLATE.replace("[combat]\n", "[combat]\nmax_round = 3\n", 1) + "\n[extra]\nbogus_key = 1\n"
    problems = _refusal(text)
    assert [p.split("（")[0] for p in problems] == [
        "シナリオに知らない項目「extra」があります",
        "[combat]に知らない項目「max_round」があります",
    ]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "sortie_adjacent = true",
            'sortie_adjacent = "false"',
            "シナリオのcombat.sortie_adjacentは true か false",
        ),
        (
            'name = "東京"\n',
            'name = "東京"\nsnow = "no"\n',
            "シナリオの東京の snowは true か false",
        ),
    ],
)
def test_a_flag_written_as_a_word_is_refused_not_read_as_true(old: str, new: str, message: str) -> None:
    assert old in TEMPLATE
    assert _refusal(TEMPLATE.replace(old, new, 1))[0].startswith(message)
