"""The one shape of every game, by part:

| module | holds |
|---|---|
| `base.py` | `Ruleset` (the core every game declares) and its two kinds, `ClockedRuleset` and `ImmediateRuleset`; the types the periods machinery passes (`OrderText`, `Rejection`, `Order`, `Setting`) |
| `capabilities.py` | what a game opts into by naming it among its bases: `Pictured`, `Simulates`, `VerifiesPeriods`, `AuditsPosts`, `ReplaysThread`, `ImportsCharacters` |
| `author.py` | `Author` and the one rule for who may act for what (`may_act`, `ANYONE`) |
| `registry.py` | `Registry`: the games by id, handed down by the composition root |
"""

from engine.ruleset.author import ANYONE, Author, Owners, may_act
from engine.ruleset.base import (
    C,
    ClockedRuleset,
    ImmediateRuleset,
    Order,
    OrderText,
    Rejection,
    Ruleset,
    RulesetError,
    S,
    Setting,
)
from engine.ruleset.capabilities import (
    AuditsPosts,
    ImportsCharacters,
    Pictured,
    ReplaysThread,
    Simulates,
    ThreadAudit,
    VerifiesPeriods,
    picture_of,
)
from engine.ruleset.registry import Registry

__all__ = [
    "ANYONE",
    "AuditsPosts",
    "Author",
    "C",
    "ClockedRuleset",
    "ImmediateRuleset",
    "ImportsCharacters",
    "Order",
    "OrderText",
    "Owners",
    "Pictured",
    "Registry",
    "Rejection",
    "ReplaysThread",
    "Ruleset",
    "RulesetError",
    "S",
    "Setting",
    "Simulates",
    "ThreadAudit",
    "VerifiesPeriods",
    "may_act",
    "picture_of",
]
