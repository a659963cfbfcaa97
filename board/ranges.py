"""Post ranges of read.cgi and rawmode.cgi: `N`, `N-M`, `N-`, `-M`, `lN`, each optionally with `n`.

As on 2ch's read.cgi, post 1 is shown with any range unless `n` follows (`l50n`, `5-10n`).
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

_RANGE = regex.compile(r"^(?:l(?P<last>\d{1,4})|(?P<first>\d{1,4})?(?P<dash>-)?(?P<end>\d{1,4})?)(?P<n>n)?$")


@dataclass(frozen=True)
class PostRange:
    """Which posts a read.cgi/rawmode.cgi option asks for: `N`, `N-M`, `N-`, `-M`, `lN`, `+n`."""

    first: int = 1
    last: int | None = None  # None: to the end
    latest: int | None = None  # `lN`: the last N posts
    with_first_post: bool = True

    @classmethod
    def parse(cls, option: str) -> PostRange | None:
        if option in ("", "/"):
            return cls()
        match = _RANGE.match(option.strip("/"))
        if not match or option.strip("/") in ("n", "-"):
            return None
        keep_first = not match["n"]
        if match["last"]:
            return cls(latest=int(match["last"]), with_first_post=keep_first)
        first = int(match["first"]) if match["first"] else 1
        if match["dash"]:
            last = int(match["end"]) if match["end"] else None
        else:
            last = first
        return cls(first=first, last=last, with_first_post=keep_first)

    def select(self, total: int) -> list[int]:
        """The post numbers (1-based) to show out of `total`, in order."""
        if self.latest is not None:
            numbers = list(range(max(1, total - self.latest + 1), total + 1))
        else:
            last = total if self.last is None else min(self.last, total)
            numbers = list(range(max(self.first, 1), last + 1))
        if self.with_first_post and total and (not numbers or numbers[0] != 1):
            numbers.insert(0, 1)
        return numbers
