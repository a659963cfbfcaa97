"""The `ID:xxxxxxxx` of the date field: eight characters, the same for one client on one board for
one JST day, different the next day, and not reversible to the address without the board's secret.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from datetime import date
from functools import lru_cache


@lru_cache(maxsize=1024)  # one per client a day: asked again at each of its posts
def daily_id(secret: bytes, board: str, client: str, day: date) -> str:
    digest = hmac.digest(secret, f"{board}|{day.isoformat()}|{client}".encode(), hashlib.sha256)
    return base64.b64encode(digest, altchars=b"+/").decode()[:8]
