"""The one shape of every game, by part:

| module | holds |
|---|---|
| `base.py` | `Ruleset` (the core every game declares) and its two kinds, `ClockedRuleset` and `ImmediateRuleset`; the types the periods machinery passes (`OrderText`, `Rejection`, `Order`, `Setting`); `result_data` of a report |
| `capabilities.py` | what a game opts into by naming it among its bases (`Settable`, `ShowsOpening`, `ReadsWithState`, `AnnotatesReceipts`, `HoldsSeats`, `AssumesOrders`, `OfflineForms`, `Pictured`, `Simulates`, `VerifiesPeriods`, `VerifiesSteps`, `AuditsPosts`, `ReplaysThread`, `ImportsCharacters`), and the `…_of` helpers that answer for a game without one |
| `author.py` | `Author` and the one rule for who may act for what (`may_act`, `ANYONE`) |
| `keys.py` | `unknown_keys`: the check of a scenario table's keys every game makes (a typo refused by name, 「…のことですか？」), `close_to`, `table_of` / `tables_of` (the tables to check), `as_written` (a value quoted back as TOML writes it) |
| `registry.py` | `Registry`: the games by id, handed down by the composition root |
"""

from engine.ruleset.author import ANYONE, Author, Owners, board_id, may_act
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
    result_data,
)
from engine.ruleset.capabilities import (
    NOTHING_SETTABLE,
    AnnotatesReceipts,
    AssumesOrders,
    AuditsPosts,
    HoldsSeats,
    ImportsCharacters,
    OfflineForms,
    Pictured,
    ReadsWithState,
    ReplaysThread,
    Settable,
    ShowsOpening,
    Simulates,
    ThreadAudit,
    VerifiesPeriods,
    VerifiesSteps,
    orders_file,
    picture_of,
    plain_orders,
    plain_randoms,
    players_of,
    randoms_file,
    read_line_of,
    seats_of,
    set_value_of,
)
from engine.ruleset.keys import as_written, close_to, table_of, tables_of, unknown_keys
from engine.ruleset.registry import Registry

__all__ = [
    "ANYONE",
    "NOTHING_SETTABLE",
    "AnnotatesReceipts",
    "AssumesOrders",
    "AuditsPosts",
    "Author",
    "C",
    "ClockedRuleset",
    "HoldsSeats",
    "ImmediateRuleset",
    "ImportsCharacters",
    "OfflineForms",
    "Order",
    "OrderText",
    "Owners",
    "Pictured",
    "ReadsWithState",
    "Registry",
    "Rejection",
    "ReplaysThread",
    "Ruleset",
    "RulesetError",
    "S",
    "Settable",
    "Setting",
    "ShowsOpening",
    "Simulates",
    "ThreadAudit",
    "VerifiesPeriods",
    "VerifiesSteps",
    "as_written",
    "board_id",
    "close_to",
    "may_act",
    "orders_file",
    "picture_of",
    "plain_orders",
    "plain_randoms",
    "players_of",
    "randoms_file",
    "read_line_of",
    "result_data",
    "seats_of",
    "set_value_of",
    "table_of",
    "tables_of",
    "unknown_keys",
]
