"""Every game threadgm plays: one folder each, one line each in `REGISTRY`.

The configuration's `rules = "…"`, `threadgm adjudicate / simulate / help GAME` and `verify` all read
this registry; nothing else names a game. To add a game, see docs/architecture.md ("How to add a game").
"""

from engine.rules import battle_royale, dh, dice, dystopia, guess, naval, nijiyabou
from engine.ruleset import Registry

REGISTRY = Registry(
    [
        dice.RULESET,
        guess.RULESET,
        naval.RULESET,
        battle_royale.AUTOMATIC,
        battle_royale.ASSISTED,
        dh.RULESET,
        nijiyabou.RULESET,
        dystopia.RULESET,
    ]
)

__all__ = ["REGISTRY"]
