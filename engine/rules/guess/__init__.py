"""数当て: the smallest game on the clock, and the model of a game folder (see docs/architecture.md)."""

from engine.rules.guess.ruleset import RULESET, GuessRuleset, GuessState

__all__ = ["RULESET", "GuessRuleset", "GuessState"]
