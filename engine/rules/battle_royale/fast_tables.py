"""The quick game's tables (`fast_game.py`): battle outcomes as indexes, each battle table as the outcome of
every face, the table a battle is fought on, and the rule counters as indexes into a list — the same
tables as `tables.py` and the same counters as `State.counters`, in the form the quick game reads fastest.
"""

from __future__ import annotations

MAX_DICE_PER_GAME = 200_000

# Battle outcomes as indexes, and each battle table as the outcome of every face (index 0 unused).
WIN, LOSE, ESCAPE, ALLY, MUTUAL = range(5)
_W, _L, _E, _A, _M = WIN, LOSE, ESCAPE, ALLY, MUTUAL
NORMAL = (None, _W, _L, _E, _A, _M)
SURPRISE_ADVANTAGE = (None, _W, _W, _W, _W, _L, _L, _A, _E)
GROUP_BIGGER = (None, _W, _W, _L, _E, _A, _M)
GROUP_SMALLER = (None, _W, _L, _L, _E, _A, _M)
GROUP_SURPRISE_BIGGER = (None, _W, _W, _W, _W, _W, _L, _L, _A, _E)
GROUP_SURPRISE_SMALLER = (None, _W, _W, _W, _W, _L, _L, _L, _A, _E)


def battle_faces(group_surprise: bool, surprise: bool, base_size: int, opponent_size: int) -> tuple:
    """`battle.current_battle_table` outside infighting: a successful surprise between equal groups
    read as a group's (surprise_equal_groups = "group"), else `tables.battle_table`."""
    if group_surprise and base_size == opponent_size >= 2:
        return GROUP_SURPRISE_BIGGER
    if base_size == opponent_size:
        return SURPRISE_ADVANTAGE if surprise else NORMAL
    if base_size > opponent_size:
        return GROUP_SURPRISE_BIGGER if surprise else GROUP_BIGGER
    return GROUP_SURPRISE_SMALLER if surprise else GROUP_SMALLER


COUNTERS = (
    "encounters",
    "surprises",
    "surprise_failures",
    "escapes",
    "escape_failures",
    "alliances",
    "pair_betrayals",
    "mutual_kills",
    "infights",
    "infight_battles",
    "reconciliations",
    "dissolutions",
    "reselections",
    "dead_picks",
    "renumberings",
    "rerolls",
    "eliminations",
    "revivals",
    "revival_failures",
    "tag_wipes",
    "mastermind_designations",
    "mastermind_lives_lost",
    "mastermind_fake_deaths",
    "final_battles",
)
(
    ENCOUNTERS,
    SURPRISES,
    SURPRISE_FAILURES,
    ESCAPES,
    ESCAPE_FAILURES,
    ALLIANCES,
    PAIR_BETRAYALS,
    MUTUAL_KILLS,
    INFIGHTS,
    INFIGHT_BATTLES,
    RECONCILIATIONS,
    DISSOLUTIONS,
    RESELECTIONS,
    DEAD_PICKS,
    RENUMBERINGS,
    REROLLS,
    ELIMINATIONS,
    REVIVALS,
    REVIVAL_FAILURES,
    TAG_WIPES,
    MM_DESIGNATIONS,
    MM_LIVES_LOST,
    MM_FAKE_DEATHS,
    FINAL_BATTLES,
) = range(len(COUNTERS))
