"""Who wrote a post (`Author`), and the one rule for who may act for what.

Who may act for what is one rule, `may_act`, decided here for every game: a game only says who owns
what (`Ruleset.owners`), and `Ruleset.may_act_for` decides —
- a configured GM (a trip of the configuration's gm_trips; offline, the GM's own tool) may act for
  anything;
- an owner listed with a trip (`名前◆TRIP`, `◆TRIP`) is the author with that trip, whatever the name
  (names are free to change; only the trip is proof);
- an owner listed without a trip is the author of that name (a GM who lists a bare name lets anyone
  who types it speak for it);
- a thing nobody owns is the GM's alone, unless the game's rules leave it open to every writer
  (`ANYONE`, which its HELP must say). Nobody acts for another without a rule that says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Author:
    """Who wrote a post, as the board shows it: the name, the trip (None without one), the board's ID
    of the writer where it shows one, and whether the trip is a configured GM's."""

    name: str
    trip: str | None = None
    id: str | None = None  # the board's ID of the post (per address and day), where it shows one
    gm: bool = False
    # The ID is never proof of who writes (it changes daily and by address), so `may_act` does not
    # read it, and it is kept out of the stored form (`str`): a store of orders holds no ID.

    @classmethod
    def of(cls, text: str, *, id: str | None = None, gm: bool = False) -> Author:
        """`名前◆TRIP` (or `◆TRIP`, or a bare name) as an author; a ◆ with nothing after it is a trip
        nobody has (boards turn a typed ◆ into ◇, so only a listing can hold one)."""
        name, mark, trip = text.partition("◆")
        return cls(name.strip(), trip.strip() if mark else None, id or None, gm)

    def __str__(self) -> str:
        """The form orders and the log keep: `名前◆TRIP`, or the bare name without a trip."""
        return f"{self.name}◆{self.trip}" if self.trip else self.name

    def same_as(self, other: Author) -> bool:
        """Whether two posts' authors are one writer: the same trip when either has one, else the same
        name (a trip cannot be borrowed by a name, nor a name by a trip)."""
        if self.trip is not None or other.trip is not None:
            return self.trip == other.trip
        return self.name == other.name

    def is_owner(self, owner: str) -> bool:
        """Whether this author is the owner a scenario or the state lists (`名前◆TRIP`, `◆TRIP`, or a
        bare name): by the trip when the listing has one, else by the name."""
        listed = Author.of(owner)
        if listed.trip is not None:
            return bool(self.trip) and listed.trip == self.trip
        return bool(listed.name) and listed.name == self.name


def board_id(shown: str) -> str | None:
    """The writer's ID as the board shows it after the date (`ID:eU4RU1Lw(主)` → `eU4RU1Lw`): without
    the marks a board appends ((主), the thread's starter), None where it shows none or hides it
    (`???`)."""
    bare = shown.split("(", 1)[0].strip()
    return bare if bare.strip("?") else None


class _Anyone:
    """The owners of a thing the game's rules leave open to every writer (its HELP says so)."""

    def __repr__(self) -> str:
        return "ANYONE"


ANYONE = _Anyone()
Owners = Sequence[str] | _Anyone


def may_act(author: Author, owners: Owners) -> bool:
    """The one rule for "may this author act for that thing" (the module's docstring says it whole)."""
    if author.gm or owners is ANYONE:
        return True
    assert not isinstance(owners, _Anyone)
    return any(author.is_owner(owner) for owner in owners)
