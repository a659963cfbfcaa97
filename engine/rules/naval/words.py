"""The words of seed 002's orders that the grammar and the reading of near misses share: the order
keywords, the unit id's shape (`ABC-DD-A-01`), the dashes an IME puts inside an id, the page's
example of each order."""

from __future__ import annotations

from typing import Literal

OrderKind = Literal["attack", "intercept", "move"]

KEYWORDS: dict[str, OrderKind] = {
    "攻撃": "attack",
    "インターセプト": "intercept",
    "迎撃": "intercept",
    "移動": "move",
}
CANONICAL_KEYWORD: dict[OrderKind, str] = {"attack": "攻撃", "intercept": "インターセプト", "move": "移動"}

UNIT_ID = r"[A-Z][A-Z0-9]*-[A-Z]+-[A-Z0-9]+-[0-9]+"
ISLAND_CODE = r"[A-Z][A-Z0-9]*"

# Dashes an IME may put inside an id; NFKC leaves all of these alone.
DASHES = str.maketrans(dict.fromkeys("‐‑‒–—―−ー─━", "-"))

EXAMPLE: dict[OrderKind, str] = {
    "attack": "＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05",
    "intercept": "＜インターセプト＞ABC-F-A-03、XYZ-F-X-07",
    "move": "＜移動＞ABC-DD-A-01、(5,6)",
}
