"""Every game threadgm plays: one folder each, one line each in `REGISTRY`.

The configuration's `rules = "…"`, `threadgm adjudicate / simulate / help GAME` and `verify` all read
this registry; nothing else names a game. To add a game, see docs/architecture.md ("How to add a game").
"""

from engine.ruleset import Registry

# Each game is imported the first time it is asked for (a command that uses one loads that one).
REGISTRY = Registry(
    [
        ("dice", "engine.rules.dice:RULESET"),
        ("guess", "engine.rules.guess:RULESET"),
        ("naval", "engine.rules.naval:RULESET"),
        ("battle-royale", "engine.rules.battle_royale:AUTOMATIC"),
        ("battle-royale-assist", "engine.rules.battle_royale:ASSISTED"),
        ("dh", "engine.rules.dh:RULESET"),
        ("nijiyabou", "engine.rules.nijiyabou:RULESET"),
        ("dystopia", "engine.rules.dystopia:RULESET"),
    ]
)

__all__ = ["REGISTRY"]
