"""Who may act for what: one `Author` value and one rule (`engine.ruleset.may_act`), which every
registered game reaches through the base's `may_act_for` over the owners it declares."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from engine.rules import REGISTRY
from engine.ruleset import ANYONE, Author, Ruleset, board_id, may_act

STRANGER = Author("通りすがり", "NOBODYHASTHISTRIP")
NAMELESS = Author("名無しさん")
GM = Author("GM", "GMTRIP", gm=True)


def test_an_author_reads_and_writes_the_form_the_log_keeps() -> None:
    assert Author.of("アリス◆TRIP", id="abc", gm=True) == Author("アリス", "TRIP", "abc", True)
    assert Author.of("◆TRIP") == Author("", "TRIP")
    assert Author.of(" ボブ ") == Author("ボブ")
    assert str(Author.of("アリス◆TRIP")) == "アリス◆TRIP" and str(Author.of("ボブ")) == "ボブ"


@pytest.mark.parametrize(
    ("shown", "id"),
    [
        ("eU4RU1Lw", "eU4RU1Lw"),
        ("eU4RU1Lw(主)", "eU4RU1Lw"),  # the starter's mark is the board's, not the ID's
        ("AbCd1234M", "AbCd1234M"),  # a device mark stays: the board shows it as the ID
        ("", None),  # the board shows no ID
        ("???", None),  # ...or hides it
        ("????(主)", None),
    ],
)
def test_the_boards_id_is_read_without_its_marks(shown: str, id: str | None) -> None:
    assert board_id(shown) == id


def test_the_id_is_never_part_of_the_stored_form_nor_proof() -> None:
    with_id = Author("アリス", "TRIP", "eU4RU1Lw")
    assert str(with_id) == "アリス◆TRIP" and "eU4RU1Lw" not in str(with_id)
    assert not may_act(Author("通りすがり", None, "eU4RU1Lw"), ["◆TRIP"])  # the same ID proves nothing
    assert not Author("アリス", None, "X").is_owner("ボブ") and Author("アリス", None, "X").is_owner("アリス")


@pytest.mark.parametrize(
    ("listed", "author", "owns"),
    [
        ("アリス◆TRIP", "アリス◆TRIP", True),
        ("アリス◆TRIP", "改名◆TRIP", True),  # the trip proves who it is
        ("アリス◆TRIP", "アリス◆OTHER", False),
        ("アリス◆TRIP", "アリス", False),  # a name is free to take
        ("◆TRIP", "誰か◆TRIP", True),
        ("アリス", "アリス", True),  # listed by name alone: known by the name
        ("アリス", "アリス◆ANY", True),
        ("アリス", "ボブ", False),
        ("アリス◆", "アリス", False),  # a ◆ with no trip after it is a trip nobody has
        ("", "", False),
    ],
)
def test_an_owner_is_known_by_the_listed_trip_else_the_listed_name(
    listed: str, author: str, owns: bool
) -> None:
    assert Author.of(author).is_owner(listed) is owns


def test_two_posts_are_one_writer_by_the_trip_else_the_name() -> None:
    assert Author.of("アリス◆T").same_as(Author.of("改名◆T"))
    assert not Author.of("アリス◆T").same_as(Author.of("アリス"))
    assert Author.of("ボブ").same_as(Author.of("ボブ")) and not Author.of("ボブ").same_as(Author.of("ボブ◆X"))


def test_the_rule_gm_anything_owner_its_own_nobody_else_without_a_rule() -> None:
    assert may_act(GM, ()) and may_act(GM, ["アリス◆TRIP"])
    assert not may_act(STRANGER, ()) and not may_act(NAMELESS, ())  # unowned: the GM's alone
    assert not may_act(STRANGER, ["アリス◆TRIP", "ボブ◆B"])
    assert may_act(Author.of("ボブ◆B"), ["アリス◆TRIP", "ボブ◆B"])
    assert may_act(STRANGER, ANYONE)  # only where the game's rules say so


def _strings(data: Any, depth: int = 0) -> Iterator[str]:
    """Every key and string of a state's JSON form: the things a game's orders may act for."""
    if depth > 6:
        return
    if isinstance(data, dict):
        for key, value in data.items():
            yield str(key)
            yield from _strings(value, depth + 1)
    elif isinstance(data, list | tuple):
        for value in data:
            yield from _strings(value, depth + 1)
    elif isinstance(data, str):
        yield data


def _template_state(ruleset: Ruleset) -> Any:
    text = ruleset.template()
    return ruleset.initial_state(ruleset.read_scenario(text) if text is not None else {})


@pytest.mark.parametrize("ruleset", list(REGISTRY), ids=lambda ruleset: ruleset.ID)
def test_every_game_answers_who_may_act_through_the_one_rule(ruleset: Ruleset) -> None:
    overridden = [cls for cls in type(ruleset).__mro__ if cls is not Ruleset and "may_act_for" in vars(cls)]
    assert overridden == [], "a game declares owners; the base decides"
    state = _template_state(ruleset)
    things = {"存在しないもの", *_strings(ruleset.state_to_dict(state))}
    for thing in sorted(things)[:400]:
        owners = ruleset.owners(state, thing)
        assert ruleset.may_act_for(state, GM, thing), thing
        if owners is ANYONE:
            continue
        assert not ruleset.may_act_for(state, STRANGER, thing), (thing, owners)
        assert not ruleset.may_act_for(state, NAMELESS, thing) or any(not Author.of(o).trip for o in owners)
        for owner in owners:
            assert ruleset.may_act_for(state, Author.of(owner), thing), (thing, owner)
